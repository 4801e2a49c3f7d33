package judge

import (
	"context"
	"fmt"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// Sender sends one raw mail; *mail.Sender is the real one.
type Sender interface {
	Send(ctx context.Context, from string, to []string, raw []byte) error
}

// DrainOutbox sends every outbox mail that is due: the only place mail leaves
// rallyjudge. A temporary failure (4xx, network) is retried later with exponential
// backoff; a permanent one (5xx), or too many attempts, marks the mail failed and tells
// the game's masters. It returns how many mails were sent.
func (j *Judge) DrainOutbox(ctx context.Context, s Sender) (int, error) {
	sent := 0
	for {
		due, err := j.Store.DuePending(ctx, j.now(), 50)
		if err != nil {
			return sent, err
		}
		if len(due) == 0 {
			return sent, nil
		}
		progress := false
		for _, m := range due {
			if ctx.Err() != nil {
				return sent, ctx.Err()
			}
			err := s.Send(ctx, m.From, m.To, m.Raw)
			switch {
			case err == nil:
				if err := j.Store.MarkSent(ctx, m.ID, j.now()); err != nil {
					return sent, err
				}
				j.scrub(ctx, m)
				sent++
				progress = true
			case mail.IsPermanent(err):
				j.Log.Warn("mail refused for good", "outbox", m.ID, "kind", m.Kind, "err", err)
				if err := j.failed(ctx, m, err); err != nil {
					return sent, err
				}
				progress = true
			default:
				status, merr := j.Store.MarkRetry(ctx, m.ID, j.now(), err)
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
		if !progress {
			return sent, nil
		}
	}
}

// scrub keeps a mail that carried a secret (a welcome, a JOIN or REPLACE reply) with the
// secret removed, once it is sent or has failed for good: secrets are stored hashed, and
// the database and its backups hold no plain one.
func (j *Judge) scrub(ctx context.Context, m store.OutboxMail) {
	raw, ok := store.RedactSecrets(m.Raw)
	if !ok {
		return
	}
	if err := j.Store.Tx(ctx, func(tx *store.Tx) error { return tx.OutboxSetRaw(m.ID, raw) }); err != nil {
		j.Log.Warn("removing a secret from a sent mail failed", "outbox", m.ID, "err", err)
	}
}

func (j *Judge) failed(ctx context.Context, m store.OutboxMail, sendErr error) error {
	if err := j.Store.MarkFailed(ctx, m.ID, sendErr); err != nil {
		return err
	}
	j.scrub(ctx, m)
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

// Tick finishes whatever the state says is due, whatever happened before: every turn
// whose deadline (plus grace) has passed is resolved, and so is every running game whose
// programs are all in. The second matters after a crash: a sheet that completed the turn
// may have committed just before the process died, before the turn was resolved, and
// nothing else would take it up until the deadline (issue 14, liveness). Then it sends
// the reminders that are due and the final summary of games just over (lifecycle.go).
func (j *Judge) Tick(ctx context.Context) (int, error) {
	var due, running []store.Game
	if err := j.Store.View(ctx, func(tx *store.Tx) error {
		var err error
		if due, err = tx.GamesDue(j.now()); err != nil {
			return err
		}
		running, err = tx.Games(store.GameRunning)
		return err
	}); err != nil {
		return 0, err
	}
	n := 0
	isDue := map[int64]bool{}
	for _, g := range due {
		isDue[g.ID] = true
		ok, err := j.ResolveNow(ctx, g.ID)
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
		if err != nil {
			j.Log.Error("resolving a complete turn failed", "game", g.Tag, "err", err)
			continue
		}
		if ok {
			j.Log.Info("a turn whose orders were all in was resolved by the clock", "game", g.Tag)
			n++
		}
	}
	if _, err := j.Lifecycle(ctx); err != nil {
		j.Log.Error("reminders and final summaries failed", "err", err)
	}
	return n, nil
}
