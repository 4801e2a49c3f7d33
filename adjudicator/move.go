package adjudicator

// Phase b: robots move (rules README, A turn 4b; seed 003, Program Cards and Virtual
// Robots).
//
//   - Cards are played highest priority first, each in full before the next.
//   - Movement is one square at a time. A moving robot pushes the robots in front of it,
//     a whole chain of them; a wall anywhere in front of the chain stops the chain and the
//     mover, and no one moves that step (nor the rest of the card: the wall is still
//     there). Running into a wall does no damage.
//   - A robot that enters a pit or leaves the board, moving or pushed, is destroyed at
//     once and plays no more cards this turn.
//   - Virtual robots neither push nor are pushed by any robot: a virtual robot moves
//     through others, and others through it (seed 003, Virtual Robots: "Virtual robots
//     ... do not interact with each other (cannot push each other ...)"; a robot becomes
//     able to "interact with all other real robots" only when it becomes real).

func (t *turn) movePhase() {
	own := t.setup.Rules.Own()
	devs := !own && len(t.st.Devices) > 0 // devices moving at their own priority (devices.go)
	t.devs.moved = t.devs.moved[:0]
	for _, i := range t.order {
		r := &t.st.Robots[i]
		if own {
			t.activate(i) // the 2023 rules: round.go
			continue
		}
		if t.armed.damping != 0 {
			t.dampCopters() // seed 001, Option Damping Field: R-AD-COPTER-DAMPED (cards_devices.go)
		}
		if !r.Active() {
			continue // destroyed earlier in this register
		}
		card := t.cardIn(i)
		homing := t.armed.homingOn != 0 && t.homingNow(i) // seed 001, Homing Device: cards_armed.go
		if devs {
			if homing {
				t.moveDevices(homingPriority)
			} else {
				t.moveDevices(card)
			}
			if !r.Active() || t.st.Over {
				continue
			}
		}
		if homing {
			t.homeIn(i)
			if t.st.Over {
				return
			}
			continue
		}
		kind := t.setup.Deck.Kind(card)
		// The card is revealed as the robot acts, so the log reads in playing order.
		t.event(EvCard, r.Name).Card = card
		if t.devs.copter[i] != 0 {
			t.copterMove(i) // seed 001, Robo-Copter: its card first (cards_devices.go)
			if !r.Active() || t.st.Over {
				continue
			}
		}
		if len(t.armed.progs) == 0 || !t.playPhased(i, card) { // phases.go
			t.playKind(i, kind)
		}
		if (t.onRamp > 0 && t.devs.air) || t.devs.bigRamp != 0 {
			// A Robo-Copter that landed on a ramp with a turn card to play, or The Big One
			// left on a ramp by a flight's push, slides back (floormove.go).
			t.settleRamps()
		}
		if t.st.Over {
			return // the last flag was passed over (Rules.PassTouches)
		}
	}
	if devs {
		t.moveDevices(0)
	}
	if t.armed.damping != 0 {
		t.dampCopters() // R-AD-COPTER-DAMPED: the last robot to move may have brought a field
	}
}

// playKind plays a card of that kind for robot i: a turn in place, a move of one to
// three squares forward or one back, or (2023 rules) Power Up.
func (t *turn) playKind(i int, kind CardKind) {
	r := &t.st.Robots[i]
	if rot := kind.Rotation(); rot != NoRotation {
		r.Facing = r.Facing.Rotate(int(rot))
		e := t.event(EvTurn, r.Name)
		e.Card, e.Facing = t.cardIn(i), t.dir(r.Facing)
		return
	}
	if kind == CardPowerUp {
		t.gainEnergy(i, 1, "power-up") // seed 004, Programming Cards: Power Up
		return
	}
	steps, d := kind.Steps(), r.Facing
	if (t.setup.fx&fxTeleporter != 0 || len(t.st.Devices) > 0) && steps != 0 && t.onTeleporter(i) {
		// seed 001, Teleporters: the card's distance is the table's, and options that
		// change a movement card do not act (teleporters.go).
		t.startMove(i, 0)
		t.teleportCard(i, steps)
		t.endMove()
		return
	}
	steps = t.effectSteps(i, kind, steps)
	if steps < 0 {
		steps, d = -steps, d.Back()
	}
	t.moveSquares(i, d, steps)
}

