package mail

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/rallyjudge/rallyjudge/internal/faultnet"
)

// testStack is a mail server pair the fetcher scenarios run against: the embedded servers (always)
// or Dovecot + Postfix (RALLYJUDGE_MAILSTACK=1).
type testStack struct {
	imapAddr   string
	user, pass string
	mailbox    string // a mailbox no other test uses
	// deliver puts raw messages into mailbox
	deliver func(t *testing.T, raws ...[]byte)
	// rebuild deletes and re-creates mailbox holding keep: a new UIDVALIDITY
	rebuild func(t *testing.T, keep ...[]byte)
}

func (s *testStack) config() FetcherConfig {
	return FetcherConfig{Addr: s.imapAddr, TLS: "plain", Username: s.user, Password: s.pass, Mailbox: s.mailbox,
		IdleTimeout: time.Second, PollInterval: 200 * time.Millisecond,
		MinBackoff: 50 * time.Millisecond, MaxBackoff: 200 * time.Millisecond}
}

func (s *testStack) look(t *testing.T) *imapclient.Client {
	return imapLook(t, s.imapAddr, "plain", s.user, s.pass)
}

func mails(prefix string, n, from int) [][]byte {
	var out [][]byte
	for i := from; i < from+n; i++ {
		out = append(out, playerMail("alice@example.test", "orders@example.test", fmt.Sprintf("%s-%d@example.test", prefix, i), i))
	}
	return out
}

var doneKW = imap.Flag("$RallyjudgeDone")

// The scenarios every stack must pass.
var fetcherScenarios = []struct {
	name string
	run  func(t *testing.T, s *testStack)
}{
	{"flag", scenarioFlag},
	{"move", scenarioMove},
	{"handler error retried", scenarioHandlerError},
	{"uidvalidity change", scenarioUIDValidity},
	{"connection cut mid-fetch", scenarioCutMidFetch},
	{"connection lost before flagging", scenarioKillBeforeFlag},
	{"idle wakes on new mail", scenarioIdleWakes},
	{"server freezes on an open connection", scenarioServerFreezes},
	{"batches handled in turn, marked after", scenarioBatchesInTurn},
	{"a backlog's first batches small, then growing", scenarioBatchesGrow},
	{"prepare sees each batch before the handler", scenarioPrepare},
	{"marks wait for BeforeMark", scenarioBeforeMark},
	{"a failing BeforeMark leaves the batch unmarked", scenarioBeforeMarkFails},
}

// scenarioBeforeMark: with BeforeMark set (the judge puts its database on disk there),
// the handler takes the next batches while it runs, but nothing is marked on the server
// until it returns; then everything is.
func scenarioBeforeMark(t *testing.T, s *testStack) {
	const n = 9
	s.deliver(t, mails(t.Name(), n, 0)...)
	f := batchFetcher(t, s, 2)
	var calls atomic.Int32
	release := make(chan struct{})
	f.BeforeMark(func() error {
		calls.Add(1)
		<-release
		return nil
	})
	stop := handOver(t, f, n, nil, func([]Fetched) {}) // every batch handed over, none marked yet
	defer stop()
	look := s.look(t)
	defer look.Close()
	for deadline := time.Now().Add(time.Minute); calls.Load() == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			close(release)
			t.Fatal("BeforeMark was never called")
		}
	}
	if got := countUIDs(t, look, s.mailbox, &imap.SearchCriteria{Flag: []imap.Flag{imap.FlagSeen}}); got != 0 {
		close(release)
		t.Fatalf("%d messages marked while BeforeMark had not returned; want none", got)
	}
	close(release)
	waitUIDs(t, look, s.mailbox, &imap.SearchCriteria{Flag: []imap.Flag{imap.FlagSeen}}, n)
}

