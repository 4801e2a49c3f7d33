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

// Several judges, one community (issue 25 item 3): N `rallyjudge serve` on one
// PostgreSQL database and one mailbox all run the three loops of Serve, and the database
// says who does what (store/claims.go):
//
//   - intake: one judge at a time reads the mailbox, the one holding the intake claim.
//     The others ask for it every quarter of the lease; the one holding it checks every
//     half lease that it still does, and stops reading (its batch in hand finished, or
//     refused unstored if the claim went first) when it does not. Each stint begins by
//     judging the mail stored and not judged (Recover) and reads from the position
//     recorded. A mail fetched twice across a takeover is stored once (the inbox is
//     keyed by UIDVALIDITY and UID).
//   - the clock: every judge ticks. A game's turn is resolved under the lock of its row,
//     taken with SKIP LOCKED, so two judges never resolve it both: the second finds it
//     locked and leaves it, or finds it resolved (a deadline is checked again under the
//     lock). Reminders and final summaries run under a lock of their own.
//   - the sender: every judge sends, each outbox row under a claim of its own.
//
// A deadline waits for intake to have read the mail received before it (intakePast):
// the judge reading the mailbox records in the database when it last found it read to
// the end (after each check of the mailbox), and the others read that. Complete turns
// are left to the clocks (resolveOnClock), so that intake goes on reading while a turn
// is resolved and its reports drawn.

// sharedIntake is what Serve knows of this judge's stint of intake: the fetcher while
// it holds the intake claim, nil while another judge reads the mailbox.
type sharedIntake struct {
	mu   sync.Mutex
	cur  *mail.Fetcher
	wake func() // wakes this judge's clock
}

func (s *sharedIntake) fetcher() *mail.Fetcher {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur
}

func (s *sharedIntake) set(f *mail.Fetcher) {
	s.mu.Lock()
	s.cur = f
	s.mu.Unlock()
}

// sharedIntakeHooks sets IntakeCaughtUp and PokeIntake for shared intake: this judge's
// fetcher while it reads the mailbox, else what the judge reading it recorded.
func (j *Judge) sharedIntakeHooks(s *sharedIntake, mailbox string) {
	if j.IntakeCaughtUp == nil {
		j.IntakeCaughtUp = func() time.Time {
			if f := s.fetcher(); f != nil {
				if at := f.CaughtUp(); !at.IsZero() {
					return j.Now().Add(-time.Since(at))
				}
			}
			var at time.Time
			if err := j.Store.View(context.Background(), func(tx *store.Tx) error {
				var err error
				at, err = tx.IntakeCaughtUp(mailbox)
				return err
			}); err != nil {
				j.Log.Warn("reading when intake caught up failed", "err", err)
			}
			return at
		}
	}
	if j.PokeIntake == nil {
		j.PokeIntake = func() {
			if f := s.fetcher(); f != nil {
				f.Poke()
			}
		}
	}
}

// sharedIntake reads the mailbox whenever this judge holds the intake claim, until ctx
// ends; it returns an error that must stop the judge (a damaged database).
func (j *Judge) sharedIntake(ctx context.Context, l Loops, s *sharedIntake, batch mail.BatchHandler) error {
	ask := time.NewTicker(l.Lease / 4)
	defer ask.Stop()
	waiting := false
	for {
		got, err := j.Store.Claim(ctx, store.ClaimIntake, 0)
		if err != nil && ctx.Err() == nil {
			j.Log.Warn("asking for the intake claim failed", "err", err)
		}
		if got {
			j.Log.Info("reading the mailbox: this judge holds the intake claim", "mailbox", l.Mailbox)
			err := j.intakeStint(ctx, l, s, batch)
			s.set(nil)
			if uerr := j.Store.Unclaim(context.WithoutCancel(ctx), store.ClaimIntake, 0); uerr != nil {
				j.Log.Warn("giving the intake claim back failed (it ends with the claims session)", "err", uerr)
			}
			if err != nil && ctx.Err() == nil {
				if store.IsCorrupt(err) || errors.Is(err, ErrCorrupt) {
					return err
				}
				j.Log.Warn("stopped reading the mailbox", "err", err)
			}
			waiting = false
		} else if !waiting && err == nil {
			j.Log.Info("another judge reads the mailbox; this one resolves turns and sends mail beside it")
			waiting = true
		}
		select {
		case <-ctx.Done():
			return nil
		case <-ask.C:
		}
	}
}

