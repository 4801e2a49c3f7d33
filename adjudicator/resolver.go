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
	// cleared: t is zero but for fireExtra and fireFor (resolvePooled cleared it).
	cleared bool
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
	return rv.resolveUntil(s, st, orders, stopAfter, 0)
}

// resolveUntil is ResolveUntil; with logCap > 0 the log (made with that capacity) and
// the positions and facings it points at are made new for the turn, the caller's to
// keep (Resolve: resolvepool.go).
func (rv *Resolver) resolveUntil(s *Setup, st *State, orders []Orders, stopAfter, logCap int) (*State, []Event, error) {
	if err := checkResolve(s, st, orders); err != nil {
		return nil, nil, err
	}
	handOver := logCap > 0
	events := rv.events[:0]
	if handOver {
		events = make([]Event, 0, logCap)
	} else if events == nil {
		events = make([]Event, 0, logSize(s, len(st.Robots)))
	}
	// Every field of the turn starts at zero each turn; only the memory is kept. A
	// pooled Resolver comes back with its turn cleared already (resolvePooled): the turn
	// is some kB with pointers, and clearing it costs a write barrier a word while the
	// collector marks.
	if !rv.cleared {
		rv.t = turn{fireExtra: rv.t.fireExtra, fireFor: rv.t.fireFor}
	}
	rv.cleared = false
	t := &rv.t
	t.setup, t.orders, t.single, t.mem, t.events, t.walls, t.wallsW = s, orders, -1, &rv.mem, events, s.walls, s.wallsW
	if s.Rules.Own() {
		t.st = st.Clone()
	} else {
		t.sm = rv.stateFor(st)
		t.sm.nOpts = 0
		t.st = st.cloneForTurn(&t.sm.st, t.sm.robots[:0])
	}
	t.posBuf, t.dirBuf, t.hits = rv.mem.pos[:0], rv.mem.dir[:0], rv.mem.hits[:0]
	t.handOver = handOver
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

// logSize is the capacity a turn's log starts with. A postal turn logs 6 to 15 events a
// robot (BenchmarkTurn8Robots: 114 for 8), a 2023 round 12 to 28 with upgrades
// (BenchmarkFastPath's games); the log grows past this if it must.
func logSize(s *Setup, robots int) int {
	if s.Rules.Own() {
		return 16 + 20*robots
	}
	return 16 + 14*robots
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
