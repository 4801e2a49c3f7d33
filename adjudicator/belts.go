package adjudicator

// Phase c, conveyor belts (seed 003, Express Conveyor Belts, Conveyor Belts, Turning
// belts; rules README, A turn 4c and the belt rulings).
//
//   - First express belts move the robots on them one square; then express and normal
//     belts together move the robots on them one square. An express belt thus carries a
//     robot two squares, and a robot carried by an express belt onto a normal belt moves
//     on with it in the second step.
//   - All belt moves of a step happen at once, and belts never push (rules README): two
//     robots carried into one square both stay; two robots carried into each other's
//     squares (head-on) both stay; a robot whose exit is held by a robot that is not
//     leaving stays, and so may the robot behind it, and so on. A wall on the exit edge
//     holds the robot too.
//   - A robot carried onto a curve from one of its turning sides is turned the quarter
//     that brings it along the new belt direction; a robot that drives or is pushed onto
//     a curve is not turned (only this code turns on curves).
//   - Carried into a pit or off the board: destroyed at once.
//   - Virtual robots meet no robots: they never hold, nor are held by, another robot.

// beltSet is which belts a belt step moves.
type beltSet uint8

const (
	beltsAll     beltSet = iota // express and normal together (postal second belt step)
	beltsExpress                // express (2023: blue) belts only
	beltsNormal                 // normal (2023: green) belts only
	currents                    // currents in water (seed 001; water.go): as normal belts, never turning
)

func (t *turn) moveBelts(which beltSet) {
	b := t.board()
	var movers [MaxRobots]int
	var to [MaxRobots]Pos
	var dirs [MaxRobots]Dir
	var moving [MaxRobots]bool
	n := 0
	for i, hi := t.actors(); i < hi; i++ {
		r := &t.st.Robots[i]
		if !r.Active() || !b.In(r.Pos) || t.devs.flying[i] {
			continue // seed 001, Flying: belts and currents do not carry a flying robot
		}
		var dir Dir
		if which == currents {
			d, ok := b.currentDir(r.Pos)
			if !ok || t.blocked(r.Pos, d) {
				continue
			}
			dir = d
		} else {
			if t.bare(r.Pos) {
				continue
			}
			belt := b.At(r.Pos).Belt
			if belt.Kind == NoBelt || (which == beltsExpress && belt.Kind != BeltExpress) || (which == beltsNormal && belt.Kind != BeltNormal) {
				continue
			}
			if t.blocked(r.Pos, belt.Dir) || !t.effectBelt(i) {
				continue
			}
			dir = belt.Dir
		}
		if t.setup.fx != 0 && t.beltHeld(r.Pos, dir) {
			continue
		}
		movers[n], to[n], dirs[n], moving[n] = i, r.Pos.Step(dir), dir, true
		n++
	}
	// The Big One rides the belts as a robot would, judged with the robots (seed 001,
	// Devices: devices are treated like powered-down robots by the board elements;
	// cards_devices.go).
	var big int
	var bigAt, bigTo Pos
	var bigDir Dir
	bigMoving, bigReal := false, false
	if len(t.st.Devices) > 0 {
		big, bigAt, bigTo, bigDir, bigReal, bigMoving = t.bigOneOnBelt(which)
	}
	if n == 0 && !bigMoving {
		return
	}
	// Converging and head-on robots both stay: judged on all movers at once.
	var held, fell [MaxRobots]bool
	bigHeld := false
	for a := 0; a < n; a++ {
		ra := &t.st.Robots[movers[a]]
		for c := a + 1; c < n && !ra.Virtual; c++ {
			rc := &t.st.Robots[movers[c]]
			if rc.Virtual {
				continue
			}
			if to[c] == to[a] || (to[c] == ra.Pos && to[a] == rc.Pos) {
				held[a], held[c] = true, true
			}
		}
		if bigMoving && bigReal && !ra.Virtual && (to[a] == bigTo || (to[a] == bigAt && bigTo == ra.Pos)) {
			held[a], bigHeld = true, true
		}
	}
	for a := 0; a < n; a++ {
		moving[a] = moving[a] && !held[a]
	}
	bigMoving = bigMoving && !bigHeld
	// An exit held by a real robot that is not leaving holds the mover; repeat until
	// nothing changes, since each robot held can hold the one behind it. The Big One
	// holds and is held the same way.
	for changed := true; changed; {
		changed = false
		for a := 0; a < n; a++ {
			if !moving[a] || t.st.Robots[movers[a]].Virtual {
				continue
			}
			if j := t.realAt(to[a], movers[a]); j >= 0 && !isMoving(j, movers[:n], moving[:n]) {
				moving[a], changed = false, true
			} else if big > 0 && bigReal && !bigMoving && to[a] == bigAt {
				moving[a], changed = false, true
			}
		}
		if bigMoving && bigReal {
			if j := t.realAt(bigTo, -1); j >= 0 && !isMoving(j, movers[:n], moving[:n]) {
				bigMoving, changed = false, true
			}
		}
	}
	for a := 0; a < n; a++ {
		if !moving[a] {
			continue
		}
		i := movers[a]
		r := &t.st.Robots[i]
		from := r.Pos
		travel := dirs[a]
		if t.setup.fx&fxLevels != 0 {
			_, e := t.next(slot{p: from}, travel)
			fell[a] = e == edgeFall
		}
		r.Pos = to[a]
		e := t.event(EvConveyed, r.Name)
		e.From, e.To = t.pos(from), t.pos(r.Pos)
		if t.deadly(r.Pos) || which == currents {
			continue // destroyed below, after everyone has moved; currents never turn
		}
		if nb := b.At(r.Pos).Belt; nb.Kind != NoBelt && nb.TurnFrom.Has(travel.Back()) && t.effectElement(i, "curve") {
			switch nb.Dir {
			case travel.Right():
				r.Facing = r.Facing.Right()
			case travel.Left():
				r.Facing = r.Facing.Left()
			default:
				continue
			}
			e := t.event(EvRotated, r.Name)
			e.Facing, e.Cause = t.dir(r.Facing), "curve"
		}
	}
	for a := 0; a < n; a++ {
		if !moving[a] {
			continue
		}
		if !t.setup.slow && len(t.st.Devices) == 0 {
			t.checkFall(movers[a])
			continue
		}
		t.devs.dir[movers[a]] = dirs[a]
		// Tiles and per-square rules: a flamer, a flag passed, a fall down a ledge.
		i := movers[a]
		t.entered(i)
		if fell[a] && t.st.Robots[i].Active() {
			t.damage(i, 2, "ledge", "")
		}
	}
	if bigMoving {
		t.carryBigOne(big, bigDir, which)
	}
}

// beltHeld reports whether a belt cannot carry a robot from p towards d because of a
// tile: a closed swing door, a repulsor field (met as a wall: repulsors.go), a ledge
// from below or the foot of a ramp (levels.go: one square up a ramp slides straight
// back).
func (t *turn) beltHeld(p Pos, d Dir) bool {
	_, e := t.next(slot{p: p}, d)
	return e != edgeOpen && e != edgeFall
}

func isMoving(j int, movers []int, moving []bool) bool {
	for k, m := range movers {
		if m == j {
			return moving[k]
		}
	}
	return false
}
