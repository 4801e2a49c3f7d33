package adjudicator

import (
	"fmt"
	"slices"
)

// Devices (seed 001, Option Card Overview: Devices, Launchers, Boosters, Flying).
//
// A device is a token an option card brings onto the board: a mine, goo, a bridge, a
// portable teleporter, The Big One, a drone, a missile, a buzz bomb. Devices live in the
// State (State.Devices), so they are saved with the game, checked when a saved turn is
// read (CheckState) and replayed like everything else. This file keeps what every device
// shares; what a device does when it is met is its card's, in cards_devices.go.
//
//   - Flat devices (mines, goo, bridges, portable teleporters) lie on the floor: pushers
//     and robots do not push them, other devices and flying robots do not set them off.
//     Flying devices (drones, missiles, buzz bombs) are above the floor: belts, gears,
//     water, pits, teleporters, randomizers, currents and flat devices do not touch them.
//     The Big One is neither (seed 001, Devices).
//   - Devices do not take damage, lasers pass them (The Big One excepted), and options do
//     not act on them (seed 001, Devices).
//   - A device acts when a robot moves into, onto or over it, or it moves into a robot.
//     It is active as soon as it is launched, except for the robot that launched it,
//     which has until the lasers of that register to move away (the launcher's grace):
//     a robot still on the square at the lasers sets it off.
//   - A device launched by a virtual robot is virtual: it meets only its launcher, and it
//     is removed when the launcher becomes real. A virtual robot meets every real device.
//   - A launcher places its device on the launching robot's square facing the robot's
//     way unless the card says otherwise; spent, the launcher stays on the robot. A
//     launcher or booster lost (destroyed, or discarded to prevent damage) before all its
//     explosives were launched explodes once for each one left, on the robot's square
//     (seed 001, Launchers, Boosters).
//
// Ruling: the tokens are as many as seed 001's Game Components counts (3 mines, 3
// missiles, 1 Big One ...): with every token of a kind on the board a launcher cannot
// launch another (its payload is kept), and a saved state with more is refused.

// DeviceKind names a kind of device.
type DeviceKind string

const (
	DevMine          DeviceKind = "mine"           // Mine Layer
	DevProximityMine DeviceKind = "proximity-mine" // Proximity Mine
	DevGoo           DeviceKind = "goo"            // Goo Dropper
	DevBridge        DeviceKind = "bridge"         // Bridge Layer
	DevTeleporter    DeviceKind = "teleporter"     // Portable Teleporter
	DevBigOne        DeviceKind = "big-one"        // The Big One
	DevDrone         DeviceKind = "drone"          // Drone Launcher
	DevMissile       DeviceKind = "missile"        // Missile Launcher
	DevBuzzBomb      DeviceKind = "buzz-bomb"      // Buzz Bomb
	DevScrambler     DeviceKind = "scrambler"      // Scrambler Bomb (cards_armed.go)
)

// deviceSpec is what seed 001 says of a kind of device (its card's header and text).
type deviceSpec struct {
	kind    DeviceKind
	option  string // the launcher
	flat    bool
	flying  bool
	power   int // explosive damage; 0 none
	payload int // seed 001, the card's "Payload/capacity"
	tokens  int // seed 001, Game Components: the tokens in the box
	// Board elements: a crusher destroys the device, exploding it when crushBlows; a pit
	// destroys flat and neither devices, without explosion; pushers push it (pushed) or
	// set it off (pushBlows).
	crushBlows, pushed, pushBlows bool
	// priorities are the priorities printed on the tokens, one a token, for devices that
	// move in the robots' move segment at their own priority (drones, missiles).
	priorities []int
	symbol     byte // its letter in the text pictures (render.go)
}