// scenarioBeforeMarkFails: when BeforeMark fails, the batch it was to mark stays unmarked
// (the session ends, as when the marks fail); the next session marks it, once
// BeforeMark succeeds, without offering it again: it was handled.
func scenarioBeforeMarkFails(t *testing.T, s *testStack) {
	const n = 4
	s.deliver(t, mails(t.Name(), n, 0)...)
	f := batchFetcher(t, s, 10)
	look := s.look(t)
	defer look.Close()
	var calls atomic.Int32
	var markedBefore atomic.Int32
	f.BeforeMark(func() error {
		if calls.Add(1) == 1 {
			return errors.New("the disk said no")
		}
		markedBefore.Store(int32(countUIDs(t, look, s.mailbox, &imap.SearchCriteria{Flag: []imap.Flag{imap.FlagSeen}})))
		return nil
	})
	var mu sync.Mutex
	offered := map[uint32]int{}
	stop := handOver(t, f, n, nil, func(msgs []Fetched) {
		mu.Lock()
		defer mu.Unlock()
		for _, m := range msgs {
			offered[m.UID]++
		}
	})
	defer stop()
	waitUIDs(t, look, s.mailbox, &imap.SearchCriteria{Flag: []imap.Flag{imap.FlagSeen}}, n)
	stop()
	if c := calls.Load(); c < 2 {
		t.Errorf("BeforeMark called %d times; want the failed call and one more", c)
	}
	if m := markedBefore.Load(); m != 0 {
		t.Errorf("%d messages were marked after BeforeMark failed, before it succeeded; want none", m)
	}
	mu.Lock()
	defer mu.Unlock()
	for uid, k := range offered {
		if k != 1 {
			t.Errorf("uid %d offered %d times; want once", uid, k)
		}
	}
}

// scenarioPrepare: RunPrepared gives prepare every batch before the handler takes it, and
// the handler finds in each message's Ahead what prepare left there; before the first
// batch, prepare is told with no messages that mail is coming.
func scenarioPrepare(t *testing.T, s *testStack) {
	const n = 40
	s.deliver(t, mails(t.Name(), n, 0)...)
	f := batchFetcher(t, s, 8)
	var mu sync.Mutex
	prepared := map[uint32]int{} // UID → the batch prepare saw it in
	batches := 0
	told := false // prepare was told of the check's mail before its first batch
	stop := handOver(t, f, n, func(_ uint32, msgs []Fetched) {
		mu.Lock()
		defer mu.Unlock()
		if len(msgs) == 0 {
			told = told || batches == 0
			return
		}
		batches++
		for i := range msgs {
			prepared[msgs[i].UID] = batches
			msgs[i].Ahead = batches
		}
	}, func(msgs []Fetched) {
		mu.Lock()
		defer mu.Unlock()
		for _, m := range msgs {
			if b, ok := prepared[m.UID]; !ok || m.Ahead != b {
				t.Errorf("uid %d reached the handler with Ahead %v; prepare saw it in batch %d (%v)", m.UID, m.Ahead, b, ok)
			}
		}
	})
	stop()
	mu.Lock()
	defer mu.Unlock()
	if !told {
		t.Error("prepare was not told of the check's mail before its first batch")
	}
}

// batchFetcher is a fetcher of s's mailbox in batches of at most count messages.
func batchFetcher(t *testing.T, s *testStack, count int) *Fetcher {
	t.Helper()
	cfg := s.config()
	cfg.BatchCount = count
	cfg.Logger = testLogger(t)
	f, err := NewFetcher(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// handOver runs f — with prepare, when not nil — giving take every batch and accepting
// every message, until n messages are handed over (at most 30 s), and returns what stops
// it (at the test's end at the latest).
func handOver(t *testing.T, f *Fetcher, n int, prepare Prepare, take func(msgs []Fetched)) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var got atomic.Int64
	all := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- f.RunPrepared(ctx, prepare, func(_ context.Context, _ uint32, msgs []Fetched) []error {
			take(msgs)
			if got.Add(int64(len(msgs))) == int64(n) {
				close(all)
			}
			return make([]error, len(msgs))
		})
	}()
	var once sync.Once
	stop = func() { once.Do(func() { cancel(); <-done }) }
	t.Cleanup(stop) // a test that fails before it stops the fetcher
	select {
	case <-all:
	case <-time.After(30 * time.Second):
		stop()
		t.Fatalf("%d of %d messages handed over", got.Load(), n)
	}
	return stop
}

