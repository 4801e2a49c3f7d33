package adjudicator

import "slices"

// The 26 option cards of Crash & Burn (seed 000, cards 21–46), one type a card. Each
// says what it does in this project's words, cites the section of seed 000 it follows,
// and writes down the rulings where the translation leaves a choice. docs/options.md
// lists the same for players, with the orders each card takes.
//
// Defaults: a card that asks its holder something does nothing when the orders say
// nothing, except where a card's comment names another default (Turret fires forward,
// De Luxe Safety Copy is used, Protection Shield keeps the side it was last set to). A card with no choice in it
// (Double Laser, Extra Memory, Power Laser, Mechanical Arm, Ramming Device, Rear Laser,
// Protective Coating, Protection Shields, Circuit Breaker) always works.

func crashBurnEffects() []Effect {
	// Order matters where one robot holds several: damage filters run immunity first,
	// then the free shields, then the coating that is used up (effects.go).
	return []Effect{
		circuitBreaker{}, protectionShields{}, protectionShield{}, protectiveCoating{},
		recompile{}, extraMemory{}, flywheel{}, conditionalCommand{}, emergencySwitch{},
		brakes{}, fourthGear{}, reverseGear{}, rammingDevice{}, gyroscopicStabilisator{},
		turret{}, doubleLaser{}, powerLaser{}, turboBlaster{}, highPressorBeam{},
		remoteControl{}, randomizer{}, tractorBeam{}, rearLaser{}, targetControl{},
		mechanicalArm{}, deLuxeSafetyCopy{},
	}
}

// cardsTurn is what the Crash & Burn cards keep for one turn.
type cardsTurn struct {
	hand      [MaxRobots][]int // each hand as dealt, before programming
	pile      []int            // the draw pile, top first (Emergency Switch, Randomizer)
	pileOK    bool
	sixthUsed [MaxRobots]bool // Conditional Command's face-down card played
	emergency [MaxRobots]bool // Emergency Switch thrown
	// safetyCopy: the robot's destruction discarded its De Luxe Safety Copy, so it
	// re-enters with no damage.
	safetyCopy [MaxRobots]bool
	remote     [MaxRobots]int8 // Remote Control: controller index+1
	jam        [MaxRobots]RegisterSet
	// Per register:
	turret     [MaxRobots]Answer // Turret's setting
	shieldSide [MaxRobots]int8   // Protection Shield's side+1; 0 not in use
	shieldUsed [MaxRobots]uint8  // bits 0–3: Protection Shields' sides used; bit 4: Protection Shield's
	rammed     [MaxRobots]uint8  // robots (bit per index) rammed by this robot this register
}

func (c *cardsTurn) newRegister() {
	clear(c.shieldUsed[:])
	clear(c.rammed[:])
}

// drawFromPile takes the top card of this turn's draw pile: every program card not dealt
// to a robot, not in a register and not on a Flywheel, shuffled by (seed, turn); 0 when
// none is left. A forecast draws nothing (ruling R-FORECAST-HIDDEN): the pile's order
// comes from the game's seed and its contents from the other robots' hands, neither of
// which a player knows.
func (t *turn) drawFromPile() int {
	if t.single >= 0 {
		return 0
	}
	c := &t.cards
	if !c.pileOK {
		c.pileOK = true
		deck := t.setup.Deck.Cards()
		deck = slices.DeleteFunc(deck, func(p int) bool {
			for i := range t.st.Robots {
				r := &t.st.Robots[i]
				if slices.Contains(c.hand[i], p) || slices.Contains(r.Registers[:], p) || r.Flywheel == p || slices.Contains(r.BombHand, p) {
					return true
				}
			}
			return false
		})
		rng := turnRNG(t.setup.Seed, t.st.Turn, streamDrawPile)
		rng.Shuffle(len(deck), func(a, b int) { deck[a], deck[b] = deck[b], deck[a] })
		stackTop(deck, t.setup.PileTop) // a scenario's "pile:" line
		c.pile = deck
	}
	if len(c.pile) == 0 {
		return 0
	}
	p := c.pile[0]
	c.pile = c.pile[1:]
	return p
}

