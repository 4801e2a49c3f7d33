package judge

import (
	"sync"
	"time"

	"github.com/rallyjudge/rallyjudge/store"
)

// lifeWatch is what Lifecycle knows of the games between ticks (issue 24 item 2), so a
// tick reads only the games whose row changed since the last (the feed of store
// migration 013, which every writer feeds, the CLI in another process too), not every
// running and finished game:
//
//   - a running game's reminders cannot fall due before the next lead time crosses
//     (deadline minus a reminder lead, after now) or the row changes (a new deadline,
//     turn or options): remind is not asked before;
//   - a finished game's final mails are all in the outbox once finalSummary has run:
//     it is not asked again.
//
// It reads every game again when it starts, when the feed no longer reaches back to
// its place, and every sweepEvery (for a player joining in the middle of a turn: the
// players table has no feed).
type lifeWatch struct {
	mu       sync.Mutex // one Lifecycle at a time
	loaded   bool
	loadedAt time.Time
	seq      int64 // the last change read
	games    map[int64]*lifeGame
	// wake is the earliest a game of games wants a visit (the least quiet of a running
	// game not never, zero for a finished game not final), idle when none does: a tick
	// before it with no change in the feed looks at no game instead of every one. It is
	// worked out again only when a Lifecycle read or learnt something, so an idle tick
	// costs the same at 10,000 games as at 1,000.
	wake time.Time
	idle bool
}

type lifeGame struct {
	g     store.Game
	quiet time.Time // remind has nothing to do before; zero: ask
	never bool      // remind has nothing to do until the row changes
	final bool      // over, and its final mails are in the outbox
}

// lifePlan is one Lifecycle transaction's reading of the games and what it learnt,
// applied to the watch only once the transaction has committed.
type lifePlan struct {
	reload  bool
	seq     int64
	games   map[int64]*lifeGame // reload: every running and finished game
	changed map[int64]*store.Game
	learnt  map[int64]lifeGame // quiet, never and final, by game
}

// read is the games to look at now, from the watch and the changes since.
func (w *lifeWatch) read(tx *store.Tx, now time.Time) (*lifePlan, []*lifeGame, error) {
	p := &lifePlan{learnt: map[int64]lifeGame{}}
	p.reload = !w.loaded || now.Sub(w.loadedAt) >= sweepEvery || now.Before(w.loadedAt)
	if !p.reload {
		ids, last, ok, err := tx.GameChangesAfter(w.seq)
		if err != nil {
			return nil, nil, err
		}
		if ok {
			p.seq, p.changed = last, map[int64]*store.Game{}
			for _, id := range ids {
				g, err := tx.Game(id)
				if err != nil {
					return nil, nil, err
				}
				p.changed[id] = &g
			}
		} else {
			p.reload = true
		}
	}
	if p.reload {
		last, err := tx.LastGameChange()
		if err != nil {
			return nil, nil, err
		}
		gs, err := tx.Games(store.GameRunning, store.GameOver)
		if err != nil {
			return nil, nil, err
		}
		p.seq, p.games = last, make(map[int64]*lifeGame, len(gs))
		for _, g := range gs {
			p.games[g.ID] = &lifeGame{g: g}
		}
	}
	var visit []*lifeGame
	look := func(lg *lifeGame) {
		switch lg.g.Status {
		case store.GameRunning:
			if !lg.never && !now.Before(lg.quiet) {
				visit = append(visit, lg)
			}
		case store.GameOver:
			if !lg.final {
				visit = append(visit, lg)
			}
		}
	}
	if p.reload {
		for _, lg := range p.games {
			look(lg)
		}
	} else {
		if len(p.changed) > 0 || !w.idle && !now.Before(w.wake) {
			for id, lg := range w.games {
				if _, ok := p.changed[id]; !ok {
					look(lg)
				}
			}
		}
		for _, g := range p.changed {
			look(&lifeGame{g: *g})
		}
	}
	return p, visit, nil
}

// apply keeps what a committed Lifecycle read and learnt.
func (w *lifeWatch) apply(p *lifePlan, now time.Time) {
	if p.reload {
		w.games, w.loaded, w.loadedAt = p.games, true, now
	}
	w.seq = p.seq
	for id, g := range p.changed {
		if g.Status == store.GameRunning || g.Status == store.GameOver {
			w.games[id] = &lifeGame{g: *g}
		} else {
			delete(w.games, id)
		}
	}
	for id, l := range p.learnt {
		if lg := w.games[id]; lg != nil {
			lg.quiet, lg.never, lg.final = l.quiet, l.never, l.final
		}
	}
	if p.reload || len(p.changed) > 0 || len(p.learnt) > 0 {
		w.wake, w.idle = time.Time{}, true
		for _, lg := range w.games {
			var at time.Time
			switch {
			case lg.g.Status == store.GameRunning && !lg.never:
				at = lg.quiet
			case lg.g.Status == store.GameOver && !lg.final:
			default:
				continue
			}
			if w.idle || at.Before(w.wake) {
				w.wake, w.idle = at, false
			}
		}
	}
}

// nextReminder is when remind may next have something to do in running game g, as of
// now: the next reminder lead time to cross; never (false) when none is left before the
// deadline (the row changes with the next deadline).
func nextReminder(g store.Game, o Options, now time.Time) (time.Time, bool) {
	if g.DeadlineAt.IsZero() || !now.Before(g.DeadlineAt) {
		return time.Time{}, false
	}
	var next time.Time
	for _, l := range o.leads() {
		if at := g.DeadlineAt.Add(-l); l > 0 && at.After(now) && (next.IsZero() || at.Before(next)) {
			next = at
		}
	}
	return next, !next.IsZero()
}