// moveSquares moves robot i steps squares in direction d as a movement card does (the
// floor's tiles slow or stop it), stopping when it leaves the board or a wall holds it.
func (t *turn) moveSquares(i int, d Dir, steps int) {
	r := &t.st.Robots[i]
	if t.setup.slow {
		steps = t.startMove(i, steps)
	}
	hover := t.r23 != nil && t.effectHovers(i) // Hover Unit: upgrades.go
	if hover {
		t.r23.hover = i + 1
	}
	for s := 0; s < steps && r.Active() && !t.stopMove && !t.st.Over; s++ {
		if len(t.st.Devices) > 0 && t.stuckInGoo(i) {
			continue // seed 001, Goo Dropper: each square tried counts (cards_devices.go)
		}
		t.devs.gooPush = false
		if !t.step(i, d, "") {
			if t.devs.gooPush {
				continue // seed 001, Goo Dropper: a push of a robot held by goo is a square tried, square by square
			}
			if t.devs.copter[i] != 0 {
				t.copterDown(i) // seed 001, Robo-Copter: its own card blocked too (cards_devices.go)
			}
			break
		}
	}
	if hover {
		t.r23.hover = 0
		t.checkFall(i) // it falls if its move ends on a pit
	}
	if int(t.armed.frog) == i+1 {
		t.frogLand(i) // seed 001, Frog Legs: "flies 2 or 3 squares and then lands" (cards_armed.go)
	}
	if t.setup.slow {
		t.endMove()
	}
}

// step moves robot i one square in direction d, pushing any chain of real robots in
// front of it. by names the robot doing the pushing when i is itself being pushed by a
// board element ("" when i moves under its own power). It reports whether i moved.
func (t *turn) step(i int, d Dir, by string) bool {
	if t.setup.slow || len(t.st.Devices) > 0 || t.devs.air { // devices and flying robots act on robots entering squares
		t.devs.dir[i] = d
		return t.stepFloor(i, d, by)
	}
	b := t.board()
	r := &t.st.Robots[i]
	from := r.Pos
	if t.blocked(from, d) {
		t.emit(Event{Kind: EvBlocked, Robot: r.Name, From: t.pos(from), Cause: "wall"})
		return false
	}
	// Find the chain of real robots in front (seed 003: "a chain of robots could be
	// pushed"); a virtual mover pushes nothing.
	var chain [MaxRobots]int
	n := 0
	if !r.Virtual {
		for at := from.Step(d); b.In(at); at = at.Step(d) {
			j := t.realAt(at, i)
			if j < 0 {
				break
			}
			if !t.effectPushable(j, i) {
				// An option that keeps a robot from being pushed makes it an obstacle: the
				// whole chain stops, as at a wall (rules README, A turn 4b).
				t.emit(Event{Kind: EvBlocked, Robot: r.Name, Other: t.st.Robots[j].Name, From: t.pos(from), Cause: "robot"})
				t.rammed(i, n, chain[:n], j, d, by, false)
				return false
			}
			if t.blocked(at, d) {
				t.emit(Event{Kind: EvBlocked, Robot: r.Name, Other: t.st.Robots[j].Name, From: t.pos(from), Cause: "wall"})
				chain[n] = j
				n++
				t.rammed(i, n, chain[:n], -1, d, by, false)
				return false
			}
			chain[n] = j
			n++
		}
	}
	// Move the chain from the far end, then the mover.
	for k := n - 1; k >= 0; k-- {
		j := chain[k]
		q := &t.st.Robots[j]
		pf := q.Pos
		q.Pos = pf.Step(d)
		pusher := r.Name
		if k > 0 {
			pusher = t.st.Robots[chain[k-1]].Name
		}
		e := t.event(EvPush, q.Name)
		e.Other, e.From, e.To = pusher, t.pos(pf), t.pos(q.Pos)
		t.checkFall(j)
	}
	r.Pos = from.Step(d)
	kind := EvMove
	if by != "" {
		kind = EvPushed
	}
	e := t.event(kind, r.Name)
	e.Cause, e.From, e.To, e.Card = t.moveCause(i, by), t.pos(from), t.pos(r.Pos), t.cardOf(i, by)
	if n > 0 {
		t.rammed(i, n, chain[:n], -1, d, by, true)
	}
	t.checkFall(i)
	return r.Active()
}

