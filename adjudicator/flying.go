package adjudicator

// Flying and landing (seed 001, Option Card Overview: Flying, Landing).
//
//   - A flying robot is above the floor: conveyor belts, gears, water, pits,
//     teleporters, randomizers, currents and flat devices do not touch it. Lasers, walls,
//     pushers, other robots and devices that are not flat do (robots it flies into are
//     pushed, as by any robot). It touches flags as if it were not flying.
//   - A flying robot stays on its level (flying does not change levels).
//   - When it stops flying it lands on its square: what the floor does to a robot
//     arriving there happens now (a pit, a flat device, a flamer). Landing on another
//     robot, it comes down on the next open square in the way it was moving (landing,
//     teleporters.go).
//
// Robots fly by Big Jet, Retro-Rockets and Robo-Copter (cards_devices.go). t.devs.flying
// marks them; the floor's steps look at it (t.flying).
//
// Ruling: crushers are in neither of seed 001's lists (what flying robots are and are
// not affected by); a crusher reaches up and destroys a flying robot as any other.

// takeOff marks robot i flying.
func (t *turn) takeOff(i int) {
	t.devs.flying[i], t.devs.air, t.devs.level[i] = true, true, true
}

// leavesLevel reports whether robot i, flying by Big Jet, Retro-Rockets or Robo-Copter,
// would go down from its level by the step from s to to across edge e: it does not
// (seed 001, Flying: "flying robots stay on the same level; they don't fall down ledges
// or go down ramps, although they can fly up ramps"). Ruling: the edge stops it as a
// wall would.
func (t *turn) leavesLevel(i int, s, to slot, e edge) bool {
	if !t.devs.level[i] || t.setup.fx&fxLevels == 0 {
		return false
	}
	b := t.board()
	return e == edgeFall || (to.ramp == 0 && b.In(to.p) && b.In(s.p) && b.At(to.p).Level < b.At(s.p).Level)
}

// land ends robot i's flight: it comes down on its square, or the next open one along
// dir when a robot is there (origin: where the flight began), and the square acts on it.
func (t *turn) land(i int, dir Dir, origin Pos) {
	if !t.devs.flying[i] {
		return
	}
	t.devs.flying[i], t.devs.level[i] = false, false
	r := &t.st.Robots[i]
	if !r.Active() {
		return
	}
	from := r.Pos
	if to := t.landing(i, from, dir, origin); to != from {
		r.Pos = to
		t.emit(Event{Kind: EvFlew, Robot: r.Name, From: t.pos(from), To: t.pos(to), Cause: "landing"})
	}
	t.emit(Event{Kind: EvLanded, Robot: r.Name, To: t.pos(r.Pos)})
	t.entered(i)
}

// landAll lands every robot still flying (the end of the turn: seed 001, Robo-Copter,
// "At the end of each turn, your robot lands").
func (t *turn) landAll() {
	for i := range t.st.Robots {
		if t.devs.flying[i] {
			t.devs.copter[i] = 0
			t.land(i, t.st.Robots[i].Facing, t.st.Robots[i].Pos)
		}
	}
	if t.onRamp > 0 {
		t.settleRamps() // landed on a ramp: it slides back down (seed 001, Ramps; floormove.go)
	}
}

// flyOver moves flying robot i straight to the square n squares along dir without
// crossing the squares between (Big Jet: over walls and robots), stopping before an edge
// between two levels (seed 001, Big Jet: "but not between levels").
func (t *turn) flyOver(i int, dir Dir, n int) Pos {
	b := t.board()
	p := t.st.Robots[i].Pos
	for k := 0; k < n; k++ {
		q := p.Step(dir)
		if t.setup.fx&fxLevels != 0 && b.In(q) && b.In(p) && b.At(q).Level != b.At(p).Level {
			break
		}
		p = q
		if !b.In(p) {
			break // off the board: lost there when it lands
		}
	}
	return p
}
