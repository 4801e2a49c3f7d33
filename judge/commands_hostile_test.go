package judge

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/store"
)

// Hostile command mails: what a tester tries against the mail commands from outside.
// Each case is answered with what was wrong and where, changes nothing stored that it
// may not, and mails nobody but the sender (and those the command is for).

// secondGame adds the running game autumn (Alpha, Beta; game master
// other-gm@example.test) beside the fixture's spring and returns its secrets.
func (f *fixture) secondGame() map[string]string {
	f.t.Helper()
	spec := GameSpec{Tag: "autumn", Settings: map[string]string{"course": "sprint"}, Seed: 7, GMEmail: "other-gm@example.test",
		Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24},
		Players:  []PlayerSpec{{Robot: "Alpha", Email: "alpha@example.test"}, {Robot: "Beta", Email: "beta@example.test"}}}
	sec, err := f.j.CreateGame(context.Background(), spec)
	if err != nil {
		f.t.Fatal(err)
	}
	return sec
}

// A command that names another game (JOIN, OBSERVE, UNOBSERVE, STANDBY, NEWSECRET)
// must not carry the commands after it into that game: they were authorised for the
// mail's game, by its secret. The bug: "OBSERVE autumn" then "KICK Alpha" from
// spring's game master kicked autumn's Alpha.
func TestCommandsStayInTheirGame(t *testing.T) {
	for _, tc := range []struct {
		name, from, body string
	}{
		{"observe then kick", "gm@example.test", "secret GM\nOBSERVE autumn\nKICK Alpha\n"},
		{"standby then set", "gm@example.test", "secret GM\nSTANDBY autumn\nSET name Hijacked\n"},
		{"unobserve then pause", "gm@example.test", "secret GM\nUNOBSERVE autumn\nPAUSE\n"},
		{"newsecret then replace", "gm@example.test", "secret GM\nNEWSECRET autumn Alpha\nREPLACE Beta thief@example.test\n"},
		{"join then broadcast", "gm@example.test", "secret GM\nJOIN autumn Sneaky\nBROADCAST hello autumn\n"},
		{"observe then press", "twonky@example.test", "secret TWONKY\nOBSERVE autumn\nPRESS TO ALL\nspam\nENDPRESS\n"},
		{"standby then deadline", "gm@example.test", "secret GM\nSTANDBY autumn\nDEADLINE 2026-03-09 12:00\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.secondGame()
			before, _ := f.game("autumn")
			body := strings.ReplaceAll(strings.ReplaceAll(tc.body, "GM\n", f.secrets[""]+"\n"), "TWONKY", f.secrets["Twonky"])
			f.send(tc.from, "[RR spring] commands", body)
			after, _ := f.game("autumn")
			if after.Name != before.Name || after.Status != before.Status || !after.DeadlineAt.Equal(before.DeadlineAt) {
				t.Errorf("game autumn changed: name %q→%q, status %s→%s, deadline %v→%v",
					before.Name, after.Name, before.Status, after.Status, before.DeadlineAt, after.DeadlineAt)
			}
			for _, p := range f.playersOf("autumn") {
				if p.Withdrawn || p.Email != strings.ToLower(p.Robot)+"@example.test" {
					t.Errorf("autumn's %s changed: %+v", p.Robot, p)
				}
			}
			for _, to := range []string{"alpha@example.test", "beta@example.test", "thief@example.test"} {
				for _, m := range f.mailsTo(to, "") {
					if m.Kind != "welcome" || to == "thief@example.test" {
						t.Errorf("%s got a %s mail %q from spring's commands", to, m.Kind, m.Subject)
					}
				}
			}
		})
	}
}

// outboxCount is the number of mails in the outbox.
func (f *fixture) outboxCount() int { f.t.Helper(); return len(f.outbox()) }

