package crashbycrash

// seed 002, Placing a standard car: a car from stock goes next to another car and pushes
// it; along a line of cars with no gaps only the last car moves; the placer picks which
// neighbour when there are several; the operator absorbs a push; one or two accumulators
// carry the movement on, through cars hit, cell by cell (diagram 3); a car pushed off the
// board or into a hole goes back to its owner's stock and the pusher scores 2 for an
// opponent's car; a second placement in a turn costs 4 points.
//
// Rulings (rules README, docs/crash-by-crash.md): the operator is not a car, so a car
// whose only neighbour is the operator cannot be placed; a line stopped by the operator
// does not move and remaining movement is lost; movement onto a bell stops there (the bell
// rings); cars are never placed on a bell; accumulators amplify a standard car's push only.

import (
	"fmt"
	"strings"
)

// placeCar is the action "placing a car" with a standard car, modified by a blue card
// played as the turn's first action.
func (s *State) placeCar(t *turn, a Action) error {
	c := a.Cell
	if err := s.placeCellOK(c); err != nil {
		return err
	}
	if s.Stock[t.side] == 0 {
		return fmt.Errorf("%s has no standard car in stock", SideName(t.side))
	}
	blue := NoCard
	if t.idx == 1 && t.bound != NoCard && cardColour(t.bound) == Blue {
		blue = t.bound
	}
	if a.Acc < 0 || a.Acc > 2 {
		return fmt.Errorf("%d accumulators: a push takes 1 or 2", a.Acc)
	}
	if a.Acc > 0 {
		switch {
		case blue != NoCard:
			return fmt.Errorf("no accumulator with a blue card (%s) in the same turn", blue)
		case s.DeadAcc[t.side]:
			return fmt.Errorf("Dead Accumulator: %s may use no accumulator this turn", SideName(t.side))
		case int(s.Acc[t.side]) < a.Acc:
			return fmt.Errorf("%s has %d accumulator(s) left", SideName(t.side), s.Acc[t.side])
		}
	}
	cars := s.carDirs(c)
	dirs := a.Push
	switch {
	case a.NoPush:
		if blue != ExpansionUnlimited {
			return fmt.Errorf("only Expansion Unlimited places a car without pushing")
		}
		if len(dirs) > 0 || a.Acc > 0 {
			return fmt.Errorf("no push means no direction and no accumulator")
		}
	case len(dirs) == 0 && len(cars) == 0:
		if blue != ExpansionUnlimited {
			return fmt.Errorf("%s touches no car; cells next to a car: %s", c, s.cellsNextToCars())
		}
	case len(dirs) == 0 && len(cars) == 1:
		dirs = cars
	case len(dirs) == 0:
		return fmt.Errorf("%s touches cars %s: say which to push, e.g. place %s push %s", c, describeDirs(c, cars), c, cars[0])
	}
	if len(dirs) > 2 || (len(dirs) == 2 && blue != DoubleHit) {
		return fmt.Errorf("a car pushes in one direction (two only with Double Hit)")
	}
	if len(dirs) == 2 && dirs[0] == dirs[1] {
		return fmt.Errorf("Double Hit pushes in two different directions")
	}
	for _, d := range dirs {
		if d < N || d > NW {
			return fmt.Errorf("no direction %d", d)
		}
		if !containsDir(cars, d) {
			if len(cars) == 0 {
				return fmt.Errorf("%s has no car to the %s; %s touches no car", c, d, c)
			}
			return fmt.Errorf("%s has no car to the %s; it touches cars %s", c, d, describeDirs(c, cars))
		}
	}
	if a.Acc > 0 && len(dirs) == 0 {
		return fmt.Errorf("accumulators need a push")
	}
	if t.placements == 1 {
		if err := s.pay(t, 4, "a second placement in a turn"); err != nil {
			return err
		}
	}
	t.placements++
	s.Board[c] = carOf(t.side, false)
	s.Stock[t.side]--
	s.Acc[t.side] -= int8(a.Acc)
	t.ev(Event{Kind: EvPlace, Side: t.side, From: NoCell, To: c, N: a.Acc})
	for _, d := range dirs {
		n := Next(c, d)
		switch blue {
		case CarRacket:
			s.racket(t, n, d)
		case Tandem:
			s.tandem(t, c, d)
		default:
			s.push(t, n, d, 1+a.Acc)
		}
	}
	return nil
}

