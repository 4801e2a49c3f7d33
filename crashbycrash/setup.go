package crashbycrash

// seed 002, Game Setup: players alternately place four cars each on vacant cells, no two
// cars on one tile; the lowest total of cell values begins.
//
// Rulings (docs/crash-by-crash.md):
//   - set-up cars are standard cars; they may not stand on a bell (only a push or a pull
//     rings a bell) nor on the operator;
//   - "no more than one car on the same tile" counts both sides' cars;
//   - in the team game each seat places two, so each team places four, as in the
//     two-player game;
//   - a tie of totals: the side that placed second begins (the seed's "last person in a
//     bumper car" is not a thing a judge can ask; giving the first move to the side that
//     did not place first balances the two).

import (
	"fmt"
	"strings"
)

func (s *State) setupCars() int { return SetupCars * 2 }

func (s *State) setupMove(t *turn, m Move) error {
	if len(m.Actions) != 1 || m.Actions[0].Kind != ActPlace || len(m.Actions[0].Push) > 0 || m.Actions[0].Acc > 0 || m.Actions[0].NoPush {
		return fmt.Errorf("during set-up a move is one line: place CELL")
	}
	c := m.Actions[0].Cell
	if err := s.setupCellOK(c); err != nil {
		return err
	}
	s.Board[c] = carOf(t.side, false)
	s.Stock[t.side]--
	s.Placed++
	t.ev(Event{Kind: EvSetup, Side: t.side, From: NoCell, To: c})
	if s.Placed < s.setupCars() {
		s.ToMove = (t.seat + 1) % s.Players
		return nil
	}
	var total [2]int
	for c, p := range s.Board {
		if p != Empty {
			total[p.Side()] += s.Shade(Cell(c))
		}
	}
	side := 1 // ruling: a tie goes to the side that placed second
	if total[0] < total[1] {
		side = 0
	}
	s.Phase = PhasePlay
	s.Turn = 1
	s.Starter = side // side 0 starts with seat 0, side 1 with seat 1
	s.ToMove = side
	t.ev(Event{Kind: EvStarter, Seat: side, Side: side, N: total[1-side] - total[side], From: NoCell, To: NoCell})
	t.evs[len(t.evs)-1].Seat = side
	return nil
}

// setupCellOK says why a set-up car may not go on c.
func (s *State) setupCellOK(c Cell) error {
	if !s.Present(c) {
		return fmt.Errorf("%s is not on the board", c)
	}
	if s.Board[c] != Empty {
		return fmt.Errorf("%s already holds a car", c)
	}
	if s.Operator == c {
		return fmt.Errorf("%s holds the operator", c)
	}
	if s.BellAt(c) >= 0 {
		return fmt.Errorf("%s holds a bell; cars are never placed on a bell", c)
	}
	sl := SlotOf(c)
	for _, o := range geo.slotCells[sl] {
		if s.Board[o] != Empty {
			return fmt.Errorf("%s already has a car on %s; during set-up each tile takes one car at most (seed 002, Game Setup); free tiles: %s", sl, o, s.freeSetupTiles())
		}
	}
	return nil
}

// freeSetupTiles names one free cell of each tile that can still take a set-up car.
func (s *State) freeSetupTiles() string {
	var out []string
	for sl := Slot(0); sl < NumTiles; sl++ {
		for _, c := range geo.slotCells[sl] {
			if s.setupCellOKQuick(c) {
				out = append(out, c.String())
				break
			}
		}
	}
	return strings.Join(out, " ")
}

func (s *State) setupCellOKQuick(c Cell) bool {
	if !s.vacant(c) {
		return false
	}
	for _, o := range geo.slotCells[SlotOf(c)] {
		if s.Board[o] != Empty {
			return false
		}
	}
	return true
}
