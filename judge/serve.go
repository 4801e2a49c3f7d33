package judge

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// Loops is what Serve runs: a fetcher reading the mailbox, the deadline clock, and a
// sender draining the outbox, each on a goroutine of its own, so that a hung IMAP or SMTP
// server delays neither the deadlines nor the other side (issue 14).
type Loops struct {
	Fetcher *mail.Fetcher
	Mailbox string
	Sender  Sender
	// Tick is how often deadlines and the outbox are checked when nothing else wakes
	// them (a handled message wakes both at once).
	Tick time.Duration
	// NewFetcher, when set, makes several judges on one PostgreSQL database share the
	// work (shared.go): this judge reads the mailbox only while it holds the intake
	// claim, each time with a new fetcher from the position recorded; Fetcher is unused.
	NewFetcher func(since mail.Position, onCaughtUp func(time.Time)) (*mail.Fetcher, error)
	// Lease is how often a judge without the intake claim asks for it (a quarter of it)
	// and one holding it checks it still does (half of it). Default 2s.
	Lease time.Duration
	// syncLater: Fetcher puts the database on disk before it marks mail done
	// (gateMarks), so a batch's commit need not wait for the disk
	syncLater bool
}

// gateMarks readies f, the fetcher of l's intake, so that a batch's commit need not wait
// for the disk (store.TxSyncLater, durable.go): f puts the database on disk before it
// marks any mail done on the server. When that fails — an fsync error: what was
// committed since the last one may be lost, and the next cannot be trusted — intake
// stops (stop), with nothing more marked; started again, the judge reads the database
// from the disk, and the mail not marked is fetched again.
func (j *Judge) gateMarks(l Loops, f *mail.Fetcher, stop func(error)) Loops {
	f.BeforeMark(func() error {
		err := j.Store.Sync()
		if err != nil {
			j.Log.Error("THE DATABASE COULD NOT BE PUT ON DISK: no more mail is taken nor marked done; restart the judge once the disk is sound", "err", err)
			j.tellOperator(context.Background(), l.Sender, "unsynced", err)
			stop(fmt.Errorf("%w: %w", ErrUnwritable, err))
		}
		return err
	})
	l.syncLater = true
	return l
}

// LoadPosition is where the fetcher got to in the mailbox last time (zero when never).
func (j *Judge) LoadPosition(ctx context.Context, mailbox string) (mail.Position, error) {
	var p mail.Position
	err := j.Store.View(ctx, func(tx *store.Tx) error {
		s, err := tx.MailboxState(mailbox)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		p = mail.Position{UIDValidity: s.UIDValidity, UID: s.LastUID}
		return nil
	})
	return p, err
}