// One mail must not become a thousand mails: too many commands, or one command too
// often, is refused whole with the line of the first one too many, and nothing runs.
func TestCommandMailLimits(t *testing.T) {
	repeat := func(s string, n int) string { return strings.Repeat(s, n) }
	for _, tc := range []struct {
		name, from, body string
		want             []string // in the reply
	}{
		{"press to all 1000 times", "twonky@example.test",
			"secret TWONKY\n" + repeat("PRESS TO ALL\nbuy my stuff\nENDPRESS\n", 1000), []string{"line 26: PRESS is given more than 8 times"}},
		{"address 1000 times", "twonky@example.test",
			"secret TWONKY\n" + repeat("ADDRESS victim@example.org\n", 1000), []string{"ADDRESS is given more than 8 times"}},
		{"extend 1000 times", "gm@example.test",
			"secret GM\n" + repeat("EXTEND 1h\n", 1000), []string{"line 10: EXTEND is given more than 8 times"}},
		{"status 1000 times", "zoombot@example.test",
			"secret ZOOMBOT\n" + repeat("STATUS\n", 1000), []string{"STATUS is given more than 8 times"}},
		{"many different commands", "gm@example.test",
			"secret GM\n" + repeat("STATUS\nHISTORY\nLIST\nHELP\nWHOGAME\nPAUSE\nRESUME\n", 7), []string{"this mail has 49 commands; at most 40", "line 42"}},
		{"a 250 KB mail of one command", "gm@example.test",
			"secret GM\n" + repeat("STATUS "+repeat("x", 240)+"\n", 1000), []string{"STATUS is given more than 8 times"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			body := strings.NewReplacer("GM\n", f.secrets[""]+"\n", "TWONKY", f.secrets["Twonky"], "ZOOMBOT", f.secrets["Zoombot"]).Replace(tc.body)
			g0, o0 := f.game("spring")
			n0 := f.outboxCount()
			_, text := f.send(tc.from, "[RR spring] many", body)
			mustContain(t, "the reply", text, append(tc.want, "Nothing was done")...)
			if n := f.outboxCount(); n != n0+1 {
				t.Errorf("the mail made %d mails; want the one reply", n-n0)
			}
			g1, o1 := f.game("spring")
			if g0.Status != g1.Status || !g0.DeadlineAt.Equal(g1.DeadlineAt) || o0.PausedLeft != o1.PausedLeft {
				t.Errorf("game spring changed: %s %v → %s %v", g0.Status, g0.DeadlineAt, g1.Status, g1.DeadlineAt)
			}
		})
	}
	// At the limit the mail runs.
	f := newFixture(t)
	_, text := f.send("gm@example.test", "[RR spring] many", "secret "+f.secrets[""]+"\n"+repeat("EXTEND 1h\n", MaxSameCommand))
	if strings.Contains(text, "Nothing was done") || strings.Count(text, "> EXTEND 1h") != MaxSameCommand {
		t.Errorf("%d EXTENDs were not all run:\n%s", MaxSameCommand, text)
	}
}

// Addresses a player or game master gives (ADDRESS, REPLACE, SET list): refused with
// what is wrong, never echoed, nothing stored, nothing mailed there. The holes: the
// judge's own address was taken (its mail to itself is never read, so the robot was
// lost), and a non-ASCII address net/mail takes was stored though the outbox never
// mails it (REPLACE said the new player "has been mailed a new secret").
func TestHostileAddresses(t *testing.T) {
	for _, tc := range []struct {
		addr, want string
	}{
		{"judge@example.test", "judge's own address"},
		{"JUDGE@Example.TEST", "judge's own address"},
		{"<judge@example.test>", "judge's own address|plain mail address"},
		{"jürgen@example.test", "no mail can be sent"},
		{"ann@bücher.example", "no mail can be sent"},
		{strings.Repeat("a", 65) + "@example.test", "no mail can be sent"},
		{"a..b@example.test", "plain mail address"},
		{`"ann smith"@example.test`, "plain mail address|write "},
		{"ann@example.test,bob@example.test", "plain mail address"},
		{"Ann<ann@example.test>", "plain mail address"},
		{"ann\u202e@example.test", "bidirectional"},
		{"ann@example", "no dot"},
		{strings.Repeat("a", 60) + "@" + strings.Repeat("b.", 100) + "test", "at most 254"},
	} {
		for _, cmd := range []struct{ from, line string }{
			{"zoombot@example.test", "ADDRESS %s"},
			{"gm@example.test", "REPLACE Hulk %s"},
			{"gm@example.test", "SET list %s"},
		} {
			line := strings.Replace(cmd.line, "%s", tc.addr, 1)
			t.Run(line, func(t *testing.T) {
				f := newFixture(t)
				sec := f.secrets[""]
				if cmd.from == "zoombot@example.test" {
					sec = f.secrets["Zoombot"]
				}
				g0, _ := f.game("spring")
				n0 := f.outboxCount()
				_, text := f.send(cmd.from, "[RR spring] address", "secret "+sec+"\n"+line+"\n")
				_, answer, done := strings.Cut(text, "Not done: ")
				matched := false
				for _, w := range strings.Split(tc.want, "|") {
					matched = matched || strings.Contains(answer, w)
				}
				if !done || !matched {
					t.Errorf("the reply is no refusal with %q:\n%s", tc.want, text)
				}
				if strings.Contains(answer, tc.addr) {
					t.Errorf("the reply echoes the address:\n%s", text)
				}
				if n := f.outboxCount(); n != n0+1 {
					t.Errorf("%d mails; want the one reply", n-n0)
				}
				g1, _ := f.game("spring")
				if g1.ListAddress != g0.ListAddress {
					t.Errorf("list %q → %q", g0.ListAddress, g1.ListAddress)
				}
				for _, p := range f.playersOf("spring") {
					if p.Email != strings.ToLower(p.Robot)+"@example.test" {
						t.Errorf("%s moved to %q", p.Robot, p.Email)
					}
				}
			})
		}
	}
}

