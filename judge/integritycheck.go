package judge

import (
	"context"
	"errors"
	"time"

	"github.com/rallyjudge/rallyjudge/store"
)

// A running judge must notice damaged pages even when no query of its own reads one
// (issue 21 item 3): SQLite serves the pages it read before from its page cache and
// goes on writing onto the damaged file, and mail was flagged done on the server. So
// Serve checks the pages on disk (store.PagesSound: PRAGMA quick_check on a connection
// of its own, a few milliseconds on 1,000 games, BenchmarkPagesSound) at start, by the
// clock every IntegrityCheck, and before intake handles each batch of mail, so that
// nothing is written to a damaged file nor flagged done after the damage is found.
// Damage found goes through the integrity stop (unwritable.go): one error-level line
// saying what to do, the operator mailed once, the batch held unflagged, Serve stops
// with ErrCorrupt. PostgreSQL checks its own pages: nothing is done there.

// DefaultIntegrityCheck is how often the clock checks the pages by default (the
// config's limits.integrity_check; 0 turns the running checks off).
const DefaultIntegrityCheck = 5 * time.Minute

// pagesSound runs the integrity check unless it is off, and returns its error marked
// ErrCorrupt (or ErrUnwritable for a database that cannot even be opened to read).
func (j *Judge) pagesSound(ctx context.Context) error {
	if j.IntegrityCheck <= 0 || j.Store.IsPostgres() {
		return nil
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Minute)
	defer cancel()
	err := j.Store.PagesSound(cctx)
	if err == nil {
		return nil
	}
	if store.IsCorrupt(err) {
		j.damaged.Store(true)
	}
	return j.corrupt(err)
}

// integrityDue reports whether the clock's check is due at now, and if so records
// that it runs.
func (j *Judge) integrityDue(now time.Time) bool {
	if j.IntegrityCheck <= 0 {
		return false
	}
	last := j.integrityAt.Load()
	if last != 0 && now.Sub(time.Unix(0, last)) < j.IntegrityCheck {
		return false
	}
	j.integrityAt.Store(now.UnixNano())
	return true
}

// clockCheck is the clock's integrity check, when due: damaged pages stop the judge
// (ErrCorrupt), unless intake holds the integrity stop for an I/O error, which makes
// sound pages read as damaged (unwritable.go, ioOutage).
func (j *Judge) clockCheck(ctx context.Context, s Sender) error {
	if !j.integrityDue(time.Now()) {
		return nil
	}
	err := j.pagesSound(ctx)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrCorrupt) && j.ioOutage():
		j.damaged.Store(false)
		j.Log.Debug("the integrity check read damaged pages during an I/O error", "err", err)
		return nil
	case errors.Is(err, ErrCorrupt):
		j.Log.Error("THE DATABASE IS DAMAGED: no more mail is taken; "+damagedWhatToDo, "err", err, "found_by", "integrity check")
		j.tellOperator(ctx, s, "damaged", err)
		return err
	default: // a database that cannot be written: the clock's own work finds it
		j.Log.Warn("the integrity check could not run", "err", err)
		return nil
	}
}