// Ruling: the priorities printed on the drone and missile tokens are not in seed 001's
// text. This project numbers them between the program cards' priorities (which are
// tens, rules README, Program deck), so no card ties with a token: missiles 845, 645,
// 445 and drones 835, 635, 435, the first token of each kind above every card.
var deviceSpecs = []deviceSpec{
	{kind: DevMine, option: "Mine Layer", flat: true, power: 4, payload: 3, tokens: 3, crushBlows: true, symbol: 'm'},
	{kind: DevProximityMine, option: "Proximity Mine", flat: true, power: 4, payload: 3, tokens: 3, crushBlows: true, symbol: 'p'},
	{kind: DevGoo, option: "Goo Dropper", flat: true, payload: 3, tokens: 3, symbol: 'g'},
	{kind: DevBridge, option: "Bridge Layer", flat: true, payload: 2, tokens: 3, symbol: 'b'},
	{kind: DevTeleporter, option: "Portable Teleporter", flat: true, payload: 1, tokens: 1, symbol: 't'},
	{kind: DevBigOne, option: "The Big One", power: 64, payload: 1, tokens: 1, crushBlows: true, pushed: true, symbol: 'O'},
	{kind: DevDrone, option: "Drone Launcher", flying: true, power: 2, payload: 3, tokens: 3, crushBlows: true, pushBlows: true, priorities: []int{835, 635, 435}, symbol: 'd'},
	{kind: DevMissile, option: "Missile Launcher", flying: true, power: 4, payload: 3, tokens: 3, crushBlows: true, pushBlows: true, priorities: []int{845, 645, 445}, symbol: 'M'},
	{kind: DevBuzzBomb, option: "Buzz Bomb", flying: true, power: 4, payload: 3, tokens: 3, crushBlows: true, pushed: true, symbol: 'z'},
	// seed 001, Scrambler Bomb: flat device, launcher, payload 1, one scrambler token;
	// "Pits and crushers destroy scrambler bombs without setting them off".
	{kind: DevScrambler, option: "Scrambler Bomb", flat: true, payload: 1, tokens: 1, symbol: 'x'},
}

// specOf is the spec of kind k, nil for an unknown kind.
func specOf(k DeviceKind) *deviceSpec {
	for i := range deviceSpecs {
		if deviceSpecs[i].kind == k {
			return &deviceSpecs[i]
		}
	}
	return nil
}

// launcherSpec is the spec of the device the option launches, nil for none.
func launcherSpec(option string) *deviceSpec {
	for i := range deviceSpecs {
		if deviceSpecs[i].option == option {
			return &deviceSpecs[i]
		}
	}
	return nil
}

// DeviceKinds lists the device kinds, for readers that must refuse an unknown one.
func DeviceKinds() []DeviceKind {
	out := make([]DeviceKind, len(deviceSpecs))
	for i := range deviceSpecs {
		out[i] = deviceSpecs[i].kind
	}
	return out
}

// DeviceSymbol is the letter kind k is drawn with in the text pictures; '?' unknown.
func DeviceSymbol(k DeviceKind) byte {
	if s := specOf(k); s != nil {
		return s.symbol
	}
	return '?'
}

// Flying reports whether devices of kind k fly (seed 001, Devices).
func (k DeviceKind) Flying() bool { s := specOf(k); return s != nil && s.flying }

// Flat reports whether devices of kind k are flat (seed 001, Devices).
func (k DeviceKind) Flat() bool { s := specOf(k); return s != nil && s.flat }

// Device is one device on the board.
type Device struct {
	// ID numbers the device in its game, from 1, in the order devices were launched.
	ID     int        `json:"id"`
	Kind   DeviceKind `json:"kind"`
	Owner  string     `json:"owner"` // the robot that launched it
	Pos    Pos        `json:"pos"`
	Facing Dir        `json:"facing"`
	// Virtual: launched by a virtual robot; it meets only its owner (seed 001, Devices).
	Virtual bool `json:"virtual,omitempty"`
	// Priority is the priority on the token of a device that moves at its own priority
	// (drones, missiles); 0 for the others.
	Priority int `json:"priority,omitempty"`
	// Target is where a drone's target counter lies (seed 001, Drone Launcher).
	Target *Pos `json:"target,omitempty"`
	// Tries counts the squares robots tried to move off this goo (seed 001, Goo
	// Dropper: four destroy it).
	Tries int `json:"tries,omitempty"`
	// Program is a buzz bomb's five cards for this turn (seed 001, Buzz Bomb).
	Program []int `json:"program,omitempty"`

	// fresh: launched in this register, so its owner has until the lasers to leave
	// (seed 001, Devices). Never saved: between turns no device is fresh.
	fresh bool
}

