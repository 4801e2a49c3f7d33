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

// Sender sends one raw mail; *mail.Sender is the real one.
type Sender interface {
	Send(ctx context.Context, from string, to []string, raw []byte) error
}

// commitSender is a Sender that can call back just before the end of DATA
// (*mail.Sender): the outbox records the attempt there (see DrainOutbox).
type commitSender interface {
	SendCommit(ctx context.Context, from string, to []string, raw []byte, beforeEnd func() error) error
}

// DrainOutbox sends every outbox mail that is due: the only place mail leaves
// rallyjudge. A temporary failure (4xx, network) is retried later with exponential
// backoff; a permanent one (5xx), or too many attempts, marks the mail failed and tells
// the game's masters. It returns how many mails were sent.
//
// Exactly once where it can be, at most twice where it cannot (docs/gamemasters.md):
// each attempt is recorded (MarkSending) and committed after the message is written to
// the SMTP server and before the "." that ends it, so a database that cannot be written
// sends nothing, a crash before that point delivered nothing, and a mail whose attempt
// was cut off by a crash after it is known to be uncertain. It gets one more attempt, with the
// same bytes and Message-ID (mail clients fold the copies); after two uncertain
// attempts it is recorded as sent, never tried a third time. A mail the SMTP server
// took but the database would not record as sent is remembered in memory and recorded
// before anything else is sent (unrecorded), so a full or read-only disk makes no
// resend storm. A mail that gives a secret gets it just before it is handed to SMTP, in
// memory only (armSecrets, secretslots.go): the stored row never holds it.
func (j *Judge) DrainOutbox(ctx context.Context, s Sender) (int, error) {
	// a reply goes out only once what it answers is on disk: intake's commits do not
	// wait for it (store.TxSyncLater)
	if err := j.Store.Sync(); err != nil {
		return 0, err
	}
	if err := j.recordUnrecorded(ctx); err != nil {
		return 0, err
	}
	sent := 0
	// Each mail is sent under its claim (store/claims.go): a sender beside this one, in
	// another judge on the same database, leaves it alone until this one is done with it
	// or dies. The row is read again as it is marked (MarkSending: pending only), so a
	// mail another sender finished meanwhile is not sent again.
	var held int64
	release := func() {
		if held != 0 {
			if err := j.Store.Unclaim(context.WithoutCancel(ctx), store.ClaimOutbox, held); err != nil {
				j.Log.Warn("giving an outbox claim back failed (it ends with the claims session)", "outbox", held, "err", err)
			}
			held = 0
		}
	}
	defer release()
	for {
		due, err := j.Store.DueToSend(ctx, j.now(), 50)
		if err != nil {
			return sent, err
		}
		if len(due) == 0 {
			// nothing else is due: the reports awaiting their pictures get them
			// (reportpictures.go), and go next
			if n, err := j.completePictures(ctx); err != nil || n == 0 {
				return sent, err
			}
			continue
		}
		progress := false
		for _, m := range due {
			release()
			if ctx.Err() != nil {
				return sent, ctx.Err()
			}
			ok, err := j.Store.Claim(ctx, store.ClaimOutbox, m.ID)
			if err != nil {
				return sent, err
			}
			if !ok {
				continue // another judge is sending it
			}
			held = m.ID
			if m.Inflight >= 2 {
				note := fmt.Sprintf("not sent again: %d attempts were cut off mid-send and may have arrived", m.Inflight)
				j.Log.Warn("mail recorded as sent after two attempts cut off mid-send", "outbox", m.ID, "kind", m.Kind)
				if err := j.writeOrStop(ctx, func(tx *store.Tx) error {
					if err := tx.MarkSentUncertain(m.ID, j.now(), note); err != nil {
						return err
					}
					if raw, ok := store.RedactSecrets(m.Raw); ok {
						return tx.OutboxSetRaw(m.ID, raw)
					}
					return nil
				}); err != nil && !errors.Is(err, store.ErrNotFound) {
					return sent, err
				}
				progress = true
				continue
			}
			if j.stopAt("after-outbox-row") {
				return sent, nil
			}
			// a mail that gives a secret gets it now, in memory only (secretslots.go)
			raw, secrets, err := j.armSecrets(ctx, m)
			if errors.Is(err, store.ErrNotFound) {
				continue // voided meanwhile: not sent
			}
			if err != nil {
				return sent, err
			}
			var markErr error
			mark := func() error {
				markErr = j.writeOrStop(ctx, func(tx *store.Tx) error { return tx.MarkSending(m.ID) })
				return markErr
			}
			if sc, ok := s.(commitSender); ok {
				// a mail in hand is finished on a stop (the sender has its own timeout)
				err = sc.SendCommit(context.WithoutCancel(ctx), m.From, m.To, raw, mark)
			} else if err = mark(); err == nil {
				err = s.Send(context.WithoutCancel(ctx), m.From, m.To, raw)
			}
			if markErr != nil {
				if errors.Is(markErr, store.ErrNotFound) {
					continue // voided meanwhile: not sent
				}
				return sent, markErr // the database cannot be written: nothing was sent
			}
			switch {
			case err == nil:
				if j.stopAt("mid-send") {
					return sent, nil
				}
				sent++
				progress = true
				if err := j.markSent(ctx, m); err != nil {
					j.rememberUnrecorded(m)
					return sent, j.cannotWrite(err)
				}
				j.forget(secrets)
			case mail.IsPermanent(err):
				j.Log.Warn("mail refused for good", "outbox", m.ID, "kind", m.Kind, "err", err)
				if err := j.failed(ctx, m, err); err != nil {
					return sent, j.cannotWrite(err)
				}
				progress = true
			default:
				var status store.OutboxStatus
				merr := j.writeOrStop(ctx, func(tx *store.Tx) error {
					var err2 error
					if status, err2 = tx.MarkRetry(m.ID, j.now(), err); err2 != nil || status != store.OutboxFailed {
						return err2
					}
					if raw, ok := store.RedactSecrets(m.Raw); ok {
						return tx.OutboxSetRaw(m.ID, raw)
					}
					return nil
				})
				if merr != nil {
					return sent, merr
				}
				j.Log.Info("mail deferred", "outbox", m.ID, "kind", m.Kind, "status", status, "err", err)
				if status == store.OutboxFailed {
					if err := j.tellGMs(ctx, m, err); err != nil {
						return sent, err
					}
				}
			}
		}
		if !progress { // (what is due is another judge's to send, or waits)
			release()
			if n, err := j.completePictures(ctx); err != nil || n == 0 {
				return sent, err
			}
		}
	}
}

