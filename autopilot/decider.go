package autopilot

import (
	"slices"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// The bot's run-time policy, in numbers. Plan.Orders writes the same policy in the
// order language.
const (
	// powerDownAt: announce a power down at this much damage (5 locks register 5, rules
	// README, A turn 2), except on the run to the last flag, where a turn lost costs
	// the race.
	powerDownAt = 5
	// powerDownLastRunAt: on the last flag run too, from this much damage (7 locks
	// three registers; the robot can hardly steer).
	powerDownLastRunAt = 7
	// repairAbove: at a double wrench, repair when damage is above this, else take an
	// option card (seed 003, Repair Sites).
	repairAbove = 3
	// preventAt: discard an option to prevent a point of damage from this much damage
	// on (the next points lock registers).
	preventAt = 4
)

// Decider answers a bot's run-time decisions (adjudicator.Decider). The zero value
// works; with a Guide it re-enters facing along the path to the next flag rather than
// straight at it.
type Decider struct {
	Guide *Guide
}

// NewDecider is a Decider for the course of setup s.
func NewDecider(s *adjudicator.Setup) Decider { return Decider{Guide: NewGuide(s)} }

// Decider is a Decider sharing the pilot's Guide.
func (p *Pilot) Decider() Decider { return Decider{Guide: p.guide} }

var _ adjudicator.Decider = Decider{}

// safeToStop reports whether the robot can stand still for a turn: no board laser on
// its square (a powered-down robot is hit in every register) and no belt, pusher or
// crusher to move or crush it.
func safeToStop(v adjudicator.View) bool {
	sq := v.Square()
	return !v.OnLaser() && sq.Belt.Kind == adjudicator.NoBelt && sq.Pusher.Registers == 0 && sq.Crusher == 0
}

// lastRun reports whether the robot's next flag is the last.
func lastRun(v adjudicator.View) bool {
	r := v.Robot()
	return r.Flags >= v.Flags()-1
}

// PowerDown when badly damaged (powerDownAt, or powerDownLastRunAt on the last flag
// run) and safe to stand still (rules README, A turn 3: a powered-down robot has all
// its damage repaired).
func (Decider) PowerDown(v adjudicator.View) bool { return wantsDown(v) }

// StayDown when the turn down left the robot badly damaged again and it is still safe.
func (Decider) StayDown(v adjudicator.View) bool { return wantsDown(v) }

func wantsDown(v adjudicator.View) bool {
	r := v.Robot()
	at := powerDownAt
	if lastRun(v) {
		at = powerDownLastRunAt
	}
	return r.Damage >= at && safeToStop(v)
}

// DoubleWrench repairs when damage is above repairAbove, else takes an option.
func (Decider) DoubleWrench(v adjudicator.View) adjudicator.WrenchChoice {
	if v.Robot().Damage > repairAbove {
		return adjudicator.Repair2
	}
	return adjudicator.TakeOption
}

// ReentryFacing faces along the shortest path to the next flag (View.TowardNextFlag
// without a Guide, or where no step leads nearer).
func (d Decider) ReentryFacing(v adjudicator.View) adjudicator.Dir {
	if d.Guide != nil {
		r := v.Robot()
		if dir, ok := d.Guide.Downhill(r.Flags+1, r.Archive); ok {
			return dir
		}
	}
	return v.TowardNextFlag()
}

// PreventDamage discards the oldest option against a point of damage once damage
// reaches preventAt.
func (Decider) PreventDamage(v adjudicator.View, _ string) int {
	r := v.Robot()
	if len(r.Options) > 0 && r.Damage >= preventAt {
		return 0
	}
	return -1
}

// LoseOption loses the oldest.
func (Decider) LoseOption(adjudicator.View, adjudicator.Loss) int { return 0 }

// Option declines: the base game's options ask nothing yet.
func (Decider) Option(adjudicator.View, string, string) string { return "" }

var _ adjudicator.PickDecider = Decider{}

// PickOption takes the card the bot likes best (keepRank) of a Deluxe Option Package or
// a Scavenger Hunt pile, and gives the robot on its right the one it likes least
// (Scavenger Hunt II); pickOrders writes the same as orders.
func (Decider) PickOption(_ adjudicator.View, why adjudicator.Pick, cards []string) int {
	pick := byLiking(cards)[0]
	if why == adjudicator.PickScavengerFor {
		pick = byLiking(cards)[len(cards)-1]
	}
	return slices.Index(cards, pick)
}
