package adjudicator

import (
	_ "embed"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// Each robot's own programming deck (seed 004, Programming Cards and Phase 2: Programming
// Phase), used when Rules.Cards is "own":
//
//   - every robot has a 20-card deck of its own (data/deck2023.txt), a draw pile and a
//     discard pile; cards are named by kind, their number is their CardKind;
//   - at the end of a round (so that players see their hands, as the postal deal does)
//     each robot draws until it holds Rules.HandSize cards; the damage cards it kept in
//     hand count toward them (ruling R-HAND9, docs/rules-2023.md);
//   - when the draw pile is empty, the discard pile is shuffled into a new draw pile
//     (seed 004: "If your deck runs out, shuffle your discard pile"); this also happens
//     in the middle of a register when a SPAM needs a replacement (ruling R-RESHUFFLE);
//   - after programming, the cards left in hand that are not damage cards are discarded;
//     damage cards stay in hand (seed 004: "keep damage cards in hand!").

//go:embed data/deck2023.txt
var deck2023Text string

// CardSet is the cards of a ruleset with own decks: one robot's program deck and the
// shared damage deck, as card numbers (CardKind values), in file order.
type CardSet struct {
	Program []int
	Damage  []int
}

// ParseCardSet reads a card set table: lines "program|damage kind count".
func ParseCardSet(text string) (CardSet, error) {
	var cs CardSet
	for i, line := range strings.Split(text, "\n") {
		if j := strings.IndexByte(line, '#'); j >= 0 {
			line = line[:j]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 3 {
			return cs, fmt.Errorf("cards: line %d: want \"program|damage kind count\"", i+1)
		}
		k, ok := ParseCardKind(f[1])
		if !ok {
			return cs, fmt.Errorf("cards: line %d: unknown card kind %q", i+1, f[1])
		}
		n, err := strconv.Atoi(f[2])
		if err != nil || n < 1 || n > 100 {
			return cs, fmt.Errorf("cards: line %d: count %q is not 1-100", i+1, f[2])
		}
		var to *[]int
		switch f[0] {
		case "program":
			if k.Damage() {
				return cs, fmt.Errorf("cards: line %d: %s is a damage card", i+1, f[1])
			}
			to = &cs.Program
		case "damage":
			if !k.Damage() {
				return cs, fmt.Errorf("cards: line %d: %s is not a damage card", i+1, f[1])
			}
			to = &cs.Damage
		default:
			return cs, fmt.Errorf("cards: line %d: section %q (want program or damage)", i+1, f[0])
		}
		for range n {
			*to = append(*to, int(k))
		}
	}
	if len(cs.Program) < 2*Registers || len(cs.Damage) == 0 {
		return cs, fmt.Errorf("cards: want at least %d program cards and one damage card", 2*Registers)
	}
	return cs, nil
}

// Cards2023 is the 2023 card set of data/deck2023.txt.
func Cards2023() CardSet {
	cs, err := ParseCardSet(deck2023Text)
	if err != nil {
		panic("adjudicator: embedded 2023 cards: " + err.Error()) // the embedded data is tested
	}
	return cs
}

// KindDeck is the deck of cards named by kind: card n is CardKind(n) (2023 rules).
func KindDeck() *Deck {
	d := &Deck{byKind: true}
	for k := CardUTurn; int(k) < len(cardKindNames); k++ {
		d.kinds[k] = k
		d.cards = append(d.cards, int(k))
	}
	return d
}

// ParseCardName reads a card of a deck named by kind, as order sheets and scenarios
// write it: the kind name ("move2", "spam") or its title ("Move 2", "U-Turn"), any case,
// spaces and dashes ignored; "back" and "moveback" are Back Up (seed 004: Move Back).
func ParseCardName(s string) (CardKind, bool) {
	norm := func(s string) string {
		s = strings.ToLower(s)
		return strings.NewReplacer(" ", "", "-", "", "_", "").Replace(s)
	}
	n := norm(s)
	switch n {
	case "back", "moveback":
		return CardBackUp, true
	case "rotateleft", "turnleft":
		return CardLeft, true
	case "rotateright", "turnright":
		return CardRight, true
	}
	for k := CardUTurn; int(k) < len(cardKindNames); k++ {
		if n == cardKindNames[k] || n == norm(cardKindTitles[k]) {
			return k, true
		}
	}
	return NoCard, false
}

// deckRNG is the turn's generator for shuffling the robots' own piles; every shuffle in
// a turn draws from it in the order the shuffles happen, so the turn stays a function of
// (state, orders, seed).
func (t *turn) deckRNG() *rand.Rand {
	if t.round().rngDeck == nil {
		t.round().rngDeck = turnRNG(t.setup.Seed, t.st.Turn, streamOwnDecks)
	}
	return t.round().rngDeck
}

// drawCard takes the top card of robot i's draw pile, shuffling its discard pile into a
// new draw pile first when the draw pile is empty. ok is false when both are empty.
func (t *turn) drawCard(i int) (card int, ok bool) {
	m := t.st.Robots[i].Mat
	if len(m.Deck) == 0 {
		if len(m.Discard) == 0 {
			return 0, false
		}
		m.Deck, m.Discard = m.Discard, nil
		rng := t.deckRNG()
		rng.Shuffle(len(m.Deck), func(a, b int) { m.Deck[a], m.Deck[b] = m.Deck[b], m.Deck[a] })
		t.emit(Event{Kind: EvReshuffle, Robot: t.st.Robots[i].Name, Amount: len(m.Deck)})
	}
	card = m.Deck[0]
	m.Deck = m.Deck[1:]
	return card, true
}

// drawHands fills every robot's hand up to Rules.HandSize from its own deck (seed 004,
// Programming Phase 1–2). Damage cards kept in hand count toward the size.
func (t *turn) drawHands() {
	for i := range t.st.Robots {
		r := &t.st.Robots[i]
		if r.Out || r.Mat == nil {
			continue
		}
		want := t.effectHandSize(i, t.setup.Rules.HandSize)
		n := 0
		for len(r.Hand) < want {
			c, ok := t.drawCard(i)
			if !ok {
				break
			}
			r.Hand = append(r.Hand, c)
			n++
		}
		slices.Sort(r.Hand)
		t.emit(Event{Kind: EvDeal, Robot: r.Name, Amount: n})
	}
}

// discardHand puts the cards left in hand after programming on the discard pile, keeping
// the damage cards (seed 004, Programming Phase 4). With Rules.DiscardSpam (seed 004, A
// Less SPAM-y Game) the SPAM cards in hand go to the damage discard pile instead.
func (t *turn) discardHand(i int) {
	r := &t.st.Robots[i]
	keep := r.Hand[:0]
	for _, c := range r.Hand {
		k := CardKind(c)
		switch {
		case k == CardSpam && t.setup.Rules.DiscardSpam:
			t.st.DamageDiscard = append(t.st.DamageDiscard, c)
		case k.Damage():
			keep = append(keep, c)
		default:
			r.Mat.Discard = append(r.Mat.Discard, c)
		}
	}
	r.Hand = keep
}

// takeFromHand removes one card c from robot i's hand (the program's cards leave the
// hand for the registers). It reports whether the card was there.
func takeFromHand(r *Robot, c int) bool {
	if k := slices.Index(r.Hand, c); k >= 0 {
		r.Hand = slices.Delete(r.Hand, k, k+1)
		return true
	}
	return false
}

// checkOwnProgram is CheckProgram for the 2023 rules: every register holds a card of the
// robot's hand (a hand may hold several cards of a kind; each is used once), except a
// register with a face-down Haywire, which holds none (ruling R-HAYWIRE-SLOT). SPAM may
// be programmed (it is replaced when revealed); a Haywire never is.
func (s *Setup) checkOwnProgram(r *Robot, prog [Registers]int) []ProgramError {
	var errs []ProgramError
	if r.Mat == nil {
		return []ProgramError{{Msg: "the robot has no player mat (a 2023 game's state is damaged)"}}
	}
	var used [MaxPriority]int8
	for i, c := range prog {
		reg := i + 1
		if hw := r.Mat.Haywire[i]; hw != 0 {
			if c != 0 {
				errs = append(errs, ProgramError{Register: reg, Card: c, Msg: fmt.Sprintf("register %d holds a face-down %s and takes no card this round", reg, CardKind(hw).Title())})
			}
			continue
		}
		if c == 0 {
			errs = append(errs, ProgramError{Register: reg, Msg: "no card"})
			continue
		}
		k := s.Deck.Kind(c)
		if k == NoCard || k.Haywire() {
			errs = append(errs, ProgramError{Register: reg, Card: c, Msg: fmt.Sprintf("card %d is not a card you can program", c)})
			continue
		}
		held := 0
		for _, h := range r.Hand {
			if h == c {
				held++
			}
		}
		used[c]++
		if int(used[c]) > held {
			msg := fmt.Sprintf("%s is not in your hand", k.Title())
			if held > 0 {
				msg = fmt.Sprintf("you hold %d %s and this is one more", held, k.Title())
			}
			errs = append(errs, ProgramError{Register: reg, Card: c, Msg: msg})
		}
	}
	return errs
}