// useEvent logs that robot i used option (on robot j, -1 for none).
func (t *turn) useEvent(i int, option string, j int, card, amount int) {
	e := Event{Kind: EvUse, Robot: t.st.Robots[i].Name, Option: option, Card: card, Amount: amount}
	if j >= 0 {
		e.Other = t.st.Robots[j].Name
	}
	t.emit(e)
}

// absorb logs that robot i's option stopped n points of damage.
func (t *turn) absorb(i int, option string, n int, h *Harm) {
	h.Amount -= n
	t.emit(Event{Kind: EvAbsorbed, Robot: t.st.Robots[i].Name, Option: option, Amount: n, Cause: h.Cause})
}

// ---- 21 Protective Coating (seed 000, "Protective Coating") ----
// The first 3 points of damage the robot takes land on the card instead; with the third
// the card is discarded. Points on the card are not damage: they neither shrink the hand
// nor lock registers. Ruling: the coating works before options are discarded to prevent
// damage, and it is not a choice.
type protectiveCoating struct{}

func (protectiveCoating) Option() string { return "Protective Coating" }

func (protectiveCoating) Damage(v View, h *Harm) {
	t, i := v.t, v.robot
	used := t.token(i, "Protective Coating")
	n := min(h.Amount, 3-used)
	if n <= 0 {
		return
	}
	t.absorb(i, "Protective Coating", n, h)
	if used+n >= 3 {
		t.discardOption(i, "Protective Coating", "used up")
	} else {
		t.setToken(i, "Protective Coating", used+n)
	}
}

// ---- 22 Emergency Switch (seed 000, "Emergency Switch") ----
// Before a register is revealed the holder may throw the switch: that register's card
// and every later one this turn are replaced by the top card of the draw pile as they
// come up. Ruling: a locked register keeps its card. Asked before each register until
// thrown; default: never thrown.
type emergencySwitch struct{}

func (emergencySwitch) Option() string { return "Emergency Switch" }

func (emergencySwitch) BeforeReveal(v View) {
	t, i := v.t, v.robot
	r := &t.st.Robots[i]
	if r.Power == PowerDown {
		return
	}
	if !t.cards.emergency[i] {
		if !t.ask(i, "Emergency Switch", "replace this register's card and every later one with the top of the draw pile?").Use() {
			return
		}
		t.cards.emergency[i] = true
		t.useEvent(i, "Emergency Switch", -1, 0, t.register)
	}
	if r.IsLocked(t.register) {
		return
	}
	if t.single >= 0 {
		// R-FORECAST-HIDDEN: the card drawn is unknown (Card 0); the forecast plays the
		// register's own card, as for a randomizer square (randomizers.go).
		t.emit(Event{Kind: EvSwapped, Robot: r.Name, Option: "Emergency Switch", Amount: r.Registers[t.register-1]})
		return
	}
	if p := t.drawFromPile(); p != 0 {
		old := r.Registers[t.register-1]
		r.Registers[t.register-1] = p
		t.emit(Event{Kind: EvSwapped, Robot: r.Name, Option: "Emergency Switch", Card: p, Amount: old})
	}
}

// ---- 23 Brakes (seed 000, "Brakes") ----
// With a Move 1 the robot may stay where it is; the card keeps its priority. Default: it
// moves.
type brakes struct{}

func (brakes) Option() string { return "Brakes" }

func (brakes) Steps(v View, k CardKind, steps int) int {
	if k != CardMove1 || steps != 1 {
		return steps
	}
	if !v.t.ask(v.robot, "Brakes", "stay put instead of this Move 1?").Use() {
		return steps
	}
	v.t.useEvent(v.robot, "Brakes", -1, 0, 0)
	return 0
}

