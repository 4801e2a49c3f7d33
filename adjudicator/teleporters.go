package adjudicator

// Teleporters (seed 001, Board Element Overview: Teleporters; Landing).
//
//   - A robot that plays a movement card while standing on a teleporter is teleported
//     instead of moving: Back Up 2 squares back, Move 1 3 squares, Move 2 4 squares,
//     Move 3 5 squares ahead (teleportDistance, seed 001's table). Turning cards are not
//     affected, and a robot pushed, carried or otherwise moved off a teleporter before
//     its card is not affected either ("if a robot is pushed off of a teleporter before
//     executing its movement card, it is not affected").
//   - Options that change a movement card or act on a robot playing one (Crab Legs,
//     Converter, Fourth Gear, Brakes, Reverse Gear, Goo Dropper ...) have no effect on a
//     teleporter: the card's distance is the table's, whatever the robot holds. Options
//     that move a robot without a card (Retro-Rockets) may still be used.
//   - Ruling (seed 001 calls the table a "teleport distance" and says no more): the robot
//     does not cross the squares between; walls, robots, pits and other elements there
//     are passed over. It arrives on the square at the teleport distance in the card's
//     direction, which acts on it as on a robot moving in: a pit or the board's edge
//     destroys it, a flamer burns it, a flag passed counts where Rules.PassTouches says
//     so. Arriving on a lower or higher level does no damage: nothing was crossed.
//   - Ruling: a robot arriving on a square held by another robot comes down on the next
//     square along its way without one, as seed 001's Landing says of a flying robot
//     coming down on another (landing, below).
//   - Ruling: a teleported robot is not sent on by a portal it arrives on (portals act on
//     robots moving square by square), nor teleported again in the same card.

// teleportDistance is seed 001's table: the squares a movement card of steps squares
// (-1 for Back Up) teleports a robot, negative for backwards.
var teleportDistance = map[int]int{-1: -2, 1: 3, 2: 4, 3: 5}

// onTeleporter reports whether robot i stands on a teleporter (not on a ramp).
func (t *turn) onTeleporter(i int) bool {
	r := &t.st.Robots[i]
	return r.Active() && t.ramp[i] == 0 && t.board().In(r.Pos) && !t.devs.flying[i] &&
		(t.board().At(r.Pos).Teleporter || (len(t.st.Devices) > 0 && t.onPortableTeleporter(i))) // seed 001, Portable Teleporter
}

// teleportCard plays robot i's movement card of steps squares from a teleporter.
func (t *turn) teleportCard(i, steps int) {
	r := &t.st.Robots[i]
	n, ok := teleportDistance[steps]
	if !ok {
		return
	}
	d := r.Facing
	if n < 0 {
		n, d = -n, d.Back()
	}
	from := r.Pos
	to := from
	for k := 0; k < n; k++ {
		to = to.Step(d)
	}
	to = t.landing(i, to, d, from)
	r.Pos = to
	t.emit(Event{Kind: EvTeleport, Robot: r.Name, From: t.pos(from), To: t.pos(to), Amount: n, Cause: "teleporter", Card: t.cardOf(i, "")})
	if t.phase == "move" {
		t.moved[i] = uint8(d) + 1
	}
	t.entered(i)
}

// landing is where robot i, coming down at p while travelling towards d without
// crossing the squares between (a teleport; a flight), ends: p, or when another real
// robot stands there, the next square along d without one (seed 001, Landing: "move the
// landing robot into the next open square, determined by the direction the robot is
// moving"). A square off the board or in a pit is open, and the robot is lost there.
// Ruling R-AD-LANDING-WALL (scenario 984): should a wall stand in the way on, the robot
// comes down on the nearest square without a robot back towards from, where it came from
// (from itself is free: the robot left it). A virtual robot comes down at p: virtual
// robots share squares.
func (t *turn) landing(i int, p Pos, d Dir, from Pos) Pos {
	if t.st.Robots[i].Virtual {
		return p
	}
	b := t.board()
	limit := b.W + b.H + 2
	q := p
	for k := 0; k < limit; k++ {
		if !b.In(q) || t.realAt(q, i) < 0 {
			return q
		}
		if b.Blocked(q, d) {
			break
		}
		q = q.Step(d)
	}
	q = p
	for k := 0; k < limit && q != from; k++ {
		q = q.Step(d.Back())
		if !b.In(q) || t.realAt(q, i) < 0 {
			return q
		}
	}
	return from
}
