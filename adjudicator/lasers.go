package adjudicator

import "math/bits"

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
	from           Dir // the side of the board the beam comes from
	main           bool
	cause          string // "" for a laser
}

func (t *turn) fireLasers() {
	b := t.board()
	// Every hit is found on the snapshot before any damage is dealt. The buffer is the
	// turn's, reused each register (a board may hold any number of emitters).
	hits := t.hits[:0]
	// Board lasers. occ marks the squares holding a robot, so a beam's path is walked
	// without looking at every robot on every square.
	if len(t.occ) != len(b.Squares) {
		if t.mem != nil && len(b.Squares) <= len(t.mem.occ) {
			t.occ = t.mem.occ[:len(b.Squares)]
			clear(t.occ)
		} else {
			t.occ = make([]bool, len(b.Squares))
		}
	} else {
		clear(t.occ)
	}
	for j := range t.st.Robots {
		if r := &t.st.Robots[j]; r.Active() && b.In(r.Pos) {
			t.occ[r.Pos.Y*b.W+r.Pos.X] = true
		}
	}
	doors := t.setup.fx&fxDoor != 0
	switch em := t.setup.emitters; {
	case t.offBeams(b):
		// A forecast hits only its robot, which stands on no board laser's path.
	case len(em) <= 64 && len(t.setup.beamFrom) == len(b.Squares)+1:
		// Looked at from the robots: for each laser, the nearest robot in its path (the
		// same hits as walking every path, in the same order).
		var near [64]int32
		var lit uint64
		for j := range t.st.Robots {
			r := &t.st.Robots[j]
			if !r.Active() || !b.In(r.Pos) {
				continue
			}
			sq := r.Pos.Y*b.W + r.Pos.X
			for _, ref := range t.setup.beamRefs[t.setup.beamFrom[sq]:t.setup.beamFrom[sq+1]] {
				k := ref.emitter
				if doors && int(ref.at) >= em[k].cut[t.register] {
					continue // behind a closed swing door (doors.go)
				}
				if lit&(1<<k) == 0 || ref.at < near[k] {
					lit |= 1 << k
					near[k] = ref.at
				}
			}
		}
		for ; lit != 0; lit &= lit - 1 {
			k := bits.TrailingZeros64(lit)
			e := &em[k]
			q := e.path[near[k]]
			for j := range t.st.Robots {
				r := &t.st.Robots[j]
				if r.Active() && r.Pos == q && t.acts(j) {
					hits = append(hits, hit{target: j, amount: e.beams, shooter: -1, from: e.dir.Back()})
				}
			}
		}
	default:
		hits = t.boardLasers(hits, doors)
	}
	// Robot lasers: the main laser, shaped by the robot's options (Turret, Double Laser,
	// Power Laser) or replaced by another weapon, and any extra lasers (Rear Laser).
	t.hits = hits
	// Forecasts: the other robots stand still and hold fire (actors).
	for i, hi := t.actors(); i < hi; i++ {
		r := &t.st.Robots[i]
		if !r.Active() || r.Virtual || r.Power == PowerDown || !b.In(r.Pos) {
			continue
		}
		g := Gun{Dir: r.Facing, Beams: 1}
		if t.has(i, hkGun) {
			g = t.shapeGun(i, g)
		}
		if !t.effectReplace(i, g) {
			t.shoot(i, g, true)
		}
		if t.has(i, hkExtraGuns) {
			t.extraGuns(i, g)
		}
	}
	hits = t.hits
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
		if h.cause != "" {
			cause = h.cause
		}
		t.hurt(h.target, Harm{Amount: h.amount, Cause: cause, From: h.from, Sided: true, By: h.shooter}, other)
	}
	// After the damage: what a main laser's hit triggers (Target Control), then the
	// other weapons' pushes, pulls and program changes, in seating order.
	for _, h := range hits {
		if h.main && t.has(h.shooter, hkHit) {
			t.hitHooks(h.shooter, h.target)
		}
	}
	for k := 0; k < len(t.later); k++ {
		t.later[k]()
	}
	t.later = t.later[:0]
}

// offBeams reports whether a forecast's robot (turn.single) cannot be hit by a board
// laser in this lasers phase: it is not on the board, or no board laser's path holds
// its square (Setup.beamFrom). The board lasers hit no one else in a forecast (acts),
// so fireLasers skips them: most of a forecast's registers end off every beam.
func (t *turn) offBeams(b *Board) bool {
	if t.single < 0 || len(t.setup.beamFrom) != len(b.Squares)+1 {
		return false
	}
	r := &t.st.Robots[t.single]
	if !r.Active() || !b.In(r.Pos) {
		return true
	}
	sq := r.Pos.Y*b.W + r.Pos.X
	return t.setup.beamFrom[sq] == t.setup.beamFrom[sq+1]
}

