package judge

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// TestThroughput measures ingestion against a bare IMAP client in the same run: 1,000
// order mails are put in a mailbox, read by a bare client (one UID FETCH of every body),
// then ingested by rallyjudge as Serve ingests them (fetched; the integrity check; stored,
// authenticated, parsed, validated and answered, in batches of up to 500 mails per
// commit; flagged on the server after each commit is on disk). RALLYJUDGE_THROUGHPUT_MAILS sets the
// number of mails, RALLYJUDGE_THROUGHPUT_GAMES adds idle games for a database of a real
// judge's size (the integrity check reads all of it). It runs against go-imap's in-process server and, with the mail stack
// (RALLYJUDGE_MAILSTACK=1), against the real Dovecot, in a folder of its own so that
// it never meets other tests' mail in INBOX, settled before either reads it (see there). It needs RALLYJUDGE_THROUGHPUT=1; the
// figures, with the CPU time the process spent per mail, go to the test log (a speed
// target is not asserted in a timed test: the machine may be loaded). The issue 14
// target is intake at 3,000 mails/s or more.
func TestThroughput(t *testing.T) {
	if os.Getenv("RALLYJUDGE_THROUGHPUT") != "1" {
		t.Skip("set RALLYJUDGE_THROUGHPUT=1 to measure ingestion of 1,000 mails")
	}
	t.Run("in-process", func(t *testing.T) {
		e, err := mail.NewEmbedded(mail.EmbeddedConfig{Users: map[string]string{"orders": "orderspw"}})
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		measureIntake(t, e.IMAPAddr, "INBOX", func(mailbox string, raws [][]byte) {
			if mailbox != "INBOX" {
				c := imapLogin(t, e.IMAPAddr, "orders", "orderspw")
				err := c.Create(mailbox, nil).Wait()
				c.Close()
				if err != nil {
					t.Fatal(err)
				}
			}
			for _, raw := range raws {
				if err := e.Deliver("orders", mailbox, raw); err != nil {
					t.Fatal(err)
				}
			}
		})
	})
	t.Run("dovecot", func(t *testing.T) {
		imapAddr, _ := needMailstack(t)
		// a folder of this run's own: two runs at once (helpers sharing one mail stack)
		// must not delete each other's mail
		folder := fmt.Sprintf("rj-throughput-%d", os.Getpid())
		var made []string
		defer func() {
			c := imapLogin(t, imapAddr, "orders", "orderspw")
			for _, m := range made {
				_ = c.Delete(m).Wait()
			}
			c.Close()
		}()
		measureIntake(t, imapAddr, folder, func(folder string, raws [][]byte) {
			c := imapLogin(t, imapAddr, "orders", "orderspw")
			defer c.Close()
			_ = c.Delete(folder).Wait() // left by an earlier run, or absent
			if err := c.Create(folder, nil).Wait(); err != nil {
				t.Fatal(err)
			}
			made = append(made, folder)
			for _, raw := range raws {
				cmd := c.Append(folder, int64(len(raw)), &imap.AppendOptions{Time: time.Now()})
				if _, err := cmd.Write(raw); err != nil {
					t.Fatal(err)
				}
				if err := cmd.Close(); err != nil {
					t.Fatal(err)
				}
				if _, err := cmd.Wait(); err != nil {
					t.Fatal(err)
				}
			}
			// Settled as a judge's session watching the mailbox settles mail as it comes:
			// the first read-write SELECT of new mail makes Dovecot move each Maildir file
			// from new/ to cur/ (33 ms for 1,000 mails, against 5 for a read-only
			// EXAMINE). The bare client EXAMINEs and never pays that; unsettled, intake's
			// read-write SELECT paid it alone, a fifth of its time on a quiet machine.
			if _, err := c.Select(folder, nil).Wait(); err != nil {
				t.Fatal(err)
			}
		})
	})
}

