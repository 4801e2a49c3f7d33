package adjudicator

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
)

// Option cards (rules README, Option cards; Crash & Burn "Repair or Option card?").
//
// This file keeps their bookkeeping: a seeded option deck, drawing at a double-wrench
// site, at most Rules.MaxOptions held (a further one drawn means discarding one of the
// owner's choice), one lost when the robot is destroyed (destroy in endturn.go), any one
// discarded to prevent a point of damage (damage in lasers.go).
//
// Their effects plug in through Effect (effects.go); the cards' effects are in
// cards_*.go, one type a card.

// drawOption gives robot i the top option card; with the deck empty the discards are
// reshuffled (by seed and turn); with none at all nothing is drawn and drawOption
// reports false. A card beyond Rules.MaxOptions makes the owner discard one
// (Decider.LoseOption, LossFourth).
//
// A game saved before its deck was limited to the cards that work may still hold other
// cards in its deck: they are taken out as they come up, never dealt (optiondeck.go).
func (t *turn) drawOption(i int) bool {
	r := &t.st.Robots[i]
	if t.single >= 0 {
		// Ruling R-FORECAST-HIDDEN: a forecast does not know the option deck's order any
		// more than the player does. It draws no card: an event with no Option says a
		// card would come, and its effects are not forecast.
		if len(t.st.OptionDeck)+len(t.st.OptionDiscard) == 0 {
			return false
		}
		t.emit(Event{Kind: EvOptionGain, Robot: r.Name, Cause: "unknown"})
		return true
	}
	card, ok := t.topOption()
	if !ok {
		return false
	}
	r.Options = append(r.Options, card)
	t.fxOK[i] = false
	t.emit(Event{Kind: EvOptionGain, Robot: r.Name, Option: card})
	t.receivedBio(i, card) // seed 001, Bio Option: cards_armed.go
	if !t.drawingTwo {
		t.keepMaxOptions(i)
	}
	return true
}

// topOption takes the top card of the option deck; with the deck empty the discards are
// reshuffled (by seed and turn); false when there is none at all.
func (t *turn) topOption() (string, bool) {
	st := t.st
	for len(st.OptionDeck) > 0 && !slices.Contains(t.setup.Options, st.OptionDeck[0]) {
		st.OptionDeck = st.OptionDeck[1:]
	}
	st.OptionDiscard = slices.DeleteFunc(st.OptionDiscard, func(o string) bool { return !slices.Contains(t.setup.Options, o) })
	if len(st.OptionDeck) == 0 && len(st.OptionDiscard) > 0 {
		st.OptionDeck, st.OptionDiscard = st.OptionDiscard, nil
		rng := turnRNG(t.setup.Seed, st.Turn, streamOptions)
		rng.Shuffle(len(st.OptionDeck), func(a, b int) {
			st.OptionDeck[a], st.OptionDeck[b] = st.OptionDeck[b], st.OptionDeck[a]
		})
	}
	if len(st.OptionDeck) == 0 {
		return "", false
	}
	card := st.OptionDeck[0]
	st.OptionDeck = st.OptionDeck[1:]
	return card, true
}

// keepMaxOptions discards, by the robot's orders, options held beyond Rules.MaxOptions
// (LossFourth).
func (t *turn) keepMaxOptions(i int) {
	r := &t.st.Robots[i]
	for max := t.setup.Rules.MaxOptions; max > 0 && r.Counted() > max; {
		idx := t.decider(i).LoseOption(t.view(i), LossFourth)
		if idx < 0 || idx >= len(r.Options) {
			idx = 0
		}
		if r.Options[idx] == r.Bio && r.Bio != "" {
			// Bio-Bots: the card on the Bio Option is not one of the counted cards;
			// giving it up would not bring the count down, so the oldest other goes.
			idx = slices.IndexFunc(r.Options, func(o string) bool { return o != r.Bio })
		}
		opt := t.removeOption(i, idx)
		t.emit(Event{Kind: EvOptionLose, Robot: r.Name, Option: opt, Cause: "fourth"})
	}
}

