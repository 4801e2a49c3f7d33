package adjudicator

// Movement over the Grand Prix tiles (seed 003) and the Crash & Burn floor (seed 000).
//
// A board without any of them, in a game without per-square rules (Rules.PassTouches),
// moves robots with step alone (move.go); Setup.slow sends every step here instead, so
// the plain game pays nothing for the tiles. This file is the walk of one step; each
// element's rule lives in its own file: oil.go, portals.go, levels.go (ledges and
// ramps), repulsors.go, doors.go, flamers.go.

// slot is where a robot is during a move: a square, or the ramp leaving that square
// towards Dir(ramp-1) (levels.go: going up, a ramp is an extra square).
type slot struct {
	p    Pos
	ramp uint8
}

// edge is what stands between a slot and the next one in a direction.
type edge uint8

const (
	edgeOpen     edge = iota
	edgeWall          // a wall, or a robot can't leave a ramp sideways
	edgeDoor          // a closed swing door
	edgeLedge         // a ledge seen from below
	edgeRepulsor      // a repulsor field
	edgeFall          // a ledge seen from above: the robot falls
	edgeOntoRamp      // the foot of a ramp: the next slot is the ramp
)

var edgeCause = [...]string{edgeWall: "wall", edgeDoor: "door", edgeLedge: "ledge", edgeRepulsor: "repulsor"}

// floorFx marks which tiles a floor holds, so the turn skips what is absent.
type floorFx uint16

const (
	fxOil floorFx = 1 << iota
	fxPortal
	fxLevels
	fxRepulsor
	fxDoor
	fxChop
	fxFlamer
	fxStomper
	fxWater      // water, with or without a current (water.go)
	fxCurrent    // a current (water.go)
	fxTeleporter // teleporters.go
	fxRandomizer // randomizers.go
)

// scanFloor says which tiles the board holds.
func scanFloor(b *Board) floorFx {
	var fx floorFx
	for k := range b.Squares {
		s := &b.Squares[k]
		if s.Oil {
			fx |= fxOil
		}
		if s.Portal != 0 {
			fx |= fxPortal
		}
		if s.Level != 0 || s.Ramps != 0 {
			fx |= fxLevels
		}
		if s.Repulsors != 0 {
			fx |= fxRepulsor
		}
		if s.Door.Side != 0 {
			fx |= fxDoor
		}
		if s.ChopShop {
			fx |= fxChop
		}
		if s.Flamer != 0 {
			fx |= fxFlamer
		}
		if s.Stomper != 0 {
			fx |= fxStomper
		}
		if s.Water {
			fx |= fxWater
		}
		if s.Current != 0 {
			fx |= fxCurrent
		}
		if s.Teleporter {
			fx |= fxTeleporter
		}
		if s.Randomizer {
			fx |= fxRandomizer
		}
	}
	return fx
}

// next is the slot a robot at s reaches moving one square towards d, and what it meets
// on the way. Robots are not looked at.
func (t *turn) next(s slot, d Dir) (slot, edge) {
	b := t.board()
	if s.ramp != 0 {
		switch rd := Dir(s.ramp - 1); d {
		case rd:
			return slot{p: s.p.Step(d)}, edgeOpen
		case rd.Back():
			return slot{p: s.p}, edgeOpen
		}
		return s, edgeWall // ruling: nothing leaves a ramp sideways
	}
	p := s.p
	if b.Blocked(p, d) {
		return s, edgeWall
	}
	fx := t.setup.fx
	if fx&fxDoor != 0 && b.doorClosed(p, d, t.register) {
		return s, edgeDoor
	}
	if fx&fxRepulsor != 0 && b.repulsorAt(p, d) {
		return s, edgeRepulsor
	}
	q := p.Step(d)
	if fx&fxLevels != 0 && b.levelEdge(p, d) {
		up, ramp := b.At(q).Level > b.At(p).Level, b.HasRamp(p, d)
		switch {
		case up && ramp:
			return slot{p: p, ramp: uint8(d) + 1}, edgeOntoRamp
		case up:
			return s, edgeLedge
		case !ramp:
			return slot{p: q}, edgeFall
		}
	}
	return slot{p: q}, edgeOpen
}

