package adjudicator

import (
	"slices"
	"strings"
)

// The Armed and Dangerous option cards (seed 001, "Complete Listing of Option Cards";
// numbered 47–72 in data/options.txt). Each card is one type here citing its entry in
// seed 001, listed in armedEffects; a card joins the dealt decks once its scenarios are
// in (optiondeck.go, scenarioTested).
//
// Here: Big Gun (47), Bio Option (50), Converter (53), Crab Legs (54), Dual Processor
// (56), Frog Legs (57), Homing Device (59), Interceptor (60), Option Damping Field (63),
// Overload Override (64), Reengineering Unit (67), Reflector (68), Scrambler Bomb (71),
// Self-Destruct (72). The cards that launch devices and the boosters and flying cards are
// in cards_devices.go; the phase-programming machinery and the primary card are in
// phases.go.

// armedEffects is the Armed and Dangerous cards whose effects are implemented.
func armedEffects() []Effect {
	return []Effect{
		bigGun{}, interceptor{}, reengineeringUnit{}, reflector{},
		optionDampingField{}, crabLegs{}, dualProcessor{}, overloadOverride{}, selfDestruct{},
		converter{}, frogLegs{}, homingDevice{}, scramblerBomb{}, bioOption{},
	}
}

// ---- 47 Big Gun (seed 001, "Big Gun": optional weapon, launcher, payload 5) ----
// Instead of the main laser the robot may fire the Big Gun: 2 damage to the first robot
// in the laser's line, and the robot itself is pushed back 1 square (away from where it
// fires). It holds five shots; spent, the launcher stays on the robot (seed 001,
// Launchers: "After a launcher's payload has been spent, the launcher remains attached"),
// so it can still be discarded to prevent damage, but fires no more.
//
// Ruling: the Big Gun may be fired with no robot in its line (the shot is wasted on a
// wall or past the board's edge) and the recoil still pushes the robot back: seed 001
// asks for no target. Ruling: the recoil is a push like a board pusher's (robots behind
// are pushed, a wall stops it), carried out after every laser's damage, with the other
// weapons' pushes (View.Later), in seating order.
//
// The decision, asked in phase d of each register while shots remain: fire the Big Gun
// instead of the laser ("use Big Gun", optionally "on NAME" to fire only at that robot);
// the default is the laser.
type bigGun struct{}

func (bigGun) Option() string { return "Big Gun" }

// bigGunShots is the Big Gun's payload (seed 001: "Payload/capacity: 5").
const bigGunShots = 5

func (bigGun) Replace(v View, g Gun) bool {
	t, i := v.t, v.robot
	shots := t.token(i, "Big Gun")
	if shots >= bigGunShots {
		return false
	}
	j := t.firstInLine(i, g.Dir)
	var a Answer
	if j >= 0 {
		a = t.askAbout(i, "Big Gun", "fire the Big Gun instead of your laser?", j, Impact{Damage: 2})
	} else {
		a = t.ask(i, "Big Gun", "fire the Big Gun (no robot in its line) instead of your laser?")
	}
	if !a.Use() || (a.Target != "" && (j < 0 || t.st.Robots[j].Name != a.Target)) {
		return false
	}
	shots++
	t.setToken(i, "Big Gun", shots)
	t.useEvent(i, "Big Gun", j, 0, shots)
	if j >= 0 {
		t.hits = append(t.hits, hit{target: j, amount: 2, shooter: i, from: g.Dir.Back(), cause: "big-gun"})
	}
	v.Later(func() { t.shove(i, g.Dir.Back(), "big-gun") })
	return true
}

// ---- 67 Reengineering Unit (seed 001, "Reengineering Unit": run time) ----
// When the robot pushes another robot it may exchange this card for one of the pushed
// robot's options: the pushed robot gets the Reengineering Unit, the pusher the option.
//
// Ruling: only a push that moves the other robot counts ("pushes"), whether the pusher
// is moving under its own card or being moved; a push held by a wall does not. Ruling:
// a card keeps what is on it (shots fired, damage absorbed) when it changes hands. The
// exchange is at once, in the middle of the move: what the cards do from then on is
// their new holders'.
//
// The decision, asked at each push while the robot holds the card: which option to take
// ("use Reengineering Unit take Brakes", or "use Reengineering Unit" for the pushed
// robot's oldest option; "on NAME" to do it only to that robot). The default is no
// exchange. An option the pushed robot does not hold is no exchange.
type reengineeringUnit struct{}

func (reengineeringUnit) Option() string { return "Reengineering Unit" }

func (reengineeringUnit) Rams(v View, j int, d Dir, moved bool) {
	t, i := v.t, v.robot
	if !moved || j == i || !t.holds(i, "Reengineering Unit") {
		return
	}
	other := &t.st.Robots[j]
	if len(other.Options) == 0 {
		return
	}
	a := t.askAbout(i, "Reengineering Unit", "exchange the Reengineering Unit for one of its options?", j, Impact{})
	if !a.Use() || (a.Target != "" && a.Target != other.Name) {
		return
	}
	take := other.Options[0]
	if a.Option != "" {
		k := slices.IndexFunc(other.Options, func(o string) bool { return strings.EqualFold(o, a.Option) })
		if k < 0 {
			return
		}
		take = other.Options[k]
	}
	if take == "Reengineering Unit" {
		return // nothing to gain: the same card for the same card
	}
	t.swapOptions(i, "Reengineering Unit", j, take)
	t.useEvent(i, "Reengineering Unit", j, 0, 0)
	t.emit(Event{Kind: EvOptionLose, Robot: t.st.Robots[i].Name, Option: "Reengineering Unit", Cause: "exchanged", Other: other.Name})
	t.emit(Event{Kind: EvOptionGain, Robot: t.st.Robots[i].Name, Option: take, Cause: "exchanged", Other: other.Name})
	t.emit(Event{Kind: EvOptionLose, Robot: other.Name, Option: take, Cause: "exchanged", Other: t.st.Robots[i].Name})
	t.emit(Event{Kind: EvOptionGain, Robot: other.Name, Option: "Reengineering Unit", Cause: "exchanged", Other: t.st.Robots[i].Name})
}