// ---- 24 Circuit Breaker (seed 000, "Power Down") ----
// A robot that ends a turn with 3 or more damage powers down for the next turn without
// announcing it (and has its damage repaired, as any power down). While powered down it
// takes no damage (seed 000, translator's note 5: the German card protects it).
// Ruling: the power down is not a choice; a robot already down this turn decides
// whether to stay down as usual.
type circuitBreaker struct{}

func (circuitBreaker) Option() string { return "Circuit Breaker" }

func (circuitBreaker) ForcePowerDown(v View) bool {
	return v.t.st.Robots[v.robot].Damage >= 3
}

func (circuitBreaker) Damage(v View, h *Harm) {
	if v.t.st.Robots[v.robot].Power == PowerDown {
		v.t.absorb(v.robot, "Circuit Breaker", h.Amount, h)
	}
}

// PowerDowner powers a robot down for the next turn without its orders (Circuit
// Breaker); asked at the end of the turn for robots powered on.
type PowerDowner interface {
	ForcePowerDown(v View) bool
}

// ---- 25 Conditional Command (seed 000, "Conditional Command") ----
// With the program the holder lays a sixth card from its hand face down. Before any
// register is revealed it may swap it in for that register's card; the sixth card is
// discarded at the end of the turn, used or not. By mail: "use Conditional Command P490
// in register 3", or with a condition judged before each register is revealed ("use
// Conditional Command P490 if damage > 4": the first register where it holds). Rulings:
// the card named is the face-down card (it must be in the hand, not programmed, not on a
// Flywheel); it is swapped in once; a locked register cannot be swapped. Default: no
// sixth card.
type conditionalCommand struct{}

func (conditionalCommand) Option() string { return "Conditional Command" }

func (conditionalCommand) BeforeReveal(v View) {
	t, i := v.t, v.robot
	r := &t.st.Robots[i]
	if t.cards.sixthUsed[i] || r.IsLocked(t.register) || r.Power == PowerDown {
		return
	}
	a := t.ask(i, "Conditional Command", "swap your face-down sixth card (card=) into this register?")
	if !a.Use() || (a.Register != 0 && a.Register != t.register) {
		return
	}
	// The sixth card comes from the hand and is not in the program or on a Flywheel.
	if a.Card == 0 || !slices.Contains(t.cards.hand[i], a.Card) || slices.Contains(r.Registers[:], a.Card) || r.Flywheel == a.Card || t.cardPlaced(i, a.Card) {
		return
	}
	old := r.Registers[t.register-1]
	r.Registers[t.register-1] = a.Card
	t.cards.sixthUsed[i] = true
	t.emit(Event{Kind: EvSwapped, Robot: r.Name, Option: "Conditional Command", Card: r.Registers[t.register-1], Amount: old})
}

// ---- 26 Double Laser (seed 000, "Double Laser") ----
// The robot's laser does 2 damage. Works with Target Control and Power Laser.
// Ruling: it strengthens the main laser only, not a Rear Laser.
type doubleLaser struct{}

func (doubleLaser) Option() string { return "Double Laser" }

func (doubleLaser) Gun(v View, g *Gun) { g.Beams++ }

// ---- 27 Extra Memory (seed 000, "Extra Memory") ----
// One more program card each deal (10 when undamaged); 10 damage still destroys.
type extraMemory struct{}

func (extraMemory) Option() string { return "Extra Memory" }

func (extraMemory) HandSize(v View, n int) int { return n + 1 }

// ---- 28 Target Control (seed 000, "Target Control"; US "Fire Control") ----
// When the robot's main laser hits a robot, the holder may lock one of the target's
// registers or make it discard one of its options. Rulings: the hit still does its
// damage (the card works with Double Laser); a locked register keeps its card through
// the next turn and runs it again, then is free unless damage locks it; an option is
// destroyed only if the target still holds it, and "use Target Control" naming neither
// destroys the target's oldest option. Default: not used.
type targetControl struct{}

func (targetControl) Option() string { return "Target Control" }

