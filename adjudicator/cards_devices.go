package adjudicator

import "slices"

// The Armed and Dangerous cards that bring devices onto the board (seed 001, Complete
// Listing of Option Cards), one type a card, on the machinery of devices.go and
// explosions.go. Each cites its card in seed 001; rulings are written beside the code.
// Implemented: The Big One (49), Bridge Layer (51), Buzz Bomb (52), Drone Launcher (55),
// Goo Dropper (58), Mine Layer (61), Missile Launcher (62), Portable Teleporter (65), Proximity Mine (66);
// and the cards that make a robot fly (flying.go): Big Jet (48), Retro-Rockets (69),
// Robo-Copter (70).

// deviceEffects is the device cards whose effects are implemented (effects.go lists
// them after the other Armed and Dangerous cards).
func deviceEffects() []Effect {
	return []Effect{roboCopter{}, bigJet{}, theBigOne{}, bridgeLayer{}, buzzBomb{}, droneLauncher{}, gooDropper{}, mineLayer{}, missileLauncher{}, portableTeleporter{}, proximityMine{}, retroRockets{}}
}

// flatTrigger applies flat device d to robot i, which moved onto or over it (or, for a
// proximity mine, within a square of it) or (atLasers) stands there at the end of its
// launcher's grace. It reports whether the device left the board.
func (t *turn) flatTrigger(d, i int, atLasers bool) bool {
	switch t.st.Devices[d].Kind {
	case DevMine, DevProximityMine:
		t.blowDevice(d, "collision")
		return true
	}
	return false
}

// nearDevices sets off the proximity mines on a square next to robot i, not flying
// (seed 001, Proximity Mine: "Any non-flying robot passing within 1 square"); the one on
// its own square metDevices has met.
func (t *turn) nearDevices(i int) {
	r := &t.st.Robots[i]
	for d := 0; d < len(t.st.Devices) && r.Active(); d++ {
		dev := &t.st.Devices[d]
		if dev.Kind != DevProximityMine || dev.Pos == r.Pos || !t.withinOne(r.Pos, dev.Pos) || !t.meets(i, dev) || (dev.fresh && dev.Owner == r.Name) {
			continue
		}
		t.blowDevice(d, "collision")
		d--
	}
}

// programPayload is the Program of a gadget that lays one device from its payload: it
// takes one from the card when the program is laid (seed 001, Destruction: a device
// programmed is safe when the card is lost later; Launchers: only unprogrammed devices
// explode), and refuses a program when the payload is spent.
func programPayload(v View, p *PhaseProgram, k DeviceKind) bool {
	t, i := v.t, v.robot
	sp := specOf(k)
	used := t.token(i, sp.option)
	if used >= sp.payload {
		return false
	}
	t.setToken(i, sp.option, used+1)
	p.Spent = 1
	return true
}

// ---- 61 Mine Layer (seed 001, "Mine Layer": phase programmed gadget, flat device,
// launcher, payload 3, explosive damage 4) ----
// In the register it is programmed for, before the robots move, the robot lays a mine on
// its square. A robot that moves onto or over the mine (a robot's own move, a push, a
// belt, a teleport landing) sets it off at once: it explodes on its square for 4, 2 a
// square away, 1 two away. The robot that laid it has until the lasers of that register
// to move off it; still on it then, it sets it off. Lasers and pushers do not touch a
// mine; belts carry it; a crusher sets it off; a pit takes it without an explosion.
// Flying robots and other devices do not set it off. A robot that moved onto a mine and
// was not destroyed goes on with its move. Three mines; a mine programmed is spent, and
// the ones not yet programmed explode on the robot's square if the card is lost.
//
// The order: "use Mine Layer in register 3" (one mine a register). Default: none laid.
type mineLayer struct{}

func (mineLayer) Option() string   { return "Mine Layer" }
func (mineLayer) Phase() PhaseKind { return PhaseGadget }
func (mineLayer) Program(v View, p *PhaseProgram) bool {
	return programPayload(v, p, DevMine)
}
func (mineLayer) Run(v View, p *PhaseProgram) bool {
	return v.t.placeDevice(v.robot, DevMine, v.t.st.Robots[v.robot].Pos) >= 0
}

// ---- 66 Proximity Mine (seed 001, "Proximity Mine": phase programmed gadget, flat
// device, launcher, payload 3, explosive damage 4) ----
// As Mine Layer, but the mine goes off when a robot that is not flying comes within a
// square of it: onto its square or onto a square next to it with no wall between.
//
// Rulings: "within 1 square" is counted as robots move, as every distance in seed 001:
// the mine's square and the four next to it, a wall between cutting one off. A robot
// already within a square when the mine is laid, other than the robot laying it, sets it
// off at once (a device is active as soon as it is launched); the robot laying it has
// until the lasers to get more than a square away. A belt carrying the mine up to a
// robot sets it off too.
//
// The order: "use Proximity Mine in register 2". Default: none laid.
type proximityMine struct{}

func (proximityMine) Option() string   { return "Proximity Mine" }
func (proximityMine) Phase() PhaseKind { return PhaseGadget }
func (proximityMine) Program(v View, p *PhaseProgram) bool {
	return programPayload(v, p, DevProximityMine)
}
func (proximityMine) Run(v View, p *PhaseProgram) bool {
	t, i := v.t, v.robot
	d := t.placeDevice(i, DevProximityMine, t.st.Robots[i].Pos)
	if d < 0 {
		return false
	}
	dev := &t.st.Devices[d]
	for j := range t.st.Robots {
		q := &t.st.Robots[j]
		if j != i && q.Active() && !t.flying(j) && t.meets(j, dev) && t.withinOne(q.Pos, dev.Pos) {
			t.blowDevice(d, "collision")
			break
		}
	}
	return true
}