// Serve runs until ctx is cancelled. A message or turn in hand when the signal comes is
// finished first: handlers run on a context that is not cancelled with ctx.
//
// Three loops run side by side: intake (the fetcher and HandleMessage), the clock (Tick:
// deadlines, complete turns, reminders) and the sender (DrainOutbox). They share only the
// database. A hung SMTP server stalls only the sender (and mail.Sender's timeout ends
// that); a hung IMAP server stalls only intake (and the fetcher's watchdog ends that).
func (j *Judge) Serve(ctx context.Context, l Loops) error {
	if l.Tick <= 0 {
		l.Tick = 30 * time.Second
	}
	if l.Lease <= 0 {
		l.Lease = 2 * time.Second
	}
	clockWake, sendWake := make(chan struct{}, 1), make(chan struct{}, 1)
	poke := func(ch chan struct{}) {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
	// the pages on disk, checked at start (integritycheck.go); rallyjudge serve checked
	// them when it opened the database, but Serve may start much later
	j.integrityAt.Store(time.Now().UnixNano())
	if err := j.pagesSound(ctx); errors.Is(err, ErrCorrupt) {
		j.Log.Error("THE DATABASE IS DAMAGED: no mail is taken; "+damagedWhatToDo, "err", err)
		j.tellOperator(ctx, l.Sender, "damaged", err)
		return err
	}
	// the games stored before the seam, handed to the game that takes them over
	// (legacy.go); one it cannot read stays on the older path, logged
	_, _ = j.AdoptLegacy(ctx)
	var shared *sharedIntake
	if l.NewFetcher != nil {
		// the clocks resolve complete turns: intake goes on reading meanwhile, and keeps
		// the moment it caught up, which deadlines wait for, fresh for every judge
		shared = &sharedIntake{wake: func() { poke(clockWake) }}
		j.sharedIntakeHooks(shared, l.Mailbox)
		j.resolveOnClock = true
	} else if err := j.Recover(context.WithoutCancel(ctx)); err != nil {
		// mail stored but not judged before a crash; finished even if a stop comes meanwhile
		if store.IsCorrupt(err) {
			j.Log.Error("THE DATABASE IS DAMAGED: no mail is taken; "+damagedWhatToDo, "err", err)
			return j.corrupt(err)
		}
		return err
	}
	j.intakeFrom.Store(j.now().UnixNano())
	if l.Fetcher != nil && j.IntakeCaughtUp == nil {
		// the fetcher's moment on the judge's clock (the same one but in tests)
		j.IntakeCaughtUp = func() time.Time {
			at := l.Fetcher.CaughtUp()
			if at.IsZero() {
				return at
			}
			return j.Now().Add(-time.Since(at))
		}
	}
	if l.Fetcher != nil && j.PokeIntake == nil {
		j.PokeIntake = l.Fetcher.Poke
	}
	var wg sync.WaitGroup
	fetchErr := make(chan error, 1)
	defer j.awaitAheadCheck() // one started for a batch never handed over ends before Serve
	ctx, stopAll := context.WithCancel(ctx)
	defer stopAll()
	wg.Add(3)
	// intake's stop: the error Serve returns, and every loop stopped
	stopIntake := func(err error) {
		select {
		case fetchErr <- err:
		default:
		}
		stopAll()
	}
	batch := func(_ context.Context, v uint32, msgs []mail.Fetched) []error {
		errs := j.intakeBatch(ctx, l, v, msgs, stopIntake)
		poke(clockWake)
		poke(sendWake)
		return errs
	}
	if shared == nil && l.Fetcher != nil {
		l = j.gateMarks(l, l.Fetcher, stopIntake)
	}
	go func() {
		defer wg.Done()
		var err error
		if shared != nil {
			err = j.sharedIntake(ctx, l, shared, batch)
		} else {
			err = l.Fetcher.RunPrepared(ctx, j.prepareBatch, batch)
		}
		if err != nil && ctx.Err() == nil {
			select {
			case fetchErr <- err:
			default:
			}
			stopAll()
		}
	}()
	// the clock: deadlines, turns whose programs are all in, reminders
	go func() {
		defer wg.Done()
		t := time.NewTicker(l.Tick)
		defer t.Stop()
		for {
			// a database found damaged or unwritable goes through the integrity stop,
			// as intake's does (unwritable.go)
			if err := j.clockCheck(ctx, l.Sender); err != nil {
				select {
				case fetchErr <- err:
				default:
				}
				stopAll()
			} else if err := j.clockTick(ctx, l.Sender); err != nil {
				select {
				case fetchErr <- err:
				default:
				}
				stopAll()
			}
			poke(sendWake)
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			case <-clockWake:
			}
		}
	}()
	// the sender: the outbox, however slow the SMTP server. Mail enqueued by another
	// process (rallyjudge game on the same database) is seen within a second: a cheap
	// look at the outbox's next due time, not a wait for the next tick.
	go func() {
		defer wg.Done()
		t := time.NewTicker(l.Tick)
		defer t.Stop()
		peek := time.NewTicker(time.Second)
		defer peek.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			case <-sendWake:
			case <-peek.C:
				if !j.outboxDue(ctx) {
					continue
				}
			}
			if cause, _ := j.halted(); cause != nil {
				continue // nothing sent could be recorded: sending waits with intake
			}
			// sending is cut short by a stop: the mail in hand is retried after the restart
			if _, err := j.DrainOutbox(ctx, l.Sender); err != nil && ctx.Err() == nil {
				j.Log.Error("sending mail failed", "err", err)
			}
		}
	}()
	select {
	case <-ctx.Done():
		wg.Wait()
		select {
		case err := <-fetchErr:
			return err
		default:
		}
		j.Log.Info("stopped")
		return nil
	case err := <-fetchErr:
		stopAll()
		wg.Wait()
		return err
	}
}

