package crashbycrash

// seed 002, Action "Agreement with operator": the operator moves 2 or 4 cells (4 cost 2
// points), never entering a cell twice; a car on a cell it enters is pushed on in the
// direction of its move, a whole line of cars with it; cars pushed off the board score 2
// (an opponent's, rules README); it may enter a hole, which counts as one cell, and leave
// it to any cell next to the hole; never outside the original perimeter; it may stand on a
// bell without effect, and no car can be pushed onto its cell.
//
// Rulings (docs/crash-by-crash.md): a hole is named by any of its cells; two holes next
// to each other are two cells; stepping out of a hole onto a car is refused (the push
// would have no direction).

import (
	"fmt"
	"strings"
)

type opPos struct {
	cell Cell // NoCell when in a hole
	hole Slot
}

func (s *State) moveOperator(t *turn, a Action) error {
	path := a.Cells
	cur := opPos{s.Operator, s.OpHole}
	if len(path) > 0 && cur.cell != NoCell && path[0] == cur.cell {
		path = path[1:] // the operator's own cell written first
	}
	if len(path) > 0 && cur.cell == NoCell && SlotOf(path[0]) == cur.hole {
		path = path[1:]
	}
	if len(path) != 2 && len(path) != 4 {
		return fmt.Errorf("the operator moves 2 or 4 cells; %d named", len(path))
	}
	if len(path) == 4 {
		if err := s.pay(t, 2, "moving the operator 4 cells"); err != nil {
			return err
		}
	}
	var seenCells [8]Cell
	var seenHoles [8]Slot
	nc, nh := 0, 0
	mark := func(p opPos) bool {
		if p.cell != NoCell {
			for _, c := range seenCells[:nc] {
				if c == p.cell {
					return false
				}
			}
			seenCells[nc] = p.cell
			nc++
			return true
		}
		for _, h := range seenHoles[:nh] {
			if h == p.hole {
				return false
			}
		}
		seenHoles[nh] = p.hole
		nh++
		return true
	}
	mark(cur)
	for i, to := range path {
		if !OnBoard(to) {
			return fmt.Errorf("step %d: %s is outside the board's original perimeter", i+1, to)
		}
		next := opPos{to, NoSlot}
		if !s.Present(to) {
			next = opPos{NoCell, SlotOf(to)}
		}
		if next == cur || !mark(next) {
			return fmt.Errorf("step %d: the operator never enters a cell twice (%s)", i+1, s.posName(next))
		}
		d, ok := s.opAdjacent(cur, next)
		if !ok {
			return fmt.Errorf("step %d: %s is not next to %s; next to it: %s", i+1, to, s.posName(cur), s.opNeighbours(cur))
		}
		if next.cell != NoCell && s.Board[next.cell] != Empty {
			if cur.cell == NoCell {
				return fmt.Errorf("step %d: leaving a hole the operator cannot push the car on %s (no direction)", i+1, to)
			}
			s.pushLine(t, next.cell, d)
		}
		t.ev(Event{Kind: EvOperator, From: cur.cell, To: next.cell, Slot: next.hole, Dir: d})
		s.Operator, s.OpHole = next.cell, next.hole
		cur = next
	}
	return nil
}

// opAdjacent says whether the operator can step from a to b, and the direction of a
// step between two cells.
func (s *State) opAdjacent(a, b opPos) (Dir, bool) {
	switch {
	case a.cell != NoCell && b.cell != NoCell:
		for d := N; d <= NW; d++ {
			if Next(a.cell, d) == b.cell {
				return d, true
			}
		}
	case a.cell != NoCell:
		for d := N; d <= NW; d++ {
			if n := Next(a.cell, d); n != NoCell && SlotOf(n) == b.hole {
				return d, true
			}
		}
	case b.cell != NoCell:
		for d := N; d <= NW; d++ {
			if n := Next(b.cell, d); n != NoCell && SlotOf(n) == a.hole {
				return NoDir, true
			}
		}
	default:
		return NoDir, a.hole != b.hole && geo.slotAdj[a.hole][b.hole]
	}
	return NoDir, false
}

func (s *State) posName(p opPos) string {
	if p.cell != NoCell {
		return p.cell.String()
	}
	return "the hole of " + p.hole.String()
}

// opNeighbours lists where the operator can step from p.
func (s *State) opNeighbours(p opPos) string {
	var out []string
	seen := map[Slot]bool{}
	for c := Cell(1); c <= MaxCell; c++ {
		if !OnBoard(c) {
			continue
		}
		q := opPos{c, NoSlot}
		if !s.Present(c) {
			if seen[SlotOf(c)] {
				continue
			}
			q = opPos{NoCell, SlotOf(c)}
		}
		if _, ok := s.opAdjacent(p, q); ok && q != p {
			if q.cell == NoCell {
				seen[q.hole] = true
				out = append(out, c.String()+" (hole)")
			} else {
				out = append(out, c.String())
			}
		}
	}
	return strings.Join(out, " ")
}

// pushLine moves the whole line of cars starting at c one cell in direction d: the
// operator's push (seed 002: "operator can push whole line of cars").
func (s *State) pushLine(t *turn, c Cell, d Dir) {
	var line [Cols + Rows]Cell
	n := 0
	for x := c; x != NoCell && s.Board[x] != Empty; x = Next(x, d) {
		line[n] = x
		n++
	}
	for i := n - 1; i >= 0; i-- {
		s.step(t, line[i], d)
	}
}