// ---- 51 Bridge Layer (seed 001, "Bridge Layer": phase programmed gadget, flat device,
// launcher, payload 2) ----
// Before the robots move, the robot lays a bridge on the square in front of it, which
// must be a pit with no wall between. From then on, for the rest of the game, robots
// cross that pit (or stop on it) as open floor. Otherwise the program is illegal and the
// bridge is kept for a later turn (seed 001's own example of an illegal program).
//
// Rulings: a drain is a pit, so a bridge may span it; a pit that has a bridge already
// takes no second one (illegal); a bridge laid by a virtual robot carries only it. A
// robot standing on a bridge is on open floor: a saved state may hold it there.
//
// The order: "use Bridge Layer in register 3". Default: none laid.
type bridgeLayer struct{}

func (bridgeLayer) Option() string   { return "Bridge Layer" }
func (bridgeLayer) Phase() PhaseKind { return PhaseGadget }
func (bridgeLayer) Program(v View, p *PhaseProgram) bool {
	return programPayload(v, p, DevBridge)
}
func (bridgeLayer) Run(v View, p *PhaseProgram) bool {
	t, i := v.t, v.robot
	r := &t.st.Robots[i]
	b := t.board()
	front := r.Pos.Step(r.Facing)
	if b.Blocked(r.Pos, r.Facing) || !b.In(front) || b.At(front).Floor != FloorPit || t.deviceAt(front, DevBridge) >= 0 {
		return false // seed 001: "Bridges may only be placed over pits, and your robot must not be blocked by a wall"
	}
	return t.placeDevice(i, DevBridge, front) >= 0
}

// ---- 65 Portable Teleporter (seed 001, "Portable Teleporter": phase programmed gadget,
// flat device, launcher, payload 1) ----
// Before the robots move, the robot leaves a teleporter on its square. It is a
// teleporter in every way (teleporters.go: a movement card played on it jumps Back Up 2,
// Move 1 3, Move 2 4, Move 3 5 squares) for every robot at once, the robot that laid it
// included (seed 001: "active for all robots as soon as it is launched"). Lasers and
// pushers do not touch it; belts carry it; pits and crushers destroy it.
//
// The order: "use Portable Teleporter in register 2". Default: not laid.
type portableTeleporter struct{}

func (portableTeleporter) Option() string   { return "Portable Teleporter" }
func (portableTeleporter) Phase() PhaseKind { return PhaseGadget }
func (portableTeleporter) Program(v View, p *PhaseProgram) bool {
	return programPayload(v, p, DevTeleporter)
}
func (portableTeleporter) Run(v View, p *PhaseProgram) bool {
	t, i := v.t, v.robot
	d := t.placeDevice(i, DevTeleporter, t.st.Robots[i].Pos)
	if d >= 0 {
		t.st.Devices[d].fresh = false // no grace: active for all robots at once
	}
	return d >= 0
}

// onPortableTeleporter reports whether robot i stands on a portable teleporter it meets.
func (t *turn) onPortableTeleporter(i int) bool {
	r := &t.st.Robots[i]
	for d := range t.st.Devices {
		if dev := &t.st.Devices[d]; dev.Kind == DevTeleporter && dev.Pos == r.Pos && t.meets(i, dev) {
			return true
		}
	}
	return false
}

// ---- 49 The Big One (seed 001, "The Big One": phase programmed gadget, device (neither
// flat nor flying), launcher, payload 1, explosive damage 64) ----
// Before the robots move (the cards are revealed), the robot leaves The Big One on its
// square. At the very start of register 1 of the next turn it explodes for 64: 32 a
// square away, 16, 8, 4, 2, 1 six squares away, counted around walls. Until then it
// stands on the floor: robots' lasers stop at it (it blocks the line of sight between
// robots), pushers and robots push it, belts carry it, a crusher sets it off early, a pit
// takes it without an explosion.
//
// Rulings: it is pushed as a robot is (seed 001, Pushing Robots, which the device rules
// apply to what robots push): a robot moving into its square pushes it a square on, and
// it pushes on whatever is beyond it, robots and other Big Ones, as one chain; a wall
// anywhere in front of the chain stops the chain and the mover. A Big One anywhere in a
// chain of pushed robots (under a robot standing on it, or between two of them) moves
// with the chain. Its owner, which leaves it on its own square, moves off it freely
// (leaving a square pushes nothing). Pushed off the board or onto a pit it is gone
// without an explosion. Board lasers are not stopped by it (seed 001 speaks of the line
// of sight between robots). A pusher pushing it pushes the robots in front of it on in
// the same way, after the robots it pushes itself (devices move after robots in each
// element step). Scenarios 792, 758, 783, 900.
//
// Ruling R-AD-BIGONE-BELT (seed 001, Devices: "Devices are usually treated like
// powered-down robots with respect to board elements", and The Big One is pushed as a
// robot is, so it stands on the floor as a robot does; rules README, belt rulings: belts
// never push): belts and currents carry it in the same step as the robots, judged with
// them. A belt does not carry it onto a square whose robot is not leaving, nor a robot
// onto its square while it stays; carried into one square with a robot, or head-on, both
// stay. A virtual Big One, or a virtual robot, holds nobody (virtual robots meet no
// robots; a virtual device only its owner). Scenarios 904, 905, 906.
//
// Ruling R-AD-BIGONE-RAMP (seed 001, Devices: "ramps ... all affect devices"; Ramps: going
// up, "treat the ramp as an extra square", and what stops on it "move ... back 1 square",
// pushing what stands below, as the rulebook's ramp example shows): pushed up a ramp it
// takes the ramp as a square; left on the ramp when the move ends it slides back down,
// pushing the robot at the ramp's foot back (with a robot standing on it, it slides with
// that robot). Pushed down a ramp it moves a square; over a ledge from above it drops to
// the lower level (it takes no damage: devices take none); against a ledge from below it
// is held as by a wall, and so is the robot pushing it. Belts and pushers treat it as
// they treat robots (levels.go): never up a ramp, down a ledge it drops. Scenarios 901,
// 902, 903, 922.
//
// The order: "use The Big One in register 5". Default: not laid.
type theBigOne struct{}

