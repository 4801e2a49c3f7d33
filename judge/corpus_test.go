package judge

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// corpusMail is a corpus mail made to come from the fixture's Zoombot with its secret.
func (f *fixture) corpusMail(name string) []byte {
	f.t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "mail", "testdata", "clients", name+".eml"))
	if err != nil {
		f.t.Fatal(err)
	}
	return f.asZoombot(raw)
}

func (f *fixture) asZoombot(raw []byte) []byte {
	swapped := bytes.ReplaceAll(raw, []byte(corpusSecret), []byte(f.secrets["Zoombot"]))
	if m, err := mail.Extract(swapped); err == nil && secretRead(Read(m, testReader)) == corpusSecret {
		// the player's secret is encoded (base64, a quoted-printable soft break inside
		// it): Zoombot gets the corpus's secret instead
		f.setSecret("Zoombot", corpusSecret)
	} else {
		raw = swapped
	}
	for _, from := range []string{"zoe@example.test", "juergen@example.test"} {
		raw = bytes.ReplaceAll(raw, []byte(from), []byte("zoombot@example.test"))
	}
	return raw
}

// secretRead is the secret a mail gives, in its sheet or its commands.
func secretRead(r *Reading) string {
	if r.Sheet != nil && r.Sheet.Secret != "" {
		return r.Sheet.Secret
	}
	if r.cm != nil {
		return r.cm.secret
	}
	return ""
}

// setSecret gives robot the secret s.
func (f *fixture) setSecret(robot, s string) {
	f.t.Helper()
	h, err := f.j.Store.HashSecret(s)
	if err != nil {
		f.t.Fatal(err)
	}
	err = f.j.Store.Tx(context.Background(), func(tx *store.Tx) error {
		g, err := tx.GameByTag("spring")
		if err != nil {
			return err
		}
		p, err := tx.PlayerByRobot(g.ID, robot)
		if err != nil {
			return err
		}
		return tx.SetPlayerSecret(p.ID, h)
	})
	if err != nil {
		f.t.Fatal(err)
	}
	f.secrets[robot] = s
}

// sheetFate is what the judge did with the last mail from Zoombot: the program of the
// version it stored ("" when none), the replies it sent, and the identity failures it
// counted.
type sheetFate struct {
	program  string
	replies  []string
	failures int
	note     string
}

func (f *fixture) zoombotFate() sheetFate {
	f.t.Helper()
	var sf sheetFate
	err := f.j.Store.View(context.Background(), func(tx *store.Tx) error {
		vs, err := tx.OrderVersions(1, 1, "Zoombot")
		if err != nil {
			return err
		}
		if len(vs) > 0 && len(vs[len(vs)-1].Parsed) > 0 { // behind the seam an invalid version keeps no reading
			var s struct {
				Program []struct {
					P    int    `json:"p"`
					Kind string `json:"kind"`
				} `json:"program"`
			}
			if err := json.Unmarshal(testSheetJSON(vs[len(vs)-1].Parsed), &s); err != nil {
				return err
			}
			var ps []string
			for _, c := range s.Program {
				if c.P != 0 {
					ps = append(ps, fmt.Sprint(c.P))
				} else {
					ps = append(ps, c.Kind) // a 2023 card
				}
			}
			sf.program = strings.Join(ps, " ")
		}
		sf.failures, err = tx.AuthFailures("zoombot@example.test", f.now.Add(-1000*60*60*1e9))
		return err
	})
	if err != nil {
		f.t.Fatal(err)
	}
	for _, m := range f.mailsTo("zoombot@example.test", "") {
		if m.Kind == "welcome" {
			continue
		}
		x, _ := mail.Extract(m.Raw)
		sf.replies = append(sf.replies, x.Text)
	}
	sf.note = f.inboxStatus(f.uid).Note
	return sf
}