// measureIntake delivers 1,000 sheets to the orders user's mailbox with deliver, then
// times a bare fetch and rallyjudge's intake of them, and checks every one was answered.
// It also times the fetcher alone (every mail accepted as it comes, and marked), on a copy
// of the mail in a mailbox of its own: what intake could reach if judging cost nothing.
func measureIntake(t *testing.T, imapAddr, mailbox string, deliver func(mailbox string, raws [][]byte)) {
	n := 1000
	if s := os.Getenv("RALLYJUDGE_THROUGHPUT_MAILS"); s != "" { // more, for a profile
		if _, err := fmt.Sscan(s, &n); err != nil || n < 1 {
			t.Fatalf("RALLYJUDGE_THROUGHPUT_MAILS=%q: want a number of mails", s)
		}
	}
	games := 1
	if s := os.Getenv("RALLYJUDGE_THROUGHPUT_GAMES"); s != "" { // a database of a real judge's size
		if _, err := fmt.Sscan(s, &games); err != nil || games < 1 {
			t.Fatalf("RALLYJUDGE_THROUGHPUT_GAMES=%q: want a number of games", s)
		}
	}
	defer ServeRuntime(os.Getenv)() // the collector as the daemon sets it
	path := filepath.Join(t.TempDir(), "tp.db")
	st, err := store.Open(path) // the production default: synchronous=FULL
	if err != nil {
		t.Fatal(err)
	}
	defer func() { st.Close() }()
	j, err := New(st, "orders@example.test", testLog(t))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	robots := []string{"Alice", "Bob", "Carol"}
	users := []string{"alice", "bob", "carol"}
	spec := GameSpec{Tag: "tp", Settings: map[string]string{"course": "sprint"}, Seed: 3, Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}}
	for i, r := range robots {
		spec.Players = append(spec.Players, PlayerSpec{Robot: r, Email: users[i] + "@example.test"})
	}
	secrets, err := j.CreateGame(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	if games > 1 {
		st.Close()
		cloneGame(t, path, games-1) // idle copies of the game, tagged tp-2, tp-3 …
		if st, err = store.Open(path); err != nil {
			t.Fatal(err)
		}
		if j, err = New(st, "orders@example.test", testLog(t)); err != nil {
			t.Fatal(err)
		}
	}
	raws := make([][]byte, n)
	for i := range raws {
		u := i % len(users)
		body := fmt.Sprintf("robot %s\nsecret %s\nif damage > 4 then power down\n", robots[u], secrets[robots[u]])
		raws[i] = rawMail(users[u]+"@example.test", fmt.Sprintf("[RR tp] standing orders %d", i), body)
	}
	t0 := time.Now()
	deliver(mailbox, raws)
	t.Logf("delivered %d mails to %s in %v", n, mailbox, time.Since(t0).Round(time.Millisecond))
	alone := mailbox + "-fetcher"
	deliver(alone, raws)

	// A bare IMAP client fetching every body.
	bareCPU0 := cpuTime()
	t1 := time.Now()
	c := imapLogin(t, imapAddr, "orders", "orderspw")
	if _, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
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
	bareCPU := cpuTime() - bareCPU0
	if len(msgs) != n {
		t.Fatalf("the bare fetch read %d messages, want %d", len(msgs), n)
	}
	fetcherAlone := fetchAlone(t, imapAddr, alone, n)

	// rallyjudge ingesting them.
	fetcher, err := mail.NewFetcher(mail.FetcherConfig{Addr: imapAddr, TLS: "plain", Username: "orders", Password: "orderspw",
		Mailbox: mailbox, After: "flag", IdleTimeout: 2 * time.Second, PollInterval: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	sctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	var handled, batches, checkWait atomic.Int64
	checks0 := j.checksRun.Load()
	allDone := make(chan struct{})
	busy0, all0 := machineBusy()
	dovecot0 := dovecotCPU()
	cpu0 := cpuTime()
	t2 := time.Now()
	// labelled, so that a profile of the test (-test.cpuprofile) can be narrowed to intake
	// with go tool pprof -tagfocus phase=intake
	// as Serve readies its fetcher: the batches' commits do not wait for the disk, the
	// marks do (store.TxSyncLater)
	loops := j.gateMarks(Loops{Mailbox: mailbox}, fetcher, func(err error) { t.Errorf("intake stopped: %v", err) })
	go pprof.Do(sctx, pprof.Labels("phase", "intake"), func(sctx context.Context) {
		// the daemon's path (Serve's intakeBatch): the integrity check, then each fetched
		// batch stored and judged in one commit with the mailbox position
		done <- fetcher.RunPrepared(sctx, j.prepareBatch, func(_ context.Context, v uint32, msgs []mail.Fetched) []error {
			batches.Add(1)
			w := time.Now()
			if err := j.intakePagesSound(sctx); err != nil { // as intakeBatch does, timed
				t.Errorf("integrity check: %v", err)
			}
			checkWait.Add(int64(time.Since(w)))
			errs := j.intakeBatch(sctx, loops, v, msgs, func(err error) { t.Errorf("intake stopped: %v", err) })
			for _, err := range errs {
				if err == nil && handled.Add(1) == int64(n) {
					close(allDone)
				}
			}
			return errs
		})
	})
	select {
	case <-allDone:
	case <-time.After(5 * time.Minute):
		t.Fatalf("rallyjudge handled %d of %d", handled.Load(), n)
	}
	ingest := time.Since(t2)
	cpu := cpuTime() - cpu0
	busy1, all1 := machineBusy()
	dovecot := dovecotCPU() - dovecot0
	// every mail is flagged on the server after its batch's commit: the last batch's
	// flags may still be on their way
	c = imapLogin(t, imapAddr, "orders", "orderspw")
	defer c.Close()
	if _, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(time.Minute); ; {
		unseen, err := c.UIDSearch(&imap.SearchCriteria{NotFlag: []imap.Flag{imap.FlagSeen}}, nil).Wait()
		if err != nil {
			t.Fatal(err)
		}
		if u := unseen.AllUIDs(); len(u) == 0 {
			break
		} else if time.Now().After(end) {
			t.Errorf("%d mails were handled but not flagged on the server", len(u))
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	stop()
	<-done
	load, _ := os.ReadFile("/proc/loadavg")
	t.Logf("bare IMAP fetch: %d messages in %v = %.0f mails/s; process CPU %.3f ms per mail",
		len(msgs), bare.Round(time.Millisecond), float64(len(msgs))/bare.Seconds(), float64(bareCPU.Microseconds())/1000/float64(n))
	t.Logf("the fetcher alone (no judging; marks sent): %d messages in %v = %.0f mails/s, %.0f%% of the bare rate",
		n, fetcherAlone.Round(time.Millisecond), float64(n)/fetcherAlone.Seconds(), 100*bare.Seconds()/fetcherAlone.Seconds())
	t.Logf("rallyjudge intake: %d messages in %v = %.0f mails/s; process CPU %.3f ms per mail (the IMAP server's too when in-process); load %s",
		n, ingest.Round(time.Millisecond), float64(n)/ingest.Seconds(), float64(cpu.Microseconds())/1000/float64(n), bytes.TrimSpace(load))
	if all1 > all0 { // how much of the machine was at work while intake ran: what is idle could still be used
		t.Logf("the machine's cores were busy %.0f%% of the time during intake (every process); Dovecot's imap processes used %.3f ms of CPU per mail",
			100*float64(busy1-busy0)/float64(all1-all0), float64(dovecot.Microseconds())/1000/float64(n))
	}
	// the integrity check intake runs before a batch (integritycheck.go), timed once on
	// the database as the intake left it
	t3 := time.Now()
	if err := st.PagesSound(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("integrity check: %d checks for %d batches (started a batch ahead, beside the writer); the writer waited %v for them (%.0f%% of intake); %v on the database intake left",
		j.checksRun.Load()-checks0, batches.Load(), time.Duration(checkWait.Load()).Round(100*time.Microsecond),
		100*float64(checkWait.Load())/float64(ingest), time.Since(t3).Round(100*time.Microsecond))
	// issue 24 item 7: intake at 40 % of the bare fetch rate or more, from the same
	// server in the same run
	t.Logf("intake / bare fetch: %.0f%% of the rate (goal %d%%); %.0f%% of the CPU time a mail",
		100*bare.Seconds()/ingest.Seconds(), intakeGoalPercent, 100*float64(bareCPU)/float64(cpu))

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

// fetchAlone times the fetcher handing over the n mails of mailbox to a handler that
// accepts each as it comes, until the last is handed over (as intake is timed: the
// marks of the last batches may still be on their way).
func fetchAlone(t *testing.T, imapAddr, mailbox string, n int) time.Duration {
	t.Helper()
	f, err := mail.NewFetcher(mail.FetcherConfig{Addr: imapAddr, TLS: "plain", Username: "orders", Password: "orderspw",
		Mailbox: mailbox, After: "flag", IdleTimeout: 2 * time.Second, PollInterval: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var got atomic.Int64
	all := make(chan struct{})
	done := make(chan error, 1)
	t0 := time.Now()
	go func() {
		done <- f.RunBatch(ctx, func(_ context.Context, _ uint32, msgs []mail.Fetched) []error {
			if got.Add(int64(len(msgs))) == int64(n) {
				close(all)
			}
			return make([]error, len(msgs))
		})
	}()
	select {
	case <-all:
	case <-time.After(5 * time.Minute):
		t.Fatalf("the fetcher alone handed over %d of %d", got.Load(), n)
	}
	took := time.Since(t0)
	stop()
	<-done
	return took
}

// intakeGoalPercent is issue 24 item 7's goal: intake at this share of the bare IMAP
// fetch rate or more. TestThroughput reports it beside the measured share; it does not
// assert it (a timed test on a loaded machine).
const intakeGoalPercent = 40

// machineBusy reads the machine's CPU time from /proc/stat (every core, every process), in
// clock ticks: busy and in all. Both are 0 where there is no /proc.
func machineBusy() (busy, all int64) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	f := bytes.Fields(line) // cpu user nice system idle iowait irq softirq steal …
	for i, v := range f[1:] {
		var n int64
		if _, err := fmt.Sscan(string(v), &n); err != nil {
			return 0, 0
		}
		all += n
		if i != 3 && i != 4 { // idle, iowait
			busy += n
		}
	}
	return busy, all
}

// dovecotCPU is the CPU time Dovecot's IMAP processes (named imap) have used, from
// /proc: the server's share of the machine while intake runs. 0 where there is no
// /proc or no Dovecot.
func dovecotCPU() time.Duration {
	var sum time.Duration
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if c := e.Name()[0]; c < '0' || c > '9' {
			continue
		}
		if comm, _ := os.ReadFile("/proc/" + e.Name() + "/comm"); string(bytes.TrimSpace(comm)) != "imap" {
			continue
		}
		tasks, _ := os.ReadDir("/proc/" + e.Name() + "/task")
		for _, tk := range tasks {
			b, err := os.ReadFile("/proc/" + e.Name() + "/task/" + tk.Name() + "/schedstat")
			var ns int64 // the first field: time on a CPU, in ns
			if err == nil {
				if _, err := fmt.Sscan(string(b), &ns); err == nil {
					sum += time.Duration(ns)
				}
			}
		}
	}
	return sum
}

// cpuTime is the CPU time (user and system) this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkHandleBatch is intake without the IMAP server: sheets handed to HandleBatch
// in batches of 100, as the fetcher hands them, each batch committed (synchronous=FULL).
// One op is one mail.
func BenchmarkHandleBatch(b *testing.B) {
	defer ServeRuntime(os.Getenv)() // the collector as the daemon sets it
	j := benchJudge(b)
	// a context that can be cancelled, as the daemon's is (Serve's): the driver and
	// database/sql watch such a context, which costs what a background one does not
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	robots := []string{"Alice", "Bob", "Carol"}
	users := []string{"alice", "bob", "carol"}
	spec := GameSpec{Tag: "tp", Settings: map[string]string{"course": "sprint"}, Seed: 3, Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}}
	for i, r := range robots {
		spec.Players = append(spec.Players, PlayerSpec{Robot: r, Email: users[i] + "@example.test"})
	}
	secrets, err := j.CreateGame(ctx, spec)
	if err != nil {
		b.Fatal(err)
	}
	msgs := make([]mail.Fetched, b.N)
	for i := range msgs {
		u := i % len(users)
		body := fmt.Sprintf("robot %s\nsecret %s\nif damage > 4 then power down\n", robots[u], secrets[robots[u]])
		msgs[i] = mail.Fetched{UID: uint32(i + 1), Received: time.Now(),
			Raw: rawMail(users[u]+"@example.test", fmt.Sprintf("[RR tp] standing orders %d", i), body)}
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i += 100 {
		for _, err := range j.HandleBatch(ctx, 1, msgs[i:min(i+100, b.N)]) {
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	// on a shared machine the CPU time per mail says more than the wall time
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/mail")
}