func (theBigOne) Option() string   { return "The Big One" }
func (theBigOne) Phase() PhaseKind { return PhaseGadget }
func (theBigOne) Program(v View, p *PhaseProgram) bool {
	return programPayload(v, p, DevBigOne)
}
func (theBigOne) Run(v View, p *PhaseProgram) bool {
	return v.t.placeDevice(v.robot, DevBigOne, v.t.st.Robots[v.robot].Pos) >= 0
}

// bigOnesGoOff explodes every Big One on the board: called at the start of register 1,
// when all of them were laid in an earlier turn (seed 001: "At the beginning of the
// first register phase of the following turn, The Big One explodes").
func (t *turn) bigOnesGoOff() {
	for d := 0; d < len(t.st.Devices); d++ {
		if t.st.Devices[d].Kind == DevBigOne {
			t.blowDevice(d, "timer")
			d--
		}
	}
}

// bigPush is The Big One (by device ID) pushed on with a chain into slot to.
type bigPush struct {
	id int
	to slot
}

// bigOneIn is the index of The Big One standing in slot s (on its square, or on the
// ramp leaving it while a move is under way: devicesTurn.bigRamp), -1 none.
func (t *turn) bigOneIn(s slot) int {
	d := t.deviceAt(s.p, DevBigOne)
	if d < 0 || t.devs.bigRamp != s.ramp {
		return -1
	}
	return d
}

// pushBigOne moves The Big One b.id into slot b.to: a robot's push (floormove.go), which
// has checked the edge and pushes whatever is beyond it. Onto a ramp it stands on the
// ramp (the extra square) until the move ends (settleRamps).
func (t *turn) pushBigOne(b bigPush) {
	d := t.deviceIndex(b.id)
	if d < 0 {
		return
	}
	dev := &t.st.Devices[d]
	from := dev.Pos
	dev.Pos, t.devs.bigRamp = b.to.p, b.to.ramp
	cause := "pushed"
	if b.to.ramp != 0 {
		cause = "ramp"
	}
	t.emit(Event{Kind: EvDeviceMove, Robot: dev.Owner, Device: string(dev.Kind), From: t.pos(from), To: t.pos(dev.Pos), Facing: t.dir(dev.Facing), Amount: dev.ID, Cause: cause})
	if b.to.ramp == 0 {
		t.deviceLanded(d)
	}
}

// bigOneSlides: The Big One, left on a ramp when a move ends, slides back down a square
// as a robot does (seed 001, Ramps: "If a robot stops on the extra square, move the
// robot back 1 square"; the ramp example: what slides back pushes what stands below).
// With follow >= 0 a robot stood on it on the ramp and has just slid: it goes where that
// robot went. Alone, it pushes the robot at the ramp's foot back; should that robot be
// held fast, it goes on up the ramp, pushing the robot at the top; held there too, it
// stays at the foot (the robots' ruling, settleRamps).
func (t *turn) bigOneSlides(follow int) {
	d := -1
	for k := range t.st.Devices {
		if t.st.Devices[k].Kind == DevBigOne {
			d = k
		}
	}
	rd := Dir(t.devs.bigRamp - 1)
	t.devs.bigRamp = 0
	if d < 0 {
		return
	}
	foot := t.st.Devices[d].Pos
	to := foot
	switch {
	case follow >= 0:
		if r := &t.st.Robots[follow]; r.Active() {
			to = r.Pos
		}
	default:
		if j := t.robotAt(slot{p: foot}, -1); j >= 0 && !t.step(j, rd.Back(), "ramp") {
			up := foot.Step(rd)
			if k := t.robotAt(slot{p: up}, -1); k < 0 || t.step(k, rd, "ramp") {
				to = up
			}
		}
	}
	d = t.deviceIndex(t.st.Devices[d].ID)
	if d < 0 {
		return
	}
	dev := &t.st.Devices[d]
	dev.Pos = to
	t.emit(Event{Kind: EvDeviceMove, Robot: dev.Owner, Device: string(dev.Kind), From: t.pos(foot), To: t.pos(to), Facing: t.dir(dev.Facing), Amount: dev.ID, Cause: "ramp"})
	if to != foot {
		t.deviceLanded(d)
	}
}

// bigOneOnBelt is The Big One as the belt step which (belts.go) finds it: its device ID
// (0: there is none), its square, whether it is real (a virtual one meets no robot), and
// whether the step carries it (moves), where to and which way: as it would carry a robot
// on its square. Belts and currents never carry it up a ramp or against a ledge from
// below, as they never carry a robot there; over a ledge from above it drops to the
// lower level.
func (t *turn) bigOneOnBelt(which beltSet) (id int, from, to Pos, dir Dir, real, moves bool) {
	b := t.board()
	for d := range t.st.Devices {
		dev := &t.st.Devices[d]
		if dev.Kind != DevBigOne || !b.In(dev.Pos) {
			continue
		}
		id, from, to, real = dev.ID, dev.Pos, dev.Pos, !dev.Virtual
		if which == currents {
			c, ok := b.currentDir(dev.Pos)
			if !ok {
				return
			}
			dir = c
		} else {
			belt := b.At(dev.Pos).Belt
			if belt.Kind == NoBelt || (which == beltsExpress && belt.Kind != BeltExpress) || (which == beltsNormal && belt.Kind != BeltNormal) {
				return
			}
			dir = belt.Dir
		}
		if t.blocked(dev.Pos, dir) || (t.setup.fx != 0 && t.beltHeld(dev.Pos, dir)) {
			return
		}
		return id, from, from.Step(dir), dir, real, true
	}
	return
}

// beltCause names a belt step in the device events.
var beltCause = [...]string{beltsAll: "belts", beltsExpress: "express", beltsNormal: "green", currents: "currents"}

