package adjudicator

import (
	"runtime"
	"unsafe"
)

// resolvers keep Resolvers between calls of Resolve: the judge, replay, the resolve
// command and the tests call Resolve for each turn, and a new Resolver each time made
// the turn's memory (the working state, the event log, the position chunks) anew and
// left it to the collector, several times the cost of the turn itself (issue 24). A
// pooled Resolver gives the results a new one gives, byte for byte, whatever it played
// before (TestPooledResolveMatchesFresh): nothing a turn reads is kept from the last
// but buffers, and the memo of effects is keyed by the effect table and the options.
//
// A channel, not a sync.Pool: the collector empties a sync.Pool within two cycles, and
// a judge resolves a game's turn seconds apart with mail parsed in between, so its
// Resolvers would be gone each time. The channel holds a few (one a core and some), a
// few tens of kB each; more Resolvers at once are made and dropped.
var resolvers = make(chan *Resolver, 2*runtime.GOMAXPROCS(0)+2)

// resolvePooled is ResolveUntil in a pooled Resolver that hands over the log it makes
// and the positions and facings the log points at (resolveUntil), and copies the new
// state out of its memory at its exact size (handOut): the Resolver's scratch memory is
// reused, what the caller keeps is made for it. The state used to be made at the size
// of MaxRobots robots (4 kB) and the turn cleared twice; with Resolve at 1.5-2 times
// the reused Resolver, nearly all of the difference is the collector's (its cycles
// and the write barriers while it marks), so the bytes handed over are what counts.
func resolvePooled(s *Setup, st *State, orders []Orders, stopAfter int) (*State, []Event, error) {
	rv := borrowResolver()
	next, events, err := rv.resolveUntil(s, st, orders, stopAfter, logSize(s, len(st.Robots)))
	if err == nil && rv.t.sm != nil {
		next = rv.t.sm.handOut(next)
	}
	giveBack(rv)
	return next, events, err
}

// borrowResolver is a Resolver from the pool, or a new one when the pool is empty.
func borrowResolver() *Resolver {
	select {
	case rv := <-resolvers:
		return rv
	default:
		return new(Resolver)
	}
}

// giveBack returns rv to the pool, or leaves it to the collector when the pool is full.
// A turn that panicked (a bug) leaves its Resolver to the collector; one given back
// holds no pointer to the caller's setup, orders or states but in buffers (the last
// log's names).
func giveBack(rv *Resolver) {
	rv.t = turn{fireExtra: rv.t.fireExtra, fireFor: rv.t.fireFor}
	rv.cleared = true
	rv.last = nil // nothing handed out lives in it
	select {
	case resolvers <- rv:
	default:
	}
}

// handOut is a copy of st, a postal turn's new state written in m, with what lives in
// m (the State, its robots, the hands dealt from m.deck, the option lists made in
// m.opts) copied out at its exact size; what st shares with the caller's states (the
// lists a turn only reads) stays shared, as the turn left it. A list copied out is
// clipped, as it was, so that appending to it copies it.
func (m *stateMem) handOut(st *State) *State {
	c := new(State)
	*c = *st
	if len(st.Robots) > 0 && inArray(st.Robots, m.robots[:]) {
		c.Robots = make([]Robot, len(st.Robots))
		copy(c.Robots, st.Robots)
	}
	nInts, nStrs := 0, 0
	for i := range c.Robots {
		r := &c.Robots[i]
		if inArray(r.Hand, m.deck[:]) {
			nInts += len(r.Hand)
		}
		if inArray(r.Options, m.opts[:]) {
			nStrs += len(r.Options)
		}
	}
	ints, strs := make([]int, nInts), make([]string, nStrs)
	for i := range c.Robots {
		r := &c.Robots[i]
		if inArray(r.Hand, m.deck[:]) {
			n := copy(ints, r.Hand)
			r.Hand, ints = ints[:n:n], ints[n:]
		}
		if inArray(r.Options, m.opts[:]) {
			n := copy(strs, r.Options)
			r.Options, strs = strs[:n:n], strs[n:]
		}
	}
	return c
}

// inArray reports whether s is a non-nil slice whose memory is in arr's (a list of
// length 0 there as well: it is given new, empty memory).
func inArray[T any](s, arr []T) bool {
	if s == nil || len(arr) == 0 {
		return false
	}
	var zero T
	size := unsafe.Sizeof(zero)
	p := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(arr)))
	return p >= lo && p <= lo+uintptr(len(arr))*size
}
