package judge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	gomail "github.com/emersion/go-message/mail"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/orders"
	"github.com/rallyjudge/rallyjudge/store"
)

// fixture is a judge on a fresh database with a fixed clock, and one game.
type fixture struct {
	t       *testing.T
	j       *Judge
	now     time.Time
	secrets map[string]string
	uid     uint32
	path    string // the database file
	dsn     string // or the PostgreSQL database's (fixtureOn), with its password
}

func newFixture(t *testing.T, players ...string) *fixture {
	t.Helper()
	f := newJudgeFixture(t)
	spec := GameSpec{Tag: "spring", Settings: map[string]string{"course": "sprint"}, Seed: 42, GMEmail: "gm@example.test",
		Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}}
	f.createGame(spec, players...)
	return f
}

// newJudgeFixture is a judge on a fresh database, its clock at f.now, with no game.
func newJudgeFixture(t *testing.T) *fixture {
	t.Helper()
	path := filepath.Join(t.TempDir(), "j.db")
	st, err := store.OpenWith(path, store.Options{Sync: store.SyncNormal})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	j, err := New(st, "judge@example.test", nil)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, j: j, now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC), path: path}
	j.Now = func() time.Time { return f.now }
	j.NewSeed = func() int64 { return f.now.Unix() } // fixed, as the tests' games were made
	return f
}

// createGame creates the game spec with the robots given (Twonky, Zoombot and Hulk when
// none), each player at robot@example.test, and keeps their secrets.
func (f *fixture) createGame(spec GameSpec, players ...string) {
	f.t.Helper()
	if len(players) == 0 {
		players = []string{"Twonky", "Zoombot", "Hulk"}
	}
	for _, p := range players {
		spec.Players = append(spec.Players, PlayerSpec{Robot: p, Email: strings.ToLower(p) + "@example.test"})
	}
	var err error
	if f.secrets, err = f.j.CreateGame(context.Background(), spec); err != nil {
		f.t.Fatal(err)
	}
}

var mailSeq int