func (targetControl) Hit(v View, j int) {
	t, i := v.t, v.robot
	q := &t.st.Robots[j]
	if !q.Active() {
		return
	}
	a := t.askAbout(i, "Target Control", "lock one of its registers (lock=N) or destroy one of its options (option=NAME)?", j, Impact{})
	if !a.Use() {
		return
	}
	if a.Lock > 0 {
		t.cards.jam[j] = t.cards.jam[j].With(a.Lock)
		q.Jammed = q.Jammed.With(a.Lock)
		t.useEvent(i, "Target Control", j, q.Registers[a.Lock-1], a.Lock)
		return
	}
	k := 0
	if a.Option != "" {
		k = slices.IndexFunc(q.Options, func(o string) bool { return equalFold(o, a.Option) })
	}
	if k < 0 || k >= len(q.Options) {
		return
	}
	t.useEvent(i, "Target Control", j, 0, 0)
	opt := t.removeOption(j, k)
	t.emit(Event{Kind: EvOptionLose, Robot: q.Name, Option: opt, Cause: "target-control", Other: t.st.Robots[i].Name})
}

// ---- 29 Flywheel (seed 000, "Flywheel") ----
// With the program the holder may put one card of its hand that it did not program on
// the Flywheel; it is added to the robot's next hand (so 10 cards when undamaged). One
// card at a time. By mail: "use Flywheel P490". Rulings: the card waits on the Flywheel
// while the robot gets no hand (powered down); it returns to the deck if the Flywheel is
// lost. Default: no card kept.
type flywheel struct{}

func (flywheel) Option() string { return "Flywheel" }

func (flywheel) StartTurn(v View) {
	t, i := v.t, v.robot
	r := &t.st.Robots[i]
	if r.Flywheel != 0 {
		return
	}
	a := t.ask(i, "Flywheel", "which unprogrammed card of your hand goes on the Flywheel?")
	if !a.Use() || a.Card == 0 || !slices.Contains(t.cards.hand[i], a.Card) || slices.Contains(r.Registers[:], a.Card) || t.cardPlaced(i, a.Card) {
		return
	}
	r.Flywheel = a.Card
	t.useEvent(i, "Flywheel", -1, a.Card, 0)
}

func (flywheel) AfterDeal(v View) {
	r := &v.t.st.Robots[v.robot]
	if r.Flywheel == 0 {
		return
	}
	r.Hand = append(r.Hand, r.Flywheel)
	slices.Sort(r.Hand)
	r.Flywheel = 0
}

// ---- 30 Fourth Gear (seed 000, "Fourth Gear") ----
// With a Move 3 the robot may move 4; the priority stays. Default: 3.
type fourthGear struct{}

func (fourthGear) Option() string { return "Fourth Gear" }

func (fourthGear) Steps(v View, k CardKind, steps int) int {
	if k != CardMove3 || steps != 3 {
		return steps
	}
	if !v.t.ask(v.robot, "Fourth Gear", "move 4 instead of 3?").Use() {
		return steps
	}
	v.t.useEvent(v.robot, "Fourth Gear", -1, 0, 4)
	return 4
}

// ---- 31 Gyroscopic Stabilisator (seed 000, "Express Conveyor Belts, Conveyor Belts and
// Gears") ----
// In any register the holder may switch it on: belt curves and gears do not turn the
// robot; belts still carry it. Asked when a curve or gear would turn the robot. Default:
// off.
type gyroscopicStabilisator struct{}

func (gyroscopicStabilisator) Option() string { return "Gyroscopic Stabilisator" }

func (gyroscopicStabilisator) Acts(v View, element string) bool {
	if element != "curve" && element != "gear" {
		return true
	}
	if !v.t.ask(v.robot, "Gyroscopic Stabilisator", "keep your facing against this "+element+"?").Use() {
		return true
	}
	v.t.useEvent(v.robot, "Gyroscopic Stabilisator", -1, 0, 0)
	return false
}

// ---- 32 Power Laser (seed 000, "Power Laser", with translator's note 4) ----
// The main laser passes through one wall and through one robot, damaging it and the
// robot behind. The German card allows both in one shot (the US card one or the other);
// we follow seed 000. Ruling: passing on is not a choice.
type powerLaser struct{}

