package judge

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// downSender is an SMTP server that is down: every attempt fails for now (4xx). It keeps
// what it was handed, as a server that took the message and then failed would have.
type downSender struct {
	mu    sync.Mutex
	tried [][]byte
}

func (s *downSender) Send(_ context.Context, _ string, _ []string, raw []byte) error {
	s.mu.Lock()
	s.tried = append(s.tried, bytes.Clone(raw))
	s.mu.Unlock()
	return &mail.SendError{Temporary: true, Code: 421, Stage: "connect", Err: errors.New("service not available")}
}

var secretToken = regexp.MustCompile(`\b[a-hjkmnp-z2-9]{4}-[a-hjkmnp-z2-9]{4}-[a-hjkmnp-z2-9]{4}-[a-hjkmnp-z2-9]{4}\b`)

// secretsIn lists the judge-made secrets a mail carries, as its reader sees them (each
// once, though the text and the HTML part both give it).
func secretsIn(t *testing.T, raw []byte) []string {
	t.Helper()
	pieces, ok := mail.Decoded(raw, 1<<22)
	if !ok {
		t.Fatalf("a sent mail cannot be decoded:\n%s", raw)
	}
	var out []string
	seen := map[string]bool{}
	for _, p := range pieces {
		for _, s := range secretToken.FindAll(p, -1) {
			if !seen[string(s)] {
				seen[string(s)] = true
				out = append(out, string(s))
			}
		}
	}
	return out
}

// leaks says in which form b holds secret, or "": as is, cut by a quoted-printable soft
// line break anywhere, base64 at each of the three alignments (with the line breaks of a
// base64 body taken out; when anyBase64: a fragment of base64 anywhere, not only where
// the mail says a part is base64), or in a part of b read as a mail, decoded.
func leaks(b []byte, secret string, anyBase64 bool) string {
	if bytes.Contains(b, []byte(secret)) {
		return "plain"
	}
	var qp strings.Builder
	for i, r := range secret {
		if i > 0 {
			qp.WriteString(`(?:=\r?\n)?`)
		}
		qp.WriteString(regexp.QuoteMeta(string(r)))
	}
	if regexp.MustCompile(qp.String()).Match(b) {
		return "quoted-printable"
	}
	flat := bytes.ReplaceAll(bytes.ReplaceAll(b, []byte("\r"), nil), []byte("\n"), nil)
	for k := 0; anyBase64 && k < 3; k++ {
		enc := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("x", k) + secret))
		from, to := (k+2)/3*4, (k+len(secret))/3*4
		if to-from >= 12 && bytes.Contains(flat, []byte(enc[from:to])) { // a short value's base64 is found anywhere
			return fmt.Sprintf("base64 (alignment %d)", k)
		}
	}
	if pieces, ok := mail.Decoded(b, 1<<22); ok && len(pieces) > 1 {
		for _, p := range pieces {
			if bytes.Contains(p, []byte(secret)) {
				return "a decoded MIME part"
			}
		}
	}
	return ""
}