// deviceAt is the index in State.Devices of the first device of kind k at p, -1 none.
func (t *turn) deviceAt(p Pos, k DeviceKind) int {
	for d := range t.st.Devices {
		if t.st.Devices[d].Pos == p && t.st.Devices[d].Kind == k {
			return d
		}
	}
	return -1
}

// ownerOf is the index of device d's owner, -1 when it is not in the game.
func (t *turn) ownerOf(d *Device) int { return t.st.Robot(d.Owner) }

// meets reports whether robot i and device d can interact: a virtual device meets only
// its owner (seed 001, Devices).
func (t *turn) meets(i int, d *Device) bool {
	return !d.Virtual || t.st.Robots[i].Name == d.Owner
}

// launch puts a device of kind k for robot i on its square, facing its way, and counts
// it on the launcher (Robot.Tokens). It returns the device's index, or -1 when the
// payload is spent or every token of the kind is on the board.
// target is a drone's target counter (nil for other devices): the launch event carries
// it, so a picture of the turn can draw the counter from the log alone.
func (t *turn) launch(i int, k DeviceKind, target *Pos) int {
	sp := specOf(k)
	used := t.token(i, sp.option)
	if used >= sp.payload {
		return -1
	}
	d := t.placeAimed(i, k, t.st.Robots[i].Pos, target)
	if d >= 0 {
		t.setToken(i, sp.option, used+1)
	}
	return d
}

// placeDevice puts a device of kind k for robot i at p (its square, unless the card says
// otherwise), facing the robot's way, with no count on the launcher (a phase-programmed
// launcher counted it when programmed). It returns the device's index, or -1 when every
// token of the kind is on the board.
func (t *turn) placeDevice(i int, k DeviceKind, at Pos) int { return t.placeAimed(i, k, at, nil) }

// placeAimed is placeDevice for a device with a target counter (a drone's), nil none.
func (t *turn) placeAimed(i int, k DeviceKind, at Pos, target *Pos) int {
	sp := specOf(k)
	r := &t.st.Robots[i]
	prio := 0
	inPlay := 0
	var taken []int
	for d := range t.st.Devices {
		if t.st.Devices[d].Kind == k {
			inPlay++
			taken = append(taken, t.st.Devices[d].Priority)
		}
	}
	if inPlay >= sp.tokens {
		t.emit(Event{Kind: EvUse, Robot: r.Name, Option: sp.option, Cause: "no-token"})
		return -1
	}
	for _, p := range sp.priorities {
		if !slices.Contains(taken, p) {
			prio = p
			break
		}
	}
	id := 1
	for _, d := range t.st.Devices {
		id = max(id, d.ID+1)
	}
	dev := Device{ID: id, Kind: k, Owner: r.Name, Pos: at, Facing: r.Facing, Virtual: r.Virtual, Priority: prio, Target: target, fresh: true}
	t.st.Devices = append(slices.Clip(t.st.Devices), dev)
	ev := Event{Kind: EvLaunch, Robot: r.Name, Option: sp.option, Device: string(k), To: t.pos(at), Facing: t.dir(r.Facing), Amount: id}
	if target != nil {
		ev.Target = t.pos(*target)
	}
	t.emit(ev)
	return len(t.st.Devices) - 1
}

// devicesIntoPits: a device that is not flying, left by a robot flying over a pit (Robo-
// Copter), falls in: pits destroy mines, The Big One, portable teleporters and scrambler
// bombs without setting them off (seed 001, each card; Devices: "Devices, however, are
// usually destroyed by pits"). A bridge lies over its pit by design. Found by a random
// game: The Big One was left standing on a pit (scenario 1018).
func (t *turn) devicesIntoPits() {
	b := t.board()
	for d := 0; d < len(t.st.Devices); d++ {
		dev := &t.st.Devices[d]
		if dev.Kind.Flying() || dev.Kind == DevBridge || !b.In(dev.Pos) || !b.Deadly(dev.Pos) || t.bridged(dev.Pos) {
			continue
		}
		t.removeDevice(d, "pit")
		d--
	}
}

// removeDevice takes device d off the board (why: pit, crusher, off-board, exploded,
// real ...). Indexes after d shift down.
func (t *turn) removeDevice(d int, why string) {
	dev := t.st.Devices[d]
	if dev.Kind == DevBigOne {
		t.devs.bigRamp = 0
	}
	t.st.Devices = append(t.st.Devices[:d:d], t.st.Devices[d+1:]...)
	t.emit(Event{Kind: EvDeviceGone, Robot: dev.Owner, Device: string(dev.Kind), From: t.pos(dev.Pos), Amount: dev.ID, Cause: why})
}

