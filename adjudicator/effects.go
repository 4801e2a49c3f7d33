package adjudicator

import "slices"

// Option effects: how an option card (or, later, a 2023 upgrade) changes the turn.
//
// An effect is a value that names its card (Effect.Option) and implements any of the
// hook interfaces below. The core of the turn asks, at each hook point, the effects of
// the options the robot holds, in the order of the effect list (effectList), and never
// knows a card by name. Adding a card is one type in a cards_*.go file (citing its card
// in the seed) plus its entry in effectList and its scenarios; the deck deals it from
// then on (optiondeck.go).
//
// The hook points, in the order a turn meets them:
//
//	HandSizer     deal: how many cards (Extra Memory)
//	Dealer        deal, after the robot's hand is dealt: change the hand (Flywheel, Recompile)
//	HandsDealer   deal, after every hand is dealt (Interceptor)
//	Starter       programs loaded, before register 1 (Flywheel's card)
//	Revealer      phase a, before the register's cards are revealed: edit the program,
//	              set sides and turrets (Emergency Switch, Conditional Command, Turret, Shield)
//	Stepper       phase b, a movement card's steps (Brakes, Fourth Gear, Reverse Gear)
//	Rammer        phase b, the pusher's side of a push, also a push that fails (Ramming Device)
//	Pushable      phase b, whether the pushed robot moves
//	ElementFilter phase c, whether an element acts on the robot; "curve" and "gear" are the
//	              turning only, "belt" the carrying (Gyroscopic Stabilisator)
//	Gunner        phase d, the main laser: direction, beams, walls and robots it passes
//	              (Turret, Double Laser, Power Laser); LaserPower is the older beams-only form
//	Replacer      phase d, a weapon fired instead of the main laser (Turbo Blaster, High
//	              Pressor Beam, Remote Control, Randomizer, Tractor Beam)
//	ExtraGunner   phase d, more lasers (Rear Laser)
//	HitHook       phase d, after the main laser hit a robot (Target Control)
//	DamageFilter  any damage as it arrives, with its side and cause, before options are
//	              discarded to prevent it (Protective Coating, Shields, Circuit Breaker)
//	FlagReacher   phase e, touching a flag from elsewhere (Mechanical Arm)
//	EndTurner     end of turn, after repairs and before power (Circuit Breaker, Flywheel)
//	Reenterer     end of turn, a destroyed robot re-entering (none now: the De Luxe Safety Copy acts at destruction)
//	Loser         any time the card leaves its robot other than by exchange (Converter,
//	              Self-Destruct: cards that explode when destroyed)
//
// Phase-programmed options (seed 001, Phase-Programmed Options; phases.go) are not asked
// at the moment they act: like turn-programmed options they are programmed with the
// program, for one register each. A card is phase programmed by implementing Phased:
//
//	func (mineLayer) Option() string        { return "Mine Layer" }
//	func (mineLayer) Phase() PhaseKind      { return PhaseGadget } // or PhaseMovement, PhaseOther
//	func (mineLayer) Program(v View, p *PhaseProgram) bool { ... } // legal as written? p.Spent
//	func (mineLayer) Run(v View, p *PhaseProgram) bool     { ... } // carry it out; false: illegal
//
// When the programs are loaded the engine asks the robot's orders, for each register,
// whether the card is programmed there (an order "use Mine Layer in register 3"; the
// order must name its register). Its answer, the order's parameters, is p.Answer (card=,
// card2=, steps=, dir=, target=, mode= ...; answer.go). The engine keeps at most one
// PhaseGadget and one PhaseMovement program a register (the first in the robot's option
// order; a second is refused, event "void"), then calls Program, which checks the
// program and may take what it spends from the card's payload (setToken) and say how
// much in p.Spent. Run is called in register p.Register: PhaseOther at the start of the
// register (Self-Destruct), PhaseGadget after the cards are revealed and before any
// robot moves, PhaseMovement when the robot's primary card comes up, at its priority (it
// then plays the register in place of the card: t.playKind, t.step ...). Run is called
// even when the card is no longer held (seed 001, Destruction: the program stays in
// effect). When the program turns illegal (Run says false, the robot is inside an Option
// Damping Field, a card placer's robot is on a teleporter, its primary card was
// replaced), seed 001's rule applies: p.Spent goes back on the card if it is still held
// (not inside an Option Damping Field, whose card says the tokens are lost), and the
// primary card is played alone. A forecast (Simulate) lays the programs the same way.
//
// A card that puts a second program card in its register, or leaves it empty, also
// implements CardPlacer (Crab Legs, Dual Processor, Overload Override). The engine then
// reads the cards from the order (card=, card2=, primary=, mode=empty), checks them
// against the hand and works out the primary card (seed 001, Primary Card): p.Cards in
// the order they are played, p.Primary, p.Empty. The primary card is what the register
// holds (Robot.Registers): it locks, and it is what Remote Control plays.
//
// Turn-programmed options (seed 001: Option Damping Field, Homing Device's homing) are
// asked once when the programs are loaded (Starter) and keep their choice in the turn.
//
// Effects are in this package: they may read and change the turn through the View they
// are given (v.t, v.robot), so an effect's whole rule stays in its one place. Everything
// an effect decides on the player's behalf is asked of the Decider (View.AskOption), so
// orders written in advance steer it; what the sheet leaves unsaid is the default each
// card documents. Effects keep no state of their own: what lasts between turns is in the
// Robot (Tokens, Flywheel, Jammed), what lasts a turn is in the turn.