// carryBigOne moves The Big One id a square towards dir on the belt step which (its
// exit is free: moveBelts judged it with the robots), turning it on a curve as a belt
// turns a robot, and lets the square it reaches act on it (a pit takes it).
func (t *turn) carryBigOne(id int, dir Dir, which beltSet) {
	d := t.deviceIndex(id)
	if d < 0 {
		return
	}
	b := t.board()
	dev := &t.st.Devices[d]
	from := dev.Pos
	dev.Pos = from.Step(dir)
	if b.In(dev.Pos) && which != currents {
		if nb := b.At(dev.Pos).Belt; nb.Kind != NoBelt && nb.TurnFrom.Has(dir.Back()) {
			switch nb.Dir {
			case dir.Right():
				dev.Facing = dev.Facing.Right()
			case dir.Left():
				dev.Facing = dev.Facing.Left()
			}
		}
	}
	t.emit(Event{Kind: EvDeviceMove, Robot: dev.Owner, Device: string(dev.Kind), From: t.pos(from), To: t.pos(dev.Pos), Facing: t.dir(dev.Facing), Amount: dev.ID, Cause: beltCause[which]})
	t.deviceLanded(d)
}

// bigOneShoves: The Big One with device ID id, about to be pushed by a pusher towards
// dir, pushes the robot in front of it (and that robot's chain) a square on first. It
// reports where The Big One now is in t.st.Devices, and whether it may move: false when
// the robots in front did not move, or when it is gone (the index is then the one before
// the devices not yet looked at).
func (t *turn) bigOneShoves(id int, dir Dir) (int, bool) {
	at := -1
	for d := range t.st.Devices {
		if t.st.Devices[d].ID == id {
			at = d
		}
	}
	next := slot{p: t.st.Devices[at].Pos.Step(dir)}
	j := t.robotAt(next, -1)
	if j < 0 || !t.board().In(next.p) {
		return at, true
	}
	t.step(j, dir, "pusher")
	for d := range t.st.Devices {
		if t.st.Devices[d].ID == id {
			return d, t.robotAt(next, -1) < 0
		}
	}
	return at - 1, false
}

// ---- 62 Missile Launcher (seed 001, "Missile Launcher": optional weapon, flying
// device, launcher, payload 3, explosive damage 4) ----
// Instead of the main laser the robot may launch a missile: it starts on the robot's
// square facing the way the laser would fire, and flies 2 squares forward at once and 2
// more in the robots' move segment of every later register (and turn), at the priority
// on its token. Running into a robot or a wall it explodes for 4: on the robot's square
// (the robot takes 4, its neighbours 2 ...), or before the wall on its own square. A
// pusher or a crusher sets it off; belts, gears, pits and water do not touch it (it
// flies), and it passes through other flying devices. Off the board it is gone.
//
// Ruling: the missile is launched in the lasers segment, so "moved forward during the
// phase it is launched" is done then, after every laser's damage, with the other
// weapons (View.Later). Ruling: the missile needs no target: a robot may launch one at
// an empty line. Ruling: a robot that drives into a missile's square collides with it
// too (seed 001, Devices: devices act "when a robot moves into ... them").
//
// The decision, asked in phase d of each register while missiles remain: launch one
// instead of firing ("use Missile Launcher", optionally "on NAME" to launch only when
// that robot is first in line). The default is the laser.
type missileLauncher struct{}

func (missileLauncher) Option() string { return "Missile Launcher" }

func (missileLauncher) Replace(v View, g Gun) bool {
	t, i := v.t, v.robot
	if t.token(i, "Missile Launcher") >= specOf(DevMissile).payload {
		return false
	}
	j := t.firstInLine(i, g.Dir)
	var a Answer
	if j >= 0 {
		a = t.askAbout(i, "Missile Launcher", "launch a missile instead of firing your laser?", j, Impact{Damage: 4})
	} else {
		a = t.ask(i, "Missile Launcher", "launch a missile (no robot in its line) instead of firing your laser?")
	}
	if !a.Use() || (a.Target != "" && (j < 0 || t.st.Robots[j].Name != a.Target)) {
		return false
	}
	d := t.launch(i, DevMissile, nil)
	if d < 0 {
		return false
	}
	t.st.Devices[d].Facing = g.Dir
	id := t.st.Devices[d].ID
	v.Later(func() {
		if d := t.deviceIndex(id); d >= 0 {
			t.flyMissile(d)
		}
	})
	return true
}

// deviceIndex is the index of the device numbered id, -1 when it is gone.
func (t *turn) deviceIndex(id int) int {
	for d := range t.st.Devices {
		if t.st.Devices[d].ID == id {
			return d
		}
	}
	return -1
}

// missileSquares is how far a missile flies a register (seed 001: "move the missile
// forward 2 squares").
const missileSquares = 2

// flyMissile flies missile d its 2 squares forward.
func (t *turn) flyMissile(d int) {
	for k := 0; k < missileSquares; k++ {
		if !t.flyStep(d, t.st.Devices[d].Facing, "") {
			return
		}
	}
}

// ---- 55 Drone Launcher (seed 001, "Drone Launcher": optional weapon, flying device,
// launcher, payload 3, explosive damage 2) ----
// Instead of the main laser the robot may launch a drone at the robot its laser would
// hit: the drone's target counter is put on that robot's square (it stays there; board
// elements and robots do not move it) and the drone on the launching robot's square. In
// the robots' move segment of each later register the drone flies 3 squares towards its
// counter at the priority on its token, stopping on the counter. Running into a robot it
// explodes for 2 and pushes that robot a square away from it (other robots hurt are not
// pushed). Pushers and crushers set it off; belts, gears, pits and water do not touch it.
// A drone waiting on its counter turns 90° left each register and, if a robot is in its
// line of sight at the lasers, its counter goes on that robot's square and it flies
// again.
//
// Rulings: "towards" is one square at a time along the axis on which the counter is
// further away (north or south on a tie, as View.TowardNextFlag); when a wall, a closed
// door or a level's edge is in that way the drone takes the other axis if that brings it
// closer, and otherwise waits. The drone faces the way it flies. The waiting drone turns
// left at the start of the lasers segment and then looks along its new facing, its line
// of sight being a laser's (stopped by walls and by the first robot); any robot counts,
// its launcher too. A drone launched this register first flies in the next. A drone
// sharing its launcher's square at launch does not collide with it: flying devices
// collide by moving into a robot, or a robot into them. A robot that drives into a
// drone's square is pushed a square back the way it came (away from the drone) and goes
// on with its card, as a robot does after a mine (seed 001, Devices; scenario 1010).
//
// The decision, asked in phase d of each register while drones remain and a robot is in
// the laser's line: launch a drone at it instead of firing ("use Drone Launcher", "on
// NAME" for that robot only). The default is the laser.
type droneLauncher struct{}