// extraGuns fires robot i's extra lasers (ExtraGunner); apart so that a robot without
// options builds no closure.
func (t *turn) extraGuns(i int, g Gun) {
	if t.fireFor != t {
		// One closure for the turn (a Resolver's turns share it), not one per shot.
		t.fireFor = t
		t.fireExtra = func(extra Gun) { t.shoot(t.fireBy, extra, false) }
	}
	t.eachFx(i, hkExtraGuns, func(e Effect) {
		if x, ok := e.(ExtraGunner); ok {
			prev := t.fireBy
			t.fireBy = i
			x.ExtraGuns(t.view(i), g, t.fireExtra)
			t.fireBy = prev
		}
	})
}

// hitHooks tells robot i's effects (HitHook) that its main laser hit robot j.
func (t *turn) hitHooks(i, j int) {
	t.eachFx(i, hkHit, func(e Effect) {
		if hh, ok := e.(HitHook); ok {
			hh.Hit(t.view(i), j)
		}
	})
}

// shoot fires robot i's laser g from its square: the beam stops at the first wall or
// robot, unless g lets it pass some (Power Laser); every robot it reaches is hit.
// Only real robots are hit (virtual robots take part in no robot-to-robot interaction).
func (t *turn) shoot(i int, g Gun, main bool) {
	if g.Walls == 0 && g.Robots == 0 && t.setup.fx == 0 && len(t.st.Devices) == 0 && t.shootPlain(i, g, main) {
		return
	}
	t.shootWalk(i, g, main)
}

// shootWalk is shoot walking the beam square by square.
func (t *turn) shootWalk(i int, g Gun, main bool) {
	b := t.board()
	walls, robots := g.Walls, g.Robots
	for q := t.st.Robots[i].Pos; ; {
		if t.blocked(q, g.Dir) || (t.setup.fx != 0 && t.tileStopsBeam(q, g.Dir)) {
			if walls == 0 {
				return
			}
			walls--
		}
		q = q.Step(g.Dir)
		if !b.In(q) {
			return
		}
		if len(t.st.Devices) > 0 && t.deviceAt(q, DevBigOne) >= 0 {
			return // seed 001, The Big One: it "blocks line of sight between robots" (R-AD-BIGONE-SIGHT: board lasers pass it)
		}
		if !t.occ[q.Y*b.W+q.X] {
			continue // no robot here (the occupancy grid of this lasers phase)
		}
		if j := t.realAt(q, i); j >= 0 {
			t.hits = append(t.hits, hit{target: j, amount: g.Beams, shooter: i, from: g.Dir.Back(), main: main})
			if robots == 0 {
				return
			}
			robots--
		}
	}
}

// shootPlain is shoot for a beam that stops at the first wall or robot on a floor
// with no tiles or devices in the way (nothing but walls stops a beam there): the
// nearest real robot in line within the beam's reach (Setup.reach) is hit, the first
// in seating order if several share its square, as walking the beam finds it. It
// reports false, having done nothing, when the floor has no Setup.reach or the shooter
// is off it.
func (t *turn) shootPlain(i int, g Gun, main bool) bool {
	from := t.st.Robots[i].Pos
	k := 4*(from.Y*t.wallsW+from.X) + int(g.Dir)
	if uint(from.X) >= uint(t.wallsW) || k < 0 || k >= len(t.setup.reach) || len(t.walls) == 0 {
		return false
	}
	reach := int(t.setup.reach[k])
	delta := dirDelta[g.Dir]
	target, near := -1, reach+1
	for j := range t.st.Robots {
		q := &t.st.Robots[j]
		if j == i || !q.Active() || q.Virtual {
			continue
		}
		var dist int
		if delta.X == 0 {
			if q.Pos.X != from.X {
				continue
			}
			dist = (q.Pos.Y - from.Y) * delta.Y
		} else {
			if q.Pos.Y != from.Y {
				continue
			}
			dist = (q.Pos.X - from.X) * delta.X
		}
		if dist > 0 && dist < near {
			target, near = j, dist
		}
	}
	if target >= 0 {
		t.hits = append(t.hits, hit{target: target, amount: g.Beams, shooter: i, from: g.Dir.Back(), main: main})
	}
	return true
}