func (powerLaser) Option() string { return "Power Laser" }

func (powerLaser) Gun(v View, g *Gun) { g.Walls, g.Robots = 1, 1 }

// ---- 33 Mechanical Arm (seed 000, "Mechanical Arm") ----
// Ending a register orthogonally next to its next flag, with no wall between, the robot
// touches the flag, even with another robot on it. It does not move the archive or
// repair. Ruling: touching is never a disadvantage, so it is not asked.
type mechanicalArm struct{}

func (mechanicalArm) Option() string { return "Mechanical Arm" }

func (mechanicalArm) Reaches(v View, flag Pos) bool {
	r := &v.t.st.Robots[v.robot]
	b := v.t.board()
	for d := North; d <= West; d++ {
		if r.Pos.Step(d) == flag && !b.Blocked(r.Pos, d) {
			return true
		}
	}
	return false
}

// ---- The weapons that fire instead of the main laser (seed 000, "The following Option
// cards equips your Robot with additional weapon", page 10) ----
// Each is asked, in the lasers phase, about the robot its laser would hit (Turret's
// direction; walls and robots stop it); if the orders say to use it, it fires instead of
// the laser. Its push, pull or program change happens after every laser's damage, in
// seating order. Default: the laser fires.

// ---- 34 Turbo Blaster (seed 000, "Turbo Blaster") ----
// 1 damage and a push one square away from the shooter; 5 shots, then discarded.
type turboBlaster struct{}

func (turboBlaster) Option() string { return "Turbo Blaster" }

func (turboBlaster) Replace(v View, g Gun) bool {
	t, i := v.t, v.robot
	j := t.firstInLine(i, g.Dir)
	if j < 0 || !t.askAbout(i, "Turbo Blaster", "fire the Turbo Blaster instead of your laser?", j, Impact{Damage: 1, Move: g.Dir, Steps: 1}).Use() {
		return false
	}
	shots := t.token(i, "Turbo Blaster") + 1
	t.useEvent(i, "Turbo Blaster", j, 0, shots)
	t.hits = append(t.hits, hit{target: j, amount: 1, shooter: i, from: g.Dir.Back(), cause: "turbo-blaster"})
	if shots >= 5 {
		t.discardOption(i, "Turbo Blaster", "used up")
	} else {
		t.setToken(i, "Turbo Blaster", shots)
	}
	v.Later(func() { t.shove(j, g.Dir, "turbo-blaster") })
	return true
}

// shove moves robot j one square in d for a weapon (pushing robots before it, stopped by
// walls like any push).
func (t *turn) shove(j int, d Dir, cause string) {
	if t.st.Robots[j].Active() {
		t.step(j, d, cause)
	}
}

// ---- 35 Protection Shields (seed 000, "Protection Shields") ----
// While the robot is powered down, each of its four sides stops 1 point of damage a
// register from that side. Damage from no side (none in Crash & Burn) is not stopped.
type protectionShields struct{}

func (protectionShields) Option() string { return "Protection Shields" }

func (protectionShields) Damage(v View, h *Harm) {
	t, i := v.t, v.robot
	r := &t.st.Robots[i]
	if r.Power != PowerDown || !h.Sided {
		return
	}
	bit := uint8(1) << h.Side(r.Facing)
	if t.cards.shieldUsed[i]&bit != 0 {
		return
	}
	t.cards.shieldUsed[i] |= bit
	t.absorb(i, "Protection Shields", 1, h)
}

// ---- 36 High Pressor Beam (seed 000, "High Pressor Beam") ----
// Pushes the target one square away from the shooter, no damage.
type highPressorBeam struct{}

func (highPressorBeam) Option() string { return "High Pressor Beam" }

