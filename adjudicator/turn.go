package adjudicator

import (
	"fmt"
	"slices"
)

// A turn (rules README, "A turn (postal / 1994)"):
//
//  1. deal (done at the end of the previous turn, so players see their hands);
//  2. programs arrive as Orders;
//  3. power down is announced at the end of a turn for the next (endturn.go);
//  4. five registers, each with phases a–e;
//  5. end of turn: repairs, registers cleared, re-entry, virtual robots, power, deal.

// turn is the working state of one turn's resolution.
type turn struct {
	setup    *Setup
	st       *State
	orders   []Orders
	register int
	phase    string
	events   []Event
	// order is this register's robots in the order they act (highest priority first).
	order []int
	// single: only this robot is simulated (forecasts, autopilot); -1 for a full turn.
	single int
	// flagAt: in a forecast (single), the register in which the robot last touched a
	// flag or checkpoint, 0 for none (Simulator.FlagRegister).
	flagAt int
	// quiet: record no events (the autopilot's inner loop, Simulator).
	quiet   bool
	scratch Event // what event hands out in a quiet turn
	// ownPiles: the state's damage deck is the turn's own array (a Simulator's
	// buffer), shared with no other state: a card is taken out of it in place.
	ownPiles bool
	// stopAfter: play registers up to this one and skip the end of turn (0: the whole
	// turn). Scenarios use it to look at the board after register N.
	stopAfter int

	orderBuf [MaxRobots]int
	// r23 is the working state of a 2023 round (round.go); nil in a postal turn.
	r23    *roundState
	hits   []hit
	occ    []bool // per square: a robot stands there (phase d scratch)
	posBuf []Pos  // backing store for event From/To pointers, handed out in chunks
	dirBuf []Dir

	// Phase b scratch for the floor tiles (floormove.go), all zero on a plain floor.
	ramp     [MaxRobots]uint8 // robot i stands on the ramp leaving its square towards Dir(ramp-1)
	onRamp   int              // robots on a ramp now
	moved    [MaxRobots]uint8 // direction+1 robot i last moved in during this card (oil)
	settled  uint16           // robots whose oil slide is done for this card
	mover    int              // the robot playing its card
	count    int              // squares on the mover's card (repulsor fields)
	stopMove bool             // the mover loses the rest of its card
	drawn    []drawnOption    // options drawn this turn (chopshop.go)
	// Option effects (effects.go): each robot's effects, cached; what effects keep for
	// the turn.
	fx    [MaxRobots][]Effect
	fxBuf [MaxRobots][maxFx]Effect
	fxOK  [MaxRobots]bool
	// fxHook[i][k] is the hook points of fx[i][k]; fxHooks[i] all of robot i's.
	fxHook    [MaxRobots][]hook
	fxHookBuf [MaxRobots][maxFx]hook
	fxHooks   [MaxRobots]hook
	later     []func()
	// dealPile is the deck left during the deal (Recompile draws from it).
	dealPile []int
	cards    cardsTurn // what the Crash & Burn cards keep for the turn (cards_crashburn.go)
	armed    armedTurn // what the Armed and Dangerous cards keep for the turn (cards_armed.go)
	// Explosions waiting to be dealt, and whether one is being dealt (explosions.go).
	blasts    []Blast
	exploding bool
	hurting   int         // damage being dealt (hurt), nested
	devs      devicesTurn // devices.go, flying.go
	// drawingTwo: a Turbo Wrenches draw of two cards is under way; the limit on options
	// held waits until one of them is given up (variants.go).
	drawingTwo bool

	// mem is storage the turn uses instead of allocating (turnMem); nil in turns made
	// for one use (NewGame, Simulate), which allocate what they need. sm is where a
	// postal turn's new state lives: its robots and the deck its hands are dealt from.
	mem *turnMem
	// handOver: the log and the positions it points at are the caller's, not in mem
	// (Resolver.resolveUntil).
	handOver bool
	// blast is the blast distances worked out this register (blastcache.go).
	blast *blastDists
	sm    *stateMem
	// posMore counts the chunks of mem.posMore in use this turn.
	posMore int
	// walls and wallsW are Setup's, where the turn reads them (blocked); nil in turns
	// that do not copy them, which read the board.
	walls  []Edges
	wallsW int

	gunScratch  Gun  // shapeGun
	harmScratch Harm // filterDamage

	// fireExtra fires an extra laser of robot fireBy (extraGuns); made once, valid
	// while fireFor is this turn (a Resolver keeps it from turn to turn).
	fireExtra func(Gun)
	fireFor   *turn
	fireBy    int
}