// placeCellOK says why no car may be placed on c.
func (s *State) placeCellOK(c Cell) error {
	switch {
	case !OnBoard(c):
		return fmt.Errorf("%s is not on the board", c)
	case !s.Present(c):
		return fmt.Errorf("%s is in a hole (its tile was removed)", c)
	case s.Board[c] != Empty:
		return fmt.Errorf("%s already holds a car", c)
	case s.Operator == c:
		return fmt.Errorf("%s holds the operator", c)
	case s.BellAt(c) >= 0:
		return fmt.Errorf("%s holds a bell; cars are never placed on a bell", c)
	}
	return nil
}

// carDirs lists the directions from c in which a neighbouring cell holds a car.
func (s *State) carDirs(c Cell) []Dir {
	var out []Dir
	for d := N; d <= NW; d++ {
		if n := Next(c, d); n != NoCell && s.Board[n] != Empty {
			out = append(out, d)
		}
	}
	return out
}

func (s *State) hasCarNeighbour(c Cell) bool {
	for d := N; d <= NW; d++ {
		if n := Next(c, d); n != NoCell && s.Board[n] != Empty {
			return true
		}
	}
	return false
}

func containsDir(ds []Dir, d Dir) bool {
	for _, x := range ds {
		if x == d {
			return true
		}
	}
	return false
}

func describeDirs(c Cell, ds []Dir) string {
	var p []string
	for _, d := range ds {
		p = append(p, fmt.Sprintf("%s (%s)", d, Next(c, d)))
	}
	return strings.Join(p, ", ")
}

// cellsNextToCars lists the vacant cells where a standard car can be placed.
func (s *State) cellsNextToCars() string {
	var p []string
	for c := Cell(1); c <= MaxCell; c++ {
		if s.vacant(c) && s.hasCarNeighbour(c) {
			p = append(p, c.String())
		}
	}
	if len(p) == 0 {
		return "none"
	}
	return strings.Join(p, " ")
}

// lineEnd is the last car of the unbroken line of cars that starts at c going d.
func (s *State) lineEnd(c Cell, d Dir) Cell {
	for {
		n := Next(c, d)
		if n == NoCell || s.Board[n] == Empty {
			return c
		}
		c = n
	}
}

// push moves the line starting at car c in direction d by m cells, the way a placed car
// pushes (seed 002, Placing a standard car, diagrams 2 and 3).
func (s *State) push(t *turn, c Cell, d Dir, m int) {
	for m > 0 {
		last := s.lineEnd(c, d)
		if !s.step(t, last, d) {
			return
		}
		m--
		c = Next(last, d)
		if s.BellAt(c) >= 0 { // stopped on the bell it rang
			return
		}
	}
}

// step moves the car on c one cell in direction d if it can: off the board or into a hole
// (back to stock), onto a bell (it rings), onto an empty cell. It reports whether the car
// moved on along the board (false: it fell, or the operator stopped it).
func (s *State) step(t *turn, c Cell, d Dir) bool {
	n := Next(c, d)
	p := s.Board[c]
	if n == NoCell || !s.Present(n) {
		s.fall(t, c)
		return false
	}
	if s.Operator == n {
		t.ev(Event{Kind: EvBlocked, Side: p.Side(), From: c, To: n, Dir: d})
		return false
	}
	s.Board[n], s.Board[c] = p, Empty
	t.ev(Event{Kind: EvPush, Side: p.Side(), Magnet: p.IsMagnet(), From: c, To: n, Dir: d})
	s.arrive(t, n)
	return true
}

// fall sends the car on c back to its owner's stock; pushing an opponent's car off the
// board scores 2 (seed 002, Action "Placing a car"; the rules README: only an opponent's).
func (s *State) fall(t *turn, c Cell) {
	p := s.Board[c]
	s.Board[c] = Empty
	s.toStock(p)
	t.ev(Event{Kind: EvFall, Side: p.Side(), Magnet: p.IsMagnet(), From: c, To: NoCell})
	if p.Side() != t.side {
		s.Score[t.side] += 2
		t.ev(Event{Kind: EvPoints, Side: t.side, N: 2, From: NoCell, To: NoCell})
	}
}

func (s *State) toStock(p Piece) {
	if p.IsMagnet() {
		s.Magnet[p.Side()] = true
	} else {
		s.Stock[p.Side()]++
	}
}

// arrive notes a bell rung by a car moved onto c.
func (s *State) arrive(t *turn, c Cell) {
	if s.BellAt(c) < 0 {
		return
	}
	for _, r := range t.rings[:t.nrings] {
		if r == c {
			return
		}
	}
	t.ev(Event{Kind: EvRing, From: NoCell, To: c})
	t.rang++
	if t.nrings < len(t.rings) {
		t.rings[t.nrings] = c
		t.nrings++
	}
}