func (highPressorBeam) Replace(v View, g Gun) bool {
	t, i := v.t, v.robot
	j := t.firstInLine(i, g.Dir)
	if j < 0 || !t.askAbout(i, "High Pressor Beam", "push the target away instead of firing your laser?", j, Impact{Move: g.Dir, Steps: 1}).Use() {
		return false
	}
	t.useEvent(i, "High Pressor Beam", j, 0, 0)
	v.Later(func() { t.shove(j, g.Dir, "high-pressor-beam") })
	return true
}

// ---- 37 Remote Control (seed 000, "Remote Control") ----
// A robot within 6 squares in the line of fire, through walls and robots, plays the
// shooter's cards for the rest of the turn, each just after the shooter's. The holder
// names the target ("use Remote Control on Bob"), or "use Remote Control" takes the
// nearest. Rulings: the target plays the shooter's cards of the registers still to come
// (none after register 5, so it is not fired then), its own cards are not played;
// powered-down and virtual robots cannot be taken over.
type remoteControl struct{}

func (remoteControl) Option() string { return "Remote Control" }

func (remoteControl) Replace(v View, g Gun) bool {
	t, i := v.t, v.robot
	if t.register >= Registers {
		return false
	}
	b := t.board()
	q := t.st.Robots[i].Pos
	for k := 0; k < 6; k++ {
		q = q.Step(g.Dir)
		if !b.In(q) {
			return false
		}
		j := t.realAt(q, i)
		if j < 0 || t.st.Robots[j].Power == PowerDown {
			continue
		}
		if !t.askAbout(i, "Remote Control", "make this robot play your program for the rest of the turn?", j, Impact{}).Use() {
			continue
		}
		t.useEvent(i, "Remote Control", j, 0, 0)
		v.Later(func() { t.cards.remote[j] = int8(i + 1) })
		return true
	}
	return false
}

// ---- 38 Ramming Device (seed 000, "Ramming Device") ----
// A robot this robot pushes takes 1 damage, even when it cannot be moved. Always on.
// Rulings: only a robot moving by its own card rams (a robot shoved by a board element or
// weapon does not); the robot in front of it takes the point, at most once per register
// from one rammer, at the moment of the push.
type rammingDevice struct{}

func (rammingDevice) Option() string { return "Ramming Device" }

func (rammingDevice) Rams(v View, j int, d Dir, moved bool) {
	t, i := v.t, v.robot
	bit := uint8(1) << j
	if t.cards.rammed[i]&bit != 0 || !t.st.Robots[j].Active() {
		return
	}
	t.cards.rammed[i] |= bit
	t.useEvent(i, "Ramming Device", j, 0, 1)
	t.hurt(j, Harm{Amount: 1, Cause: "ram", From: d.Back(), Sided: true, By: i}, t.st.Robots[i].Name)
}

// ---- 39 Rear Laser (seed 000, "Rear Laser") ----
// The robot also fires a laser backwards, so it may hit two robots. Ruling: the rear
// laser is a plain laser (1 damage, stopped by the first wall or robot).
type rearLaser struct{}

func (rearLaser) Option() string { return "Rear Laser" }

func (rearLaser) ExtraGuns(v View, main Gun, fire func(Gun)) {
	fire(Gun{Dir: v.t.st.Robots[v.robot].Facing.Back(), Beams: 1})
}

// ---- 40 Recompile (seed 000, "Recompile") ----
// Once a turn, before programming, the holder may give back its whole hand for as many
// new cards from the deck, taking 1 damage. By mail the hand is dealt at the end of the
// turn before, so "use Recompile" on a sheet applies to the hand dealt when that turn
// ends, judged then ("use Recompile if damage < 3"). Rulings: the damage does not change
// the number of cards; a card on the Flywheel is not given back; there is no Recompile
// with an empty hand.
type recompile struct{}

func (recompile) Option() string { return "Recompile" }

