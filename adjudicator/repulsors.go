package adjudicator

// Repulsor fields (seed 003, "Extra Tiles For Grand Prix", REPULSOR FIELDS).
//
// A repulsor field stands on a square's side, like a wall (board token qN):
//
//   - A robot that runs into it under its own card is "pushed directly away from the
//     field for the number of squares equal to its movement card, and loses any
//     remaining movement from that card". The count is the card's (Move 3: 3, Back Up:
//     1), after any option that changes it (Fourth Gear: 4); starting on oil does not
//     shorten it.
//   - A robot pushed into it by a moving robot is pushed directly away by the pushing
//     robot's count, and the pushing robot loses the rest of its card. The repulsed
//     robot pushes the robots behind it as it goes ("Repulsed robots may push other
//     robots"), the pusher among them.
//   - "Repulsor fields only operate if a robot runs into or is pushed into them." Ruling:
//     a robot moved into a field by anything without a movement card (a belt, a board
//     pusher, an oil slide, a repulsor's own push) meets it as a wall, so a robot never
//     bounces twice. Ruling: a field stops robots, not laser beams.

// repulsorAt reports whether a repulsor field stands on the edge leaving p towards d.
func (b *Board) repulsorAt(p Pos, d Dir) bool {
	if b.In(p) && b.At(p).Repulsors.Has(d) {
		return true
	}
	q := p.Step(d)
	return b.In(q) && b.At(q).Repulsors.Has(d.Back())
}

// repulse pushes robot i, which ran into a field while moving towards d, n squares
// directly away from it, a square at a time with the chain of robots behind it.
func (t *turn) repulse(i int, d Dir, n int) {
	r := &t.st.Robots[i]
	t.emit(Event{Kind: EvRepulsed, Robot: r.Name, From: t.pos(r.Pos), Amount: n, Cause: "repulsor"})
	for k := 0; k < n && r.Active() && !t.st.Over; k++ {
		if !t.step(i, d.Back(), "repulsor") {
			break
		}
	}
}
