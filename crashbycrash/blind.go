package crashbycrash

import "fmt"

// Ruling "Written before the draw" (seed 002, Action "Exchanging two cards"; issue 20
// item 3): at the table a player who exchanges cards for cards from the deck sees them
// before the second action; by mail both actions are written before any card is drawn.
// So the second action may name only cards the player knows they will hold: the hand
// before the move, less the cards the first action gives or plays, plus the face-up
// cards it takes. Were a card drawn from the deck allowed, the judge's answer (accepted,
// or "not in your hand (you hold ...)") would tell the player the deck's order before
// the draw, and the player could send another move.

// BlindCard is an error naming the card the second action of m names that the seat
// cannot know it will hold when it writes the move; nil when there is none. The judge
// checks a move by mail with it before Apply; the autopilot plays by it too.
func (s *State) BlindCard(seat int, m Move) error {
	if len(m.Actions) < 2 || seat < 0 || seat >= s.Players {
		return nil
	}
	return s.blindSecond(seat, m.Actions[0], m.Actions[1])
}

func (s *State) blindSecond(seat int, first, second Action) error {
	if first.Kind != ActExchange || (first.From[0] != Deck && first.From[1] != Deck) {
		return nil // the hand after the first action is known
	}
	var known [numCards]int
	for _, c := range s.Hands[seat] {
		if c != NoCard && c < numCards {
			known[c]++
		}
	}
	for _, c := range first.Give {
		if c < numCards && known[c] > 0 {
			known[c]--
		}
	}
	for _, src := range first.From {
		if src >= 1 && int(src) <= FaceUpCards && s.Players == 2 {
			if c := s.FaceUp[src-1]; c != NoCard && c < numCards {
				known[c]++
			}
		}
	}
	var named []Card
	switch second.Kind {
	case ActCard:
		named = []Card{second.Card}
	case ActExchange:
		named = second.Give[:]
	}
	for _, c := range named {
		if c == NoCard || c >= numCards {
			continue // Apply says what is wrong with it
		}
		if known[c] == 0 {
			return fmt.Errorf("action 2 (%s): %s is not a card you hold before this move or take face-up in action 1; by mail both actions are written before action 1's cards are drawn from the deck, so action 2 may name only cards you know you hold (ruling \"Written before the draw\")", FormatAction(second), c)
		}
		known[c]--
	}
	return nil
}