// TestClientCorpusThroughTheJudge delivers every sheet of the corpus to a running game:
// each is stored with the program the player wrote, none is an identity failure, and the
// secret is neither kept (in the stored mail, however it was encoded, or the stored
// sheet) nor echoed.
func TestClientCorpusThroughTheJudge(t *testing.T) {
	for name, want := range corpusFacts {
		if want.program == "" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			if want.rules == "2023" {
				f = newFixture2023(t, "")
			}
			f.deliver(f.corpusMail(name))
			got := f.zoombotFate()
			if got.program != want.program {
				t.Errorf("stored program %q, want %q (%s)", got.program, want.program, got.note)
			}
			if got.failures != 0 {
				t.Errorf("%d identity failures counted", got.failures)
			}
			if len(got.replies) != 1 || strings.Contains(got.replies[0], "did not match") {
				t.Errorf("replies %q, want one answer to the sheet", got.replies)
			}
			f.noSecretKept(f.uid, f.secrets["Zoombot"])
		})
	}
}

// TestThunderbirdFlowedTemplateLineIsNotACard: the report's own comment line, wrapped by
// format=flowed, was read as a comment and a card line ("P490 is not in your hand").
func TestThunderbirdFlowedTemplateLineIsNotACard(t *testing.T) {
	f := newFixture(t)
	f.deliver(f.corpusMail("thunderbird_flowed"))
	got := f.zoombotFate()
	if got.program != "10 670 840 530 730" {
		t.Fatalf("program %q, want the five cards written (%s)", got.program, got.note)
	}
	if strings.Contains(got.replies[0], `P490".`) || strings.Contains(got.replies[0], "line 7") {
		t.Errorf("the wrapped half of the comment was read:\n%s", got.replies[0])
	}
}

// TestOrdersMarkerAboveOutlookOriginalIsNotAnIdentityFailure: a mail starting with #orders
// above Outlook's unprefixed original was read from the quoted welcome, whose placeholder
// secret failed: an identity failure counted against the player.
func TestOrdersMarkerAboveOutlookOriginalIsNotAnIdentityFailure(t *testing.T) {
	for _, name := range []string{"outlook_desktop_plain", "outlook_desktop_html_only", "outlook_desktop_alternative", "outlook_web", "outlook_ios", "outlook365_german"} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			for i := 0; i < 6; i++ { // more than the rate limit allows failures
				raw := bytes.ReplaceAll(f.corpusMail(name), []byte("Message-ID: <"), []byte(fmt.Sprintf("Message-ID: <%d.", i)))
				f.deliver(raw)
			}
			got := f.zoombotFate()
			if got.failures != 0 || got.program != "490 670 10 840 530" {
				t.Fatalf("failures %d, program %q (%s)", got.failures, got.program, got.note)
			}
			if len(got.replies) != 6 {
				t.Errorf("%d replies to 6 sheets", len(got.replies))
			}
		})
	}
}

// TestGmailWrappedAttributionIsNotAnOrder: the first half of Gmail's wrapped attribution
// ("On Mon, ... Rallyjudge <") was read as an order of an unmarked sheet.
func TestGmailWrappedAttributionIsNotAnOrder(t *testing.T) {
	f := newFixture(t)
	f.deliver(f.corpusMail("gmail_web_unmarked"))
	got := f.zoombotFate()
	// lines 7 and 8 of the mail are the attribution: no error may name them
	if got.program != "490 670 10 840 530" || strings.Contains(got.replies[0], "Rallyjudge <") ||
		strings.Contains(got.replies[0], "line 7") || strings.Contains(got.replies[0], "line 8") {
		t.Fatalf("program %q, reply:\n%s", got.program, got.replies[0])
	}
}

