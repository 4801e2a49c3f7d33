package adjudicator

import "fmt"

// Portals (seed 003, "Extra Tiles For Grand Prix", PORTALS; seed 000, "Robot moves onto
// a Portal").
//
//   - The two portals of a colour are a pair. A robot that enters a portal while moving
//     is put at once on the other portal of the pair and goes on with its move from
//     there; the two squares count as one square of movement (seed 000: "Both Portal
//     spaces counts as a single space").
//   - A pair is switched off while a robot stands on either of its squares (seed 003:
//     "If another robot occupies the moving robot's destination portal, the portal does
//     not activate"; seed 000: "Both Portals of the same color are automatically turned
//     off if a Robot stays on one of the spaces"). A switched-off portal is plain floor.
//     So a robot that arrives on a portal switches the pair off until it leaves.
//   - Ruling: a portal acts on robots moving in phase b: under their own card, pushed by
//     a moving robot, sliding on oil or bouncing off a repulsor field (seed 003: "enters a
//     portal during the execution of a movement card"). Belts and pushers carry a robot
//     onto a portal as onto plain floor.
//   - Ruling: any robot on a portal switches the pair off, virtual robots too.

// partner is the other square of p's portal pair; ok is false when p holds no portal.
func (s *Setup) partner(p Pos) (Pos, bool) {
	b := s.Course.Board
	if !b.In(p) {
		return Pos{}, false
	}
	c := b.At(p).Portal
	if c == 0 {
		return Pos{}, false
	}
	q := s.portals[c]
	if q[0] == p {
		return q[1], true
	}
	return q[0], true
}

// teleport moves robot i, which has just entered the portal at its square, to the other
// portal of the pair if neither square holds another robot.
func (t *turn) teleport(i int) {
	r := &t.st.Robots[i]
	if t.phase != "move" || !r.Active() {
		return
	}
	to, ok := t.setup.partner(r.Pos)
	if !ok || t.anyRobotAt(to, i) || t.anyRobotAt(r.Pos, i) {
		return
	}
	from := r.Pos
	r.Pos = to
	t.emit(Event{Kind: EvTeleport, Robot: r.Name, From: t.pos(from), To: t.pos(to), Cause: "portal"})
	t.entered(i)
}

// checkPortals: every portal colour on the floor has exactly two squares.
func checkPortals(b *Board) ([10][2]Pos, error) {
	var pairs [10][2]Pos
	var n [10]int
	for k := range b.Squares {
		c := b.Squares[k].Portal
		if c == 0 {
			continue
		}
		if c > 9 {
			return pairs, fmt.Errorf("square %d,%d: portal colour %d (want 1 to 9)", k%b.W, k/b.W, c)
		}
		if n[c] < 2 {
			pairs[c][n[c]] = Pos{k % b.W, k / b.W}
		}
		n[c]++
	}
	for c := 1; c <= 9; c++ {
		if n[c] != 0 && n[c] != 2 {
			return pairs, fmt.Errorf("portal colour %d: %d squares (want a pair: two squares of a colour)", c, n[c])
		}
	}
	return pairs, nil
}