func (recompile) AfterDeal(v View) {
	t, i := v.t, v.robot
	r := &t.st.Robots[i]
	n := len(r.Hand)
	if n == 0 || len(t.dealPile) < n {
		return
	}
	if !t.ask(i, "Recompile", "give back the hand just dealt for new cards and 1 damage?").Use() {
		return
	}
	t.useEvent(i, "Recompile", -1, 0, n)
	r.Hand = slices.Clone(t.dealPile[:n])
	t.dealPile = t.dealPile[n:]
	slices.Sort(r.Hand)
	t.hurt(i, Harm{Amount: 1, Cause: "recompile", By: -1}, "")
}

// ---- 41 Reverse Gear (seed 000, "Reverse Gear") ----
// With a Back Up the robot may move 2 squares back; the priority stays. "use Reverse
// Gear" or "use Reverse Gear back 2". Default: 1.
type reverseGear struct{}

func (reverseGear) Option() string { return "Reverse Gear" }

func (reverseGear) Steps(v View, k CardKind, steps int) int {
	if k != CardBackUp || steps != -1 {
		return steps
	}
	a := v.t.ask(v.robot, "Reverse Gear", "back up 2 instead of 1?")
	if !a.Use() || a.Steps == 1 {
		return steps
	}
	v.t.useEvent(v.robot, "Reverse Gear", -1, 0, 2)
	return -2
}

// ---- 42 Randomizer (seed 000, "Randomizer") ----
// The card in the target's next register is replaced by the top card of the draw pile.
// Not in register 5. Ruling: a locked or empty next register cannot be changed, so the
// Randomizer is not fired at it.
type randomizer struct{}

func (randomizer) Option() string { return "Randomizer" }

func (randomizer) Replace(v View, g Gun) bool {
	t, i := v.t, v.robot
	if t.register >= Registers {
		return false
	}
	j := t.firstInLine(i, g.Dir)
	if j < 0 {
		return false
	}
	q := &t.st.Robots[j]
	next := t.register + 1
	if q.IsLocked(next) || q.Registers[next-1] == 0 || q.Power == PowerDown {
		return false
	}
	if !t.askAbout(i, "Randomizer", "replace the target's next card with the top of the draw pile?", j, Impact{}).Use() {
		return false
	}
	t.useEvent(i, "Randomizer", j, 0, next)
	v.Later(func() {
		if p := t.drawFromPile(); p != 0 && !q.Destroyed && !q.IsLocked(next) {
			old := q.Registers[next-1]
			q.Registers[next-1] = p
			t.emit(Event{Kind: EvSwapped, Robot: q.Name, Option: "Randomizer", Card: p, Amount: old, Other: t.st.Robots[i].Name})
		}
	})
	return true
}

// ---- 43 Protection Shield (seed 000, "Protection Shield") ----
// Before each register the holder sets the shield on one side of the robot; it stops 1
// point of damage a register from that side. By mail: "use Protection Shield left" (front,
// right, back, left; or a compass direction, taken relative to the robot's facing as the
// register begins). "use Protection Shield" with no side covers the front; "decline
// Protection Shield" takes it off.
// Ruling (seed 000, Protection Shield: "The Protection Shield is not in use if there isn't
// a reversed Damage Point chit on the card"; "Prior to each new Program Step may the player
// replace the chit"): the chit stays where it was put until the orders move it, so a
// register the orders say nothing about keeps the side of the register before it, and a
// shield the orders never set is not in use (scenarios 349, 412).
type protectionShield struct{}

func (protectionShield) Option() string { return "Protection Shield" }

func (protectionShield) BeforeReveal(v View) {
	t, i := v.t, v.robot
	a := t.ask(i, "Protection Shield", "which side does the shield cover this register?")
	side := 0
	switch {
	case a.Silent:
		return // the chit stays where it is (off until first set)
	case a.No:
		t.cards.shieldSide[i] = 0
		return
	case a.HasSide:
		side = a.Side
	case a.HasDir:
		side = int((a.Dir - t.st.Robots[i].Facing + 4) & 3)
	}
	t.cards.shieldSide[i] = int8(side + 1)
}