// unrecorded holds the mails the SMTP server accepted while the database could not
// record it; the sender records them first when it can and sends nothing before.
type unrecorded struct {
	mu      sync.Mutex
	mails   map[int64]store.OutboxMail
	stopped bool // the last write failed: sending is stopped
}

func (j *Judge) rememberUnrecorded(m store.OutboxMail) {
	j.sendState.mu.Lock()
	if j.sendState.mails == nil {
		j.sendState.mails = map[int64]store.OutboxMail{}
	}
	j.sendState.mails[m.ID] = m
	j.sendState.mu.Unlock()
}

// recordUnrecorded records as sent the mails SMTP took while the database could not be
// written; until it succeeds nothing else is sent.
func (j *Judge) recordUnrecorded(ctx context.Context) error {
	j.sendState.mu.Lock()
	ms := make([]store.OutboxMail, 0, len(j.sendState.mails))
	for _, m := range j.sendState.mails {
		ms = append(ms, m)
	}
	j.sendState.mu.Unlock()
	for _, m := range ms {
		if err := j.markSent(ctx, m); err != nil {
			return j.cannotWrite(err)
		}
		j.sendState.mu.Lock()
		delete(j.sendState.mails, m.ID)
		j.sendState.mu.Unlock()
	}
	return nil
}

// writeOrStop runs a write the sender needs before (or after) an attempt; when the
// database cannot be written it stops sending (cannotWrite).
func (j *Judge) writeOrStop(ctx context.Context, fn func(tx *store.Tx) error) error {
	if err := j.Store.Tx(ctx, fn); errors.Is(err, store.ErrNotFound) {
		return err // the row changed meanwhile (a voided turn): not a write failure
	} else if err != nil {
		return j.cannotWrite(err)
	}
	j.sendState.mu.Lock()
	was := j.sendState.stopped
	j.sendState.stopped = false
	j.sendState.mu.Unlock()
	if was {
		j.Log.Warn("the database can be written again: sending resumes")
	}
	return nil
}

// ErrSendingStopped is returned by DrainOutbox while the database cannot be written:
// nothing is sent that could not be recorded; the next drain tries again.
var ErrSendingStopped = errors.New("sending stopped: the database cannot be written")