func (droneLauncher) Option() string { return "Drone Launcher" }

func (droneLauncher) Replace(v View, g Gun) bool {
	t, i := v.t, v.robot
	if t.token(i, "Drone Launcher") >= specOf(DevDrone).payload {
		return false
	}
	j := t.firstInLine(i, g.Dir)
	if j < 0 {
		return false // seed 001: "Target robot must be in your robot's line of sight"
	}
	a := t.askAbout(i, "Drone Launcher", "launch a drone at it instead of firing your laser?", j, Impact{})
	if !a.Use() || (a.Target != "" && a.Target != t.st.Robots[j].Name) {
		return false
	}
	target := t.st.Robots[j].Pos
	d := t.launch(i, DevDrone, &target)
	if d < 0 {
		return false
	}
	t.st.Devices[d].Facing = g.Dir
	return true
}

// droneSquares is how far a drone flies a register (seed 001: "move the drone 3
// squares toward the drone target counter").
const droneSquares = 3

// flyDrone flies drone d up to 3 squares towards its counter.
func (t *turn) flyDrone(d int) {
	id := t.st.Devices[d].ID
	for k := 0; k < droneSquares; k++ {
		d = t.deviceIndex(id)
		if d < 0 {
			return
		}
		dev := &t.st.Devices[d]
		if dev.Target == nil || *dev.Target == dev.Pos {
			return
		}
		dir, ok := t.droneWay(dev.Pos, *dev.Target)
		if !ok {
			return
		}
		dev.Facing = dir
		if !t.flyStep(d, dir, "") {
			return
		}
	}
}

// droneWay is the way from p one square closer to target: along the longer axis (north
// or south on a tie), or the other axis when an edge stops that way; false when neither
// way brings it closer.
func (t *turn) droneWay(p, target Pos) (Dir, bool) {
	dx, dy := target.X-p.X, target.Y-p.Y
	var ways [2]Dir
	n := 0
	vert, horiz := North, West
	if dy > 0 {
		vert = South
	}
	if dx > 0 {
		horiz = East
	}
	switch {
	case dy != 0 && abs(dy) >= abs(dx):
		ways[n] = vert
		n++
		if dx != 0 {
			ways[n] = horiz
			n++
		}
	case dx != 0:
		ways[n] = horiz
		n++
		if dy != 0 {
			ways[n] = vert
			n++
		}
	}
	for _, w := range ways[:n] {
		if !t.edgeStops(p, w) {
			return w, true
		}
	}
	return 0, false
}

// dronesLook: each drone waiting on its counter turns left and, if a robot is in its
// line of sight, puts its counter on that robot's square (seed 001, Drone Launcher).
// Called at the start of the lasers segment.
func (t *turn) dronesLook() {
	b := t.board()
	for d := range t.st.Devices {
		dev := &t.st.Devices[d]
		if dev.Kind != DevDrone || dev.fresh || dev.Target == nil || *dev.Target != dev.Pos {
			continue
		}
		dev.Facing = dev.Facing.Left()
		t.emit(Event{Kind: EvDeviceMove, Robot: dev.Owner, Device: string(dev.Kind), From: t.pos(dev.Pos), To: t.pos(dev.Pos), Facing: t.dir(dev.Facing), Amount: dev.ID, Cause: "turn"})
		for q := dev.Pos; !t.edgeStops(q, dev.Facing); {
			q = q.Step(dev.Facing)
			if !b.In(q) {
				break
			}
			if j := t.robotSeenAt(q, dev); j >= 0 {
				target := q
				dev.Target = &target
				t.emit(Event{Kind: EvUse, Robot: dev.Owner, Option: "Drone Launcher", Other: t.st.Robots[j].Name, Cause: "target", To: t.pos(q), Device: string(dev.Kind), Amount: dev.ID, Target: t.pos(q)})
				break
			}
		}
	}
}

// robotSeenAt is a robot at q that device dev can see (active, one it meets), -1 none.
func (t *turn) robotSeenAt(q Pos, dev *Device) int {
	for j := range t.st.Robots {
		r := &t.st.Robots[j]
		if r.Active() && r.Pos == q && t.meets(j, dev) {
			return j
		}
	}
	return -1
}

// ---- 52 Buzz Bomb (seed 001, "Buzz Bomb": turn programmed, flying device, launcher,
// payload 3, explosive damage 4) ----
// The robot may launch a buzz bomb: it is put on the robot's square facing the robot's
// way, and that turn and each turn after, until it explodes, it is programmed with five
// program cards of its own, which it plays one a register in the robots' move segment
// at each card's priority, as a robot would: turning in place, or flying forward (or
// back) square by square. Running into a robot or a wall it explodes for 4 (on the
// robot's square, or on its own before the wall). Pushers push it (into a wall, it
// explodes); crushers set it off; belts, gears, pits, water and teleporters do not touch
// it. One buzz bomb of a robot's may be in play at a time; three bombs in all.
//
// Ruling ("take five program cards"): the five cards are not taken from the robot's
// hand (nine cards less its damage could not program both), but dealt to it at the deal
// besides its hand, every turn it holds a Buzz Bomb with a bomb left to launch or in
// play (Robot.BombHand); its orders put them in the order the bomb plays them. A
// powered-down robot is dealt none and programs nothing: its bomb then stays put for the
// turn. The bomb's cards go back to the deck at the end of the turn, like the robot's.
// Ruling: the bomb is launched as the programs are loaded, before register 1, and
// flies from register 1. Like every flying device it collides by moving into a robot or
// a robot into it, so it does not collide with its launcher on the square they share at
// launch. Ruling: "only one buzz bomb may be in play at a time" is read per robot.
//
// The decision, asked when the programs are loaded: "use Buzz Bomb P490 P500 P510 P520
// P530" launches a bomb (or programs the one in play) with those five cards of the bomb
// hand, in that order; "use Buzz Bomb" alone takes the bomb hand in the order dealt
// (ascending priority). Default: no bomb is launched; a bomb in play plays its five
// cards in the order dealt.
type buzzBomb struct{}