// swapOptions gives robot i's option mine to robot j and j's option theirs to i, each
// card keeping its place in its new holder's list and its tokens. The slices are copied
// first (a Simulator's robots share them with the state they forecast).
func (t *turn) swapOptions(i int, mine string, j int, theirs string) {
	ri, rj := &t.st.Robots[i], &t.st.Robots[j]
	ki, kj := slices.Index(ri.Options, mine), slices.Index(rj.Options, theirs)
	if ki < 0 || kj < 0 {
		return
	}
	tokI, tokJ := t.token(i, mine), t.token(j, theirs)
	ri.Options, rj.Options = slices.Clone(ri.Options), slices.Clone(rj.Options)
	ri.Options[ki], rj.Options[kj] = theirs, mine
	t.fxOK[i], t.fxOK[j] = false, false
	t.setToken(i, theirs, tokJ)
	t.setToken(j, mine, tokI)
}

// armedTurn is what the Armed and Dangerous cards keep for one turn.
type armedTurn struct {
	reflect [MaxRobots]int8 // the side Reflector faces, +1 (0: not asked; front)
	// progs is the phase programs laid this turn (phases.go).
	progs []PhaseProgram
	// damping: robots whose Option Damping Field is on this turn (bit per index); the
	// distances from each are the turn's blastDistances (blastcache.go).
	damping  uint16
	dampOnly [1]Effect
	// frog is the robot jumping with Frog Legs now, index+1 (0: none).
	frog int8
	// homing: each robot's Homing Device target, index+1; homingOn: the robots homing in
	// this turn (bit per index).
	homing   [MaxRobots]int8
	homingOn uint16
	// homer is the robot (index+1) making its homing move now: its moves are the
	// homing move's, not its register card's (cardOf, moveCause).
	homer int8
}

// ---- 68 Reflector (seed 001, "Reflector": turn programmed) ----
// For the whole turn the Reflector faces one side of the robot: front, right, back or
// left. A laser that hits the robot on that side does its damage as usual and is also
// reflected back to its source.
//
// Ruling: the reflected beam goes back along the laser's own path, which the laser has
// just shown to be clear, so it hits the robot that fired it with the damage the laser
// brought to the Reflector (cause "reflector"), after every laser of the register has
// done its damage. A board laser's reflection goes back into its emitter and hurts
// nobody. Ruling: lasers are the board's lasers and the robots' lasers (main, rear,
// double, power); the other weapons (Turbo Blaster, Big Gun ...) are not reflected, and
// neither is a reflected beam, so two Reflectors facing each other do not send a beam
// back and forth. Ruling: a shield or a coating that stops a laser's damage before it
// reaches the Reflector (the effect order) leaves less to reflect.
//
// The decision, asked when the programs are loaded: which side the Reflector faces ("use
// Reflector facing back"; a compass direction is taken relative to the robot's facing
// then). The default is the front.
type reflector struct{}

func (reflector) Option() string { return "Reflector" }

func (reflector) StartTurn(v View) {
	t, i := v.t, v.robot
	a := t.ask(i, "Reflector", "which side does the Reflector face this turn?")
	side := 0
	switch {
	case a.HasSide:
		side = a.Side
	case a.HasDir:
		side = int((a.Dir - t.st.Robots[i].Facing + 4) & 3)
	}
	t.armed.reflect[i] = int8(side) + 1
}

func (reflector) Damage(v View, h *Harm) {
	t, i := v.t, v.robot
	if h.Amount <= 0 || !h.Sided || (h.Cause != "laser" && h.Cause != "robot-laser") {
		return
	}
	r := &t.st.Robots[i]
	side := 0
	if s := t.armed.reflect[i]; s > 0 {
		side = int(s - 1)
	}
	if h.Side(r.Facing) != side {
		return
	}
	t.useEvent(i, "Reflector", h.By, 0, h.Amount)
	if h.By < 0 {
		return // back into a board laser's emitter
	}
	back := Harm{Amount: h.Amount, Cause: "reflector", From: h.From.Back(), Sided: true, By: i}
	shooter := h.By
	v.Later(func() {
		if t.st.Robots[shooter].Active() {
			t.hurt(shooter, back, t.st.Robots[i].Name)
		}
	})
}