// firstInLine is the first real robot robot i's laser g would hit (walls and robots
// stop it; Power Laser is not counted: the other weapons are not lasers), or -1.
func (t *turn) firstInLine(i int, d Dir) int {
	b := t.board()
	for q := t.st.Robots[i].Pos; !t.blocked(q, d) && (t.setup.fx == 0 || !t.tileStopsBeam(q, d)); {
		q = q.Step(d)
		if !b.In(q) || (len(t.st.Devices) > 0 && t.deviceAt(q, DevBigOne) >= 0) {
			return -1
		}
		if j := t.realAt(q, i); j >= 0 {
			return j
		}
	}
	return -1
}

// tileStopsBeam reports whether a tile stops a beam leaving p towards d on the edge (a
// wall is looked at first, by the caller): a closed swing door (doors.go), a ledge or
// ramp between levels (levels.go).
func (t *turn) tileStopsBeam(p Pos, d Dir) bool {
	b := t.board()
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
		path := e.path
		if t.setup.fx&fxDoor != 0 {
			path = path[:e.cut[t.register]]
		}
		for _, q := range path {
			if q == p {
				total += e.beams
				break
			}
			if t.anyRobotAt(q, not) {
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

// damage deals amount points of sideless damage to robot i (hurt).
func (t *turn) damage(i, amount int, cause, shooter string) {
	t.hurt(i, Harm{Amount: amount, Cause: cause, By: -1}, shooter)
}

// hurt deals harm h to robot i. Option effects change it first (DamageFilter: coatings,
// shields). Then each point may be prevented by discarding an option card, decided as the
// damage arrives (rules README, Option cards); the decider's View carries the rest of the
// hit (View.PendingDamage), so "discard an option if I would be destroyed" can be judged.
// The points taken land together at the end of the hit. Reaching Rules.DestroyAt
// destroys the robot. Under the 2023 rules the damage is dealt as damage cards.
func (t *turn) hurt(i int, h Harm, shooter string) {
	t.hurting++
	t.hurtOne(i, h, shooter)
	t.hurting--
	if t.hurting == 0 && len(t.blasts) > 0 && !t.exploding {
		t.flushBlasts() // explosions set off by options lost to this damage (explosions.go)
	}
}

func (t *turn) hurtOne(i int, h Harm, shooter string) {
	if t.has(i, hkDamage) {
		h = t.filterDamage(i, h)
	}
	if t.setup.Rules.Damage == "cards" {
		t.damageCards(i, h.Amount, h.Cause, shooter) // seed 004: spam.go
		return
	}
	r := &t.st.Robots[i]
	amount := h.Amount
	cause := h.Cause
	taken := 0
	for k := 0; k < amount; k++ {
		if len(r.Options) > 0 {
			v := t.view(i)
			v.taken, v.left = taken, amount-k
			if idx := t.decider(i).PreventDamage(v, cause); idx >= 0 && idx < len(r.Options) {
				bio := r.Bio
				opt := t.removeOption(i, idx)
				t.emit(Event{Kind: EvPrevented, Robot: r.Name, Option: opt, Cause: cause})
				if opt == bio && bio != "" && !t.setup.Rules.BioBots {
					t.discardOption(i, BioOption, "bio-option") // seed 001, Bio Option: "discard both options"
				}
				continue
			}
		}
		taken++
	}
	if taken == 0 {
		return
	}
	r.Damage += taken
	e := t.event(EvDamage, r.Name)
	e.Other, e.Amount, e.Cause = shooter, taken, cause
	if r.Damage >= t.setup.Rules.DestroyAt {
		t.destroy(i, "damage")
	}
}

// boardLasers walks every board laser's path to the first robot in it: fireLasers' way
// on a floor with more lasers than its bit set holds.
func (t *turn) boardLasers(hits []hit, doors bool) []hit {
	b := t.board()
	for k := range t.setup.emitters {
		e := &t.setup.emitters[k]
		path := e.path
		if doors {
			path = path[:e.cut[t.register]] // closed swing doors are walls (doors.go)
		}
		for _, q := range path {
			if !t.occ[q.Y*b.W+q.X] {
				continue
			}
			found := false
			for j := range t.st.Robots {
				r := &t.st.Robots[j]
				if r.Active() && r.Pos == q {
					found = true
					if t.acts(j) {
						hits = append(hits, hit{target: j, amount: e.beams, shooter: -1, from: e.dir.Back()})
					}
				}
			}
			if found {
				break
			}
		}
	}
	return hits
}
