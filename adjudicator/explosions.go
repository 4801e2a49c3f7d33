package adjudicator

import "math/bits"

// Explosive damage (seed 001, Explosive Damage; rules README, "Explosive damage").
//
//   - An explosion of power P deals P damage to a robot on its square, and half as much
//     for each square further away, rounded down: P >> distance. Seed 001's table: power
//     2 deals 2, 1; power 4 deals 4, 2, 1; power 16 deals 16, 8, 4, 2, 1; power 64 deals
//     64, 32, 16, 8, 4, 2, 1; then nothing.
//   - Distance is counted "as robots move": square by square, never diagonally, and never
//     through a wall, so a robot behind a wall is as far away as the way round it ("walls
//     provide limited protection from explosive damage"). A closed swing door is a wall;
//     the edge of the board is the end of the count.
//   - A step between two levels counts as one more square ("treating the distance between
//     levels as an additional square"). Ruling: the step costs the same extra square up
//     or down, over a ledge or along a ramp (the blast goes both ways; a ramp joins the
//     same two levels). Ruling R-AD-BLAST-LEVELS: a step down two levels at once (a level
//     2 square beside the ground) costs two more squares, one a level (rules README,
//     "Explosive damage": "a level counting as one square"; seed 001 speaks of robots
//     "one or more levels away"); scenario 1001.
//   - Ruling: pits, drains, water and every other floor are counted like plain floor:
//     they stop robots, not blasts.
//   - Flying robots are on the level they fly at (seed 001: "flying robots are not
//     considered to be on a different level"); until flying exists every robot is on its
//     square's level.
//
// ExplosionDamage and BlastDistances are pure, so the report, the forecast and the
// scenarios (expect blast) compute the same numbers the option cards will apply.

// ExplosionDamage is the damage an explosion of power deals at distance (seed 001's
// table); 0 out of reach or for a negative distance.
func ExplosionDamage(power, distance int) int {
	if power <= 0 || distance < 0 || distance >= bits.UintSize-1 {
		return 0
	}
	return power >> distance
}

// BlastReach is the furthest distance at which an explosion of power still deals damage.
func BlastReach(power int) int {
	if power <= 0 {
		return -1
	}
	return bits.Len(uint(power)) - 1
}

// BlastDistances is, for every square of b (row by row), its distance from at counted
// as robots move, with the swing doors as they stand in register reg (0: every door
// closed); -1 for squares further than reach or not reached at all.
func BlastDistances(b *Board, at Pos, reach, reg int) []int {
	dist := make([]int, len(b.Squares))
	blastDistancesInto(dist, nil, b, at, reach, reg)
	return dist
}

// blastDistancesInto is BlastDistances written into dist (len(b.Squares)), with the
// search's bucket queue in buckets' memory; it returns the buckets to keep
// (blastDists.get).
func blastDistancesInto(dist []int, buckets [][]Pos, b *Board, at Pos, reach, reg int) [][]Pos {
	for k := range dist {
		dist[k] = -1
	}
	if !b.In(at) || reach < 0 {
		return buckets
	}
	// A bucket queue by distance: steps cost 1, and 1 more for each level between.
	if cap(buckets) < reach+1 {
		buckets = append(buckets[:cap(buckets)], make([][]Pos, reach+1-cap(buckets))...)
	}
	buckets = buckets[:reach+1]
	for d := range buckets {
		buckets[d] = buckets[d][:0]
	}
	dist[at.Y*b.W+at.X] = 0
	buckets[0] = append(buckets[0], at)
	for d := 0; d <= reach; d++ {
		for k := 0; k < len(buckets[d]); k++ {
			p := buckets[d][k]
			if dist[p.Y*b.W+p.X] != d {
				continue // reached more cheaply since
			}
			for dir := North; dir <= West; dir++ {
				q := p.Step(dir)
				if !b.In(q) || b.Blocked(p, dir) || b.doorClosed(p, dir, reg) {
					continue
				}
				nd := d + 1
				if lq, lp := int(b.At(q).Level), int(b.At(p).Level); lq != lp {
					nd += max(lq-lp, lp-lq) // R-AD-BLAST-LEVELS: one square a level
				}
				if k := q.Y*b.W + q.X; nd <= reach && (dist[k] < 0 || nd < dist[k]) {
					dist[k] = nd
					buckets[nd] = append(buckets[nd], q)
				}
			}
		}
	}
	return buckets
}