// Effect is an option card's effect. Option is the card's name as in data/options.txt.
type Effect interface {
	Option() string
}

// HandSizer changes how many cards a robot is dealt (Extra Memory: +1).
type HandSizer interface {
	HandSize(v View, n int) int
}

// Dealer acts once the robot's hand is dealt (View.Robot().Hand); it may change it.
type Dealer interface {
	AfterDeal(v View)
}

// HandsDealer acts once every robot's hand is dealt (Interceptor's exchange of hands).
type HandsDealer interface {
	AfterHands(v View)
}

// Starter acts when the programs are loaded, before register 1.
type Starter interface {
	StartTurn(v View)
}

// Revealer acts before the cards of register View.Register() are revealed.
type Revealer interface {
	BeforeReveal(v View)
}

// Stepper changes how far a movement card moves a robot (Brakes, Fourth Gear, Reverse
// Gear). steps is negative for backwards.
type Stepper interface {
	Steps(v View, card CardKind, steps int) int
}

// Rammer acts for the pushing robot when its move pushes robot pushed (index) in
// direction d, whether or not the push succeeds (moved).
type Rammer interface {
	Rams(v View, pushed int, d Dir, moved bool)
}

// Pushable says whether robot v may be pushed by another robot.
type Pushable interface {
	Pushable(v View, by string) bool
}

// Harm is damage on its way to a robot.
type Harm struct {
	Amount int
	Cause  string // laser, robot-laser, ram, turbo-blaster, ... (as in EvDamage)
	// From is the side of the board the damage comes from (a beam travelling east comes
	// from the west); Sided is false for damage from no side.
	From  Dir
	Sided bool
	By    int // the robot dealing it (index), -1 for the board
}

// Side is where, relative to the robot facing f, a sided harm strikes: 0 front, 1 right,
// 2 back, 3 left.
func (h *Harm) Side(f Dir) int { return int((h.From - f + 4) & 3) }

// DamageFilter changes damage as it arrives, before options are discarded to prevent it
// (Protective Coating, Protection Shield(s), Circuit Breaker). It lowers h.Amount.
type DamageFilter interface {
	Damage(v View, h *Harm)
}

// ElementFilter says whether a board element acts on the robot: "belt" (carrying),
// "curve" (a belt's turning), "gear", "pusher", "crusher".
type ElementFilter interface {
	Acts(v View, element string) bool
}

// Gun is one robot laser about to fire.
type Gun struct {
	Dir    Dir // the direction it fires
	Beams  int // damage to each robot hit
	Walls  int // walls the beam passes through (Power Laser)
	Robots int // robots it passes through, hitting them too (Power Laser)
}

// Gunner shapes the robot's main laser.
type Gunner interface {
	Gun(v View, g *Gun)
}

// LaserPower changes the beams of the robot's own laser (the beams-only form of Gunner).
type LaserPower interface {
	Beams(v View, beams int) int
}

// Replacer may fire another weapon instead of the main laser g; it reports whether it
// did (then the main laser does not fire). Its effect on the target is carried out with
// the others after the lasers' damage (View.Later).
type Replacer interface {
	Replace(v View, g Gun) bool
}