// pos returns a pointer to a copy of p for an event, from a chunk the turn owns (one
// allocation per 64 positions instead of one each, none when a Resolver's chunks from
// earlier turns are there); nil when no events are recorded.
func (t *turn) pos(p Pos) *Pos {
	if t.quiet {
		return nil
	}
	if len(t.posBuf) == cap(t.posBuf) {
		t.posBuf = t.morePos()
	}
	t.posBuf = append(t.posBuf, p)
	return &t.posBuf[len(t.posBuf)-1]
}

func (t *turn) morePos() []Pos {
	if t.mem == nil || t.handOver {
		return make([]Pos, 0, 64)
	}
	if t.posMore == len(t.mem.posMore) {
		t.mem.posMore = append(t.mem.posMore, make([]Pos, 0, 64))
	}
	t.posMore++
	return t.mem.posMore[t.posMore-1][:0]
}

// dir is pos for facings.
func (t *turn) dir(d Dir) *Dir {
	if t.quiet {
		return nil
	}
	if len(t.dirBuf) == cap(t.dirBuf) {
		t.dirBuf = make([]Dir, 0, 64)
	}
	t.dirBuf = append(t.dirBuf, d)
	return &t.dirBuf[len(t.dirBuf)-1]
}

func (t *turn) board() *Board { return t.setup.Course.Board }

// acts reports whether robot i takes part in this resolution: every robot in a full
// turn, only the simulated one in Simulate (the others stand still as obstacles).
func (t *turn) acts(i int) bool { return t.single < 0 || i == t.single }

// actors is the range of the robots that act (acts): every robot in a full turn, only
// the simulated one in a forecast. A loop over the acting robots walks it instead of
// asking each robot (a forecast checked the three or seven others in every loop of
// every register: a fifth of orders.Validate's forecast).
func (t *turn) actors() (lo, hi int) {
	if t.single >= 0 {
		return t.single, t.single + 1
	}
	return 0, len(t.st.Robots)
}

func (t *turn) decider(i int) Decider {
	if i < len(t.orders) && t.orders[i].Decider != nil {
		return t.orders[i].Decider
	}
	return Defaults{}
}

func (t *turn) view(i int) View { return View{t: t, robot: i} }

// emit records e in the log, stamped with the register and phase.
func (t *turn) emit(e Event) {
	if t.quiet {
		return
	}
	e.Register = t.register
	e.Phase = t.phase
	t.events = append(t.events, e)
}

// event records an event of kind about robot in the log, stamped as emit stamps it, and
// returns it for the caller to fill in the rest. The busiest events of a turn (cards,
// moves, turns, damage, the deal) are written this way: an Event built and then copied
// into the log, as emit does, costs twice as much, because the copy reads the new-built
// Event back before its stores are done (BenchmarkTurn8Robots). The pointer is good only
// until the next event: fill it in at once, from values that record no events. A quiet
// turn hands out a scratch Event that nothing reads.
//
//go:noinline
func (t *turn) event(kind, robot string) *Event {
	if t.quiet {
		return &t.scratch
	}
	t.events = append(t.events, Event{})
	e := &t.events[len(t.events)-1]
	e.Register, e.Phase, e.Kind, e.Robot = t.register, t.phase, kind, robot
	return e
}

