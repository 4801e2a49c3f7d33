package crashbycrash

// seed 002, Game Setup: the tiles drawn at random into the 5×5 pattern, bells on the
// stars, the operator on the centre of a star-less flower, three cards face up, three in
// each hand, 10 cars, 1 magnet and 4 accumulators a side, scores at 10.

import "fmt"

// NewGame deals a game from the settings and the seed. The seat to place the first car
// is seat 0 (ruling "Who places first": the seed's "last player who drove a bumper car"
// is the game master's to seat first).
func NewGame(set Settings, seed uint64) (*State, error) {
	if set.Players != 2 && set.Players != 4 {
		return nil, fmt.Errorf("crashbycrash: %d players; the game is for 2, or 4 in two teams", set.Players)
	}
	if set.FirstEventTurn == 0 {
		set.FirstEventTurn = 6
	}
	if set.FirstEventTurn < 1 || set.FirstEventTurn > 50 {
		return nil, fmt.Errorf("crashbycrash: first_event_turn %d, want 1-50", set.FirstEventTurn)
	}
	s := &State{Players: set.Players, FirstEventTurn: set.FirstEventTurn, Seed: seed, Operator: NoCell, OpHole: NoSlot}
	// Tiles: flowers are designs 0..11, Xs 12..24 (Designs order); each kind shuffled into
	// its slots in slot order.
	var fl, xs []Card // reuse the card shuffler on small ints
	for i := 0; i < 12; i++ {
		fl = append(fl, Card(i))
	}
	for i := 12; i < 25; i++ {
		xs = append(xs, Card(i))
	}
	s.shuffle(fl)
	s.shuffle(xs)
	var starless []Slot
	bell := 0
	for sl := Slot(0); sl < NumTiles; sl++ {
		if sl.IsX() {
			s.Tiles[sl], xs = int8(xs[0]), xs[1:]
			continue
		}
		s.Tiles[sl], fl = int8(fl[0]), fl[1:]
		d := designs[s.Tiles[sl]]
		if d.Star < 0 {
			starless = append(starless, sl)
			continue
		}
		s.Bells[bell] = geo.slotCells[sl][d.Star]
		bell++
	}
	// Ruling "The operator's start": the seed draws which of the two star-less flowers.
	s.Operator = geo.slotCells[starless[s.rnd(len(starless))]][0]
	for i := range s.Chart {
		s.Chart[i] = -1
	}
	for side := 0; side < 2; side++ {
		s.Stock[side] = StandardCars
		s.Magnet[side] = true
		s.Acc[side] = Accumulators
		s.Score[side] = StartScore
	}
	deck := deckMakeUp()
	s.shuffle(deck)
	s.DeckN = copy(s.Deck[:], deck)
	if set.Players == 2 {
		for i := range s.FaceUp {
			s.FaceUp[i] = s.popDeck()
		}
	}
	for seat := 0; seat < set.Players; seat++ {
		for i := range s.Hands[seat] {
			s.Hands[seat][i] = s.popDeck()
		}
	}
	s.Phase = PhaseSetup
	return s, nil
}

// popDeck takes the deck's top card, reshuffling the discard pile into a new deck when
// the deck is empty (ruling "An empty deck"); NoCard when both are empty.
func (s *State) popDeck() Card {
	if s.DeckN == 0 {
		if s.DiscardN == 0 {
			return NoCard
		}
		s.DeckN = copy(s.Deck[:], s.Discard[:s.DiscardN])
		s.DiscardN = 0
		s.shuffle(s.Deck[:s.DeckN])
	}
	s.DeckN--
	c := s.Deck[s.DeckN]
	s.Deck[s.DeckN] = NoCard
	return c
}

func (s *State) discard(c Card) {
	if c != NoCard && s.DiscardN < maxDeck {
		s.Discard[s.DiscardN] = c
		s.DiscardN++
	}
}
