package templates

import (
	"fmt"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// Section is the narration of one part of a turn: register 1–5, or 0 for the end of the
// turn (repairs, re-entry, power, deal).
type Section struct {
	Register int
	Title    string
	Lines    []string
}

// Narrate writes a turn's event log as sentences for people, grouped by register. A
// card's whole effect is one line ("P790 Zoom plays Move 3: moves 3 to 4,5; pushes
// Twonky to 4,6"); board elements, lasers and flags get a line each.
func Narrate(deck *adjudicator.Deck, events []adjudicator.Event) []Section {
	var out []Section
	var cur *Section
	var line *strings.Builder
	var lineRobot string
	steps := 0
	var lastTo *adjudicator.Pos
	flush := func() {
		if line == nil {
			return
		}
		if steps > 0 {
			fmt.Fprintf(line, "; moves %d to %v", steps, *lastTo)
		}
		cur.Lines = append(cur.Lines, line.String())
		line, lineRobot, steps, lastTo = nil, "", 0, nil
	}
	section := func(reg int) {
		if cur != nil && cur.Register == reg {
			return
		}
		flush()
		title := fmt.Sprintf("Register %d", reg)
		if reg == 0 {
			title = "End of turn"
		}
		out = append(out, Section{Register: reg, Title: title})
		cur = &out[len(out)-1]
	}
	add := func(s string) {
		flush()
		cur.Lines = append(cur.Lines, s)
	}
	for _, e := range events {
		if e.Phase == "deal" {
			continue // hands are private; each report shows its own
		}
		section(e.Register)
		switch e.Kind {
		case adjudicator.EvCard:
			flush()
			line = &strings.Builder{}
			lineRobot = e.Robot
			fmt.Fprintf(line, "P%d %s plays %s", e.Card, e.Robot, deck.Kind(e.Card).Title())
		case adjudicator.EvTurn:
			if line != nil && e.Robot == lineRobot {
				fmt.Fprintf(line, "; now faces %s", dirName(e.Facing))
			} else {
				add(fmt.Sprintf("%s turns to face %s", e.Robot, dirName(e.Facing)))
			}
		case adjudicator.EvMove:
			if line != nil && e.Robot == lineRobot {
				steps++
				lastTo = e.To
			} else {
				add(fmt.Sprintf("%s moves from %v to %v", e.Robot, *e.From, *e.To))
			}
		case adjudicator.EvPush:
			s := fmt.Sprintf("pushes %s to %v", e.Robot, *e.To)
			if line != nil {
				if steps > 0 {
					fmt.Fprintf(line, "; moves %d to %v", steps, *lastTo)
					steps, lastTo = 0, nil
				}
				fmt.Fprintf(line, "; %s", s)
			} else {
				add(fmt.Sprintf("%s %s", e.Other, s))
			}
		case adjudicator.EvBlocked:
			what := "a wall"
			if e.Other != "" {
				what = fmt.Sprintf("a wall behind %s", e.Other)
			}
			if line != nil && e.Robot == lineRobot {
				if steps > 0 {
					fmt.Fprintf(line, "; moves %d to %v", steps, *lastTo)
					steps, lastTo = 0, nil
				}
				fmt.Fprintf(line, "; is stopped by %s", what)
			} else {
				add(fmt.Sprintf("%s is stopped by %s", e.Robot, what))
			}
		case adjudicator.EvDestroyed:
			s := fmt.Sprintf("%s is destroyed (%s)", e.Robot, causeName(e.Cause))
			if line != nil && e.Phase == "move" {
				if e.Robot == lineRobot && steps > 0 {
					fmt.Fprintf(line, "; moves %d to %v", steps, *lastTo)
					steps, lastTo = 0, nil
				}
				fmt.Fprintf(line, "; %s", s)
			} else {
				add(s)
			}
		case adjudicator.EvConveyed:
			add(fmt.Sprintf("%s is carried by the %s from %v to %v", e.Robot, beltName(e.Phase), *e.From, *e.To))
		case adjudicator.EvRotated:
			add(fmt.Sprintf("%s is turned by the %s to face %s", e.Robot, e.Cause, dirName(e.Facing)))
		case adjudicator.EvPushed:
			add(fmt.Sprintf("%s is pushed by a %s from %v to %v", e.Robot, e.Cause, *e.From, *e.To))
		case adjudicator.EvDamage:
			if e.Other != "" {
				add(fmt.Sprintf("%s shoots %s: %s", e.Other, e.Robot, points(e.Amount, "damage")))
			} else {
				add(fmt.Sprintf("a board laser hits %s: %s", e.Robot, points(e.Amount, "damage")))
			}
		case adjudicator.EvPrevented:
			add(fmt.Sprintf("%s discards %s to prevent a point of damage", e.Robot, e.Option))
		case adjudicator.EvFlag:
			add(fmt.Sprintf("%s touches flag %d", e.Robot, e.Amount))
		case adjudicator.EvArchive:
			add(fmt.Sprintf("%s's archive moves to %v", e.Robot, *e.To))
		case adjudicator.EvWin:
			add(fmt.Sprintf("%s touches the last flag and WINS THE RACE", e.Robot))
		case adjudicator.EvRepair:
			add(fmt.Sprintf("%s repairs %s", e.Robot, points(e.Amount, "damage")))
		case adjudicator.EvOptionGain:
			add(fmt.Sprintf("%s takes an option card: %s", e.Robot, e.Option))
		case adjudicator.EvOptionLose:
			add(fmt.Sprintf("%s loses option %s", e.Robot, e.Option))
		case adjudicator.EvLifeLost:
			add(fmt.Sprintf("%s has %s left", e.Robot, points(e.Amount, "life")))
		case adjudicator.EvOut:
			add(fmt.Sprintf("%s has no lives left and is out of the race", e.Robot))
		case adjudicator.EvReenter:
			add(fmt.Sprintf("%s re-enters at %v facing %s with %s", e.Robot, *e.To, dirName(e.Facing), points(e.Amount, "damage")))
		case adjudicator.EvReal:
			add(fmt.Sprintf("%s is alone on its square and becomes real", e.Robot))
		case adjudicator.EvAnnounce:
			add(fmt.Sprintf("%s powers down for the next turn (all damage repaired)", e.Robot))
		case adjudicator.EvStayDown:
			add(fmt.Sprintf("%s stays powered down", e.Robot))
		case adjudicator.EvPoweredUp:
			add(fmt.Sprintf("%s powers up again", e.Robot))
		default:
			add(fmt.Sprintf("%s: %s", e.Robot, e.Kind))
		}
	}
	flush()
	return out
}

func dirName(d *adjudicator.Dir) string {
	if d == nil {
		return "?"
	}
	return [...]string{"north", "east", "south", "west"}[*d&3]
}

func beltName(phase string) string {
	if phase == "express" {
		return "express belt"
	}
	return "belt"
}

func causeName(c string) string {
	switch c {
	case "pit":
		return "fell into a pit"
	case "off-board":
		return "fell off the board"
	case "crusher":
		return "crushed"
	case "damage":
		return "too much damage"
	}
	return c
}

func points(n int, what string) string {
	if what == "life" {
		if n == 1 {
			return "1 life"
		}
		return fmt.Sprintf("%d lives", n)
	}
	return fmt.Sprintf("%d %s", n, what)
}
