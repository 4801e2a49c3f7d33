package adjudicator

import "fmt"

// Swing doors (seed 000, "Robot moves through a Swing Door").
//
//   - A swing door is open only in the registers written on it and is a wall in every
//     other: "When a Swing Door is closed it works as a Wall." Robots move and are
//     pushed through it while it is open; "Laser Beams may pass through the open Door".
//   - Ruling: outside the registers (register 0, the end of the turn) doors are closed.
//   - A door hangs on one side of its square, like a wall; it closes the edge for both
//     squares.

// doorClosed reports whether a closed swing door stands on the edge leaving p towards d
// in register reg.
func (b *Board) doorClosed(p Pos, d Dir, reg int) bool {
	if b.In(p) {
		if dr := b.At(p).Door; dr.Has(d) && !dr.Open.Has(reg) {
			return true
		}
	}
	q := p.Step(d)
	if b.In(q) {
		if dr := b.At(q).Door; dr.Has(d.Back()) && !dr.Open.Has(reg) {
			return true
		}
	}
	return false
}

// checkDoors: a door stands on an open edge inside the floor, one door an edge.
func checkDoors(b *Board) error {
	for y := 0; y < b.H; y++ {
		for x := 0; x < b.W; x++ {
			p := Pos{x, y}
			dr := b.At(p).Door
			if dr.Side == 0 {
				continue
			}
			if dr.Side > 4 {
				return fmt.Errorf("square %v: a swing door on no side", p)
			}
			d := Dir(dr.Side - 1)
			q := p.Step(d)
			switch {
			case !b.In(q):
				return fmt.Errorf("square %v: a swing door on its %s side opens off the floor", p, d)
			case b.Blocked(p, d):
				return fmt.Errorf("square %v: a swing door on its %s side, where a wall stands", p, d)
			case b.At(q).Door.Has(d.Back()):
				return fmt.Errorf("square %v: two swing doors on one edge (also on %v)", p, q)
			}
		}
	}
	return nil
}