// ExtraGunner fires more lasers besides the main one.
type ExtraGunner interface {
	ExtraGuns(v View, main Gun, fire func(Gun))
}

// HitHook acts after the robot's main laser damaged robot target (index).
type HitHook interface {
	Hit(v View, target int)
}

// FlagReacher lets the robot touch its next flag at flag without standing on it.
type FlagReacher interface {
	Reaches(v View, flag Pos) bool
}

// EndTurner acts at the end of the turn, after repairs, before power is announced.
type EndTurner interface {
	EndTurn(v View)
}

// Reenterer acts as the destroyed robot re-enters; it may change the damage it brings.
type Reenterer interface {
	Reenter(v View, damage *int)
}

// Loser acts when the robot loses the card (destroyed, discarded to prevent damage,
// discarded as a fourth option, lost with the robot), not when the card changes hands
// (Reengineering Unit). tokens is what was on the card. What it does to the board (an
// explosion: explode, explosions.go) waits until the damage being dealt is done.
type Loser interface {
	Lost(v View, tokens int)
}

// PhaseKind is what type of phase-programmed option a card is (seed 001, Types of
// Phase-Programmed Options).
type PhaseKind uint8

const (
	PhaseOther    PhaseKind = iota // neither gadget nor movement: acts at the start of its register (Self-Destruct)
	PhaseGadget                    // before the robots move (Mine Layer, Bridge Layer, Scrambler Bomb)
	PhaseMovement                  // at the priority of the primary card (Crab Legs, Retro-Rockets)
)

// Phased is a phase-programmed option (see the comment at the top of this file and
// phases.go).
type Phased interface {
	Effect
	Phase() PhaseKind
	// Program checks the program p as written and may take what it spends (p.Spent); it
	// reports whether it is legal. Asked once a register it is programmed in, when the
	// programs are loaded.
	Program(v View, p *PhaseProgram) bool
	// Run carries the program out in its register; false means the program turned
	// illegal (its spent payload is given back, the primary card plays alone).
	Run(v View, p *PhaseProgram) bool
}

// CardPlacer marks a Phased card that puts two program cards in its register, or none
// (seed 001, Primary Card): the engine reads and checks the cards for it.
type CardPlacer interface {
	PlacesCards()
}

// effectList is every option effect the engine implements, in the order hooks are
// asked when a robot holds several (immunity before shields before coatings). A card not
// listed here is never dealt (optiondeck.go).
func effectList() []Effect {
	fx := append(crashBurnEffects(), armedEffects()...) // cards_crashburn.go, cards_armed.go
	return append(fx, deviceEffects()...)               // cards_devices.go
}

// effectFor is the implemented effect of the named card, or nil.
func effectFor(name string) Effect {
	for _, e := range effectList() {
		if e.Option() == name {
			return e
		}
	}
	return nil
}

// maxFx is how many effects per robot are kept without allocating: the 2023 rules let
// a robot install 3 permanent and 3 temporary upgrades (upgrades.go).
const maxFx = MaxPermanent + MaxTemporary

// hook is a set of hook points (one bit per hook interface), so that a hook point skips
// at once a robot none of whose effects acts there: most hook points are met many times
// a turn, and most cards act at one or two of them.
type hook uint32

const (
	hkHandSize hook = 1 << iota
	hkDeal
	hkHands
	hkStart
	hkReveal
	hkSteps
	hkRam
	hkPushable
	hkDamage
	hkElement
	hkGun
	hkReplace
	hkExtraGuns
	hkHit
	hkFlag
	hkEndTurn
	hkReenter
	hkPowerDown
	hkHover
	hkAbort
	hkAfterCard
	hkAfterDraw
	hkPhased // phase-programmed options (phases.go)
	hkLoser
)