// TestYAMLWithSignatureErrorIsNotHiddenBehindIdentity: a YAML sheet followed by a "-- "
// signature failed to parse, so its secret was not read and the player was told only
// that the secret did not match (and it counted). Now the signature is cut and the sheet
// read; a YAML error without a readable secret is answered with the error.
func TestYAMLWithSignatureErrorIsNotHiddenBehindIdentity(t *testing.T) {
	f := newFixture(t)
	f.deliver(f.corpusMail("yaml_signature"))
	if got := f.zoombotFate(); got.program != "490 670 10 840 530" || got.failures != 0 {
		t.Fatalf("program %q, failures %d (%s)", got.program, got.failures, got.note)
	}
	f2 := newFixture(t)
	bad := "---\ngame: spring\nrobot: Zoombot\nturn: 1\nsecret: [" + f2.secrets["Zoombot"] + "\nprogram: [P490\n-- \nJürgen\n"
	f2.deliver(rawMail("zoombot@example.test", "[RR spring] orders", bad))
	got := f2.zoombotFate()
	if got.failures != 0 {
		t.Errorf("a YAML error counted as an identity failure")
	}
	if len(got.replies) != 1 || !strings.Contains(got.replies[0], "line ") || strings.Contains(got.replies[0], "did not match") {
		t.Errorf("want the YAML error, got %q", got.replies)
	}
	if strings.Contains(got.replies[0], f2.secrets["Zoombot"]) {
		t.Errorf("the reply quotes the secret")
	}
}

// TestErrorLinesCountFromTheMailsFirstLine: errors named lines counted from the line after
// a leading ORDERS command, not as the player sees the mail; now they count from the mail's
// first line, quote the line, and come sorted by line.
func TestErrorLinesCountFromTheMailsFirstLine(t *testing.T) {
	f := newFixture(t)
	body := "secret " + f.secrets["Zoombot"] + "\nSTATUS\nORDERS\nrobot Zoombot\nP999\npower dwn\nP10\n"
	f.deliver(rawMail("zoombot@example.test", "[RR spring] orders", body))
	got := f.zoombotFate()
	var sheetReply string
	for _, r := range got.replies {
		if strings.Contains(r, "NOT accepted") {
			sheetReply = r
		}
	}
	i5, i6, i7 := strings.Index(sheetReply, "line 5"), strings.Index(sheetReply, "line 6"), strings.Index(sheetReply, "line 7")
	if i5 < 0 || i6 < 0 || !(i5 < i6) || (i7 >= 0 && i7 < i6) {
		t.Fatalf("want errors on lines 5 and 6 in order:\n%s", sheetReply)
	}
	if !strings.Contains(sheetReply, "| P999") || !strings.Contains(sheetReply, "| power dwn") {
		t.Errorf("the lines are not quoted:\n%s", sheetReply)
	}
}

// TestJoinSignOffIsNotUnknownCommands: "Grüße," and "Jürgen" under a JOIN each drew
// "Unknown command" and the whole help text (a 5.5 KB reply).
func TestJoinSignOffIsNotUnknownCommands(t *testing.T) {
	f := newFixture(t)
	_, _ = f.j.RunCommand(context.Background(), "", Command{Verb: "CREATE", Args: []string{"autumn", "course=sprint"}})
	raw, err := os.ReadFile(filepath.Join("..", "mail", "testdata", "clients", "join_signoff.eml"))
	if err != nil {
		t.Fatal(err)
	}
	f.deliver(bytes.ReplaceAll(raw, []byte("JOIN spring"), []byte("JOIN autumn")))
	m, text := f.reply(f.uid)
	// The sender is a stranger until the CONFIRM: the reply quotes the verb only.
	if !strings.Contains(text, "> JOIN") || !strings.Contains(text, "CONFIRM ") || strings.Contains(text, "Not done") {
		t.Fatalf("the JOIN was not answered as done:\n%s", text)
	}
	if strings.Count(text, "Unknown command") != 0 || strings.Count(text, "For game masters") != 0 {
		t.Errorf("the sign-off drew unknown commands or the help:\n%s", text)
	}
	if len(m.Raw) > 3000 {
		t.Errorf("reply of %d bytes", len(m.Raw))
	}
	// A reply to a mail without a secret quotes nothing (reflection.go), even once
	// Jürgen plays: anyone may have written his address on it (issue 21 item 5).
	f.send("juergen@example.test", "Re: join", "CONFIRM "+confirmCode.FindStringSubmatch(text)[1]+"\n")
	again := bytes.Replace(raw, []byte("Message-ID: <"), []byte("Message-ID: <again."), 1)
	f.deliver(bytes.ReplaceAll(again, []byte("JOIN spring"), []byte("JOIN autumn")))
	_, text = f.reply(f.uid)
	if !strings.Contains(text, "> JOIN") || strings.Contains(text, `Grüße`) || strings.Contains(text, `"Jürgen"`) || strings.Contains(text, "Unknown command") {
		t.Errorf("the reply to a mail without a secret quotes its lines:\n%s", text)
	}
}