// ---- 60 Interceptor (seed 001, "Interceptor": optional weapon) ----
// Instead of the main laser the robot may put its intercept token on the robot its laser
// would hit (moving it from any robot that had it). After the cards are dealt on a later
// turn it may exchange hands with the robot that has the token, and takes the token
// back. Both hands keep their sizes: the robot with fewer cards gives its whole hand to
// the other and draws as many at random from the other's hand (equal hands are simply
// exchanged).
//
// The token is kept on the card (Robot.Tokens: the target's seat + 1; 0 none).
//
// Ruling: "subsequent turns" begin with the deal that ends the turn the token was placed
// in: that deal's hands are the next turn's. Ruling: the draw at random is by the game's
// seed and the turn (streamIntercept), so a replay draws the same cards. Ruling: a robot
// with no hand (powered down, out of the race, or not yet back) cannot be exchanged with;
// the token stays. A target out of the race loses the token.
//
// The decisions: in phase d, place the token instead of firing ("use Interceptor", "on
// NAME" for one robot only); at the deal, exchange hands ("use Interceptor" again: one
// standing order does both). The default is neither: the laser fires, hands are kept.
type interceptor struct{}

func (interceptor) Option() string { return "Interceptor" }

func (interceptor) Replace(v View, g Gun) bool {
	t, i := v.t, v.robot
	j := t.firstInLine(i, g.Dir)
	if j < 0 {
		return false
	}
	a := t.askAbout(i, "Interceptor", "put your intercept token on it instead of firing your laser?", j, Impact{})
	if !a.Use() || (a.Target != "" && a.Target != t.st.Robots[j].Name) {
		return false
	}
	t.setToken(i, "Interceptor", j+1)
	t.useEvent(i, "Interceptor", j, 0, 0)
	return true
}

func (interceptor) AfterHands(v View) {
	t, i := v.t, v.robot
	k := t.token(i, "Interceptor")
	if k <= 0 || k > len(t.st.Robots) || k-1 == i {
		return
	}
	j := k - 1
	me, them := &t.st.Robots[i], &t.st.Robots[j]
	if them.Out {
		t.setToken(i, "Interceptor", 0)
		return
	}
	if len(me.Hand) == 0 || len(them.Hand) == 0 {
		return
	}
	a := t.askAbout(i, "Interceptor", "exchange hands with the robot holding your intercept token?", j, Impact{})
	if !a.Use() || (a.Target != "" && a.Target != them.Name) {
		return
	}
	few, many := me, them
	if len(them.Hand) < len(me.Hand) {
		few, many = them, me
	}
	n := len(few.Hand)
	pool := slices.Clone(many.Hand)
	rng := turnRNG(t.setup.Seed, t.st.Turn, streamIntercept)
	rng.Shuffle(len(pool), func(x, y int) { pool[x], pool[y] = pool[y], pool[x] })
	drawn, kept := pool[:n:n], pool[n:]
	newMany := append(slices.Clone(few.Hand), kept...)
	few.Hand, many.Hand = slices.Clone(drawn), newMany
	slices.Sort(few.Hand)
	slices.Sort(many.Hand)
	t.setToken(i, "Interceptor", 0)
	t.useEvent(i, "Interceptor", j, 0, n)
}

// ---- 54 Crab Legs (seed 001, "Crab Legs": phase programmed, movement) ----
// A Move 1 and a Rotate Left (or Right) in one register move the robot one square to its
// left (or right) without turning. The Move 1 is the primary card (seed 001, Primary
// Card: "the movement card is the primary card"), so the move comes at its priority.
//
// Ruling: the sideways square is a movement card's square (it pushes robots, a wall
// stops it, water negates it, Brakes may hold it: the card is a Move 1). On a
// teleporter the program is illegal and the Move 1 is played alone (seed 001,
// Programming, its own example).
//
// The order: "use Crab Legs in register 3 P070" with the Move 1 in the program's
// register 3, or the other way round (the rotate card programmed, the Move 1 named).
type crabLegs struct{}

func (crabLegs) Option() string   { return "Crab Legs" }
func (crabLegs) Phase() PhaseKind { return PhaseMovement }
func (crabLegs) PlacesCards()     {}

// crabSide is the turn (1 right, 3 left) a Crab Legs pair moves towards, 0 when the cards
// are not a Move 1 and a Rotate Left or Right.
func crabSide(t *turn, cards []int) int {
	if len(cards) != 2 {
		return 0
	}
	a, b := t.setup.Deck.Kind(cards[0]), t.setup.Deck.Kind(cards[1])
	if b == CardMove1 {
		a, b = b, a
	}
	switch {
	case a != CardMove1:
		return 0
	case b == CardLeft:
		return 3
	case b == CardRight:
		return 1
	}
	return 0
}

func (crabLegs) Program(v View, p *PhaseProgram) bool {
	return !p.Empty && crabSide(v.t, p.Cards) != 0
}

func (crabLegs) Run(v View, p *PhaseProgram) bool {
	t, i := v.t, v.robot
	side := crabSide(t, p.Cards)
	if side == 0 {
		return false
	}
	r := &t.st.Robots[i]
	t.useEvent(i, "Crab Legs", -1, p.Primary, p.Register)
	t.moveSquares(i, r.Facing.Rotate(side), t.effectSteps(i, CardMove1, 1))
	return true
}

