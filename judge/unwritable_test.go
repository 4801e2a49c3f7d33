package judge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// tinyDisk mounts a file system of size bytes (tmpfs) for the test, or skips the test
// where mounting is not allowed (not root, no mount(8)): it is the one way to fill a
// disk, or make one read-only, under a running judge without filling the machine's.
func tinyDisk(t *testing.T, size string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "disk")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small tmpfs to fill (needs root): %v %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", "-l", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, out)
		}
	})
	return dir
}

// fillDisk writes a file into dir until the disk is full, and returns its name.
func fillDisk(t *testing.T, dir string) string {
	t.Helper()
	name := filepath.Join(dir, "filler")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	block := make([]byte, 4096)
	for {
		if _, err := f.Write(block); err != nil {
			if !strings.Contains(err.Error(), "no space left") {
				t.Fatalf("filling the disk: %v", err)
			}
			return name
		}
	}
}

// TestFullDiskWhileServing: the disk fills under a running judge. Intake stops at once:
// the mail it cannot record is not flagged done on the server, and nothing after it is
// read; the log says so at error level and the operator is mailed once. Once space is
// freed the judge takes the same mail again, in the order the server received it: every
// sheet counts, the last one written is the one that stands, and every sheet is
// acknowledged. Left full past limits.unwritable_exit, Serve stops with ErrUnwritable.
// Before issue 21 the sheet that failed to store was flagged done and not read again
// until a restart, which refused three newer sheets of its turn as late.
func TestFullDiskWhileServing(t *testing.T) {
	for _, tc := range []struct {
		name   string
		freeUp bool
	}{{"space freed", true}, {"left full", false}} {
		t.Run(tc.name, func(t *testing.T) { fullDiskWhileServing(t, tc.freeUp) })
	}
}