// TestReadFailureIsNeverAnIdentityFailure: a sheet that could not be read (no secret line,
// a robot the game lacks, syntax errors) is answered with what is wrong and counts
// nothing; only a wrong secret and a foreign sender count.
func TestReadFailureIsNeverAnIdentityFailure(t *testing.T) {
	tests := []struct {
		name     string
		from     string
		body     func(f *fixture) string
		counts   bool
		contains string
	}{
		{"no secret", "zoombot@example.test", func(f *fixture) string { return "robot Zoombot\nP490\n" }, false, "no secret line"},
		// without the secret the errors, which quote the mail, are not listed (anyone may
		// have written the player's address on it: issue 21 item 5)
		{"no secret, syntax errors", "zoombot@example.test", func(f *fixture) string { return "robot Zoombot\nP490 frobnicate\n" }, false, "only in answer to a mail that holds your secret"},
		{"unknown robot", "zoombot@example.test", func(f *fixture) string { return "robot Zoombt\nsecret x\nP490\n" }, false, "no robot by that name"},
		{"command without secret", "zoombot@example.test", func(f *fixture) string { return "game spring\nSTATUS\n" }, false, "secret"},
		{"wrong secret", "zoombot@example.test", func(f *fixture) string { return "robot Zoombot\nsecret nope-nope\nP490\n" }, true, "did not match"},
		{"wrong secret in a command", "zoombot@example.test", func(f *fixture) string { return "game spring\nsecret nope\nSTATUS\n" }, true, "did not match"},
		{"foreign sender", "mallory@evil.test", func(f *fixture) string { return "robot Zoombot\nsecret nope-nope\nP490\n" }, true, ""},
		{"sender plays no robot", "mallory@evil.test", func(f *fixture) string { return "secret nope-nope\nP490\n" }, true, "did not match"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.deliver(rawMail(tt.from, "[RR spring] orders", tt.body(f)))
			var n int
			_ = f.j.Store.View(context.Background(), func(tx *store.Tx) error {
				var err error
				n, err = tx.AuthFailures(tt.from, f.now.Add(-1e15))
				return err
			})
			if (n > 0) != tt.counts {
				t.Errorf("identity failures %d, want counted %v (%s)", n, tt.counts, f.inboxStatus(f.uid).Note)
			}
			if tt.contains != "" {
				_, text := f.reply(f.uid)
				if !strings.Contains(text, tt.contains) {
					t.Errorf("reply lacks %q:\n%s", tt.contains, text)
				}
			}
		})
	}
}

