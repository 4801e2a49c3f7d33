package judge

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// TestThroughput measures ingestion: 1,000 order mails are delivered to Dovecot through
// Postfix, then read by a bare IMAP client (UID FETCH of every body), then ingested by
// rallyjudge (fetched, stored, authenticated, parsed, validated and answered). It needs
// the mail stack and RALLYJUDGE_THROUGHPUT=1; the figures go to the test log.
func TestThroughput(t *testing.T) {
	imapAddr, smtpAddr := needMailstack(t)
	if os.Getenv("RALLYJUDGE_THROUGHPUT") != "1" {
		t.Skip("set RALLYJUDGE_THROUGHPUT=1 to measure ingestion of 1,000 mails")
	}
	const n = 1000
	clearMailbox(t, imapAddr, "orders", "orderspw")
	st, err := store.Open(filepath.Join(t.TempDir(), "tp.db")) // the production default: synchronous=FULL
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	j, err := New(st, "orders@example.test", testLog(t))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	robots := []string{"Alice", "Bob", "Carol"}
	users := []string{"alice", "bob", "carol"}
	spec := GameSpec{Tag: "tp", Course: "sprint", Seed: 3, Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}}
	for i, r := range robots {
		spec.Players = append(spec.Players, PlayerSpec{Robot: r, Email: users[i] + "@example.test"})
	}
	secrets, err := j.CreateGame(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	sender, err := mail.NewSender(mail.SenderConfig{Addr: smtpAddr, TLS: "none"})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	for i := 0; i < n; i++ {
		u := i % len(users)
		body := fmt.Sprintf("robot %s\nsecret %s\nif damage > 4 then power down\n", robots[u], secrets[robots[u]])
		raw := rawMail(users[u]+"@example.test", fmt.Sprintf("[RR tp] standing orders %d", i), body)
		if err := sender.Send(ctx, users[u]+"@example.test", []string{"orders@example.test"}, raw); err != nil {
			t.Fatal(err)
		}
	}
	// Wait until Dovecot has them all.
	for {
		c := imapLogin(t, imapAddr, "orders", "orderspw")
		sel, err := c.Select("INBOX", nil).Wait()
		c.Close()
		if err != nil {
			t.Fatal(err)
		}
		if sel.NumMessages >= n {
			break
		}
		if time.Since(t0) > 3*time.Minute {
			t.Fatalf("only %d of %d mails reached Dovecot", sel.NumMessages, n)
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("delivered %d mails through Postfix to Dovecot in %v", n, time.Since(t0).Round(time.Millisecond))

	// A bare IMAP client fetching every body.
	t1 := time.Now()
	c := imapLogin(t, imapAddr, "orders", "orderspw")
	if _, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
		t.Fatal(err)
	}
	var all imap.UIDSet
	all.AddRange(1, 0)
	msgs, err := c.Fetch(all, &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
	c.Close()
	if err != nil {
		t.Fatal(err)
	}
	bare := time.Since(t1)
	t.Logf("bare IMAP fetch: %d messages in %v = %.0f msgs/s", len(msgs), bare.Round(time.Millisecond), float64(len(msgs))/bare.Seconds())

	// rallyjudge ingesting them.
	fetcher, err := mail.NewFetcher(mail.FetcherConfig{Addr: imapAddr, TLS: "plain", Username: "orders", Password: "orderspw",
		After: "flag", IdleTimeout: 2 * time.Second, PollInterval: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	sctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	var handled atomic.Int64
	allDone := make(chan struct{})
	t2 := time.Now()
	go func() {
		// the daemon's path: each fetched batch stored and judged in one commit each
		done <- fetcher.RunBatch(sctx, func(ctx context.Context, v uint32, msgs []mail.Fetched) []error {
			errs := j.HandleBatch(ctx, v, msgs)
			for _, err := range errs {
				if err == nil && handled.Add(1) == n {
					close(allDone)
				}
			}
			return errs
		})
	}()
	select {
	case <-allDone:
	case <-time.After(5 * time.Minute):
		t.Fatalf("rallyjudge handled %d of %d", handled.Load(), n)
	}
	ingest := time.Since(t2)
	stop()
	<-done
	t.Logf("rallyjudge ingest: %d messages in %v = %.0f msgs/s (fetch, store, authenticate, parse, validate, acknowledge; batches of up to 100 in one commit each), %.0f%% of the bare fetch rate",
		n, ingest.Round(time.Millisecond), float64(n)/ingest.Seconds(), 100*bare.Seconds()/ingest.Seconds())
	var acks int
	_ = st.View(ctx, func(tx *store.Tx) error {
		ms, err := tx.OutboxByGame(1, -1)
		for _, m := range ms {
			if m.Kind == "ack" {
				acks++
			}
		}
		return err
	})
	if acks != n {
		t.Errorf("%d acknowledgements for %d sheets", acks, n)
	}
}