func fullDiskWhileServing(t *testing.T, freeUp bool) {
	ctx := context.Background()
	disk := tinyDisk(t, "6m")
	st, err := store.OpenWith(filepath.Join(disk, "judge.db"), store.Options{Sync: store.SyncNormal})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rec := &logRecorder{}
	t.Cleanup(func() {
		if t.Failed() {
			rec.mu.Lock()
			t.Logf("the judge's log:\n%s", strings.Join(rec.lines, ""))
			rec.mu.Unlock()
		}
	})
	j, err := New(st, "judge@example.test", rec.logger())
	if err != nil {
		t.Fatal(err)
	}
	j.Operator = "operator@example.test"
	j.UnwritableProbe = 20 * time.Millisecond
	if !freeUp {
		j.UnwritableExit = time.Nanosecond // the first try after the failure is past it
	}
	secrets, err := j.CreateGame(ctx, GameSpec{Tag: "live", Settings: map[string]string{"course": "sprint"}, Seed: 3, GMEmail: "gm@example.test",
		Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24},
		Players:  []PlayerSpec{{Robot: "Alice", Email: "alice@example.test"}, {Robot: "Bob", Email: "bob@example.test"}}})
	if err != nil {
		t.Fatal(err)
	}
	emb, err := mail.NewEmbedded(mail.EmbeddedConfig{Domain: "example.test", Users: map[string]string{"judge": "judgepw"}})
	if err != nil {
		t.Fatal(err)
	}
	defer emb.Close()
	// each sheet comes with a 150 KB attachment, which the inbox keeps with the mail: a
	// batch of them needs the write-ahead log to grow, so a full disk cannot pass unseen
	// (a small write fits in the log's space already taken, as it should)
	n := 0
	sheet := func(robot string, damage int) []byte {
		n++
		pad := strings.Repeat(fmt.Sprintf("%076d\r\n", n), 2000)
		return []byte(fmt.Sprintf("From: %s@example.test\r\nTo: judge@example.test\r\nSubject: [RR live] orders\r\n"+
			"Message-ID: <full.%d@client.test>\r\nDate: Sun, 01 Mar 2026 12:00:00 +0000\r\nMIME-Version: 1.0\r\n"+
			"Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"+
			"robot %s\r\nsecret %s\r\nif damage > %d then power down\r\n--b\r\nContent-Type: application/octet-stream\r\n"+
			"Content-Transfer-Encoding: base64\r\n\r\n%s--b--\r\n", strings.ToLower(robot), n, robot, secrets[robot], damage, pad))
	}
	if err := emb.Deliver("judge", "", sheet("Alice", 4)); err != nil {
		t.Fatal(err)
	}
	fetcher, err := mail.NewFetcher(mail.FetcherConfig{Addr: emb.IMAPAddr, TLS: "plain", Username: "judge", Password: "judgepw",
		After: "flag", IdleTimeout: time.Second, PollInterval: 200 * time.Millisecond, Logger: rec.logger()})
	if err != nil {
		t.Fatal(err)
	}
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	sender := &countingSender{}
	done := make(chan error, 1)
	go func() {
		done <- j.Serve(sctx, Loops{Fetcher: fetcher, Mailbox: "INBOX", Sender: sender, Tick: 100 * time.Millisecond})
	}()
	versions := func() (alice []string, bob int) {
		_ = st.View(ctx, func(tx *store.Tx) error {
			g, err := tx.GameByTag("live")
			if err != nil {
				return err
			}
			vs, _ := tx.OrderVersions(g.ID, g.CurrentTurn, "Alice")
			for _, v := range vs {
				alice = append(alice, strings.TrimSpace(v.Raw[strings.LastIndex(v.Raw, "if damage"):]))
			}
			bs, _ := tx.OrderVersions(g.ID, g.CurrentTurn, "Bob")
			bob = len(bs)
			return nil
		})
		return alice, bob
	}
	waitFor(t, "the first sheet to be stored", time.Minute, func() bool { a, _ := versions(); return len(a) == 1 })

	filler := fillDisk(t, disk)
	for _, m := range [][]byte{sheet("Alice", 5), sheet("Bob", 3), sheet("Alice", 6)} {
		if err := emb.Deliver("judge", "", m); err != nil {
			t.Fatal(err)
		}
	}
	fetcher.Poke()
	waitFor(t, "intake to stop on the full disk", time.Minute, func() bool { return rec.has("THE DATABASE CANNOT BE WRITTEN: intake stopped") })
	if !rec.has("level=ERROR") {
		t.Error("the full disk is not logged at error level")
	}
	flagged := func() []uint32 { return doneOnServer(t, emb.IMAPAddr, "judge", "judgepw") }
	for _, uid := range flagged() {
		if uid > 1 {
			t.Errorf("mail uid %d, which the full disk kept from being recorded, is flagged done", uid)
		}
	}
	if a, b := versions(); len(a) != 1 || b != 0 {
		t.Errorf("on a full disk %d of Alice's and %d of Bob's sheets are stored, want 1 and 0", len(a), b)
	}

	if !freeUp {
		select {
		case err := <-done:
			if !errors.Is(err, ErrUnwritable) {
				t.Fatalf("serve on a disk left full returned %v, want ErrUnwritable", err)
			}
		case <-time.After(time.Minute):
			t.Fatal("the judge did not stop on a database that stayed unwritable past its limit")
		}
		for _, uid := range flagged() {
			if uid > 1 {
				t.Errorf("mail uid %d is flagged done though it was never recorded", uid)
			}
		}
		return
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the three sheets after space was freed", time.Minute, func() bool { a, b := versions(); return len(a) == 3 && b == 1 })
	var fl []uint32 // the last look, for the message
	waitFor(t, "every mail to be flagged done", time.Minute, func() bool { fl = flagged(); return len(fl) == 4 })
	alice, _ := versions()
	if want := []string{"if damage > 4 then power down", "if damage > 5 then power down", "if damage > 6 then power down"}; !slices.Equal(alice, want) {
		t.Errorf("Alice's versions %q, want them in the order the server received them %q", alice, want)
	}
	if !rec.has("intake resumes") {
		t.Error("the log does not say intake resumed")
	}
	// every sheet acknowledged, and the operator told once
	var acks int
	_ = st.View(ctx, func(tx *store.Tx) error {
		g, err := tx.GameByTag("live")
		if err != nil {
			return err
		}
		ms, err := tx.OutboxByGame(g.ID, g.CurrentTurn)
		for _, m := range ms {
			if m.Kind == "ack" {
				acks++
			}
		}
		return err
	})
	if acks != 4 {
		t.Errorf("%d acknowledgements for 4 sheets", acks)
	}
	sender.mu.Lock()
	defer sender.mu.Unlock()
	told := 0
	for id := range sender.sent {
		if strings.HasPrefix(id, "operator.unwritable.") {
			told += sender.sent[id]
		}
	}
	if told != 1 {
		t.Errorf("the operator was mailed %d times, want once", told)
	}
}