// gameRow is what is stored of a game and its options, to compare before and after.
func (f *fixture) gameRow(tag string) string {
	f.t.Helper()
	var out string
	err := f.j.Store.View(context.Background(), func(tx *store.Tx) error {
		g, err := tx.GameByTag(tag)
		if err != nil {
			return err
		}
		o, err := tx.GameOptions(g.ID)
		out = fmt.Sprintf("%+v %s", g, o)
		return err
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return out
}

// SET of every setting to bad values: refused with a message that names the setting
// (or says what is missing), and nothing stored changes. The holes: deadline and grace
// took 2562047h (292 years), reminders took 1ns (stored as 0s), a dozen lead times
// and the same one twice; DEADLINE 9999-12-31 then EXTEND 2562047h stored a deadline
// in the year 10292 that could not be read back, and the game was lost.
func TestSetRefusesBadValues(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"SET", "SET KEY VALUE"},
		{"SET name", "SET KEY VALUE"},
		{"SET nosuch 1", `unknown option "nosuch"`},
		{"SET name " + strings.Repeat("x", 81), "name: 81 characters"},
		{"SET name a\u202eb", "name: character 2 is a bidirectional override"},
		{"SET name a\x1b[31mb", "name: character 2 is a control character"},
		{"SET name a\u2066b", "name: character 2 is a bidirectional"},
		{"SET name a\x07b", "name: character 2 is a control character"},
		{"SET deadline 0h", "deadline"},
		{"SET deadline -48h", "deadline"},
		{"SET deadline 1.5h", "deadline"},
		{"SET deadline 2562047h", "deadline \"2562047h\": at most 1440h"},
		{"SET deadline 99999999999999999999h", "deadline"},
		{"SET deadline daily 25:00", "deadline"},
		{"SET deadline daily 18:00:00", "deadline"},
		{"SET grace -1h", "grace"},
		{"SET grace 2562047h", "grace \"2562047h\": want a duration from 0 to 720h"},
		{"SET grace 1e9h", "grace"},
		{"SET missed nothing", "missed"},
		{"SET rules 2023", "chosen when the game is created"},
		{"SET players 0", "players"},
		{"SET players 9", "players"},
		{"SET players -2147483649", "players"},
		{"SET players 99999999999999999999", "players"},
		{"SET max-players 2", "players"}, // three have joined
		{"SET missed-limit 100", "missed-limit"},
		{"SET missed-limit -1", "missed-limit"},
		{"SET on-missed-limit explode", "on-missed-limit"},
		{"SET reminders 0h", "reminders: lead time 1"},
		{"SET reminders 1ns", "reminders: lead time 1"},
		{"SET reminders 24h,-2h", "reminders: lead time 2"},
		{"SET reminders 2h,2h", "reminders: lead time 2 \"2h\" is given twice"},
		{"SET reminders 1h,2h,3h,4h,5h,6h,7h", "reminders: 7 lead times; at most 6"},
		{"SET reminders 9999d", "reminders: lead time 1"},
		{"SET reminders ,", "reminders"},
		{"SET list judge@example.test", "list"},
		{"SET list a@b", "list"},
		{"SET observers maybe", "observers"},
		{"SET press loud", "press"},
		{"SET whogame everyone", "whogame"},
		{"SET absence vanish", "absence"},
		{"SET absence-cap 0h", "absence-cap"},
		{"SET absence-cap 31d", "absence-cap"},
		{"SET gm-copies yes", "gm-copies"},
		{"DEADLINE 9999-12-31 23:00", "more than five years from now"},
		{"DEADLINE 2031-03-01 12:01", "more than five years from now"},
		{"DEADLINE 2020-01-01 00:00", "has passed"},
		{"DEADLINE 2026-02-30 12:00", "write DEADLINE YYYY-MM-DD HH:MM"},
		{"DEADLINE tomorrow", "write DEADLINE YYYY-MM-DD HH:MM"},
		{"EXTEND 2562047h", "more than five years from now"},
		{"EXTEND 9999d", "more than five years from now"},
		{"EXTEND 99999999999d", "too long a duration"},
		{"EXTEND -5h", "above zero"},
		{"EXTEND 0", "above zero"},
		{"EXTEND", "write EXTEND DURATION"},
		{"EXTEND 1h 2h", "write EXTEND DURATION"},
	} {
		t.Run(tc.line, func(t *testing.T) {
			f := newFixture(t)
			before := f.gameRow("spring")
			n0 := f.outboxCount()
			_, text := f.send("gm@example.test", "[RR spring] set", "secret "+f.secrets[""]+"\n"+tc.line+"\n")
			mustContain(t, "the reply", text, "Not done: ", tc.want)
			if after := f.gameRow("spring"); after != before {
				t.Errorf("stored game changed:\n%s\n%s", before, after)
			}
			if n := f.outboxCount(); n != n0+1 {
				t.Errorf("%d mails; want the one reply", n-n0)
			}
		})
	}
	// Five years ahead is the limit, and the game is still read after it.
	f := newFixture(t)
	_, text := f.send("gm@example.test", "[RR spring] far", "secret "+f.secrets[""]+"\nDEADLINE 2031-02-27 12:00\nEXTEND 48h\n")
	mustContain(t, "the reply", text, "Thu 27 Feb 2031 12:00 UTC", "Not done: EXTEND: the deadline would be 2031-03-01 12:00 UTC")
	f.gameRow("spring")
}