// TestEveryMailsFateIsLogged: what became of a mail was only in a database column; now
// every mail gets one info line with its inbox id, sender, game, robot and outcome, and
// no secret.
func TestEveryMailsFateIsLogged(t *testing.T) {
	f := newFixture(t)
	var buf bytes.Buffer
	f.j.Log = slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}))
	bounce, err := os.ReadFile(filepath.Join("..", "mail", "testdata", "auto", "bounce.eml"))
	if err != nil {
		t.Fatal(err)
	}
	mails := []struct {
		raw  []byte
		want string
	}{
		{rawMail("twonky@example.test", "[RR spring] orders", f.sheet("Twonky", "")), `outcome=accepted`},
		{rawMail("hulk@example.test", "[RR spring] orders", "robot Hulk\nsecret "+f.secrets["Hulk"]+"\nP1 P2 frobnicate\n"), `outcome=invalid errors=`},
		{bounce, `outcome=automatic`},
		{rawMail("zoombot@example.test", "[RR spring] orders", "robot Zoombot\nsecret wrong-wrong\nP490\n"), `outcome="identity failure"`},
		{rawMail("zoombot@example.test", "[RR spring] status", "secret "+f.secrets["Zoombot"]+"\nSTATUS\n"), `outcome=command`},
	}
	for i, m := range mails {
		buf.Reset()
		f.deliver(m.raw)
		var line string
		for _, l := range strings.Split(buf.String(), "\n") {
			if strings.Contains(l, "msg=mail ") {
				if line != "" {
					t.Errorf("mail %d: two fate lines:\n%s", i, buf.String())
				}
				line = l
			}
		}
		if !strings.Contains(line, "level=INFO") || !strings.Contains(line, m.want) || !strings.Contains(line, fmt.Sprintf("inbox=%d", i+1)) ||
			!strings.Contains(line, "from=") {
			t.Errorf("mail %d: fate line %q, want %s", i, line, m.want)
		}
		if robot := []string{"Twonky", "Hulk", "", "Zoombot", "Zoombot"}[i]; robot != "" && !strings.Contains(line, "robot="+robot) {
			t.Errorf("mail %d: no robot in %q", i, line)
		}
		if i != 2 && !strings.Contains(line, "game=spring") {
			t.Errorf("mail %d: no game in %q", i, line)
		}
		for _, s := range f.secrets {
			if strings.Contains(buf.String(), s) {
				t.Errorf("mail %d: the log carries a secret", i)
			}
		}
	}
	// the first mail again (a second delivery): its fate is logged as a duplicate
	buf.Reset()
	f.deliver(mails[0].raw)
	if !strings.Contains(buf.String(), "msg=mail inbox=1 ") || !strings.Contains(buf.String(), "outcome=duplicate") {
		t.Errorf("a second delivery is not logged as a duplicate:\n%s", buf.String())
	}
}

// noSecretKept fails when secret is anywhere the judge keeps or sends it after the mail
// uid: the stored mail (its bytes, every part decoded, and its text as the judge reads
// it), the stored sheets, or a mail it sent (but a welcome, which carries the secret).
func (f *fixture) noSecretKept(uid uint32, secret string) {
	f.t.Helper()
	row := f.inboxStatus(uid)
	if bytes.Contains(row.Raw, []byte(secret)) {
		f.t.Errorf("the stored mail carries the secret in its bytes")
	}
	pieces, _ := mail.Decoded(row.Raw, 1<<20)
	for _, p := range pieces {
		if bytes.Contains(p, []byte(secret)) {
			f.t.Errorf("the stored mail carries the secret in a decoded part")
		}
	}
	if m, err := mail.Extract(row.Raw); err == nil && strings.Contains(m.Text, secret) {
		f.t.Errorf("the stored mail's text carries the secret")
	}
	_ = f.j.Store.View(context.Background(), func(tx *store.Tx) error {
		for _, robot := range []string{"Twonky", "Zoombot", "Hulk"} {
			vs, _ := tx.OrderVersions(1, 1, robot)
			for _, v := range vs {
				if strings.Contains(v.Raw, secret) || bytes.Contains(v.Parsed, []byte(secret)) {
					f.t.Errorf("the stored sheet of %s carries the secret", robot)
				}
			}
		}
		return nil
	})
	for _, m := range f.outbox() {
		if m.Kind == "welcome" || m.Kind == "gm-notice" {
			continue
		}
		pieces, _ := mail.Decoded(m.Raw, 1<<20)
		for _, p := range append(pieces, m.Raw) {
			if bytes.Contains(p, []byte(secret)) {
				f.t.Errorf("the %s mail to %s echoes the secret", m.Kind, m.To)
				break
			}
		}
	}
}