// robotAt is the real, active robot in slot s other than not, or -1.
func (t *turn) robotAt(s slot, not int) int {
	for j := range t.st.Robots {
		q := &t.st.Robots[j]
		if j != not && q.Active() && !q.Virtual && q.Pos == s.p && t.ramp[j] == s.ramp {
			return j
		}
	}
	return -1
}

// stepFloor is step on a floor with tiles: robot i moves one slot towards d, pushing the
// chain of real robots in front of it. by is "" for a robot moving under its own card,
// else what moves it: "pusher", "oil" (sliding), "repulsor", "ramp" (sliding back).
func (t *turn) stepFloor(i int, d Dir, by string) bool {
	r := &t.st.Robots[i]
	if len(t.st.Devices) > 0 && t.stuckInGoo(i) {
		return false // seed 001, Goo Dropper: held fast (cards_devices.go)
	}
	from := slot{r.Pos, t.ramp[i]}
	to, e := t.next(from, d)
	switch e {
	case edgeWall, edgeDoor, edgeLedge:
		t.emit(Event{Kind: EvBlocked, Robot: r.Name, From: t.pos(r.Pos), Cause: edgeCause[e]})
		return false
	case edgeRepulsor:
		t.emit(Event{Kind: EvBlocked, Robot: r.Name, From: t.pos(r.Pos), Cause: "repulsor"})
		if by == "" && t.mover == i && t.count > 0 {
			t.repulse(i, d, t.count)
			t.stopMove = true
		}
		return false
	}
	if len(t.st.Devices) > 0 || t.devs.air {
		if t.leavesLevel(i, from, to, e) {
			t.emit(Event{Kind: EvBlocked, Robot: r.Name, From: t.pos(r.Pos), Cause: "ledge"})
			return false
		}
	}
	if e == edgeFall && t.setup.Rules.Landing == "next" && !r.Virtual && t.robotAt(to, i) >= 0 {
		return t.fallBeside(i, d, from, to, by)
	}
	var chain [MaxRobots]int
	var dest [MaxRobots]slot
	var edges [MaxRobots]edge
	var bigs [MaxRobots]bigPush // The Big Ones pushed on with the chain
	n, nb := 0, 0
	if !r.Virtual {
		devs := len(t.st.Devices) > 0
		for at := to; n < MaxRobots; {
			j := t.robotAt(at, i)
			bo := -1
			if devs {
				bo = t.bigOneIn(at)
			}
			var bto slot
			if bo >= 0 {
				// seed 001, The Big One: "can be pushed by pushers and robots"; it is
				// pushed like a robot, ledges and ramps included, and what it is pushed
				// into it pushes on in turn (cards_devices.go).
				var be edge
				bto, be = t.next(at, d)
				held := be == edgeWall || be == edgeDoor || be == edgeLedge || be == edgeRepulsor
				if j < 0 && (held || nb == len(bigs)) {
					t.emit(Event{Kind: EvBlocked, Robot: r.Name, From: t.pos(r.Pos), Cause: "big-one"})
					if n > 0 {
						t.rammed(i, n, chain[:n], -1, d, by, false)
					}
					return false
				}
				if nb < len(bigs) {
					bigs[nb] = bigPush{id: t.st.Devices[bo].ID, to: bto}
					nb++
				}
			}
			if j < 0 {
				if bo < 0 {
					break
				}
				at = bto
				continue
			}
			o := t.st.Robots[j].Name
			if len(t.st.Devices) > 0 && t.stuckInGoo(j) {
				// seed 001, Goo Dropper: a robot pushed while on goo stays; the push counts.
				t.emit(Event{Kind: EvBlocked, Robot: r.Name, Other: o, From: t.pos(r.Pos), Cause: "goo"})
				t.rammed(i, n, chain[:n], j, d, by, false)
				t.devs.gooPush = true
				return false
			}
			if by == "oil" && !t.onOil(j) {
				// seed 003: a slide stops at "another robot that is not on an oil slick".
				t.emit(Event{Kind: EvBlocked, Robot: r.Name, Other: o, From: t.pos(r.Pos), Cause: "robot"})
				return false
			}
			if !t.effectPushable(j, i) {
				t.emit(Event{Kind: EvBlocked, Robot: r.Name, Other: o, From: t.pos(r.Pos), Cause: "robot"})
				t.rammed(i, n, chain[:n], j, d, by, false)
				return false
			}
			nx, ej := t.next(at, d)
			switch ej {
			case edgeWall, edgeDoor, edgeLedge:
				t.emit(Event{Kind: EvBlocked, Robot: r.Name, Other: o, From: t.pos(r.Pos), Cause: edgeCause[ej]})
				chain[n] = j
				t.rammed(i, n+1, chain[:n+1], -1, d, by, false)
				return false
			case edgeRepulsor:
				t.emit(Event{Kind: EvBlocked, Robot: r.Name, Other: o, From: t.pos(r.Pos), Cause: "repulsor"})
				chain[n] = j
				t.rammed(i, n+1, chain[:n+1], -1, d, by, false)
				if by == "" && t.mover == i && t.count > 0 {
					t.repulse(j, d, t.count)
					t.stopMove = true
				}
				return false
			}
			chain[n], dest[n], edges[n] = j, nx, ej
			n++
			at = nx
		}
	}
	for k := nb - 1; k >= 0; k-- {
		t.pushBigOne(bigs[k]) // the farthest first, as the robots
	}
	// Ruling R-AD-PUSH-MEET: a push is one step for the whole chain, so the devices the
	// robots move onto act once every robot of the chain, the mover too, stands on its new
	// square: a blast is measured from there, and a drone's push back meets the robot
	// behind where it now stands (scenarios 1015, 1016). Without it a pushed robot thrown
	// back by a drone landed where its pusher was about to come: two robots on a square.
	meetBase := -1
	if n > 0 && len(t.st.Devices) > 0 {
		meetBase = len(t.devs.meetQ)
		t.devs.meetDefer++
	}
	for k := n - 1; k >= 0; k-- {
		pusher := r.Name
		if k > 0 {
			pusher = t.st.Robots[chain[k-1]].Name
		}
		landed := -1
		if k+1 < n {
			landed = chain[k+1]
		}
		t.place(chain[k], d, dest[k], edges[k], Event{Kind: EvPush, Other: pusher}, landed, true)
		if t.devs.copter[chain[k]] != 0 {
			t.copterDown(chain[k]) // seed 001, Robo-Copter: "pushed by a robot ... your robot lands"
		}
	}
	ev := Event{Kind: EvMove, Card: t.cardOf(i, by), Cause: t.moveCause(i, by)}
	switch by {
	case "":
	case "oil":
		ev = Event{Kind: EvSlid, Cause: by}
	default:
		ev = Event{Kind: EvPushed, Cause: by}
	}
	landed := -1
	if n > 0 {
		landed = chain[0]
	}
	t.place(i, d, to, e, ev, landed, false)
	if meetBase >= 0 {
		t.devs.meetDefer--
		end := len(t.devs.meetQ)
		for k := meetBase; k < end; k++ {
			if j := t.devs.meetQ[k]; t.st.Robots[j].Active() && !t.st.Over {
				t.metDevices(j)
			}
		}
		t.devs.meetQ = t.devs.meetQ[:meetBase]
	}
	if by != "" && t.devs.copter[i] != 0 {
		t.copterDown(i) // seed 001, Robo-Copter: pushed by a pusher (or another push): it lands
	}
	if n > 0 {
		t.rammed(i, n, chain[:n], -1, d, by, true)
	}
	return r.Active()
}

