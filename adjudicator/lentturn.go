package adjudicator

// LentTurn is a turn played in a pooled Resolver whose event log is lent to the
// caller, not copied out: the judge, replay and the resolve command narrate, store or
// print the log and are done with it before the next turn, and making the log (7 to 42
// kB of events and the positions they point at) anew each turn and leaving it to the
// collector was most of what a turn through Resolve cost beyond the reused Resolver's
// (issue 24 item 1, BenchmarkFastPath: against the reused Resolver, Resolve was 1.38-1.96
// postal and 1.31-1.64 2023, the lent turn 1.12-1.23 and 1.01-1.05; medians of 5 runs).
//
// Next is the caller's to keep, as Resolve's is (a postal state is copied out of the
// Resolver at its exact size; a 2023 state is made for the turn). Events, and the
// positions and facings its events point at, live in the Resolver: they are valid until
// Release and must not be kept past it (strings in them may be kept: they are never
// written over). KeepEvents copies the log for a caller that keeps it. The results are
// Resolve's, byte for byte (TestLentTurnMatchesResolve).
type LentTurn struct {
	Next   *State
	Events []Event
	rv     *Resolver
}

// ResolveLent is Resolve with the event log lent (LentTurn). Call Release once the log
// is used; a LentTurn that is never released costs only its Resolver's return to the
// pool. On an error there is nothing to release.
func ResolveLent(s *Setup, st *State, orders []Orders) (LentTurn, error) {
	rv := borrowResolver()
	next, events, err := rv.resolveUntil(s, st, orders, 0, 0)
	if err != nil {
		giveBack(rv)
		return LentTurn{}, err
	}
	if rv.t.sm != nil {
		next = rv.t.sm.handOut(next)
	}
	return LentTurn{Next: next, Events: events, rv: rv}, nil
}

// Release gives the Resolver back to the pool: Events is nil after it, and a log read
// from it before must not be used any more. Releasing twice is releasing once.
func (l *LentTurn) Release() {
	if l.rv == nil {
		return
	}
	rv := l.rv
	l.rv, l.Events = nil, nil
	giveBack(rv)
}

// KeepEvents is a copy of the lent log that the caller keeps: the events, and the
// positions and facings they point at, made anew.
func (l *LentTurn) KeepEvents() []Event {
	return CloneEvents(l.Events)
}

// CloneEvents is a deep copy of events: the positions and facings they point at are
// copied too, so that nothing of the copy shares memory with events.
func CloneEvents(events []Event) []Event {
	if events == nil {
		return nil
	}
	out := make([]Event, len(events))
	copy(out, events)
	n := 0
	for i := range events {
		if events[i].From != nil {
			n++
		}
		if events[i].To != nil {
			n++
		}
		if events[i].Target != nil {
			n++
		}
	}
	pos := make([]Pos, 0, n)
	clonePos := func(p *Pos) *Pos {
		if p == nil {
			return nil
		}
		pos = append(pos, *p)
		return &pos[len(pos)-1]
	}
	var dirs []Dir
	for i := range out {
		e := &out[i]
		e.From, e.To, e.Target = clonePos(e.From), clonePos(e.To), clonePos(e.Target)
		if e.Facing != nil {
			if dirs == nil {
				dirs = make([]Dir, 0, len(events)-i)
			}
			dirs = append(dirs, *e.Facing)
			e.Facing = &dirs[len(dirs)-1]
		}
	}
	return out
}
