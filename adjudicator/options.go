package adjudicator

import (
	_ "embed"
	"fmt"
	"strings"
)

// Option cards (rules README, Option cards; Crash & Burn "Repair or Option card?").
//
// This file keeps their bookkeeping: a seeded option deck, drawing at a double-wrench
// site, at most Rules.MaxOptions held (a further one drawn means discarding one of the
// owner's choice), one lost when the robot is destroyed (destroy in endturn.go), any one
// discarded to prevent a point of damage (damage in lasers.go).
//
// Their effects plug in through Effect: an option's effect is a value naming its card and
// implementing any of the hook interfaces below. The core asks the effects of the options
// a robot holds at each hook point, so a new option is a new Effect, not a change to the
// turn. Setup.Effects lists the effects in play; the base game has none.

// Effect is an option card's effect. Option is the card's name as in data/options.txt.
type Effect interface {
	Option() string
}

// HandSizer changes how many cards a robot is dealt (Extra Memory: +1).
type HandSizer interface {
	HandSize(v View, n int) int
}

// Stepper changes how far a movement card moves a robot (Brakes, Fourth Gear, Reverse
// Gear). steps is negative for backwards.
type Stepper interface {
	Steps(v View, card CardKind, steps int) int
}

// Pushable says whether robot v may be pushed by another robot (Gyroscopic
// Stabilizer-like effects, ramming gear...).
type Pushable interface {
	Pushable(v View, by string) bool
}

// DamageFilter changes damage as it arrives, before options are discarded to prevent it
// (Shield, Ablative Coat, Power-Down Shield).
type DamageFilter interface {
	Damage(v View, amount int, cause string) int
}

// LaserPower changes the beams of the robot's own laser (Double Barreled Laser...).
type LaserPower interface {
	Beams(v View, beams int) int
}

// ElementFilter says whether a board element acts on the robot ("belt", "pusher",
// "gear", "crusher") (Gyroscopic Stabilizer, Conveyor-resistant options).
type ElementFilter interface {
	Acts(v View, element string) bool
}

func (t *turn) effectsOf(i int, yield func(Effect)) {
	if len(t.setup.Effects) == 0 {
		return
	}
	for _, o := range t.st.Robots[i].Options {
		for _, e := range t.setup.Effects {
			if e.Option() == o {
				yield(e)
			}
		}
	}
}

func (t *turn) effectHandSize(i, n int) int {
	t.effectsOf(i, func(e Effect) {
		if h, ok := e.(HandSizer); ok {
			n = h.HandSize(t.view(i), n)
		}
	})
	return n
}

func (t *turn) effectSteps(i int, k CardKind, steps int) int {
	t.effectsOf(i, func(e Effect) {
		if s, ok := e.(Stepper); ok {
			steps = s.Steps(t.view(i), k, steps)
		}
	})
	return steps
}

func (t *turn) effectPushable(j, by int) bool {
	ok := true
	t.effectsOf(j, func(e Effect) {
		if p, is := e.(Pushable); is && !p.Pushable(t.view(j), t.st.Robots[by].Name) {
			ok = false
		}
	})
	return ok
}

func (t *turn) effectDamage(i, amount int, cause string) int {
	t.effectsOf(i, func(e Effect) {
		if d, ok := e.(DamageFilter); ok {
			amount = d.Damage(t.view(i), amount, cause)
		}
	})
	return amount
}

func (t *turn) effectLaser(i, beams int) int {
	t.effectsOf(i, func(e Effect) {
		if l, ok := e.(LaserPower); ok {
			beams = l.Beams(t.view(i), beams)
		}
	})
	return beams
}

func (t *turn) effectElement(i int, element string) bool {
	acts := true
	t.effectsOf(i, func(e Effect) {
		if f, ok := e.(ElementFilter); ok && !f.Acts(t.view(i), element) {
			acts = false
		}
	})
	return acts
}

func (t *turn) effectBelt(i int) bool { return t.effectElement(i, "belt") }

// drawOption gives robot i the top option card; with the deck empty the discards are
// reshuffled (by seed and turn); with none at all nothing is drawn. A card beyond
// Rules.MaxOptions makes the owner discard one (Decider.LoseOption, LossFourth).
func (t *turn) drawOption(i int) {
	st := t.st
	if len(st.OptionDeck) == 0 && len(st.OptionDiscard) > 0 {
		st.OptionDeck, st.OptionDiscard = st.OptionDiscard, nil
		rng := turnRNG(t.setup.Seed, st.Turn, streamOptions)
		rng.Shuffle(len(st.OptionDeck), func(a, b int) {
			st.OptionDeck[a], st.OptionDeck[b] = st.OptionDeck[b], st.OptionDeck[a]
		})
	}
	if len(st.OptionDeck) == 0 {
		return
	}
	r := &st.Robots[i]
	card := st.OptionDeck[0]
	st.OptionDeck = st.OptionDeck[1:]
	r.Options = append(r.Options, card)
	t.emit(Event{Kind: EvOptionGain, Robot: r.Name, Option: card})
	if max := t.setup.Rules.MaxOptions; max > 0 && len(r.Options) > max {
		idx := t.decider(i).LoseOption(t.view(i), LossFourth)
		if idx < 0 || idx >= len(r.Options) {
			idx = 0
		}
		opt := t.removeOption(i, idx)
		t.emit(Event{Kind: EvOptionLose, Robot: r.Name, Option: opt, Cause: "fourth"})
	}
}

func (t *turn) removeOption(i, idx int) string {
	r := &t.st.Robots[i]
	opt := r.Options[idx]
	r.Options = append(r.Options[:idx:idx], r.Options[idx+1:]...)
	t.st.OptionDiscard = append(t.st.OptionDiscard, opt)
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
}

// OptionCards lists every option card known (data/options.txt), in file order.
func OptionCards() ([]OptionCard, error) {
	var out []OptionCard
	for i, line := range strings.Split(optionsText, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.SplitN(line, "|", 4)
		if len(f) < 3 {
			return nil, fmt.Errorf("options: line %d: want \"number | source | name | text\"", i+1)
		}
		var c OptionCard
		if _, err := fmt.Sscan(strings.TrimSpace(f[0]), &c.Number); err != nil {
			return nil, fmt.Errorf("options: line %d: bad number %q", i+1, f[0])
		}
		c.Source, c.Name = strings.TrimSpace(f[1]), strings.TrimSpace(f[2])
		if len(f) == 4 {
			c.Text = strings.TrimSpace(f[3])
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
