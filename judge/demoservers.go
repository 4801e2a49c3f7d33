package judge

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// What every demo shares: a judge on a database of its own, serving the in-process
// mail servers over IMAP and SMTP exactly as `rallyjudge serve` serves a real mailbox.

// demoJudge is a judge on the database at path ("" for a temporary one); done closes
// it and removes a temporary database.
func demoJudge(path string, log *slog.Logger) (j *Judge, done func(), err error) {
	dir := ""
	if path == "" {
		if dir, err = os.MkdirTemp("", "rallyjudge-demo-"); err != nil {
			return nil, nil, err
		}
		path = filepath.Join(dir, "demo.db")
	}
	cleanup := func() {
		if dir != "" {
			os.RemoveAll(dir)
		}
	}
	st, err := store.OpenWith(path, store.Options{Sync: store.SyncNormal})
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	if j, err = New(st, "judge@example.test", log); err != nil {
		st.Close()
		cleanup()
		return nil, nil, err
	}
	j.Name = "rallyjudge demo"
	return j, func() { st.Close(); cleanup() }, nil
}

// serveDemo runs the judge's loops against the embedded servers (the judge's mailbox is
// the user "judge", password "judgepw") until stop is called.
func (j *Judge) serveDemo(ctx context.Context, emb *mail.Embedded, log *slog.Logger) (stop func(), sender *mail.Sender, err error) {
	fetcher, err := mail.NewFetcher(mail.FetcherConfig{Addr: emb.IMAPAddr, TLS: "plain", Username: "judge", Password: "judgepw",
		After: "flag", IdleTimeout: 2 * time.Second, PollInterval: 500 * time.Millisecond, MinBackoff: 100 * time.Millisecond, Logger: log})
	if err != nil {
		return nil, nil, err
	}
	if sender, err = mail.NewSender(mail.SenderConfig{Addr: emb.SMTPAddr, TLS: "none", Logger: log}); err != nil {
		return nil, nil, err
	}
	sctx, cancel := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() {
		served <- j.Serve(sctx, Loops{Fetcher: fetcher, Mailbox: "INBOX", Sender: sender, Tick: 200 * time.Millisecond})
	}()
	return func() { cancel(); <-served }, sender, nil
}

// awaitOutbox waits, at most 20 seconds, for the outbox to send what is due: the last
// reports of a demo.
func (j *Judge) awaitOutbox(ctx context.Context) {
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		var pending int
		_ = j.Store.View(ctx, func(tx *store.Tx) error {
			due, err := tx.DuePending(j.now().Add(time.Hour), 1000)
			pending = len(due)
			return err
		})
		if pending == 0 {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
}