// scenarioBatchesGrow: the first batch of a backlog is small so that the handler starts
// soon (firstBatch), each next one twice the one before up to BatchCount, and every
// message is handed over once, in UID order.
func scenarioBatchesGrow(t *testing.T, s *testStack) {
	const n = 150
	s.deliver(t, mails(t.Name(), n, 0)...)
	f := batchFetcher(t, s, 50)
	var sizes []int
	var last uint32
	stop := handOver(t, f, n, nil, func(msgs []Fetched) {
		sizes = append(sizes, len(msgs))
		for _, m := range msgs {
			if m.UID <= last {
				t.Errorf("uid %d handed over after uid %d", m.UID, last)
			}
			last = m.UID
		}
	})
	stop()
	if want := []int{32, 50, 50, 18}; !slices.Equal(sizes, want) {
		t.Errorf("batches of %v; want %v", sizes, want)
	}
}

// scenarioBatchesInTurn: the fetcher fetches the next batch while the handler takes one
// (issue 14, intake speed), but the handler still sees one batch at a time, in UID order,
// no message is marked on the server before its batch's handler has returned, and every
// one is marked once the check is done. (The marks of a batch are answered after the
// FETCH under way, so a batch may be handed over before the ones before it are marked.)
func scenarioBatchesInTurn(t *testing.T, s *testStack) {
	const n = 9
	s.deliver(t, mails(t.Name(), n, 0)...)
	f := batchFetcher(t, s, 2)
	look := s.look(t)
	defer look.Close()
	if _, err := look.Select(s.mailbox, &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
		t.Fatal(err)
	}
	marked := func() map[imap.UID]bool {
		if err := look.Noop().Wait(); err != nil { // Dovecot shows other sessions' flags after a sync
			t.Error(err)
			return nil
		}
		data, err := look.UIDSearch(&imap.SearchCriteria{Flag: []imap.Flag{imap.FlagSeen}}, nil).Wait()
		if err != nil {
			t.Error(err)
			return nil
		}
		m := map[imap.UID]bool{}
		for _, u := range data.AllUIDs() {
			m[u] = true
		}
		return m
	}
	var inside atomic.Int32
	var seen []uint32 // the UIDs handed over, in order
	stop := handOver(t, f, n, nil, func(msgs []Fetched) {
		if inside.Add(1) != 1 {
			t.Error("the handler was called while it was still taking a batch")
		}
		defer inside.Add(-1)
		m := marked()
		for _, msg := range msgs {
			if m[imap.UID(msg.UID)] {
				t.Errorf("uid %d was marked before its batch was handled", msg.UID)
			}
		}
		for _, msg := range msgs {
			if len(seen) > 0 && msg.UID <= seen[len(seen)-1] {
				t.Errorf("uid %d handed over after uid %d", msg.UID, seen[len(seen)-1])
			}
			seen = append(seen, msg.UID)
		}
	})
	waitUIDs(t, look, s.mailbox, &imap.SearchCriteria{Flag: []imap.Flag{imap.FlagSeen}}, n)
	stop()
}

