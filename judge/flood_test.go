package judge

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// offsetClock is the real clock moved by an offset that the test may jump: the fetcher's
// CaughtUp (a real instant) maps onto it exactly.
type offsetClock struct {
	mu     sync.Mutex
	offset time.Duration
	jumpAt time.Time     // real instant of the last jump
	before time.Duration // the offset before it
}

func (c *offsetClock) Now() time.Time { return c.At(time.Now()) }

// At is the clock's reading at the real instant t.
func (c *offsetClock) At(t time.Time) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t.Before(c.jumpAt) {
		return t.Add(c.before)
	}
	return t.Add(c.offset)
}

func (c *offsetClock) Set(offset time.Duration) {
	c.mu.Lock()
	c.before, c.offset, c.jumpAt = c.offset, offset, time.Now()
	c.mu.Unlock()
}

// TestFloodBeforeDeadline is issue 14's flood end to end, through the embedded IMAP
// server and the daemon's own loops (Serve): one address sends a flood of wrong-secret
// sheets, then another player's valid sheet reaches the mailbox 30 s (on the judge's
// clock) before the deadline, and the judge's clock is a minute past the deadline before
// intake has read any of it. The turn is resolved only once intake has read the mail
// received before the deadline, and the valid sheet is the program played, not a random
// one. Before issue 14 the sheet was read after the turn was resolved (59 s late in the
// report) and the player got a random program. The default run floods with 400 mails;
// RALLYJUDGE_THROUGHPUT=1 with the report's 2,000.
func TestFloodBeforeDeadline(t *testing.T) {
	if testing.Short() {
		t.Skip("a flood through the embedded mail server")
	}
	flood := 400
	if os.Getenv("RALLYJUDGE_THROUGHPUT") == "1" {
		flood = 2000
	}
	j, _, secrets := livenessGame(t, nil)
	ctx := context.Background()
	clock := &offsetClock{}
	j.Now = clock.Now
	// Bob's secret as stored before keyed hashes (bcrypt): each wrong secret checked
	// against it would cost a slow hash unless the rate limit spares it.
	h, err := store.HashSecret(secrets["Bob"])
	if err != nil {
		t.Fatal(err)
	}
	var g store.Game
	if err := j.Store.Tx(ctx, func(tx *store.Tx) error {
		if g, err = tx.GameByTag("live"); err != nil {
			return err
		}
		p, err := tx.PlayerByRobot(g.ID, "Bob")
		if err != nil {
			return err
		}
		return tx.SetPlayerSecret(p.ID, h)
	}); err != nil {
		t.Fatal(err)
	}
	cutoff := g.DeadlineAt.Add(g.Grace)
	body, prog := programSheet(t, j, secrets, "Alice", 0, 91)

	emb, err := mail.NewEmbedded(mail.EmbeddedConfig{Domain: "example.test", Users: map[string]string{"judge": "judgepw"}})
	if err != nil {
		t.Fatal(err)
	}
	defer emb.Close()
	for i := 0; i < flood; i++ {
		bad := fmt.Sprintf("robot Bob\nturn 1\nsecret wxyz-%04d-abcd-ef\nif damage > 4 then power down\n", i)
		if err := emb.Deliver("judge", "", rawMail("bob@example.test", "[RR live] orders", bad)); err != nil {
			t.Fatal(err)
		}
	}
	if err := emb.Deliver("judge", "", rawMail("alice@example.test", "[RR live] orders", body)); err != nil {
		t.Fatal(err)
	}
	received := time.Now() // the server's receive time of Alice's sheet, at the latest
	// On the judge's clock the sheet came 30 s before the deadline; now the deadline is a
	// minute past, as after a flood that took 90 s to read.
	clock.Set(cutoff.Add(-30 * time.Second).Sub(received))
	clock.Set(cutoff.Add(time.Minute).Sub(time.Now()))

	fetcher, err := mail.NewFetcher(mail.FetcherConfig{Addr: emb.IMAPAddr, TLS: "plain", Username: "judge", Password: "judgepw",
		After: "flag", IdleTimeout: time.Second, PollInterval: 300 * time.Millisecond, Logger: testLog(t)})
	if err != nil {
		t.Fatal(err)
	}
	j.IntakeCaughtUp = func() time.Time { // the fetcher's moment, on the judge's clock
		at := fetcher.CaughtUp()
		if at.IsZero() {
			return at
		}
		return clock.At(at)
	}
	sctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	start := time.Now()
	go func() {
		done <- j.Serve(sctx, Loops{Fetcher: fetcher, Mailbox: "INBOX", Sender: &countingSender{}, Tick: 100 * time.Millisecond})
	}()
	stopped := false
	halt := func() {
		if !stopped {
			stopped = true
			stop()
			if err := <-done; err != nil {
				t.Errorf("serve: %v", err)
			}
		}
	}
	defer halt()
	turn := func() int {
		var n int
		_ = j.Store.View(ctx, func(tx *store.Tx) error {
			g, err := tx.GameByTag("live")
			n = g.CurrentTurn
			return err
		})
		return n
	}
	waitFor(t, "the turn to be resolved", 3*time.Minute, func() bool { return turn() >= 2 })
	took := time.Since(start)
	halt()
	var handled int
	_ = j.Store.View(ctx, func(tx *store.Tx) error {
		for _, s := range []store.InboxStatus{store.InboxProcessed, store.InboxRejected} {
			rows, err := tx.InboxByStatus(s, flood+10)
			if err != nil {
				return err
			}
			handled += len(rows)
		}
		return nil
	})
	t.Logf("flood of %d wrong-secret mails and one valid sheet: turn resolved %v after intake started; %d mails handled; %d slow hash checks",
		flood, took.Round(time.Millisecond), handled, j.verified.slow)
	if handled < flood+1 {
		t.Errorf("turn resolved with %d of %d mails received before the deadline handled", handled, flood+1)
	}
	p := playedIn(t, j, 1, "Alice")
	if p.Missed != "" {
		t.Fatalf("alice's sheet, received 30 s before the deadline behind a flood, was missed: %q program played", p.Missed)
	}
	var got []string
	for _, c := range p.Program {
		got = append(got, fmt.Sprintf("P%d", c))
	}
	if strings.Join(got, " ") != prog {
		t.Errorf("turn 1 played %v for Alice, want her sheet's %s", got, prog)
	}
	if q := playedIn(t, j, 1, "Bob"); q.Missed == "" {
		t.Error("a wrong secret from the flood was played for Bob")
	}
	if j.verified.slow > j.AuthFailures+2 {
		t.Errorf("%d slow hash checks for a flood from a rate-limited sender, want at most %d", j.verified.slow, j.AuthFailures+2)
	}
}
