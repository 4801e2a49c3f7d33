package adjudicator

import (
	"slices"
	"testing"
)

// damageCensus counts the damage cards of a 2023 state wherever they lie: the damage
// deck and discard pile, every robot's hand, piles, registers and face-down Haywire.
func damageCensus(st *State) (spam, haywire int) {
	count := func(cs []int) {
		for _, c := range cs {
			switch k := CardKind(c); {
			case k == CardSpam:
				spam++
			case k.Haywire():
				haywire++
			}
		}
	}
	count(st.DamageDeck)
	count(st.DamageDiscard)
	for i := range st.Robots {
		r := &st.Robots[i]
		count(r.Hand)
		count(r.Registers[:])
		if r.Mat != nil {
			count(r.Mat.Deck)
			count(r.Mat.Discard)
			count(r.Mat.Haywire[:])
		}
	}
	return spam, haywire
}

// Ruling R-ROBOT-LASER-SPAM, dealt many times over with plain damage between: every
// robot-laser point is a SPAM, the cards above it in the deck keep their place and
// order, the other damage draws the top card, and the deck's 32 SPAM and 8 Haywire
// stay 32 and 8 through the reshuffles. SPAM cards are sent back to the damage discard
// pile now and then, as playing them does.
func TestRobotLaserSpamKeepsTheDeck(t *testing.T) {
	s, st, _ := game2023(t, 4)
	if s.Rules.RobotLaser != RobotLaserSpam {
		t.Fatalf("Rules2023().RobotLaser = %q, want %q", s.Rules.RobotLaser, RobotLaserSpam)
	}
	tr := &turn{setup: s, st: st, single: -1, register: 1}
	lost, under := 0, 0
	for k := 0; k < 400; k++ {
		i := k % len(st.Robots)
		tr.register = 1 + k%Registers
		deck := slices.Clone(st.DamageDeck)
		discard := len(st.Robots[i].Mat.Discard)
		n := len(tr.events)
		cause := []string{"robot-laser", "laser", "robot-laser", "reboot", "mini-howitzer"}[k%5]
		tr.damageCards(i, 1, cause, "")
		got := tr.events[n:]
		if slices.ContainsFunc(got, func(e Event) bool { return e.Kind == EvNoDamage }) {
			lost++
		}
		if slices.ContainsFunc(got, func(e Event) bool { return e.Kind == EvReshuffle && e.Cause == "damage-under" }) {
			under++
		}
		if cause == "robot-laser" && !slices.ContainsFunc(got, func(e Event) bool { return e.Kind == EvNoDamage }) {
			if len(st.Robots[i].Mat.Discard) != discard+1 || !isSpam(st.Robots[i].Mat.Discard[discard]) {
				t.Fatalf("point %d: a robot laser dealt no SPAM: %v", k, got)
			}
			if !slices.ContainsFunc(got, func(e Event) bool { return e.Kind == EvReshuffle }) {
				// The cards above the SPAM taken are still on top, in order.
				top := slices.IndexFunc(deck, isSpam)
				if !slices.Equal(st.DamageDeck[:top], deck[:top]) || !slices.Equal(st.DamageDeck[top:], deck[top+1:]) {
					t.Fatalf("point %d: deck %v became %v", k, deck, st.DamageDeck)
				}
			}
		}
		if k%50 == 49 {
			// The robots play the SPAM cards in their discard piles: back to the damage
			// discard pile.
			for j := range st.Robots {
				m := st.Robots[j].Mat
				kept := m.Discard[:0:0]
				for _, c := range m.Discard {
					if isSpam(c) {
						st.DamageDiscard = append(st.DamageDiscard, c)
					} else {
						kept = append(kept, c)
					}
				}
				m.Discard = kept
			}
		}
		if k%11 == 10 {
			// The end of a round: face-down Haywire cards go to the damage discard.
			for j := range st.Robots {
				for reg, c := range st.Robots[j].Mat.Haywire {
					if c != 0 {
						st.DamageDiscard = append(st.DamageDiscard, c)
						st.Robots[j].Mat.Haywire[reg] = 0
					}
				}
			}
		}
		if spam, hw := damageCensus(st); spam != 32 || hw != 8 {
			t.Fatalf("point %d: %d SPAM and %d Haywire cards, want 32 and 8", k, spam, hw)
		}
	}
	if lost == 0 || under == 0 {
		t.Errorf("%d points lost, %d shuffles under Haywire cards: the test never ran the deck dry", lost, under)
	}
}

// A forecast's damage piles share their arrays with the state it forecasts (Simulator):
// a reshuffle or a SPAM taken from under a Haywire must not change that state.
func TestDamageDrawsLeaveTheForecastBaseAlone(t *testing.T) {
	s, base, _ := game2023(t, 2)
	base.DamageDeck = []int{int(CardHaywire1), int(CardHaywire2), int(CardSpam), int(CardHaywire3)}
	base.DamageDiscard = []int{int(CardSpam), int(CardHaywire4), int(CardSpam), int(CardSpam), int(CardHaywire1)}
	wantDeck, wantDiscard := slices.Clone(base.DamageDeck), slices.Clone(base.DamageDiscard)
	for _, draw := range []string{"spam", "top"} {
		for _, emptyDeck := range []bool{false, true} {
			st := *base
			st.DamageDeck, st.DamageDiscard = slices.Clip(base.DamageDeck), slices.Clip(base.DamageDiscard)
			if emptyDeck {
				st.DamageDeck = st.DamageDeck[:0]
			}
			tr := &turn{setup: s, st: &st, single: 0, register: 1}
			for k := 0; k < 6; k++ {
				if draw == "spam" {
					tr.drawSpam()
				} else {
					tr.drawDamage()
				}
			}
			if !slices.Equal(base.DamageDeck, wantDeck) || !slices.Equal(base.DamageDiscard, wantDiscard) {
				t.Fatalf("%s draws (empty deck %v) changed the base state: deck %v, discard %v", draw, emptyDeck, base.DamageDeck, base.DamageDiscard)
			}
		}
	}
}

// A robot's laser deals SPAM only under the 2023 rules that say so: Check refuses the
// setting elsewhere and any other value.
func TestRobotLaserSetting(t *testing.T) {
	r := Rules2023()
	r.RobotLaser = ""
	if err := r.Check(); err != nil {
		t.Errorf("2023 rules of a game made before the ruling: %v", err)
	}
	r.RobotLaser = "haywire"
	if err := r.Check(); err == nil {
		t.Error("robot_laser \"haywire\" accepted")
	}
	p := PostalRules()
	p.RobotLaser = RobotLaserSpam
	if err := p.Check(); err == nil {
		t.Error("postal rules with robot_laser \"spam\" accepted")
	}
}
