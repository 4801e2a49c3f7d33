package judge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// faultRig is a judge serving a two-player game ("live": Alice and Bob) from a database
// on a loopDisk, reading the embedded mail server, on a clock the test can move. The
// log, the sender and the clock outlive a restart of the judge.
type faultRig struct {
	t       *testing.T
	disk    *loopDisk
	path    string
	st      *store.Store
	j       *Judge
	rec     *logRecorder
	sender  *countingSender
	clock   *offsetClock
	emb     *mail.Embedded
	secrets map[string]string
	exit    time.Duration
	opts    store.Options
	fetcher *mail.Fetcher
	stop    context.CancelFunc
	done    chan error
	n       int
}

func newFaultRig(t *testing.T, exit time.Duration) *faultRig {
	disk := newLoopDisk(t, 64<<20)
	return newRig(t, exit, disk, filepath.Join(disk.dir, "judge.db"), store.Options{})
}

// newRig is newFaultRig on a database at path (on disk, when not nil), opened with o.
func newRig(t *testing.T, exit time.Duration, disk *loopDisk, path string, o store.Options) *faultRig {
	r := &faultRig{t: t, disk: disk, rec: &logRecorder{}, sender: &countingSender{}, clock: &offsetClock{}, exit: exit, opts: o}
	r.path = path
	t.Cleanup(func() {
		if t.Failed() {
			r.rec.mu.Lock()
			t.Logf("the judge's log:\n%s", strings.Join(r.rec.lines, ""))
			r.rec.mu.Unlock()
		}
	})
	emb, err := mail.NewEmbedded(mail.EmbeddedConfig{Domain: "example.test", Users: map[string]string{"judge": "judgepw"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { emb.Close() })
	r.emb = emb
	r.open()
	r.secrets, err = r.j.CreateGame(context.Background(), GameSpec{Tag: "live", Settings: map[string]string{"course": "sprint"}, Seed: 3, GMEmail: "gm@example.test",
		Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24},
		Players:  []PlayerSpec{{Robot: "Alice", Email: "alice@example.test"}, {Robot: "Bob", Email: "bob@example.test"}}})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// open opens the database (with serve's defaults: every commit on the disk) and a judge
// on it.
func (r *faultRig) open() {
	st, err := store.OpenWith(r.path, r.opts)
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { st.Close() })
	j, err := New(st, "judge@example.test", r.rec.logger())
	if err != nil {
		r.t.Fatal(err)
	}
	j.Now = r.clock.Now
	j.Operator = "operator@example.test"
	j.UnwritableProbe = 20 * time.Millisecond
	j.UnwritableExit = r.exit
	r.st, r.j = st, j
}

// serve starts Serve with a fetcher of its own.
func (r *faultRig) serve() {
	fetcher, err := mail.NewFetcher(mail.FetcherConfig{Addr: r.emb.IMAPAddr, TLS: "plain", Username: "judge", Password: "judgepw",
		After: "flag", IdleTimeout: time.Second, PollInterval: 200 * time.Millisecond, Logger: r.rec.logger()})
	if err != nil {
		r.t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	r.fetcher, r.stop, r.done = fetcher, stop, make(chan error, 1)
	r.t.Cleanup(stop)
	go func() {
		r.done <- r.j.Serve(ctx, Loops{Fetcher: fetcher, Mailbox: "INBOX", Sender: r.sender, Tick: 50 * time.Millisecond})
	}()
}

// stopped waits for Serve to stop by itself with one of want.
func (r *faultRig) stopped(want ...error) {
	r.t.Helper()
	select {
	case err := <-r.done:
		if !slices.ContainsFunc(want, func(w error) bool { return errors.Is(err, w) }) {
			r.t.Fatalf("serve returned %v, want %v", err, want)
		}
		r.t.Logf("serve stopped: %v", err)
	case <-time.After(time.Minute):
		r.stop()
		<-r.done
		r.t.Fatalf("the judge went on serving a broken database (want it to stop with %v)", want)
	}
}

// sheet is a sheet of robot's (damage sets its one line apart) with a 150 KB
// attachment, which the inbox keeps with the mail: a batch of them needs the disk.
func (r *faultRig) sheet(robot string, damage int) []byte {
	r.n++
	pad := strings.Repeat(fmt.Sprintf("%076d\r\n", r.n), 2000)
	return []byte(fmt.Sprintf("From: %s@example.test\r\nTo: judge@example.test\r\nSubject: [RR live] orders\r\n"+
		"Message-ID: <fault.%d@client.test>\r\nDate: Sun, 01 Mar 2026 12:00:00 +0000\r\nMIME-Version: 1.0\r\n"+
		"Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"+
		"robot %s\r\nsecret %s\r\nif damage > %d then power down\r\n--b\r\nContent-Type: application/octet-stream\r\n"+
		"Content-Transfer-Encoding: base64\r\n\r\n%s--b--\r\n", strings.ToLower(robot), r.n, robot, r.secrets[robot], damage, pad))
}

func (r *faultRig) deliver(msgs ...[]byte) {
	r.t.Helper()
	for _, m := range msgs {
		if err := r.emb.Deliver("judge", "", m); err != nil {
			r.t.Fatal(err)
		}
	}
}

// versions are the program lines of Alice's stored sheets of turn (oldest first) and
// the number of Bob's.
func (r *faultRig) versions(turn int) (alice []string, bob int) {
	_ = r.st.View(context.Background(), func(tx *store.Tx) error {
		g, err := tx.GameByTag("live")
		if err != nil {
			return err
		}
		vs, _ := tx.OrderVersions(g.ID, turn, "Alice")
		for _, v := range vs {
			alice = append(alice, strings.TrimSpace(v.Raw[strings.LastIndex(v.Raw, "if damage"):]))
		}
		bs, _ := tx.OrderVersions(g.ID, turn, "Bob")
		bob = len(bs)
		return nil
	})
	return alice, bob
}

func (r *faultRig) flagged() []uint32 { return doneOnServer(r.t, r.emb.IMAPAddr, "judge", "judgepw") }

// acks counts turn's acknowledgements in the outbox, and those of them sent.
func (r *faultRig) acks(turn int) (stored, sent int) {
	_ = r.st.View(context.Background(), func(tx *store.Tx) error {
		g, err := tx.GameByTag("live")
		if err != nil {
			return err
		}
		ms, err := tx.OutboxByGame(g.ID, turn)
		for _, m := range ms {
			if m.Kind == "ack" {
				stored++
				if m.Status == store.OutboxSent {
					sent++
				}
			}
		}
		return err
	})
	return stored, sent
}

// operatorMails counts the mails to the operator about what (unwritable, damaged).
func (r *faultRig) operatorMails(what string) int {
	r.sender.mu.Lock()
	defer r.sender.mu.Unlock()
	n := 0
	for id, k := range r.sender.sent {
		if strings.HasPrefix(id, "operator."+what+".") {
			n += k
		}
	}
	return n
}

// countLog counts the log lines holding s.
func (r *faultRig) countLog(s string) int {
	r.rec.mu.Lock()
	defer r.rec.mu.Unlock()
	n := 0
	for _, l := range r.rec.lines {
		if strings.Contains(l, s) {
			n++
		}
	}
	return n
}

// TestDiskFaultsWhileServing (issue 21 item 3): the disk under a running judge fills,
// is remounted read-only by the kernel, or fails with I/O errors (loopDisk; root
// only). Each time intake stops at once: the sheets that came meanwhile are not flagged
// done on the mail server (no \Seen, no keyword) and nothing of them is stored; the log
// says so once at error level and the operator is mailed once. A full disk is waited
// out by the running judge; a read-only or failed file system cannot be mended under it,
// so the judge stops with ErrUnwritable after limits.unwritable_exit and is started
// again once the file system is checked and mounted. After either, every sheet counts,
// in the order the mail server received them, every mail is flagged done, and every
// sheet's acknowledgement is stored and sent.
func TestDiskFaultsWhileServing(t *testing.T) {
	for _, tc := range []struct {
		name    string
		fault   func(r *faultRig)
		recover func(r *faultRig)
		restart bool // the judge stops (with one of stops) and is started again
		// what it may stop with: an ext4 shut down under SQLite fails some reads in a
		// way SQLite calls damaged pages (ErrCorrupt), others as I/O errors
		stops []error
	}{
		{name: "disk full",
			fault:   func(r *faultRig) { r.disk.fill() },
			recover: func(r *faultRig) { os.Remove(filepath.Join(r.disk.dir, "filler")) }},
		{name: "remounted read-only", restart: true, stops: []error{ErrUnwritable},
			fault:   func(r *faultRig) { r.disk.readOnly() },
			recover: func(r *faultRig) { r.disk.repair() }},
		{name: "I/O errors", restart: true, stops: []error{ErrUnwritable, ErrCorrupt},
			fault:   func(r *faultRig) { r.disk.ioErrors() },
			recover: func(r *faultRig) { r.disk.repair() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			exit := time.Hour
			if tc.restart {
				exit = 500 * time.Millisecond
			}
			r := newFaultRig(t, exit)
			r.serve()
			r.deliver(r.sheet("Alice", 4))
			waitFor(t, "the first sheet to be stored and acknowledged", time.Minute, func() bool {
				a, _ := r.versions(1)
				_, sent := r.acks(1)
				return len(a) == 1 && sent == 1
			})
			waitFor(t, "the first mail to be flagged done", time.Minute, func() bool { return slices.Equal(r.flagged(), []uint32{1}) })

			tc.fault(r)
			r.deliver(r.sheet("Alice", 5), r.sheet("Bob", 3), r.sheet("Alice", 6))
			stopLines := func() int {
				return r.countLog("THE DATABASE CANNOT BE WRITTEN: intake stopped") + r.countLog("THE DATABASE IS DAMAGED")
			}
			waitFor(t, "intake to stop", time.Minute, func() bool { return stopLines() > 0 })
			if tc.restart {
				r.stopped(tc.stops...)
			}
			if got := r.flagged(); !slices.Equal(got, []uint32{1}) {
				t.Errorf("flagged done on the server %v while the database could not be written, want only [1]", got)
			}
			if !tc.restart { // (a failed file system cannot be read either)
				if a, b := r.versions(1); len(a) != 1 || b != 0 {
					t.Errorf("%d of Alice's and %d of Bob's sheets stored on the broken disk, want 1 and 0", len(a), b)
				}
			}
			// once; on I/O errors intake and the clock may each find them at the same
			// moment, one as an I/O error and the other as damaged pages
			if n := stopLines(); n < 1 || n > max(1, len(tc.stops)) || !r.rec.has("level=ERROR") {
				t.Errorf("the stop logged %d times at error level, want once", n)
			}
			if n := r.operatorMails("unwritable") + r.operatorMails("damaged"); n != 1 {
				t.Errorf("the operator was mailed %d times, want once", n)
			}

			if tc.restart {
				r.st.Close()
			}
			tc.recover(r)
			if tc.restart {
				r.open()
				r.serve()
			}
			waitFor(t, "every sheet to be stored", time.Minute, func() bool { a, b := r.versions(1); return len(a) == 3 && b == 1 })
			if a, _ := r.versions(1); !slices.Equal(a, []string{"if damage > 4 then power down", "if damage > 5 then power down", "if damage > 6 then power down"}) {
				t.Errorf("Alice's sheets %q, want them in the order the server received them (4, 5, 6)", a)
			}
			waitFor(t, "every mail to be flagged done", time.Minute, func() bool { return len(r.flagged()) == 4 })
			waitFor(t, "every sheet's acknowledgement to be sent", time.Minute, func() bool { stored, sent := r.acks(1); return stored == 4 && sent == 4 })
			if n := r.operatorMails("unwritable") + r.operatorMails("damaged"); n != 1 {
				t.Errorf("the operator was mailed %d times, want once", n)
			}
			r.stop()
			if err := <-r.done; err != nil {
				t.Errorf("serve after the repair returned %v", err)
			}
		})
	}
}

// TestFailedSyncStopsIntake: intake's commits do not wait for the disk, the marks on the
// mail server and the replies do (store.TxSyncLater, gateMarks). When putting the
// database on disk fails, the judge stops with ErrUnwritable at once: the batch that
// was committed is neither flagged done nor answered, one error-level line and one
// mail to the operator say so, and started again on a sound disk the judge flags it and sends the reply, the sheet
// stored once.
func TestFailedSyncStopsIntake(t *testing.T) {
	var fail atomic.Bool
	fsyncs := 0
	var mu sync.Mutex
	r := newRig(t, time.Hour, nil, filepath.Join(t.TempDir(), "judge.db"), store.Options{SyncLog: func(string) error {
		mu.Lock()
		defer mu.Unlock()
		fsyncs++
		if fail.Load() {
			return errors.New("input/output error")
		}
		return nil
	}})
	r.serve()
	r.deliver(r.sheet("Alice", 4))
	waitFor(t, "the first sheet to be acknowledged", time.Minute, func() bool { _, sent := r.acks(1); return sent == 1 })
	waitFor(t, "the first mail to be flagged done", time.Minute, func() bool { return slices.Equal(r.flagged(), []uint32{1}) })
	mu.Lock()
	if fsyncs == 0 {
		t.Error("the first mail was flagged with no fsync of the log")
	}
	mu.Unlock()

	fail.Store(true)
	r.deliver(r.sheet("Alice", 5))
	r.stopped(ErrUnwritable)
	if a, _ := r.versions(1); len(a) != 2 {
		t.Errorf("%d of Alice's sheets stored, want 2 (the second committed, not yet on disk)", len(a))
	}
	if got := r.flagged(); !slices.Equal(got, []uint32{1}) {
		t.Errorf("flagged done %v after the log could not be put on disk, want only [1]", got)
	}
	// the sender, asked now, sends nothing: the reply answers a mail not known to be on disk
	if n, err := r.j.DrainOutbox(context.Background(), r.sender); err == nil || n != 0 {
		t.Errorf("the outbox drained after the failed sync: %d sent, %v; want none sent and the disk's error", n, err)
	}
	if _, sent := r.acks(1); sent != 1 {
		t.Errorf("%d acknowledgements sent, want 1: the second answers a mail not known to be on disk", sent)
	}
	if n := r.countLog("THE DATABASE COULD NOT BE PUT ON DISK"); n != 1 || !r.rec.has("level=ERROR") {
		t.Errorf("the stop logged %d times, want once at error level", n)
	}
	if n := r.operatorMails("unsynced"); n != 1 {
		t.Errorf("the operator was mailed %d times, want once", n)
	}

	fail.Store(false)
	r.st.Close()
	r.open()
	r.serve()
	waitFor(t, "both mails to be flagged done", time.Minute, func() bool { return len(r.flagged()) == 2 })
	waitFor(t, "both acknowledgements to be sent", time.Minute, func() bool { stored, sent := r.acks(1); return stored == 2 && sent == 2 })
	if a, _ := r.versions(1); !slices.Equal(a, []string{"if damage > 4 then power down", "if damage > 5 then power down"}) {
		t.Errorf("Alice's sheets %q, want each once (4, 5)", a)
	}
	r.stop()
	if err := <-r.done; err != nil {
		t.Errorf("serve after the restart returned %v", err)
	}
}

// TestDeadlineCheckStopsOnUnwritableDatabase (issue 21): the file system goes read-only
// under a running judge while no mail comes, and a deadline passes. The clock, which
// cannot write the turn, goes through the same integrity stop as intake: one error-level
// line saying what to do (not "deadline resolution failed" every tick, as before), the
// operator mailed once, intake stopped at once (a sheet arriving meanwhile is fetched
// and left unflagged), no turn resolved without it, and past limits.unwritable_exit the
// judge stops with ErrUnwritable (rallyjudge serve exits non-zero). Once the file
// system is checked and the judge started again, the sheet counts in the turn the
// deadline resolves, and both sheets' acknowledgements go out.
func TestDeadlineCheckStopsOnUnwritableDatabase(t *testing.T) {
	for _, tc := range []struct {
		name  string
		exit  time.Duration
		sheet bool // a sheet arrives while the clock holds the stop
	}{{"left read-only past the limit", 300 * time.Millisecond, false}, {"a sheet comes meanwhile", time.Hour, true}} {
		t.Run(tc.name, func(t *testing.T) {
			r := newFaultRig(t, tc.exit)
			r.serve()
			r.deliver(r.sheet("Alice", 4))
			waitFor(t, "the first sheet to be stored and acknowledged", time.Minute, func() bool {
				a, _ := r.versions(1)
				_, sent := r.acks(1)
				return len(a) == 1 && sent == 1
			})
			waitFor(t, "the first mail to be flagged done", time.Minute, func() bool { return slices.Equal(r.flagged(), []uint32{1}) })
			r.disk.readOnly()
			r.clock.Set(25 * time.Hour) // past the deadline (24 hours after the report)
			waitFor(t, "the clock to stop the judge", time.Minute, func() bool {
				return r.rec.has("THE DATABASE CANNOT BE WRITTEN: intake stopped") && r.rec.has("found_by=clock")
			})
			if tc.sheet {
				r.deliver(r.sheet("Bob", 3))
				r.fetcher.Poke()
				waitFor(t, "intake to leave the sheet unflagged", time.Minute, func() bool {
					return r.rec.has("mail fetched while the database cannot be written: held unflagged until it can")
				})
				r.stop()
				// (stopped with the database still unwritable, it says so)
				if err := <-r.done; err != nil && !errors.Is(err, ErrUnwritable) {
					t.Errorf("serve stopped by its caller returned %v", err)
				}
			} else {
				r.stopped(ErrUnwritable)
			}
			if got := r.flagged(); !slices.Equal(got, []uint32{1}) {
				t.Errorf("flagged done on the server %v while the database could not be written, want only [1]", got)
			}
			if n := r.countLog("THE DATABASE CANNOT BE WRITTEN: intake stopped"); n != 1 {
				t.Errorf("the stop logged %d times at error level, want once", n)
			}
			if n := r.countLog("deadline resolution failed") + r.countLog("deadline check failed"); n != 0 {
				t.Errorf("the deadline's failure logged %d times besides the stop, want none", n)
			}
			if n := r.operatorMails("unwritable"); n != 1 {
				t.Errorf("the operator was mailed %d times, want once", n)
			}
			if !tc.sheet {
				return
			}
			r.st.Close()
			r.disk.repair()
			r.open()
			r.serve()
			waitFor(t, "the deadline to resolve the turn", time.Minute, func() bool {
				var turn int
				_ = r.st.View(context.Background(), func(tx *store.Tx) error {
					g, err := tx.GameByTag("live")
					turn = g.CurrentTurn
					return err
				})
				return turn == 2
			})
			if a, b := r.versions(1); len(a) != 1 || b != 1 {
				t.Errorf("turn 1 resolved with %d of Alice's and %d of Bob's sheets, want 1 and 1", len(a), b)
			}
			waitFor(t, "both acknowledgements to be sent", time.Minute, func() bool { stored, sent := r.acks(1); return stored == 2 && sent == 2 })
			waitFor(t, "both mails to be flagged done", time.Minute, func() bool { return len(r.flagged()) == 2 })
			r.stop()
			if err := <-r.done; err != nil {
				t.Errorf("serve after the repair returned %v", err)
			}
		})
	}
}
