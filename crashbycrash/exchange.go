package crashbycrash

// seed 002, Action "Exchanging two cards": two cards from the hand are discarded without
// effect and two drawn, from the deck or the face-up cards or one of each; the face-up
// cards are not replenished until the end of the turn. In the team game each card from
// the deck is drawn two-keep-one (Variant for 4 players).

import "fmt"

func (s *State) exchange(t *turn, a Action) error {
	h := s.Hands[t.seat]
	for _, g := range a.Give {
		if g == NoCard {
			return fmt.Errorf("exchange names two cards of your hand")
		}
	}
	for i, g := range a.Give {
		if !s.takeCard(t.seat, g) {
			s.Hands[t.seat] = h
			if i == 1 && a.Give[0] == g {
				return fmt.Errorf("you hold only one %s (you hold %s)", g, handList(cardsOf(h)))
			}
			return fmt.Errorf("%s is not in your hand (you hold %s)", g, handList(cardsOf(h)))
		}
	}
	for _, g := range a.Give {
		s.discard(g)
	}
	t.ev(Event{Kind: EvExchange, Side: t.side})
	for i, src := range a.From {
		c, err := s.drawCard(t, src, t.keep)
		if err != nil {
			return fmt.Errorf("draw %d: %w", i+1, err)
		}
		s.giveCard(t.seat, c)
	}
	return nil
}

func cardsOf(h [HandSize]Card) []Card {
	var out []Card
	for _, c := range h {
		if c != NoCard {
			out = append(out, c)
		}
	}
	return out
}
