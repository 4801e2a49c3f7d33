package judge

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/internal/faultnet"
	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// fakeClock is a settable clock for the judge.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// livenessGame is a judge with a two-player game on a fresh database, on a settable clock.
func livenessGame(t *testing.T, users map[string]string) (*Judge, *fakeClock, map[string]string) {
	t.Helper()
	st, err := store.OpenWith(filepath.Join(t.TempDir(), "live.db"), store.Options{Sync: store.SyncNormal})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	j, err := New(st, "judge@example.test", testLog(t))
	if err != nil {
		t.Fatal(err)
	}
	clock := &fakeClock{t: time.Now().UTC()}
	j.Now = clock.Now
	spec := GameSpec{Tag: "live", Course: "sprint", Seed: 3, GMEmail: "gm@example.test",
		Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24},
		Players:  []PlayerSpec{{Robot: "Alice", Email: "alice@example.test"}, {Robot: "Bob", Email: "bob@example.test"}}}
	secrets, err := j.CreateGame(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	return j, clock, secrets
}

// waitFor polls cond (a store read) until it holds or limit passes.
func waitFor(t *testing.T, what string, limit time.Duration, cond func() bool) {
	t.Helper()
	end := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(end) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestHungSMTPDelaysNeitherDeadlinesNorIntake: the SMTP server accepts connections and
// never answers (a black hole). Sending is stuck on it, but intake still stores and
// acknowledges a sheet, and the deadline still resolves the turn on time. Before issue 14
// sending and the deadline clock shared one loop: a hung server held the turn (196 s late
// in the report; here for ever, the sender's timeout being an hour).
func TestHungSMTPDelaysNeitherDeadlinesNorIntake(t *testing.T) {
	emb, err := mail.NewEmbedded(mail.EmbeddedConfig{Domain: "example.test", Users: map[string]string{"judge": "judgepw"}})
	if err != nil {
		t.Fatal(err)
	}
	defer emb.Close()
	hole, err := faultnet.New(emb.SMTPAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer hole.Close()
	hole.Freeze()
	j, clock, secrets := livenessGame(t, nil)
	fetcher, err := mail.NewFetcher(mail.FetcherConfig{Addr: emb.IMAPAddr, TLS: "plain", Username: "judge", Password: "judgepw",
		IdleTimeout: 200 * time.Millisecond, PollInterval: 100 * time.Millisecond, Logger: testLog(t)})
	if err != nil {
		t.Fatal(err)
	}
	sender, err := mail.NewSender(mail.SenderConfig{Addr: hole.Addr, TLS: "none", Timeout: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- j.Serve(ctx, Loops{Fetcher: fetcher, Mailbox: "INBOX", Sender: sender, Tick: 50 * time.Millisecond})
	}()
	defer func() {
		hole.Close() // frees the sender's connection
		cancel()
		<-done
	}()
	waitFor(t, "the sender to hang on the frozen server", 10*time.Second, func() bool { return hole.Accepted() > 0 })

	// intake: Alice's sheet is stored and acknowledged while the sender hangs
	body := "robot Alice\nturn 1\nsecret " + secrets["Alice"] + "\nif damage > 4 then power down\n"
	if err := emb.Deliver("judge", "INBOX", rawMail("alice@example.test", "[RR live] orders", body)); err != nil {
		t.Fatal(err)
	}
	game := func() (g store.Game, acks int) {
		_ = j.Store.View(context.Background(), func(tx *store.Tx) error {
			g, _ = tx.GameByTag("live")
			ms, _ := tx.OutboxByGame(g.ID, -1)
			for _, m := range ms {
				if m.Kind == "ack" {
					acks++
				}
			}
			return nil
		})
		return g, acks
	}
	waitFor(t, "intake to acknowledge a sheet while SMTP hangs", 20*time.Second, func() bool { _, n := game(); return n > 0 })

	// the deadline: the turn resolves although the sender is still stuck
	clock.Add(25 * time.Hour)
	waitFor(t, "the deadline to resolve the turn while SMTP hangs", 20*time.Second, func() bool { g, _ := game(); return g.CurrentTurn == 2 })
}