func (buzzBomb) Option() string { return "Buzz Bomb" }

// buzzBombCards is how many cards program a buzz bomb (seed 001: "take five program
// cards").
const buzzBombCards = Registers

// bombOf is the index of robot i's buzz bomb in play, -1 none.
func (t *turn) bombOf(i int) int {
	name := t.st.Robots[i].Name
	for d := range t.st.Devices {
		if t.st.Devices[d].Kind == DevBuzzBomb && t.st.Devices[d].Owner == name {
			return d
		}
	}
	return -1
}

// AfterDeal deals the robot its bomb's five cards from what is left of the deck, when it
// has a bomb to launch or one in play.
func (buzzBomb) AfterDeal(v View) {
	t, i := v.t, v.robot
	r := &t.st.Robots[i]
	if t.token(i, "Buzz Bomb") >= specOf(DevBuzzBomb).payload && t.bombOf(i) < 0 {
		return
	}
	if len(t.dealPile) < buzzBombCards {
		return
	}
	r.BombHand = slices.Clone(t.dealPile[:buzzBombCards])
	slices.Sort(r.BombHand)
	t.dealPile = t.dealPile[buzzBombCards:]
}

func (buzzBomb) StartTurn(v View) {
	t, i := v.t, v.robot
	r := &t.st.Robots[i]
	if r.Power == PowerDown || len(r.BombHand) != buzzBombCards {
		return
	}
	a := t.ask(i, "Buzz Bomb", "launch or program your buzz bomb with its five cards?")
	prog := slices.Clone(r.BombHand)
	if len(a.Cards) == buzzBombCards && sameCards(a.Cards, r.BombHand) {
		prog = slices.Clone(a.Cards)
	}
	d := t.bombOf(i)
	if d < 0 {
		if !a.Use() {
			return
		}
		if d = t.launch(i, DevBuzzBomb, nil); d < 0 {
			return
		}
	}
	t.st.Devices[d].Program = prog
	t.useEvent(i, "Buzz Bomb", -1, prog[0], t.st.Devices[d].ID)
}

// sameCards reports whether a and b hold the same cards, in any order, each once.
func sameCards(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y) && len(slices.Compact(x)) == len(a)
}

// flyBuzzBomb plays buzz bomb d's card of this register.
func (t *turn) flyBuzzBomb(d int) {
	dev := &t.st.Devices[d]
	card := dev.Program[t.register-1]
	kind := t.setup.Deck.Kind(card)
	if rot := kind.Rotation(); rot != NoRotation {
		dev.Facing = dev.Facing.Rotate(int(rot))
		t.emit(Event{Kind: EvDeviceMove, Robot: dev.Owner, Device: string(dev.Kind), From: t.pos(dev.Pos), To: t.pos(dev.Pos), Facing: t.dir(dev.Facing), Amount: dev.ID, Card: card, Cause: "turn"})
		return
	}
	steps, dir := kind.Steps(), dev.Facing
	if steps < 0 {
		steps, dir = -steps, dir.Back()
	}
	for k := 0; k < steps; k++ {
		if !t.flyStep(d, dir, "") {
			return
		}
	}
}

// endBombs discards the buzz bombs' programs at the end of the turn (seed 001, Buzz
// Bomb: programmed anew each turn).
func (t *turn) endBombs() {
	for d := range t.st.Devices {
		t.st.Devices[d].Program = nil
	}
}

// ---- 48 Big Jet (seed 001, "Big Jet": phase programmed movement, flying, booster,
// payload 1) ----
// In the register it is programmed for, when the robot's card comes up (at its
// priority), the robot flies 8 squares forward, over walls and robots, lands, takes 2
// damage, and then plays its card. It does not fly from one level to another: the flight
// ends at the last square of its level. Landing on a robot it comes down on the next
// open square ahead (seed 001, Landing); off the board or on a pit it is lost. The card
// has one fuel counter: lost before the counter is programmed, it explodes for 4 on the
// robot's square.
//
// Rulings: the squares flown over are not entered: pits, flat devices, flamers and flags
// there do nothing (flags are touched from where the robot stands in phase e, as ever).
// The 2 damage is taken only by a robot that lands on the board. A flight that leaves the
// board ends at the first square off it.
//
// The order: "use Big Jet in register 3". Default: not used.
type bigJet struct{}

// bigJetSquares is how far Big Jet flies (seed 001: "flies forward 8 squares").
const bigJetSquares = 8

func (bigJet) Option() string   { return "Big Jet" }
func (bigJet) Phase() PhaseKind { return PhaseMovement }
func (bigJet) Program(v View, p *PhaseProgram) bool {
	t, i := v.t, v.robot
	if t.token(i, "Big Jet") >= boosterFuel["Big Jet"].fuel {
		return false
	}
	t.setToken(i, "Big Jet", t.token(i, "Big Jet")+1)
	p.Spent = 1
	return true
}
func (bigJet) Run(v View, p *PhaseProgram) bool {
	t, i := v.t, v.robot
	r := &t.st.Robots[i]
	card := t.cardIn(i)
	from, dir := r.Pos, r.Facing
	t.takeOff(i)
	r.Pos = t.flyOver(i, dir, bigJetSquares)
	t.emit(Event{Kind: EvFlew, Robot: r.Name, Option: "Big Jet", From: t.pos(from), To: t.pos(r.Pos), Card: card})
	t.land(i, dir, from)
	if r.Active() {
		t.damage(i, 2, "landing", "") // seed 001: "Your robot takes 2 points of damage when it lands"
	}
	if r.Active() && !t.st.Over {
		t.playKind(i, t.setup.Deck.Kind(card))
	}
	return true
}

