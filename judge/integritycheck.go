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
// clock every IntegrityCheck, and before intake handles a batch of mail, so that
// nothing is written to a damaged file nor flagged done after the damage is found.
// Damage found goes through the integrity stop (unwritable.go): one error-level line
// saying what to do, the operator mailed once, the batch held unflagged, Serve stops
// with ErrCorrupt. PostgreSQL checks its own pages: nothing is done there.
//
// The check reads the whole file: 11 ms on 1,000 games and 109 ms on 10,000, and it
// grows with every mail kept (180 ms on the database 3,000 mails left, under load), where
// a batch of 250 mails takes intake 100–250 ms. Run before every batch it came to cost
// intake more than the mail itself on a judge's database of real size (issue 24 item 7). So intake checks before a batch unless the
// last check that found the pages sound ended less than intakeCheckShare times its own
// duration ago (at most intakeCheckMaxGap): under a backlog the check takes at most a
// twentieth of intake's time, and mail that comes a batch at a time, after a pause
// longer than that, is checked before each batch as before. Damage made inside that
// window is found by the next check, before the batch after it; the clock's check and
// the one at start are never skipped, and once a check found damage every batch is
// checked.
//
// A check that falls due is started a batch early — when the fetcher has the batch it
// comes before (prepareBatch), or when the writer begins the batch before and the check
// falls due while it writes it (intakeBatch) — on a goroutine of its own, on the other
// core, and the batch waits for its answer before it writes anything (checkAhead). Run in the writer's turn it held intake some 18 ms
// of the 300–400 that 1,000 sheets took (issue 24 item 7). So such a check reads the
// file as it stood up to one batch before the batch it clears — within the window
// above, which lets many batches go unchecked.

// DefaultIntegrityCheck is how often the clock checks the pages by default (the
// config's limits.integrity_check; 0 turns the running checks off).
const DefaultIntegrityCheck = 5 * time.Minute

// intakeCheckShare and intakeCheckMaxGap say when intake's check is due: once the
// last sound check ended intakeCheckShare times its duration ago, or intakeCheckMaxGap.
const (
	intakeCheckShare  = 20
	intakeCheckMaxGap = time.Minute
)

// intakeCheckDue reports whether intake checks the pages before a batch it takes at
// now (see above): always when no check found them sound yet or damage was found.
func (j *Judge) intakeCheckDue(now time.Time) bool {
	at := j.soundAt.Load()
	if at == 0 || j.damaged.Load() {
		return true
	}
	gap := min(intakeCheckShare*time.Duration(j.soundCost.Load()), intakeCheckMaxGap)
	return now.Sub(time.Unix(0, at)) >= gap
}

// intakePagesSound is intake's integrity check before a batch: it waits for the check
// started ahead of the batch (checkAhead), if one runs, then checks when a check is still
// due (intakeCheckDue: none started, or the one started found damage or could not run),
// else returns nil.
func (j *Judge) intakePagesSound(ctx context.Context) error {
	j.awaitAheadCheck() // bounded by pagesSound's own timeout
	if !j.intakeCheckDue(time.Now()) {
		return nil
	}
	return j.pagesSound(ctx)
}

// awaitAheadCheck waits for the check started ahead of a batch, if one runs.
func (j *Judge) awaitAheadCheck() {
	j.aheadMu.Lock()
	ahead := j.aheadCheck
	j.aheadMu.Unlock()
	if ahead != nil {
		<-ahead
	}
}

// checkAhead starts intake's integrity check on a goroutine of its own when one is due
// within the given time and none runs: the fetcher has a batch, which waits for the check
// (intakePagesSound), while the writer takes the batch before (prepareBatch, within 0);
// or the writer begins a batch and the check falls due before it will have written it
// (intakeBatch, within the last batch's time), so that the next batch finds it done. What the check finds it records as every
// check does (pagesSound: soundAt, or damaged); a check that could not run is run again
// before the batch.
func (j *Judge) checkAhead(within time.Duration) {
	if j.IntegrityCheck <= 0 || j.Store.IsPostgres() {
		return
	}
	j.aheadMu.Lock()
	defer j.aheadMu.Unlock()
	if j.aheadCheck != nil || !j.intakeCheckDue(time.Now().Add(within)) {
		return
	}
	done := make(chan struct{})
	j.aheadCheck = done
	go func() {
		defer func() {
			j.aheadMu.Lock()
			j.aheadCheck = nil
			j.aheadMu.Unlock()
			close(done)
		}()
		_ = j.pagesSound(context.Background())
	}()
}

// pagesSound runs the integrity check unless it is off, and returns its error marked
// ErrCorrupt (or ErrUnwritable for a database that cannot even be opened to read).
func (j *Judge) pagesSound(ctx context.Context) error {
	if j.IntegrityCheck <= 0 || j.Store.IsPostgres() {
		return nil
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Minute)
	defer cancel()
	j.checksRun.Add(1)
	began := time.Now()
	err := j.Store.PagesSound(cctx)
	if err == nil {
		end := time.Now()
		j.soundCost.Store(int64(end.Sub(began)))
		j.soundAt.Store(end.UnixNano())
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