// scanDatabase fails the test if the database holds any of secrets anywhere: in any
// column of any row of any table (each value also read as a mail, decoded), or in the
// raw bytes of the database file and its WAL and journal.
func scanDatabase(t *testing.T, path string, secrets []string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var tables []string
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'table'`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, n)
	}
	rows.Close()
	if len(tables) < 10 {
		t.Fatalf("only %d tables found: %v", len(tables), tables)
	}
	values := 0
	for _, table := range tables {
		rows, err := db.Query(`SELECT * FROM "` + table + `"`)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for i, v := range vals {
				var b []byte
				switch v := v.(type) {
				case []byte:
					b = v
				case string:
					b = []byte(v)
				default:
					continue
				}
				values++
				for _, s := range secrets {
					if how := leaks(b, s, true); how != "" {
						t.Errorf("table %s, column %s holds a plain secret (%s)", table, cols[i], how)
					}
				}
			}
		}
		rows.Close()
	}
	files := 0
	for _, suffix := range []string{"", "-wal", "-journal", "-shm"} {
		b, err := os.ReadFile(path + suffix)
		if err != nil {
			continue
		}
		files++
		for _, s := range secrets {
			if how := leaks(b, s, true); how != "" {
				t.Errorf("the file %s holds a plain secret (%s)", path+suffix, how)
			}
		}
	}
	if values == 0 || files == 0 {
		t.Fatalf("nothing scanned: %d values, %d files", values, files)
	}
}

// secretMails makes every kind of mail that gives a secret or a code: the welcomes of a
// new game, a game master's secret, a JOIN's code and its CONFIRM's secret, NEWSECRET,
// an address change's code, a REPLACE's welcome.
func secretMails(f *fixture) (joined string) {
	t := f.t
	t.Helper()
	ctx := context.Background()
	gm := f.secrets[""]
	boss := f.addServerGM("boss@example.test")
	if err := f.j.AddGM(ctx, "spring", "gm2@example.test"); err != nil {
		t.Fatal(err)
	}
	f.send("boss@example.test", "new", "secret "+boss+"\nCREATE autumn course=sprint players=3\n")
	text := f.joinConfirmed("newbie@example.test", "[RR autumn] join", "JOIN autumn Robo\n")
	sec := secretInText.FindStringSubmatch(text)
	if sec == nil {
		t.Fatalf("the CONFIRM reply gives no secret:\n%s", text)
	}
	f.send("newbie2@example.test", "[RR autumn] join", "JOIN autumn Robo2\n") // a code never confirmed
	// a long mail (its body spans several database pages) with the secret in a base64
	// HTML part as well: its stored copy loses the secret, and no free page keeps it
	pad := strings.Repeat("I am writing a long letter to the judge, line after line.\r\n", 400)
	html := base64.StdEncoding.EncodeToString([]byte("<p>secret " + f.secrets["Hulk"] + "</p><p>STATUS</p><pre>" + pad + "</pre>"))
	long := "From: hulk@example.test\r\nTo: judge@example.test\r\nSubject: [RR spring] status\r\nMessage-ID: <long.1@client.test>\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=alt\r\n\r\n--alt\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" +
		"secret " + f.secrets["Hulk"] + "\r\nSTATUS\r\n\r\n" + pad + "\r\n--alt\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n" +
		html + "\r\n--alt--\r\n"
	f.deliver([]byte(long))
	if m, text := f.reply(f.uid); !strings.Contains(text, "Game spring") {
		t.Fatalf("the long STATUS mail: %s\n%s", m.Kind, text)
	}
	f.send("hulk@example.test", "[RR spring] new secret", "NEWSECRET spring Hulk\n")
	f.send("twonky@example.test", "[RR spring] move", "secret "+f.secrets["Twonky"]+"\nADDRESS twonky@elsewhere.test\n")
	if _, text := f.send("gm@example.test", "[RR spring] replace", "secret "+gm+"\nREPLACE Zoombot zed@example.test\n"); !strings.Contains(text, "mailed a new secret") {
		t.Fatalf("REPLACE: %s", text)
	}
	return sec[1]
}

// No plain secret at rest (issue 14 item 8): while SMTP is down for hours, every mail
// that gives a secret or a code waits in the outbox, and the database holds none of
// them — in no table, in no encoding, not in the file's bytes. When SMTP comes back the
// secrets delivered work.
func TestNoPlainSecretInTheDatabaseWhileSMTPIsDown(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	joined := secretMails(f)

	down := &downSender{}
	for range 3 { // attempts fail for hours; the clock ticks meanwhile
		if _, err := f.j.DrainOutbox(ctx, down); err != nil {
			t.Fatal(err)
		}
		if _, err := f.j.Tick(ctx); err != nil {
			t.Fatal(err)
		}
		f.now = f.now.Add(3 * time.Hour)
	}
	// the secrets: the ones this process made, and every one the mails handed to the
	// (failing) server gave
	secrets := map[string]bool{joined: true}
	for _, s := range f.secrets {
		secrets[s] = true
	}
	kinds := map[string]bool{}
	for _, raw := range down.tried {
		m, err := mail.Extract(raw)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range secretsIn(t, raw) {
			secrets[s] = true
			// replies without a secret share one subject: their first line tells them apart
			first, _, _ := strings.Cut(strings.TrimSpace(m.Text), "\n")
			kinds[m.Subject+"|"+first] = true
		}
	}
	var list []string
	for s := range secrets {
		list = append(list, s)
	}
	// the welcomes of Twonky and Hulk, NEWSECRET, the game masters, both JOINs' codes,
	// the CONFIRM's secret, the address change's code, the REPLACE's welcome
	if len(kinds) < 9 || len(list) < 10 {
		t.Fatalf("the mails handed to SMTP gave %d secrets in %d mails, want every kind: %v", len(list), len(kinds), kinds)
	}
	var pending int
	_ = f.j.Store.View(ctx, func(tx *store.Tx) error {
		ms, err := tx.DuePending(f.now.Add(1000*time.Hour), 1000)
		pending = len(ms)
		return err
	})
	if pending < len(kinds) {
		t.Fatalf("%d mails pending while SMTP is down, want at least %d", pending, len(kinds))
	}
	scanDatabase(t, f.path, list)

	// SMTP is back: what was delivered works.
	up := &fakeSender{}
	if _, err := f.j.DrainOutbox(ctx, up); err != nil {
		t.Fatal(err)
	}
	delivered := map[string]string{} // subject → secret
	for _, raw := range up.sent {
		m, _ := mail.Extract(raw)
		if s := secretsIn(t, raw); len(s) > 0 {
			delivered[m.Subject] = s[0]
		}
	}
	twonky := delivered["[RR spring] Welcome, Twonky: your robot and your first hand"]
	if twonky == "" {
		t.Fatalf("no welcome with a secret was delivered to Twonky: %v", delivered)
	}
	f.secrets["Twonky"] = twonky
	f.deliver(rawMail("twonky@example.test", "[RR spring] orders", f.sheet("Twonky", "")))
	if m, text := f.reply(f.uid); m.Kind != "ack" {
		t.Fatalf("a sheet signed with the delivered secret: %s\n%s", m.Kind, text)
	}
	hulk := delivered["[RR spring] A new secret for Hulk"]
	f.secrets["Hulk"] = hulk
	f.deliver(rawMail("hulk@example.test", "[RR spring] orders", f.sheet("Hulk", "")))
	if m, text := f.reply(f.uid); m.Kind != "ack" {
		t.Fatalf("a sheet signed with NEWSECRET's delivered secret: %s\n%s", m.Kind, text)
	}
	if _, text := f.send("newbie@example.test", "[RR autumn] status", "secret "+joined+"\nWITHDRAW\n"); !strings.Contains(text, "withdrew") {
		t.Errorf("the JOINed player's delivered secret does not work:\n%s", text)
	}
	// nor once sent, nor the secrets of the mails just received, once the clock ticked
	for _, s := range delivered {
		list = append(list, s)
	}
	if _, err := f.j.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	scanDatabase(t, f.path, list)
}

// A restart between enqueuing and sending (the held secret is lost with the process):
// the sender mints a fresh secret, stores its hash, and the delivered one works; the
// one the dead process made counts no more, and was never stored.
func TestSecretMintedAtSendAfterRestart(t *testing.T) {
	f := newFixture(t, "Twonky", "Hulk")
	ctx := context.Background()
	old := f.secrets["Twonky"]
	j2, err := New(f.j.Store, f.j.Address, nil) // the daemon after a restart
	if err != nil {
		t.Fatal(err)
	}
	j2.Now = f.j.Now
	f.j = j2
	up := &fakeSender{}
	if _, err := j2.DrainOutbox(ctx, up); err != nil {
		t.Fatal(err)
	}
	var got string
	for _, raw := range up.sent {
		if m, _ := mail.Extract(raw); strings.Contains(m.Subject, "Welcome, Twonky") {
			if s := secretsIn(t, raw); len(s) == 1 {
				got = s[0]
			}
		}
	}
	if got == "" || got == old {
		t.Fatalf("the welcome after a restart gives %q (the lost process's was %q)", got, old)
	}
	f.secrets["Twonky"] = old
	f.deliver(rawMail("twonky@example.test", "[RR spring] orders", f.sheet("Twonky", "")))
	if m, _ := f.reply(f.uid); m.Kind == "ack" {
		t.Errorf("the secret of the process that died still counts")
	}
	f.secrets["Twonky"] = got
	f.deliver(rawMail("twonky@example.test", "[RR spring] orders", f.sheet("Twonky", "")))
	if m, text := f.reply(f.uid); m.Kind != "ack" {
		t.Fatalf("the delivered secret: %s\n%s", m.Kind, text)
	}
}

// A kill after the SMTP server took a secret's mail and before it was recorded as sent:
// the retry goes out with the same Message-ID (clients fold the copies and may show
// either) and a fresh secret, and the secrets of both copies work.
func TestSecretRepeatAfterKillMidSendBothCopiesWork(t *testing.T) {
	f := newFixture(t, "Twonky")
	ctx := context.Background()
	up := &fakeSender{}
	f.j.crashAt = func(p string) bool { return p == "mid-send" }
	if _, err := f.j.DrainOutbox(ctx, up); err != nil { // dies after the first mail is taken
		t.Fatal(err)
	}
	if len(up.sent) != 1 {
		t.Fatalf("%d mails taken before the kill, want 1", len(up.sent))
	}
	j2, err := New(f.j.Store, f.j.Address, nil)
	if err != nil {
		t.Fatal(err)
	}
	j2.Now = f.j.Now
	f.j = j2
	if _, err := j2.DrainOutbox(ctx, up); err != nil {
		t.Fatal(err)
	}
	first, _ := mail.Extract(up.sent[0])
	var copies []string
	for _, raw := range up.sent {
		if m, _ := mail.Extract(raw); m.MessageID == first.MessageID {
			copies = append(copies, secretsIn(t, raw)...)
		}
	}
	if len(copies) != 2 || copies[0] == copies[1] {
		t.Fatalf("copies of %s give secrets %v; want two copies, a fresh secret in the second", first.MessageID, copies)
	}
	for i, s := range copies {
		f.secrets["Twonky"] = s
		f.deliver(rawMail("twonky@example.test", "[RR spring] orders", f.sheet("Twonky", "")))
		if m, text := f.reply(f.uid); m.Kind != "ack" {
			t.Errorf("the secret of copy %d does not work: %s\n%s", i+1, m.Kind, text)
		}
	}
}
