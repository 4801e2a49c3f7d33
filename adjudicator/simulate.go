package adjudicator

import (
	"fmt"
	"slices"
)

// Simulate plays one robot's program alone on the current board, the other robots
// standing where they are and holding fire (they can still be pushed): the forecast a
// player gets for a sheet, and the autopilot's inner loop. It returns the robot after
// the five registers (before the end of turn) and the events. st is not changed.
func Simulate(s *Setup, st *State, robot int, o Orders) (Robot, []Event, error) {
	if robot < 0 || robot >= len(st.Robots) {
		return Robot{}, nil, fmt.Errorf("simulate: no robot %d", robot)
	}
	// CheckOrders: the program, or under the 2023 rules a shutdown, which needs none.
	if errs := s.CheckOrders(st, robot, o); len(errs) > 0 {
		return Robot{}, nil, fmt.Errorf("simulate: %v", errs[0])
	}
	t := &turn{setup: s, st: st.Clone(), single: robot, walls: s.walls, wallsW: s.wallsW}
	t.orders = make([]Orders, len(st.Robots))
	t.orders[robot] = o
	t.playSingle()
	return t.st.Robots[robot], t.events, nil
}

// Simulator runs many forecasts from one position cheaply: it keeps its buffers between
// runs and records no events. The autopilot tries every program a hand allows (9·8·7·6·5
// = 15,120 for a full hand) through one Simulator. A Simulator is not safe for
// concurrent use; make one per goroutine.
type Simulator struct {
	setup  *Setup
	base   *State
	st     State
	orders []Orders
	t      turn
	// mats are the forecast's player mats (2023 rules), copied from the base state's
	// into these buffers for each run instead of allocated; discards their discard
	// piles, and dmgDeck and dmgDiscard the damage piles, copied into the Simulator's
	// own arrays so that a forecast's damage cards (a SPAM on the discard pile, a
	// Haywire or a burnt SPAM on the damage discard pile, a SPAM drawn from the middle of
	// the damage deck) go into memory made once, not into a new array each run.
	mats                []Mat
	discards            [][]int
	dmgDeck, dmgDiscard []int
	// r23 is the 2023 round's working state (round.go), kept between runs.
	r23 *roundState
	// ran: t holds a run's turn (clearTurn).
	ran bool
	// The blind copies of ResetBlind and the memory they are made in.
	bs      Setup
	bst     State
	bRobots []Robot
	bMats   []Mat
	bOpts   []string
	bInts   []int
}

// clearTurn zeroes the turn but for its buffers, unless no run has written it since it
// was last cleared. The turn is some kB with pointers: a composite literal assigned to
// it is built aside and copied, a write barrier a pointer while the collector marks,
// and a forecast of a sheet (orders.Validate) cleared it three times (Reset, run,
// Reset(nil, nil)); now it is cleared once and written field by field.
func (sim *Simulator) clearTurn() {
	if !sim.ran {
		return
	}
	hits, occ, blast := sim.t.hits[:0], sim.t.occ, sim.t.blast
	sim.t = turn{}
	sim.t.hits, sim.t.occ, sim.t.blast = hits, occ, blast
	sim.ran = false
}

// roundBuf is the 2023 round state for the next run, zeroed: made once per Simulator.
func (sim *Simulator) roundBuf() *roundState {
	if sim.r23 == nil {
		sim.r23 = &roundState{}
	} else {
		*sim.r23 = roundState{}
	}
	return sim.r23
}

// NewSimulator prepares forecasts of st, which must not change while the Simulator is
// in use.
func NewSimulator(s *Setup, st *State) *Simulator {
	sim := &Simulator{setup: s, base: st}
	sim.st = *st
	sim.st.Robots = make([]Robot, len(st.Robots))
	sim.orders = make([]Orders, len(st.Robots))
	sim.mats = make([]Mat, len(st.Robots))
	return sim
}