// blowDevice explodes device d where it is and takes it off the board; why says what
// set it off.
func (t *turn) blowDevice(d int, why string) {
	dev := t.st.Devices[d]
	sp := specOf(dev.Kind)
	t.removeDevice(d, "exploded")
	only := 0
	if dev.Virtual {
		if o := t.ownerOf(&dev); o >= 0 {
			only = o + 1
		}
	}
	t.explode(Blast{At: dev.Pos, Power: sp.power, By: t.ownerOf(&dev), Source: string(dev.Kind), Why: why, Only: only})
}

// lostExplosives: robot i lost option (its used-up count was used) with explosives not
// yet launched; each explodes separately on the robot's square (seed 001, Launchers:
// "any unlaunched devices capable of explosive damage will explode"; Boosters). Called
// by removeOption for every way an option is lost; an option exchanged (Reengineering
// Unit) is not lost.
func (t *turn) lostExplosives(i int, option string, used int) {
	left, power := unlaunchedExplosives(option, used)
	if left <= 0 || power <= 0 {
		return
	}
	r := &t.st.Robots[i]
	only := 0
	if r.Virtual {
		only = i + 1 // ruling: a virtual robot's explosion meets nobody else
	}
	for k := 0; k < left; k++ {
		t.explode(Blast{At: r.Pos, Power: power, By: i, Source: option, Why: "lost", Only: only})
	}
}

// unlaunchedExplosives is how many explosions the option makes when lost with used of
// its payload used up, and their power.
func unlaunchedExplosives(option string, used int) (n, power int) {
	if sp := launcherSpec(option); sp != nil && sp.power > 0 {
		return sp.payload - used, sp.power
	}
	if b, ok := boosterFuel[option]; ok {
		return b.fuel - used, b.power
	}
	return 0, 0
}

// boosterFuel is, for each booster, its fuel counters and the power each unused one
// explodes with when the booster is lost (seed 001, Boosters; Big Jet: "explode for 4
// points"). Ruling: Retro-Rockets' card says 1 point per counter and the Boosters
// section's example says "two separate 2-point explosions" for two counters; the card
// is the more specific text, so each counter explodes for 1.
var boosterFuel = map[string]struct{ fuel, power int }{
	"Big Jet":       {1, 4},
	"Retro-Rockets": {3, 1},
}

// endGrace ends the launcher's grace at the lasers (seed 001, Devices: "a device will not
// be 'active' for the launching robot until the Resolve Laser Fire segment"); a flat
// device its owner still stands on goes off now.
func (t *turn) endGrace() {
	for d := 0; d < len(t.st.Devices); d++ {
		dev := &t.st.Devices[d]
		if !dev.fresh {
			continue
		}
		dev.fresh = false
		if !dev.Kind.Flat() {
			continue
		}
		o := t.ownerOf(dev)
		if o < 0 || !t.st.Robots[o].Active() || t.flying(o) {
			continue
		}
		op := t.st.Robots[o].Pos
		if op == dev.Pos || (dev.Kind == DevProximityMine && t.withinOne(op, dev.Pos)) {
			if t.flatTrigger(d, o, true) {
				d--
			}
		}
	}
}

// flying reports whether robot i flies now (flying.go).
func (t *turn) flying(i int) bool { return t.devs.flying[i] }

// devicesTurn is what the device machinery keeps for one turn.
type devicesTurn struct {
	copter [MaxRobots]int  // the movement card on a robot's active Robo-Copter (cards_devices.go)
	air    bool            // a robot took off this turn: steps go through stepFloor (flying.go)
	level  [MaxRobots]bool // the robot flies by a card that keeps it on its level (flying.go)
	flying [MaxRobots]bool // the robot flies now (flying.go)
	dir    [MaxRobots]Dir  // the way the robot last moved onto a square
	moved  []int           // ids of the devices that moved in this register's move segment
	// bigRamp: The Big One stands on the ramp leaving its square towards Dir(bigRamp-1),
	// inside a move (as turn.ramp for robots); there is one Big One token.
	bigRamp uint8
	// meetDefer > 0 while a step that pushes robots is being placed: the robots placed
	// meet the devices on their squares only once the whole step is placed (meetQ holds
	// them, in the order placed; stepFloor, floormove.go).
	meetDefer int
	meetQ     []int
	// gooPush: the last step failed because the robot it pushed is held by goo; the
	// try counted on the goo, and the pusher's move goes on trying square by square
	// (seed 001, Goo Dropper: cards_devices.go).
	gooPush bool
}