// hooksOf is the hook points effect e acts at. A new hook interface adds its bit here.
func hooksOf(e Effect) hook {
	var h hook
	set := func(ok bool, bit hook) {
		if ok {
			h |= bit
		}
	}
	_, ok := e.(HandSizer)
	set(ok, hkHandSize)
	_, ok = e.(Dealer)
	set(ok, hkDeal)
	_, ok = e.(HandsDealer)
	set(ok, hkHands)
	_, ok = e.(Starter)
	set(ok, hkStart)
	_, ok = e.(Revealer)
	set(ok, hkReveal)
	_, ok = e.(Stepper)
	set(ok, hkSteps)
	_, ok = e.(Rammer)
	set(ok, hkRam)
	_, ok = e.(Pushable)
	set(ok, hkPushable)
	_, ok = e.(DamageFilter)
	set(ok, hkDamage)
	_, ok = e.(ElementFilter)
	set(ok, hkElement)
	_, ok = e.(Gunner)
	set(ok, hkGun)
	_, ok = e.(LaserPower)
	set(ok, hkGun)
	_, ok = e.(Replacer)
	set(ok, hkReplace)
	_, ok = e.(ExtraGunner)
	set(ok, hkExtraGuns)
	_, ok = e.(HitHook)
	set(ok, hkHit)
	_, ok = e.(FlagReacher)
	set(ok, hkFlag)
	_, ok = e.(EndTurner)
	set(ok, hkEndTurn)
	_, ok = e.(Reenterer)
	set(ok, hkReenter)
	_, ok = e.(PowerDowner)
	set(ok, hkPowerDown)
	_, ok = e.(Hoverer)
	set(ok, hkHover)
	_, ok = e.(Aborter)
	set(ok, hkAbort)
	_, ok = e.(AfterCarder)
	set(ok, hkAfterCard)
	_, ok = e.(AfterDrawer)
	set(ok, hkAfterDraw)
	_, ok = e.(Phased)
	set(ok, hkPhased)
	_, ok = e.(Loser)
	set(ok, hkLoser)
	return h
}

// effectTable is what NewSetup works out once about Setup.Effects: each card's place in
// the list and each effect's hook points. It belongs to the slice it was made from; a
// Setup whose Effects were replaced afterwards (tests do) is served without it.
type effectTable struct {
	src   []Effect
	index map[string]int // card name → place in src
	hooks []hook         // hooks[k] for src[k]
}

func newEffectTable(fx []Effect) *effectTable {
	tb := &effectTable{src: fx, index: make(map[string]int, len(fx)), hooks: make([]hook, len(fx))}
	for k, e := range fx {
		if _, dup := tb.index[e.Option()]; dup {
			return nil // a card listed twice acts twice: refreshFx's long way keeps that
		}
		tb.index[e.Option()] = k
		tb.hooks[k] = hooksOf(e)
	}
	return tb
}

// effectTable is s's table, or nil when Effects is not the slice it was made from.
func (s *Setup) effectTable() *effectTable {
	tb := s.fxTable
	if tb == nil || len(tb.src) != len(s.Effects) || len(tb.src) == 0 || &tb.src[0] != &s.Effects[0] {
		return nil
	}
	return tb
}

// fxOf is robot i's effects, in effect-list order, cached for the turn; refreshed when
// its options change (refreshFx).
func (t *turn) fxOf(i int) []Effect {
	if len(t.setup.Effects) == 0 {
		return nil
	}
	if !t.fxOK[i] {
		t.refreshFx(i)
	}
	if t.armed.damping != 0 && len(t.fx[i]) > 0 && t.damped(i) {
		return t.dampedFx(i) // seed 001, Option Damping Field: cards_armed.go
	}
	return t.fx[i]
}

// has reports whether any of robot i's effects acts at hook point h.
// The common answer, no, is given inline where it is asked.
func (t *turn) has(i int, h hook) bool {
	if t.fxOK[i] && t.fxHooks[i]&h == 0 {
		return false
	}
	return t.hasSlow(i, h)
}

// actsAt reports whether robot i's effect fx[i][x] acts at hook point h (so the hook
// loops skip the others without asking for their interfaces).
func (t *turn) actsAt(i, x int, h hook) bool { return x < len(t.fxHook[i]) && t.fxHook[i][x]&h != 0 }

func (t *turn) hasSlow(i int, h hook) bool {
	if !t.fxOK[i] {
		t.refreshFx(i)
	}
	if t.fxHooks[i]&h == 0 {
		return false
	}
	// Not while an Option Damping Field damps them (seed 001: cards_armed.go).
	if t.armed.damping != 0 && t.damped(i) {
		return h&hkStart != 0 && t.holds(i, "Option Damping Field")
	}
	return true
}

