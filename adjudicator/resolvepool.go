package adjudicator

import "runtime"

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

// resolvePooled is ResolveUntil in a pooled Resolver that hands over the state and the
// log it makes (resolveUntil): the Resolver's scratch memory is reused, what the caller
// keeps is made for it, not copied.
func resolvePooled(s *Setup, st *State, orders []Orders, stopAfter int) (*State, []Event, error) {
	var rv *Resolver
	select {
	case rv = <-resolvers:
	default:
		rv = new(Resolver)
	}
	next, events, err := rv.resolveUntil(s, st, orders, stopAfter, true)
	// A turn that panicked (a bug) leaves its Resolver to the collector; this one goes
	// back holding no pointer to the caller's setup, orders or states but in buffers.
	rv.t = turn{fireExtra: rv.t.fireExtra, fireFor: rv.t.fireFor}
	select {
	case resolvers <- rv:
	default:
	}
	return next, events, err
}
