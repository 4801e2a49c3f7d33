package judge

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// twoJudges opens two judges on one database, as two `rallyjudge serve` on one
// PostgreSQL database (each its own store: its own sessions and claims), or, on SQLite,
// on one file (the clock's checks hold there too).
func twoJudges(t *testing.T, backend string) (*Judge, *Judge) {
	t.Helper()
	var where, pw string
	switch backend {
	case "sqlite":
		where = filepath.Join(t.TempDir(), "judge.db")
	default:
		if os.Getenv("RALLYJUDGE_POSTGRES_DSN") == "" {
			t.Skip("no PostgreSQL: RALLYJUDGE_POSTGRES_DSN (scripts/postgres.sh)")
		}
		where, pw = failoverSchema(t)
	}
	var js [2]*Judge
	for i := range js {
		st, err := store.OpenWith(where, store.Options{Password: pw, Lease: 2 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		if js[i], err = New(st, "orders@example.test", testLog(t)); err != nil {
			t.Fatal(err)
		}
	}
	return js[0], js[1]
}

// TestSecondClockLeavesTheNextTurn: two judges' clocks read the same game due; the
// first resolves the turn (opening the next, whose deadline is a day away); the second,
// coming after, must not resolve the new turn too (it did: ResolveNow resolved whatever
// turn was current). And a judge finding the game locked by another leaves it.
func TestSecondClockLeavesTheNextTurn(t *testing.T) {
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			a, b := twoJudges(t, backend)
			ctx := context.Background()
			spec := GameSpec{Tag: "twoclocks", Settings: map[string]string{"course": "sprint"}, Seed: 5,
				Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}}
			for _, r := range []string{"Alice", "Bob"} {
				spec.Players = append(spec.Players, PlayerSpec{Robot: r, Email: strings.ToLower(r) + "@example.test"})
			}
			if _, err := a.CreateGame(ctx, spec); err != nil {
				t.Fatal(err)
			}
			var g store.Game
			if err := a.Store.Tx(ctx, func(tx *store.Tx) error {
				var err error
				if g, err = tx.GameByTag("twoclocks"); err != nil {
					return err
				}
				return tx.SetDeadline(g.ID, time.Now().Add(-time.Minute))
			}); err != nil {
				t.Fatal(err)
			}
			// both clocks have read the game due; a resolves first
			if ok, err := a.resolveDue(ctx, g.ID); err != nil || !ok {
				t.Fatalf("the first clock: %v %v, want the turn resolved", ok, err)
			}
			if ok, err := b.resolveDue(ctx, g.ID); err != nil || ok {
				t.Fatalf("the second clock: %v %v, want the next turn left alone", ok, err)
			}
			if err := b.Store.View(ctx, func(tx *store.Tx) error {
				cur, err := tx.Game(g.ID)
				if err == nil && cur.CurrentTurn != g.CurrentTurn+1 {
					t.Errorf("game at turn %d, want %d: resolved twice", cur.CurrentTurn, g.CurrentTurn+1)
				}
				return err
			}); err != nil {
				t.Fatal(err)
			}
			if backend == "sqlite" {
				return
			}
			// a holds the game's lock (a resolution, a mail about it): b leaves the game
			locked, release, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
			go func() {
				done <- a.Store.Tx(ctx, func(tx *store.Tx) error {
					if ok, err := tx.LockGame(g.ID); !ok || err != nil {
						t.Errorf("a: LockGame %v %v", ok, err)
					}
					close(locked)
					<-release
					return nil
				})
			}()
			<-locked
			if _, err := b.ResolveNow(ctx, g.ID); err != errGameBusy {
				t.Errorf("b resolving a game a holds: %v, want errGameBusy", err)
			}
			close(release)
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestTwoSendersSendEachMailOnce: two judges drain one outbox at the same time; each
// mail is handed to SMTP once (each row under its claim, marked only while pending).
func TestTwoSendersSendEachMailOnce(t *testing.T) {
	a, b := twoJudges(t, "postgres")
	ctx := context.Background()
	spec := GameSpec{Tag: "twosenders", Settings: map[string]string{"course": "sprint"}, Seed: 5,
		Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}}
	for _, r := range []string{"Alice", "Bob", "Carol"} {
		spec.Players = append(spec.Players, PlayerSpec{Robot: r, Email: strings.ToLower(r) + "@example.test"})
	}
	if _, err := a.CreateGame(ctx, spec); err != nil { // welcomes and the first reports
		t.Fatal(err)
	}
	var want int
	if err := a.Store.View(ctx, func(tx *store.Tx) error {
		due, err := tx.DuePending(time.Now().Add(time.Hour), 1000)
		want = len(due)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if want < 3 {
		t.Fatalf("%d mails pending, want several", want)
	}
	// each sender's first mail waits until the other has begun too: they overlap
	both := make(chan struct{}, 2)
	sa, sb := &overlapSender{both: both}, &overlapSender{both: both}
	errs := make(chan error, 2)
	go func() { _, err := a.DrainOutbox(ctx, sa); errs <- err }()
	go func() { _, err := b.DrainOutbox(ctx, sb); errs <- err }()
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]int{}
	for _, s := range []*overlapSender{sa, sb} {
		for _, raw := range s.sent {
			m, err := mail.Extract(raw)
			if err != nil {
				t.Fatal(err)
			}
			seen[m.MessageID]++
		}
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s sent %d times", id, n)
		}
	}
	if len(seen) != want {
		t.Errorf("%d mails sent, want %d", len(seen), want)
	}
	if len(sa.sent) == 0 || len(sb.sent) == 0 {
		t.Errorf("one judge sent all: %d and %d", len(sa.sent), len(sb.sent))
	}
	t.Logf("%d mails: %d sent by one judge, %d by the other", want, len(sa.sent), len(sb.sent))
}

// overlapSender records what it sends; its first Send waits until the other's has
// begun (both gets one token from each).
type overlapSender struct {
	both  chan struct{}
	begun bool
	sent  [][]byte
}

func (s *overlapSender) Send(ctx context.Context, _ string, _ []string, raw []byte) error {
	if !s.begun {
		s.begun = true
		s.both <- struct{}{}
		for len(s.both) < 2 && cap(s.both) == 2 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Millisecond):
			}
		}
	}
	s.sent = append(s.sent, raw)
	return nil
}