// Press and broadcasts are relayed to other people: a terminal escape sequence, a
// bidirectional override or a quarter-megabyte message was relayed as written to
// every player. Refused, with the line and character, and nobody else is mailed.
func TestRelayedTextIsChecked(t *testing.T) {
	for _, tc := range []struct{ name, from, body, want string }{
		{"press escape", "twonky@example.test", "secret TWONKY\nPRESS TO ALL\nhello\nred \x1b[31malert\nENDPRESS\n", "PRESS: line 2 of the message, character 5 is a control character (U+001B)"},
		{"press bidi", "twonky@example.test", "secret TWONKY\nPRESS TO Zoombot\nsigned \u202eyblnoZ\nENDPRESS\n", "PRESS: line 1 of the message, character 8 is a bidirectional override (U+202E)"},
		{"press isolate", "twonky@example.test", "secret TWONKY\nPRESS TO ALL\n\u2067x\u2069\n", "PRESS: line 1 of the message, character 1 is a bidirectional override (U+2067)"},
		{"press huge", "twonky@example.test", "secret TWONKY\nPRESS TO ALL\n" + strings.Repeat("spam spam spam spam\n", 600), "PRESS: the message has 11999 characters; at most 10000"},
		{"broadcast escape", "gm@example.test", "secret GM\nBROADCAST \x1b]0;owned\x07 hi\n", "BROADCAST: line 1 of the message, character 1 is a control character (U+001B)"},
		{"broadcast huge", "gm@example.test", "secret GM\nBROADCAST\n" + strings.Repeat("x", 20000) + "\n", "BROADCAST: the message has 20000 characters"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			body := strings.NewReplacer("GM\n", f.secrets[""]+"\n", "TWONKY", f.secrets["Twonky"]).Replace(tc.body)
			n0 := f.outboxCount()
			_, text := f.send(tc.from, "[RR spring] relay", body)
			mustContain(t, "the reply", text, "Not done: "+tc.want)
			if n := f.outboxCount(); n != n0+1 {
				t.Errorf("%d mails; want the one reply", n-n0)
			}
		})
	}
	// Tabs, accents, right-to-left text with its marks and emoji are relayed.
	f := newFixture(t)
	_, text := f.send("twonky@example.test", "[RR spring] relay", "secret "+f.secrets["Twonky"]+"\nPRESS TO ALL\nGrüße\tשלום\u200f 👨\u200d👩\u200d👧\nENDPRESS\n")
	mustContain(t, "the reply", text, "Your message (signed) went to everyone.")
}