// ---- 56 Dual Processor (seed 001, "Dual Processor": phase programmed, movement) ----
// Two cards in one register, by seed 001's table: Move 2 with Rotate Right or Left moves
// 1 then turns; Move 3 with Rotate Right or Left moves 2 then turns; Move 3 with U-Turn
// moves 1 then turns about. The movement card is the primary card.
//
// Ruling: the move is the movement card's, shortened: options that change a movement
// card see the card and the shortened distance (Brakes, which acts on a Move 1, does
// not act on a Move 2 moving 1). On a teleporter the program is illegal and the movement
// card is played alone.
//
// The order: "use Dual Processor in register 2 P080" (the Move 2 or 3 in the program's
// register 2, the turning card named; or the other way round).
type dualProcessor struct{}

func (dualProcessor) Option() string   { return "Dual Processor" }
func (dualProcessor) Phase() PhaseKind { return PhaseMovement }
func (dualProcessor) PlacesCards()     {}

// dualPlan is what a Dual Processor pair does: the movement card, how far it moves and
// the turn after; ok false when the pair is not in seed 001's table.
func dualPlan(t *turn, cards []int) (move CardKind, steps int, rot Rotation, ok bool) {
	if len(cards) != 2 {
		return 0, 0, 0, false
	}
	a, b := t.setup.Deck.Kind(cards[0]), t.setup.Deck.Kind(cards[1])
	if b == CardMove2 || b == CardMove3 {
		a, b = b, a
	}
	switch {
	case a == CardMove2 && (b == CardLeft || b == CardRight):
		return a, 1, b.Rotation(), true
	case a == CardMove3 && (b == CardLeft || b == CardRight):
		return a, 2, b.Rotation(), true
	case a == CardMove3 && b == CardUTurn:
		return a, 1, b.Rotation(), true
	}
	return 0, 0, 0, false
}

func (dualProcessor) Program(v View, p *PhaseProgram) bool {
	_, _, _, ok := dualPlan(v.t, p.Cards)
	return !p.Empty && ok
}

func (dualProcessor) Run(v View, p *PhaseProgram) bool {
	t, i := v.t, v.robot
	kind, steps, rot, ok := dualPlan(t, p.Cards)
	if !ok {
		return false
	}
	r := &t.st.Robots[i]
	t.useEvent(i, "Dual Processor", -1, p.Primary, p.Register)
	t.moveSquares(i, r.Facing, t.effectSteps(i, kind, steps))
	if r.Active() && !t.st.Over {
		r.Facing = r.Facing.Rotate(int(rot))
		t.emit(Event{Kind: EvTurn, Robot: r.Name, Card: p.Primary, Facing: t.dir(r.Facing)})
	}
	return true
}

// ---- 64 Overload Override (seed 001, "Overload Override": phase programmed, movement) ----
// The robot plays two cards in one register, one after the other, or leaves a register
// unprogrammed, and takes 1 damage each time it does. An unprogrammed register still
// holds a card from the hand as its primary card (it is not played; it is what locks,
// seed 001's example of the Move 2 locked in register 5).
//
// Rulings: the two cards are played in the order the order names them (one named: the
// program's card first, then it), all at the priority of the primary card. The primary
// card is the movement card; of two movement cards (or two turns) the one named
// "primary", else the first played. The damage is dealt as the option is used, before
// the cards are played (cause "overload-override", from no side). On a teleporter two
// cards are illegal (the primary card alone is played, no damage); an empty register
// is not (no movement card is played). The program survives the card's loss (seed 001,
// Destruction) and still costs its point of damage.
//
// The orders: "use Overload Override in register 3 P490" (the program's card of register
// 3, then P490), "use Overload Override in register 3 P670 P490 primary P490" (both
// named, in the order played), "use Overload Override in register 5 empty".
type overloadOverride struct{}

func (overloadOverride) Option() string   { return "Overload Override" }
func (overloadOverride) Phase() PhaseKind { return PhaseMovement }
func (overloadOverride) PlacesCards()     {}

func (overloadOverride) Program(v View, p *PhaseProgram) bool {
	return p.Empty || len(p.Cards) == 2
}

func (overloadOverride) Run(v View, p *PhaseProgram) bool {
	t, i := v.t, v.robot
	r := &t.st.Robots[i]
	n := len(p.Cards)
	if p.Empty {
		n = 0
	}
	t.useEvent(i, "Overload Override", -1, p.Primary, n)
	t.hurt(i, Harm{Amount: 1, Cause: "overload-override", By: -1}, "")
	if p.Empty || !r.Active() {
		return true
	}
	for k, c := range p.Cards {
		if !r.Active() || t.st.Over {
			break
		}
		if k > 0 || c != p.Primary {
			t.emit(Event{Kind: EvCard, Robot: r.Name, Card: c})
		}
		t.playKind(i, t.setup.Deck.Kind(c))
	}
	return true
}

// ---- 63 Option Damping Field (seed 001, "Option Damping Field": turn programmed) ----
// Switched on for a turn, it stops every other option within 3 squares of the robot:
// such options do nothing and cannot be used. Devices already launched work as usual; a
// launcher or booster programmed for a register in which its robot is inside the field
// loses what was programmed for that register.
//
// Rulings: the 3 squares are counted as robots move, around walls, a level counting one
// more (seed 001, Explosive Damage: "All distances ... are calculated by counting squares
// as robots move"; BlastDistances with reach 3), from the robot's square as it stands at
// each moment. The holder's own other options are inside the field too (distance 0: the
// card excepts only itself). The field is on from the moment the programs are loaded to
// the end of register 5 (the end of turn, repairs, power and the deal are after it), and
// only while the robot holds the card and is on the board. A virtual robot's field
// reaches only its own options (seed 003: virtual robots do not interact). Discarding
// an option to prevent damage is not an option's effect, so it is still allowed; a
// phase program of a damped robot is illegal when it comes up (phases.go: nothing given
// back for a launcher or booster, as the card says).
//
// The decision, asked when the programs are loaded: "use Option Damping Field" switches
// it on for the turn. Default: off.
type optionDampingField struct{}