// Reset points sim at another position, as NewSimulator(s, st) would make it, keeping
// its buffers: a Simulator kept in a pool (orders.Validate forecasts each sheet once)
// allocates nothing more. Reset(nil, nil) lets go of the last position.
func (sim *Simulator) Reset(s *Setup, st *State) {
	if st == nil && sim.bRobots != nil {
		// the blind copies hold the last game's setup and robots
		sim.bs, sim.bst = Setup{}, State{}
		clear(sim.bRobots[:cap(sim.bRobots)])
		clear(sim.bMats[:cap(sim.bMats)])
		clear(sim.bOpts[:cap(sim.bOpts)])
	}
	robots, orders, mats := sim.st.Robots, sim.orders, sim.mats
	sim.setup, sim.base = s, st
	sim.st = State{}
	sim.clearTurn()
	if sim.t.blast != nil {
		sim.t.blast.forget()
	}
	n := 0
	if st != nil {
		sim.st = *st
		n = len(st.Robots)
	}
	if cap(robots) < n {
		robots, orders, mats = make([]Robot, n), make([]Orders, n), make([]Mat, n)
	}
	sim.st.Robots, sim.orders, sim.mats = robots[:n], orders[:n], mats[:n]
	// The first n are written by the next run before it reads them (it copies the base
	// robots, clears the orders and copies the mats it uses); those past them are let
	// go of. Zeroing all of them again zeroed a kB of pointers a forecast of a sheet.
	clear(robots[n:cap(robots)])
	clear(orders[n:cap(orders)])
	clear(mats[n:cap(mats)])
}

// Run plays robot's program prog with decider d (nil: Defaults) and returns the robot
// after the five registers. It checks the program like Simulate.
func (sim *Simulator) Run(robot int, prog [Registers]int, d Decider) (Robot, error) {
	r, err := sim.Forecast(robot, prog, d)
	if err != nil {
		return Robot{}, err
	}
	return sim.keep(robot, r), nil
}

// Forecast is Run without the copy: the robot after the five registers as it stands in
// the Simulator's memory, valid until the Simulator runs or is reset again. A search
// trying thousands of programs reads each forecast where it is and keeps (Keep) only the
// few it wants; Run copies every one.
func (sim *Simulator) Forecast(robot int, prog [Registers]int, d Decider) (*Robot, error) {
	if robot < 0 || robot >= len(sim.base.Robots) {
		return nil, fmt.Errorf("simulate: no robot %d", robot)
	}
	if errs := sim.setup.CheckProgram(sim.base, robot, prog); len(errs) > 0 {
		return nil, fmt.Errorf("simulate: %v", errs[0])
	}
	return sim.run(robot, Orders{Program: prog, Decider: d}), nil
}

// Keep is a copy of robot r, a Forecast of the robot numbered robot, that outlives the
// Simulator's next run: Run's result for the same program.
func (sim *Simulator) Keep(robot int, r *Robot) Robot {
	return sim.keep(robot, r)
}

func (sim *Simulator) keep(robot int, r *Robot) Robot {
	out := *r
	if out.Mat != nil {
		// The mat and its discard pile are the Simulator's buffers: copied. A pile the
		// forecast added nothing to is the base state's, as it was.
		m := *out.Mat
		if base := sim.base.Robots[robot].Mat; base != nil && len(m.Discard) == len(base.Discard) {
			m.Discard = slices.Clip(base.Discard)
			if m.Discard == nil {
				m.Discard = []int{}
			}
		} else {
			m.Discard = slices.Clone(m.Discard)
		}
		out.Mat = &m
	}
	return out
}

// Ended is the register in which the last Run's forecast ended the game (the robot
// touched the last flag and won), 0 when it did not: of two winning programs, the one
// ending the race in an earlier register wins it against a robot finishing later in
// the same round.
func (sim *Simulator) Ended() int {
	if sim.base == nil || sim.base.Over || !sim.st.Over {
		return 0
	}
	return sim.t.register
}

// FlagRegister is the register in which the last Run's robot last touched a flag (a
// checkpoint under the 2023 rules), 0 when it touched none.
func (sim *Simulator) FlagRegister() int { return sim.t.flagAt }

// WithUpgradePhase is st with robot's upgrade phase u played (2023 rules, upgrades.go),
// as the round's activation starts from it: the state a forecast search of the round's
// programs runs on, so that the phase is played once and not in every forecast. st is
// not changed; u is checked as Setup.CheckOrders checks it.
func (s *Setup) WithUpgradePhase(st *State, robot int, u UpgradeOrders) (*State, error) {
	if robot < 0 || robot >= len(st.Robots) {
		return nil, fmt.Errorf("upgrade phase: no robot %d", robot)
	}
	if errs := s.CheckOrders(st, robot, Orders{Upgrade: u, Shutdown: true}); len(errs) > 0 {
		return nil, fmt.Errorf("upgrade phase: %v", errs[0])
	}
	t := &turn{setup: s, st: st.Clone(), single: robot, quiet: true}
	t.orders = make([]Orders, len(st.Robots))
	t.orders[robot] = Orders{Upgrade: u}
	if r := &t.st.Robots[robot]; r.Mat != nil && !r.Out {
		t.upgradePhase(robot)
	}
	return t.st, nil
}

