package judge

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/roborally"
	"github.com/rallyjudge/rallyjudge/store"
	"github.com/rallyjudge/rallyjudge/templates"
)

// Issue 13: what players and game masters of mail games rely on. Each test plays it by
// mail through HandleMessage against the fixture game spring (Twonky, Zoombot, Hulk;
// game master gm@example.test).

// send delivers a mail and returns the reply's kind and text.
func (f *fixture) send(from, subj, body string) (string, string) {
	f.t.Helper()
	f.deliver(rawMail(from, subj, body))
	m, text := f.reply(f.uid)
	return m.Kind, text
}

func mustContain(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, text)
		}
	}
}

// allSheets sends every robot's sheet for the turn (the robots that need a program).
func (f *fixture) allSheets(except ...string) {
	f.t.Helper()
	_, st := f.state()
	skip := map[string]bool{}
	for _, e := range except {
		skip[e] = true
	}
	for _, r := range st.Robots {
		if skip[r.Name] || !roborally.NeedsProgram(r) {
			continue
		}
		f.deliver(rawMail(strings.ToLower(r.Name)+"@example.test", "[RR spring] orders", f.sheet(r.Name, "")))
	}
}

// A game master who plays in the same game from the same address: each mail is
// authorised by the secret it carries (the bug: STATUS with the game master's secret
// was refused and SET and DEADLINE in that mail were dropped).
func TestGMWhoPlaysSameAddress(t *testing.T) {
	f := newFixture(t)
	gmSecret := f.secrets[""]
	// Make Twonky's player the game's master too, with a secret of their own.
	if err := f.j.AddGM(context.Background(), "spring", "twonky@example.test"); err != nil {
		t.Fatal(err)
	}
	var twonkyGM string
	for _, m := range f.mailsTo("twonky@example.test", "gm-notice") {
		if s := secretInText.FindStringSubmatch(textOf(t, m)); s != nil {
			twonkyGM = s[1]
		}
	}
	if twonkyGM == "" || twonkyGM == gmSecret {
		t.Fatal("no game master secret mailed to twonky")
	}
	kind, text := f.send("twonky@example.test", "[RR spring] gm work", "secret "+twonkyGM+"\nSTATUS\nSET grace 1h\nDEADLINE 2026-03-05 18:00\n")
	if kind == "reject" {
		t.Fatalf("refused:\n%s", text)
	}
	mustContain(t, "the game master's reply", text, "Roster (game masters only)", "twonky@example.test", "grace:           1h", "Thu 5 Mar 2026 18:00 UTC")
	g, _ := f.game("spring")
	if g.Grace != time.Hour || !g.DeadlineAt.Equal(time.Date(2026, 3, 5, 18, 0, 0, 0, time.UTC)) {
		t.Errorf("SET and DEADLINE did not run: grace %v deadline %v", g.Grace, g.DeadlineAt)
	}
	// With the player's secret: the player's view, and game master commands refused.
	_, text = f.send("twonky@example.test", "[RR spring] me", "secret "+f.secrets["Twonky"]+"\nSTATUS\n")
	if strings.Contains(text, "Roster") {
		t.Errorf("the player's STATUS shows the roster:\n%s", text)
	}
	if kind, _ := f.send("twonky@example.test", "[RR spring] me", "secret "+f.secrets["Twonky"]+"\nPROCESS\n"); kind != "claim" {
		t.Errorf("PROCESS with the player's secret: %s, want claim", kind)
	}
	// And a sheet with the player's secret is the player's orders.
	if kind, text := f.send("twonky@example.test", "[RR spring] orders", f.sheet("Twonky", "")); kind != "ack" {
		t.Errorf("the player's sheet: %s\n%s", kind, text)
	}
}

// The kick notice says the secret no longer counts: it must not authenticate.
func TestKickedSecretCountsForNothing(t *testing.T) {
	f := newFixture(t)
	if kind, text := f.send("gm@example.test", "[RR spring] kick", "secret "+f.secrets[""]+"\nKICK Hulk\n"); kind == "reject" {
		t.Fatalf("KICK refused:\n%s", text)
	}
	if kind, _ := f.send("hulk@example.test", "[RR spring] s", "secret "+f.secrets["Hulk"]+"\nSTATUS\n"); kind != "claim" {
		t.Errorf("a kicked player's STATUS: %s, want claim", kind)
	}
	// refused too, but told once a day only: the day's notice went above
	f.deliver(rawMail("hulk@example.test", "[RR spring] orders", f.sheet("Hulk", "")))
	if row := f.inboxStatus(f.uid); row.Status != store.InboxRejected {
		t.Errorf("a kicked player's sheet: %s (%s), want rejected", row.Status, row.Note)
	}
}