// place puts robot j, moving towards d across edge e, into slot to, records ev (Kind and
// Other or Cause set) and applies what the new square does: a pit, a fall, a flamer, a
// flag passed, a portal. landed is the robot that stood in the slot (pushed on ahead), or
// -1. pushed is true for a robot moved by another robot.
func (t *turn) place(j int, d Dir, to slot, e edge, ev Event, landed int, pushed bool) {
	q := &t.st.Robots[j]
	from := q.Pos
	if t.ramp[j] != 0 {
		t.onRamp--
	}
	q.Pos, t.ramp[j] = to.p, to.ramp
	t.devs.dir[j] = d
	ev.Robot, ev.From, ev.To = q.Name, t.pos(from), t.pos(q.Pos)
	if to.ramp != 0 {
		t.onRamp++
		if ev.Cause == "" {
			ev.Cause = "ramp"
		}
	}
	t.emit(ev)
	if t.phase == "move" {
		t.moved[j] = uint8(d) + 1
		if pushed {
			t.settled &^= 1 << j
		}
	}
	if to.ramp != 0 {
		return // on the ramp: nothing below it acts until it leaves
	}
	t.entered(j)
	if e == edgeFall && q.Active() {
		t.damage(j, 2, "ledge", "")
		if landed >= 0 && t.st.Robots[landed].Active() {
			t.damage(landed, 2, "landed-on", q.Name)
		}
	}
	if q.Active() && t.setup.fx&fxPortal != 0 {
		t.teleport(j)
	}
}