func (optionDampingField) Option() string { return "Option Damping Field" }

// dampReach is the field's radius (seed 001: "within a 3-square radius").
const dampReach = 3

func (optionDampingField) StartTurn(v View) {
	t, i := v.t, v.robot
	if !t.ask(i, "Option Damping Field", "switch the field on for this turn?").Use() {
		return
	}
	t.armed.damping |= 1 << i
	t.useEvent(i, "Option Damping Field", -1, 0, 0)
}

// damped reports whether robot i stands inside another robot's Option Damping Field, or
// its own, now.
func (t *turn) damped(i int) bool {
	if t.armed.damping == 0 || t.register == 0 && t.phase != "" {
		return false
	}
	b := t.board()
	ri := &t.st.Robots[i]
	if !ri.Active() || !b.In(ri.Pos) {
		return false
	}
	for j := range t.st.Robots {
		if t.armed.damping&(1<<j) == 0 {
			continue
		}
		rj := &t.st.Robots[j]
		if !rj.Active() || !b.In(rj.Pos) || !slices.Contains(rj.Options, "Option Damping Field") {
			continue
		}
		if j == i {
			return true
		}
		if rj.Virtual {
			continue
		}
		if abs(ri.Pos.X-rj.Pos.X)+abs(ri.Pos.Y-rj.Pos.Y) > dampReach {
			continue // every step of a blast distance costs 1 or more: no search needed
		}
		if d := t.blastDistances(b, rj.Pos, dampReach, t.register)[ri.Pos.Y*b.W+ri.Pos.X]; d >= 0 && d <= dampReach {
			return true
		}
	}
	return false
}

// dampedFx is the effects of a robot inside a field: its own Option Damping Field alone.
func (t *turn) dampedFx(i int) []Effect {
	if !t.holds(i, "Option Damping Field") {
		return nil
	}
	t.armed.dampOnly[0] = optionDampingField{}
	return t.armed.dampOnly[:1]
}

// ---- 72 Self-Destruct (seed 001, "Self-Destruct": phase programmed; explosive damage 16) ----
// Programmed for a register, the card is destroyed at the very start of that register;
// whenever it is destroyed, or discarded to prevent damage, it explodes for 16 on the
// robot's square (16, 8, 4, 2, 1 by distance: explosions.go), which destroys the robot
// unless it prevents 7 of the 16 points.
//
// Rulings: Self-Destruct is neither a gadget nor a movement option (seed 001 gives it
// no type), so it shares its register with any. Every way the card leaves its robot
// destroys it (shot away by Target Control, lost with the destroyed robot, discarded to
// prevent damage, given up as a fourth option, scrapped at a chop shop); only the
// Reengineering Unit's exchange moves it intact. Programmed for a register after the
// card has already gone, the program does nothing more: the card it would destroy has
// exploded already. The explosion of a virtual robot's card hurts only that robot (seed
// 001, Devices: virtual devices).
//
// The order: "use Self-Destruct in register 4". Default: not programmed.
type selfDestruct struct{}

func (selfDestruct) Option() string   { return "Self-Destruct" }
func (selfDestruct) Phase() PhaseKind { return PhaseOther }

// selfDestructPower is its explosive damage (seed 001: "explodes for 16 points").
const selfDestructPower = 16

func (selfDestruct) Program(v View, p *PhaseProgram) bool { return true }

func (selfDestruct) Run(v View, p *PhaseProgram) bool {
	t, i := v.t, v.robot
	if !t.holds(i, "Self-Destruct") {
		return true // destroyed already, and exploded then
	}
	t.useEvent(i, "Self-Destruct", -1, 0, p.Register)
	t.discardOption(i, "Self-Destruct", "self-destruct") // Lost explodes it
	return true
}

func (selfDestruct) Lost(v View, tokens int) {
	t, i := v.t, v.robot
	t.explode(t.optionBlast(i, "Self-Destruct", selfDestructPower))
}

// optionBlast is the explosion of robot i's option card on its square, as its card
// leaves it (cause "lost"); a virtual robot's hurts only itself.
func (t *turn) optionBlast(i int, option string, power int) Blast {
	r := &t.st.Robots[i]
	b := Blast{At: r.Pos, Power: power, By: i, Source: option, Why: "lost"}
	if r.Virtual {
		b.Only = i + 1
	}
	return b
}

// frogLand ends robot i's Frog Legs jump: it stops flying and comes down where it is
// (seed 001, Landing): a pit there destroys it. Flying robots push robots as they go, so
// its square is never another robot's.
func (t *turn) frogLand(i int) {
	t.armed.frog = 0
	t.devs.flying[i], t.devs.level[i] = false, false
	t.checkFall(i)
}