func TestPress(t *testing.T) {
	f := newFixture(t)
	gm := f.secrets[""]
	if _, text := f.send("gm@example.test", "[RR spring] s", "secret "+gm+"\nSET gm-copies on\n"); !strings.Contains(text, "gm copies:       on") {
		t.Fatalf("SET gm-copies:\n%s", text)
	}
	kind, text := f.send("twonky@example.test", "[RR spring] p", "secret "+f.secrets["Twonky"]+
		"\nPRESS TO Zoombot ANON\nMeet me at the flag.\nsecret "+f.secrets["Twonky"]+"\nENDPRESS\nSTATUS\n")
	if kind == "reject" {
		t.Fatalf("refused: %s", text)
	}
	mustContain(t, "the reply", text, "Your message (anonymous) went to Zoombot.", "> STATUS", "Turn 1")
	got := f.mailsTo("zoombot@example.test", "press")
	if len(got) != 1 {
		t.Fatalf("zoombot got %d press mails", len(got))
	}
	body := textOf(t, got[0])
	mustContain(t, "the press mail", body, "from an anonymous player to Zoombot", "Meet me at the flag.")
	for _, leak := range []string{"Twonky", "twonky@", f.secrets["Twonky"]} {
		if strings.Contains(body, leak) || strings.Contains(string(got[0].Raw), leak) {
			t.Errorf("anonymous press shows %q:\n%s", leak, got[0].Raw)
		}
	}
	if n := len(f.mailsTo("hulk@example.test", "press")); n != 0 {
		t.Errorf("hulk got %d press mails meant for Zoombot", n)
	}
	copies := f.mailsTo("gm@example.test", "press")
	if len(copies) != 1 || !strings.Contains(textOf(t, copies[0]), "the sender is Twonky") {
		t.Errorf("the game master's copy: %d", len(copies))
	}
	// HISTORY: the receiver sees it anonymous, the game master with its sender, a third
	// player not at all.
	_, h := f.send("zoombot@example.test", "[RR spring] h", "secret "+f.secrets["Zoombot"]+"\nHISTORY\n")
	mustContain(t, "Zoombot's history", h, "from anonymous to Zoombot", "| Meet me at the flag.")
	_, h = f.send("gm@example.test", "[RR spring] h", "secret "+gm+"\nHISTORY\n")
	mustContain(t, "the game master's history", h, "from Twonky (anonymous) to Zoombot")
	_, h = f.send("hulk@example.test", "[RR spring] h", "secret "+f.secrets["Hulk"]+"\nHISTORY\n")
	if strings.Contains(h, "Meet me") {
		t.Errorf("Hulk reads press to Zoombot:\n%s", h)
	}
	// Errors, then the game master switches press off.
	_, text = f.send("twonky@example.test", "[RR spring] p", "secret "+f.secrets["Twonky"]+"\nPRESS TO Nobody\nhi\n")
	mustContain(t, "press to an unknown robot", text, `Not done: game spring has no robot "Nobody"`)
	f.send("gm@example.test", "[RR spring] s", "secret "+gm+"\nSET press signed\n")
	_, text = f.send("twonky@example.test", "[RR spring] p", "secret "+f.secrets["Twonky"]+"\nPRESS TO ALL ANON\nhi\n")
	mustContain(t, "anonymous press in a signed-only game", text, "signed press only")
	f.send("gm@example.test", "[RR spring] s", "secret "+gm+"\nSET press none\n")
	_, text = f.send("twonky@example.test", "[RR spring] p", "secret "+f.secrets["Twonky"]+"\nPRESS TO ALL\nhi\n")
	mustContain(t, "press switched off", text, "has no press")
	var n int
	_ = f.j.Store.View(context.Background(), func(tx *store.Tx) error {
		g, _ := tx.GameByTag("spring")
		ps, err := tx.PressOf(g.ID)
		n = len(ps)
		return err
	})
	if n != 1 {
		t.Errorf("%d press messages stored, want 1", n)
	}
}