// entered applies what robot i's new square does to a robot arriving on it: a pit or the
// edge, an active flamer, its next flag passed over (Rules.PassTouches).
func (t *turn) entered(i int) {
	t.checkFall(i)
	if !t.st.Robots[i].Active() {
		return
	}
	if t.setup.fx&fxFlamer != 0 {
		t.flameOnEntry(i)
	}
	if t.setup.Rules.PassTouches {
		t.passFlag(i)
	}
	if len(t.st.Devices) > 0 && t.st.Robots[i].Active() {
		if t.devs.meetDefer > 0 {
			t.devs.meetQ = append(t.devs.meetQ, i) // met once the whole step is placed (stepFloor)
			return
		}
		t.metDevices(i) // devices.go
	}
}

// startMove prepares robot i's card of steps squares and returns the squares it will
// try to move: one less when it starts on oil (oil.go) or in water (water.go).
func (t *turn) startMove(i, steps int) int {
	t.mover, t.count, t.stopMove = i, steps, false
	t.moved = [MaxRobots]uint8{}
	t.settled = 0
	if steps > 0 && t.setup.fx&fxOil != 0 && t.onOil(i) {
		r := &t.st.Robots[i]
		t.emit(Event{Kind: EvSlowed, Robot: r.Name, From: t.pos(r.Pos), Amount: 1, Cause: "oil"})
		steps--
	}
	if steps > 0 && t.setup.fx&fxWater != 0 && !t.flying(i) {
		steps = t.slowInWater(i, steps) // seed 001, Water: water.go; flying robots skim it
	}
	return steps
}

// endMove finishes a card: robots left on a ramp slide back, robots on oil slide, until
// nothing moves.
func (t *turn) endMove() {
	for k := 0; k < 4 && !t.st.Over; k++ {
		t.settleRamps()
		if t.setup.fx&fxOil == 0 || !t.slideOnOil() {
			break
		}
	}
	t.settleRamps()
	t.mover, t.count, t.stopMove = -1, 0, false
}

// settleRamps slides every robot left on a ramp back down one square (levels.go).
// Ruling: should the square below be held fast (the robots behind cannot be pushed),
// the robot goes on up the ramp instead; should that be held too, it stays on the
// square at the ramp's foot. A robot flying by Robo-Copter stays on the ramp until it
// lands (seed 001, Flying: flying robots "don't ... go down ramps"; cards_devices.go).
// The Big One left on a ramp slides back the same way, with a robot standing on it, or
// alone (cards_devices.go, bigOneSlides).
func (t *turn) settleRamps() {
	for t.onRamp > 0 || t.devs.bigRamp != 0 {
		j, on := -1, 0
		for k := range t.st.Robots {
			if t.ramp[k] != 0 {
				on++
				if j < 0 && !t.devs.flying[k] {
					j = k
				}
			}
		}
		t.onRamp = on
		if j < 0 {
			if t.devs.bigRamp != 0 {
				t.bigOneSlides(-1)
				continue
			}
			return
		}
		rd := Dir(t.ramp[j] - 1)
		big := -1 // The Big One under the robot slides with it
		if t.devs.bigRamp != 0 {
			if d := t.bigOneIn(slot{t.st.Robots[j].Pos, t.ramp[j]}); d >= 0 {
				big = t.st.Devices[d].ID
			}
		}
		if !t.st.Robots[j].Active() || !t.step(j, rd.Back(), "ramp") {
			if !t.st.Robots[j].Active() || !t.step(j, rd, "ramp") {
				t.ramp[j] = 0
				t.onRamp--
			}
		}
		if big > 0 {
			t.bigOneSlides(j)
		}
	}
}