// NewGame places the robots on the course and deals the first turn's hands. Robots are
// named in seating order; names must be unique and non-empty.
//
// Postal rules (seed 003, Virtual Robots): "every robot starts on the same square": with
// Rules.SharedStart all robots start virtual on start 1; otherwise robot i starts real on
// start i+1.
func NewGame(s *Setup, names []string) (*State, []Event, error) {
	if len(names) == 0 || len(names) > MaxRobots {
		return nil, nil, fmt.Errorf("new game: %d robots (want 1 to %d)", len(names), MaxRobots)
	}
	if !s.Rules.SharedStart && len(names) > len(s.Course.Starts) {
		return nil, nil, fmt.Errorf("new game: %d robots but the course has %d start squares", len(names), len(s.Course.Starts))
	}
	st := &State{Turn: 1}
	lives := s.Rules.Lives(len(names), s.Course.Boards)
	seen := map[string]bool{}
	for i, n := range names {
		if n == "" || seen[n] {
			return nil, nil, fmt.Errorf("new game: robot name %q is empty or used twice", n)
		}
		if p := NameProblem(n); p != "" {
			return nil, nil, fmt.Errorf("new game: robot %d's name: %s, which is not allowed in names", i+1, p)
		}
		seen[n] = true
		start := s.Course.Starts[0]
		virtual := true
		if !s.Rules.SharedStart {
			start, virtual = s.Course.Starts[i], false
		}
		st.Robots = append(st.Robots, Robot{
			Name: n, Pos: start.Pos, Facing: start.Facing, Lives: lives,
			Archive: start.Pos, Virtual: virtual,
		})
	}
	if len(names) == 1 {
		st.Robots[0].Virtual = false
	}
	st.OptionDeck = slices.Clone(s.Options)
	if !s.OptionsInOrder {
		rng := turnRNG(s.Seed, 0, streamOptions)
		rng.Shuffle(len(st.OptionDeck), func(i, j int) {
			st.OptionDeck[i], st.OptionDeck[j] = st.OptionDeck[j], st.OptionDeck[i]
		})
	}
	t := &turn{setup: s, st: st, single: -1, phase: "deal"}
	t.dealPackages() // seed 001, Option Variants: variants.go
	if s.Rules.Own() {
		t.newGame2023()
		return st, t.events, nil
	}
	t.deal()
	return st, t.events, nil
}

// PRNG streams: each use of chance has its own, so adding one never shifts another.
const (
	streamDeal      = 1
	streamOptions   = 2
	streamDamage    = 3 // 2023: the damage deck's reshuffles (spam.go)
	streamOwnDecks  = 4 // 2023: reshuffles of the robots' own piles (owndeck.go)
	streamSetup2023 = 5 // 2023: the first shuffle of every deck (round.go)
	streamDrawPile  = 6 // the cards not dealt, for options that draw during a turn
	streamIntercept = 7 // seed 001, Interceptor: the cards drawn from another hand (cards_armed.go)
)

// Resolve plays one turn: orders[i] are the orders of st.Robots[i]. It returns the state
// for the next turn (with the new hands dealt) and the event log. st is not changed.
// Programs are checked first; any illegal program is an error and nothing is played.
// The state and the log are the caller's; a Resolver resolves turn after turn without
// allocating them anew. Resolve plays the turn in a Resolver drawn from a pool
// (resolvepool.go) and copies out what it returns.
func Resolve(s *Setup, st *State, orders []Orders) (*State, []Event, error) {
	return resolvePooled(s, st, orders, 0)
}

// ResolveUntil is Resolve stopped after register stopAfter (1–5): the state returned is
// the board as it stands at the end of that register's phase e, before the end of turn
// (no repairs, re-entry or deal). stopAfter 5 plays every register and no end of
// turn; 0 or 6+ plays the whole turn, as Resolve.
// Scenarios use it to check a position part way through a turn.
func ResolveUntil(s *Setup, st *State, orders []Orders, stopAfter int) (*State, []Event, error) {
	return resolvePooled(s, st, orders, stopAfter)
}