func TestObserversGetThePublicReport(t *testing.T) {
	f := newFixture(t)
	text := f.joinConfirmed("kibitzer@example.test", "watch", "OBSERVE spring\n") // OBSERVE, then its CONFIRM
	mustContain(t, "OBSERVE", text, "You now observe game spring")
	f.send("gm@example.test", "[RR spring] s", "secret "+f.secrets[""]+"\nPROCESS\n")
	reps := f.mailsTo("kibitzer@example.test", "report")
	if len(reps) != 1 {
		t.Fatalf("the observer got %d reports", len(reps))
	}
	body := textOf(t, reps[0])
	if strings.Contains(body, "YOUR HAND") || strings.Contains(body, "#orders") {
		t.Errorf("the observer's report shows a hand or a sheet:\n%s", body)
	}
	_, text = f.send("kibitzer@example.test", "[RR spring] stop", "UNOBSERVE\n")
	mustContain(t, "UNOBSERVE", text, "no longer observe")
	f.send("gm@example.test", "[RR spring] s", "secret "+f.secrets[""]+"\nSET observers no\n")
	f.now = f.now.Add(time.Hour + time.Minute) // kibitzer, a stranger again, had the 3 replies an hour a stranger gets
	_, text = f.send("kibitzer@example.test", "[RR spring] watch", "OBSERVE\n")
	mustContain(t, "OBSERVE when observers are off", text, "takes no observers")
}

// WAIT holds a complete turn for its deadline; NOWAIT lets it go.
func TestWaitAndNowait(t *testing.T) {
	f := newFixture(t)
	f.send("hulk@example.test", "[RR spring] w", "secret "+f.secrets["Hulk"]+"\nWAIT\n")
	f.allSheets()
	if g, _ := f.game("spring"); g.CurrentTurn != 1 {
		t.Fatalf("turn %d: the turn resolved in spite of WAIT", g.CurrentTurn)
	}
	_, ack := f.reply(f.uid)
	mustContain(t, "the last sheet's acknowledgement", ack, "waits for its deadline", "Hulk asked to WAIT")
	f.send("hulk@example.test", "[RR spring] w", "secret "+f.secrets["Hulk"]+"\nNOWAIT\n")
	if g, _ := f.game("spring"); g.CurrentTurn != 2 {
		t.Errorf("turn %d after NOWAIT with every program in, want 2", g.CurrentTurn)
	}
}

// A powered-down robot's player has until the deadline to say whether it stays down.
func TestPoweredDownRobotGetsItsWindow(t *testing.T) {
	f := newFixture(t)
	// Hulk announces a power down for turn 2.
	f.deliver(rawMail("hulk@example.test", "[RR spring] orders", f.sheet("Hulk", "power down\n")))
	f.allSheets("Hulk")
	g, st := f.state()
	if g.CurrentTurn != 2 || st.Robots[st.Robot("Hulk")].Power != adjudicator.PowerDown {
		t.Fatalf("turn %d, Hulk %v: want turn 2 with Hulk powered down", g.CurrentTurn, st.Robots[st.Robot("Hulk")].Power)
	}
	f.allSheets() // Twonky and Zoombot: Hulk needs no program
	if g, _ := f.game("spring"); g.CurrentTurn != 2 {
		t.Fatal("turn 2 resolved before Hulk could say whether it stays down")
	}
	f.deliver(rawMail("hulk@example.test", "[RR spring] orders", "robot Hulk\nturn 2\nsecret "+f.secrets["Hulk"]+"\nstay down\n"))
	if g, _ := f.game("spring"); g.CurrentTurn != 3 {
		t.Errorf("turn %d after Hulk's stay-down sheet, want 3", g.CurrentTurn)
	}
}