func (sim *Simulator) run(robot int, o Orders) *Robot {
	// Shallow copies share Hand and Options with the base state; clipping their
	// capacity makes any append (an option discarded to prevent damage) copy first.
	copy(sim.st.Robots, sim.base.Robots)
	if len(sim.discards) < len(sim.st.Robots) {
		sim.discards = make([][]int, len(sim.st.Robots))
	}
	for i := range sim.st.Robots {
		r := &sim.st.Robots[i]
		r.Hand = slices.Clip(r.Hand)
		r.Options = slices.Clip(r.Options)
		if m := r.Mat; m != nil {
			// 2023: a forecast changes the mats (energy, damage cards, discards, upgrades
			// drawn) but draws no card from a robot's own deck (R-FORECAST-HIDDEN: no
			// shuffle reorders a pile in place), so a copy of the mat whose deck and
			// collection are clipped (any append copies first) and whose discard pile is
			// copied into the Simulator's own array leaves the base state's untouched.
			c := &sim.mats[i]
			*c = *m
			c.Deck, c.Collection = slices.Clip(m.Deck), slices.Clip(m.Collection)
			sim.discards[i] = ownCopy(sim.discards[i], m.Discard)
			c.Discard = sim.discards[i]
			r.Mat = c
		}
		r.Tokens = slices.Clip(r.Tokens)
	}
	sim.dmgDeck = ownCopy(sim.dmgDeck, sim.base.DamageDeck)
	sim.dmgDiscard = ownCopy(sim.dmgDiscard, sim.base.DamageDiscard)
	sim.st.DamageDeck, sim.st.DamageDiscard = sim.dmgDeck, sim.dmgDiscard
	if sim.base.DamageDeck == nil {
		sim.st.DamageDeck = nil
	}
	if sim.base.DamageDiscard == nil {
		sim.st.DamageDiscard = nil
	}
	sim.st.Turn, sim.st.Winner, sim.st.Over = sim.base.Turn, sim.base.Winner, sim.base.Over
	sim.st.OptionDeck = slices.Clip(sim.base.OptionDeck)
	sim.st.OptionDiscard = slices.Clip(sim.base.OptionDiscard)
	clear(sim.orders)
	sim.orders[robot] = o
	sim.clearTurn()
	sim.ran = true
	t := &sim.t
	t.setup, t.st, t.orders, t.single, t.quiet = sim.setup, &sim.st, sim.orders, robot, true
	t.walls, t.wallsW = sim.setup.walls, sim.setup.wallsW
	t.ownPiles = true
	if sim.setup.Rules.Own() {
		t.r23 = sim.roundBuf()
	}
	t.playSingle()
	return &sim.st.Robots[robot]
}

// ownCopy is from copied into buf (grown when short, with room for a round's cards
// more): a pile the Simulator owns. An empty pile is an empty slice, never nil (as
// Mat.clone makes it: the same JSON).
func ownCopy(buf, from []int) []int {
	if buf == nil || cap(buf) < len(from) {
		buf = make([]int, 0, len(from)+2*Registers+10)
	}
	return append(buf[:0], from...)
}

func (t *turn) playSingle() {
	r := &t.st.Robots[t.single]
	if t.setup.Rules.Own() {
		// 2023: a forecast starts the round as the round does (the upgrade phase, a
		// shutdown), without touching the hand (a Simulator shares it with its base
		// state).
		t.round().reentering[t.single] = r.Destroyed
		if r.Mat != nil && !r.Out {
			t.upgradePhase(t.single)
		}
		// A shutdown ordered outright or by the orders' power-down decision, as the
		// round asks it (round.go); the forecast does not empty the hand (shared).
		if t.orders[t.single].Shutdown || (!r.Out && t.decider(t.single).PowerDown(t.view(t.single))) {
			r.Power = PowerDown
		}
	}
	if r.Power != PowerDown {
		for reg := 1; reg <= Registers; reg++ {
			if !r.IsLocked(reg) {
				r.Registers[reg-1] = t.orders[t.single].Program[reg-1]
			}
		}
		if !t.setup.Rules.Own() {
			// As play does: the hand as dealt (read only: a Simulator shares it), the
			// phase programs (phases.go), the scrambler bombs going off, the
			// turn-programmed choices (Starter).
			t.cards.hand[t.single] = r.Hand
			if t.has(t.single, hkPhased) {
				t.phase = "program"
				t.programPhases(t.single)
				t.phase = ""
			}
			if len(t.st.Devices) > 0 {
				t.scramblersGoOff()
			}
			if r.Active() {
				t.eachFx(t.single, hkStart, func(e Effect) {
					if s, ok := e.(Starter); ok {
						s.StartTurn(t.view(t.single))
					}
				})
			}
		}
	}
	for reg := 1; reg <= Registers && (r.Active() || t.round().reentering[t.single]) && !t.st.Over; reg++ {
		t.runRegister(reg)
	}
}