// ---- 57 Frog Legs (seed 001, "Frog Legs": run time) ----
// Playing a Move 2 or Move 3, the robot may jump: it flies its 2 or 3 squares and then
// lands. Flying (seed 001, Flying), it passes over pits and is not slowed by water it
// starts in; walls stop it and it pushes robots in its way as it would walking ("In most
// cases, flying robots can push other robots"). It lands on its last square: a pit there
// destroys it.
//
// Rulings: the jump is the movement card's (Converter's extra square and Dual
// Processor's shortened move are flown too). On a teleporter the card teleports instead
// (options that change a movement card do not act there). The card cannot start a jump
// while the robot is already flying. Oil is not a floor element of seed 001: a jumping
// robot starting on oil is slowed by it as a walking one. Ruling R-AD-FROG-LEVEL (seed
// 001, Flying: flying robots "stay on the same level; they don't fall down ledges or go
// down ramps, although they can fly up ramps"; the card: "treat your robot as if it were
// flying"): the jump stays on the robot's level; a ledge's edge down, or a ramp down,
// stops it as a wall does (flying.go), and it lands there. (This project first let the
// jump drop down the ledge with the fall's 2 damage; scenario 917.)
//
// The decision, asked as a Move 2 or Move 3 is played: "use Frog Legs" (with "in register
// N" or a condition). Default: no jump.
type frogLegs struct{}

func (frogLegs) Option() string { return "Frog Legs" }

func (frogLegs) Steps(v View, k CardKind, steps int) int {
	t, i := v.t, v.robot
	if (k != CardMove2 && k != CardMove3) || steps <= 0 || t.armed.frog != 0 {
		return steps
	}
	if !t.ask(i, "Frog Legs", "jump: fly this move over what lies between, then land?").Use() {
		return steps
	}
	if t.flying(i) {
		return steps // seed 001, Frog Legs: "cannot be activated while your robot is flying"
	}
	t.armed.frog = int8(i + 1)
	t.devs.flying[i] = true                  // devices.go: flying robots meet no flat device
	t.devs.level[i], t.devs.air = true, true // flying.go: it stays on its level
	t.useEvent(i, "Frog Legs", -1, 0, steps)
	return steps
}

// ---- 53 Converter (seed 001, "Converter") ----
// Each point of damage the robot takes becomes an energy counter on the card instead.
// The robot's next movement card spends one counter and goes a square further: Move 1
// moves 2, Move 2 moves 3, Move 3 moves 4, Back Up backs up 2. A third counter makes the
// card explode for 2 on the robot's square (2 there, 1 a square away) and it is
// discarded; destroyed or discarded to prevent damage, it explodes once for 1 for each
// counter on it.
//
// Rulings: the card is not a choice: every point becomes a counter while the card is
// there (it works before options are discarded to prevent damage, after the shields and
// coatings). The third counter takes its point like the others and then the card
// explodes; any rest of that hit is damage as usual, and the explosion's 2 is dealt
// after it. A movement card that moves no square (Brakes held it) or teleports (seed 001,
// Teleporters) spends no counter. Every way the card leaves the robot but an exchange
// destroys it, as Self-Destruct's ruling says. The counters are Robot.Tokens.
type converter struct{}

func (converter) Option() string { return "Converter" }

// converterMax is how many counters the card holds (seed 001: "more than two energy
// counters ... explodes for 2 points").
const converterMax = 2

func (converter) Damage(v View, h *Harm) {
	t, i := v.t, v.robot
	for h.Amount > 0 && t.holds(i, "Converter") {
		n := t.token(i, "Converter") + 1
		t.absorb(i, "Converter", 1, h)
		t.setToken(i, "Converter", n)
		if n > converterMax {
			t.discardOption(i, "Converter", "overloaded") // Lost: explodes for 2
			return
		}
	}
}

func (converter) Steps(v View, k CardKind, steps int) int {
	t, i := v.t, v.robot
	n := t.token(i, "Converter")
	if n <= 0 || steps == 0 || k.Steps() == 0 {
		return steps
	}
	t.setToken(i, "Converter", n-1)
	if steps < 0 {
		steps--
	} else {
		steps++
	}
	t.useEvent(i, "Converter", -1, 0, steps)
	return steps
}

func (converter) Lost(v View, tokens int) {
	t, i := v.t, v.robot
	if tokens > converterMax {
		t.explode(t.optionBlast(i, "Converter", 2)) // seed 001: "explodes for 2 points of damage"
		return
	}
	for range tokens {
		t.explode(t.optionBlast(i, "Converter", 1)) // "1 point of damage for each energy counter"
	}
}

// ---- 59 Homing Device (seed 001, "Homing Device": optional weapon and turn programmed) ----
// As a weapon: instead of the main laser the robot may put its homing token on the robot
// its laser would hit (taking it from any robot that had it). Turn programmed: switched
// on for a turn, the robot ignores its program and homes in on the robot holding its
// token, at priority 850 in every register: it moves forward 3 squares if that brings it
// closer to its target (only as far as the target when the target is nearer than 3),
// else, or when a wall blocks its way forward, it turns left. If the target is destroyed
// while homing is on, the robot plays the rest of its own program.
//
// Rulings: "closer" is measured as robots move, around walls, a level counting one more
// square (seed 001, Explosive Damage: "All distances ... as robots move"), from the
// square the forward move would end on (walls stop it there; robots in the way are
// pushed, so they are not counted) to the target's square; a target that cannot be
// reached at all is never nearer, so the robot turns. The forward move is no movement
// card: water, oil and the options that change movement cards do not touch it, and it
// goes at priority 850, above every program card. Homing needs the token on a robot in
// the race; it lasts the turn while the robot holds the card (a turn-programmed card
// works while held), and ends for good when the target is destroyed. The program is
// written as usual: it is what a locked register keeps and what the robot plays once
// homing ends. The token is kept on the card (Robot.Tokens: the target's seat + 1).
//
// The decisions: in phase d, tag instead of firing ("use Homing Device tag", "on NAME"
// for one robot only; "use Homing Device" alone means the same); when the programs are
// loaded, home in ("use Homing Device home"). Defaults: neither.
type homingDevice struct{}