func TestAbsence(t *testing.T) {
	for _, tc := range []struct {
		policy string
		check  func(t *testing.T, f *fixture, before store.Game)
	}{
		{"extend", func(t *testing.T, f *fixture, before store.Game) {
			g, _ := f.game("spring")
			// Away until 3 March: the deadline moves to 4 March at the deadline's time of
			// day, but by at most the 24h cap set below.
			if g.CurrentTurn != 1 || !g.DeadlineAt.Equal(before.DeadlineAt.Add(24*time.Hour)) {
				t.Errorf("turn %d deadline %v; want turn 1 and the deadline 24h later than %v", g.CurrentTurn, g.DeadlineAt, before.DeadlineAt)
			}
			if ms := f.mailsTo("twonky@example.test", "notice"); len(ms) == 0 || !strings.Contains(textOf(t, ms[len(ms)-1]), "Hulk is away") {
				t.Error("the players were not told why the deadline moved")
			}
			// The cap is used up: at the new deadline the turn resolves.
			f.now = g.DeadlineAt.Add(time.Minute)
			if _, err := f.j.Tick(context.Background()); err != nil {
				t.Fatal(err)
			}
			if g, _ := f.game("spring"); g.CurrentTurn != 2 {
				t.Errorf("turn %d after the capped extension, want 2", g.CurrentTurn)
			}
		}},
		{"autopilot", func(t *testing.T, f *fixture, _ store.Game) {
			if g, _ := f.game("spring"); g.CurrentTurn != 2 {
				t.Fatalf("turn %d, want 2", g.CurrentTurn)
			}
			ms := f.mailsTo("hulk@example.test", "missed")
			if len(ms) != 1 || !strings.Contains(textOf(t, ms[0]), "autopilot") {
				t.Errorf("the absent player's robot was not played by the autopilot")
			}
		}},
	} {
		t.Run(tc.policy, func(t *testing.T) {
			f := newFixture(t)
			gm := f.secrets[""]
			f.send("gm@example.test", "[RR spring] s", "secret "+gm+"\nSET absence "+tc.policy+"\nSET absence-cap 24h\n")
			_, text := f.send("hulk@example.test", "[RR spring] away", "secret "+f.secrets["Hulk"]+"\nABSENT 2026-03-01 2026-03-03\n")
			mustContain(t, "ABSENT", text, "Noted: you are away from 2026-03-01 to 2026-03-03")
			if gms := f.mailsTo("gm@example.test", "gm-notice"); len(gms) == 0 || !strings.Contains(textOf(t, gms[len(gms)-1]), "Hulk (game spring) will be away") {
				t.Error("the game master was not told of the absence")
			}
			f.allSheets("Hulk")
			before, _ := f.game("spring")
			f.now = before.DeadlineAt.Add(time.Minute)
			if _, err := f.j.Tick(context.Background()); err != nil {
				t.Fatal(err)
			}
			tc.check(t, f, before)
		})
	}
	f := newFixture(t)
	for body, want := range map[string]string{
		"ABSENT 2026-03-05 2026-03-02": "before the first",
		"ABSENT 2026-02-01 2026-02-02": "has passed",
		"ABSENT 2026-03-01 2026-06-01": "at most 60 days",
		"ABSENT soon":                  "YYYY-MM-DD",
	} {
		_, text := f.send("hulk@example.test", "[RR spring] away", "secret "+f.secrets["Hulk"]+"\n"+body+"\n")
		mustContain(t, body, text, "Not done", want)
	}
}