// checkDevices adds to ps every reason the state's devices are impossible: an unknown
// kind, an owner not in the game, off the board, a device no floor can hold there, a
// drone's target or a token priority that cannot be, more devices of a kind than it has
// tokens, a launcher that has launched more than its payload, a buzz bomb's program
// that is not five cards of the deck.
func (s *Setup) checkDevices(st *State, add func(format string, a ...any), useCard func(who string, c int)) {
	b := s.Course.Board
	count := map[DeviceKind]int{}
	ids := map[int]bool{}
	prios := map[int]bool{}
	for k, d := range st.Devices {
		who := fmt.Sprintf("device %d (%s)", k+1, d.Kind)
		sp := specOf(d.Kind)
		if sp == nil {
			add("%s: %q is not a device (want one of %v)", who, d.Kind, DeviceKinds())
			continue
		}
		if d.ID < 1 || ids[d.ID] {
			add("%s: id %d is not a new number from 1", who, d.ID)
		}
		ids[d.ID] = true
		count[d.Kind]++
		o := st.Robot(d.Owner)
		switch {
		case o < 0:
			add("%s: owner %q is not a robot of the game", who, d.Owner)
		case d.Virtual && !st.Robots[o].Virtual:
			add("%s: virtual, but its owner %s is real (virtual devices go when their robot becomes real)", who, d.Owner)
		}
		if d.Facing > West {
			add("%s: facing %d is not a direction", who, d.Facing)
		}
		if !b.In(d.Pos) {
			add("%s: square %v is off the board", who, d.Pos)
			continue
		}
		pit := b.Deadly(d.Pos)
		switch {
		case d.Kind == DevBridge && !pit:
			add("%s: a bridge lies over a pit, and %v is none (seed 001, Bridge Layer)", who, d.Pos)
		case d.Kind != DevBridge && !sp.flying && pit && !slices.ContainsFunc(st.Devices, func(o Device) bool { return o.Kind == DevBridge && o.Pos == d.Pos }):
			// A bridge is open floor for the rest of the game (seed 001, Bridge Layer):
			// a device may lie on one (scenario 1018).
			add("%s: on the pit at %v (pits destroy devices)", who, d.Pos)
		}
		if len(sp.priorities) > 0 {
			if !slices.Contains(sp.priorities, d.Priority) || prios[d.Priority] {
				add("%s: priority %d is not a free %s token's (%v)", who, d.Priority, d.Kind, sp.priorities)
			}
			prios[d.Priority] = true
		} else if d.Priority != 0 {
			add("%s: a %s moves at no priority of its own", who, d.Kind)
		}
		if d.Target != nil && (d.Kind != DevDrone || !b.In(*d.Target)) {
			add("%s: a target counter at %v belongs to a drone on the board", who, *d.Target)
		}
		if d.Kind == DevDrone && d.Target == nil {
			add("%s: a drone without its target counter", who)
		}
		if d.Tries != 0 && (d.Kind != DevGoo || d.Tries < 0 || d.Tries >= 4) {
			add("%s: %d tries to leave it (only goo counts them, and 4 destroy it)", who, d.Tries)
		}
		if d.Program != nil {
			if d.Kind != DevBuzzBomb || len(d.Program) != Registers {
				add("%s: a program of %d cards (only a buzz bomb has one, of %d cards)", who, len(d.Program), Registers)
			}
			for _, c := range d.Program {
				useCard(who, c)
			}
		}
	}
	for _, sp := range deviceSpecs {
		if count[sp.kind] > sp.tokens {
			add("%d devices of kind %s on the board, but there are %d tokens (seed 001, Game Components)", count[sp.kind], sp.kind, sp.tokens)
		}
	}
	for _, r := range st.Robots {
		for k, o := range r.Options {
			if sp := launcherSpec(o); sp != nil && k < len(r.Tokens) && (r.Tokens[k] < 0 || r.Tokens[k] > sp.payload) {
				add("robot %s: %s has launched %d of a payload of %d", r.Name, o, r.Tokens[k], sp.payload)
			}
			if bf, ok := boosterFuel[o]; ok && k < len(r.Tokens) && (r.Tokens[k] < 0 || r.Tokens[k] > bf.fuel) {
				add("robot %s: %s has used %d of %d fuel counters", r.Name, o, r.Tokens[k], bf.fuel)
			}
		}
	}
}

