package judge

import (
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// TestCorruptPagesWhileServing: the database's pages are damaged under a running judge
// (a copy of a judge's database is opened, then its pages are overwritten on disk, as a
// failing disk does). Intake, which finds it when it stores or judges the next mail,
// stops taking mail: Serve returns ErrCorrupt, the log says so at error level, and the
// file is not written (its bytes after the judge stopped are those the damage left), so
// what was stored before is not changed and a restored backup loses nothing more. Before
// issue 14 the judge kept running and flagged every mail as handled while each failed.
func TestCorruptPagesWhileServing(t *testing.T) {
	dir := t.TempDir()
	orig := filepath.Join(dir, "orig.db")
	ctx := context.Background()
	st, err := store.OpenWith(orig, store.Options{Sync: store.SyncNormal})
	if err != nil {
		t.Fatal(err)
	}
	j, err := New(st, "judge@example.test", testLog(t))
	if err != nil {
		t.Fatal(err)
	}
	spec := GameSpec{Tag: "live", Settings: map[string]string{"course": "sprint"}, Seed: 3, GMEmail: "gm@example.test",
		Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24},
		Players:  []PlayerSpec{{Robot: "Alice", Email: "alice@example.test"}, {Robot: "Bob", Email: "bob@example.test"}}}
	secrets, err := j.CreateGame(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	// the secrets' mails go out from this judge, which holds the secrets it minted: left
	// in the outbox, the judge serving the copy would mint fresh ones when it sent them,
	// and Bob's sheets would be refused for a stale secret (which the old test passed
	// by: refusing them read a damaged page)
	if _, err := j.DrainOutbox(ctx, &countingSender{}); err != nil {
		t.Fatal(err)
	}
	body, _ := programSheet(t, j, secrets, "Alice", 0, 5)
	if err := j.HandleMessage(ctx, 1, 1, rawMail("alice@example.test", "[RR live] orders", body)); err != nil {
		t.Fatal(err)
	}
	if _, err := j.DrainOutbox(ctx, &countingSender{}); err != nil {
		t.Fatal(err)
	}
	st.Close()

	for _, between := range []bool{false, true} {
		name := "damaged under a judge about to serve"
		if between {
			name = "damaged between two handlings"
		}
		t.Run(name, func(t *testing.T) { corruptWhileServing(t, orig, secrets, between, false) })
	}
	// no mail after the damage: only the clock's integrity check (limits.integrity_check,
	// here at every tick) finds it; before it the judge served on from SQLite's page cache
	t.Run("damaged under an idle judge", func(t *testing.T) { corruptWhileServing(t, orig, secrets, true, true) })
}

// corruptWhileServing damages a copy of the database at orig under a judge: before Serve
// (its start-up recovery reads the inbox) or once Serve has handled a first mail.
func corruptWhileServing(t *testing.T, orig string, secrets map[string]string, between, idle bool) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "copy.db")
	copyFile(t, orig, path)
	st2, err := store.OpenWith(path, store.Options{Sync: store.SyncNormal})
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	rec := &logRecorder{}
	j2, err := New(st2, "judge@example.test", rec.logger())
	if err != nil {
		t.Fatal(err)
	}
	if idle {
		j2.IntegrityCheck = time.Nanosecond // at every tick
	}
	var damaged [2][32]byte
	damage := func() {
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		fi, _ := f.Stat()
		junk := []byte(strings.Repeat("\xde\xad\xbe\xef", int(fi.Size()-4096)/4))
		if _, err := f.WriteAt(junk, 4096); err != nil { // every page but the first (the schema's root)
			t.Fatal(err)
		}
		f.Close()
		damaged = [2][32]byte{fileSum(t, path), fileSum(t, path+"-wal")}
	}
	emb, err := mail.NewEmbedded(mail.EmbeddedConfig{Domain: "example.test", Users: map[string]string{"judge": "judgepw"}})
	if err != nil {
		t.Fatal(err)
	}
	defer emb.Close()
	deliver := func() {
		if err := emb.Deliver("judge", "", rawMail("bob@example.test", "[RR live] orders", "robot Bob\nsecret "+secrets["Bob"]+"\nif damage > 4 then power down\n")); err != nil {
			t.Fatal(err)
		}
	}
	if !between {
		damage()
	}
	deliver()
	fetcher, err := mail.NewFetcher(mail.FetcherConfig{Addr: emb.IMAPAddr, TLS: "plain", Username: "judge", Password: "judgepw",
		After: "flag", IdleTimeout: time.Second, PollInterval: 300 * time.Millisecond, Logger: testLog(t)})
	if err != nil {
		t.Fatal(err)
	}
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	done := make(chan error, 1)
	go func() {
		done <- j2.Serve(sctx, Loops{Fetcher: fetcher, Mailbox: "INBOX", Sender: &countingSender{}, Tick: 100 * time.Millisecond})
	}()
	if between {
		waitFor(t, "the first mail to be handled", time.Minute, func() bool { return !fetcher.CaughtUp().IsZero() })
		// The first mail's own writes (its acknowledgement marked sent, the scrub of its
		// secret from the log, the fetch position) may land after CaughtUp: damage only a
		// judge that has settled, or the test would blame a write made before the damage
		// (on a loaded machine it did, a few runs in ten).
		var last [2][32]byte
		var since time.Time
		waitFor(t, "the judge to settle after the first mail", time.Minute, func() bool {
			if j2.scrubDue() {
				return false
			}
			// intake checks the pages before the next batch (a check made moments
			// ago is not made again at once: intakeCheckDue). An idle judge takes no
			// batch: its clock, checking at every tick, finds the damage, and keeps
			// the intake's check from falling due (each check renews the window, which
			// on a slow or loaded machine, or under -race, outlasts a tick).
			if !idle && !j2.intakeCheckDue(time.Now()) {
				return false
			}
			if ms, err := st2.DuePending(ctx, time.Now().Add(time.Hour), 1); err != nil || len(ms) > 0 {
				return false
			}
			now := [2][32]byte{fileSum(t, path), fileSum(t, path+"-wal")}
			if now != last || since.IsZero() {
				last, since = now, time.Now()
				return false
			}
			return time.Since(since) > 500*time.Millisecond // five ticks without a write
		})
		damage()
		if !idle {
			deliver()
			deliver()
			fetcher.Poke()
		}
	}
	select {
	case err := <-done:
		if !errors.Is(err, store.ErrCorrupt) {
			t.Errorf("serve on damaged pages returned %v, want ErrCorrupt", err)
		}
		t.Logf("serve stopped: %v", err)
	case <-time.After(time.Minute):
		// stopped here, so that what it flagged meanwhile is still looked at below
		t.Error("the judge went on serving a database whose pages are damaged")
		stop()
		<-done
	}
	if !rec.has("level=ERROR") || !rec.has("DAMAGED") {
		t.Errorf("no error-level log line says the database is damaged:\n%s", strings.Join(rec.lines, ""))
	}
	// the mail the damaged database could not record stays unhandled on the server (no
	// \Seen, no keyword), to be read again once a backup is restored
	for _, uid := range doneOnServer(t, emb.IMAPAddr, "judge", "judgepw") {
		if between && uid == 1 {
			continue // handled before the damage (flagged at the fetcher's leisure)
		}
		t.Errorf("mail uid %d, which the damaged database could not record, is flagged handled", uid)
	}
	if now := [2][32]byte{fileSum(t, path), fileSum(t, path+"-wal")}; now != damaged {
		t.Error("the judge wrote to the damaged database after the damage")
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// fileSum is the SHA-256 of a file's bytes (zero when there is no such file).
func fileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return [32]byte{}
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		t.Fatal(err)
	}
	var s [32]byte
	copy(s[:], h.Sum(nil))
	return s
}