func (homingDevice) Option() string { return "Homing Device" }

// homingPriority is the priority homing moves at (seed 001: "Priority of this movement
// is 850").
const homingPriority = 850

func (homingDevice) Replace(v View, g Gun) bool {
	t, i := v.t, v.robot
	j := t.firstInLine(i, g.Dir)
	if j < 0 {
		return false
	}
	a := t.askMode(i, "Homing Device", "put your homing token on it instead of firing your laser?", "tag", true, j, Impact{})
	if !a.Use() || (a.Target != "" && a.Target != t.st.Robots[j].Name) {
		return false
	}
	t.setToken(i, "Homing Device", j+1)
	t.useEvent(i, "Homing Device", j, 0, 0)
	return true
}

func (homingDevice) StartTurn(v View) {
	t, i := v.t, v.robot
	k := t.token(i, "Homing Device")
	if k <= 0 || k > len(t.st.Robots) || k-1 == i {
		return
	}
	j := k - 1
	if t.st.Robots[j].Out {
		t.setToken(i, "Homing Device", 0)
		return
	}
	if !t.st.Robots[j].Active() || t.st.Robots[i].Power == PowerDown {
		return
	}
	a := t.askMode(i, "Homing Device", "home in on the robot with your homing token this turn?", "home", false, j, Impact{})
	if !a.Use() || (a.Target != "" && a.Target != t.st.Robots[j].Name) {
		return
	}
	t.armed.homing[i] = int8(j + 1)
	t.armed.homingOn |= 1 << i
	t.useEvent(i, "Homing Device", j, homingPriority, 0)
}

// homingNow reports whether robot i homes in this register; it ends homing for good when
// the target was destroyed or the card lost.
func (t *turn) homingNow(i int) bool {
	if t.armed.homingOn&(1<<i) == 0 {
		return false
	}
	j := int(t.armed.homing[i]) - 1
	if j < 0 || !t.st.Robots[j].Active() || !t.holds(i, "Homing Device") || t.damped(i) {
		if j < 0 || !t.st.Robots[j].Active() || !t.holds(i, "Homing Device") {
			t.armed.homingOn &^= 1 << i // seed 001: "execute the remainder of your program"
		}
		return false
	}
	return true
}

// priorityOf is the priority robot i moves at in this register: its card's, or 850 while
// it homes in.
func (t *turn) priorityOf(i int) int {
	if t.armed.homingOn&(1<<i) != 0 && t.homingNow(i) {
		return homingPriority
	}
	return t.cardIn(i)
}

// homeIn plays robot i's homing move for this register.
func (t *turn) homeIn(i int) {
	r := &t.st.Robots[i]
	j := int(t.armed.homing[i]) - 1
	target := t.st.Robots[j].Pos
	b := t.board()
	dist := t.blastDistances(b, target, len(b.Squares), t.register)
	at := func(p Pos) int {
		if !b.In(p) {
			return -1
		}
		return dist[p.Y*b.W+p.X]
	}
	now := at(r.Pos)
	n := 3
	if now >= 0 && now < n {
		n = now
	}
	end, steps := r.Pos, 0
	for steps < n && !b.Blocked(end, r.Facing) && b.In(end.Step(r.Facing)) {
		end = end.Step(r.Facing)
		steps++
	}
	t.useEvent(i, "Homing Device", j, homingPriority, steps)
	if steps > 0 && now >= 0 && at(end) >= 0 && at(end) < now {
		if t.setup.slow {
			t.startMove(i, 0)
		}
		t.armed.homer = int8(i + 1)
		defer func() { t.armed.homer = 0 }()
		for s := 0; s < steps && r.Active() && !t.stopMove && !t.st.Over; s++ {
			if len(t.st.Devices) > 0 && t.stuckInGoo(i) {
				continue // seed 001, Goo Dropper: each square tried counts, as in moveSquares
			}
			t.devs.gooPush = false
			if !t.step(i, r.Facing, "") {
				if t.devs.gooPush {
					continue // seed 001, Goo Dropper: a push of a robot held by goo is a square tried, square by square
				}
				if t.devs.copter[i] != 0 {
					t.copterDown(i) // seed 001, Robo-Copter: blocked, it lands (cards_devices.go)
				}
				break
			}
		}
		if t.setup.slow {
			t.endMove()
		}
		return
	}
	r.Facing = r.Facing.Rotate(3)
	t.emit(Event{Kind: EvTurn, Robot: r.Name, Facing: t.dir(r.Facing)})
}

