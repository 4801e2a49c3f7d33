package adjudicator

// Resolver plays turn after turn reusing its memory, so that a turn allocates next to
// nothing once the Resolver has played one of its size: the working state of the turn,
// the event log, the new state and its hands all live in the Resolver. Its results are
// the same as Resolve's, byte for byte (TestResolverMatchesResolve).
//
// What it returns lives in the Resolver: the event log until the next call; the state
// until the Resolver writes another state over it. It keeps two states and never writes
// over the one it is given as st, otherwise over the older one, so a game played by
// passing each state back keeps the last state and the one before it. Clone a state (and
// copy the log) to keep it longer. The zero Resolver is ready to use; a Resolver is not
// safe for concurrent use.
type Resolver struct {
	t      turn
	mem    turnMem
	alt    *stateMem // the second state, made on the second turn
	last   *stateMem // the state returned last
	events []Event
}

// turnMem is the storage a turn uses instead of allocating: event positions and facings,
// the lasers' hits and occupied squares, the overflow chunks of positions. Sized to a
// busy turn (BenchmarkTurn8Robots logs about 100 positions and 10 facings).
type turnMem struct {
	pos     [128]Pos
	dir     [64]Dir
	hits    [32]hit
	occ     [1024]bool
	posMore [][]Pos
	state   stateMem
	fx      [MaxRobots][2]fxMemo // refreshFx
	fxNext  [MaxRobots]uint8     // the slot of fx[i] written next
	blast   blastDists           // turn.blast (blastcache.go)
}

// stateMem is where a postal turn's new state lives: the State, its robots, the deck
// the new hands are dealt from (each hand is a piece of it), and the option lists made
// during the turn (turn.newOptions).
type stateMem struct {
	st     State
	robots [MaxRobots]Robot
	deck   [128]int
	opts   [4 * MaxRobots]string
	nOpts  int // opts[:nOpts] are in use this turn
}

// Resolve is Resolve played in the Resolver's memory.
func (rv *Resolver) Resolve(s *Setup, st *State, orders []Orders) (*State, []Event, error) {
	return rv.ResolveUntil(s, st, orders, 0)
}

// ResolveUntil is ResolveUntil played in the Resolver's memory.
func (rv *Resolver) ResolveUntil(s *Setup, st *State, orders []Orders, stopAfter int) (*State, []Event, error) {
	return rv.resolveUntil(s, st, orders, stopAfter, false)
}

// resolveUntil is ResolveUntil; with handOver the state, the log and the positions and
// facings the log points at are made new for the turn, the caller's to keep (Resolve:
// resolvepool.go), and only the Resolver's scratch memory is reused.
func (rv *Resolver) resolveUntil(s *Setup, st *State, orders []Orders, stopAfter int, handOver bool) (*State, []Event, error) {
	if err := checkResolve(s, st, orders); err != nil {
		return nil, nil, err
	}
	events := rv.events[:0]
	if events == nil || handOver {
		// A postal turn logs about 14 events a robot (BenchmarkTurn8Robots: 114 for 8);
		// the log grows past 16+16 a robot if it must.
		events = make([]Event, 0, 16+16*len(st.Robots))
	}
	// Every field of the turn starts at zero each turn; only the memory is kept.
	rv.t = turn{setup: s, orders: orders, single: -1, mem: &rv.mem, events: events, walls: s.walls, wallsW: s.wallsW,
		fireExtra: rv.t.fireExtra, fireFor: rv.t.fireFor, handOver: handOver}
	t := &rv.t
	if s.Rules.Own() {
		t.st = st.Clone()
	} else {
		if handOver {
			t.sm = new(stateMem)
		} else {
			t.sm = rv.stateFor(st)
		}
		t.sm.nOpts = 0
		t.st = st.cloneForTurn(&t.sm.st, t.sm.robots[:0])
	}
	t.posBuf, t.dirBuf, t.hits = rv.mem.pos[:0], rv.mem.dir[:0], rv.mem.hits[:0]
	if handOver {
		// About 12 positions a robot in a postal turn (BenchmarkTurn8Robots); more
		// come 64 at a time (morePos).
		t.posBuf, t.dirBuf = make([]Pos, 0, 8+12*len(st.Robots)), nil
	}
	if stopAfter > 0 && stopAfter <= Registers {
		t.stopAfter = stopAfter
	}
	t.play()
	if !handOver {
		rv.events = t.events
	}
	return t.st, t.events, nil
}

// stateFor is the state memory the next postal state is written in: never st's own,
// otherwise the older of the two.
func (rv *Resolver) stateFor(st *State) *stateMem {
	a := &rv.mem.state
	if rv.last == nil {
		rv.last = a
		return a
	}
	if rv.alt == nil {
		rv.alt = new(stateMem)
	}
	b := rv.alt
	switch {
	case st == &a.st || owns(a, st):
		rv.last = b
	case st == &b.st || owns(b, st):
		rv.last = a
	case rv.last == a:
		rv.last = b
	default:
		rv.last = a
	}
	return rv.last
}

// owns reports whether st's robots are the ones stored in m (a copy of a State the
// Resolver returned shares them).
func owns(m *stateMem, st *State) bool {
	return len(st.Robots) > 0 && &st.Robots[0] == &m.robots[0]
}
