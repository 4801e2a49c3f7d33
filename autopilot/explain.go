package autopilot

import (
	"fmt"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// explain says in a line what the chosen program does and, when a program going
// further was turned down, what it avoids.
func (p *Pilot) explain(st *adjudicator.State, robot int, s *search) string {
	o, before := s.best, &s.before
	nflags := len(p.guide.flags)
	var parts []string
	switch {
	case o.Won:
		return fmt.Sprintf("touches flag %d and wins the race", nflags)
	case o.Flags == 1:
		parts = append(parts, fmt.Sprintf("touches flag %d", before.Flags+1))
	case o.Flags > 1:
		parts = append(parts, fmt.Sprintf("touches flags %d to %d", before.Flags+1, before.Flags+o.Flags))
	}
	next := before.Flags + o.Flags + 1
	switch {
	case o.Out:
		parts = append(parts, "cannot avoid losing its last life")
	case o.Destroyed && o.Flags > 0:
		parts = append(parts, fmt.Sprintf("is destroyed after and re-enters at its archive, %s from flag %d", squares(o.Dist), next))
	case o.Destroyed:
		parts = append(parts, fmt.Sprintf("cannot avoid destruction; re-enters %s from flag %d", squares(o.Dist), next))
	case o.Flags == 0:
		from := p.guide.Dist(next, before.Pos)
		switch {
		case o.Dist < from:
			parts = append(parts, fmt.Sprintf("heads for flag %d (%s to go, from %d)", next, squares(o.Dist), from))
		case o.Dist == from:
			parts = append(parts, fmt.Sprintf("holds its ground %s from flag %d", squares(o.Dist), next))
		default:
			parts = append(parts, fmt.Sprintf("falls back to %s from flag %d (was %d)", squares(o.Dist), next, from))
		}
	default:
		parts = append(parts, fmt.Sprintf("then heads for flag %d (%s to go)", next, squares(o.Dist)))
	}
	if o.Taken > 0 && !o.Destroyed {
		parts = append(parts, fmt.Sprintf("takes %d damage", o.Taken))
	}
	switch {
	case o.Repair > 0:
		parts = append(parts, fmt.Sprintf("ends on a repair site (repairs %d)", o.Repair))
	case o.Option:
		parts = append(parts, "ends on a double wrench for an option card")
	}
	var turnedDown [adjudicator.Registers]int
	switch {
	case s.lostProg != turnedDown && !o.Destroyed && s.lost.progress() >= o.progress():
		turnedDown = s.lostProg
	case s.hurtProg != turnedDown && !o.Destroyed && s.hurt.Taken > o.Taken && s.hurt.progress() > o.progress():
		turnedDown = s.hurtProg
	}
	if turnedDown != ([adjudicator.Registers]int{}) {
		if a := p.avoided(st, robot, turnedDown); a != "" {
			parts = append(parts, a)
		}
	}
	return strings.Join(parts, ", ")
}

// squares is "1 square", "5 squares", "no way through".
func squares(n int) string {
	switch n {
	case 1:
		return "1 square"
	case Unreachable:
		return "no way through"
	}
	return fmt.Sprintf("%d squares", n)
}

// avoided replays a turned-down program with events and names its first mishap.
func (p *Pilot) avoided(st *adjudicator.State, robot int, prog [adjudicator.Registers]int) string {
	_, events, err := adjudicator.Simulate(p.setup, st, robot, adjudicator.Orders{Program: prog})
	if err != nil {
		return ""
	}
	name := st.Robots[robot].Name
	pos := st.Robots[robot].Pos
	for _, e := range events {
		if e.Robot != name {
			continue
		}
		switch e.Kind {
		case adjudicator.EvMove, adjudicator.EvPush, adjudicator.EvConveyed, adjudicator.EvPushed:
			if e.To != nil {
				pos = *e.To
			}
		case adjudicator.EvDestroyed:
			at := pos
			if e.From != nil {
				at = *e.From
			}
			switch e.Cause {
			case "pit":
				return "avoids the pit at " + at.String()
			case "off-board":
				return "avoids falling off the board at " + at.String()
			case "crusher":
				return "avoids the crusher at " + at.String()
			default:
				return "avoids being shot to pieces at " + at.String()
			}
		case adjudicator.EvDamage:
			if e.Cause == "laser" {
				return "avoids the laser at " + pos.String()
			}
			return "avoids a robot's laser at " + pos.String()
		}
	}
	return ""
}

// suggest writes the Decider's policy as standing orders in the order language
// (docs/orders.md), with the re-entry facing for where the plan leaves the archive.
func (p *Pilot) suggest(st *adjudicator.State, robot int, end *adjudicator.Robot) []string {
	r := &st.Robots[robot]
	nflags := len(p.guide.flags)
	var out []string
	const safe = "and not on a laser and not on a belt and not on a pusher and not on a crusher"
	for _, act := range []string{"power down", "stay down"} {
		if act == "stay down" && r.Power != adjudicator.PowerDown {
			continue
		}
		if nflags > 1 {
			// Not on the last flag run: flags < nflags-1.
			out = append(out, fmt.Sprintf("%s if damage > %d and flags < %d %s", act, powerDownAt-1, nflags-1, safe))
		}
		out = append(out, fmt.Sprintf("%s if damage > %d %s", act, powerDownLastRunAt-1, safe))
	}
	out = append(out, fmt.Sprintf("if I finish on 2 spanner repair & damage > %d repair, else take option card", repairAbove))
	archive, flags := r.Archive, r.Flags
	if end != nil {
		archive, flags = end.Archive, end.Flags
	}
	if d, ok := p.guide.Downhill(flags+1, archive); ok {
		out = append(out, "reenter facing "+d.String())
	} else {
		out = append(out, "reenter facing toward the next flag")
	}
	if len(r.Options) > 0 {
		out = append(out, fmt.Sprintf("discard any option to prevent damage if damage > %d", preventAt-1))
	}
	return out
}