// Commands below a WITHDRAW in the same mail: the player has left. The bugs: a second
// WITHDRAW in an open game deleted the deleted seat again and the whole mail failed
// unanswered ("delete player: not found"); in a running game a PRESS below the WITHDRAW
// still went to the other players.
func TestCommandsAfterWithdraw(t *testing.T) {
	t.Run("open game", func(t *testing.T) {
		f := newFixture(t)
		boss := f.addServerGM("boss@example.test")
		f.send("boss@example.test", "new", "secret "+boss+"\nCREATE autumn course=sprint players=2\n")
		sec := secretInText.FindStringSubmatch(f.joinConfirmed("ann@example.test", "[RR autumn] join", "JOIN Ann\n"))[1]
		_, text := f.send("ann@example.test", "[RR autumn] bye", "secret "+sec+"\nRESEND\nWITHDRAW\nWITHDRAW\n")
		mustContain(t, "the reply", text, "> RESEND\nNot done: game autumn has not started: there is no report yet.", "Ann withdrew: the seat in game autumn is free again.", "> WITHDRAW\nNot done: Ann left game autumn above in this mail")
		if st := f.inboxStatus(f.uid); st.Status == store.InboxFailed {
			t.Errorf("the mail failed: %s", st.Note)
		}
	})
	t.Run("running game", func(t *testing.T) {
		f := newFixture(t)
		_, text := f.send("twonky@example.test", "[RR spring] bye", "secret "+f.secrets["Twonky"]+"\nWITHDRAW\nPRESS TO ALL\nso long, suckers\nENDPRESS\nWITHDRAW\n")
		mustContain(t, "the reply", text, "Twonky withdrew", "> PRESS TO ALL\nNot done: Twonky left game spring above", "> WITHDRAW\nNot done: Twonky left")
		if ms := f.mailsTo("zoombot@example.test", "press"); len(ms) != 0 {
			t.Errorf("a withdrawn player's press went out: %d mails", len(ms))
		}
	})
	t.Run("timezone Local", func(t *testing.T) {
		f := newFixture(t)
		_, text := f.send("twonky@example.test", "[RR spring] tz", "secret "+f.secrets["Twonky"]+"\nTIMEZONE Local\n")
		mustContain(t, "the reply", text, `Not done: "Local" is not a time zone name`)
	})
}

// ADDRESS mails a code to an address nobody has proved, so it is bounded: a player who
// mails one ADDRESS after another makes at most MaxAddressCodes code mails a day (per
// robot, and to one victim from every robot together); the refusal says so, and nothing
// more goes to the victim.
func TestAddressCodesAreBounded(t *testing.T) {
	f := newFixture(t)
	send := func(robot, to string) string {
		_, text := f.send(strings.ToLower(robot)+"@example.test", "[RR spring] moving",
			"secret "+f.secrets[robot]+"\nADDRESS "+to+"\n")
		return text
	}
	for i := 0; i < MaxAddressCodes; i++ {
		mustContain(t, "ADDRESS", send("Zoombot", "victim@example.test"), "A code went to victim@example.test")
	}
	mustContain(t, "one ADDRESS too many", send("Zoombot", "other@example.test"), "Not done", "within a day already")
	mustContain(t, "another robot to the same victim", send("Hulk", "victim@example.test"), "Not done", "within a day already")
	if n := len(f.mailsTo("victim@example.test", "notice")); n != MaxAddressCodes {
		t.Errorf("the victim got %d code mails; want %d", n, MaxAddressCodes)
	}
	if n := len(f.mailsTo("other@example.test", "notice")); n != 0 {
		t.Errorf("other@ got %d code mails past the robot's bound", n)
	}
	// Another robot to another address is not held up.
	mustContain(t, "ADDRESS", send("Hulk", "hulk2@example.test"), "A code went to hulk2@example.test")
}
