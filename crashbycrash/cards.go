package crashbycrash

// seed 002, Cards overview: what each of the twelve cards does, all in this file; and
// Action "Playing a card": a grey card is an action of its own, a blue or yellow card must
// be the first action and binds the second (blue: placing a standard car, modified, with
// no accumulator; yellow: the second action must ring a bell, and the scoring event is
// modified). Played cards go to the discard pile.

import (
	"fmt"
	"strings"
)

func (s *State) playCard(t *turn, a Action) error {
	c := a.Card
	if c == NoCard || c >= numCards {
		return fmt.Errorf("no such card")
	}
	if !containsCard(s.Hands[t.seat][:], c) {
		return fmt.Errorf("%s is not in your hand (you hold %s)", c, handList(s.Hand(t.seat)))
	}
	want := map[Card]int{BellCharms: 2, Lambada: 2, FreeRide: 2, Saboteur: 1, FlyingDutchman: 1}[c]
	if len(a.Cells) != want {
		return fmt.Errorf("%s takes %d cell(s) (%s); %d given", c, want, cardInfos[c-1].Args, len(a.Cells))
	}
	col := cardColour(c)
	if col != Grey {
		if t.idx != 0 {
			return fmt.Errorf("a %s card (%s) must be the first action of a turn", []string{"", "yellow", "blue"}[col], c)
		}
		t.bound = c
	}
	t.ev(Event{Kind: EvCard, Side: t.side, Card: c})
	var err error
	switch c {
	case BellCharms:
		err = s.bellCharms(t, a.Cells[0], a.Cells[1])
	case Lambada:
		err = s.lambada(t, a.Cells[0], a.Cells[1])
	case FreeRide:
		err = s.freeRide(t, a.Cells[0], a.Cells[1])
	case Saboteur:
		err = s.saboteur(t, a.Cells[0])
	case FlyingDutchman:
		err = s.flyingDutchman(t, a.Cells[0])
	case DeadAccumulator:
		opp := 1 - t.side
		if s.Acc[opp] > 0 {
			s.Acc[opp]--
		}
		s.DeadAcc[opp] = true
		t.ev(Event{Kind: EvDeadAcc, Side: opp, N: int(s.Acc[opp])})
	}
	if err != nil {
		return err
	}
	s.takeCard(t.seat, c)
	s.discard(c)
	return nil
}

func containsCard(h []Card, c Card) bool {
	for _, x := range h {
		if x == c {
			return true
		}
	}
	return false
}

func handList(h []Card) string {
	if len(h) == 0 {
		return "no card"
	}
	var p []string
	for _, c := range h {
		p = append(p, c.String())
	}
	return strings.Join(p, ", ")
}

// Bell Charms: a bell moves to a free cell of a flower tile holding no other bell (its
// own tile too). Free: no car, no operator, no bell.
func (s *State) bellCharms(t *turn, from, to Cell) error {
	b := s.BellAt(from)
	if b < 0 {
		return fmt.Errorf("Bell Charms: no bell on %s (bells: %s)", from, s.bellList())
	}
	if to == from {
		return fmt.Errorf("Bell Charms: the bell must move to a different cell")
	}
	if err := s.placeCellOK(to); err != nil {
		return fmt.Errorf("Bell Charms: %v", err)
	}
	sl := SlotOf(to)
	if sl.IsX() {
		return fmt.Errorf("Bell Charms: %s is on an X tile; bells stand on flower tiles", to)
	}
	for i, c := range s.Bells {
		if i != b && c != NoCell && SlotOf(c) == sl {
			return fmt.Errorf("Bell Charms: %s already has a bell (on %s)", sl, c)
		}
	}
	s.Bells[b] = to
	t.ev(Event{Kind: EvBell, From: from, To: to})
	return nil
}

func (s *State) bellList() string {
	var p []string
	for _, c := range s.Bells {
		if c != NoCell {
			p = append(p, c.String())
		}
	}
	return strings.Join(p, " ")
}

