package orders

import (
	"fmt"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// The forecast of a 2023 sheet (seed 004; docs/rules-2023.md) adds to the postal one:
// the robot's energy through the round (the upgrade phase, Power Up, batteries,
// payments for upgrades), and the SPAM risk: wherever a register draws the top card of
// the robot's deck (a SPAM revealed, an Again in register 1, an Abort Switch), the chance
// that the card drawn is itself a damage card.
//
// The forecast knows what the player knows: which cards are in the draw pile and the
// discard pile (the player can count them), not their order (ruling R-FORECAST-HIDDEN).
// Cards are exchangeable: the k-th card drawn from a pile of n holding d damage cards is
// a damage card with chance d/n whatever k is, as long as the pile lasts; past its end
// the discard pile is shuffled in (ruling R-RESHUFFLE) and its own share counts. The
// cards the round itself adds to the discard pile before that reshuffle are not
// counted: the figure is the chance as the round begins.

// OwnForecast is what a 2023 sheet's forecast adds to Prediction.
type OwnForecast struct {
	EnergyBefore int `json:"energy_before"`
	// EnergyAfter is the energy after the five registers (the end of the round moves
	// none).
	EnergyAfter int `json:"energy_after"`
	// Upgrades are the upgrade phase's events in words ("installs Zoop for 1 energy").
	Upgrades []string `json:"upgrades,omitempty"`
	Shutdown bool     `json:"shutdown,omitempty"`
	// The piles as the round begins: cards and damage cards among them.
	Deck          int `json:"deck"`
	DeckDamage    int `json:"deck_damage"`
	Discard       int `json:"discard"`
	DiscardDamage int `json:"discard_damage"`
	// Top is the chance that the top card of the draw pile is a damage card (the first
	// draw: Draw 1).
	Top SpamRisk `json:"top"`
	// Risks are the registers that draw the top card, in the order drawn.
	Risks []SpamRisk `json:"risks,omitempty"`
}

// SpamRisk is the chance that a card drawn from the robot's deck is a damage card.
type SpamRisk struct {
	Register int    `json:"register,omitempty"` // 0: not tied to a register (OwnForecast.Top)
	Why      string `json:"why,omitempty"`      // "SPAM", "Again in register 1", "Abort Switch"
	Draw     int    `json:"draw"`               // 1 for the first card the round draws, 2 the next ...
	Damage   int    `json:"damage"`             // damage cards in the pile it comes from
	Cards    int    `json:"cards"`              // cards in that pile; 0: none left to draw
	Percent  int    `json:"percent"`            // Damage/Cards, rounded
}

func (k SpamRisk) String() string {
	if k.Cards == 0 {
		return "no card left to draw"
	}
	return fmt.Sprintf("%d%% (%d damage of %d cards)", k.Percent, k.Damage, k.Cards)
}

// risk is the chance for the draw-th card of the round (1-based).
func (o *OwnForecast) risk(draw int) SpamRisk {
	k := SpamRisk{Draw: draw}
	switch {
	case draw <= o.Deck:
		k.Damage, k.Cards = o.DeckDamage, o.Deck
	default:
		k.Damage, k.Cards = o.DiscardDamage, o.Discard
	}
	if k.Cards > 0 {
		k.Percent = (200*k.Damage + k.Cards) / (2 * k.Cards)
	}
	return k
}

func countDamage(cs []int) int {
	n := 0
	for _, c := range cs {
		if adjudicator.CardKind(c).Damage() {
			n++
		}
	}
	return n
}

// ownForecast is the 2023 part of robot r's forecast, from the forecast robot final and
// the events of its round.
func ownForecast(r, final *adjudicator.Robot, events []adjudicator.Event) *OwnForecast {
	o := &OwnForecast{EnergyBefore: r.Mat.Energy, EnergyAfter: r.Mat.Energy,
		Deck: len(r.Mat.Deck), DeckDamage: countDamage(r.Mat.Deck),
		Discard: len(r.Mat.Discard), DiscardDamage: countDamage(r.Mat.Discard)}
	if final.Mat != nil {
		o.EnergyAfter = final.Mat.Energy
	}
	o.Shutdown = final.Power == adjudicator.PowerDown
	o.Top = o.risk(1)
	lastUse := ""
	for _, e := range events {
		if e.Robot != r.Name {
			continue
		}
		switch e.Kind {
		case adjudicator.EvUpgrade:
			o.Upgrades = append(o.Upgrades, upgradeNote(e))
		case adjudicator.EvUse:
			lastUse = e.Option
		case adjudicator.EvReplaced:
			// Ruling R-FORECAST-HIDDEN: the forecast replaces with an unknown card.
			why := adjudicator.CardKind(e.Card).Title()
			switch {
			case lastUse == "Abort Switch":
				why = "Abort Switch"
			case adjudicator.CardKind(e.Card) == adjudicator.CardAgain:
				why = "Again in register 1"
			}
			k := o.risk(len(o.Risks) + 1)
			k.Register, k.Why = e.Register, why
			o.Risks = append(o.Risks, k)
		}
		if e.Kind != adjudicator.EvUse {
			lastUse = ""
		}
	}
	return o
}

func upgradeNote(e adjudicator.Event) string {
	switch e.Cause {
	case "draw":
		return fmt.Sprintf("draws an upgrade for %d energy", e.Amount)
	case "install":
		return fmt.Sprintf("installs %s for %d energy", e.Option, e.Amount)
	case "uninstall":
		return "uninstalls " + e.Option
	case "install-drawn":
		// R-FORECAST-HIDDEN: the card drawn is not known before the round.
		if e.Option != "" {
			return "installs the card drawn if the energy left pays for it (the card is not known now), else " + e.Option
		}
		return "installs the card drawn if the energy left pays for it (the card is not known now)"
	}
	return e.Cause + " " + e.Option
}

func rebootMsg(cause string, reg int, at adjudicator.Pos) string {
	switch cause {
	case "pit":
		return fmt.Sprintf("falls into a pit at %v in register %d and reboots", at, reg)
	case "off-board":
		return fmt.Sprintf("drives off the board at %v in register %d and reboots", at, reg)
	}
	return fmt.Sprintf("reboots (%s) at %v in register %d", cause, at, reg)
}

// fillRegisters gives a step to every register up to the last one forecast: a register
// in which nothing happened to the robot keeps it as the one before left it.
func fillRegisters(steps []Step, start Step) []Step {
	if len(steps) == 0 {
		return steps
	}
	last := steps[len(steps)-1].Register
	out := make([]Step, 0, last)
	prev := start
	prev.Notes, prev.Card = nil, ""
	k := 0
	for reg := 1; reg <= last; reg++ {
		if k < len(steps) && steps[k].Register == reg {
			prev = steps[k]
			out = append(out, prev)
			k++
			continue
		}
		s := prev
		s.Register, s.Notes, s.Card = reg, nil, ""
		out = append(out, s)
		prev = s
	}
	return out
}

// string2023 is a 2023 forecast as it goes into a mail.
func (f *Prediction) string2023() string {
	o := f.Own
	var b strings.Builder
	fmt.Fprintf(&b, "Forecast for %s, round %d (the other robots stand still and hold fire):\n", f.Robot, f.Turn)
	for _, u := range o.Upgrades {
		fmt.Fprintf(&b, "  upgrade phase: %s\n", u)
	}
	fmt.Fprintf(&b, "  %-11s %-18s at %-6v facing %v, energy %d\n", "start", "", f.Start.Pos, f.Start.Facing, f.Start.Energy)
	for _, s := range f.Steps {
		where := fmt.Sprintf("at %-6v facing %v, energy %d", s.Pos, s.Facing, s.Energy)
		if s.Damage > 0 {
			where += fmt.Sprintf(", %d damage cards taken", s.Damage)
		}
		if s.Destroyed {
			where = fmt.Sprintf("off the board (rebooting) from %v", s.Pos)
		}
		fmt.Fprintf(&b, "  register %-2d %-18s %s", s.Register, s.Card, where)
		if len(s.Notes) > 0 {
			fmt.Fprintf(&b, "; %s", strings.Join(s.Notes, ", "))
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "Energy: %d now, %d after the five registers.\n", o.EnergyBefore, o.EnergyAfter)
	if o.Shutdown {
		b.WriteString("Shutdown: the robot shuts down for the round and plays no program.\n")
	}
	fmt.Fprintf(&b, "SPAM risk: your draw pile holds %d cards, %d of them damage; your discard pile %d, %d damage.\n",
		o.Deck, o.DeckDamage, o.Discard, o.DiscardDamage)
	for _, k := range o.Risks {
		if k.Cards == 0 {
			fmt.Fprintf(&b, "  register %d (%s): no card is left to draw in its place\n", k.Register, k.Why)
			continue
		}
		fmt.Fprintf(&b, "  register %d (%s): the card drawn in its place is a damage card with chance %s\n", k.Register, k.Why, k)
	}
	switch {
	case len(o.Risks) > 0:
	case o.Top.Cards == 0:
		b.WriteString("  no register draws a card from your deck, and no card is left to draw\n")
	default:
		fmt.Fprintf(&b, "  no register draws a card from your deck; the top card is a damage card with chance %s\n", o.Top)
	}
	if len(f.Warnings) == 0 {
		b.WriteString("No warnings.\n")
		return b.String()
	}
	b.WriteString("Warnings:\n")
	for _, w := range f.Warnings {
		fmt.Fprintf(&b, "  - %s\n", w.Msg)
	}
	return b.String()
}
