package crashbycrash

// seed 002, Placing a magnetic car: a magnet pulls, never pushes; along each of its six
// lines it pulls the car two cells away (the rules README) onto the cell between, if that
// cell holds no car and no operator; a placed magnet must pull at least one car; magnets
// on the board pull again after every action until nothing moves; a car pulled by two
// magnets stays; bells and the operator are never pulled.
//
// Rulings (docs/crash-by-crash.md): no pull across a hole or past the edge; two cars
// pulled onto one cell both stay; a car pulled onto a bell rings it; a magnet is placed
// like a standard car for the second-placement cost but takes no accumulator and no blue
// card.

import (
	"fmt"
	"strings"
)

// placeMagnet is the action "placing a car" with the magnetic car.
func (s *State) placeMagnet(t *turn, a Action) error {
	c := a.Cell
	if err := s.placeCellOK(c); err != nil {
		return err
	}
	if !s.Magnet[t.side] {
		return fmt.Errorf("%s's magnetic car is on the board already", SideName(t.side))
	}
	if a.Acc > 0 || len(a.Push) > 0 || a.NoPush {
		return fmt.Errorf("a magnet pulls by itself: no push and no accumulator")
	}
	if t.idx == 1 && t.bound != NoCard && cardColour(t.bound) == Blue {
		return fmt.Errorf("%s modifies a standard car's placement, not the magnet's", t.bound)
	}
	s0 := *s
	if t.placements == 1 {
		if err := s.pay(t, 4, "a second placement in a turn"); err != nil {
			return err
		}
	}
	t.placements++
	s.Board[c] = carOf(t.side, true)
	s.Magnet[t.side] = false
	t.ev(Event{Kind: EvPlace, Side: t.side, Magnet: true, From: NoCell, To: c})
	if s.pullPass(t, c) == 0 {
		return fmt.Errorf("a magnet on %s pulls no car; a placed magnet must pull at least one (a car two cells away, a free cell between); cells where it would: %s", c, s0.magnetCells(t))
	}
	s.settle(t)
	return nil
}

// magnetCells lists the free cells where the side's magnet would pull a car now.
func (s *State) magnetCells(t *turn) string {
	var out []string
	for c := Cell(1); c <= MaxCell; c++ {
		if !s.vacant(c) || !s.magnetWouldPull(c) {
			continue
		}
		n := *s
		tc := turn{seat: t.seat, side: t.side, evs: make([]Event, 0, 16)}
		n.Board[c] = carOf(t.side, true)
		n.Magnet[t.side] = false
		if n.pullPass(&tc, c) > 0 {
			out = append(out, c.String())
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, " ")
}

// pullPass lets every magnet pull once, all from the same snapshot, and returns how many
// cars moved (only those pulled by the magnet on mine, when mine is a cell).
func (s *State) pullPass(t *turn, mine Cell) int {
	if s.Magnet[0] && s.Magnet[1] {
		return 0 // both magnets in stock: nothing pulls
	}
	type pull struct{ from, to, mag Cell }
	var pulls [12]pull
	np := 0
	for m := Cell(1); m <= MaxCell && np < len(pulls)-5; m++ {
		if !s.Board[m].IsMagnet() {
			continue
		}
		for d := N; d <= NW; d++ {
			mid := Next(m, d)
			if mid == NoCell || !s.Present(mid) || s.Board[mid] != Empty || s.Operator == mid {
				continue
			}
			far := Next(mid, d)
			if far == NoCell || !s.Present(far) || s.Board[far] == Empty {
				continue
			}
			pulls[np] = pull{far, mid, m}
			np++
		}
	}
	moved, minePulled := 0, 0
	for i := 0; i < np; i++ {
		p := pulls[i]
		ok := true
		for j := 0; j < np; j++ {
			if j != i && (pulls[j].from == p.from || pulls[j].to == p.to) {
				ok = false // pulled by two magnets, or two cars onto one cell: all stay
			}
		}
		if !ok {
			continue
		}
		pc := s.Board[p.from]
		s.Board[p.to], s.Board[p.from] = pc, Empty
		t.ev(Event{Kind: EvPull, Side: pc.Side(), Magnet: pc.IsMagnet(), From: p.from, To: p.to})
		s.arrive(t, p.to)
		moved++
		if p.mag == mine {
			minePulled++
		}
	}
	if mine != NoCell {
		return minePulled
	}
	return moved
}

// settle resolves the bells rung, then lets the magnets pull, over and over until nothing
// moves (seed 002: "after each action ... immediately move any cars ... pulled").
func (s *State) settle(t *turn) {
	for pass := 0; pass < 100; pass++ {
		s.resolveRings(t)
		if s.Phase == PhaseOver {
			return
		}
		if s.pullPass(t, NoCell) == 0 && t.nrings == 0 {
			return
		}
	}
}