// BlastDamage is the damage an explosion of power at at deals to a robot standing at p
// (register reg's swing doors), 0 out of reach.
func BlastDamage(b *Board, at Pos, power, reg int, p Pos) int {
	if !b.In(p) {
		return 0
	}
	d := BlastDistances(b, at, BlastReach(power), reg)[p.Y*b.W+p.X]
	if d < 0 {
		return 0
	}
	return ExplosionDamage(power, d)
}

// Blast is an explosion about to be dealt in a turn (seed 001, Explosive Damage): a
// device going off (a mine, a missile, The Big One), an option's unlaunched explosives
// when the option is lost (seed 001, Launchers and Boosters), Self-Destruct.
type Blast struct {
	At    Pos
	Power int
	// By is the robot whose device or option explodes (index), -1 for none. The damage
	// names it as its source (EvDamage.Other).
	By int
	// Source names what explodes, for the log: an option card ("Mine Layer",
	// "Self-Destruct") or a device kind ("mine", "missile").
	Source string
	// Why is what set it off: "collision", "crusher", "lost" (the option was lost with
	// explosives on it), "timer" ...
	Why string
	// Only, when not 0, is the one robot (index+1) the explosion can hurt: a virtual
	// device's or a virtual robot's explosion touches nobody else (seed 001, Devices:
	// virtual devices "only interact with the robot that launched the device").
	Only int
}

// explode deals blast b: every robot on the board within reach takes the damage of its
// distance (BlastDistances, ExplosionDamage) as sideless damage with cause "explosion",
// in seating order. Virtual robots are hit like any robot (seed 001, Devices: "virtual
// robots interact with all 'real' devices"). Devices take no damage (seed 001, Devices:
// "devices do not take damage"), so a blast never sets off another device.
//
// Ruling: an explosion set off while damage is being dealt (an option discarded to
// prevent it carries explosives of its own) waits until that damage is dealt and then
// follows, in the order they were set off: one explosion never cuts into another,
// and each is dealt separately ("Damage from multiple devices is calculated
// separately").
//
// This is the one place explosions are dealt: devices (devices.go) and the option
// cards call it.
func (t *turn) explode(b Blast) {
	t.blasts = append(t.blasts, b)
	if t.exploding || t.hurting > 0 {
		return // dealt once the damage being dealt is done (hurt)
	}
	t.flushBlasts()
}

// flushBlasts deals the explosions waiting, in order, and those they set off.
func (t *turn) flushBlasts() {
	t.exploding = true
	for k := 0; k < len(t.blasts); k++ {
		t.dealBlast(t.blasts[k])
	}
	t.blasts = t.blasts[:0]
	t.exploding = false
}

func (t *turn) dealBlast(b Blast) {
	by := ""
	if b.By >= 0 && b.By < len(t.st.Robots) {
		by = t.st.Robots[b.By].Name
	}
	t.emit(Event{Kind: EvExplosion, Robot: by, Option: b.Source, To: t.pos(b.At), Amount: b.Power, Cause: b.Why})
	brd := t.board()
	if !brd.In(b.At) || b.Power <= 0 {
		return
	}
	dist := t.blastDistances(brd, b.At, BlastReach(b.Power), t.register)
	for j := range t.st.Robots {
		r := &t.st.Robots[j]
		if !r.Active() || !brd.In(r.Pos) || (b.Only != 0 && b.Only != j+1) || !t.acts(j) {
			continue
		}
		d := dist[r.Pos.Y*brd.W+r.Pos.X]
		if n := ExplosionDamage(b.Power, d); d >= 0 && n > 0 {
			t.hurt(j, Harm{Amount: n, Cause: "explosion", By: b.By}, by)
		}
	}
}