func (t *turn) refreshFx(i int) {
	t.fxOK[i] = true
	t.fx[i] = t.fxBuf[i][:0]
	t.fxHook[i] = t.fxHookBuf[i][:0]
	t.fxHooks[i] = 0
	opts := t.st.Robots[i].Options
	if len(opts) == 0 || len(t.setup.Effects) == 0 {
		return
	}
	if tb := t.setup.effectTable(); tb != nil {
		// The places of the cards held, in effect-list order (a robot holds a few).
		var buf [maxFx]int
		ks := buf[:0]
		// A Resolver remembers each robot's last two answers from the turns before (its
		// cards at the start of a turn, and after one was lost or drawn): the same cards
		// give the same places, without looking each card up again.
		var memo *fxMemo
		hit := false
		if t.mem != nil {
			for s := range t.mem.fx[i] {
				if m := &t.mem.fx[i][s]; m.tb == tb && slices.Equal(m.opts, opts) {
					ks, hit = m.ks, true
					break
				}
			}
			if !hit {
				memo = &t.mem.fx[i][t.mem.fxNext[i]]
				t.mem.fxNext[i] ^= 1
			}
		}
		if !hit {
			for _, o := range opts {
				if k, ok := tb.index[o]; ok && !slices.Contains(ks, k) {
					ks = append(ks, k)
				}
			}
			slices.Sort(ks)
			if memo != nil {
				memo.tb = tb
				memo.opts = append(memo.opts[:0], opts...)
				memo.ks = append(memo.ks[:0], ks...)
			}
		}
		for _, k := range ks {
			t.fx[i] = append(t.fx[i], tb.src[k])
			t.fxHook[i] = append(t.fxHook[i], tb.hooks[k])
			t.fxHooks[i] |= tb.hooks[k]
		}
		return
	}
	for _, e := range t.setup.Effects {
		if slices.Contains(opts, e.Option()) {
			h := hooksOf(e)
			t.fx[i] = append(t.fx[i], e)
			t.fxHook[i] = append(t.fxHook[i], h)
			t.fxHooks[i] |= h
		}
	}
}

// fxMemo is what refreshFx found for a robot's options in a Resolver's last turn: the
// places in tb of the effects of the cards opts.
type fxMemo struct {
	tb   *effectTable
	opts []string
	ks   []int
}

// holds reports whether robot i holds an option whose effect is e's.
func (t *turn) holds(i int, name string) bool {
	return slices.Contains(t.st.Robots[i].Options, name)
}

func (t *turn) effectHandSize(i, n int) int {
	if !t.has(i, hkHandSize) {
		return n
	}
	for x, e := range t.fxOf(i) {
		if !t.actsAt(i, x, hkHandSize) {
			continue
		}
		if h, ok := e.(HandSizer); ok {
			n = h.HandSize(t.view(i), n)
		}
	}
	return n
}

func (t *turn) effectSteps(i int, k CardKind, steps int) int {
	if !t.has(i, hkSteps) {
		return steps
	}
	for x, e := range t.fxOf(i) {
		if !t.actsAt(i, x, hkSteps) {
			continue
		}
		if s, ok := e.(Stepper); ok {
			steps = s.Steps(t.view(i), k, steps)
		}
	}
	return steps
}

func (t *turn) effectPushable(j, by int) bool {
	if !t.has(j, hkPushable) {
		return true
	}
	for x, e := range t.fxOf(j) {
		if !t.actsAt(j, x, hkPushable) {
			continue
		}
		if p, is := e.(Pushable); is && !p.Pushable(t.view(j), t.st.Robots[by].Name) {
			return false
		}
	}
	return true
}

func (t *turn) effectRam(i, pushed int, d Dir, moved bool) {
	if !t.has(i, hkRam) {
		return
	}
	for x, e := range t.fxOf(i) {
		if !t.actsAt(i, x, hkRam) {
			continue
		}
		if r, ok := e.(Rammer); ok {
			r.Rams(t.view(i), pushed, d, moved)
		}
	}
}

// filterDamage is h after robot i's damage filters, worked on in the turn's scratch so
// that nothing goes on the heap.
func (t *turn) filterDamage(i int, h Harm) Harm {
	t.harmScratch = h // no filter deals damage, so no second filterDamage runs inside
	t.effectDamage(i, &t.harmScratch)
	return t.harmScratch
}