func (protectionShield) Damage(v View, h *Harm) {
	t, i := v.t, v.robot
	r := &t.st.Robots[i]
	s := t.cards.shieldSide[i]
	if s == 0 || !h.Sided || h.Side(r.Facing) != int(s-1) || t.cards.shieldUsed[i]&(1<<4) != 0 {
		return
	}
	t.cards.shieldUsed[i] |= 1 << 4
	t.absorb(i, "Protection Shield", 1, h)
}

// ---- 44 De Luxe Safety Copy (seed 000, "Using a Duplicate Robot") ----
// A destroyed robot that discards this card re-enters with no damage instead of 2.
// Ruling (issue 23): a destroyed robot must discard an option card (seed 000, IV. End of
// Round), and the card asks for a discard at destruction ("When your Robot is destroyed
// will you receive a duplicate Robot without damage if you discard this card"): so the
// discard its destruction costs IS its use. A robot destroyed while holding it discards
// it as that card, keeping its others, and re-enters with no damage; "decline De Luxe
// Safety Copy" keeps it and loses another card as usual (the option lost as the orders
// or the default choose). Until issue 23 a robot that lost this very card to its
// destruction could not use it, so held alone it never worked.
type deLuxeSafetyCopy struct{}

func (deLuxeSafetyCopy) Option() string { return "De Luxe Safety Copy" }

// safetyCopyLost is the index of robot i's De Luxe Safety Copy when its destruction
// discards it (it holds one and has not declined it), else -1; the robot then re-enters
// with no damage (safetyCopyReenter).
func (t *turn) safetyCopyLost(i int) int {
	k := slices.Index(t.st.Robots[i].Options, "De Luxe Safety Copy")
	if k < 0 || t.ask(i, "De Luxe Safety Copy", "discard it as the option your destruction costs, to re-enter with no damage?").No {
		return -1
	}
	t.cards.safetyCopy[i] = true
	return k
}

// safetyCopyReenter sets the damage of robot i re-entering to none when its destruction
// discarded its De Luxe Safety Copy.
func (t *turn) safetyCopyReenter(i int, damage *int) {
	if !t.cards.safetyCopy[i] {
		return
	}
	t.cards.safetyCopy[i] = false
	*damage = 0
	t.useEvent(i, "De Luxe Safety Copy", -1, 0, 0)
}

// ---- 45 Tractor Beam (seed 000, "Tractor Beam") ----
// Pulls the target one square towards the shooter; not at a target on a neighbouring
// square.
type tractorBeam struct{}

func (tractorBeam) Option() string { return "Tractor Beam" }

func (tractorBeam) Replace(v View, g Gun) bool {
	t, i := v.t, v.robot
	j := t.firstInLine(i, g.Dir)
	if j < 0 || t.st.Robots[i].Pos.Step(g.Dir) == t.st.Robots[j].Pos {
		return false
	}
	if !t.askAbout(i, "Tractor Beam", "pull the target one square toward you instead of firing your laser?", j, Impact{Move: g.Dir.Back(), Steps: 1}).Use() {
		return false
	}
	t.useEvent(i, "Tractor Beam", j, 0, 0)
	v.Later(func() { t.shove(j, g.Dir.Back(), "tractor-beam") })
	return true
}

// ---- 46 Turret (seed 000, "Turret") ----
// Before each register the holder turns the laser to fire front, right, back or left
// (or a compass direction, kept whatever the robot's facing when it fires). The weapons
// that replace the laser fire the same way. Default: front.
type turret struct{}

func (turret) Option() string { return "Turret" }

func (turret) BeforeReveal(v View) {
	v.t.cards.turret[v.robot] = v.t.ask(v.robot, "Turret", "which way does the turret fire this register?")
}

func (turret) Gun(v View, g *Gun) {
	a := v.t.cards.turret[v.robot]
	switch {
	case a.HasDir:
		g.Dir = a.Dir
	case a.HasSide:
		g.Dir = v.t.st.Robots[v.robot].Facing.Rotate(a.Side)
	}
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for k := 0; k < len(a); k++ {
		x, y := a[k], b[k]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