// Lambada: two neighbouring cars swap cells, whatever their sides.
func (s *State) lambada(t *turn, a, b Cell) error {
	if !OnBoard(a) || s.Board[a] == Empty {
		return fmt.Errorf("Lambada: no car on %s", a)
	}
	if !OnBoard(b) || s.Board[b] == Empty {
		return fmt.Errorf("Lambada: no car on %s", b)
	}
	if !adjacent(a, b) {
		return fmt.Errorf("Lambada: %s and %s are not neighbours", a, b)
	}
	s.Board[a], s.Board[b] = s.Board[b], s.Board[a]
	t.ev(Event{Kind: EvSwap, From: a, To: b})
	return nil
}

func adjacent(a, b Cell) bool {
	for d := N; d <= NW; d++ {
		if Next(a, d) == b {
			return true
		}
	}
	return false
}

// Free Ride: a car moves to a free neighbouring cell (no car, no operator; ruling: not
// onto a bell, which only a push or a pull rings).
func (s *State) freeRide(t *turn, from, to Cell) error {
	if !OnBoard(from) || s.Board[from] == Empty {
		return fmt.Errorf("Free Ride: no car on %s", from)
	}
	if !adjacent(from, to) {
		return fmt.Errorf("Free Ride: %s is not next to %s", to, from)
	}
	if err := s.placeCellOK(to); err != nil {
		return fmt.Errorf("Free Ride: %v", err)
	}
	p := s.Board[from]
	s.Board[to], s.Board[from] = p, Empty
	t.ev(Event{Kind: EvMoveCar, Side: p.Side(), Magnet: p.IsMagnet(), From: from, To: to})
	return nil
}

// Saboteur: an opponent's car leaves the board for its stock, no points.
func (s *State) saboteur(t *turn, c Cell) error {
	if !OnBoard(c) || s.Board[c] == Empty {
		return fmt.Errorf("Saboteur: no car on %s", c)
	}
	p := s.Board[c]
	if p.Side() == t.side {
		return fmt.Errorf("Saboteur: the car on %s is your own; it takes an opponent's", c)
	}
	s.Board[c] = Empty
	s.toStock(p)
	t.ev(Event{Kind: EvSabotage, Side: p.Side(), Magnet: p.IsMagnet(), From: c})
	return nil
}

// Flying Dutchman: the operator moves to any cell of the board with no car and no bell.
func (s *State) flyingDutchman(t *turn, c Cell) error {
	if s.Operator == c {
		return fmt.Errorf("Flying Dutchman: the operator is on %s already", c)
	}
	if err := s.placeCellOK(c); err != nil {
		return fmt.Errorf("Flying Dutchman: %v", err)
	}
	t.ev(Event{Kind: EvFly, From: s.Operator, To: c})
	s.Operator, s.OpHole = c, NoSlot
	return nil
}

// Car-Racket (blue): the pushed car (the line's last) runs on until it hits a car (which
// is bumped one cell as by a placement and it stops), the operator (it stops), a bell (it
// stops on it and rings) or the edge (it falls off, 2 points for an opponent's).
func (s *State) racket(t *turn, c Cell, d Dir) {
	last := s.lineEnd(c, d)
	for {
		n := Next(last, d)
		if n != NoCell && s.Present(n) && s.Board[n] != Empty {
			s.push(t, n, d, 1)
			return
		}
		if !s.step(t, last, d) {
			return
		}
		last = n
		if s.BellAt(last) >= 0 {
			return
		}
	}
}

// Tandem (blue): the last two cars of the line move one cell (diagram 8); if the line is
// one car, it and the placed car move (diagram 7). Ruling: if the operator stops the
// front car, neither moves.
func (s *State) tandem(t *turn, placed Cell, d Dir) {
	c := Next(placed, d)
	last := s.lineEnd(c, d)
	second := placed
	if last != c {
		second = c
		for Next(second, d) != last {
			second = Next(second, d)
		}
	}
	if !s.stepOrFall(t, last, d) {
		return
	}
	s.step(t, second, d)
}

// stepOrFall is step that also reports a fall as done (the cell is free behind it).
func (s *State) stepOrFall(t *turn, c Cell, d Dir) bool {
	n := Next(c, d)
	if n != NoCell && s.Operator == n {
		s.step(t, c, d)
		return false
	}
	s.step(t, c, d)
	return true
}
