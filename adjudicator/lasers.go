package adjudicator

// Phase d, lasers (seed 003, Lasers; rules README, A turn 4d).
//
//   - Board lasers and robot lasers fire together, from one snapshot of the robots taken
//     after the board elements: a robot destroyed by one beam still fires its own.
//   - Each beam does 1 damage; a board laser with 2 or 3 beams does 2 or 3. A beam stops
//     at the first wall or robot ("If two robots are in line with a laser, the robot
//     closer to the laser mount will be hit, but not the other").
//   - A board laser's beam starts on the emitter's own square; a robot's laser fires
//     forward from the next square, with unlimited range. Powered-down robots do not fire.
//   - Virtual robots (seed 003: "Lasers DO affect virtual robots"; they "cannot hit each
//     other with lasers"): board lasers hit and are stopped by virtual robots like any
//     robot. A virtual robot does not fire, and robot lasers pass through virtual robots.
//     Ruling: a virtual robot takes part in no robot-to-robot interaction, and a board
//     beam that reaches a square holding several robots hits them all.

type hit struct {
	target, amount int
	shooter        int // -1 for the board
}

func (t *turn) fireLasers() {
	b := t.board()
	// Every hit is found on the snapshot before any damage is dealt. The buffer is the
	// turn's, reused each register (a board may hold any number of emitters).
	hits := t.hits[:0]
	// Board lasers. occ marks the squares holding a robot, so a beam's path is walked
	// without looking at every robot on every square.
	if len(t.occ) != len(b.Squares) {
		t.occ = make([]bool, len(b.Squares))
	} else {
		clear(t.occ)
	}
	for j := range t.st.Robots {
		if r := &t.st.Robots[j]; r.Active() && b.In(r.Pos) {
			t.occ[r.Pos.Y*b.W+r.Pos.X] = true
		}
	}
	doors := t.setup.fx&fxDoor != 0
	for _, e := range t.setup.emitters {
		for _, q := range e.path {
			if !t.occ[q.Y*b.W+q.X] {
				if doors && b.doorClosed(q, e.dir, t.register) {
					break // a closed swing door is a wall (doors.go)
				}
				continue
			}
			found := false
			for j := range t.st.Robots {
				r := &t.st.Robots[j]
				if r.Active() && r.Pos == q {
					found = true
					if t.acts(j) {
						hits = append(hits, hit{j, e.beams, -1})
					}
				}
			}
			if found || (doors && b.doorClosed(q, e.dir, t.register)) {
				break
			}
		}
	}
	// Robot lasers.
	for i := range t.st.Robots {
		r := &t.st.Robots[i]
		if !r.Active() || r.Virtual || r.Power == PowerDown || !b.In(r.Pos) {
			continue
		}
		if !t.acts(i) {
			continue // forecasts: the other robots stand still and hold fire
		}
		beams := t.effectLaser(i, 1)
		for q := r.Pos; !t.beamStops(q, r.Facing); {
			q = q.Step(r.Facing)
			if !b.In(q) {
				break
			}
			if j := t.realAt(q, i); j >= 0 {
				hits = append(hits, hit{j, beams, i})
				break
			}
		}
	}
	t.hits = hits
	if t.setup.Rules.Damage == "cards" {
		t.sortHits(hits) // ruling R-DAMAGE-ORDER: spam.go
	}
	for _, h := range hits {
		if !t.st.Robots[h.target].Active() {
			continue
		}
		cause, other := "laser", ""
		if h.shooter >= 0 {
			cause, other = "robot-laser", t.st.Robots[h.shooter].Name
		}
		t.damage(h.target, h.amount, cause, other)
	}
}

// beamStops reports whether a beam leaving p towards d is stopped on the edge: a wall,
// a closed swing door (doors.go), a ledge or ramp between levels (levels.go).
func (t *turn) beamStops(p Pos, d Dir) bool {
	b := t.board()
	if b.Blocked(p, d) {
		return true
	}
	if t.setup.fx == 0 {
		return false
	}
	return (t.setup.fx&fxDoor != 0 && b.doorClosed(p, d, t.register)) ||
		(t.setup.fx&fxLevels != 0 && b.levelEdge(p, d))
}

// boardBeamsAt is how many board laser beams reach p with the robots where they stand
// now (not counting robot not, so a robot does not shield itself).
func (t *turn) boardBeamsAt(p Pos, not int) int {
	b := t.board()
	if !b.In(p) || t.setup.beamAt[p.Y*b.W+p.X] == 0 {
		return 0
	}
	total := 0
	for _, e := range t.setup.emitters {
		for _, q := range e.path {
			if q == p {
				total += e.beams
				break
			}
			if t.anyRobotAt(q, not) || (t.setup.fx&fxDoor != 0 && b.doorClosed(q, e.dir, t.register)) {
				break
			}
		}
	}
	return total
}

func (t *turn) anyRobotAt(p Pos, not int) bool {
	for j := range t.st.Robots {
		if j != not && t.st.Robots[j].Active() && t.st.Robots[j].Pos == p {
			return true
		}
	}
	return false
}

// damage deals amount points to robot i. Each point may be prevented by discarding an
// option card, decided as the damage arrives (rules README, Option cards); the decider's
// View carries the rest of the hit (View.PendingDamage), so "discard an option if I
// would be destroyed" can be judged. The points taken land together at the end of the
// hit. Reaching Rules.DestroyAt destroys the robot.
func (t *turn) damage(i, amount int, cause, shooter string) {
	if t.setup.Rules.Damage == "cards" {
		t.damageCards(i, amount, cause, shooter) // seed 004: spam.go
		return
	}
	r := &t.st.Robots[i]
	amount = t.effectDamage(i, amount, cause)
	taken := 0
	for k := 0; k < amount; k++ {
		if len(r.Options) > 0 {
			v := t.view(i)
			v.taken, v.left = taken, amount-k
			if idx := t.decider(i).PreventDamage(v, cause); idx >= 0 && idx < len(r.Options) {
				opt := t.removeOption(i, idx)
				t.emit(Event{Kind: EvPrevented, Robot: r.Name, Option: opt, Cause: cause})
				continue
			}
		}
		taken++
	}
	if taken == 0 {
		return
	}
	r.Damage += taken
	t.emit(Event{Kind: EvDamage, Robot: r.Name, Other: shooter, Amount: taken, Cause: cause})
	if r.Damage >= t.setup.Rules.DestroyAt {
		t.destroy(i, "damage")
	}
}
