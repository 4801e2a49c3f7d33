package autopilot

import "github.com/rallyjudge/rallyjudge/adjudicator"

// How a forecast outcome is valued. Scores are integers so a plan is the same on every
// machine (no floating point to fuse differently). The units are hundredths of a step:
// one square nearer the next flag is worth stepValue.
const (
	stepValue    = 100         // a square of path nearer the next flag
	turnValue    = 25          // a quarter turn still needed to face the way to go
	flagValue    = 10_000      // a flag touched: more than any distance on a course
	winValue     = 100_000_000 // the last flag: the game
	damageValue  = 120         // a point of damage kept at the end of the turn
	lockValue    = 250         // a register newly locked (rules README, A turn 2)
	destroyValue = 8_000       // a life lost, on top of restarting from the archive
	outValue     = 1_000_000   // the last life lost: out of the race
	laserValue   = 60          // per beam reaching the final square (it fires again)
	optionValue  = 400         // an option card drawn at a double wrench
)

// outcome is where a program leaves the robot, as the end of turn will see it.
type outcome struct {
	Score     int
	Flags     int // flags touched this turn
	Won       bool
	Register  int // the register in which the race is won (Won; 2023 rules)
	Destroyed bool
	Out       bool
	Dist      int // path distance to the next flag from where the robot will stand
	Reach     int // path distance from where the program left it, even if destroyed there
	Damage    int // damage after the end-of-turn repair (re-entry damage if destroyed)
	Taken     int // damage points taken in the registers
	Repair    int // points the end of turn repairs
	Option    bool
	Beams     int // board laser beams on the final square
}

// progress is the score leaving out everything but flags and distance: what a
// reckless pilot would maximise. Explanations compare it to find what was avoided.
func (o outcome) progress() int {
	if o.Won {
		return winValue
	}
	return o.Flags*flagValue - o.Reach*stepValue
}

// evaluate values robot after (the forecast after five registers) against before.
func (p *Pilot) evaluate(before, after *adjudicator.Robot) outcome {
	g := p.guide
	nflags := len(g.flags)
	o := outcome{Flags: after.Flags - before.Flags}
	if after.Flags >= nflags {
		o.Won = true
		o.Score = winValue
		return o
	}
	next := after.Flags + 1
	o.Reach = g.Near(next, after.Pos)
	if after.Out {
		o.Out, o.Destroyed = true, true
		o.Score = o.Flags*flagValue - outValue
		return o
	}
	pos, facing, dmg := after.Pos, after.Facing, after.Damage
	o.Taken = max(0, after.Damage-before.Damage)
	s := o.Flags * flagValue
	if after.Destroyed {
		// Re-entry at the archive with ReentryDamage, facing the way to go (Decider).
		o.Destroyed = true
		s -= destroyValue
		if after.Lives == 1 {
			s -= destroyValue // the last life is the next to go
		}
		pos, dmg = after.Archive, p.setup.Rules.ReentryDamage
		if d, ok := g.Downhill(next, pos); ok {
			facing = d
		}
	} else {
		// End of turn repairs (rules README, A turn 5): the Decider repairs at a double
		// wrench when damage > 3, else takes an option.
		sq := p.setup.Course.Board.At(pos)
		switch {
		case sq.Repair >= 2 && dmg > repairAbove:
			o.Repair = min(dmg, sq.Repair)
		case sq.Repair >= 2 && len(p.setup.Options) > 0 && len(before.Options) < p.setup.Rules.MaxOptions:
			// An option card is worth a detour of a few squares when the game deals them
			// and the robot has room for one (docs/options.md).
			o.Option = true
			s += optionValue
		case sq.Repair >= 2:
			o.Repair = min(dmg, sq.Repair) // nothing to draw: the site repairs (endturn.go)
		case sq.Repair == 1 || p.setup.Course.FlagAt(pos) > 0:
			o.Repair = min(dmg, 1)
		}
		dmg -= o.Repair
		o.Beams = g.Beams(pos)
		s -= o.Beams * laserValue
	}
	o.Damage = dmg
	o.Dist = g.Dist(next, pos)
	s -= o.Dist * stepValue
	s -= g.Turns(next, pos, facing) * turnValue
	s -= (dmg - before.Damage) * damageValue
	s -= (adjudicator.LockedFor(dmg) - adjudicator.LockedFor(before.Damage)) * lockValue
	o.Score = s
	return o
}
