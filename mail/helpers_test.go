package mail

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

func testLogger(t *testing.T) *slog.Logger {
	if os.Getenv("RALLYJUDGE_MAIL_DEBUG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

// playerMail is a real-shaped order mail with a unique Message-ID.
func playerMail(from, to, id string, n int) []byte {
	return fmt.Appendf(nil, "From: %s\r\nTo: %s\r\nSubject: [RR test] orders %d\r\nMessage-ID: <%s>\r\n"+
		"Date: Mon, 09 Mar 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"+
		"robot: Twonky\r\nsecret: pw\r\nprogram: M1 M2 M3 R90 L90\r\nn: %d\r\n", from, to, n, id, n)
}

// recorder is a Handler that stores what it is given, as the real store would.
type recorder struct {
	mu     sync.Mutex
	calls  map[uint32]int    // uid → times offered (under the current uidvalidity)
	byID   map[string]int    // Message-ID → times stored
	valids map[uint32]bool   // uidvalidities seen
	raws   map[uint32][]byte // uid → raw
	fail   func(uid uint32, call int) error
	after  func(uid uint32) // runs after a successful store
	notify chan struct{}
}

func newRecorder() *recorder {
	return &recorder{calls: map[uint32]int{}, byID: map[string]int{}, valids: map[uint32]bool{},
		raws: map[uint32][]byte{}, notify: make(chan struct{}, 1)}
}

func (r *recorder) handle(_ context.Context, uidvalidity, uid uint32, raw []byte) error {
	r.mu.Lock()
	r.calls[uid]++
	call := r.calls[uid]
	fail := r.fail
	r.mu.Unlock()
	if fail != nil {
		if err := fail(uid, call); err != nil {
			return err
		}
	}
	m, err := Extract(raw)
	if err != nil {
		return err
	}
	r.mu.Lock()
	r.valids[uidvalidity] = true
	r.byID[m.MessageID]++
	r.raws[uid] = raw
	after := r.after
	r.mu.Unlock()
	if after != nil {
		after(uid)
	}
	select {
	case r.notify <- struct{}{}:
	default:
	}
	return nil
}

func (r *recorder) stored() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.byID)
}

// wait waits until n distinct Message-IDs were stored.
func (r *recorder) wait(t *testing.T, n int, timeout time.Duration) {
	t.Helper()
	deadline := time.After(timeout)
	for r.stored() < n {
		select {
		case <-r.notify:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			t.Fatalf("stored %d messages, want %d", r.stored(), n)
		}
	}
}

// waitCaughtUp waits until f has finished a check that offered everything in the mailbox
// (Fetcher.CaughtUp): an event, not a sleep, with a deadline only a hung fetcher reaches.
func waitCaughtUp(t *testing.T, f *Fetcher) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for f.CaughtUp().IsZero() {
		if time.Now().After(deadline) {
			t.Fatal("the fetcher never finished its first check of the mailbox")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// startFetcher runs a Fetcher until the returned stop function is called (or the test ends).
func startFetcher(t *testing.T, cfg FetcherConfig, h Handler) (*Fetcher, func()) {
	t.Helper()
	if cfg.Logger == nil {
		cfg.Logger = testLogger(t)
	}
	f, err := NewFetcher(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- f.Run(ctx, h) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != context.Canceled {
					t.Errorf("Run returned %v, want context.Canceled", err)
				}
			case <-time.After(10 * time.Second):
				t.Error("Run did not return after cancel")
			}
		})
	}
	t.Cleanup(stop)
	return f, stop
}

// imapLook opens a plain IMAP connection for checking server state.
func imapLook(t *testing.T, addr, tlsMode, user, pass string) *imapclient.Client {
	t.Helper()
	var c *imapclient.Client
	var err error
	opts := &imapclient.Options{}
	switch tlsMode {
	case "imaps", "starttls":
		t.Fatal("imapLook: plain only")
	default:
		c, err = imapclient.DialInsecure(addr, opts)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Login(user, pass).Wait(); err != nil {
		t.Fatal(err)
	}
	return c
}

// countUIDs selects mailbox and counts the messages matching crit.
func countUIDs(t *testing.T, c *imapclient.Client, mailbox string, crit *imap.SearchCriteria) int {
	t.Helper()
	if _, err := c.Select(mailbox, nil).Wait(); err != nil {
		t.Fatalf("select %s: %v", mailbox, err)
	}
	data, err := c.UIDSearch(crit, nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	return len(data.AllUIDs())
}

// proxy is a TCP proxy that can cut connections: the first cutFirst connections are cut after
// cutAfter bytes from the server; Kill cuts all open ones now.
type proxy struct {
	Addr     string
	ln       net.Listener
	target   string
	mu       sync.Mutex
	conns    []net.Conn
	cutAfter int64
	cutFirst int
	accepted int
	cuts     int
}

func newProxy(t *testing.T, target string, cutFirst int, cutAfter int64) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{Addr: ln.Addr().String(), ln: ln, target: target, cutFirst: cutFirst, cutAfter: cutAfter}
	t.Cleanup(func() { ln.Close(); p.Kill() })
	go p.serve()
	return p
}

func (p *proxy) serve() {
	for {
		cc, err := p.ln.Accept()
		if err != nil {
			return
		}
		sc, err := net.Dial("tcp", p.target)
		if err != nil {
			cc.Close()
			continue
		}
		p.mu.Lock()
		p.accepted++
		limit := int64(-1)
		if p.accepted <= p.cutFirst {
			limit = p.cutAfter
		}
		p.conns = append(p.conns, cc, sc)
		p.mu.Unlock()
		go func() { _, _ = io.Copy(sc, cc); sc.Close(); cc.Close() }()
		go func() {
			if limit >= 0 {
				_, _ = io.CopyN(cc, sc, limit)
				p.mu.Lock()
				p.cuts++
				p.mu.Unlock()
			} else {
				_, _ = io.Copy(cc, sc)
			}
			sc.Close()
			cc.Close()
		}()
	}
}

func (p *proxy) Kill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

func (p *proxy) stats() (accepted, cuts int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.accepted, p.cuts
}

// waitUIDs polls until mailbox holds want messages matching crit (marking follows the handler).
func waitUIDs(t *testing.T, c *imapclient.Client, mailbox string, crit *imap.SearchCriteria, want int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute) // bounds a hang; a loaded machine may need long
	for {
		n := countUIDs(t, c, mailbox, crit)
		if n == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d messages match %+v, want %d", mailbox, n, crit, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func imapSeq1() imap.SeqSet { return imap.SeqSetNum(1) }

func fetchBody() *imap.FetchOptions {
	return &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{{Peek: true}}}
}

func imapLoginErr(addr, user, pass string) error {
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		return err
	}
	defer c.Close()
	return c.Login(user, pass).Wait()
}
