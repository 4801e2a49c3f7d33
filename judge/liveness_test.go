package judge

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/internal/faultnet"
	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/roborally"
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
	j := freshJudge(t)
	clock := &fakeClock{t: time.Now().UTC()}
	j.Now = clock.Now
	spec := GameSpec{Tag: "live", Settings: map[string]string{"course": "sprint"}, Seed: 3, GMEmail: "gm@example.test",
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
	waitFor(t, "the sender to hang on the frozen server", time.Minute, func() bool { return hole.Accepted() > 0 })

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
	waitFor(t, "intake to acknowledge a sheet while SMTP hangs", time.Minute, func() bool { _, n := game(); return n > 0 })

	// the deadline: the turn resolves although the sender is still stuck
	clock.Add(25 * time.Hour)
	waitFor(t, "the deadline to resolve the turn while SMTP hangs", time.Minute, func() bool { g, _ := game(); return g.CurrentTurn == 2 })
}

// countingSender counts the mails handed to it by Message-ID; before the first it runs
// onFirst.
type countingSender struct {
	mu      sync.Mutex
	sent    map[string]int
	onFirst func()
}

func (s *countingSender) Send(_ context.Context, _ string, _ []string, raw []byte) error {
	m, err := mail.Extract(raw)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sent == nil {
		s.sent = map[string]int{}
		if s.onFirst != nil {
			s.onFirst()
		}
	}
	s.sent[m.MessageID]++
	return nil
}

func (s *countingSender) total() (n int, most int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.sent {
		n += c
		most = max(most, c)
	}
	return n, most
}

// TestUnwritableDatabaseStopsSending: the SMTP server takes a mail, then the database
// cannot be written (another process holds its write lock, as a full or read-only disk
// refuses writes). Before issue 14 the mail could not be marked sent and went out again at
// every tick (21 copies in 40 s on a full disk). Now sending stops and says so; when the
// database can be written again the mail in hand is recorded, not resent, and the rest go
// out once each.
func TestUnwritableDatabaseStopsSending(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ro.db")
	st, err := store.OpenWith(path, store.Options{Sync: store.SyncNormal, BusyTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	logs := &logRecorder{}
	j, err := New(st, "judge@example.test", logs.logger())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := j.CreateGame(ctx, GameSpec{Tag: "ro", Settings: map[string]string{"course": "sprint"}, Seed: 3,
		Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24},
		Players:  []PlayerSpec{{Robot: "Alice", Email: "alice@example.test"}, {Robot: "Bob", Email: "bob@example.test"}}}); err != nil {
		t.Fatal(err)
	}
	var due []store.OutboxMail
	_ = st.View(ctx, func(tx *store.Tx) error { due, err = tx.DuePending(j.now(), 100); return err })
	if len(due) < 2 {
		t.Fatalf("%d mails due, want the welcomes", len(due))
	}
	var release func()
	s := &countingSender{onFirst: func() { release = holdWriteLock(t, path) }}
	for i := 0; i < 5; i++ {
		if _, err := j.DrainOutbox(ctx, s); !errors.Is(err, ErrSendingStopped) {
			t.Fatalf("drain %d with the database locked: %v, want ErrSendingStopped", i, err)
		}
	}
	if n, _ := s.total(); n != 1 {
		t.Fatalf("%d mails handed to SMTP while the database could not be written, want the 1 before", n)
	}
	if !logs.has("THE DATABASE CANNOT BE WRITTEN") {
		t.Error("nothing in the log says the database cannot be written")
	}
	release()
	if _, err := j.DrainOutbox(ctx, s); err != nil {
		t.Fatal(err)
	}
	if n, most := s.total(); n != len(due) || most != 1 {
		t.Errorf("%d mails sent (%d times at most), want each of %d once", n, most, len(due))
	}
	_ = st.View(ctx, func(tx *store.Tx) error { due, err = tx.DuePending(j.now().Add(time.Hour), 100); return err })
	if len(due) != 0 {
		t.Errorf("%d mails still pending after the database came back", len(due))
	}
}

// holdWriteLock takes SQLite's write lock on path from another connection, as another
// process would, until the returned function is called.
func holdWriteLock(t *testing.T, path string) func() {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	return func() {
		_, _ = conn.ExecContext(context.Background(), "ROLLBACK")
		conn.Close()
		db.Close()
	}
}

// logRecorder keeps log lines for tests that check what the judge says.
type logRecorder struct {
	mu    sync.Mutex
	lines []string
}

func (r *logRecorder) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		r.mu.Lock()
		r.lines = append(r.lines, string(p))
		r.mu.Unlock()
		return len(p), nil
	}), nil))
}

