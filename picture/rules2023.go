package picture

import (
	"fmt"
	"math"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// The 2023 rules in pictures (seed 004; docs/pictures.md, docs/rules-2023.md):
//
//	green belt     a green band with a dark arrow (normal belts; blue belts are the
//	               express belts, drawn as ever)
//	battery        a green battery with a yellow bolt
//	reboot token   a blue disc with a white arrow the way it pushes a robot found on it
//	docking bay    the floor of the docking bay board is a cooler grey
//	push panel     the pusher's plate, with the registers it pushes in (as ever)
//	legend         each robot's energy (a yellow bar of ten and the number), checkpoints,
//	               upgrades installed, damage cards held, and rebooting or shut down
//	turn GIF       cards by name; a robot that falls is crossed out where it fell and
//	               re-enters on its token; captions name the upgrade phase, shutdown,
//	               SPAM replaced, Again, upgrades used, energy from batteries, damage
//	               cards drawn and the priority token.

// ownRules reports whether the picture is of a 2023 game.
func ownRules(c *adjudicator.Course, robots []adjudicator.Robot, opt Options) bool {
	if opt.Rules != "" {
		return opt.Rules == "2023"
	}
	if c.Rules == "2023" {
		return true
	}
	for i := range robots {
		if robots[i].Mat != nil {
			return true
		}
	}
	return false
}

// dockAt reports whether q is on a placed docking bay board.
func (p *painter) dockAt(q adjudicator.Pos) bool {
	k := p.c.BoardOf(q)
	return k >= 0 && k < len(p.c.Parts) && p.c.Parts[k].Board == "docking-bay"
}

// battery draws a battery: an upright green cell with a terminal on top and a yellow
// bolt (seed 004, Batteries).
func (p *painter) battery(cv canvas, q adjudicator.Pos) {
	cx, cy := p.l.centre(q)
	cs := float64(p.l.cs)
	w, h := cs*0.38, cs*0.6
	cv.fill(cx-w/2-1, cy-h/2+cs*0.06-1, cx+w/2+1, cy+h/2+1, cInk, func(float64, float64) bool { return true })
	cv.fill(cx-w/2, cy-h/2+cs*0.06, cx+w/2, cy+h/2, cBattery, func(float64, float64) bool { return true })
	cv.fill(cx-w/5, cy-h/2-cs*0.02, cx+w/5, cy-h/2+cs*0.06, cInk, func(float64, float64) bool { return true })
	// The bolt: two wedges.
	cv.poly(cBatteryInk, [2]float64{cx + cs*0.06, cy - h*0.36}, [2]float64{cx - cs*0.12, cy + cs*0.04}, [2]float64{cx + cs*0.01, cy + cs*0.04})
	cv.poly(cBatteryInk, [2]float64{cx - cs*0.06, cy + h*0.4}, [2]float64{cx + cs*0.12, cy - cs*0.04}, [2]float64{cx - cs*0.01, cy - cs*0.04})
}

// rebootToken draws a reboot token: a blue disc with a white arrow pointing the way a
// robot found on it is pushed (seed 004, Re-entering Play 2).
func (p *painter) rebootToken(cv canvas, q adjudicator.Pos, d adjudicator.Dir) {
	cx, cy := p.l.centre(q)
	cs := float64(p.l.cs)
	cv.disc(cx, cy, cs*0.44, cInk)
	cv.disc(cx, cy, cs*0.44-1.5, cReboot)
	cv.ring(cx, cy, cs*0.3, math.Max(1.5, cs/16), cWhite)
	ux, uy := unit(d)
	px, py := -uy, ux
	tip, back := cs*0.36, cs*0.1
	h := cs * 0.16
	cv.poly(cWhite, [2]float64{cx + ux*tip, cy + uy*tip}, [2]float64{cx + ux*back + px*h, cy + uy*back + py*h},
		[2]float64{cx + ux*back - px*h, cy + uy*back - py*h})
	cv.line(cx-ux*cs*0.25, cy-uy*cs*0.25, cx+ux*back, cy+uy*back, math.Max(2, cs/12), cWhite)
}

// damageHeld is the damage cards robot r holds: in hand and face down under its
// registers (what a shutdown would discard).
func damageHeld(r *adjudicator.Robot) int {
	n := 0
	for _, c := range r.Hand {
		if adjudicator.CardKind(c).Damage() {
			n++
		}
	}
	if r.Mat != nil {
		for _, hw := range r.Mat.Haywire {
			if hw != 0 {
				n++
			}
		}
	}
	return n
}

// legendWords2023 is a robot's legend entry under the 2023 rules (seed 004) in words:
// the first line its energy and checkpoints (after the energy bar), the second where it
// faces, its state, its upgrades and the damage cards it holds; and its energy (-1 when
// it has no mat: no bar).
func legendWords2023(r *adjudicator.Robot, checkpoints int) (string, string, int) {
	energy := -1
	if r.Mat != nil {
		energy = r.Mat.Energy
	}
	first := fmt.Sprintf("%s: energy %d, %d of %d checkpoints", r.Name, max(energy, 0), r.Flags, checkpoints)
	var more []string
	switch {
	case r.Out:
		more = append(more, "out of the race")
	case r.Destroyed:
		more = append(more, "rebooting")
	default:
		more = append(more, "faces "+facingWord(r.Facing))
		if r.Power == adjudicator.PowerDown {
			more = append(more, "shut down")
		}
	}
	if len(r.Options) > 0 {
		more = append(more, "upgrades: "+strings.Join(r.Options, ", "))
	} else {
		more = append(more, "no upgrades")
	}
	switch d := damageHeld(r); d {
	case 0:
	case 1:
		more = append(more, "1 damage card")
	default:
		more = append(more, fmt.Sprintf("%d damage cards", d))
	}
	return first, strings.Join(more, "; "), energy
}

// energyBar draws energy (0-10) as ten small cells, filled up to the energy, at x, y.
func (p *painter) energyBar(cv canvas, x, y, energy int) int {
	const cell, gap = 3, 1
	cv.rect(x-1, y-1, x+10*(cell+gap), y+8, cInk)
	for k := 0; k < 10; k++ {
		col := uint8(cWhite)
		if k < energy {
			col = cEnergy
		}
		cv.rect(x+k*(cell+gap), y, x+k*(cell+gap)+cell, y+7, col)
	}
	return 10*(cell+gap) + 3
}

// cardCaption2023 is a card step's caption under the 2023 rules: cards are named, not
// numbered, and a register can replace, repeat and use upgrades.
func cardCaption2023(s Step) string {
	head := fmt.Sprintf("Register %d — ", s.Register)
	what := s.Robot
	if s.Card != 0 {
		what += ": " + adjudicator.CardKind(s.Card).Title()
	}
	var notes []string
	for _, e := range s.Events {
		switch e.Kind {
		case adjudicator.EvReenter:
			if e.To != nil {
				notes = append(notes, fmt.Sprintf("%s re-enters at %v", e.Robot, *e.To))
			}
		case adjudicator.EvReplaced:
			if e.Amount != 0 {
				notes = append(notes, fmt.Sprintf("%s replaced by %s", adjudicator.CardKind(e.Card).Title(), adjudicator.CardKind(e.Amount).Title()))
			} else {
				notes = append(notes, adjudicator.CardKind(e.Card).Title()+" replaced by nothing")
			}
		case adjudicator.EvAgain:
			if e.Card != 0 {
				notes = append(notes, "again "+adjudicator.CardKind(e.Card).Title())
			} else {
				notes = append(notes, "again: nothing to repeat")
			}
		case adjudicator.EvUse:
			notes = append(notes, e.Robot+" uses "+e.Option)
		case adjudicator.EvEnergy:
			notes = append(notes, fmt.Sprintf("%s energy %d", e.Robot, e.Amount))
		case adjudicator.EvPush:
			notes = append(notes, "pushes "+e.Robot)
		case adjudicator.EvBlocked:
			if e.Robot == s.Robot {
				notes = append(notes, "blocked by a "+e.Cause)
			}
		case adjudicator.EvReboot:
			notes = append(notes, e.Robot+" reboots ("+e.Cause+")")
		case adjudicator.EvDamageCard:
			notes = append(notes, e.Robot+" takes "+adjudicator.CardKind(e.Card).Title())
		}
	}
	if len(notes) > 0 {
		what += "; " + strings.Join(dedupe(notes), ", ")
	}
	return head + what
}

// phaseTitle2023 names a 2023 register step (seed 004, Board Element Activation).
func phaseTitle2023(phase string) string {
	switch phase {
	case "blue":
		return "blue belts"
	case "green":
		return "green belts"
	case "pushers":
		return "push panels"
	case "flags":
		return "checkpoints"
	}
	return phase
}

// phaseCaption2023 is a board, laser, battery, checkpoint or round step's caption under
// the 2023 rules.
func phaseCaption2023(s Step) string {
	var head string
	switch {
	case s.Register > 0:
		head = fmt.Sprintf("Register %d — %s", s.Register, phaseTitle2023(s.Phase))
	case s.Phase == "upgrade":
		head = "Upgrade phase"
	case s.Phase == "end":
		head = "End of round"
	default:
		head = "Before the registers"
	}
	var notes []string
	for _, e := range s.Events {
		switch e.Kind {
		case adjudicator.EvConveyed, adjudicator.EvPushed, adjudicator.EvRotated:
			notes = append(notes, e.Robot)
		case adjudicator.EvReboot:
			notes = append(notes, e.Robot+" reboots ("+e.Cause+")")
		case adjudicator.EvDamage:
			by := "board"
			if e.Other != "" {
				by = e.Other
			}
			notes = append(notes, fmt.Sprintf("%s hit %d by %s", e.Robot, e.Amount, by))
		case adjudicator.EvDamageCard:
			notes = append(notes, e.Robot+" takes "+adjudicator.CardKind(e.Card).Title())
		case adjudicator.EvEnergy:
			notes = append(notes, fmt.Sprintf("%s energy %d", e.Robot, e.Amount))
		case adjudicator.EvFlag:
			notes = append(notes, fmt.Sprintf("%s reaches checkpoint %d", e.Robot, e.Amount))
		case adjudicator.EvWin:
			notes = append(notes, e.Robot+" WINS")
		case adjudicator.EvUse:
			notes = append(notes, e.Robot+" uses "+e.Option)
		case adjudicator.EvAbsorbed:
			notes = append(notes, fmt.Sprintf("%s's %s stops %d", e.Robot, e.Option, e.Amount))
		case adjudicator.EvUpgrade:
			switch e.Cause {
			case "draw":
				notes = append(notes, e.Robot+" draws an upgrade")
			case "install":
				notes = append(notes, fmt.Sprintf("%s installs %s (%d energy)", e.Robot, e.Option, e.Amount))
			case "uninstall":
				notes = append(notes, e.Robot+" uninstalls "+e.Option)
			}
		case adjudicator.EvShutdown:
			notes = append(notes, fmt.Sprintf("%s shuts down (discards %d damage cards)", e.Robot, e.Amount))
		case adjudicator.EvPriority:
			notes = append(notes, e.Robot+" takes the priority token")
		case adjudicator.EvPoweredUp:
			notes = append(notes, e.Robot+" powers up")
		}
	}
	return joinCaption(head, dedupe(notes))
}