// metDevices applies to robot i, just arrived on its square (moving, pushed, carried,
// teleported), the devices there: a flying device it runs into explodes (seed 001,
// Missile Launcher, Drone Launcher, Buzz Bomb: "collides with a robot"); a flat device
// acts on a robot that is not flying (seed 001, Devices: flat devices "aren't activated
// by ... flying robots"). The robot's own device launched this register does not act on
// it until the lasers (the launcher's grace).
func (t *turn) metDevices(i int) {
	r := &t.st.Robots[i]
	for d := 0; d < len(t.st.Devices) && r.Active(); d++ {
		dev := &t.st.Devices[d]
		if dev.Pos != r.Pos || !t.meets(i, dev) || (dev.fresh && dev.Owner == r.Name) {
			continue
		}
		switch {
		case dev.Kind.Flying():
			t.collide(d, i, t.devs.dir[i].Back())
			d--
		case dev.Kind.Flat() && !t.flying(i):
			if t.flatTrigger(d, i, false) {
				d--
			}
		}
	}
	if r.Active() && !t.flying(i) {
		t.nearDevices(i) // proximity mines: cards_devices.go
	}
}

// collide: flying device d and robot i meet on a square; the device explodes there. A
// drone pushes the robot a square away from it first (seed 001, Drone Launcher: "the
// drone explodes immediately, pushing the robot 1 square away from the drone"): away
// is the drone's way (away, the direction the drone travelled, or the robot's way back
// when the robot ran into it).
func (t *turn) collide(d, i int, away Dir) {
	dev := t.st.Devices[d]
	t.blowDevice(d, "collision")
	if dev.Kind == DevDrone && t.st.Robots[i].Active() {
		t.shove(i, away, "drone")
	}
}

// moveDevices moves, in the robots' move segment, the devices that move at their own
// priority (drones, missiles; buzz bombs at their card's) whose priority is above
// above and that have not moved in this register, highest first (seed 001, Missile
// Launcher: "Missiles move at the priority shown on the token").
func (t *turn) moveDevices(above int) {
	for {
		best, bp := -1, above
		for d := range t.st.Devices {
			dev := &t.st.Devices[d]
			if p := t.devicePriority(dev); p > bp && !slices.Contains(t.devs.moved, dev.ID) {
				best, bp = d, p
			}
		}
		if best < 0 {
			return
		}
		t.devs.moved = append(t.devs.moved, t.st.Devices[best].ID)
		t.moveDevice(best)
		if t.st.Over {
			return
		}
	}
}

// devicePriority is the priority device dev moves at in this register, 0 for none.
func (t *turn) devicePriority(dev *Device) int {
	switch dev.Kind {
	case DevMissile:
		return dev.Priority
	case DevDrone:
		if dev.Target != nil && *dev.Target != dev.Pos {
			return dev.Priority
		}
	case DevBuzzBomb:
		if t.register >= 1 && len(dev.Program) == Registers {
			return dev.Program[t.register-1]
		}
	}
	return 0
}

// moveDevice moves device d its register's move.
func (t *turn) moveDevice(d int) {
	switch t.st.Devices[d].Kind {
	case DevMissile:
		t.flyMissile(d)
	case DevDrone:
		t.flyDrone(d)
	case DevBuzzBomb:
		t.flyBuzzBomb(d)
	}
}

// edgeStops reports whether a flying device at p cannot pass the edge towards dir: a
// wall, a closed swing door, or the edge between two levels (seed 001, Flying: flying
// objects stay on their level).
func (t *turn) edgeStops(p Pos, dir Dir) bool {
	return t.board().Blocked(p, dir) || (t.setup.fx != 0 && t.tileStopsBeam(p, dir))
}

