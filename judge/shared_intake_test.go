package judge

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// TestSeveralJudgesTakeInMail: N judges serve one PostgreSQL database and one mailbox
// (go-imap's in-process server), each with its own store, as N `rallyjudge serve`
// (shared.go). Every sheet is stored and answered once. By default 150 sheets and 3
// judges, the one reading the mailbox stopped half-way so that another takes over. With
// RALLYJUDGE_THROUGHPUT=1 it puts 1,000 sheets in the mailbox for 1, 2 and 3 judges in
// turn, none stopped, and logs the combined ingest (mails/s, from the judges' start to
// the last sheet judged; a figure of issue 25 item 6, not asserted: the machine may be
// loaded).
func TestSeveralJudgesTakeInMail(t *testing.T) {
	if os.Getenv("RALLYJUDGE_POSTGRES_DSN") == "" {
		t.Skip("no PostgreSQL: RALLYJUDGE_POSTGRES_DSN (scripts/postgres.sh)")
	}
	n, counts := 150, []int{3}
	if os.Getenv("RALLYJUDGE_THROUGHPUT") == "1" {
		n, counts = 1000, []int{1, 2, 3}
	}
	for _, judges := range counts {
		t.Run(fmt.Sprintf("%d-judges", judges), func(t *testing.T) {
			rate := measureSharedIntake(t, judges, n, len(counts) == 1)
			t.Logf("%d judges took in %d sheets at %.0f mails/s combined", judges, n, rate)
		})
	}
}

// measureSharedIntake runs the judges on a fresh schema and mailbox with n sheets waiting,
// and returns the combined rate.
func measureSharedIntake(t *testing.T, judges, n int, stopOne bool) float64 {
	e, err := mail.NewEmbedded(mail.EmbeddedConfig{Users: map[string]string{"orders": "orderspw"}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	dsn, pw := failoverSchema(t)
	ctx := context.Background()
	type judgeRun struct {
		j    *Judge
		stop context.CancelFunc
		done chan error
	}
	runs := make([]judgeRun, judges)
	for i := range runs {
		st, err := store.OpenWith(dsn, store.Options{Password: pw, Lease: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if runs[i].j, err = New(st, "orders@example.test", testLog(t)); err != nil {
			t.Fatal(err)
		}
	}
	robots := []string{"Alice", "Bob", "Carol"}
	users := []string{"alice", "bob", "carol"}
	spec := GameSpec{Tag: "si", Settings: map[string]string{"course": "sprint"}, Seed: 3, Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}}
	for i, r := range robots {
		spec.Players = append(spec.Players, PlayerSpec{Robot: r, Email: users[i] + "@example.test"})
	}
	secrets, err := runs[0].j.CreateGame(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	// the welcomes go out from the judge that made the secrets (secretslots.go: another
	// judge's sender would give each player a new one)
	if _, err := runs[0].j.DrainOutbox(ctx, &fakeSender{}); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		u := i % len(users)
		body := fmt.Sprintf("robot %s\nsecret %s\nif damage > 4 then power down\n", robots[u], secrets[robots[u]])
		if err := e.Deliver("orders", "INBOX", rawMail(users[u]+"@example.test", fmt.Sprintf("[RR si] standing orders %d", i), body)); err != nil {
			t.Fatal(err)
		}
	}
	newFetcher := func(since mail.Position, onCaughtUp func(time.Time)) (*mail.Fetcher, error) {
		return mail.NewFetcher(mail.FetcherConfig{Addr: e.IMAPAddr, TLS: "plain", Username: "orders", Password: "orderspw",
			Mailbox: "INBOX", After: "flag", Since: since, IdleTimeout: 2 * time.Second, PollInterval: time.Second,
			OnCaughtUp: onCaughtUp})
	}
	began := time.Now()
	for i := range runs {
		sctx, stop := context.WithCancel(ctx)
		runs[i].stop, runs[i].done = stop, make(chan error, 1)
		go func(r judgeRun) {
			r.done <- r.j.Serve(sctx, Loops{NewFetcher: newFetcher, Mailbox: "INBOX", Sender: &fakeSender{},
				Tick: 250 * time.Millisecond, Lease: time.Second})
		}(runs[i])
	}
	stopAll := func() {
		for _, r := range runs {
			r.stop()
			if err := <-r.done; err != nil {
				t.Errorf("serve: %v", err)
			}
		}
	}
	processed := func() int {
		var c store.Counts
		if err := runs[0].j.Store.View(ctx, func(tx *store.Tx) error {
			var err error
			c, err = tx.Counts()
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if c.Inbox[store.InboxFailed] > 0 || c.Inbox[store.InboxRejected] > 0 {
			var notes []string
			_ = runs[0].j.Store.View(ctx, func(tx *store.Tx) error {
				for _, s := range []store.InboxStatus{store.InboxFailed, store.InboxRejected} {
					rows, err := tx.InboxByStatus(s, 2)
					for _, r := range rows {
						notes = append(notes, r.Note)
					}
					if err != nil {
						return err
					}
				}
				return nil
			})
			t.Fatalf("inbox: %v: %q", c.Inbox, notes)
		}
		return c.Inbox[store.InboxProcessed]
	}
	stopped := judges == 1 || !stopOne // with one judge none is stopped; nor when measuring
	var took time.Duration
	for end := time.Now().Add(4 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
		got := processed()
		if got >= n {
			took = time.Since(began)
			break
		}
		if time.Now().After(end) {
			stopAll()
			t.Fatalf("%d of %d sheets judged after 4 minutes", got, n)
		}
		if !stopped && got >= n/2 { // the judge reading the mailbox stops; another takes over
			for i, r := range runs {
				if r.j.Store.ClaimHeld(ctx, store.ClaimIntake, 0) == nil {
					r.stop()
					if err := <-r.done; err != nil {
						t.Fatalf("serve: %v", err)
					}
					runs[i].done = make(chan error, 1)
					runs[i].done <- nil
					stopped = true
					t.Logf("judge %d, reading the mailbox, stopped at %d of %d sheets", i, got, n)
				}
			}
		}
	}
	stopAll()
	if got := processed(); got != n {
		t.Errorf("%d sheets judged, want %d", got, n)
	}
	// each sheet once: one inbox row each (the judged count above), one answer each
	acks := 0
	if err := runs[0].j.Store.View(ctx, func(tx *store.Tx) error {
		ms, err := tx.OutboxByGame(1, -1)
		for _, m := range ms {
			if m.Kind == "ack" {
				acks++
			}
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if acks != n {
		t.Errorf("%d acknowledgements for %d sheets", acks, n)
	}
	return float64(n) / took.Seconds()
}