// ---- 71 Scrambler Bomb (seed 001, "Scrambler Bomb": phase programmed gadget, flat
// device, launcher, payload 1) ----
// In the register it is programmed for, before the robots move, the robot leaves its
// scrambler token on its square. At the start of the next turn the bomb goes off: every
// robot within 6 squares of it has its program thrown away and plays cards at random for
// the whole turn; the bomb is then gone. A pit or a crusher destroys it without setting
// it off; belts, gears and currents carry it as any flat device (devices.go).
//
// Rulings: "at random" is the turn's draw pile (the cards nobody was dealt, shuffled by
// the game's seed and the turn; cards_crashburn.go, drawFromPile), one card for each
// register, as a randomizer square deals (seed 001, Randomizers): so a replay plays the
// same cards and no card is in play twice. A register locked by damage keeps its card
// (a locked card is not part of the program written this turn). Powered-down robots run
// no program and are not touched. The 6 squares are counted as robots move, around walls
// (seed 001: "All distances ... as robots move"). The robot that laid it is scrambled
// too when it is within reach. A program laid with the cards that were thrown away
// (Crab Legs' second card) is void, its primary card having been replaced (phases.go).
// A scrambler laid by a virtual robot scrambles only that robot. In a forecast the new
// cards cannot be known: the robot is shown playing its own, with the swaps marked.
//
// The order: "use Scrambler Bomb in register 4". Default: not laid.
type scramblerBomb struct{}

func (scramblerBomb) Option() string   { return "Scrambler Bomb" }
func (scramblerBomb) Phase() PhaseKind { return PhaseGadget }
func (scramblerBomb) Program(v View, p *PhaseProgram) bool {
	return programPayload(v, p, DevScrambler)
}
func (scramblerBomb) Run(v View, p *PhaseProgram) bool {
	return v.t.placeDevice(v.robot, DevScrambler, v.t.st.Robots[v.robot].Pos) >= 0
}

// scramblerReach is how far a scrambler bomb reaches (seed 001: "within 6 squares").
const scramblerReach = 6

// scramblersGoOff sets off every scrambler bomb on the board, laid in an earlier turn,
// when the programs of the turn are loaded.
func (t *turn) scramblersGoOff() {
	b := t.board()
	for d := 0; d < len(t.st.Devices); d++ {
		dev := t.st.Devices[d]
		if dev.Kind != DevScrambler {
			continue
		}
		t.removeDevice(d, "used")
		d--
		if !b.In(dev.Pos) {
			continue
		}
		dist := t.blastDistances(b, dev.Pos, scramblerReach, 0)
		owner := t.ownerOf(&dev)
		if owner >= 0 {
			t.useEvent(owner, "Scrambler Bomb", -1, 0, 0)
		}
		for j := range t.st.Robots {
			r := &t.st.Robots[j]
			if !r.Active() || r.Power == PowerDown || !b.In(r.Pos) || !t.meets(j, &dev) || !t.acts(j) {
				continue
			}
			if k := dist[r.Pos.Y*b.W+r.Pos.X]; k < 0 || k > scramblerReach {
				continue
			}
			t.scramble(j)
		}
	}
}

// scramble gives robot j a card at random in each register not locked.
func (t *turn) scramble(j int) {
	r := &t.st.Robots[j]
	for reg := 1; reg <= Registers; reg++ {
		if r.IsLocked(reg) || r.Registers[reg-1] == 0 {
			continue
		}
		old := r.Registers[reg-1]
		t.register = reg
		if t.single >= 0 {
			t.emit(Event{Kind: EvSwapped, Robot: r.Name, Option: "Scrambler Bomb", Amount: old})
			t.register = 0
			continue // a forecast cannot know the card
		}
		if c := t.drawFromPile(); c != 0 {
			r.Registers[reg-1] = c
			t.emit(Event{Kind: EvSwapped, Robot: r.Name, Option: "Scrambler Bomb", Card: c, Amount: old})
		}
		t.register = 0
	}
}

// ---- 50 Bio Option (seed 001, "Bio Option") ----
// A robot receiving the card at once takes another option and puts it on the Bio
// Option (Robot.Bio, as the Bio-Bots variant keeps it: variants.go). Each time the
// robot powers down, and when it re-enters from its archive still holding the card, the
// option on it is discarded and another drawn. Discarding either card to prevent damage
// discards both.
//
// Rulings (those of the Bio-Bots variant, variants.go, where seed 001 says no more): the
// option on the Bio Option works like any held option and does not count against the
// limit of options held (the Bio Option card does). Every other way the Bio Option card
// leaves the robot (destroyed, lost with the robot, given up as a fourth card) takes the
// option on it too; the option on it lost some other way leaves the Bio Option empty
// until the next power down or re-entry. A Bio Option received by the Reengineering
// Unit's exchange comes empty and draws at the next power down or re-entry; the robot
// that gave it away keeps what was on it as an ordinary card. With an empty option deck
// the Bio Option stays empty. Nothing to order: it always works.
type bioOption struct{}

func (bioOption) Option() string { return BioOption }

func (bioOption) Lost(v View, tokens int) {
	t, i := v.t, v.robot
	r := &t.st.Robots[i]
	if r.Bio != "" && slices.Contains(r.Options, r.Bio) {
		t.discardOption(i, r.Bio, "bio-option") // what rode on it goes with it
	}
	r.Bio = ""
}

// receivedBio: robot i has just received card; the Bio Option card at once takes another
// option onto it (seed 001: "When you receive this option, immediately take another
// option and place it on Bio Option").
func (t *turn) receivedBio(i int, card string) {
	if card != BioOption || t.setup.Rules.BioBots || t.st.Robots[i].Bio != "" {
		return
	}
	t.bioDraw(i, "bio-option")
}