// flyStep moves flying device d one square towards dir (why: its own move, a pusher).
// It reports whether the device is still on the board afterwards. Running into a wall
// or a robot it explodes when it explodes on collision (missiles, drones, buzz bombs:
// seed 001); off the board it is gone. Other flying devices are passed through, flat
// devices are flown over.
func (t *turn) flyStep(d int, dir Dir, why string) bool {
	dev := &t.st.Devices[d]
	if t.edgeStops(dev.Pos, dir) {
		t.blowDevice(d, "collision") // seed 001: "If the missile collides with a robot or wall"
		return false
	}
	from := dev.Pos
	dev.Pos = dev.Pos.Step(dir)
	if !t.board().In(dev.Pos) {
		t.removeDevice(d, "off-board")
		return false
	}
	t.emit(Event{Kind: EvDeviceMove, Robot: dev.Owner, Device: string(dev.Kind), From: t.pos(from), To: t.pos(dev.Pos), Facing: t.dir(dev.Facing), Amount: dev.ID, Cause: why})
	for j := range t.st.Robots {
		q := &t.st.Robots[j]
		if q.Active() && q.Pos == dev.Pos && t.meets(j, dev) {
			t.collide(d, j, dir)
			return false
		}
	}
	if k := t.deviceAt(dev.Pos, DevBigOne); k >= 0 {
		// Ruling: The Big One is neither flat nor flying, so a flying device meets it
		// (seed 001, Flying: flying objects are affected by "all non-flat devices") as it
		// would a robot: it explodes; The Big One takes no damage.
		t.blowDevice(d, "collision")
		return false
	}
	return true
}

// devicesOnElements applies the board element step named to the devices, after the
// robots (seed 001, Devices: devices are treated like powered-down robots by the board
// elements; flying devices are not carried, turned or dropped). Ruling: devices move
// after the robots in each element step, and a device carried onto a robot acts on it
// as if the robot had moved onto the device.
func (t *turn) devicesOnElements(step string) {
	if len(t.st.Devices) == 0 {
		return
	}
	b := t.board()
	for d := 0; d < len(t.st.Devices); d++ {
		dev := &t.st.Devices[d]
		if !b.In(dev.Pos) {
			continue
		}
		sq := b.At(dev.Pos)
		id := dev.ID
		switch step {
		case "express", "belts", "currents":
			if dev.Kind.Flying() || dev.Kind == DevBridge || dev.Kind == DevBigOne {
				continue // The Big One rode with the robots (belts.go, carryBigOne)
			}
			var dir Dir
			turn := NoRotation
			switch {
			case step == "currents":
				c, ok := b.currentDir(dev.Pos)
				if !ok {
					continue
				}
				dir = c
			case sq.Belt.Kind == BeltExpress || (step == "belts" && sq.Belt.Kind == BeltNormal):
				dir = sq.Belt.Dir
			default:
				continue
			}
			if t.edgeStops(dev.Pos, dir) {
				continue
			}
			from := dev.Pos
			dev.Pos = dev.Pos.Step(dir)
			if b.In(dev.Pos) && step != "currents" {
				if nb := b.At(dev.Pos).Belt; nb.Kind != NoBelt && nb.TurnFrom.Has(dir.Back()) {
					switch nb.Dir {
					case dir.Right():
						turn = TurnRight
					case dir.Left():
						turn = TurnLeft
					}
					dev.Facing = dev.Facing.Rotate(int(turn))
				}
			}
			t.emit(Event{Kind: EvDeviceMove, Robot: dev.Owner, Device: string(dev.Kind), From: t.pos(from), To: t.pos(dev.Pos), Facing: t.dir(dev.Facing), Amount: id, Cause: step})
			if t.deviceLanded(d) {
				d--
			}
		case "gears":
			if sq.Gear != NoRotation && !dev.Kind.Flying() && !dev.Kind.Flat() {
				dev.Facing = dev.Facing.Rotate(int(sq.Gear))
				t.emit(Event{Kind: EvDeviceMove, Robot: dev.Owner, Device: string(dev.Kind), From: t.pos(dev.Pos), To: t.pos(dev.Pos), Facing: t.dir(dev.Facing), Amount: id, Cause: "gear"})
			}
		case "pushers":
			if !sq.Pusher.Registers.Has(t.register) {
				continue
			}
			sp := specOf(dev.Kind)
			switch {
			case sp.pushBlows:
				t.blowDevice(d, "pusher") // seed 001: pushers cause drones and missiles to explode
				d--
			case sp.pushed && sp.flying:
				if !t.flyStep(d, sq.Pusher.Dir, "pusher") {
					d--
				}
			case sp.pushed:
				if dev.Kind == DevBigOne {
					// Pushed as a robot is: a ledge from below or a ramp's foot holds it,
					// over a ledge from above it drops (levels.go's ruling for pushers).
					if _, e := t.next(slot{p: dev.Pos}, sq.Pusher.Dir); e != edgeOpen && e != edgeFall {
						continue
					}
				} else if t.edgeStops(dev.Pos, sq.Pusher.Dir) {
					continue
				}
				if dev.Kind == DevBigOne {
					// seed 001, The Big One: pushed as a robot is (cards_devices.go), so
					// the robots in front of it are pushed on first, or it stays.
					k, ok := t.bigOneShoves(id, sq.Pusher.Dir)
					if d = k; !ok {
						continue
					}
					dev = &t.st.Devices[d]
				}
				from := dev.Pos
				dev.Pos = dev.Pos.Step(sq.Pusher.Dir)
				t.emit(Event{Kind: EvDeviceMove, Robot: dev.Owner, Device: string(dev.Kind), From: t.pos(from), To: t.pos(dev.Pos), Facing: t.dir(dev.Facing), Amount: id, Cause: "pusher"})
				if t.deviceLanded(d) {
					d--
				}
			}
		case "crushers":
			if !sq.Crusher.Has(t.register) {
				continue
			}
			if specOf(dev.Kind).crushBlows {
				t.blowDevice(d, "crusher")
			} else {
				t.removeDevice(d, "crusher")
			}
			d--
		}
	}
}