// TestClientCommandCorpusThroughTheJudge delivers each command mail of the corpus, as
// its client wrote it, to a running game and checks the judge's answer, what changed,
// and that no secret is kept or echoed. A mailing list's copy of a player's mail is
// automatic: never answered (the list would get the answer), never run, and its secret
// is not kept.
func TestClientCommandCorpusThroughTheJudge(t *testing.T) {
	tests := []struct {
		name  string
		to    string   // whom the reply goes to ("" for no reply at all)
		want  []string // in the reply
		never []string // never in any mail sent
		check func(t *testing.T, f *fixture)
	}{
		{name: "gmail_join_lowercase", to: "rusty@example.test",
			want:  []string{"> join", "to join game autumn", "CONFIRM "},
			never: []string{"Unknown command", "For game masters", "Rusty Driver"}},
		{name: "outlook_create_smartquotes", to: "boss@example.test",
			want:  []string{"Game autumn is created", "name:            Autumn Cup", "players:         at most 4", `line 3 "Regards,", line 4 "The Boss"`},
			never: []string{"Not done", "want key=value"},
			check: func(t *testing.T, f *fixture) {
				if g, _ := f.game("autumn"); g.Name != "Autumn Cup" {
					t.Errorf("game name %q, want Autumn Cup", g.Name)
				}
			}},
		{name: "iphone_press_flowed", to: "zoombot@example.test",
			want:  []string{"> press to all", "Your message (signed) went to everyone."},
			never: []string{"Sent from my iPhone", "Unknown command"},
			check: func(t *testing.T, f *fixture) {
				for _, to := range []string{"twonky@example.test", "hulk@example.test"} {
					ms := f.mailsTo(to, "press")
					if len(ms) != 1 || !strings.Contains(textOf(t, ms[0]), "come for you with everything I have. Everyone else: truce until the first flag?") {
						t.Errorf("press to %s: %d mails, want the message unwrapped", to, len(ms))
					}
				}
			}},
		{name: "thunderbird_observe", to: "kibitzer@example.test",
			want: []string{"> Observe", "to observe game spring", "CONFIRM "}, never: []string{"Unknown command"}}, // subscribed on the CONFIRM
		{name: "k9_absent", to: "zoombot@example.test",
			want: []string{"> absent 2026-03-10 2026-03-12", "Noted: you are away from 2026-03-10 to 2026-03-12"}, never: []string{"Not done"}},
		{name: "outlook_web_list_help", to: "newcomer@example.test",
			// a stranger's reply quotes nothing of the mail but the verbs (reflection.go)
			want: []string{"> LIST", "spring           running", "> help", "For players:"}, never: []string{"Cheers"}},
		{name: "outlook_status_fwd_subject", to: "zoombot@example.test",
			want: []string{"> status", "Game spring, course sprint: running."}, never: []string{"Not done", "RoboRally game spring (sprint)"}},
		{name: "gmail_replyall_list_game", to: "zoombot@example.test",
			want: []string{"> STATUS", "Game spring, course sprint: running."}, never: []string{"Not done"}},
		{name: "outlook_web_zwsp_commands", to: "zoombot@example.test",
			want:  []string{"> WAIT", "Turn 1 waits for its deadline", "> timezone Europe/Berlin", `line 5 "Zoe"`},
			never: []string{"did not match", "Not done", "NOT accepted"}},
		{name: "mailman_list_copy", check: func(t *testing.T, f *fixture) {
			if got := f.zoombotFate(); got.program != "" {
				t.Errorf("the list's copy of a sheet was stored: %q", got.program)
			}
		}},
		{name: "googlegroups_list_copy", check: func(t *testing.T, f *fixture) {
			if n := len(f.mailsTo("twonky@example.test", "press")); n != 0 {
				t.Errorf("the list's copy of a PRESS was relayed")
			}
		}},
		// a bounce carrying the player's sheet (message/rfc822 in a multipart/report) and an
		// out-of-office reply listing cards: automatic, never read as orders
		{name: "postfix_bounce_with_sheet", check: func(t *testing.T, f *fixture) {
			if got := f.zoombotFate(); got.program != "" {
				t.Errorf("the bounced sheet was stored: %q", got.program)
			}
		}},
		{name: "exchange_oof", check: func(t *testing.T, f *fixture) {
			if got := f.zoombotFate(); got.program != "" {
				t.Errorf("the out-of-office reply was stored as a sheet: %q", got.program)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			boss := f.addServerGM("boss@example.test")
			if tt.name != "outlook_create_smartquotes" {
				if _, err := f.j.RunCommand(context.Background(), "", Command{Verb: "CREATE", Args: []string{"autumn", "course=sprint"}}); err != nil {
					t.Fatal(err)
				}
			}
			raw, err := os.ReadFile(filepath.Join("..", "mail", "testdata", "clients", tt.name+".eml"))
			if err != nil {
				t.Fatal(err)
			}
			// the outbox first: reading it arms the welcomes' secrets (secretslots.go),
			// which would undo a secret asZoombot sets
			before := len(f.outbox())
			raw = f.asZoombot(bytes.ReplaceAll(raw, []byte("SERVER-SECRET"), []byte(boss)))
			f.deliver(raw)
			row := f.inboxStatus(f.uid)
			sent := f.outbox()[before:]
			if tt.to == "" {
				if row.Status != store.InboxRejected || !strings.Contains(row.Note, "automatic") || len(sent) != 0 {
					t.Fatalf("inbox %s (%s), %d mails sent: want an automatic mail, never answered", row.Status, row.Note, len(sent))
				}
			} else {
				m, text := f.reply(f.uid)
				if len(m.To) != 1 || m.To[0] != tt.to {
					t.Errorf("reply to %s, want %s", m.To, tt.to)
				}
				for _, w := range tt.want {
					if !strings.Contains(text, w) {
						t.Errorf("the reply lacks %q:\n%s", w, text)
					}
				}
			}
			for _, m := range sent {
				for _, n := range tt.never {
					if strings.Contains(textOf(t, m), n) {
						t.Errorf("the %s mail to %s has %q:\n%s", m.Kind, m.To, n, textOf(t, m))
					}
				}
			}
			if tt.check != nil {
				tt.check(t, f)
			}
			f.noSecretKept(f.uid, f.secrets["Zoombot"])
			f.noSecretKept(f.uid, boss)
		})
	}
}

// TestEncryptedMailIsAnsweredAsEncrypted: a PGP/MIME mail (Thunderbird, subject "...")
// or an S/MIME envelope (Outlook) was answered "Your mail names no game" and the whole help; now the reply says the mail
// is encrypted and cannot be read, counts nothing, and stores nothing.
func TestEncryptedMailIsAnsweredAsEncrypted(t *testing.T) {
	for _, name := range []string{"thunderbird_encrypted", "outlook_smime_encrypted"} {
		f := newFixture(t)
		f.deliver(f.corpusMail(name))
		got := f.zoombotFate()
		if len(got.replies) != 1 || !strings.Contains(got.replies[0], "encrypted") || strings.Contains(got.replies[0], "names no game") ||
			strings.Contains(got.replies[0], "For players:") {
			t.Fatalf("%s: replies %q, want one saying the mail is encrypted", name, got.replies)
		}
		if got.program != "" || got.failures != 0 {
			t.Errorf("%s: program %q, %d identity failures", name, got.program, got.failures)
		}
	}
}

// TestSignOffUnderSheetIsNotAnOrder: "Zoe" under an unmarked sheet (Outlook's reply to
// the report) was read as an order, "expected an order, got "Zoe"", and the whole sheet
// was refused. A closing or the sender's own name on the last two lines is a sign-off;
// anything else there is still read (and an error when it is no order).
func TestSignOffUnderSheetIsNotAnOrder(t *testing.T) {
	tests := []struct {
		body string
		want []int
	}{
		{"P490\n\nZoe\n", []int{2}},
		{"P490\nZoe Zed\n", []int{1}},
		{"P490\n\nThanks,\nZoe\n", []int{3, 2}},
		{"P490\n\nCheers!\n", []int{2}},
		{"P490\nviele Grüße, Zoe\n\n", []int{1}},
		{"P490\nzoe.zed\n", []int{1}},
		{"P490\nZoe\nCheers\n", []int{2}},
		{"Zoe\n", nil},                         // nothing above it
		{"P490\nHulk\n", nil},                  // not the sender's name
		{"P490\npower down\nZoe\n", []int{2}},  // the order above stays
		{"P490\nThanks, Hulk\n", nil},          // a closing with another name
		{"P490\nZoe\nZoe\nZoe\n", []int{3, 2}}, // two lines at most
		{"P490\n-Zoe\n", []int{1}},
		{"P490\n\u2014Zoe\n", []int{1}},
		{"P490\n- P670\n", nil},
	}
	for _, tt := range tests {
		got := signOffLines(tt.body, "Zoe Zed", "zoe.zed@example.test")
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("signOffLines(%q) = %v, want %v", tt.body, got, tt.want)
		}
	}
	for _, name := range []string{"outlook_report_html_only", "outlook_smime_signed"} {
		f := newFixture(t)
		f.deliver(f.corpusMail(name))
		if got := f.zoombotFate(); got.program != "490 670 10 840 530" || strings.Contains(got.replies[0], `got "Zoe"`) {
			t.Errorf("%s: program %q, replies %q", name, got.program, got.replies)
		}
	}
}