// cannotWrite says loudly (once per outage) that sending stops, and returns the error.
func (j *Judge) cannotWrite(err error) error {
	j.sendState.mu.Lock()
	was := j.sendState.stopped
	j.sendState.stopped = true
	j.sendState.mu.Unlock()
	if !was {
		j.Log.Error("THE DATABASE CANNOT BE WRITTEN: sending stops until it can; retrying at every tick", "err", err)
	}
	return fmt.Errorf("%w: %v", ErrSendingStopped, err)
}

// markSent records a mail as sent and, in the same transaction, removes the secret it
// carried: a crash between the two cannot leave a sent mail with a plain secret.
func (j *Judge) markSent(ctx context.Context, m store.OutboxMail) error {
	return j.Store.Tx(ctx, func(tx *store.Tx) error {
		if err := tx.MarkSent(m.ID, j.now()); errors.Is(err, store.ErrNotFound) {
			return nil // voided meanwhile (a rolled-back turn): nothing more to record
		} else if err != nil {
			return err
		}
		if raw, ok := store.RedactSecrets(m.Raw); ok {
			return tx.OutboxSetRaw(m.ID, raw)
		}
		return nil
	})
}

func (j *Judge) failed(ctx context.Context, m store.OutboxMail, sendErr error) error {
	if err := j.Store.Tx(ctx, func(tx *store.Tx) error {
		if err := tx.MarkFailed(m.ID, sendErr); err != nil {
			return err
		}
		if raw, ok := store.RedactSecrets(m.Raw); ok {
			return tx.OutboxSetRaw(m.ID, raw)
		}
		return nil
	}); err != nil {
		return err
	}
	return j.tellGMs(ctx, m, sendErr)
}

// tellGMs enqueues a notice of a failed mail to the game's masters (never about a
// notice to a game master itself, so a dead GM address cannot loop).
func (j *Judge) tellGMs(ctx context.Context, m store.OutboxMail, sendErr error) error {
	if m.GameID == 0 || m.Kind == "gm-notice" {
		return nil
	}
	return j.Store.Tx(ctx, func(tx *store.Tx) error {
		g, err := tx.Game(m.GameID)
		if err != nil {
			return err
		}
		gms, err := tx.GMs(m.GameID)
		if err != nil {
			return err
		}
		for _, gm := range gms {
			text := fmt.Sprintf("rallyjudge could not deliver a mail of game %s.\n\n  to:      %v\n  subject: %s\n  kind:    %s\n  error:   %v\n\n"+
				"Check the player's address; REPLACE the player if it is dead.\n", g.Tag, m.To, m.Subject, m.Kind, sendErr)
			if err := j.enqueue(tx, outMail{kind: "gm-notice", gameID: g.ID, turn: m.Turn, to: gm.Email,
				subject: subject(g.Tag, "a mail could not be delivered"), messageID: j.noticeID("bounce", fmt.Sprintf("%d.%d", m.ID, gm.ID)),
				text: text, generated: true}); err != nil {
				return err
			}
		}
		return nil
	})
}

// prune removes, at most once an hour, what the retention says is no longer kept.
func (j *Judge) prune(ctx context.Context) {
	now := j.now()
	if !j.lastPrune.IsZero() && now.Sub(j.lastPrune) < time.Hour {
		return
	}
	r := j.Retention
	r.AuthFailures = max(r.AuthFailures, j.AuthWindow) // never under the rate limit's window
	var p store.Pruned
	if err := j.Store.Tx(ctx, func(tx *store.Tx) error {
		var err error
		p, err = tx.Prune(now, r)
		return err
	}); err != nil {
		j.Log.Warn("pruning old rows failed; tried again later", "err", err)
		return
	}
	j.lastPrune = now
	if p != (store.Pruned{}) {
		j.Log.Info("old rows pruned", "auth_failures", p.AuthFailures, "rejected_mail", p.Rejected, "mail_bodies", p.InboxRaw, "outbox", p.Outbox)
	}
}