// rammed tells the pushing robot i's effects (Rammer) which robot its move pushed, or
// tried to push: the first of the chain, else the robot that would not move (stopper).
// Only a robot moving under its own power pushes in this sense (by == "").
func (t *turn) rammed(i, n int, chain []int, stopper int, d Dir, by string, moved bool) {
	if by != "" || !t.has(i, hkRam) {
		return
	}
	front := stopper
	if n > 0 {
		front = chain[0]
	}
	if front < 0 {
		return
	}
	t.effectRam(i, front, d, moved)
}

func (t *turn) cardOf(i int, by string) int {
	if by != "" || t.register == 0 || int(t.armed.homer) == i+1 {
		return 0
	}
	return t.cardIn(i)
}

// moveCause is the cause of a move robot i makes under its own power: "homing" for a
// Homing Device's move, which is no card's (seed 001, Homing Device: cards_armed.go);
// else by.
func (t *turn) moveCause(i int, by string) string {
	if by == "" && int(t.armed.homer) == i+1 {
		return "homing"
	}
	return by
}

// blocked is Board.Blocked on the setup's floor, read from Setup.walls.
func (t *turn) blocked(p Pos, d Dir) bool {
	if k := uint(p.Y*t.wallsW + p.X); k < uint(len(t.walls)) && uint(p.X) < uint(t.wallsW) {
		return t.walls[k]&(1<<d) != 0
	}
	return t.blockedSlow(p, d)
}

// deadly is Board.Deadly on the setup's floor, read from Setup.walls.
func (t *turn) deadly(p Pos) bool {
	if k := uint(p.Y*t.wallsW + p.X); k < uint(len(t.walls)) && uint(p.X) < uint(t.wallsW) {
		return t.walls[k]&wallsPit != 0
	}
	return t.board().Deadly(p) // off the board, or no Setup.walls
}

// bare reports whether p is a square of the setup's floor with no belt, pusher, gear,
// crusher, flag or repair site (Setup.walls): the board element steps, the flags and the
// repairs pass a robot there by without reading its square. False when unknown.
func (t *turn) bare(p Pos) bool {
	k := uint(p.Y*t.wallsW + p.X)
	return k < uint(len(t.walls)) && uint(p.X) < uint(t.wallsW) && t.walls[k]&wallsBare != 0
}

// blockedSlow is blocked off the floor, or for a Setup not made by NewSetup. Kept out of
// line so that blocked is inlined.
//
//go:noinline
func (t *turn) blockedSlow(p Pos, d Dir) bool { return t.board().Blocked(p, d) }

// realAt is the real, active robot at p other than not, or -1. Only real robots meet
// other robots.
func (t *turn) realAt(p Pos, not int) int {
	for j := range t.st.Robots {
		q := &t.st.Robots[j]
		if q.Pos == p && j != not && q.Active() && !q.Virtual { // the square first: it rules most out
			return j
		}
	}
	return -1
}

// checkFall destroys robot i if it is in a pit or off the board.
func (t *turn) checkFall(i int) {
	r := &t.st.Robots[i]
	if !r.Active() || !t.deadly(r.Pos) || t.bridged(r.Pos) {
		return
	}
	if t.r23 != nil && t.r23.hover == i+1 && t.board().In(r.Pos) {
		return // hovering over a pit in its own move (Hover Unit, upgrades.go)
	}
	if t.flying(i) && t.board().In(r.Pos) {
		return // flying over a pit (seed 001, Flying); it falls if it lands there (Frog Legs: cards_armed.go)
	}
	cause := "pit"
	if !t.board().In(r.Pos) {
		cause = "off-board"
	}
	if t.setup.Rules.Fall == "reboot" {
		t.reboot(i, cause) // seed 004, Rebooting: reboot.go
		return
	}
	t.destroy(i, cause)
}
