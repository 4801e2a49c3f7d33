package judge

import (
	"slices"
	"sync"
	"time"
)

// readyWatch is what Tick must look at besides the deadlines (issue 24 item 2): the
// games whose turn may be complete without having been resolved. Readiness changes only
// with what a transaction writes (a sheet, a withdrawal, a WAIT), never with the clock,
// and intake resolves a game's turn right after the transaction that touched it
// (batch.go, inbound.go, commands.go). So the tick looks again only where that did not
// happen or may have failed:
//
//   - a judge that starts looks at every running game (it may have stopped between a
//     commit and the resolution that should follow it);
//   - a resolution that failed, or was not reached, marks its game;
//   - a judge that takes over the mailbox from another looks at every running game
//     (several judges on one database: the other's marks died with it);
//   - every sweepEvery it looks at every running game again, for what another process
//     on the same database may have written (the game command of the CLI resolves what
//     it touches itself; this is the net under it).
//
// A tick with nothing marked costs no look at any game: 1,000 or 10,000 idle running
// games cost the same (BenchmarkTick).
type readyWatch struct {
	mu    sync.Mutex
	swept time.Time      // the last look at every running game; zero: none yet
	games map[int64]bool // games to look at in the next tick
}

// sweepEvery is how often Tick looks at every running game whatever was marked.
const sweepEvery = time.Hour

// mark asks the next tick to look at game id.
func (w *readyWatch) mark(id int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.games == nil {
		w.games = map[int64]bool{}
	}
	w.games[id] = true
}

// unmark takes game id off: its turn was resolved, or found not complete, after the
// change that marked it.
func (w *readyWatch) unmark(id int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.games, id)
}

// take returns the games marked, in order, and whether the tick must look at every
// running game instead (then it calls swept when it has). What it returns is unmarked.
func (w *readyWatch) take(now time.Time) (all bool, ids []int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for id := range w.games {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	clear(w.games)
	return w.swept.IsZero() || now.Sub(w.swept) >= sweepEvery || now.Before(w.swept), ids
}

// sweptAt records a look at every running game.
func (w *readyWatch) sweptAt(now time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.swept = now
}

// sweepNext makes the next tick look at every running game: a judge taking over
// intake from one that died (shared.go) may find turns that judge's mail completed and
// its clock never resolved, marked in its memory only.
func (w *readyWatch) sweepNext() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.swept = time.Time{}
}