// ---- 69 Retro-Rockets (seed 001, "Retro-Rockets": phase programmed movement, flying,
// booster, payload 3) ----
// In the register it is programmed for, when the robot's card comes up (at its
// priority), the robot flies back 2 squares for each fuel counter programmed there, then
// lands and plays its card. Several counters may go in one register. Flying, it passes
// over pits, water and flat devices; walls stop it and robots in its way are pushed
// (seed 001, Flying: flying objects are affected by walls and other robots). It lands
// where the flight ends: a pit there destroys it, a mine there goes off. Lost with fuel
// counters not yet programmed, the card explodes for 1 for each.
//
// Rulings: "fly back" keeps the robot's facing. Seed 001's Boosters section gives two
// fuel counters "two separate 2-point explosions", the card 1 point a counter: the card's
// own text is taken (devices.go, boosterFuel). On a teleporter the rockets may be used
// (seed 001, Teleporters: "options that affect movement but that don't interact with
// movement cards (e.g., Retro-Rockets) ... can be used"): the robot flies off it first,
// then its card is played where it lands.
//
// The order: "use Retro-Rockets in register 2" (one counter), "use Retro-Rockets in
// register 2 fuel 3" (three). Default: not used.
type retroRockets struct{}

func (retroRockets) Option() string   { return "Retro-Rockets" }
func (retroRockets) Phase() PhaseKind { return PhaseMovement }
func (retroRockets) Program(v View, p *PhaseProgram) bool {
	t, i := v.t, v.robot
	n := max(1, p.Answer.Steps)
	used := t.token(i, "Retro-Rockets")
	if used+n > boosterFuel["Retro-Rockets"].fuel {
		return false
	}
	t.setToken(i, "Retro-Rockets", used+n)
	p.Spent = n
	return true
}
func (retroRockets) Run(v View, p *PhaseProgram) bool {
	t, i := v.t, v.robot
	r := &t.st.Robots[i]
	card := t.cardIn(i)
	from, dir := r.Pos, r.Facing.Back()
	t.useEvent(i, "Retro-Rockets", -1, card, p.Spent)
	t.takeOff(i)
	for k := 0; k < 2*p.Spent && r.Active() && !t.st.Over; k++ {
		if !t.step(i, dir, "") {
			break
		}
	}
	t.land(i, dir, from)
	if r.Active() && !t.st.Over {
		t.playKind(i, t.setup.Deck.Kind(card))
	}
	return true
}

// ---- 70 Robo-Copter (seed 001, "Robo-Copter": turn programmed, flying) ----
// Programmed with a movement card from the hand that the robot did not program. While
// the copter is active the robot flies (flying.go: belts, gears, pits, water,
// teleporters, randomizers, currents and flat devices do not touch it), and in each
// register, when its card comes up, it first plays the copter's card, then its own. It
// lands at the end of the turn. Stopped by a wall or a robot it cannot push while playing
// the copter's card, or pushed by a robot or a pusher, it loses the copter's card and
// lands, and plays the rest of its program on foot. While the copter is active the first
// point of damage the robot takes destroys the card instead (it is exchanged to prevent
// that point) and the robot lands.
//
// Rulings: the copter's card is played at the priority of the robot's own card, just
// before it, in every register where the robot plays a card. "Blocked" is any move of
// the robot's own that a wall, a robot it cannot push, a pusher or The Big One stops:
// the copter's card, its program card, or a card played by Crab Legs, Dual Processor,
// Overload Override or Homing Device (seed 001 does not limit "blocked" to the copter's
// card, and "executes the rest of its program" follows it). The blocked card's squares
// left are not played, as for any wall. A level's edge stops a flying robot as a wall
// does (flying.go), so it blocks the copter the same way: the robot lands on its level
// and walks on from there. A robot landing on a pit falls; landing on another robot
// comes down on the next open square (scenarios 756, 757).
//
// Ruling R-AD-COPTER-RAMP (seed 001, Flying: flying robots "don't ... go down ramps,
// although they can fly up ramps"; Ramps: a robot stopped on the extra square moves back
// 1 square): a flying robot whose card ends on a ramp's extra square stays there,
// flying, and flies on from there with its next card; it slides back down only once it
// has landed: at the end of the turn, or when the copter goes down earlier (blocked,
// pushed, or the card destroyed by damage), as any robot stopped on the extra square.
// Scenarios 907, 908.
//
// Ruling R-AD-COPTER-LAND (seed 001, Landing; Flying): at the end of the turn the robot
// lands where it is: on a pit it falls (909), in water nothing happens (915; flying, it
// was never slowed by water either). It cannot be over another robot then (it pushes
// the robots it flies into, and belts never carry a robot under it), so the next open
// square of seed 001's Landing is Big Jet's case (794). Flying off the board it is
// destroyed at once: the board's edge is not among what flying robots ignore (914).
//
// The order: "use Robo-Copter P490" (a Move or Back Up card of the hand, not in the
// program). Default: not used.
type roboCopter struct{}

func (roboCopter) Option() string { return "Robo-Copter" }

func (roboCopter) StartTurn(v View) {
	t, i := v.t, v.robot
	r := &t.st.Robots[i]
	if r.Power == PowerDown || t.devs.flying[i] {
		return
	}
	a := t.ask(i, "Robo-Copter", "fly this turn, playing this movement card before each register's card?")
	if !a.Use() || a.Card == 0 || t.setup.Deck.Kind(a.Card).Steps() == 0 {
		return
	}
	if !slices.Contains(t.cards.hand[i], a.Card) || slices.Contains(r.Registers[:], a.Card) || r.Flywheel == a.Card {
		return
	}
	t.devs.copter[i] = a.Card
	t.takeOff(i)
	t.useEvent(i, "Robo-Copter", -1, a.Card, 0)
}