// scenarioServerFreezes: the server stops answering on the open connection (a black hole
// between the judge and the server). The watchdog drops the connection after OpTimeout,
// logs, reconnects with backoff, and once the server is back the mail that arrived in the
// meantime is read. Without a watchdog the fetcher waits on the dead connection for ever.
func scenarioServerFreezes(t *testing.T, s *testStack) {
	p, err := faultnet.New(s.imapAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	rec := newRecorder()
	cfg := s.config()
	cfg.Addr = p.Addr
	cfg.OpTimeout = 500 * time.Millisecond
	cfg.IdleTimeout = 200 * time.Millisecond // a command goes out soon after the freeze
	logs := &lockedBuffer{}
	cfg.Logger = slog.New(slog.NewTextHandler(logs, nil))
	f, stop := startFetcher(t, cfg, rec.handle)
	defer stop()
	s.deliver(t, mails(t.Name(), 1, 0)...)
	rec.wait(t, 1, 10*time.Second)
	p.Freeze()
	s.deliver(t, mails(t.Name(), 1, 1)...)
	deadline := time.Now().Add(30 * time.Second)
	for f.Reconnects() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the fetcher never gave up on the frozen connection")
		}
		time.Sleep(20 * time.Millisecond)
	}
	p.Thaw()
	rec.wait(t, 2, 30*time.Second)
	if p.Accepted() < 2 {
		t.Errorf("%d connections, want a reconnect", p.Accepted())
	}
	// the stall and the reconnect are logged (issue 14 item 2: before, no log line at all)
	for _, want := range []string{"imap server did not answer in time", "reconnecting"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("no log line says %q:\n%s", want, logs.String())
		}
	}
}

// lockedBuffer is a bytes.Buffer that a logger and a test may use at once.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func scenarioIdleWakes(t *testing.T, s *testStack) {
	rec := newRecorder()
	cfg := s.config()
	cfg.IdleTimeout = time.Minute // only the server's EXISTS can wake it in time
	f, stop := startFetcher(t, cfg, rec.handle)
	defer stop()
	// its first check of the (empty) mailbox is done: what follows is IDLE, so only the
	// server's EXISTS can bring the next mail in (a sleep here let a loaded machine deliver
	// before that check, and the test then passed without IDLE doing anything)
	waitCaughtUp(t, f)
	start := time.Now()
	s.deliver(t, mails(t.Name(), 1, 0)...)
	rec.wait(t, 1, 30*time.Second) // still half the idle timeout: only EXISTS gets it here
	t.Logf("new mail handled %v after delivery", time.Since(start).Round(time.Millisecond))
}

func scenarioFlag(t *testing.T, s *testStack) {
	s.deliver(t, mails(t.Name(), 5, 0)...)
	rec := newRecorder()
	f, stop := startFetcher(t, s.config(), rec.handle)
	rec.wait(t, 5, 10*time.Second)
	s.deliver(t, mails(t.Name(), 2, 5)...) // while it idles
	rec.wait(t, 7, 10*time.Second)
	c := s.look(t)
	waitUIDs(t, c, s.mailbox, &imap.SearchCriteria{Flag: []imap.Flag{doneKW, imap.FlagSeen}}, 7)
	stop()
	for uid, n := range rec.calls {
		if n != 1 {
			t.Errorf("uid %d offered %d times", uid, n)
		}
	}
	pos := f.Position()
	if pos.UIDValidity == 0 || pos.UID == 0 {
		t.Errorf("position not tracked: %+v", pos)
	}
	// a restart from the stored position offers nothing again
	rec2 := newRecorder()
	cfg := s.config()
	cfg.Since = pos
	f2, stop2 := startFetcher(t, cfg, rec2.handle)
	// a whole check of the mailbox is done before the count is taken (a sleep here let a
	// loaded machine stop the fetcher before it had looked at anything)
	waitCaughtUp(t, f2)
	stop2()
	if len(rec2.calls) != 0 {
		t.Errorf("restart offered %d handled messages again", len(rec2.calls))
	}
}