// newOptions is room for a new list of n options: the lists a turn starts with are
// shared with the state it was given and never written into (State.cloneForTurn). In a
// Resolver's turn the room is in the new state's memory while it lasts, otherwise on the
// heap; either way the list is clipped, so that appending to it copies it.
func (t *turn) newOptions(n int) []string {
	if m := t.sm; m != nil && m.nOpts+n <= len(m.opts) {
		k := m.nOpts
		m.nOpts += n
		return m.opts[k:k:m.nOpts]
	}
	return make([]string, 0, n)
}

func (t *turn) removeOption(i, idx int) string {
	r := &t.st.Robots[i]
	opt := r.Options[idx]
	used := t.token(i, opt)
	defer t.lostExplosives(i, opt, used) // seed 001, Launchers and Boosters: devices.go
	tok := 0
	if idx < len(r.Tokens) {
		tok = r.Tokens[idx]
	}
	rest := t.newOptions(len(r.Options) - 1)
	r.Options = append(append(rest, r.Options[:idx]...), r.Options[idx+1:]...)
	if idx < len(r.Tokens) {
		r.Tokens = append(r.Tokens[:idx:idx], r.Tokens[idx+1:]...)
	}
	if len(r.Tokens) > len(r.Options) {
		r.Tokens = r.Tokens[:len(r.Options):len(r.Options)]
	}
	if opt == r.Bio {
		r.Bio = "" // seed 001, Bio-Bots: replaced at the next power down (variants.go)
	}
	t.fxOK[i] = false
	// A discarded option goes to the discard pile only if the game deals it.
	if slices.Contains(t.setup.Options, opt) {
		t.st.OptionDiscard = append(t.st.OptionDiscard, opt)
	}
	// Cards that explode when lost (effects.go, Loser). The effect table finds the card's
	// effect without asking every effect its card (a card is listed once there).
	if tb := t.setup.effectTable(); tb != nil {
		if k, ok := tb.index[opt]; ok {
			if l, ok := tb.src[k].(Loser); ok {
				l.Lost(t.view(i), tok)
			}
		}
		return opt
	}
	for _, e := range t.setup.Effects {
		if e.Option() != opt {
			continue
		}
		if l, ok := e.(Loser); ok {
			l.Lost(t.view(i), tok)
		}
	}
	return opt
}

//go:embed data/options.txt
var optionsText string

// OptionCard is one option card of the lists in ../shared/rules.
type OptionCard struct {
	Number int    // as printed (Crash & Burn 21–46; Armed and Dangerous after)
	Source string // "C&B" or "A&D"
	Name   string
	Text   string // what it does, shortened
	// Example is an order for the card as a sheet writes it ("use Brakes in register
	// 2"); "-" when the card always works and takes no order (docs/options.md).
	Example string
}

// OptionCardNamed is the card with that name (exact), and false when there is none.
func OptionCardNamed(name string) (OptionCard, bool) {
	cards, err := OptionCards()
	if err != nil {
		return OptionCard{}, false
	}
	for _, c := range cards {
		if c.Name == name {
			return c, true
		}
	}
	return OptionCard{}, false
}

// OptionCards lists every option card known (data/options.txt), in file order.
func OptionCards() ([]OptionCard, error) {
	var out []OptionCard
	for i, line := range strings.Split(optionsText, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.SplitN(line, "|", 5)
		if len(f) < 3 {
			return nil, fmt.Errorf("options: line %d: want \"number | source | name | text\"", i+1)
		}
		var c OptionCard
		if _, err := fmt.Sscan(strings.TrimSpace(f[0]), &c.Number); err != nil {
			return nil, fmt.Errorf("options: line %d: bad number %q", i+1, f[0])
		}
		c.Source, c.Name = strings.TrimSpace(f[1]), strings.TrimSpace(f[2])
		if len(f) >= 4 {
			c.Text = strings.TrimSpace(f[3])
		}
		if len(f) == 5 {
			c.Example = strings.TrimSpace(f[4])
		}
		out = append(out, c)
	}
	return out, nil
}

// OptionNames is the names of every option card, for an option deck.
func OptionNames() []string {
	cards, err := OptionCards()
	if err != nil {
		panic("adjudicator: embedded options: " + err.Error()) // the embedded data is tested
	}
	names := make([]string, len(cards))
	for i, c := range cards {
		names[i] = c.Name
	}
	return names
}
