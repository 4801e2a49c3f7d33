package judge

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// Loops is what Serve runs: a fetcher reading the mailbox and a sender draining the
// outbox, with the deadline clock between.
type Loops struct {
	Fetcher *mail.Fetcher
	Mailbox string
	Sender  Sender
	// Tick is how often deadlines and the outbox are checked when nothing else wakes
	// the loop (a handled message wakes it at once).
	Tick time.Duration
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
func (j *Judge) Serve(ctx context.Context, l Loops) error {
	if l.Tick <= 0 {
		l.Tick = 30 * time.Second
	}
	if err := j.Recover(ctx); err != nil {
		return err
	}
	wake := make(chan struct{}, 1)
	poke := func() {
		select {
		case wake <- struct{}{}:
		default:
		}
	}
	var wg sync.WaitGroup
	fetchErr := make(chan error, 1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		err := l.Fetcher.Run(ctx, func(_ context.Context, v, uid uint32, raw []byte) error {
			hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Minute)
			defer cancel()
			err := j.HandleMessage(hctx, v, uid, raw)
			if err == nil {
				j.savePosition(hctx, l.Mailbox, v, uid)
			}
			poke()
			return err
		})
		if err != nil && ctx.Err() == nil {
			fetchErr <- err
		}
	}()
	t := time.NewTicker(l.Tick)
	defer t.Stop()
	poke()
	for {
		select {
		case <-ctx.Done():
			wg.Wait()
			j.Log.Info("stopped")
			return nil
		case err := <-fetchErr:
			return err
		case <-t.C:
		case <-wake:
		}
		wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Minute)
		if _, err := j.Tick(wctx); err != nil {
			j.Log.Error("deadline check failed", "err", err)
		}
		if _, err := j.DrainOutbox(wctx, l.Sender); err != nil {
			j.Log.Error("sending mail failed", "err", err)
		}
		cancel()
	}
}

func (j *Judge) savePosition(ctx context.Context, mailbox string, v, uid uint32) {
	err := j.Store.Tx(ctx, func(tx *store.Tx) error {
		cur, err := tx.MailboxState(mailbox)
		if err == nil && cur.UIDValidity == v && cur.LastUID >= uid {
			return nil
		}
		return tx.SetMailboxState(store.MailboxState{Mailbox: mailbox, UIDValidity: v, LastUID: uid, Updated: j.now()})
	})
	if err != nil {
		j.Log.Warn("saving the mailbox position failed", "err", err)
	}
}
