package adjudicator

// Phase c, the other board elements (seed 003, Pushers, Gears, Crushers; rules README,
// A turn 4c).

// runPushers: "If a robot is in the pusher square when the pusher activates, the robot
// is pushed into the adjacent square ... a chain of robots could be pushed by one
// pusher. Pushers only operate on certain phases."
//
// Every active pusher fires at the same moment, so each robot moves at most once in
// this step. Ruling: the pushes are carried out in seating order, each a single step with
// chain pushing, stopped by walls like a robot's move; a robot that an earlier push has
// already moved (as part of its chain) is not pushed again by its own pusher, so two
// robots on neighbouring pushers both move one square whatever their seats; two robots
// on pushers pushing into each other's squares both stay.
func (t *turn) runPushers() {
	b := t.board()
	var todo [MaxRobots]int
	var dirs [MaxRobots]Dir
	n := 0
	for i, hi := t.actors(); i < hi; i++ {
		r := &t.st.Robots[i]
		if !r.Active() || !b.In(r.Pos) || t.bare(r.Pos) {
			continue
		}
		p := b.At(r.Pos).Pusher
		if p.Registers.Has(t.register) && t.effectElement(i, "pusher") {
			todo[n], dirs[n] = i, p.Dir
			n++
		}
	}
	var from [MaxRobots]Pos
	var held [MaxRobots]bool
	for k := 0; k < n; k++ {
		from[k] = t.st.Robots[todo[k]].Pos
	}
	for a := 0; a < n; a++ {
		for c := a + 1; c < n; c++ {
			if t.st.Robots[todo[a]].Virtual || t.st.Robots[todo[c]].Virtual {
				continue
			}
			if from[a].Step(dirs[a]) == from[c] && from[c].Step(dirs[c]) == from[a] {
				held[a], held[c] = true, true
			}
		}
	}
	for k := 0; k < n; k++ {
		r := &t.st.Robots[todo[k]]
		if r.Active() && !held[k] && r.Pos == from[k] {
			t.step(todo[k], dirs[k], "pusher")
		}
	}
}

// runGears: "Robots sitting on gears at the end of a movement phase are rotated through
// 90 degrees, in the direction indicated by the arrows."
func (t *turn) runGears() {
	b := t.board()
	for i, hi := t.actors(); i < hi; i++ {
		r := &t.st.Robots[i]
		if !r.Active() || !b.In(r.Pos) || t.bare(r.Pos) {
			continue
		}
		if g := b.At(r.Pos).Gear; g != NoRotation && t.effectElement(i, "gear") && !t.devs.flying[i] {
			r.Facing = r.Facing.Rotate(int(g))
			e := t.event(EvRotated, r.Name)
			e.Facing, e.Cause = t.dir(r.Facing), "gear"
		}
	}
}

// runCrushers: "If a robot is on the square when a crusher activates, the robot is
// destroyed. Crushers only activate on certain phases."
func (t *turn) runCrushers() {
	b := t.board()
	for i, hi := t.actors(); i < hi; i++ {
		r := &t.st.Robots[i]
		if !r.Active() || !b.In(r.Pos) || t.bare(r.Pos) {
			continue
		}
		if b.At(r.Pos).Crusher.Has(t.register) && t.effectElement(i, "crusher") {
			t.destroy(i, "crusher")
		}
	}
}