// TestForwardedOwnSheetIsRead: a player who forwards the sheet they first sent to a
// wrong address ("Fwd: [RR spring] orders", Gmail's "---------- Forwarded message
// ---------") got "expected an order, got "Sorry"": only the note above the forward was
// read. The forwarded sheet is read when it is the sender's own; someone else's
// forwarded sheet is not. The same for one forwarded as an attachment (Thunderbird).
func TestForwardedOwnSheetIsRead(t *testing.T) {
	f := newFixture(t)
	f.deliver(f.corpusMail("gmail_forward_own_sheet"))
	if got := f.zoombotFate(); got.program != "490 670 10 840 530" || got.failures != 0 {
		t.Fatalf("program %q, failures %d (%s)", got.program, got.failures, got.note)
	}
	f2 := newFixture(t)
	raw := f2.corpusMail("gmail_forward_own_sheet")
	raw = bytes.ReplaceAll(raw, []byte("From: Zoe Zed <zoombot@example.test>\nDate: Mon, 23 Nov 2026 at 13:41"), []byte("From: Hulk <hulk@example.test>\nDate: Mon, 23 Nov 2026 at 13:41"))
	raw = bytes.ReplaceAll(raw, []byte("From: Zoe Zed <zoombot@example.test>\r\nDate: Mon, 23 Nov 2026 at 13:41"), []byte("From: Hulk <hulk@example.test>\r\nDate: Mon, 23 Nov 2026 at 13:41"))
	if !bytes.Contains(raw, []byte("From: Hulk <hulk@example.test>")) {
		t.Fatal("the forwarded From was not replaced")
	}
	f2.deliver(raw)
	if got := f2.zoombotFate(); got.program != "" {
		t.Errorf("someone else's forwarded sheet was stored: %q", got.program)
	}
	// Thunderbird's "Forward As Attachment": the sheet is a message/rfc822 part
	f3 := newFixture(t)
	f3.deliver(f3.corpusMail("thunderbird_forward_attached"))
	if got := f3.zoombotFate(); got.program != "490 670 10 840 530" || got.failures != 0 {
		t.Errorf("attached: program %q, failures %d (%s)", got.program, got.failures, got.note)
	}
	f3.noSecretKept(f3.uid, f3.secrets["Zoombot"])
	f4 := newFixture(t)
	raw = bytes.Replace(f4.corpusMail("thunderbird_forward_attached"), []byte("From: Zoe Zed <zoombot@example.test>\r\nSubject: [RR spring] orders"), []byte("From: Hulk <hulk@example.test>\r\nSubject: [RR spring] orders"), 1)
	if !bytes.Contains(raw, []byte("From: Hulk")) {
		t.Fatal("the attached mail's From was not replaced")
	}
	f4.deliver(raw)
	if got := f4.zoombotFate(); got.program != "" {
		t.Errorf("someone else's attached sheet was stored: %q", got.program)
	}
}