// deviceLanded applies a device's new square to it after the floor moved it: off the
// board or into a pit it is gone (seed 001, Devices: "destroyed by pits"; The Big One and
// mines without exploding); onto a robot it acts on the robot. It reports whether the
// device left the board.
func (t *turn) deviceLanded(d int) bool {
	dev := &t.st.Devices[d]
	b := t.board()
	if !b.In(dev.Pos) {
		t.removeDevice(d, "off-board")
		return true
	}
	if b.Deadly(dev.Pos) && !t.bridged(dev.Pos) {
		t.removeDevice(d, "pit")
		return true
	}
	for j := range t.st.Robots {
		q := &t.st.Robots[j]
		if !q.Active() || !t.meets(j, dev) || t.flying(j) || !dev.Kind.Flat() {
			continue
		}
		if q.Pos == dev.Pos || (dev.Kind == DevProximityMine && t.withinOne(q.Pos, dev.Pos)) {
			return t.flatTrigger(d, j, false)
		}
	}
	return false
}

// withinOne reports whether p and q are the same square or neighbours with no wall
// between (seed 001, Proximity Mine: "passing within 1 square"; distances are counted
// as robots move).
func (t *turn) withinOne(p, q Pos) bool {
	if p == q {
		return true
	}
	for d := North; d <= West; d++ {
		if p.Step(d) == q {
			return !t.board().Blocked(p, d)
		}
	}
	return false
}

// bridged reports whether a bridge lies over p (seed 001, Bridge Layer: robots move over
// it "as if they were moving over open floor").
func (t *turn) bridged(p Pos) bool {
	return len(t.st.Devices) > 0 && t.deviceAt(p, DevBridge) >= 0
}

// realDevicesOnly removes robot i's virtual devices: it has become real (seed 001,
// Devices: "all virtual devices are removed from the board when the robot ceases to be
// virtual"). It reports whether a bridge under the robot went with them.
func (t *turn) realDevicesOnly(i int) (bridgeGone bool) {
	r := &t.st.Robots[i]
	for d := 0; d < len(t.st.Devices); d++ {
		if dev := &t.st.Devices[d]; dev.Virtual && dev.Owner == r.Name {
			bridgeGone = bridgeGone || (dev.Kind == DevBridge && dev.Pos == r.Pos)
			t.removeDevice(d, "real")
			d--
		}
	}
	return bridgeGone
}