// checkResolve refuses a turn that cannot be played: the game is over, the orders do not
// match the robots, or a program is illegal.
func checkResolve(s *Setup, st *State, orders []Orders) error {
	if st.Over {
		return fmt.Errorf("resolve: the game is over")
	}
	if len(orders) != len(st.Robots) {
		return fmt.Errorf("resolve: %d orders for %d robots", len(orders), len(st.Robots))
	}
	var bad []string
	for i := range st.Robots {
		for _, e := range s.checkOrders(st, i, &orders[i]) {
			if st.Robots[i].Out {
				break
			}
			bad = append(bad, fmt.Sprintf("%s: %v", st.Robots[i].Name, e))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("resolve: illegal programs: %v", bad)
	}
	return nil
}

// play runs the five registers and the end of turn.
func (t *turn) play() {
	if t.setup.Rules.Own() {
		t.playRound() // the 2023 round: round.go
		return
	}
	st := t.st
	t.keepPackages() // seed 001, Deluxe Option Package: the kept card works from register 1 (variants.go)
	// Load the programs into the registers; locked registers keep their cards (rules
	// README, A turn 2: "A locked register keeps its card and runs it again").
	// Ruling (1994 FAQ, "powered-down robot sustains enough damage to lock a register"):
	// a register locked while the robot held no card in it (it was powered down) stays
	// unprogrammed: the robot neither moves nor turns in that register.
	for i := range st.Robots {
		r := &st.Robots[i]
		if r.Out || r.Power == PowerDown {
			continue
		}
		for reg := 1; reg <= Registers; reg++ {
			if !r.IsLocked(reg) {
				r.Registers[reg-1] = t.orders[i].Program[reg-1]
			}
		}
		t.cards.hand[i] = r.Hand
		r.Hand = nil
	}
	// seed 001, Phase-Programmed Options: programmed with the program (phases.go).
	t.phase = "program"
	for i := range st.Robots {
		if t.has(i, hkPhased) {
			t.programPhases(i)
		}
	}
	if len(st.Devices) > 0 {
		t.scramblersGoOff() // seed 001, Scrambler Bomb: "At the beginning of the next turn" (cards_armed.go)
	}
	t.phase = ""
	for i := range st.Robots {
		if st.Robots[i].Active() {
			t.eachFx(i, hkStart, func(e Effect) {
				if s, ok := e.(Starter); ok {
					s.StartTurn(t.view(i))
				}
			})
		}
	}
	last := Registers
	if t.stopAfter > 0 {
		last = t.stopAfter
	}
	for reg := 1; reg <= last && !st.Over; reg++ {
		t.runRegister(reg)
	}
	if t.stopAfter > 0 {
		return
	}
	t.register = 0
	if !st.Over {
		t.endOfTurn()
	}
}

// runRegister plays phases a–e of one register (rules README, A turn 4).
func (t *turn) runRegister(reg int) {
	t.register = reg
	if t.blast != nil {
		t.blast.forget() // blastcache.go: what was worked out for the last register
	}
	t.phase = "move"
	t.cards.newRegister()
	if reg == 1 && len(t.st.Devices) > 0 {
		t.bigOnesGoOff() // seed 001, The Big One: "At the beginning of the first register phase of the following turn"
	}
	if len(t.armed.progs) > 0 {
		t.runPhases(PhaseOther) // seed 001, Self-Destruct: "at the beginning of the register phase"
	}
	for i, hi := t.actors(); i < hi; i++ {
		if t.st.Robots[i].Active() {
			t.eachFx(i, hkReveal, func(e Effect) {
				if rv, ok := e.(Revealer); ok {
					rv.BeforeReveal(t.view(i))
				}
			})
		}
	}
	t.revealAndOrder()
	if len(t.armed.progs) > 0 {
		t.runPhases(PhaseGadget) // seed 001: gadgets "take effect before robot movement"
		if t.devs.air && len(t.st.Devices) > 0 {
			t.devicesIntoPits() // laid by a robot flying over a pit (devices.go)
		}
	}
	t.movePhase()
	for _, st := range t.setup.steps {
		if t.st.Over {
			return
		}
		t.phase = st.name
		st.run(t)
		if len(t.st.Devices) > 0 {
			t.devicesOnElements(st.name) // devices.go
		}
		if t.onRamp > 0 || t.devs.bigRamp != 0 {
			t.settleRamps() // pushed onto a ramp by a pusher: it slides straight back (levels.go)
		}
	}
	if t.st.Over {
		return
	}
	if t.armed.damping != 0 {
		t.dampCopters() // R-AD-COPTER-DAMPED: belts may have carried a field to a copter (cards_devices.go)
		if t.onRamp > 0 {
			t.settleRamps()
		}
	}
	t.phase = "lasers"
	if len(t.st.Devices) > 0 && !t.setup.Rules.Own() {
		t.endGrace()   // seed 001, Devices: the launcher's grace ends (devices.go)
		t.dronesLook() // seed 001, Drone Launcher (cards_devices.go)
	}
	t.fireLasers()
	if t.onRamp > 0 || t.devs.bigRamp != 0 {
		t.settleRamps() // a Robo-Copter hovering on a ramp, brought down by damage (flying.go)
	}
	for _, st := range t.setup.afterLasers {
		t.phase = st.name
		st.run(t)
	}
	if t.st.Over {
		return
	}
	if t.setup.Rules.EnergyMax > 0 {
		t.phase = "batteries"
		t.chargeBatteries() // seed 004, End of Register Activation 7: energy.go
	}
	t.phase = "flags"
	t.touchFlags()
	if t.setup.fx&fxChop != 0 && !t.st.Over && reg < Registers {
		t.phase = "chop-shop"
		t.runChopShops(false)
	}
}

// revealAndOrder (phase a) reveals the cards and sorts the robots that play one,
// highest priority first.
func (t *turn) revealAndOrder() {
	if t.setup.Rules.Own() {
		t.tokenOrder() // seed 004, Priority System: token.go
		return
	}
	t.order = t.orderBuf[:0]
	for i, hi := t.actors(); i < hi; i++ {
		r := &t.st.Robots[i]
		if !r.Active() || r.Power == PowerDown || t.cardIn(i) == 0 {
			continue
		}
		t.order = append(t.order, i)
	}
	if t.setup.fx&fxRandomizer != 0 {
		t.randomize() // seed 001, Randomizers: randomizers.go
	}
	// Highest priority first (seed 003, Program Cards: "Cards with HIGHER priorities are
	// performed (fully) BEFORE cards with lower priorities"). Priorities are unique; an
	// insertion sort on at most 8 robots allocates nothing.
	// A robot under Remote Control plays its controller's card just after it.
	var key [MaxRobots]int // robot i plays before robot j when key[i] > key[j]
	for _, i := range t.order {
		key[i] = t.playKey(i)
	}
	for a := 1; a < len(t.order); a++ {
		for b := a; b > 0 && key[t.order[b]] > key[t.order[b-1]]; b-- {
			t.order[b], t.order[b-1] = t.order[b-1], t.order[b]
		}
	}
}

// cardIn is the card robot i plays in this register: its own, or under Remote Control
// its controller's (seed 000, Remote Control).
func (t *turn) cardIn(i int) int {
	if c := t.cards.remote[i]; c > 0 {
		return t.st.Robots[c-1].Registers[t.register-1]
	}
	return t.st.Robots[i].Registers[t.register-1]
}

// playKey ranks robot i in this register's playing order, the higher first: its card's
// priority, and at the same priority (a robot under Remote Control plays its
// controller's card) the robot not under Remote Control first.
func (t *turn) playKey(i int) int {
	p := t.cardIn(i)
	if t.armed.homingOn != 0 {
		p = t.priorityOf(i) // seed 001, Homing Device: cards_armed.go
	}
	if t.cards.remote[i] == 0 {
		return 2*p + 1
	}
	return 2 * p
}

// elementStep is the board element step of phase c by name (Rules.Elements), nil for an
// unknown name. A new board element adds a case here.
func elementStep(name string) func(*turn) {
	switch name {
	case "express":
		return func(t *turn) { t.moveBelts(beltsExpress) }
	case "belts":
		return func(t *turn) { t.moveBelts(beltsAll) }
	case "pushers":
		return (*turn).runPushers
	case "gears":
		return (*turn).runGears
	case "crushers":
		return (*turn).runCrushers
	case "blue":
		// seed 004: blue belts move robots 1 space, then 1 more if still on a blue belt.
		return func(t *turn) { t.moveBelts(beltsExpress); t.moveBelts(beltsExpress) }
	case "green":
		return func(t *turn) { t.moveBelts(beltsNormal) } // seed 004: green belts move 1
	case "currents":
		return func(t *turn) {
			if t.setup.fx&fxCurrent != 0 {
				t.moveBelts(currents) // seed 001, Currents: water.go
			}
		}
	case "stompers":
		return (*turn).runStompers
	case "flamers":
		return (*turn).runFlamers
	}
	return nil
}