func TestChangeOfAddressAndNewSecret(t *testing.T) {
	f := newFixture(t)
	_, text := f.send("zoombot@example.test", "[RR spring] moving", "secret "+f.secrets["Zoombot"]+"\nADDRESS zb@example.test\n")
	mustContain(t, "ADDRESS", text, "A code went to zb@example.test")
	if p := f.player("spring", "Zoombot"); p.Email != "zoombot@example.test" {
		t.Fatalf("the address changed before it was confirmed: %s", p.Email)
	}
	_, text = f.send("zb@example.test", "confirm", "CONFIRM wrong-code-1234\n")
	mustContain(t, "a wrong code", text, "Not done")
	_, text = f.send("mallory@example.test", "confirm", "CONFIRM "+confirmCode.FindStringSubmatch(textOf(t, f.mailsTo("zb@example.test", "notice")[0]))[1]+"\n")
	mustContain(t, "the right code from another address", text, "Not done")
	code := confirmCode.FindStringSubmatch(textOf(t, f.mailsTo("zb@example.test", "notice")[0]))[1]
	_, text = f.send("zb@example.test", "confirm", "CONFIRM "+code+"\n")
	mustContain(t, "CONFIRM", text, "Confirmed: you play Zoombot")
	if p := f.player("spring", "Zoombot"); p.Email != "zb@example.test" {
		t.Errorf("address %s after CONFIRM", p.Email)
	}
	if ms := f.mailsTo("zoombot@example.test", "notice"); len(ms) == 0 || !strings.Contains(textOf(t, ms[len(ms)-1]), "played from zb@example.test") {
		t.Error("the old address was not told")
	}
	// NEWSECRET from a stranger changes nothing; from the registered address it mails a
	// new secret there, and the old one stops counting.
	old := f.player("spring", "Hulk").SecretHash
	f.send("mallory@example.test", "lost", "NEWSECRET spring Hulk\n")
	if f.player("spring", "Hulk").SecretHash != old {
		t.Fatal("a stranger's NEWSECRET changed Hulk's secret")
	}
	_, text = f.send("hulk@example.test", "lost", "NEWSECRET spring Hulk\n")
	if strings.Contains(text, "secret is") {
		t.Errorf("the reply carries the secret:\n%s", text)
	}
	var fresh string
	for _, m := range f.mailsTo("hulk@example.test", "notice") {
		if s := regexpNewSecret.FindStringSubmatch(textOf(t, m)); s != nil {
			fresh = s[1]
		}
	}
	if fresh == "" {
		t.Fatal("no new secret mailed")
	}
	if kind, _ := f.send("hulk@example.test", "[RR spring] s", "secret "+f.secrets["Hulk"]+"\nSTATUS\n"); kind != "claim" {
		t.Error("the old secret still counts")
	}
	if kind, _ := f.send("hulk@example.test", "[RR spring] s", "secret "+fresh+"\nSTATUS\n"); kind == "reject" {
		t.Error("the new secret does not count")
	}
}

func TestWhoGamePrivacy(t *testing.T) {
	f := newFixture(t)
	gm := f.secrets[""]
	_, text := f.send("stranger@example.test", "[RR spring] who", "WHOGAME\n")
	mustContain(t, "WHOGAME by a stranger", text, "Not done", "for its players and game masters")
	_, text = f.send("hulk@example.test", "[RR spring] who", "secret "+f.secrets["Hulk"]+"\nWHOGAME\n")
	mustContain(t, "WHOGAME by a player", text, "Zoombot      zoombot@example.test")
	f.send("gm@example.test", "[RR spring] s", "secret "+gm+"\nSET whogame gm\n")
	_, text = f.send("hulk@example.test", "[RR spring] who", "secret "+f.secrets["Hulk"]+"\nWHOGAME\n")
	mustContain(t, "WHOGAME by a player when only game masters may", text, "Not done")
	f.send("gm@example.test", "[RR spring] s", "secret "+gm+"\nSET whogame public\n")
	_, text = f.send("stranger@example.test", "[RR spring] who", "WHOGAME\n")
	mustContain(t, "WHOGAME public", text, "Hulk         hulk@example.test")
}