// TestStoredMailJudgedOnce: a mail stored and not judged is judged by one judge (its
// Recover, on taking intake); another that read it before, still new, and comes to it
// after must leave it (it judged it again: a second version of the sheet stored, a
// second acknowledgement).
func TestStoredMailJudgedOnce(t *testing.T) {
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			a, b := twoJudges(t, backend)
			ctx := context.Background()
			spec := GameSpec{Tag: "once", Settings: map[string]string{"course": "sprint"}, Seed: 5,
				Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}}
			for _, r := range []string{"Alice", "Bob"} {
				spec.Players = append(spec.Players, PlayerSpec{Robot: r, Email: strings.ToLower(r) + "@example.test"})
			}
			secrets, err := a.CreateGame(ctx, spec)
			if err != nil {
				t.Fatal(err)
			}
			raw := rawMail("alice@example.test", "[RR once] standing orders",
				fmt.Sprintf("robot Alice\nsecret %s\nif damage > 4 then power down\n", secrets["Alice"]))
			var row store.InboxMessage
			if err := a.Store.Tx(ctx, func(tx *store.Tx) error {
				var err error
				row, _, err = tx.InboxInsert(store.InboxMessage{UIDValidity: 1, UID: 1, Raw: raw, Received: time.Now()})
				return err
			}); err != nil {
				t.Fatal(err)
			}
			if err := a.Recover(ctx); err != nil { // a judges it
				t.Fatal(err)
			}
			msg, perr := b.extract(row.Raw)
			if err := b.processStored(ctx, row, msg, perr); err != nil { // b, with the row as it read it
				t.Fatal(err)
			}
			if err := a.Store.View(ctx, func(tx *store.Tx) error {
				g, err := tx.GameByTag("once")
				if err != nil {
					return err
				}
				vs, err := tx.OrderVersions(g.ID, g.CurrentTurn, "Alice")
				if err == nil && len(vs) != 1 {
					t.Errorf("%d versions of Alice's sheet stored, want 1", len(vs))
				}
				return err
			}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestTakingOverIntakeLooksAtEveryGame: a judge that takes the mailbox over looks at
// every running game at its next tick (the marks of the judge that died are gone), not
// an hour later.
func TestTakingOverIntakeLooksAtEveryGame(t *testing.T) {
	var w readyWatch
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	if all, _ := w.take(now); !all {
		t.Fatal("a judge that starts looks at every game")
	}
	w.sweptAt(now)
	if all, _ := w.take(now.Add(time.Minute)); all {
		t.Fatal("a minute after a sweep: every game again")
	}
	w.sweepNext()
	if all, _ := w.take(now.Add(time.Minute)); !all {
		t.Error("after sweepNext: not every game")
	}
}