// intakeBatch is what Serve does with each batch the fetcher hands over (ctx is Serve's):
// the integrity check, the batch stored and judged in one commit (handleBatch) with the
// mailbox position, the database's integrity stop when it is damaged or cannot be
// written (stop is called with the error Serve is to return), and the log's secrets
// scrubbed. It returns one error per mail, as mail.BatchHandler does: only a mail with
// nil is flagged done on the server.
func (j *Judge) intakeBatch(ctx context.Context, l Loops, v uint32, msgs []mail.Fetched, stop func(error)) []error {
	hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Minute)
	defer cancel()
	var errs []error
	if cause, _ := j.halted(); cause != nil {
		// the clock found the database unwritable: nothing is taken until it can be
		// written (unwritable.go)
		j.Log.Warn("mail fetched while the database cannot be written: held unflagged until it can",
			"mails", len(msgs), "first_uid", msgs[0].UID)
		errs = make([]error, len(msgs))
		for i := range errs {
			errs[i] = j.corrupt(cause)
		}
	} else if err := j.intakePagesSound(hctx); errors.Is(err, ErrCorrupt) || errors.Is(err, ErrUnwritable) {
		// damaged pages that no query of the batch might read (SQLite has them in its
		// page cache): nothing is written to the file nor flagged (integritycheck.go)
		if errors.Is(err, ErrCorrupt) {
			j.Log.Error("THE DATABASE IS DAMAGED: no more mail is taken; "+damagedWhatToDo, "err", err, "found_by", "integrity check")
		}
		errs = make([]error, len(msgs))
		for i := range errs {
			errs[i] = err
		}
	} else {
		if err != nil {
			j.Log.Warn("the integrity check could not run", "err", err)
		}
		// a check falling due while this batch is written starts now, for the next one
		j.checkAhead(time.Duration(j.lastBatch.Load()))
		began := time.Now()
		// the mailbox position goes in the batch's own commit
		errs = j.handleBatch(hctx, l.Mailbox, v, msgs, l.syncLater)
		j.lastBatch.Store(int64(time.Since(began)))
	}
	if j.damaged.Load() {
		// the clock's check found the pages damaged meanwhile: nothing more is
		// flagged done
		for i, err := range errs {
			if !errors.Is(err, ErrCorrupt) {
				errs[i] = j.corrupt(store.ErrCorrupt)
			}
		}
	}
	if cause, _ := j.halted(); cause != nil && store.IsIOError(cause) {
		// the clock holds the stop for an I/O error: pages read as damaged are the
		// same failing disk (unwritable.go, ioOutage)
		for i, err := range errs {
			if errors.Is(err, ErrCorrupt) {
				errs[i] = j.corrupt(cause)
			}
		}
	}
	if unwritable(errs) {
		// nothing of the batch is recorded nor flagged done: intake waits for the
		// database and takes the same batch again, in the server's order
		// (unwritable.go); past UnwritableExit it stops
		errs = j.awaitWritable(ctx, l.Sender, errs, func() []error {
			actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Minute)
			defer cancel()
			return j.handleBatch(actx, l.Mailbox, v, msgs, false)
		})
	}
	j.scrubIfDue(hctx, 10*time.Second) // the secrets the batch carried, out of the log
	var last uint32
	for i, err := range errs {
		if err == nil {
			last = max(last, msgs[i].UID)
		} else if errors.Is(err, ErrCorrupt) || errors.Is(err, ErrUnwritable) {
			if errors.Is(err, ErrCorrupt) {
				j.tellOperator(hctx, l.Sender, "damaged", err)
			}
			stop(err) // stop taking mail: Serve returns the error
		}
	}
	if last != 0 { // (nothing to write, unless the batch could not commit whole)
		j.savePosition(hctx, l.Mailbox, v, last)
	}
	return errs
}

func (j *Judge) savePosition(ctx context.Context, mailbox string, v, uid uint32) {
	err := j.Store.Tx(ctx, func(tx *store.Tx) error { return j.positionIn(tx, mailbox, v, uid) })
	if err != nil {
		j.Log.Warn("saving the mailbox position failed", "err", err)
	}
}

// positionIn records in tx that mailbox was read up to uid (under UIDVALIDITY v), unless
// it is recorded so already.
func (j *Judge) positionIn(tx *store.Tx, mailbox string, v, uid uint32) error {
	cur, err := tx.MailboxState(mailbox)
	if err == nil && cur.UIDValidity == v && cur.LastUID >= uid {
		return nil
	}
	return tx.SetMailboxState(store.MailboxState{Mailbox: mailbox, UIDValidity: v, LastUID: uid, Updated: j.now()})
}

// outboxDue reports whether a pending mail is due now.
func (j *Judge) outboxDue(ctx context.Context) bool {
	var due bool
	_ = j.Store.View(ctx, func(tx *store.Tx) error {
		next, err := tx.NextDue()
		due = err == nil && !next.IsZero() && !next.After(j.now())
		return err
	})
	return due
}