func scenarioMove(t *testing.T, s *testStack) {
	s.deliver(t, mails(t.Name(), 4, 0)...)
	rec := newRecorder()
	cfg := s.config()
	cfg.After, cfg.MoveTo = "move", s.mailbox+"-done"
	_, stop := startFetcher(t, cfg, rec.handle)
	rec.wait(t, 4, 10*time.Second)
	c := s.look(t)
	waitUIDs(t, c, cfg.MoveTo, &imap.SearchCriteria{}, 4)
	stop()
	if n := countUIDs(t, c, s.mailbox, &imap.SearchCriteria{NotFlag: []imap.Flag{imap.FlagDeleted}}); n != 0 {
		t.Errorf("%d messages left in %s", n, s.mailbox)
	}
}

func scenarioHandlerError(t *testing.T, s *testStack) {
	s.deliver(t, mails(t.Name(), 3, 0)...)
	rec := newRecorder()
	var failed uint32
	rec.fail = func(uid uint32, call int) error {
		if failed == 0 {
			failed = uid
		}
		if uid == failed && call == 1 {
			return errors.New("store busy")
		}
		return nil
	}
	_, stop := startFetcher(t, s.config(), rec.handle)
	rec.wait(t, 3, 10*time.Second)
	c := s.look(t)
	waitUIDs(t, c, s.mailbox, &imap.SearchCriteria{Flag: []imap.Flag{doneKW}}, 3)
	stop()
	if rec.calls[failed] != 2 {
		t.Errorf("failed uid %d offered %d times, want 2", failed, rec.calls[failed])
	}
}

func scenarioUIDValidity(t *testing.T, s *testStack) {
	first := mails(t.Name(), 3, 0)
	s.deliver(t, first...)
	rec := newRecorder()
	f, stop := startFetcher(t, s.config(), rec.handle)
	rec.wait(t, 3, 10*time.Second)
	waitUIDs(t, s.look(t), s.mailbox, &imap.SearchCriteria{Flag: []imap.Flag{doneKW}}, 3)
	stop()
	pos := f.Position()

	// the mailbox is rebuilt: same messages (flags lost) plus a new one, new UIDVALIDITY
	s.rebuild(t, append(first, mails(t.Name(), 1, 3)...)...)
	cfg := s.config()
	cfg.Since = pos
	f2, stop2 := startFetcher(t, cfg, rec.handle)
	rec.wait(t, 4, 10*time.Second)
	c := s.look(t)
	waitUIDs(t, c, s.mailbox, &imap.SearchCriteria{Flag: []imap.Flag{doneKW}}, 4)
	stop2()
	pos2 := f2.Position()
	if pos2.UIDValidity == pos.UIDValidity {
		t.Fatalf("uidvalidity did not change (%d)", pos.UIDValidity)
	}
	if len(rec.valids) != 2 {
		t.Errorf("handler saw uidvalidities %v, want 2", rec.valids)
	}
	// everything not marked was offered again; the store's Message-ID dedup keeps one copy each
	for id, n := range rec.byID {
		if want := 2; id != fmt.Sprintf("%s-3@example.test", t.Name()) && n != want {
			t.Errorf("%s stored %d times, want %d (re-offered after the rebuild)", id, n, want)
		}
	}
}

func scenarioCutMidFetch(t *testing.T, s *testStack) {
	if raceEnabled {
		t.Skip("go-imap's client races with itself on a connection cut mid-literal; see race_test.go")
	}
	s.deliver(t, mails(t.Name(), 12, 0)...)
	// the first two connections die in the middle of a FETCH response (each mail is ~400 bytes)
	p := newProxy(t, s.imapAddr, 2, 2500)
	rec := newRecorder()
	cfg := s.config()
	cfg.Addr = p.Addr
	cfg.BatchCount = 3
	_, stop := startFetcher(t, cfg, rec.handle)
	rec.wait(t, 12, 20*time.Second)
	c := s.look(t)
	waitUIDs(t, c, s.mailbox, &imap.SearchCriteria{Flag: []imap.Flag{doneKW}}, 12)
	stop()
	if acc, cuts := p.stats(); acc < 3 || cuts < 2 {
		t.Errorf("proxy: %d connections, %d cuts; the test did not cut anything", acc, cuts)
	}
	for uid, n := range rec.calls {
		if n != 1 {
			t.Errorf("uid %d handled %d times", uid, n)
		}
	}
}

