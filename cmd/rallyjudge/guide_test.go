package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	gomail "github.com/emersion/go-message/mail"

	"github.com/rallyjudge/rallyjudge/judge"
	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// TestGameMasterGuide runs docs/gamemasters.md's `rallyjudge init` and `rallyjudge game` lines word for word,
// in order: the create and start blocks and every line of the "on the server" column of
// its table, against a config at the guide's path (RALLYJUDGE_CONFIG points there, as
// the guide says the lines may be run). Players join by mail between create and start.
func TestGameMasterGuide(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "gamemasters.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(doc), "\\\n", " ")
	var lines []string
	for _, m := range regexp.MustCompile("(?m)^(rallyjudge (?:game|init) .*)$").FindAllStringSubmatch(text, -1) {
		lines = append(lines, m[1])
	}
	for _, row := range regexp.MustCompile("(?m)^\\|[^|]*\\| (`game .*?) \\|").FindAllStringSubmatch(text, -1) {
		for _, cell := range regexp.MustCompile("`(game [^`]*)`").FindAllStringSubmatch(row[1], -1) {
			lines = append(lines, "rallyjudge "+cell[1])
		}
	}
	if len(lines) < 12 {
		t.Fatalf("found %d rallyjudge game lines in the guide", len(lines))
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "rallyjudge.db")
	// The guide's own lines run in dir: `rallyjudge init` writes rallyjudge.yaml there
	// (naming the same database); the test's config, at the guide's system path, is apart.
	t.Chdir(dir)
	cfg := filepath.Join(dir, "judge.yaml")
	conf := fmt.Sprintf("database: %s\njudge_address: robo@example.org\njudge_name: Robo Judge\nimap:\n  address: 127.0.0.1:1\n"+
		"  username: robo\n  password_env: RJ_GUIDE_PW\nsmtp:\n  address: 127.0.0.1:1\n", db)
	if err := os.WriteFile(cfg, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("RALLYJUDGE_CONFIG", cfg)
	started := false
	for _, l := range lines {
		args, err := shellWords(strings.ReplaceAll(l, "/etc/rallyjudge/rallyjudge.yaml", cfg))
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		if args[1] == "game" && args[2] == "start" && !started {
			joinByMail(t, db, "spring", "Zoombot", "Hulk")
			standBy(t, db, "spring", "standby@example.org")
			started = true
		}
		var out, errb bytes.Buffer
		if code := run(args[1:], &out, &errb); code != 0 {
			t.Errorf("%s\nexit %d:\n%s%s", l, code, out.String(), errb.String())
		}
	}
	// The mails the command line made come From the config's judge_name.
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_ = st.View(context.Background(), func(tx *store.Tx) error {
		ms, err := tx.DuePending(time.Now().Add(1000*time.Hour), 1000)
		if err != nil || len(ms) == 0 {
			t.Errorf("no mail in the outbox: %v", err)
			return err
		}
		last := ms[len(ms)-1] // made by the guide's last line (the joins' mails are sent)
		if !bytes.Contains(last.Raw, []byte("Robo Judge")) {
			t.Errorf("a mail made on the command line is not From the config's judge_name:\n%s", last.Raw[:400])
		}
		return nil
	})
}

var joinCode = regexp.MustCompile(`(?m)^  CONFIRM (\S+)$`)

// joinByMail has one player join per robot, by mail, as the guide says players do.
func joinByMail(t *testing.T, db, tag string, robots ...string) {
	t.Helper()
	withJudge(t, db, func(j *judge.Judge) {
		for i, r := range robots {
			addr := strings.ToLower(r) + "@example.org"
			raw := guideMail(addr, "join", "JOIN "+tag+" "+r+"\n")
			if err := j.HandleMessage(context.Background(), 1, uint32(100+2*i), raw); err != nil {
				t.Fatal(err)
			}
			// The JOIN's reply carries the code (put in as it is sent: the stored mail
			// never holds it); the CONFIRM with it takes the seat.
			code := ""
			s := &captureSender{}
			if _, err := j.DrainOutbox(context.Background(), s); err != nil {
				t.Fatal(err)
			}
			for i, raw := range s.raws {
				if x, xerr := mail.Extract(raw); xerr == nil && strings.EqualFold(s.to[i], addr) {
					if c := joinCode.FindStringSubmatch(x.Text); c != nil {
						code = c[1]
					}
				}
			}
			if code == "" {
				t.Fatalf("no code for %s's JOIN", r)
			}
			raw = guideMail(addr, "Re: join", "CONFIRM "+code+"\n")
			if err := j.HandleMessage(context.Background(), 1, uint32(101+2*i), raw); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// captureSender keeps the mails handed to it, as an SMTP server that takes everything.
type captureSender struct {
	raws [][]byte
	to   []string
}

func (s *captureSender) Send(_ context.Context, _ string, to []string, raw []byte) error {
	s.raws, s.to = append(s.raws, raw), append(s.to, to[0])
	return nil
}

func standBy(t *testing.T, db, tag, addr string) {
	t.Helper()
	withJudge(t, db, func(j *judge.Judge) {
		if err := j.HandleMessage(context.Background(), 1, 200, guideMail(addr, "standby", "STANDBY "+tag+"\n")); err != nil {
			t.Fatal(err)
		}
	})
}

func withJudge(t *testing.T, db string, fn func(*judge.Judge)) {
	t.Helper()
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	j, err := judge.New(st, "robo@example.org", nil)
	if err != nil {
		t.Fatal(err)
	}
	fn(j)
}

func guideMail(from, subject, body string) []byte {
	var h gomail.Header
	h.SetDate(time.Now())
	h.SetAddressList("From", []*gomail.Address{{Address: from}})
	h.SetAddressList("To", []*gomail.Address{{Address: "robo@example.org"}})
	h.SetSubject(subject)
	h.SetMessageID(fmt.Sprintf("%d.%s@guide.test", time.Now().UnixNano(), strings.ReplaceAll(from, "@", ".")))
	h.SetContentType("text/plain", map[string]string{"charset": "utf-8"})
	var buf bytes.Buffer
	w, _ := gomail.CreateSingleInlineWriter(&buf, h)
	w.Write([]byte(body))
	w.Close()
	return buf.Bytes()
}

// shellWords splits a command line as a POSIX shell would for the quoting the guide
// uses: blanks, '...' and "...".
func shellWords(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	in, has := rune(0), false
	for _, r := range s {
		switch {
		case in != 0 && r == in:
			in = 0
		case in != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			in, has = r, true
		case r == ' ' || r == '\t':
			if cur.Len() > 0 || has {
				out = append(out, cur.String())
				cur.Reset()
				has = false
			}
		default:
			cur.WriteRune(r)
		}
	}
	if in != 0 {
		return nil, fmt.Errorf("unclosed quote in %q", s)
	}
	if cur.Len() > 0 || has {
		out = append(out, cur.String())
	}
	return out, nil
}