// intakePast reports whether intake has read every mail the server received before the
// game's deadline (plus grace), so the turn may be resolved: a sheet that reached the
// mailbox in time counts, however long the queue in front of it (issue 14). Past
// MaxIntakeWait it gives up waiting and says so.
func (j *Judge) intakePast(g store.Game) bool {
	if j.IntakeCaughtUp == nil {
		return true
	}
	cutoff := g.DeadlineAt.Add(g.Grace)
	if j.IntakeCaughtUp().After(cutoff) {
		return true
	}
	// the wait counts from the deadline, or from when intake began to read if that is
	// later: a judge started again after an outage (or after an integrity stop) that
	// outlasted the wait resolved the turn before intake's first look, and refused as
	// late the sheets the server had received before the deadline
	from := cutoff
	if at := j.intakeFrom.Load(); at != 0 && time.Unix(0, at).After(from) {
		from = time.Unix(0, at)
	}
	if j.MaxIntakeWait > 0 && j.now().After(from.Add(j.MaxIntakeWait)) {
		j.Log.Error("resolving a turn although mail received before its deadline may be unread: intake is behind",
			"game", g.Tag, "deadline", cutoff, "intake_caught_up", j.IntakeCaughtUp(), "waited", j.MaxIntakeWait)
		return true
	}
	j.Log.Info("deadline passed; waiting for intake to read the mail received before it", "game", g.Tag)
	if j.PokeIntake != nil {
		// Intake looks at the mailbox now: its last look may have begun before the
		// deadline, and with no new mail the next would come only when an IDLE ends (the
		// bug: a turn resolved up to imap.idle_timeout after its deadline).
		j.PokeIntake()
	}
	return false
}

// Tick finishes whatever the state says is due, whatever happened before: every turn
// whose deadline (plus grace) has passed is resolved, and so is every running game whose
// programs are all in. The second matters after a crash: a sheet that completed the turn
// may have committed just before the process died, before the turn was resolved, and
// nothing else would take it up until the deadline (issue 14, liveness). Then it sends
// the reminders that are due and the final summary of games just over (lifecycle.go).
func (j *Judge) Tick(ctx context.Context) (int, error) {
	// The games to look at: those due (one indexed query) and those whose turn may be
	// complete unresolved (readywatch.go: marked, or every running game now and then).
	now := j.now()
	all, marked := j.ready.take(now)
	var due, running []store.Game
	if err := j.Store.View(ctx, func(tx *store.Tx) error {
		var err error
		if due, err = tx.GamesDue(now); err != nil {
			return err
		}
		if all {
			running, err = tx.Games(store.GameRunning)
			return err
		}
		for _, id := range marked {
			g, err := tx.Game(id)
			if err != nil {
				return err
			}
			if g.Status == store.GameRunning {
				running = append(running, g)
			}
		}
		return nil
	}); err != nil {
		for _, id := range marked {
			j.ready.mark(id)
		}
		return 0, err
	}
	if all {
		j.ready.sweptAt(now)
	}
	n := 0
	isDue := map[int64]bool{}
	for _, g := range due {
		isDue[g.ID] = true
		if !j.intakePast(g) {
			continue
		}
		ok, err := j.resolveDue(ctx, g.ID)
		if errors.Is(err, errGameBusy) {
			continue // another judge has it (its next tick, or this one's, finishes it)
		}
		if store.IsBroken(err) { // damaged or unwritable: the integrity stop (unwritable.go)
			return n, j.corrupt(err)
		}
		if err != nil {
			j.Log.Error("deadline resolution failed", "game", g.Tag, "err", err)
			continue
		}
		if ok {
			n++
		}
	}
	for _, g := range running {
		if isDue[g.ID] {
			continue
		}
		ok, err := j.ResolveIfReady(ctx, g.ID)
		if errors.Is(err, errGameBusy) {
			j.ready.mark(g.ID)
			continue
		}
		if store.IsBroken(err) {
			j.ready.mark(g.ID)
			return n, j.corrupt(err)
		}
		if err != nil {
			j.Log.Error("resolving a complete turn failed", "game", g.Tag, "err", err)
			j.ready.mark(g.ID) // the next tick tries again
			continue
		}
		if ok {
			j.Log.Info("a turn whose orders were all in was resolved by the clock", "game", g.Tag)
			n++
		}
	}
	j.upgradeHashes(ctx)
	j.prune(ctx)
	j.scrubIfDue(ctx, 0) // no old copy of a received secret stays in the log (secretslots.go)
	if _, err := j.Lifecycle(ctx); store.IsBroken(err) {
		return n, j.corrupt(err)
	} else if err != nil {
		j.Log.Error("reminders and final summaries failed", "err", err)
	}
	return n, nil
}
