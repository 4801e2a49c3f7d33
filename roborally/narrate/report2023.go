package narrate

import (
	"fmt"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// What the reports and the welcome show of a 2023 game (seed 004; docs/rules-2023.md):
// the hand by kind, the player mat (energy, upgrades with their costs, damage cards in
// hand, the draw and discard piles, face-down Haywire cards) and a sheet naming cards
// by kind. The public robots' lines show energy, checkpoints, upgrades and the priority
// token instead of damage and lives.

// Mat is a robot's player mat as its player reads it (private).
type Mat struct {
	Energy     int
	Installed  []UpgradeLine // installed upgrades
	Collection []UpgradeLine // drawn, not installed: install one with "install NAME"
	Damage     []string      // damage cards in hand, by kind: "2 SPAM"
	Deck       int           // cards in the draw pile
	Discard    int           // cards in the discard pile
	Haywire    []string      // "register 3: Haywire Stall", face down, played next round
	Rebooting  bool          // off the board: re-enters in register 1 of the next round
	Priority   bool          // holds the priority token: plays first next round
	Lighter    bool          // the lighter game: no energy, no upgrades
}

// UpgradeLine is one upgrade card on a mat.
type UpgradeLine struct {
	Name, Kind string // Kind: permanent or temporary
	Cost       int
	Text       string
}

func (u UpgradeLine) String() string {
	return fmt.Sprintf("%s (%s, cost %d): %s", u.Name, u.Kind, u.Cost, u.Text)
}

// MatOf is robot r's mat in state st; nil under the postal rules.
func MatOf(st *adjudicator.State, r adjudicator.Robot, lighter bool) *Mat {
	if r.Mat == nil {
		return nil
	}
	m := &Mat{Energy: r.Mat.Energy, Deck: len(r.Mat.Deck), Discard: len(r.Mat.Discard),
		Rebooting: r.Destroyed && !r.Out, Lighter: lighter}
	if i := st.Robot(r.Name); i >= 0 && i == st.Priority {
		m.Priority = true
	}
	m.Installed = upgradeLines(r.Options)
	m.Collection = upgradeLines(r.Mat.Collection)
	for _, kc := range countKinds(r.Hand, func(k adjudicator.CardKind) bool { return k.Damage() }) {
		m.Damage = append(m.Damage, fmt.Sprintf("%d %s", kc.n, kc.k.Title()))
	}
	for reg, hw := range r.Mat.Haywire {
		if hw != 0 {
			m.Haywire = append(m.Haywire, fmt.Sprintf("register %d: %s", reg+1, adjudicator.CardKind(hw).Title()))
		}
	}
	return m
}

func upgradeLines(names []string) []UpgradeLine {
	var out []UpgradeLine
	for _, n := range names {
		u, ok := adjudicator.UpgradeByName(n)
		if !ok {
			out = append(out, UpgradeLine{Name: n, Kind: "unknown"})
			continue
		}
		kind := "permanent"
		if u.Temporary {
			kind = "temporary"
		}
		out = append(out, UpgradeLine{Name: u.Name, Kind: kind, Cost: u.Cost, Text: u.Text})
	}
	return out
}

type kindCount struct {
	k adjudicator.CardKind
	n int
}

// countKinds counts the cards of a hand by kind, in the order kinds first appear, for
// the kinds keep accepts.
func countKinds(hand []int, keep func(adjudicator.CardKind) bool) []kindCount {
	var out []kindCount
	for _, c := range hand {
		k := adjudicator.CardKind(c)
		if !keep(k) {
			continue
		}
		found := false
		for i := range out {
			if out[i].k == k {
				out[i].n++
				found = true
			}
		}
		if !found {
			out = append(out, kindCount{k, 1})
		}
	}
	return out
}

// ownHand is a 2023 hand by kind: one line a kind, with how many ("Move 1 (2 cards)").
func ownHand(r adjudicator.Robot) []Card {
	var out []Card
	for _, kc := range countKinds(r.Hand, func(adjudicator.CardKind) bool { return true }) {
		out = append(out, Card{P: int(kc.k), Title: kc.k.Title(), Own: true, Count: kc.n})
	}
	return out
}

// ownSummary is a 2023 robot's public line.
func (s RobotStatus) ownSummary() string {
	parts := []string{fmt.Sprintf("at %s facing %s", s.Square, s.Facing), fmt.Sprintf("checkpoints %d", s.Flags)}
	if s.Destroyed {
		parts[0] = "off the board, rebooting"
	}
	if !s.Lighter {
		parts = append(parts, fmt.Sprintf("energy %d", s.Energy))
	}
	if s.Options != "" {
		parts = append(parts, "upgrades: "+s.Options)
	}
	if s.Power == "down" {
		parts = append(parts, "SHUT DOWN")
	}
	if s.Priority {
		parts = append(parts, "holds the priority token")
	}
	return strings.Join(parts, ", ")
}

// ownSheet is SheetFor under the 2023 rules: the cards by kind, "-" in a register
// holding a face-down Haywire, and the round's own orders as comments.
func ownSheet(b *strings.Builder, r adjudicator.Robot) {
	b.WriteString("# After each register's number, a card of your hand by name: \"1: Move 2\".\n")
	hw := false
	for reg := 1; reg <= adjudicator.Registers; reg++ {
		if r.Mat.Haywire[reg-1] != 0 {
			hw = true
		}
	}
	if hw {
		b.WriteString("# A register holding a face-down Haywire takes no card: leave its \"-\".\n")
	}
	for reg := 1; reg <= adjudicator.Registers; reg++ {
		if r.Mat.Haywire[reg-1] != 0 {
			fmt.Fprintf(b, "%d: -\n", reg)
		} else {
			fmt.Fprintf(b, "%d: \n", reg)
		}
	}
	b.WriteString("# Orders of this round only, if you want them: shut down; draw upgrade;\n")
	b.WriteString("# install NAME; uninstall NAME. And answers that stand: face E; use NAME ...\n")
}

// Own reports whether the report is of a 2023 game (its robots have player mats).
func (r Report) Own() bool { return len(r.Robots) > 0 && r.Robots[0].Own }