// The game master is told of each join and gets a summary after each turn; STANDBY
// players take over with the first welcome's board and hand.
func TestGameMasterSeesTheGame(t *testing.T) {
	f := newFixture(t)
	boss := f.addServerGM("boss@example.test")
	f.send("boss@example.test", "new", "secret "+boss+"\nCREATE autumn course=sprint players=2\n")
	f.joinConfirmed("dave@example.test", "join", "JOIN autumn Robo1\n")
	notes := f.mailsTo("boss@example.test", "gm-notice")
	if len(notes) == 0 || !strings.Contains(textOf(t, notes[len(notes)-1]), "Robo1 joined game autumn from dave@example.test") {
		t.Errorf("no join notice to the game master")
	}
	// A turn with Hulk late: the summary says who was in and who was late.
	f.allSheets("Hulk")
	f.send("gm@example.test", "[RR spring] go", "secret "+f.secrets[""]+"\nPROCESS\n")
	var summary string
	for _, m := range f.mailsTo("gm@example.test", "gm-notice") {
		if strings.Contains(m.Subject, "Turn 1 summary") {
			summary = textOf(t, m)
		}
	}
	mustContain(t, "the turn summary", summary, "In:        Twonky, Zoombot", "Late:      Hulk (powerdown; 1 in a row)")
	// STANDBY and REPLACE ROBOT STANDBY: the new player's welcome has the board, the
	// hand and a sheet for the turn being played.
	f.send("sub@example.test", "standby", "STANDBY spring\n")
	_, text := f.send("gm@example.test", "[RR spring] r", "secret "+f.secrets[""]+"\nREPLACE Hulk STANDBY\n")
	mustContain(t, "REPLACE STANDBY", text, "Hulk is now played from sub@example.test")
	w := f.mailsTo("sub@example.test", "welcome")
	if len(w) != 1 {
		t.Fatalf("%d welcomes to the standby player", len(w))
	}
	mustContain(t, "the take-over welcome", textOf(t, w[0]), "You take over the robot", "THE FLOOR", "YOUR HAND FOR TURN 2", "#orders", "Your secret is:")
	_, text = f.send("gm@example.test", "[RR spring] r", "secret "+f.secrets[""]+"\nREPLACE Zoombot STANDBY\n")
	mustContain(t, "REPLACE STANDBY with nobody standing by", text, "Not done: nobody stands by")
}

func TestTimezone(t *testing.T) {
	f := newFixture(t)
	_, text := f.send("twonky@example.test", "[RR spring] tz", "secret "+f.secrets["Twonky"]+"\nSET TIMEZONE America/New_York\n")
	mustContain(t, "SET TIMEZONE", text, "Mon 2 Mar 2026 12:00 UTC (07:00 America/New_York)")
	_, ack := f.send("twonky@example.test", "[RR spring] orders", f.sheet("Twonky", ""))
	mustContain(t, "the acknowledgement", ack, "07:00 America/New_York")
	for _, bad := range []string{"Mars/Olympus", "../../etc/passwd", "Europe/Berlin x"} {
		_, text := f.send("twonky@example.test", "[RR spring] tz", "secret "+f.secrets["Twonky"]+"\nTIMEZONE "+bad+"\n")
		mustContain(t, "TIMEZONE "+bad, text, "Not done")
	}
}

// While a game is paused the last sheet is not told "resolved now"; RESUME with every
// program in resolves and says so instead of announcing a deadline.
func TestPausedGameLastSheet(t *testing.T) {
	f := newFixture(t)
	f.send("gm@example.test", "[RR spring] p", "secret "+f.secrets[""]+"\nPAUSE\n")
	f.allSheets()
	_, ack := f.reply(f.uid)
	if strings.Contains(ack, "resolved now") || !strings.Contains(ack, "The game is paused") {
		t.Errorf("the last sheet in a paused game:\n%s", ack)
	}
	_, text := f.send("gm@example.test", "[RR spring] r", "secret "+f.secrets[""]+"\nRESUME\n")
	mustContain(t, "RESUME", text, "every program for turn 1 is in, so the turn is resolved now")
	if g, _ := f.game("spring"); g.CurrentTurn != 2 {
		t.Errorf("turn %d after RESUME, want 2", g.CurrentTurn)
	}
}

// A rolled-back turn's new report does not look like the voided one.
func TestRolledBackTurnReportSubject(t *testing.T) {
	f := newFixture(t)
	gm := f.secrets[""]
	f.send("gm@example.test", "[RR spring] go", "secret "+gm+"\nPROCESS\n")
	f.send("gm@example.test", "[RR spring] undo", "secret "+gm+"\nROLLBACK\n")
	f.send("gm@example.test", "[RR spring] go", "secret "+gm+"\nPROCESS\n")
	var subjects []string
	for _, m := range f.mailsTo("hulk@example.test", "report") {
		subjects = append(subjects, m.Subject)
	}
	// The voided report is never sent (it is not due any more); the live one says it is
	// the turn resolved again.
	if len(subjects) != 1 || subjects[0] != "[RR spring] Turn 1 report for Hulk (resolved again)" {
		t.Errorf("report subjects %q", subjects)
	}
}

var regexpNewSecret = regexp.MustCompile(`has a new secret: (\S+)`)