// intakeStint reads the mailbox while this judge holds the intake claim: it judges the
// mail stored and not judged, then fetches from the recorded position with a new
// fetcher, and stops when ctx ends or the claim is found lost.
func (j *Judge) intakeStint(ctx context.Context, l Loops, s *sharedIntake, batch mail.BatchHandler) error {
	// mail stored but not judged by a judge that died; finished even if a stop comes
	if err := j.Recover(context.WithoutCancel(ctx)); err != nil {
		if store.IsCorrupt(err) {
			j.Log.Error("THE DATABASE IS DAMAGED: no mail is taken; restore the last backup", "err", err)
			return j.corrupt(err)
		}
		return fmt.Errorf("judging the mail stored before: %w", err)
	}
	// the turns the last reader's mail completed and its clock did not resolve
	j.ready.sweepNext()
	if s.wake != nil {
		s.wake()
	}
	since, err := j.LoadPosition(ctx, l.Mailbox)
	if err != nil {
		return err
	}
	f, err := l.NewFetcher(since, func(at time.Time) { j.publishCaughtUp(ctx, s, l.Mailbox, at) })
	if err != nil {
		return err
	}
	s.set(f)
	sctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	lost := make(chan struct{})
	go func() { // the claim is checked every half lease; its loss ends the stint
		defer close(lost)
		t := time.NewTicker(l.Lease / 2)
		defer t.Stop()
		for {
			select {
			case <-sctx.Done():
				return
			case <-t.C:
			}
			// asked within half a lease: a database that does not answer (the network to
			// it gone) is a claim lost, as the server will soon count it
			cctx, ccancel := context.WithTimeout(sctx, l.Lease/2)
			err := j.Store.ClaimHeld(cctx, store.ClaimIntake, 0)
			ccancel()
			if err != nil && sctx.Err() == nil {
				j.Log.Warn("the intake claim was lost: another judge may read the mailbox now", "err", err)
				cancel(err)
				return
			}
		}
	}()
	err = f.RunPrepared(sctx, j.prepareBatch, func(bctx context.Context, v uint32, msgs []mail.Fetched) []error {
		// a batch is taken only under the claim: one that came after the claim went is
		// left unstored and unflagged, for the judge that holds it now
		cctx, ccancel := context.WithTimeout(bctx, l.Lease/2)
		err := j.Store.ClaimHeld(cctx, store.ClaimIntake, 0)
		ccancel()
		if err != nil {
			cancel(err)
			errs := make([]error, len(msgs))
			for i := range errs {
				errs[i] = err
			}
			return errs
		}
		return batch(bctx, v, msgs)
	})
	cancel(nil)
	<-lost
	if c := context.Cause(sctx); c != nil && !errors.Is(c, context.Canceled) {
		return c
	}
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// publishCaughtUp records, for the judges that do not read the mailbox, that this one
// found it read to the end at (the fetcher's moment), and wakes this judge's clock: a
// deadline may have been waiting for it. One small write a check; a check comes with
// new mail, a poke (a deadline waiting) or the end of an IDLE or a poll interval.
func (j *Judge) publishCaughtUp(ctx context.Context, s *sharedIntake, mailbox string, at time.Time) {
	at = j.Now().Add(-time.Since(at)) // on the judge's clock
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if err := j.Store.Tx(wctx, func(tx *store.Tx) error { return tx.SetIntakeCaughtUp(mailbox, at) }); err != nil {
		j.Log.Warn("recording when intake caught up failed", "err", err)
	}
	s.wake()
}
