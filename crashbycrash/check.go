package crashbycrash

// Check refuses a state that the rules cannot reach, for states read from outside
// (a saved game, a scenario): counts of cars, cards and bells, pieces on cells that
// exist, a tile layout that is a permutation of the designs.

import "fmt"

// Check says what is impossible about s, or nil.
func (s *State) Check() error {
	bad := func(f string, a ...any) error { return fmt.Errorf("crashbycrash: state: "+f, a...) }
	if s.Players != 2 && s.Players != 4 {
		return bad("players %d, want 2 or 4", s.Players)
	}
	if s.FirstEventTurn < 1 {
		return bad("first_event_turn %d", s.FirstEventTurn)
	}
	var used [NumTiles]bool
	for sl, d := range s.Tiles {
		if d < 0 || int(d) >= len(designs) || used[d] {
			return bad("tile slot %d: design %d (each of the 25 once)", sl, d)
		}
		used[d] = true
		if designs[d].Flower == Slot(sl).IsX() {
			return bad("%s takes an %s tile, not %s", Slot(sl), map[bool]string{true: "X", false: "flower"}[Slot(sl).IsX()], designs[d].Name)
		}
	}
	if s.Holes>>NumTiles != 0 {
		return bad("holes %#x name slots past 25", s.Holes)
	}
	var onBoard [2]int
	var magnets [2]int
	for c := Cell(1); c <= MaxCell; c++ {
		p := s.Board[c]
		if p > MagnetB {
			return bad("cell %s holds piece %d", c, p)
		}
		if p == Empty {
			continue
		}
		if !s.Present(c) {
			return bad("a car on %s, which is not on the board", c)
		}
		if p.IsMagnet() {
			magnets[p.Side()]++
		} else {
			onBoard[p.Side()]++
		}
	}
	for side := 0; side < 2; side++ {
		if int(s.Stock[side]) < 0 || onBoard[side]+int(s.Stock[side]) != StandardCars {
			return bad("side %s has %d cars on the board and %d in stock, want %d in all", SideName(side), onBoard[side], s.Stock[side], StandardCars)
		}
		m := magnets[side]
		if s.Magnet[side] {
			m++
		}
		if m != 1 {
			return bad("side %s has %d magnetic cars, want 1 (on the board or in stock)", SideName(side), m)
		}
		if s.Acc[side] < 0 || s.Acc[side] > Accumulators {
			return bad("side %s has %d accumulators", SideName(side), s.Acc[side])
		}
		if s.Score[side] <= 0 && s.Phase != PhaseOver {
			return bad("side %s has score %d; scores stay above zero", SideName(side), s.Score[side])
		}
	}
	if s.Operator != NoCell {
		if !s.Present(s.Operator) || s.Board[s.Operator] != Empty {
			return bad("the operator on %s: not a free cell of the board", s.Operator)
		}
		if s.OpHole != NoSlot {
			return bad("the operator is both on %s and in a hole", s.Operator)
		}
	} else if s.OpHole < 0 || s.OpHole >= NumTiles || !s.isHole(s.OpHole) {
		return bad("the operator is nowhere (hole %d)", s.OpHole)
	}
	live := 0
	for i, b := range s.Bells {
		if b == NoCell {
			continue
		}
		live++
		if !s.Present(b) || SlotOf(b).IsX() || s.Board[b] != Empty {
			return bad("bell %d on %s: not a free cell of a flower tile", i+1, b)
		}
		for j := 0; j < i; j++ {
			if s.Bells[j] != NoCell && SlotOf(s.Bells[j]) == SlotOf(b) {
				return bad("bells %d and %d on one tile", j+1, i+1)
			}
		}
	}
	if s.Events < 0 || s.Events > ChartSize || (s.Events == ChartSize && s.Phase != PhaseOver) {
		return bad("%d scoring events in phase %d (the seventh ends the game)", s.Events, s.Phase)
	}
	for i, c := range s.Chart {
		if (i < s.Events) != (c >= 0) || c >= NumBells {
			return bad("chart space %d holds %d with %d events", i+1, c, s.Events)
		}
	}
	if s.DeckN < 0 || s.DeckN > maxDeck || s.DiscardN < 0 || s.DiscardN > maxDeck {
		return bad("deck %d, discard %d", s.DeckN, s.DiscardN)
	}
	var count [numCards]int
	add := func(c Card, where string) error {
		if c >= numCards {
			return bad("%s holds card %d", where, c)
		}
		count[c]++
		return nil
	}
	for _, c := range s.Deck[:s.DeckN] {
		if err := add(c, "the deck"); err != nil {
			return err
		}
	}
	for _, c := range s.Discard[:s.DiscardN] {
		if err := add(c, "the discard pile"); err != nil {
			return err
		}
	}
	for _, c := range s.FaceUp {
		if err := add(c, "the face-up row"); err != nil {
			return err
		}
	}
	for seat := range s.Hands {
		for _, c := range s.Hands[seat] {
			if c != NoCard && seat >= s.Players {
				return bad("seat %d holds cards but there are %d players", seat+1, s.Players)
			}
			if err := add(c, fmt.Sprintf("seat %d's hand", seat+1)); err != nil {
				return err
			}
		}
	}
	for _, ci := range cardInfos {
		if count[ci.Card] > ci.Count {
			return bad("%d %s cards, the deck has %d", count[ci.Card], ci.Card, ci.Count)
		}
	}
	if s.Phase > PhaseOver {
		return bad("phase %d", s.Phase)
	}
	if s.Phase == PhaseSetup {
		if onBoard[0]+onBoard[1] != s.Placed || s.Placed >= s.setupCars() || magnets[0]+magnets[1] != 0 {
			return bad("set-up with %d cars placed, %d on the board, %d magnets", s.Placed, onBoard[0]+onBoard[1], magnets[0]+magnets[1])
		}
	} else if s.Turn < 1 {
		return bad("game turn %d in play", s.Turn)
	}
	if s.ToMove < 0 || s.ToMove >= s.Players {
		return bad("seat %d to move of %d", s.ToMove+1, s.Players)
	}
	return nil
}