// A course refuses more players than it seats (the bug: --players 6 on a 2-4 course).
func TestCourseSeats(t *testing.T) {
	f := newFixture(t)
	boss := f.addServerGM("boss@example.test")
	_, text := f.send("boss@example.test", "new", "secret "+boss+"\nCREATE big course=sprint players=6\n")
	mustContain(t, "CREATE players=6 on sprint", text, "Not done", "seats at most 4 players")
	_, text = f.send("boss@example.test", "new", "secret "+boss+"\nCREATE small course=sprint\n")
	mustContain(t, "CREATE on sprint", text, "players:         at most 4")
	_, text = f.send("gm@example.test", "[RR spring] s", "secret "+f.secrets[""]+"\nSET players 5\n")
	mustContain(t, "SET players 5 on sprint", text, "Not done", "seats at most 4")
}

// Standing orders carry over from turn to turn, and the acknowledgement lists every
// order in force, not only the new sheet's (the bug: players.md said a sheet with a
// program replaced them, and the acknowledgement showed only the new sheet's orders).
func TestAckListsStandingOrdersInForce(t *testing.T) {
	f := newFixture(t)
	f.deliver(rawMail("hulk@example.test", "[RR spring] orders", f.sheet("Hulk", "if damage > 5 then power down\n")))
	f.allSheets("Hulk")
	if g, _ := f.game("spring"); g.CurrentTurn != 2 {
		t.Fatalf("turn %d, want 2", g.CurrentTurn)
	}
	_, ack := f.send("hulk@example.test", "[RR spring] orders", f.sheet("Hulk", "reenter facing north\n"))
	mustContain(t, "turn 2's acknowledgement", ack, "IN FORCE", "if damage > 5 then power down", "reenter facing N")
}

// The report shows stills per register and says how to get the replay page; HISTORY
// REPLAY mails the page as an attachment.
func TestReportStillsAndReplayPage(t *testing.T) {
	f := newFixture(t)
	f.allSheets()
	reps := f.mailsTo("hulk@example.test", "report")
	if len(reps) != 1 {
		t.Fatalf("%d reports", len(reps))
	}
	raw := string(reps[0].Raw)
	for _, want := range []string{"reg1.spring.1@", "reg5.spring.1@", "spring-turn-1-register-3.png", "HISTORY REPLAY"} {
		if !strings.Contains(raw, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	mustContain(t, "the report's HTML", qpDecoded(raw), `name=3D"viewport"`, "Register by register", "After register 5", "white-space: pre-wrap")
	_, text := f.send("zoombot@example.test", "[RR spring] replay", "secret "+f.secrets["Zoombot"]+"\nHISTORY REPLAY\n")
	mustContain(t, "HISTORY REPLAY", text, "The replay page of game spring")
	ms := f.mailsTo("zoombot@example.test", "replay")
	if len(ms) != 1 {
		t.Fatalf("%d replay mails", len(ms))
	}
	r := string(ms[0].Raw)
	for _, want := range []string{"multipart/mixed", `attachment; filename=spring-replay-turn-1.html`, "text/html"} {
		if !strings.Contains(r, want) {
			t.Errorf("the replay mail lacks %q:\n%.600s", want, r)
		}
	}
}

// qpDecoded joins quoted-printable soft line breaks (the =XX escapes stay).
func qpDecoded(s string) string { return strings.ReplaceAll(s, "=\r\n", "") }

// Notices come from notice.txt.tmpl, which a game master may override like reports.
func TestNoticeTemplateOverride(t *testing.T) {
	f := newFixture(t)
	dir := t.TempDir()
	over := "{{if eq .Kind \"notice\"}}From the Spring Open desk ({{.Game}}):\n{{end}}{{.Text}}"
	if err := os.WriteFile(filepath.Join(dir, "notice.txt.tmpl"), []byte(over), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := templates.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	f.j.Templates = set
	f.send("gm@example.test", "[RR spring] dl", "secret "+f.secrets[""]+"\nEXTEND 1d\n")
	ms := f.mailsTo("hulk@example.test", "notice")
	if len(ms) != 1 {
		t.Fatalf("%d notices", len(ms))
	}
	mustContain(t, "the notice", textOf(t, ms[0]), "From the Spring Open desk (spring):", "has moved the deadline of turn 1")
}