func (t *turn) effectDamage(i int, h *Harm) {
	if !t.has(i, hkDamage) {
		return
	}
	for x, e := range t.fxOf(i) {
		if !t.actsAt(i, x, hkDamage) {
			continue
		}
		if h.Amount <= 0 {
			return
		}
		if d, ok := e.(DamageFilter); ok {
			d.Damage(t.view(i), h)
		}
	}
}

// shapeGun is g after robot i's Gunner effects, worked on in the turn's scratch.
func (t *turn) shapeGun(i int, g Gun) Gun {
	t.gunScratch = g
	t.effectGun(i, &t.gunScratch)
	return t.gunScratch
}

func (t *turn) effectGun(i int, g *Gun) {
	if !t.has(i, hkGun) {
		return
	}
	for x, e := range t.fxOf(i) {
		if !t.actsAt(i, x, hkGun) {
			continue
		}
		if l, ok := e.(LaserPower); ok {
			g.Beams = l.Beams(t.view(i), g.Beams)
		}
		if gn, ok := e.(Gunner); ok {
			gn.Gun(t.view(i), g)
		}
	}
}

func (t *turn) effectReplace(i int, g Gun) bool {
	if !t.has(i, hkReplace) {
		return false
	}
	for x, e := range t.fxOf(i) {
		if !t.actsAt(i, x, hkReplace) {
			continue
		}
		if r, ok := e.(Replacer); ok && r.Replace(t.view(i), g) {
			return true
		}
	}
	return false
}

func (t *turn) effectElement(i int, element string) bool {
	if !t.has(i, hkElement) {
		return true
	}
	for x, e := range t.fxOf(i) {
		if !t.actsAt(i, x, hkElement) {
			continue
		}
		if f, ok := e.(ElementFilter); ok && !f.Acts(t.view(i), element) {
			return false
		}
	}
	return true
}

func (t *turn) effectBelt(i int) bool { return t.effectElement(i, "belt") }

// eachFx calls f with each effect of robot i that acts at hook point h (hooks whose
// calls need nothing back). The list is taken before the first call, and each effect is
// called only while the robot still holds its card, since an effect may discard its own
// card or another.
func (t *turn) eachFx(i int, h hook, f func(Effect)) {
	if !t.has(i, h) {
		return
	}
	var buf [maxFx]Effect
	list := buf[:0]
	if t.armed.damping != 0 && t.damped(i) {
		for _, e := range t.dampedFx(i) {
			if hooksOf(e)&h != 0 {
				f(e) // inside an Option Damping Field only the field itself acts
			}
		}
		return
	}
	for k, e := range t.fx[i] {
		if t.fxHook[i][k]&h != 0 {
			list = append(list, e)
		}
	}
	for _, e := range list {
		if t.holds(i, e.Option()) {
			f(e)
		}
	}
}

// Later queues an action for the end of the lasers phase, after every laser's damage
// (the other weapons' pushes, pulls and program changes), in the order queued.
func (v View) Later(f func()) { v.t.later = append(v.t.later, f) }

// token is the count on robot i's option name (Robot.Tokens), 0 when it holds none.
func (t *turn) token(i int, name string) int {
	r := &t.st.Robots[i]
	k := slices.Index(r.Options, name)
	if k < 0 || k >= len(r.Tokens) {
		return 0
	}
	return r.Tokens[k]
}

// setToken sets the count on robot i's option name. The slice is copied first: a
// Simulator's robots share it with the state they forecast.
func (t *turn) setToken(i int, name string, n int) {
	r := &t.st.Robots[i]
	k := slices.Index(r.Options, name)
	if k < 0 {
		return
	}
	tok := make([]int, len(r.Options))
	copy(tok, r.Tokens)
	tok[k] = n
	r.Tokens = tok
}

// discardOption discards robot i's option name (an effect used up), logging why.
func (t *turn) discardOption(i int, name, why string) {
	k := slices.Index(t.st.Robots[i].Options, name)
	if k < 0 {
		return
	}
	t.removeOption(i, k)
	t.emit(Event{Kind: EvOptionLose, Robot: t.st.Robots[i].Name, Option: name, Cause: why})
}