// ResetBlind is Reset(s.Blind(st, robot)), with the copies made in the Simulator's
// memory: forecasts of robot's program in the game as its player knows it (Blind,
// ruling R-FORECAST-HIDDEN). The piles Blind sorts are sorted copies and the other
// robots' hidden cards are taken away, as in Blind; what a forecast only reads (hands,
// options, tokens, discard piles) is shared with st, as Reset shares it with the state it
// is given. orders.Validate forecasts every sheet so: Blind's deep copies were 7
// allocations and a tenth of reading and checking a sheet (issue 24 item 5).
func (sim *Simulator) ResetBlind(s *Setup, st *State, robot int) {
	sim.bs = *s
	sim.bs.Seed = blindSeed
	b := &sim.bst
	*b = *st
	b.Robots = append(sim.bRobots[:0], st.Robots...)
	sim.bRobots = b.Robots
	if cap(sim.bMats) < len(b.Robots) {
		sim.bMats = make([]Mat, len(b.Robots))
	}
	ints := sim.bInts[:0]
	sortedInts := func(from []int) []int {
		if from == nil {
			return nil
		}
		k := len(ints)
		ints = append(ints, from...)
		slices.Sort(ints[k:])
		return ints[k:len(ints):len(ints)]
	}
	if st.OptionDeck != nil {
		b.OptionDeck = append(sim.bOpts[:0], st.OptionDeck...)
		slices.Sort(b.OptionDeck)
		sim.bOpts = b.OptionDeck
		b.OptionDeck = slices.Clip(b.OptionDeck)
	}
	b.DamageDeck = sortedInts(st.DamageDeck)
	if st.Piles != nil {
		b.Piles = clonePiles(st.Piles)
		for k := range b.Piles {
			slices.Sort(b.Piles[k])
		}
	}
	b.Devices = cloneDevices(st.Devices)
	for i := range b.Robots {
		r := &b.Robots[i]
		if r.Mat != nil {
			m := &sim.bMats[i]
			*m = *r.Mat
			m.Deck = sortedInts(r.Mat.Deck)
			if i != robot {
				m.Haywire = [Registers]int{}
			}
			r.Mat = m
		}
		if i != robot {
			r.Hand, r.BombHand, r.Offered = nil, nil, nil
		}
	}
	sim.bInts = ints
	sim.Reset(&sim.bs, b)
}

// blindSeed is the seed a forecast plays with (Setup.Blind): any fixed number does, as
// long as it is not the game's.
const blindSeed = 0x5EED_0F_F0_7EC_A57

// Blind is the game as robot's player knows it, for a forecast of that robot's program
// (ruling R-FORECAST-HIDDEN): a copy of s with a fixed seed in place of the game's, and a
// copy of st whose face-down piles lie in a fixed order (the option deck, the damage
// deck, Scavenger Hunt's piles and every robot's own draw pile, sorted) and whose other
// robots' hidden cards are taken away (their hands, Buzz Bomb hands, Deluxe offers and
// face-down Haywire cards). A forecast of the copies depends only on what the player can
// see: however often a sheet is mailed, it tells nothing of the decks' order, of the
// seed's draws, nor of the other players' cards. The forecast mode (turn.single) already
// draws no hidden card where one would come (drawOption, drawFromPile, replaceCard,
// randomize, scramble); the copies make sure that whatever else reads them learns
// nothing hidden. s and st are not changed.
func (s *Setup) Blind(st *State, robot int) (*Setup, *State) {
	b := *s
	b.Seed = blindSeed
	c := st.Clone()
	slices.Sort(c.OptionDeck)
	slices.Sort(c.DamageDeck)
	for k := range c.Piles {
		slices.Sort(c.Piles[k])
	}
	for i := range c.Robots {
		r := &c.Robots[i]
		if r.Mat != nil {
			slices.Sort(r.Mat.Deck)
		}
		if i == robot {
			continue
		}
		r.Hand, r.BombHand, r.Offered = nil, nil, nil
		if r.Mat != nil {
			r.Mat.Haywire = [Registers]int{}
		}
	}
	return &b, c
}