func (r *logRecorder) has(s string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, l := range r.lines {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}

type writerFunc func(p []byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// TestUnparseableFromIsNotAnswered: a From header that is not one plain address (here one
// that smuggles ESMTP parameters) is nobody to answer; before issue 14 its raw text went
// to RCPT TO and Postfix honoured NOTIFY= and ORCPT=.
func TestUnparseableFromIsNotAnswered(t *testing.T) {
	j, _, _ := livenessGame(t, nil)
	ctx := context.Background()
	count := func() (n int) {
		_ = j.Store.View(ctx, func(tx *store.Tx) error {
			ms, err := tx.DuePending(j.now().Add(time.Hour), 1000)
			n = len(ms)
			return err
		})
		return n
	}
	before := count()
	for i, from := range []string{
		"victim@example.test NOTIFY=SUCCESS,FAILURE ORCPT=rfc822;spy@evil.test",
		"victim@example.test SIZE=99999999",
	} {
		raw := []byte("From: " + from + "\r\nTo: judge@example.test\r\nSubject: [RR live] help\r\nMessage-ID: <x" +
			string(rune('a'+i)) + "@evil.test>\r\n\r\nHELP\r\n")
		if err := j.HandleMessage(ctx, 1, uint32(100+i), raw); err != nil {
			t.Fatal(err)
		}
	}
	if after := count(); after != before {
		t.Errorf("%d mails enqueued for senders that are not addresses", after-before)
	}
}

// TestFloodPaysNoSlowHash: a flood of wrong secrets costs no bcrypt once its sender is
// rate-limited, and none at all for a secret that cannot be one of ours; new secrets are
// keyed hashes (microseconds), and an old bcrypt hash is replaced by a keyed one once its
// right secret is shown. Before issue 14 each of 2,000 wrong secrets cost a bcrypt (~74 ms)
// and a valid sheet behind them was read a minute late.
func TestFloodPaysNoSlowHash(t *testing.T) {
	j, _, secrets := livenessGame(t, nil)
	ctx := context.Background()
	legacy := func(robot string) {
		var p store.Player
		h, err := store.HashSecret(secrets[robot])
		if err != nil {
			t.Fatal(err)
		}
		if err := j.Store.Tx(ctx, func(tx *store.Tx) error {
			g, err := tx.GameByTag("live")
			if err != nil {
				return err
			}
			if p, err = tx.PlayerByRobot(g.ID, robot); err != nil {
				return err
			}
			if !store.IsKeyedHash(p.SecretHash) {
				t.Errorf("%s's new secret is stored as %.4s…, want a keyed hash", robot, p.SecretHash)
			}
			return tx.SetPlayerSecret(p.ID, h)
		}); err != nil {
			t.Fatal(err)
		}
	}
	legacy("Alice") // as stored before keyed hashes
	legacy("Bob")
	uid := uint32(1000)
	send := func(from, robot, secret string) {
		uid++
		body := "robot " + robot + "\nturn 1\nsecret " + secret + "\nif damage > 4 then power down\n"
		if err := j.HandleMessage(ctx, 1, uid, rawMail(from, "[RR live] orders", body)); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 40; i++ {
		send("bob@example.test", "Bob", "aaaa-bbbb-cccc-dd"+string(rune('a'+i%20))+string(rune('a'+i/20))) // shaped, wrong
	}
	for i := 0; i < 40; i++ {
		send("bob@example.test", "Bob", "not-a-secret") // cannot be right
	}
	if j.verified.slow > j.AuthFailures+1 {
		t.Errorf("%d bcrypt checks for 80 wrong secrets, want at most %d (until the sender is rate-limited)", j.verified.slow, j.AuthFailures+1)
	}
	before := j.verified.slow
	send("alice@example.test", "Alice", secrets["Alice"])
	if j.verified.slow != before+1 {
		t.Errorf("alice's right secret against her bcrypt hash: %d slow checks, want 1", j.verified.slow-before)
	}
	if _, err := j.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	var sheets map[string]store.OrderSheet
	_ = j.Store.View(ctx, func(tx *store.Tx) error {
		g, _ := tx.GameByTag("live")
		p, err := tx.PlayerByRobot(g.ID, "Alice")
		if err != nil {
			return err
		}
		if !store.IsKeyedHash(p.SecretHash) || !store.CheckKeyed(j.Store.SecretKey(), p.SecretHash, secrets["Alice"]) {
			t.Errorf("alice's bcrypt hash was not replaced by the keyed hash of her secret")
		}
		p, _ = tx.PlayerByRobot(g.ID, "Bob")
		if store.IsKeyedHash(p.SecretHash) {
			t.Errorf("bob's hash changed without his secret")
		}
		sheets, err = tx.LatestValidOrders(g.ID, 1)
		return err
	})
	if _, ok := sheets["Alice"]; !ok {
		t.Error("alice's sheet behind the flood was not accepted")
	}
	if _, ok := sheets["Bob"]; ok {
		t.Error("a wrong secret was accepted")
	}
}

// TestBatchIntake: the messages of one fetch are stored and judged in one commit each
// for the batch; each keeps the server's receive time, each sheet is acknowledged once
// (a copy with the same Message-ID in the same batch has one effect), and the turn
// whose programs are then all in is resolved.
func TestBatchIntake(t *testing.T) {
	j, _, secrets := livenessGame(t, nil)
	ctx := context.Background()
	g := func() (g store.Game) {
		_ = j.Store.View(ctx, func(tx *store.Tx) error { g, _ = tx.GameByTag("live"); return nil })
		return g
	}
	var st0 *adjudicator.State
	_ = j.Store.View(ctx, func(tx *store.Tx) error { var err error; st0, _, err = testStateOf(tx, g()); return err })
	setup := j.mustSetup(t, "live")
	var msgs []mail.Fetched
	recv := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for i, r := range []string{"Alice", "Bob"} {
		prog := roborally.RandomProgram(setup, st0, i, 5, 1)
		var cards []string
		for _, p := range prog {
			cards = append(cards, fmt.Sprintf("P%d", p))
		}
		body := fmt.Sprintf("robot %s\nturn 1\nsecret %s\n%s\n", r, secrets[r], strings.Join(cards, " "))
		raw := rawMail(strings.ToLower(r)+"@example.test", "[RR live] orders", body)
		msgs = append(msgs, mail.Fetched{UID: uint32(10 + i), Raw: raw, Received: recv.Add(time.Duration(i) * time.Minute)})
	}
	msgs = append(msgs, mail.Fetched{UID: 12, Raw: msgs[0].Raw, Received: recv}) // the same mail again
	for i, err := range j.HandleBatch(ctx, 1, msgs) {
		if err != nil {
			t.Errorf("message %d: %v", i, err)
		}
	}
	if got := g().CurrentTurn; got != 2 {
		t.Errorf("game at turn %d after both programs came in one batch, want 2", got)
	}
	_ = j.Store.View(ctx, func(tx *store.Tx) error {
		rows, err := tx.InboxByStatus(store.InboxProcessed, 10)
		if len(rows) != 2 {
			t.Errorf("%d inbox rows processed, want 2 (the copy folded)", len(rows))
		}
		for _, r := range rows {
			if r.Received.Before(recv) || r.Received.After(recv.Add(time.Minute)) {
				t.Errorf("inbox %d received %v, want the server's time", r.ID, r.Received)
			}
		}
		ms, _ := tx.OutboxByGame(g().ID, 1)
		acks := 0
		for _, m := range ms {
			if m.Kind == "ack" {
				acks++
			}
		}
		if acks != 2 {
			t.Errorf("%d acknowledgements, want 2", acks)
		}
		if vs, _ := tx.OrderVersions(g().ID, 1, "Alice"); len(vs) != 1 {
			t.Errorf("%d versions of Alice's orders, want 1", len(vs))
		}
		return err
	})
}

// outboxTo counts the mails in the outbox to addr (any status), with their texts.
func outboxTo(t *testing.T, j *Judge, addr string) (n int, subjects, texts []string) {
	t.Helper()
	_ = j.Store.View(context.Background(), func(tx *store.Tx) error {
		ms, err := tx.DuePending(j.now().Add(24*time.Hour), 10000)
		for _, m := range ms {
			if len(m.To) == 1 && m.To[0] == addr {
				n++
				subjects = append(subjects, m.Subject)
				ex, err := mail.Extract(m.Raw)
				if err != nil {
					t.Fatal(err)
				}
				texts = append(texts, ex.Text)
			}
		}
		return err
	})
	return n, subjects, texts
}

// TestReflection: the judge cannot be turned against third parties. Mail with a forged
// From gets replies that carry none of the attacker's text; replies per recipient and
// overall are bounded; a partner that answers every mail without RFC 3834 headers is
// not answered for ever; forged senders naming one robot make one notice. Before issue
// 14: 7,000 forged HELPs gave 7,000 replies, each echoing the attacker's subject, and an
// auto-responder looped 118 times in two minutes.
func TestReflection(t *testing.T) {
	uid := uint32(5000)
	send := func(t *testing.T, j *Judge, from, subject, body string) {
		uid++
		if err := j.HandleMessage(context.Background(), 1, uid, rawMail(from, subject, body)); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("no attacker text", func(t *testing.T) {
		j, _, _ := livenessGame(t, nil)
		send(t, j, "victim@elsewhere.test", "CHEAP PILLS http://evil.test", "game pills-now\nrobot Evilbot\nvisit http://evil.test/buy\n")
		send(t, j, "victim2@elsewhere.test", "[RR live] CHEAP PILLS", "robot Evilbot\nvisit http://evil.test/buy\nsecret aaaa-bbbb-cccc-dddd\n")
		send(t, j, "victim3@elsewhere.test", "HELP http://evil.test", "HELP http://evil.test/buy\nvisit http://evil.test/buy\n")
		for _, v := range []string{"victim@elsewhere.test", "victim2@elsewhere.test", "victim3@elsewhere.test"} {
			n, subjects, texts := outboxTo(t, j, v)
			if n != 1 {
				t.Errorf("%s: %d replies, want 1", v, n)
				continue
			}
			if subjects[0] != strangerSubject {
				t.Errorf("%s: subject %q, want %q", v, subjects[0], strangerSubject)
			}
			for _, bad := range []string{"evil", "PILLS", "pills", "Evilbot"} {
				if strings.Contains(texts[0], bad) {
					t.Errorf("%s: the reply echoes %q:\n%s", v, bad, texts[0])
				}
			}
		}
	})
	t.Run("per recipient and overall", func(t *testing.T) {
		j, _, _ := livenessGame(t, nil)
		j.Replies.PerDomain = 10
		for i := 0; i < 30; i++ {
			send(t, j, "victim@elsewhere.test", fmt.Sprintf("help %d", i), "HELP\n")
		}
		if n, _, _ := outboxTo(t, j, "victim@elsewhere.test"); n != j.Replies.PerStranger {
			t.Errorf("30 forged HELPs to one victim: %d replies, want %d", n, j.Replies.PerStranger)
		}
		total := 0
		for i := 0; i < 30; i++ {
			v := fmt.Sprintf("v%d@elsewhere.test", i)
			send(t, j, v, "help", "HELP\n")
			n, _, _ := outboxTo(t, j, v)
			total += n
		}
		if total > j.Replies.PerDomain {
			t.Errorf("30 forged HELPs from 30 addresses of one domain: %d replies, want at most %d", total, j.Replies.PerDomain)
		}
	})
	t.Run("loop partner without headers", func(t *testing.T) {
		j, _, _ := livenessGame(t, nil)
		// a registered player's auto-responder: no Auto-Submitted, no Precedence, the
		// same subject every time, answering each of the judge's replies
		before, _, _ := outboxTo(t, j, "alice@example.test") // her welcome
		for i := 0; i < 40; i++ {
			send(t, j, "alice@example.test", "Out of office", "I am away until Monday.\n")
		}
		if n, _, _ := outboxTo(t, j, "alice@example.test"); n-before > j.Replies.LoopSubjects {
			t.Errorf("40 mails from a loop partner: %d replies, want at most %d", n-before, j.Replies.LoopSubjects)
		}
	})
	t.Run("spoof notices per robot", func(t *testing.T) {
		j, _, _ := livenessGame(t, nil)
		before, _, _ := outboxTo(t, j, "alice@example.test")
		for i := 0; i < 20; i++ {
			send(t, j, fmt.Sprintf("forger%d@elsewhere.test", i), "[RR live] orders", "robot Alice\nsecret aaaa-bbbb-cccc-dddd\nif damage > 4 then power down\n")
		}
		if n, _, _ := outboxTo(t, j, "alice@example.test"); n-before != 1 {
			t.Errorf("20 forged senders naming Alice: %d notices to her, want 1", n-before)
		}
	})
}

// TestLimitReplyNamesTheLimit: a 3 KB mail nested 50 deep was refused as "larger than
// 256 KiB"; the reply now names the limit it hit.
func TestLimitReplyNamesTheLimit(t *testing.T) {
	j, _, _ := livenessGame(t, nil)
	var b strings.Builder
	b.WriteString("From: alice@example.test\r\nTo: judge@example.test\r\nSubject: [RR live] deep\r\nMessage-ID: <deep@client.test>\r\nMIME-Version: 1.0\r\n")
	const depth = 50
	for i := 0; i < depth; i++ {
		fmt.Fprintf(&b, "Content-Type: multipart/mixed; boundary=b%d\r\n\r\n--b%d\r\n", i, i)
	}
	b.WriteString("Content-Type: text/plain\r\n\r\nrobot Alice\r\n")
	for i := depth - 1; i >= 0; i-- {
		fmt.Fprintf(&b, "--b%d--\r\n", i)
	}
	raw := []byte(b.String())
	if len(raw) > 4<<10 {
		t.Fatalf("test mail is %d bytes, want about 3 KB", len(raw))
	}
	if err := j.HandleMessage(context.Background(), 1, 9000, raw); err != nil {
		t.Fatal(err)
	}
	_, _, texts := outboxTo(t, j, "alice@example.test")
	found := false
	for _, tx := range texts {
		if strings.Contains(tx, "deeper than rallyjudge reads") {
			found = true
		}
		if strings.Contains(tx, "larger than rallyjudge reads") {
			t.Errorf("a %d-byte mail refused as too large:\n%s", len(raw), tx)
		}
	}
	if !found {
		t.Errorf("no reply names the nesting limit: %q", texts)
	}
}

// TestNamesRefuseControlAndBidi: a game name with an escape sequence or a bidi override
// was echoed to players and to the operator's terminal; now it is refused, saying what.
func TestNamesRefuseControlAndBidi(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"Spring Open 2026", true},
		{"Frühjahrsrennen", true},
		{"", true},
		{"evil\x1b[2J", false},
		{"a\u202Egnirps", false},
		{"iso\u2066late", false},
		{"zero\u200Bwidth", false},
		{"tab\there", false},
		{"bad\xffutf8", false},
	} {
		err := checkName("name", tc.name)
		if (err == nil) != tc.ok {
			t.Errorf("checkName(%q) = %v, want ok %v", tc.name, err, tc.ok)
		}
		if err != nil && strings.Contains(err.Error(), tc.name) {
			t.Errorf("the refusal quotes the name: %v", err)
		}
	}
	j, _, _ := livenessGame(t, nil)
	_, err := j.CreateGame(context.Background(), GameSpec{Tag: "bidi", Name: "x\u202Ey", Settings: map[string]string{"course": "sprint"}, Seed: 1,
		Players: []PlayerSpec{{Robot: "Alice", Email: "alice@example.test"}}})
	if err == nil || !strings.Contains(err.Error(), "bidirectional") {
		t.Errorf("CreateGame with a bidi override in the name: %v", err)
	}
}

// TestPruning: identity failures, rejected mail, the bodies of mail taken and mail not
// about a game are pruned by the documented retention; a game's record is kept.
func TestPruning(t *testing.T) {
	j, clock, secrets := livenessGame(t, nil)
	ctx := context.Background()
	send := func(uid uint32, from, subject, body string) {
		if err := j.HandleMessage(ctx, 1, uid, rawMail(from, subject, body)); err != nil {
			t.Fatal(err)
		}
	}
	send(1, "stranger@elsewhere.test", "hello", "HELP\n")                                                       // a reply not about a game
	send(2, "nobody@elsewhere.test", "[RR nosuch] x", "robot X\n")                                              // rejected
	send(3, "bob@example.test", "[RR live] orders", "robot Bob\nsecret aaaa-bbbb-cccc-dddd\npower down\n")      // an identity failure
	send(4, "alice@example.test", "[RR live] orders", "robot Alice\nsecret "+secrets["Alice"]+"\npower down\n") // taken
	count := func() (fails, inbox, raws, outbox, gameMail int) {
		_ = j.Store.View(ctx, func(tx *store.Tx) error {
			fails, _ = tx.AuthFailures("bob@example.test", time.Time{})
			for _, s := range []store.InboxStatus{store.InboxProcessed, store.InboxRejected} {
				rows, _ := tx.InboxByStatus(s, 100)
				inbox += len(rows)
				for _, r := range rows {
					if len(r.Raw) > 0 {
						raws++
					}
				}
			}
			ms, _ := tx.DuePending(clock.Now().Add(time.Hour), 1000)
			for _, m := range ms {
				if m.GameID == 0 {
					outbox++
				} else {
					gameMail++
				}
			}
			return nil
		})
		return
	}
	// the pending mail would never be pruned; mark everything sent as a sender would
	drain := func() {
		if _, err := j.DrainOutbox(ctx, &countingSender{}); err != nil {
			t.Fatal(err)
		}
	}
	f0, i0, r0, _, _ := count()
	drain()
	if f0 == 0 || i0 < 3 || r0 < 3 {
		t.Fatalf("set-up: %d failures, %d inbox rows, %d raws", f0, i0, r0)
	}
	var sentOther, sentGame int
	counts := func() {
		sentOther, sentGame = 0, 0
		_ = j.Store.View(ctx, func(tx *store.Tx) error {
			g, _ := tx.GameByTag("live")
			ms, _ := tx.OutboxByGame(g.ID, -1)
			sentGame = len(ms)
			var n int
			n, _ = tx.RepliesSince([]string{"command", "reject"}, "", time.Time{})
			sentOther = n
			return nil
		})
	}
	counts()
	if sentOther == 0 || sentGame == 0 {
		t.Fatalf("set-up: %d replies, %d game mails", sentOther, sentGame)
	}
	clock.Add(31 * 24 * time.Hour)
	if _, err := j.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	f1, i1, r1, _, _ := count()
	if f1 != 0 {
		t.Errorf("%d identity failures left after 31 days", f1)
	}
	var rejected int
	_ = j.Store.View(ctx, func(tx *store.Tx) error {
		rows, err := tx.InboxByStatus(store.InboxRejected, 100)
		rejected = len(rows)
		return err
	})
	if rejected != 0 || i1 == 0 || r1 != 0 {
		t.Errorf("inbox after 31 days: %d rejected rows (want 0), %d rows taken (want them kept), %d with their bytes (want 0)", rejected, i1, r1)
	}
	before := sentGame
	counts()
	if sentOther != 0 {
		t.Errorf("%d replies not about a game left after 31 days", sentOther)
	}
	if sentGame < before {
		t.Errorf("game mail pruned: %d of %d left", sentGame, before)
	}
}

// TestDeadlineWaitsForIntake: a turn is resolved at its deadline only once intake has
// read every mail the server received before it, so a sheet that reached the mailbox in
// time counts whatever the backlog; after MaxIntakeWait it resolves anyway. Before issue
// 14 a backlog of 2,000 mails had a sheet delivered 30 s before the deadline read 59 s
// after it, and its player got a random program.
func TestDeadlineWaitsForIntake(t *testing.T) {
	j, clock, _ := livenessGame(t, nil)
	ctx := context.Background()
	var caughtUp time.Time
	j.IntakeCaughtUp = func() time.Time { return caughtUp }
	var deadline time.Time
	turn := func() int {
		var g store.Game
		_ = j.Store.View(ctx, func(tx *store.Tx) error { g, _ = tx.GameByTag("live"); return nil })
		deadline = g.DeadlineAt.Add(g.Grace)
		return g.CurrentTurn
	}
	turn()
	clock.Add(deadline.Sub(clock.Now()) + time.Minute) // a minute past the deadline
	caughtUp = deadline.Add(-30 * time.Second)         // intake still reading mail from before it
	if _, err := j.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if n := turn(); n != 1 {
		t.Fatalf("resolved at turn %d while mail received before the deadline was unread", n)
	}
	caughtUp = deadline.Add(time.Second) // intake has read everything up to past the deadline
	if _, err := j.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if n := turn(); n != 2 {
		t.Fatalf("game at turn %d once intake caught up, want 2", n)
	}
	// the next deadline, with intake stuck for good: resolved after MaxIntakeWait
	clock.Add(deadline.Sub(clock.Now()) + time.Minute)
	if _, err := j.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if n := turn(); n != 2 {
		t.Fatalf("resolved turn 2 with intake behind, before MaxIntakeWait")
	}
	clock.Add(j.MaxIntakeWait)
	if _, err := j.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if n := turn(); n != 3 {
		t.Fatalf("game at turn %d after MaxIntakeWait with intake stuck, want 3", n)
	}
}
