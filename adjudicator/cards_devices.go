package adjudicator

import "slices"

// The Armed and Dangerous cards that bring devices onto the board (seed 001, Complete
// Listing of Option Cards), one type a card, on the machinery of devices.go and
// explosions.go. Each cites its card in seed 001; rulings are written beside the code.
// Implemented: Buzz Bomb (52), Drone Launcher (55), Missile Launcher (62).

// deviceEffects is the device cards whose effects are implemented (effects.go lists
// them after the other Armed and Dangerous cards).
func deviceEffects() []Effect {
	return []Effect{buzzBomb{}, droneLauncher{}, missileLauncher{}}
}

// flatTrigger applies flat device d to robot i, which moved onto or over it or (atLasers)
// stands on it at the end of its launcher's grace. It reports whether the device left
// the board.
func (t *turn) flatTrigger(d, i int, atLasers bool) bool {
	switch t.st.Devices[d].Kind {
	case DevMine:
		t.blowDevice(d, "collision")
		return true
	}
	return false
}

// nearDevices sets off the proximity mines within a square of robot i (seed 001,
// Proximity Mine). None are launched yet: no card lays them.
func (t *turn) nearDevices(i int) {}

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
	d := t.launch(i, DevMissile)
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
// collide by moving into a robot, or a robot into them.
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
	d := t.launch(i, DevDrone)
	if d < 0 {
		return false
	}
	target := t.st.Robots[j].Pos
	dev := &t.st.Devices[d]
	dev.Target, dev.Facing = &target, g.Dir
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
				t.emit(Event{Kind: EvUse, Robot: dev.Owner, Option: "Drone Launcher", Other: t.st.Robots[j].Name, Cause: "target", To: t.pos(q)})
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
		if d = t.launch(i, DevBuzzBomb); d < 0 {
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
