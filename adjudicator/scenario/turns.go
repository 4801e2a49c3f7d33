package scenario

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// Scenarios of several turns and stacked decks (docs/scenarios.md, "Several turns" and
// "The draw pile"):
//
//	deal: P490 P500 ...       the top of the deck dealt at the end of this turn, in order
//	pile: P490 P500 ...       the top of this turn's draw pile (Emergency Switch,
//	                          Randomizer, Scrambler Bomb, randomizer squares)
//	turn 2:                   a section: the next turn, from the state turn 1 ends in
//	program A: ...            its programs, decide and orders lines, upgrade lines, pile,
//	expect A: ...             deal, stop and expect lines; expectations check this turn
//
// Every robot's program is written again in each section; decide and orders lines hold
// for the turn they are written in only (a section without them uses the defaults).
// Only the last turn may stop part way.

// Turn is one turn of a scenario after the first: its orders and the deck stacked for it.
type Turn struct {
	Line      int                  `json:"line"` // the "turn N:" line
	Stop      int                  `json:"stop,omitempty"`
	Orders    []adjudicator.Orders `json:"-"`
	Decisions []Decisions          `json:"decisions"`
	Pile      []int                `json:"pile,omitempty"`
	Deal      []int                `json:"deal,omitempty"`
}

// section is what a "turn N:" section's lines hold while the file is read: per robot
// (in seating order) a robotLine carrying only the orders.
type section struct {
	line   int
	stop   int
	pile   []int
	deal   []int
	robots []robotLine
}

// startSection reads "turn N:": N must be the next turn of the scenario.
func (p *parser) startSection(ln int, rest string) error {
	n, err := strconv.Atoi(strings.TrimSuffix(rest, ":"))
	want := len(p.sections) + 2
	switch {
	case err != nil:
		return p.errf(ln, "turn: want \"turn: N\" (the turn played) or a section \"turn %d:\"", want)
	case n != want:
		return p.errf(ln, "turn %d: the sections are numbered from 2 in order; want \"turn %d:\"", n, want)
	case p.sc.NewGame:
		return p.errf(ln, "turn %d: a \"game: new\" scenario plays no turn", n)
	case p.sc.Stop > 0:
		return p.errf(ln, "turn %d: turn 1 stops after register %d; only the last turn may stop", n, p.sc.Stop)
	case len(p.sections) > 0 && p.sections[len(p.sections)-1].stop > 0:
		return p.errf(ln, "turn %d: the turn before stops part way; only the last turn may stop", n)
	case len(p.robots) == 0:
		return p.errf(ln, "turn %d: the robot lines come before the turn sections", n)
	case len(p.sections) >= maxSections:
		return p.errf(ln, "turn %d: at most %d turns in a scenario", n, maxSections+1)
	}
	sec := &section{line: ln}
	for _, rl := range p.robots {
		sec.robots = append(sec.robots, robotLine{line: ln, r: adjudicator.Robot{Name: rl.r.Name}})
	}
	p.sections = append(p.sections, sec)
	return nil
}

// maxSections is the most turn sections a scenario may have (turn 2 to turn 21).
const maxSections = 20

// inSection reports whether the lines read now belong to a turn section.
func (p *parser) inSection() bool { return len(p.sections) > 0 }

// orderRobot is the robot a program, decide, orders or upgrade line is for: its robot
// line, or in a turn section that section's entry for it.
func (p *parser) orderRobot(name string) *robotLine {
	if !p.inSection() {
		return p.robot(name)
	}
	sec := p.sections[len(p.sections)-1]
	for i := range sec.robots {
		if sec.robots[i].r.Name == name {
			return &sec.robots[i]
		}
	}
	return nil
}

// stackLine reads "pile: P490 P500" or "deal: P490 ...": cards of the postal deck, each
// once.
func (p *parser) stackLine(ln int, key, rest string) error {
	if p.r23 != nil {
		return p.errf(ln, "%s: the 2023 rules have no shared deck (write each robot's deck on its robot line)", key)
	}
	var cards []int
	for _, w := range strings.Fields(rest) {
		c, ok := parseCard(w)
		if !ok || c == 0 {
			return p.errf(ln, "%s: %q is not a card (want P490)", key, w)
		}
		if slices.Contains(cards, c) {
			return p.errf(ln, "%s: P%d twice", key, c)
		}
		cards = append(cards, c)
	}
	if len(cards) == 0 {
		return p.errf(ln, "%s: want the cards, top first (P490 P500 ...)", key)
	}
	if p.inSection() {
		sec := p.sections[len(p.sections)-1]
		if key == "pile" {
			sec.pile = cards
		} else {
			sec.deal = cards
		}
		return nil
	}
	if key == "pile" {
		p.sc.Pile = cards
	} else {
		p.sc.Deal = cards
	}
	return nil
}

// checkStack refuses a pile: card that is not in the draw pile as the turn starts: in a
// hand, a register, on a Flywheel or among a Buzz Bomb's cards (it would be passed
// over, and the scenario would not play what it says).
func checkStack(st *adjudicator.State, pile []int) error {
	for _, c := range pile {
		for _, r := range st.Robots {
			if slices.Contains(r.Hand, c) || slices.Contains(r.Registers[:], c) || r.Flywheel == c || slices.Contains(r.BombHand, c) {
				return fmt.Errorf("pile: P%d is not in the draw pile: robot %s holds it", c, r.Name)
			}
		}
	}
	return nil
}

// checkStackCards refuses a card the deck does not have.
func (p *parser) checkStackCards(setup *adjudicator.Setup) error {
	all := [][]int{p.sc.Pile, p.sc.Deal}
	for _, sec := range p.sections {
		all = append(all, sec.pile, sec.deal)
	}
	for _, cards := range all {
		for _, c := range cards {
			if setup.Deck.Kind(c) == adjudicator.NoCard {
				return fmt.Errorf("%s: P%d is not a card of the deck (pile: or deal:)", p.name, c)
			}
		}
	}
	return nil
}

// buildSections makes the later turns' orders once turn 1's are built.
func (p *parser) buildSections() error {
	for k, sec := range p.sections {
		tn := &Turn{Line: sec.line, Stop: sec.stop, Pile: sec.pile, Deal: sec.deal}
		for i := range sec.robots {
			rl := &sec.robots[i]
			if p.r23 != nil {
				if err := p.upgradeFromOrders(rl); err != nil {
					return err
				}
			}
			var prog [adjudicator.Registers]int
			if rl.prog != nil {
				prog = *rl.prog
			}
			tn.Orders = append(tn.Orders, adjudicator.Orders{Program: prog, Shutdown: rl.dec.Shutdown, Upgrade: rl.upgrade})
			tn.Decisions = append(tn.Decisions, rl.dec)
		}
		_ = k
		p.sc.Later = append(p.sc.Later, tn)
	}
	return nil
}