// Damage: the first point a robot with an active copter takes is prevented by
// destroying the card (seed 001: "you must exchange (and destroy) this option to prevent
// the first point of damage"); the robot lands.
func (roboCopter) Damage(v View, h *Harm) {
	t, i := v.t, v.robot
	if t.devs.copter[i] == 0 || h.Amount <= 0 || !t.holds(i, "Robo-Copter") {
		return
	}
	h.Amount--
	k := slices.Index(t.st.Robots[i].Options, "Robo-Copter")
	t.removeOption(i, k)
	t.emit(Event{Kind: EvPrevented, Robot: t.st.Robots[i].Name, Option: "Robo-Copter", Cause: h.Cause})
	t.copterDown(i)
}

// copterMove plays robot i's copter card before its own card.
func (t *turn) copterMove(i int) {
	r := &t.st.Robots[i]
	card := t.devs.copter[i]
	steps, dir := t.setup.Deck.Kind(card).Steps(), r.Facing
	if steps < 0 {
		steps, dir = -steps, dir.Back()
	}
	t.useEvent(i, "Robo-Copter", -1, card, steps)
	for k := 0; k < steps && r.Active() && !t.st.Over; k++ {
		if !t.step(i, dir, "") {
			t.copterDown(i) // seed 001: "If blocked ... your robot lands"
			return
		}
	}
}

// dampCopters lands every robot flying by Robo-Copter that stands inside an Option
// Damping Field now. Ruling R-AD-COPTER-DAMPED (seed 001, Option Damping Field: options in
// its reach "are deactivated or cannot be used"): a deactivated copter cannot hold its
// robot up, so the robot comes down where it is (a pit there: it falls), the copter's
// card is discarded as when it is blocked, and it plays the rest of its program on foot,
// outside the field too. The field is looked at when each robot's card comes up, when
// the robots have moved and when the board's elements have acted; a robot that flies
// into the field and out again within one card is not caught (scenario 1005).
func (t *turn) dampCopters() {
	if t.armed.damping == 0 || !t.devs.air {
		return
	}
	for i := range t.st.Robots {
		if t.devs.copter[i] != 0 && t.damped(i) {
			t.emit(Event{Kind: EvVoid, Robot: t.st.Robots[i].Name, Option: "Robo-Copter", Amount: t.register, Cause: "damping-field"})
			t.copterDown(i)
		}
	}
}

// copterDown ends robot i's copter flight: the copter's card is discarded and it lands.
func (t *turn) copterDown(i int) {
	if t.devs.copter[i] == 0 {
		return
	}
	t.devs.copter[i] = 0
	t.land(i, t.st.Robots[i].Facing, t.st.Robots[i].Pos)
}

// ---- 58 Goo Dropper (seed 001, "Goo Dropper": phase programmed gadget, flat device,
// launcher, payload 3) ----
// Before the robots move in the register it is programmed for, the robot drops goo on
// its square. A robot that is not flying and moves onto the goo (or over it) is held
// there: it turns freely but cannot leave the square until the goo is destroyed, which
// happens when robots on it have tried to move four squares in all (four Move 1s, or a
// Back Up and a Move 3); a push while on the goo counts as a square tried, and fails.
// Goo cannot be dropped on a pit, a conveyor belt, water, a current or a teleporter: such
// a program is illegal and the goo is kept. Pushers do not move goo.
//
// Rulings: every square of a movement card played on goo counts, whatever stops it
// after; when the fourth square tried destroys the goo, the card's squares left after it
// are moved. A robot that moves onto goo with squares of its card left spends them on
// the goo at once. The robot that dropped it has until the lasers to leave (the
// launcher's grace); still on it then, it is held. Every way a robot moves counts the
// same: a program card, Crab Legs' step aside, a Dual Processor or Overload Override
// card, a Homing Device's move (scenarios 764, 873), or a push. A push is counted square
// by square, for the pusher as for the pushed (issue 23): each square of a pusher's move
// into a held robot is a try, and once the goo is destroyed the squares left push
// (scenario 1021). The tries are counted on the goo (Device.Tries), whichever robots made
// them. Only one goo a square.
//
// The order: "use Goo Dropper in register 2". Default: none dropped.
type gooDropper struct{}

// gooTries is how many squares tried destroy goo (seed 001: "attempting to move a total
// of four squares").
const gooTries = 4

func (gooDropper) Option() string   { return "Goo Dropper" }
func (gooDropper) Phase() PhaseKind { return PhaseGadget }
func (gooDropper) Program(v View, p *PhaseProgram) bool {
	return programPayload(v, p, DevGoo)
}
func (gooDropper) Run(v View, p *PhaseProgram) bool {
	t, i := v.t, v.robot
	at := t.st.Robots[i].Pos
	sq := t.board().At(at)
	if sq.Floor == FloorPit || sq.Belt.Kind != NoBelt || sq.Water || sq.Current != 0 || sq.Teleporter ||
		t.deviceAt(at, DevTeleporter) >= 0 || t.deviceAt(at, DevGoo) >= 0 {
		return false // seed 001: "Goo cannot be placed on pits, conveyor belts, water, currents, or teleporters"
	}
	return t.placeDevice(i, DevGoo, at) >= 0
}

// stuckInGoo: robot i tries to leave its square by a square; if goo holds it there, the
// try is counted on the goo (which a fourth try destroys) and stuckInGoo reports true: the
// robot does not move this square.
func (t *turn) stuckInGoo(i int) bool {
	r := &t.st.Robots[i]
	if t.flying(i) || !r.Active() {
		return false
	}
	for d := range t.st.Devices {
		dev := &t.st.Devices[d]
		if dev.Kind != DevGoo || dev.Pos != r.Pos || !t.meets(i, dev) || (dev.fresh && dev.Owner == r.Name) {
			continue
		}
		dev.Tries++
		t.emit(Event{Kind: EvBlocked, Robot: r.Name, From: t.pos(r.Pos), Amount: dev.Tries, Cause: "goo"})
		if dev.Tries >= gooTries {
			t.removeDevice(d, "worn")
		}
		return true
	}
	return false
}