// rawMail is a player's mail as a client would send it.
func rawMail(from, subject, body string, extra ...string) []byte {
	var h gomail.Header
	h.SetDate(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	h.SetAddressList("From", []*gomail.Address{{Address: from}})
	h.SetAddressList("To", []*gomail.Address{{Address: "judge@example.test"}})
	h.SetSubject(subject)
	mailSeq++
	h.SetMessageID(fmt.Sprintf("%d.%s", mailSeq, strings.ReplaceAll(from, "@", ".")) + "@client.test")
	for i := 0; i+1 < len(extra); i += 2 {
		h.Set(extra[i], extra[i+1])
	}
	h.SetContentType("text/plain", map[string]string{"charset": "utf-8"})
	var buf bytes.Buffer
	w, _ := gomail.CreateSingleInlineWriter(&buf, h)
	io.WriteString(w, body)
	w.Close()
	return buf.Bytes()
}

func (f *fixture) state() (store.Game, *adjudicator.State) {
	f.t.Helper()
	var g store.Game
	var st *adjudicator.State
	err := f.j.Store.View(context.Background(), func(tx *store.Tx) error {
		var err error
		if g, err = tx.GameByTag("spring"); err != nil {
			return err
		}
		st, _, err = testStateOf(tx, g)
		return err
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return g, st
}

// sheet writes a valid sheet for robot from its hand: the first five cards.
func (f *fixture) sheet(robot string, extra string) string {
	_, st := f.state()
	r := st.Robots[st.Robot(robot)]
	var b strings.Builder
	fmt.Fprintf(&b, "robot %s\nturn %d\nsecret %s\n", robot, st.Turn, f.secrets[robot])
	for reg := 1; reg <= 5; reg++ {
		if r.IsLocked(reg) {
			b.WriteString("locked\n")
		}
	}
	for _, p := range r.Hand[:5-r.Locked()] {
		fmt.Fprintf(&b, "P%d\n", p)
	}
	b.WriteString(extra)
	return b.String()
}

func (f *fixture) deliver(raw []byte) {
	f.t.Helper()
	f.uid++
	if err := f.j.HandleMessage(context.Background(), 7, f.uid, raw); err != nil {
		f.t.Fatal(err)
	}
}

// outbox is the pending mail as the sender would send it now: the reports' pictures
// drawn, and a mail that gives a secret has it filled in (armSecrets), as it never is
// in the stored row.
func (f *fixture) outbox() []store.OutboxMail {
	f.t.Helper()
	if _, err := f.j.completePictures(context.Background()); err != nil { // reportpictures.go
		f.t.Fatal(err)
	}
	var ms []store.OutboxMail
	err := f.j.Store.View(context.Background(), func(tx *store.Tx) error {
		var err error
		ms, err = tx.DuePending(f.now.Add(1000*time.Hour), 10000)
		return err
	})
	if err != nil {
		f.t.Fatal(err)
	}
	for i, m := range ms {
		if ms[i].Raw, _, err = f.j.armSecrets(context.Background(), m); err != nil {
			f.t.Fatalf("outbox %d: %v", m.ID, err)
		}
	}
	return ms
}

func (f *fixture) mailsTo(addr, kind string) []store.OutboxMail {
	var out []store.OutboxMail
	for _, m := range f.outbox() {
		if m.To[0] == addr && (kind == "" || m.Kind == kind) {
			out = append(out, m)
		}
	}
	return out
}

func (f *fixture) inboxStatus(uid uint32) store.InboxMessage {
	var rows []store.InboxMessage
	_ = f.j.Store.View(context.Background(), func(tx *store.Tx) error {
		for _, s := range []store.InboxStatus{store.InboxNew, store.InboxProcessed, store.InboxRejected, store.InboxFailed} {
			r, err := tx.InboxByStatus(s, 1000)
			if err != nil {
				return err
			}
			rows = append(rows, r...)
		}
		return nil
	})
	for _, r := range rows {
		if r.UID == uid {
			return r
		}
	}
	f.t.Fatalf("no inbox row for uid %d", uid)
	return store.InboxMessage{}
}

func TestCreateGameWelcomesEachPlayerWithOwnSecret(t *testing.T) {
	f := newFixture(t)
	for _, p := range []string{"Twonky", "Zoombot", "Hulk"} {
		ms := f.mailsTo(strings.ToLower(p)+"@example.test", "welcome")
		if len(ms) != 1 {
			t.Fatalf("%s: %d welcome mails", p, len(ms))
		}
		m, err := mail.Extract(ms[0].Raw)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(m.Text, f.secrets[p]) {
			t.Errorf("%s's welcome lacks the secret", p)
		}
		for q, s := range f.secrets {
			if q != p && strings.Contains(m.Text, s) {
				t.Errorf("%s's welcome carries %q's secret", p, q)
			}
		}
	}
}

func TestTurnResolvesWhenAllOrdersAreIn(t *testing.T) {
	f := newFixture(t)
	for i, p := range []string{"Twonky", "Zoombot", "Hulk"} {
		f.deliver(rawMail(strings.ToLower(p)+"@example.test", "[RR spring] orders", f.sheet(p, "")))
		g, _ := f.state()
		want := 1
		if i == 2 {
			want = 2
		}
		if g.CurrentTurn != want {
			t.Fatalf("after %d sheets the game is at turn %d, want %d", i+1, g.CurrentTurn, want)
		}
		if acks := f.mailsTo(strings.ToLower(p)+"@example.test", "ack"); len(acks) != 1 {
			t.Fatalf("%s got %d acks", p, len(acks))
		}
	}
	// One report per player, each with only its own hand.
	_, st := f.state()
	for _, p := range []string{"Twonky", "Zoombot", "Hulk"} {
		reps := f.mailsTo(strings.ToLower(p)+"@example.test", "report")
		if len(reps) != 1 {
			t.Fatalf("%s got %d reports", p, len(reps))
		}
		m, _ := mail.Extract(reps[0].Raw)
		own := st.Robots[st.Robot(p)].Hand
		hand := handSection(m.Text)
		for _, c := range own {
			if !strings.Contains(hand, fmt.Sprintf("P%d ", c)) {
				t.Errorf("%s's report lacks its card P%d", p, c)
			}
		}
		for _, q := range st.Robots {
			if q.Name == p {
				continue
			}
			for _, c := range q.Hand {
				if strings.Contains(hand, fmt.Sprintf("P%d ", c)) {
					t.Errorf("%s's report shows %s's card P%d", p, q.Name, c)
				}
			}
		}
	}
}

func handSection(text string) string {
	i := strings.Index(text, "YOUR HAND")
	if i < 0 {
		return ""
	}
	rest := text[i:]
	if k := strings.Index(rest, "\n\n"); k >= 0 {
		rest = rest[:k]
	}
	return rest
}

func TestSameMailTwiceHasOneEffect(t *testing.T) {
	f := newFixture(t)
	raw := rawMail("twonky@example.test", "[RR spring] orders", f.sheet("Twonky", ""))
	f.deliver(raw)
	// The same message again: new UID (a copy), same Message-ID.
	f.deliver(raw)
	// And the same UID again (offered twice by the fetcher).
	if err := f.j.HandleMessage(context.Background(), 7, f.uid, raw); err != nil {
		t.Fatal(err)
	}
	var versions []store.OrderSheet
	_ = f.j.Store.View(context.Background(), func(tx *store.Tx) error {
		var err error
		versions, err = tx.OrderVersions(1, 1, "Twonky")
		return err
	})
	if len(versions) != 1 {
		t.Fatalf("%d order versions stored, want 1", len(versions))
	}
	if acks := f.mailsTo("twonky@example.test", "ack"); len(acks) != 1 {
		t.Fatalf("%d acks, want 1", len(acks))
	}
}

func TestSecurity(t *testing.T) {
	tests := []struct {
		name     string
		mail     func(f *fixture) []byte
		replyTo  string // who is told
		noReply  string // who must not be
		contains string
	}{
		{"wrong secret", func(f *fixture) []byte {
			return rawMail("twonky@example.test", "[RR spring] orders", strings.Replace(f.sheet("Twonky", ""), f.secrets["Twonky"], "guess-1234", 1))
		}, "twonky@example.test", "", "did not match"},
		{"spoofed From", func(f *fixture) []byte {
			return rawMail("mallory@evil.test", "[RR spring] orders", f.sheet("Twonky", ""))
		}, "twonky@example.test", "mallory@evil.test", "another address"},
		{"another game's robot", func(f *fixture) []byte {
			return rawMail("twonky@example.test", "[RR spring] orders", strings.Replace(f.sheet("Twonky", ""), "robot Twonky", "robot Ghost", 1))
		}, "twonky@example.test", "", `has no robot by that name`},
		{"oversized", func(f *fixture) []byte {
			return rawMail("twonky@example.test", "[RR spring] orders", f.sheet("Twonky", "")+strings.Repeat("padding line\n", 30000))
		}, "twonky@example.test", "", "larger than"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			_, before := f.state()
			f.deliver(tc.mail(f))
			if row := f.inboxStatus(f.uid); row.Status != store.InboxRejected {
				t.Fatalf("inbox status %s (%s), want rejected", row.Status, row.Note)
			}
			var versions []store.OrderSheet
			_ = f.j.Store.View(context.Background(), func(tx *store.Tx) error {
				var err error
				versions, err = tx.OrderVersions(1, 1, "Twonky")
				return err
			})
			if len(versions) != 0 {
				t.Fatalf("a rejected mail stored %d order versions", len(versions))
			}
			g, after := f.state()
			if g.CurrentTurn != 1 || fmt.Sprint(after.Robots) != fmt.Sprint(before.Robots) {
				t.Fatal("a rejected mail changed the game")
			}
			var told []store.OutboxMail
			for _, m := range f.outbox() {
				if m.Kind != "welcome" {
					told = append(told, m)
				}
			}
			if len(told) != 1 || told[0].To[0] != tc.replyTo {
				t.Fatalf("replies: %+v, want one to %s", told, tc.replyTo)
			}
			m, _ := mail.Extract(told[0].Raw)
			if !strings.Contains(m.Text, tc.contains) {
				t.Errorf("reply %q lacks %q", m.Text, tc.contains)
			}
			for _, s := range f.secrets {
				if strings.Contains(string(told[0].Raw), s) {
					t.Error("a reply carries a secret")
				}
			}
			if strings.Contains(m.Text, "P") && strings.Contains(tc.name, "secret") && strings.Contains(m.Text, "hand") {
				t.Error("a wrong-secret reply hints at the hand")
			}
		})
	}
}

func TestWrongSecretsAreRateLimited(t *testing.T) {
	f := newFixture(t)
	bad := strings.Replace(f.sheet("Twonky", ""), f.secrets["Twonky"], "nope-nope", 1)
	for i := 0; i < f.j.AuthFailures+2; i++ {
		f.deliver(rawMail("twonky@example.test", fmt.Sprintf("[RR spring] try %d", i), bad))
	}
	// a registered address is told once a day that a mail claiming to be from it was
	// refused, whoever sent them (issue 21 item 5)
	if replies := len(f.mailsTo("twonky@example.test", "claim")) + len(f.mailsTo("twonky@example.test", "reject")); replies != 1 {
		t.Fatalf("%d replies to %d bad secrets, want 1", replies, f.j.AuthFailures+2)
	}
	// Anyone can forge From: the right secret is still served while the address is
	// limited, so wrong secrets in a player's name cannot lock the player out.
	f.deliver(rawMail("twonky@example.test", "[RR spring] good", f.sheet("Twonky", "")))
	if row := f.inboxStatus(f.uid); row.Status != store.InboxProcessed {
		t.Fatalf("the right secret from a limited address: %s (%s)", row.Status, row.Note)
	}
	// A day later (the rate limit's window past too), the address is told again.
	f.now = f.now.Add(f.j.AuthWindow + 24*time.Hour + time.Minute)
	f.deliver(rawMail("twonky@example.test", "[RR spring] bad later", bad))
	if got := len(f.mailsTo("twonky@example.test", "claim")); got != 2 {
		t.Fatalf("a day later: %d notices, want 2", got)
	}
}

func TestAutomaticMailIsNeverAnswered(t *testing.T) {
	f := newFixture(t)
	n := len(f.outbox())
	f.deliver(rawMail("twonky@example.test", "Out of office", "I am away", "Auto-Submitted", "auto-replied"))
	f.deliver(rawMail("MAILER-DAEMON@example.test", "Undelivered Mail Returned to Sender", "bounce"))
	f.deliver(rawMail("list@example.test", "[RR spring] digest", "digest", "Precedence", "bulk"))
	f.deliver(rawMail("judge@example.test", "[RR spring] Turn 1 report", "loop", "X-Rallyjudge", Version))
	if got := len(f.outbox()); got != n {
		t.Fatalf("automatic mail was answered: %d new mails", got-n)
	}
}

func TestInvalidSheetGetsEveryErrorAndKeepsEarlierOrders(t *testing.T) {
	f := newFixture(t)
	f.deliver(rawMail("twonky@example.test", "[RR spring] orders", f.sheet("Twonky", "")))
	bad := fmt.Sprintf("robot Twonky\nturn 1\nsecret %s\nP5\nP5\nP10\n", f.secrets["Twonky"])
	f.deliver(rawMail("twonky@example.test", "[RR spring] orders v2", bad))
	rej := f.mailsTo("twonky@example.test", "reject")
	if len(rej) != 1 {
		t.Fatalf("%d rejections", len(rej))
	}
	m, _ := mail.Extract(rej[0].Raw)
	if strings.Count(m.Text, "line ") < 2 {
		t.Errorf("rejection should list several errors with lines:\n%s", m.Text)
	}
	if strings.Contains(m.Text, f.secrets["Twonky"]) {
		t.Error("the rejection echoes the secret")
	}
	var sheets map[string]store.OrderSheet
	_ = f.j.Store.View(context.Background(), func(tx *store.Tx) error {
		var err error
		sheets, err = tx.LatestValidOrders(1, 1)
		return err
	})
	if _, ok := sheets["Twonky"]; !ok {
		t.Fatal("the earlier valid sheet no longer counts")
	}
	if strings.Contains(sheets["Twonky"].Raw, f.secrets["Twonky"]) {
		t.Error("the stored sheet keeps the plain secret")
	}
}

func TestDeadlineResolvesWithMissedOrdersPolicy(t *testing.T) {
	f := newFixture(t)
	f.deliver(rawMail("twonky@example.test", "[RR spring] orders", f.sheet("Twonky", "")))
	if n, err := f.j.Tick(context.Background()); err != nil || n != 0 {
		t.Fatalf("tick before the deadline resolved %d (%v)", n, err)
	}
	f.now = f.now.Add(25 * time.Hour)
	if n, err := f.j.Tick(context.Background()); err != nil || n != 1 {
		t.Fatalf("tick after the deadline resolved %d (%v)", n, err)
	}
	g, st := f.state()
	if g.CurrentTurn != 2 {
		t.Fatalf("turn %d", g.CurrentTurn)
	}
	rep := f.mailsTo("zoombot@example.test", "report")
	m, _ := mail.Extract(rep[0].Raw)
	if !strings.Contains(m.Text, "Zoombot sent no orders") {
		t.Errorf("the report does not say Zoombot missed its orders:\n%s", m.Text)
	}
	_ = st
	var players []store.Player
	_ = f.j.Store.View(context.Background(), func(tx *store.Tx) error {
		var err error
		players, err = tx.Players(g.ID)
		return err
	})
	for _, p := range players {
		want := 1
		if p.Robot == "Twonky" {
			want = 0
		}
		if p.Missed != want {
			t.Errorf("%s missed %d, want %d", p.Robot, p.Missed, want)
		}
	}
}

// fakeSender fails as told, then accepts.
type fakeSender struct {
	mu    sync.Mutex
	fails []error
	sent  [][]byte
}

func (s *fakeSender) Send(_ context.Context, _ string, _ []string, raw []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.fails) > 0 {
		err := s.fails[0]
		s.fails = s.fails[1:]
		return err
	}
	s.sent = append(s.sent, raw)
	return nil
}

func TestOutboxRetriesTemporaryFailures(t *testing.T) {
	f := newFixture(t, "Twonky")
	s := &fakeSender{fails: []error{&mail.SendError{Temporary: true, Code: 451, Stage: "data", Err: errors.New("try later")}}}
	if _, err := f.j.DrainOutbox(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	if len(s.sent) != 0 {
		t.Fatalf("sent %d, want 0 before the retry is due", len(s.sent))
	}
	f.now = f.now.Add(2 * time.Minute)
	if _, err := f.j.DrainOutbox(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	if len(s.sent) != 1 {
		t.Fatalf("sent %d after the backoff, want 1", len(s.sent))
	}
}

func TestOutboxPermanentFailureTellsTheGM(t *testing.T) {
	f := newFixture(t, "Twonky")
	s := &fakeSender{fails: []error{&mail.SendError{Code: 550, Stage: "rcpt", Err: errors.New("no such user")}}}
	if _, err := f.j.DrainOutbox(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	var failed []store.OutboxMail
	_ = f.j.Store.View(context.Background(), func(tx *store.Tx) error {
		ms, err := tx.OutboxByGame(1, -1)
		for _, m := range ms {
			if m.Status == store.OutboxFailed {
				failed = append(failed, m)
			}
		}
		return err
	})
	if len(failed) != 1 {
		t.Fatalf("%d failed mails, want 1", len(failed))
	}
	if len(s.sent) != 1 {
		t.Fatalf("the GM notice was not sent: %d sent", len(s.sent))
	}
	m, _ := mail.Extract(s.sent[0])
	if m.To[0] != "gm@example.test" || !strings.Contains(m.Text, "could not deliver") {
		t.Fatalf("GM notice: to %v: %s", m.To, m.Text)
	}
}

// freshJudge is a judge at judge@example.test on a database of its own (synchronous
// NORMAL: a test needs no power-loss safety), closed when the test ends.
func freshJudge(t *testing.T) *Judge {
	t.Helper()
	st, err := store.OpenWith(filepath.Join(t.TempDir(), "judge.db"), store.Options{Sync: store.SyncNormal})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	j, err := New(st, "judge@example.test", testLog(t))
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func testLog(t *testing.T) *slog.Logger {
	if os.Getenv("RALLYJUDGE_DEBUG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

func mustJSON(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

// TestTurnRecordReplays: a resolved turn's state before and played orders reproduce its
// state after, byte for byte (what an archive replay relies on), also when the
// missed-orders policy applied.
func TestTurnRecordReplays(t *testing.T) {
	f := newFixture(t)
	f.deliver(rawMail("twonky@example.test", "[RR spring] orders", f.sheet("Twonky", "if damage > 0 then power down\n")))
	f.deliver(rawMail("zoombot@example.test", "[RR spring] orders", f.sheet("Zoombot", "")))
	f.now = f.now.Add(25 * time.Hour) // Hulk misses the deadline
	if n, err := f.j.Tick(context.Background()); err != nil || n != 1 {
		t.Fatalf("tick: %d %v", n, err)
	}
	setup := f.j.mustSetup(t, "spring")
	var tn store.Turn
	_ = f.j.Store.View(context.Background(), func(tx *store.Tx) error {
		var err error
		tn, err = tx.Turn(1, 1)
		return err
	})
	var before adjudicator.State
	var played []orders.Played
	mustJSON(t, testBeforeJSON(t, f.j, tn), &before)
	mustJSON(t, testPlayedJSON(tn), &played)
	if len(played) != 3 || played[2].Missed != "powerdown" || played[0].Sheet == nil || len(played[0].Sheet.Rules) != 1 {
		t.Fatalf("played orders recorded wrongly: %+v", played)
	}
	ords := make([]adjudicator.Orders, len(played))
	for i, p := range played {
		ords[i] = p.Orders()
	}
	next, _, err := adjudicator.Resolve(setup, &before, ords)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(next)
	if !bytes.Equal(got, testAfterJSON(tn)) {
		t.Fatalf("replay differs:\n got %s\nwant %s", got, testAfterJSON(tn))
	}
}

func TestTimeLeft(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		d    time.Duration
		want string
	}{
		{27*time.Hour + 30*time.Minute, " (in 1 day 3 hours)"},
		{2*time.Hour + 5*time.Minute, " (in 2 hours 5 minutes)"},
		{time.Minute, " (in 1 minute)"},
		{-time.Hour, " (passed: the turn resolves at the next check)"},
	}
	for _, tc := range tests {
		if got := timeLeft(now.Add(tc.d), now); got != tc.want {
			t.Errorf("timeLeft(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// TestRolledBackTurnReportsAreNewMails: a turn rolled back and resolved again mails
// reports with new Message-IDs, so mail clients do not hide them as duplicates.
func TestRolledBackTurnReportsAreNewMails(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	for _, p := range []string{"Twonky", "Zoombot", "Hulk"} {
		f.deliver(rawMail(strings.ToLower(p)+"@example.test", "[RR spring] orders", f.sheet(p, "")))
	}
	first := f.mailsTo("twonky@example.test", "report")
	if len(first) != 1 {
		t.Fatalf("%d reports", len(first))
	}
	if _, err := f.j.RunCommand(ctx, "spring", Command{Verb: "ROLLBACK"}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.j.RunCommand(ctx, "spring", Command{Verb: "PROCESS"}); err != nil {
		t.Fatal(err)
	}
	var ids []string
	_ = f.j.Store.View(ctx, func(tx *store.Tx) error {
		ms, err := tx.OutboxByGame(1, 1)
		for _, m := range ms {
			if m.Kind == "report" && m.To[0] == "twonky@example.test" {
				ids = append(ids, m.MessageID)
			}
		}
		return err
	})
	if len(ids) != 2 {
		t.Fatalf("reports of turn 1 to Twonky: %v, want the void one and a new one", ids)
	}
	if strings.TrimPrefix(ids[0], "void") == ids[1] || !strings.Contains(ids[1], ".g1.") {
		t.Fatalf("the report of the turn resolved again reuses an id: %v", ids)
	}
}

// TestPicturesOffByMail: a player who mails PICTURES OFF gets reports without the
// inline pictures; the others keep them.
func TestPicturesOffByMail(t *testing.T) {
	f := newFixture(t)
	f.deliver(rawMail("twonky@example.test", "[RR spring] no pictures", "secret "+f.secrets["Twonky"]+"\nSET PICTURES OFF\n"))
	if r := f.mailsTo("twonky@example.test", "command"); len(r) != 1 || !strings.Contains(string(r[0].Raw), "without pictures") {
		t.Fatalf("no confirmation: %d replies", len(r))
	}
	for _, p := range []string{"Twonky", "Zoombot", "Hulk"} {
		f.deliver(rawMail(strings.ToLower(p)+"@example.test", "[RR spring] orders", f.sheet(p, "")))
	}
	for _, c := range []struct {
		to   string
		pics bool
	}{{"twonky@example.test", false}, {"zoombot@example.test", true}} {
		reps := f.mailsTo(c.to, "report")
		if len(reps) != 1 {
			t.Fatalf("%s: %d reports", c.to, len(reps))
		}
		has := strings.Contains(string(reps[0].Raw), "image/png")
		if has != c.pics {
			t.Errorf("%s: pictures in the report = %v, want %v", c.to, has, c.pics)
		}
	}
}

// TestAutopilotMissedOrdersReplay: a robot with no orders under the autopilot policy
// plays the autopilot's program and standing orders, and the record replays.
func TestAutopilotMissedOrdersReplay(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if _, err := f.j.RunCommand(ctx, "spring", Command{Verb: "SET", Args: []string{"missed", "autopilot"}}); err != nil {
		t.Fatal(err)
	}
	f.deliver(rawMail("twonky@example.test", "[RR spring] orders", f.sheet("Twonky", "")))
	f.now = f.now.Add(25 * time.Hour)
	if n, err := f.j.Tick(ctx); err != nil || n != 1 {
		t.Fatalf("tick: %d %v", n, err)
	}
	var tn store.Turn
	_ = f.j.Store.View(ctx, func(tx *store.Tx) error {
		var err error
		tn, err = tx.Turn(1, 1)
		return err
	})
	var before adjudicator.State
	var played []orders.Played
	mustJSON(t, testBeforeJSON(t, f.j, tn), &before)
	mustJSON(t, testPlayedJSON(tn), &played)
	if played[1].Missed != "autopilot" || played[1].Sheet == nil || len(played[1].Sheet.Rules) == 0 {
		t.Fatalf("Zoombot's autopilot orders not recorded: %+v", played[1])
	}
	ords := make([]adjudicator.Orders, len(played))
	for i, p := range played {
		ords[i] = p.Orders()
	}
	next, _, err := adjudicator.Resolve(f.j.mustSetup(t, "spring"), &before, ords)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := json.Marshal(next); !bytes.Equal(got, testAfterJSON(tn)) {
		t.Fatal("the autopilot turn does not replay")
	}
}

// TestSyntaxAndValidationErrorsInOneReply: a sheet with a line the parser cannot read
// is still checked against the game, so the one reply names every mistake.
func TestSyntaxAndValidationErrorsInOneReply(t *testing.T) {
	f := newFixture(t)
	bad := fmt.Sprintf("robot Twonky\nturn 1\nsecret %s\nP999\nwibble wobble\n", f.secrets["Twonky"])
	f.deliver(rawMail("twonky@example.test", "[RR spring] orders", bad))
	rej := f.mailsTo("twonky@example.test", "reject")
	if len(rej) != 1 {
		t.Fatalf("%d rejections", len(rej))
	}
	m, _ := mail.Extract(rej[0].Raw)
	for _, want := range []string{"wibble", "P999 is not in your hand"} {
		if !strings.Contains(m.Text, want) {
			t.Errorf("the reply lacks %q:\n%s", want, m.Text)
		}
	}
}

// TestReportShowsStandingOrdersSentThisTurn: standing orders sent with this turn's
// sheet are in force in this turn's report (not only from the next).
func TestReportShowsStandingOrdersSentThisTurn(t *testing.T) {
	f := newFixture(t)
	f.deliver(rawMail("twonky@example.test", "[RR spring] orders", f.sheet("Twonky", "power down if damage > 4\n")))
	for _, p := range []string{"Zoombot", "Hulk"} {
		f.deliver(rawMail(strings.ToLower(p)+"@example.test", "[RR spring] orders", f.sheet(p, "")))
	}
	reps := f.mailsTo("twonky@example.test", "report")
	if len(reps) != 1 {
		t.Fatalf("%d reports", len(reps))
	}
	m, _ := mail.Extract(reps[0].Raw)
	i := strings.Index(m.Text, "STANDING ORDERS")
	if i < 0 || !strings.Contains(m.Text[i:], "damage > 4") {
		t.Fatalf("the report does not show the standing order sent this turn:\n%s", m.Text)
	}
}

// TestNoPlainSecretsKept: once processed and sent, neither the received sheets nor the
// mails that carried secrets keep them in the database.
func TestNoPlainSecretsKept(t *testing.T) {
	f := newFixture(t)
	f.deliver(rawMail("twonky@example.test", "[RR spring] orders", f.sheet("Twonky", "")))
	if _, err := f.j.DrainOutbox(context.Background(), &fakeSender{}); err != nil {
		t.Fatal(err)
	}
	var raws [][]byte
	_ = f.j.Store.View(context.Background(), func(tx *store.Tx) error {
		in, err := tx.InboxByStatus(store.InboxProcessed, 100)
		for _, m := range in {
			raws = append(raws, m.Raw)
		}
		out, _ := tx.OutboxByGame(1, -1)
		for _, m := range out {
			raws = append(raws, m.Raw)
		}
		return err
	})
	if len(raws) < 4 {
		t.Fatalf("only %d stored mails", len(raws))
	}
	for _, raw := range raws {
		for who, s := range f.secrets {
			if bytes.Contains(raw, []byte(s)) {
				t.Errorf("a stored mail still carries %q's secret", who)
			}
		}
	}
}

func TestRedactInboundBase64(t *testing.T) {
	raw := []byte("From: a@b\r\nContent-Transfer-Encoding: base64\r\n\r\nc2VjcmV0IGFiY2QtZWZnaC1qa21uLXBxcnM=\r\n")
	out, ok := redactInbound(raw, "secret abcd-efgh-jkmn-pqrs\n")
	if !ok || bytes.Contains(out, []byte("c2VjcmV0")) || !bytes.Contains(out, []byte("From: a@b")) {
		t.Fatalf("base64 body not dropped: %q", out)
	}
}

// TestFailedMessageIsTakenUpAgainAtRestart: a mail whose processing broke is kept as
// failed, and Recover (at every start) processes it once what broke is mended.
func TestFailedMessageIsTakenUpAgainAtRestart(t *testing.T) {
	f := newFixture(t)
	load := adjudicator.LoadCourse
	f.setCourses(func(string) (*adjudicator.Course, error) { return nil, errors.New("disk on fire") })
	f.deliver(rawMail("twonky@example.test", "[RR spring] orders", f.sheet("Twonky", "")))
	if row := f.inboxStatus(f.uid); row.Status != store.InboxFailed {
		t.Fatalf("status %s, want failed", row.Status)
	}
	f.setCourses(load)
	if err := f.j.Recover(context.Background()); err != nil {
		t.Fatal(err)
	}
	if row := f.inboxStatus(f.uid); row.Status != store.InboxProcessed {
		t.Fatalf("after Recover: %s (%s)", row.Status, row.Note)
	}
	if acks := f.mailsTo("twonky@example.test", "ack"); len(acks) != 1 {
		t.Fatalf("%d acks", len(acks))
	}
}

// TestTurnStuckAfterCrashIsResolvedByTheClock: the process dies after the last sheet
// commits and before the turn resolves (the acknowledgement already said "resolved
// now"). The next tick, long before the deadline, resolves it (issue 14, item 1).
func TestTurnStuckAfterCrashIsResolvedByTheClock(t *testing.T) {
	f := newFixture(t)
	f.j.crashAt = func(p string) bool { return p == "after-sheet-commit" }
	for _, p := range []string{"Twonky", "Zoombot", "Hulk"} {
		f.deliver(rawMail(strings.ToLower(p)+"@example.test", "[RR spring] orders", f.sheet(p, "")))
	}
	if g, _ := f.state(); g.CurrentTurn != 1 {
		t.Fatalf("the crash point did not stop the resolution: turn %d", g.CurrentTurn)
	}
	f.j.crashAt = nil
	n, err := f.j.Tick(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	g, _ := f.state()
	if n != 1 || g.CurrentTurn != 2 {
		t.Fatalf("tick resolved %d turns, game at turn %d; want 1 and turn 2", n, g.CurrentTurn)
	}
	if reps := f.mailsTo("hulk@example.test", "report"); len(reps) != 1 {
		t.Fatalf("hulk got %d reports, want 1", len(reps))
	}
	// A second tick finds nothing to do.
	if n, err := f.j.Tick(context.Background()); err != nil || n != 0 {
		t.Fatalf("second tick: %d, %v", n, err)
	}
}