func scenarioKillBeforeFlag(t *testing.T, s *testStack) {
	s.deliver(t, mails(t.Name(), 6, 0)...)
	p := newProxy(t, s.imapAddr, 0, 0)
	rec := newRecorder()
	killed := false
	rec.after = func(uid uint32) {
		// the message is stored; the connection dies before the flag is set
		if !killed && len(rec.calls) == 2 {
			killed = true
			p.Kill()
		}
	}
	cfg := s.config()
	cfg.Addr = p.Addr
	_, stop := startFetcher(t, cfg, rec.handle)
	rec.wait(t, 6, 20*time.Second)
	// wait for the flags of the reconnection
	deadline := time.Now().Add(10 * time.Second)
	c := s.look(t)
	for countUIDs(t, c, s.mailbox, &imap.SearchCriteria{Flag: []imap.Flag{doneKW}}) != 6 {
		if time.Now().After(deadline) {
			t.Fatal("not all flagged after the reconnection")
		}
		time.Sleep(100 * time.Millisecond)
	}
	stop()
	if !killed {
		t.Fatal("the connection was never killed")
	}
	if acc, _ := p.stats(); acc < 2 {
		t.Errorf("no reconnection (%d connections)", acc)
	}
	for uid, n := range rec.calls {
		if n != 1 {
			t.Errorf("uid %d handled %d times", uid, n)
		}
	}
}

func embeddedStack(t *testing.T) (*Embedded, *testStack) {
	t.Helper()
	e, err := NewEmbedded(EmbeddedConfig{Users: map[string]string{"orders": "orderspw", "alice": "alicepw"}, Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	snd, err := NewSender(SenderConfig{Addr: e.SMTPAddr, TLS: "none"})
	if err != nil {
		t.Fatal(err)
	}
	s := &testStack{imapAddr: e.IMAPAddr, user: "orders@example.test", pass: "orderspw", mailbox: "INBOX"}
	s.deliver = func(t *testing.T, raws ...[]byte) {
		t.Helper()
		for _, raw := range raws {
			// through SMTP, so the embedded SMTP → IMAP path is part of every scenario
			if err := snd.Send(context.Background(), "alice@example.test", []string{"orders@example.test"}, raw); err != nil {
				t.Fatal(err)
			}
		}
	}
	s.rebuild = func(t *testing.T, keep ...[]byte) {
		if err := e.RebuildMailbox("orders", "INBOX", keep); err != nil {
			t.Fatal(err)
		}
	}
	return e, s
}

func TestFetcherEmbedded(t *testing.T) {
	for _, sc := range fetcherScenarios {
		t.Run(sc.name, func(t *testing.T) {
			_, s := embeddedStack(t)
			sc.run(t, s)
		})
	}
}

func TestFetcherConfigRejects(t *testing.T) {
	bad := []FetcherConfig{
		{Addr: "127.0.0.1:1", TLS: "ssl"},
		{Addr: "nohost", TLS: "plain"},
		{Addr: "127.0.0.1:1", TLS: "plain", After: "delete"},
		{Addr: "127.0.0.1:1", TLS: "plain", After: "move"},
	}
	for i, cfg := range bad {
		if _, err := NewFetcher(cfg); err == nil {
			t.Errorf("config %d accepted: %+v", i, cfg)
		}
	}
}

func TestFetcherBadLoginRetries(t *testing.T) {
	e, s := embeddedStack(t)
	_ = e
	cfg := s.config()
	cfg.Password = "wrong"
	f, err := NewFetcher(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 600*time.Millisecond)
	defer cancel()
	if err := f.Run(ctx, newRecorder().handle); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Run = %v, want the context's deadline (it keeps retrying)", err)
	}
}
