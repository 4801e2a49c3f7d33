package judge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/orders"
	"github.com/rallyjudge/rallyjudge/store"
)

var secretInText = regexp.MustCompile(`secret is: (\S+)`)

var confirmCode = regexp.MustCompile(`(?m)^  CONFIRM (\S+)$`)

// reply is the answer to the mail last delivered (by its inbox row): the command reply,
// or the sheet's reply.
func (f *fixture) reply(uid uint32) (store.OutboxMail, string) {
	f.t.Helper()
	row := f.inboxStatus(uid)
	for _, m := range f.outbox() {
		if m.MessageID == f.j.replyID(row.ID) || m.MessageID == f.j.noticeID("cmd", row.ID) {
			x, err := mail.Extract(m.Raw)
			if err != nil {
				f.t.Fatal(err)
			}
			return m, x.Text
		}
	}
	f.t.Fatalf("no reply to uid %d (inbox %s: %s)", uid, row.Status, row.Note)
	return store.OutboxMail{}, ""
}

func (f *fixture) game(tag string) (store.Game, Options) {
	f.t.Helper()
	var g store.Game
	var o Options
	err := f.j.Store.View(context.Background(), func(tx *store.Tx) error {
		var err error
		if g, err = tx.GameByTag(tag); err != nil {
			return err
		}
		o, err = f.j.optionsOf(tx, g)
		return err
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return g, o
}

func (f *fixture) player(tag, robot string) store.Player {
	f.t.Helper()
	g, _ := f.game(tag)
	var p store.Player
	_ = f.j.Store.View(context.Background(), func(tx *store.Tx) error {
		var err error
		p, err = tx.PlayerByRobot(g.ID, robot)
		return err
	})
	return p
}

func textOf(t *testing.T, m store.OutboxMail) string {
	t.Helper()
	x, err := mail.Extract(m.Raw)
	if err != nil {
		t.Fatal(err)
	}
	return x.Text
}

// addServerGM makes boss@example.test a server game master and returns the secret it
// was mailed.
func (f *fixture) addServerGM(addr string) string {
	f.t.Helper()
	if err := f.j.AddGM(context.Background(), "", addr); err != nil {
		f.t.Fatal(err)
	}
	for _, m := range f.mailsTo(addr, "gm-notice") {
		if s := secretInText.FindStringSubmatch(textOf(f.t, m)); s != nil {
			return s[1]
		}
	}
	f.t.Fatal("no secret mailed to the new game master")
	return ""
}

// TestCommands drives every command through HandleMessage, in the order a game's
// life takes them, and checks each reply and the change it made.
func TestCommands(t *testing.T) {
	f := newFixture(t)
	boss := f.addServerGM("boss@example.test")
	gm := f.secrets[""]
	joined := map[string]string{} // robot → secret from its CONFIRM reply
	codes := map[string]string{}  // address → code from its JOIN reply
	code := func(from string) func(t *testing.T, text string) {
		return func(t *testing.T, text string) {
			m := confirmCode.FindStringSubmatch(text)
			if m == nil {
				t.Fatalf("the JOIN reply to %s has no CONFIRM line:\n%s", from, text)
			}
			codes[from] = m[1]
		}
	}
	var deadlineBefore time.Time

	type step struct {
		name    string
		from    string
		subject string
		body    func() string
		want    []string // in the reply
		kind    string   // the reply's kind: command (default), reject, ack
		check   func(t *testing.T, text string)
	}
	steps := []step{
		{name: "help", from: "stranger@example.test", subject: "help", body: func() string { return "HELP\n" },
			want: []string{"JOIN [GAME] ROBOT", "ROLLBACK", "BROADCAST TEXT"}},
		{name: "unknown", from: "stranger@example.test", subject: "hi", body: func() string { return "SIGNON\n" },
			want: []string{`Unknown command "SIGNON"`, "RESEND [TURN]"}},
		{name: "list", from: "stranger@example.test", subject: "list", body: func() string { return "list\n" },
			want: []string{"spring", "running", "3/4 players"}},
		{name: "create", from: "boss@example.test", subject: "new game",
			body: func() string {
				return "secret " + boss + "\nCREATE autumn course=sprint name=\"Autumn Cup\" players=2 missed=autopilot deadline=24h missed-limit=2 on-missed-limit=remove reminders=24h,2h rules.max_options=2 options=none\n"
			},
			want: []string{"Game autumn is created", "autopilot", "at most 2", "Autumn Cup"},
			check: func(t *testing.T, _ string) {
				g, o := f.game("autumn")
				if g.Status != store.GameOpen || o.MaxPlayers != 2 || gameMissed(g) != MissedAutopilot || o.MissedLimit != 2 || o.OnMissedLimit != "remove" {
					t.Errorf("autumn: %+v %+v", g, o)
				}
				if !strings.Contains(string(g.Rules), `"max_options":2`) || !strings.Contains(string(g.Rules), `"option_deck":"none"`) {
					t.Errorf("rules %s", g.Rules)
				}
			}},
		{name: "create with an unknown option deck", from: "boss@example.test", subject: "new game",
			body: func() string { return "secret " + boss + "\nCREATE winter course=sprint options=everything\n" },
			want: []string{`Not done: options "everything"`}},
		{name: "create 2023 refused", from: "boss@example.test", subject: "new game",
			body: func() string {
				return "secret " + boss + "\nCREATE summer course=sprint rules=2023\nCREATE summer course=sprint less-deadly=yes\n" +
					"CREATE summer course=docking-run rules=2023 options=crash-burn\n"
			},
			want: []string{"the 2023 rules do not play", "Not done: less-deadly is a variant of the 2023 rules", "rules=2023",
				"Not done: options=crash-burn: the 2023 rules have upgrades"},
			check: func(t *testing.T, _ string) {
				err := f.j.Store.View(context.Background(), func(tx *store.Tx) error {
					_, err := tx.GameByTag("summer")
					return err
				})
				if !errors.Is(err, store.ErrNotFound) {
					t.Errorf("game summer: %v; want it not created", err)
				}
			}},
		{name: "create 2023", from: "boss@example.test", subject: "a 2023 game",
			body: func() string {
				return "secret " + boss + "\nCREATE summer23 course=docking-run rules=2023 less-deadly=yes variants=dynamic-archive act-fast=yes\n"
			},
			want: []string{"Game summer23 is created", "2023 (seed 004) with A Less Deadly Game", "Dynamic Archiving", "Act Fast"},
			check: func(t *testing.T, _ string) {
				g, _ := f.game("summer23")
				r := gameRules(g)
				if !r.Own() || !r.EdgeWalls || !r.DynamicArchive || r.Lighter || r.DiscardSpam || gameMissed(g) != string(store.MissedRandom) {
					t.Errorf("summer23: rules %s, missed %s", g.Rules, gameMissed(g))
				}
				if len(r.OptionCards) != 24 {
					t.Errorf("summer23 deals %d upgrades, want the twelve twice", len(r.OptionCards))
				}
			}},
		{name: "list shows the 2023 rules", from: "reader@example.test", subject: "list", body: func() string { return "list\n" },
			want: []string{"summer23", "rules: 2023 (seed 004) with A Less Deadly Game", "Act Fast"}},
		{name: "create unknown ruleset", from: "boss@example.test", subject: "new game",
			body: func() string { return "secret " + boss + "\nCREATE summer course=sprint rules=2016\n" },
			want: []string{`unknown ruleset "2016"`}},
		{name: "create wrong secret", from: "boss@example.test", subject: "new game",
			body: func() string { return "secret nope-nope\nCREATE winter course=sprint\n" },
			kind: "claim", want: []string{"claiming to be from this address", "did not match"}},
		{name: "create by a player", from: "twonky@example.test", subject: "new game",
			body: func() string { return "secret " + f.secrets["Twonky"] + "\nCREATE winter course=sprint\n" },
			kind: "claim", want: []string{"claiming to be from this address", "did not match"}},
		{name: "join", from: "dave@example.test", subject: "join", body: func() string { return "JOIN autumn Robo1\n" },
			want:  []string{"join game autumn", "CONFIRM ", "no seat is\ntaken"},
			check: code("dave@example.test")},
		{name: "join confirm from elsewhere", from: "mallory@example.test", subject: "join", body: func() string { return "CONFIRM " + codes["dave@example.test"] + "\n" },
			want: []string{"Not done: no JOIN"},
			check: func(t *testing.T, _ string) {
				if p := f.playersOf("autumn"); len(p) != 0 {
					t.Errorf("a code sent from another address took a seat: %+v", p)
				}
			}},
		{name: "join confirm", from: "dave@example.test", subject: "Re: join", body: func() string { return "CONFIRM " + codes["dave@example.test"] + "\n" },
			want:  []string{"You have joined game autumn", "Your secret is: "},
			check: func(t *testing.T, text string) { joined["Robo1"] = secretInText.FindStringSubmatch(text)[1] }},
		{name: "join confirm twice", from: "dave@example.test", subject: "Re: join", body: func() string { return "CONFIRM " + codes["dave@example.test"] + "\n" },
			want: []string{"Not done: no JOIN"}},
		{name: "join by subject", from: "erin@example.test", subject: "[RR autumn] join", body: func() string { return "join Robo2\n" },
			want: []string{"CONFIRM "}, check: code("erin@example.test")},
		{name: "join by subject confirm", from: "erin@example.test", subject: "Re: join", body: func() string { return "CONFIRM " + codes["erin@example.test"] + "\n" },
			want:  []string{"You have joined game autumn", "2 of 2 seats"},
			check: func(t *testing.T, text string) { joined["Robo2"] = secretInText.FindStringSubmatch(text)[1] }},
		{name: "join full", from: "frank@example.test", subject: "join", body: func() string { return "JOIN autumn Robo3\n" },
			want: []string{"Not done: game autumn is full"}},
		{name: "join running", from: "frank@example.test", subject: "join", body: func() string { return "JOIN spring Robo3\n" },
			want: []string{"Not done: game spring is running"}},
		{name: "status open", from: "dave@example.test", subject: "[RR autumn] status",
			body: func() string { return "secret " + joined["Robo1"] + "\nSTATUS\n" },
			want: []string{"open", "2 of 2 players", "Robo1", "Robo2"}},
		{name: "withdraw open", from: "erin@example.test", subject: "[RR autumn] bye",
			body: func() string { return "secret " + joined["Robo2"] + "\nWITHDRAW\n" },
			want: []string{"Robo2 withdrew", "free again"}},
		{name: "join again", from: "frank@example.test", subject: "join", body: func() string { return "JOIN autumn Robo3\n" },
			want: []string{"CONFIRM "}, check: code("frank@example.test")},
		{name: "join again confirm", from: "frank@example.test", subject: "Re: join", body: func() string { return "CONFIRM " + codes["frank@example.test"] + "\n" },
			want:  []string{"You have joined"},
			check: func(t *testing.T, text string) { joined["Robo3"] = secretInText.FindStringSubmatch(text)[1] }},
		{name: "start", from: "boss@example.test", subject: "[RR autumn] go",
			body: func() string { return "secret " + boss + "\nSTART\n" },
			want: []string{"Game autumn has started with 2 robots (Robo1, Robo3)"},
			check: func(t *testing.T, _ string) {
				g, _ := f.game("autumn")
				if g.Status != store.GameRunning || g.CurrentTurn != 1 || g.DeadlineAt.IsZero() {
					t.Errorf("autumn after START: %+v", g)
				}
				for _, a := range []string{"dave@example.test", "frank@example.test"} {
					w := f.mailsTo(a, "welcome")
					if len(w) != 1 || !strings.Contains(textOf(t, w[0]), joinedSecret) {
						t.Errorf("%s: %d welcomes", a, len(w))
					}
				}
			}},
		{name: "status running", from: "twonky@example.test", subject: "[RR spring] status",
			body: func() string { return "Secret: " + f.secrets["Twonky"] + "\nstatus\n" },
			want: []string{"Turn 1", "Twonky       waiting for orders", "Hulk         waiting for orders"}},
		{name: "orders", from: "twonky@example.test", subject: "[RR spring] orders",
			body: func() string { return "ORDERS\n" + f.sheet("Twonky", "") },
			kind: "ack", want: []string{"Twonky"}},
		{name: "status shows orders in, no program", from: "zoombot@example.test", subject: "[RR spring] status",
			body: func() string { return "secret " + f.secrets["Zoombot"] + "\nSTATUS\n" },
			want: []string{"Twonky       orders in", "Zoombot      waiting for orders"},
			check: func(t *testing.T, text string) {
				if regexp.MustCompile(`P\d{2,3}`).MatchString(text) {
					t.Errorf("STATUS shows a card:\n%s", text)
				}
			}},
		{name: "gm-only command by a player", from: "twonky@example.test", subject: "[RR spring] x",
			body: func() string { return "secret " + f.secrets["Twonky"] + "\nPROCESS\n" },
			// twonky was told of a refused mail above (CREATE), at most once a day: silence
			kind: "", want: nil},
		{name: "spoofed", from: "mallory@example.test", subject: "[RR spring] x",
			body: func() string { return "robot Twonky\nsecret guess\nWITHDRAW\n" },
			kind: "", want: nil,
			check: func(t *testing.T, _ string) {
				if ms := f.mailsTo("twonky@example.test", "notice"); len(ms) == 0 || !strings.Contains(textOf(t, ms[len(ms)-1]), "mallory@example.test") {
					t.Error("the registered address was not told of the spoofed mail")
				}
				if p := f.player("spring", "Twonky"); p.Withdrawn {
					t.Error("a spoofed WITHDRAW withdrew Twonky")
				}
			}},
		{name: "deadline", from: "gm@example.test", subject: "[RR spring] dl",
			body: func() string { return "secret " + gm + "\nDEADLINE 2026-03-04 18:00\n" },
			want: []string{"Wed 4 Mar 2026 18:00 UTC", "players are told"},
			check: func(t *testing.T, _ string) {
				g, _ := f.game("spring")
				if !g.DeadlineAt.Equal(time.Date(2026, 3, 4, 18, 0, 0, 0, time.UTC)) {
					t.Errorf("deadline %v", g.DeadlineAt)
				}
				deadlineBefore = g.DeadlineAt
				if n := len(f.mailsTo("hulk@example.test", "notice")); n != 1 {
					t.Errorf("hulk got %d notices", n)
				}
			}},
		{name: "deadline past", from: "gm@example.test", subject: "[RR spring] dl",
			body: func() string { return "secret " + gm + "\nDEADLINE 2020-01-01 10:00\n" },
			want: []string{"Not done:", "has passed"}},
		{name: "extend", from: "gm@example.test", subject: "[RR spring] ext",
			body: func() string { return "secret " + gm + "\nEXTEND 1d\n" },
			want: []string{"Thu 5 Mar 2026 18:00 UTC"},
			check: func(t *testing.T, _ string) {
				if g, _ := f.game("spring"); !g.DeadlineAt.Equal(deadlineBefore.Add(24 * time.Hour)) {
					t.Errorf("deadline %v", g.DeadlineAt)
				}
			}},
		{name: "pause", from: "gm@example.test", subject: "[RR spring] p",
			body: func() string { return "secret " + gm + "\nPAUSE\n" },
			want: []string{"paused with 102h left"},
			check: func(t *testing.T, _ string) {
				if g, o := f.game("spring"); g.Status != store.GamePaused || !g.DeadlineAt.IsZero() || o.PausedLeft != 102*3600 {
					t.Errorf("after PAUSE: %+v %+v", g, o)
				}
				f.now = f.now.Add(200 * time.Hour) // the clock is stopped: no deadline passes
				f.j.Tick(context.Background())
				if g, _ := f.game("spring"); g.CurrentTurn != 1 {
					t.Errorf("a paused game resolved its turn")
				}
			}},
		{name: "resume", from: "gm@example.test", subject: "[RR spring] r",
			body: func() string { return "secret " + gm + "\nRESUME\n" },
			want: []string{"goes on"},
			check: func(t *testing.T, _ string) {
				if g, _ := f.game("spring"); g.Status != store.GameRunning || !g.DeadlineAt.Equal(f.now.Add(102*time.Hour)) {
					t.Errorf("after RESUME: %+v", g)
				}
			}},
		{name: "set", from: "gm@example.test", subject: "[RR spring] s",
			body: func() string { return "secret " + gm + "\nSET missed autopilot\nSET reminders none\nSET bogus 1\n" },
			want: []string{"missed orders:   autopilot", "reminders:       none", `Not done: unknown option "bogus"`},
			check: func(t *testing.T, _ string) {
				// the policy in force, wherever the game keeps it (behind the seam: its settings)
				if g, o := f.game("spring"); !strings.Contains(f.j.missedRule(g), "autopilot") || o.Reminders == nil || len(o.Reminders) != 0 {
					t.Errorf("options %+v, without orders: %s", o, f.j.missedRule(g))
				}
			}},
		{name: "process", from: "gm@example.test", subject: "[RR spring] go",
			body: func() string { return "secret " + gm + "\nPROCESS\n" },
			want: []string{"Turn 1 is resolved"},
			check: func(t *testing.T, _ string) {
				if g, _ := f.game("spring"); g.CurrentTurn != 2 {
					t.Errorf("turn %d after PROCESS", g.CurrentTurn)
				}
				ms := f.mailsTo("zoombot@example.test", "missed")
				if len(ms) == 0 || !strings.Contains(textOf(t, ms[len(ms)-1]), "the autopilot played") || !strings.Contains(textOf(t, ms[len(ms)-1]), "Why: ") {
					t.Error("Zoombot was not told what the autopilot played and why")
				}
			}},
		{name: "resend", from: "zoombot@example.test", subject: "[RR spring] again",
			body: func() string { return "secret " + f.secrets["Zoombot"] + "\nRESEND 1\n" },
			want: []string{"report of turn 1", "sent again"},
			check: func(t *testing.T, _ string) {
				rs := f.mailsTo("zoombot@example.test", "resend")
				reps := f.mailsTo("zoombot@example.test", "report")
				if len(rs) != 1 || len(reps) != 1 || rs[0].MessageID == reps[0].MessageID || textOf(t, rs[0]) != textOf(t, reps[0]) {
					t.Fatalf("resend %d, reports %d", len(rs), len(reps))
				}
				if !strings.Contains(string(rs[0].Raw), "Message-Id: <"+rs[0].MessageID+">") {
					t.Error("the re-sent mail does not carry its new Message-ID")
				}
			}},
		{name: "resend future", from: "zoombot@example.test", subject: "[RR spring] again",
			body: func() string { return "secret " + f.secrets["Zoombot"] + "\nRESEND 7\n" },
			want: []string{"Not done: there is no report of turn 7"}},
		{name: "history", from: "hulk@example.test", subject: "[RR spring] h",
			body: func() string { return "secret " + f.secrets["Hulk"] + "\nHISTORY\n" },
			want: []string{"Turn 0: the robots were placed", "Turn 1 (", "Zoombot sent no orders (autopilot)", "Turn 2 is being played"}},
		{name: "rollback", from: "gm@example.test", subject: "[RR spring] undo",
			body: func() string { return "secret " + gm + "\nROLLBACK\n" },
			want: []string{"Turn 1 is rolled back", "orders are kept"},
			check: func(t *testing.T, _ string) {
				if g, _ := f.game("spring"); g.CurrentTurn != 1 || g.Status != store.GameRunning {
					t.Errorf("after ROLLBACK: %+v", g)
				}
				ms := f.mailsTo("hulk@example.test", "notice")
				if len(ms) == 0 || !strings.Contains(textOf(t, ms[len(ms)-1]), "rolled back turn 1") {
					t.Error("Hulk was not told of the rollback")
				}
				if p := f.player("spring", "Zoombot"); p.Missed != 0 {
					t.Errorf("Zoombot's missed count %d after the rollback", p.Missed)
				}
			}},
		{name: "process again keeps orders", from: "gm@example.test", subject: "[RR spring] go",
			body: func() string { return "secret " + gm + "\nPROCESS\n" },
			want: []string{"Turn 1 is resolved"},
			check: func(t *testing.T, _ string) {
				reps := f.mailsTo("twonky@example.test", "report")
				if len(reps) != 1 { // the void one is failed/sent, not pending; the new one is pending
					t.Errorf("twonky has %d pending reports", len(reps))
				}
				var tn store.Turn
				_ = f.j.Store.View(context.Background(), func(tx *store.Tx) error {
					g, _ := tx.GameByTag("spring")
					tn, _ = tx.Turn(g.ID, 1)
					return nil
				})
				var played []orders.Played
				mustJSON(t, testPlayedJSON(tn), &played)
				if len(played) != 3 || played[0].Robot != "Twonky" || played[0].Missed != "" || played[0].Program[0] == 0 {
					t.Errorf("Twonky's orders were not kept through the rollback: %+v", played)
				}
			}},
		{name: "replace", from: "gm@example.test", subject: "[RR spring] r",
			body: func() string { return "secret " + gm + "\nREPLACE Hulk hulk2@example.test\n" },
			want: []string{"Hulk is now played from hulk2@example.test"},
			check: func(t *testing.T, _ string) {
				w := f.mailsTo("hulk2@example.test", "welcome")
				if len(w) != 1 || secretInText.FindStringSubmatch(textOf(t, w[0])) == nil {
					t.Fatal("the new player got no secret")
				}
				sec := secretInText.FindStringSubmatch(textOf(t, w[0]))[1]
				p := f.player("spring", "Hulk")
				if p.Email != "hulk2@example.test" || !f.j.Store.CheckSecret(p.SecretHash, sec) || f.j.Store.CheckSecret(p.SecretHash, f.secrets["Hulk"]) {
					t.Error("Hulk's address or secret did not change")
				}
				f.secrets["Hulk2"] = sec
			}},
		{name: "kick", from: "gm@example.test", subject: "[RR spring] k",
			body: func() string { return "secret " + gm + "\nKICK Zoombot\n" },
			want: []string{"Zoombot was removed by the game master"},
			check: func(t *testing.T, _ string) {
				if !f.player("spring", "Zoombot").Withdrawn {
					t.Error("Zoombot is not withdrawn")
				}
			}},
		{name: "broadcast", from: "gm@example.test", subject: "[RR spring] news",
			body: func() string {
				return "secret " + gm + "\nBROADCAST Hello racers,\nthe board is wet today.\nsecret " + gm + "\n"
			},
			want: []string{"went to 2 player(s)"},
			check: func(t *testing.T, _ string) {
				ms := f.mailsTo("twonky@example.test", "broadcast")
				if len(ms) != 1 || !strings.Contains(textOf(t, ms[0]), "the board is wet today.") || strings.Contains(textOf(t, ms[0]), gm) {
					t.Error("broadcast missing, or carries the secret")
				}
				if len(f.mailsTo("zoombot@example.test", "broadcast")) != 0 {
					t.Error("a withdrawn player got the broadcast")
				}
			}},
		{name: "withdraw running", from: "twonky@example.test", subject: "[RR spring] bye",
			body: func() string { return "secret " + f.secrets["Twonky"] + "\nWITHDRAW\n" },
			want: []string{"Twonky withdrew", "leaves the race"}},
	}
	for _, s := range steps {
		body := s.body()
		f.deliver(rawMail(s.from, s.subject, body))
		if s.want == nil && s.kind == "" {
			if s.check != nil {
				s.check(t, "")
			}
			continue
		}
		m, text := f.reply(f.uid)
		kind := s.kind
		if kind == "" {
			kind = "command"
		}
		if m.Kind != kind {
			t.Errorf("%s: reply kind %s, want %s:\n%s", s.name, m.Kind, kind, text)
		}
		for _, w := range s.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: reply lacks %q:\n%s", s.name, w, text)
			}
		}
		// Nothing secret: no reply quotes a secret, but a JOIN reply carries its own new one.
		all := map[string]string{"boss": boss}
		for k, v := range f.secrets {
			all["p"+k] = v
		}
		for k, v := range joined {
			all["j"+k] = v
		}
		for k, v := range all {
			if v != "" && strings.Contains(text, v) && !(strings.HasPrefix(s.name, "join") && strings.Contains(text, "Your secret is: "+v) && joined[strings.TrimPrefix(k, "j")] == v) {
				t.Errorf("%s: the reply quotes secret %s", s.name, k)
			}
		}
		if s.check != nil {
			s.check(t, text)
		}
	}
}

func TestParseCommandMail(t *testing.T) {
	tests := []struct {
		body  string
		cmd   bool
		verbs string
		game  string
	}{
		{"HELP", true, "HELP", ""},
		{"game spring\nsecret x\nstatus\nresend 2\n-- \nsig STATUS", true, "STATUS RESEND", "spring"},
		{"> quoted HELP\nOn Mon, X wrote:\nlist", true, "LIST", ""},
		{"robot Twonky\nturn 1\nsecret x\nP490 M2 670 L70 R80", false, "", ""},
		{"Twonky Turn 3\nP490 M2 670 L70 R80 B430", false, "", ""},
		{"Thanks!", true, "?Thanks!", ""},
		{"#orders\nrobot X\nP490\n#end", true, "ORDERS", ""},
		{"STATUS\nORDERS\nrobot X\nP490", true, "STATUS ORDERS", ""},
		{"BROADCAST hi\nthere\nsecret s\nbye", true, "BROADCAST", ""},
		{"", false, "", ""},
	}
	for _, tt := range tests {
		cm, ok := parseCommandMail(tt.body, testReader)
		if ok != tt.cmd {
			t.Errorf("%q: command mail %v, want %v", tt.body, ok, tt.cmd)
			continue
		}
		if !ok {
			continue
		}
		var vs []string
		for _, c := range cm.cmds {
			vs = append(vs, c.Verb)
			if c.Verb == "BROADCAST" && (c.Text != "hi\nthere\nbye") {
				t.Errorf("broadcast text %q", c.Text)
			}
		}
		if strings.Join(vs, " ") != tt.verbs || cm.game != tt.game {
			t.Errorf("%q: verbs %q game %q, want %q %q", tt.body, strings.Join(vs, " "), cm.game, tt.verbs, tt.game)
		}
	}
}

func TestRewriteHeaders(t *testing.T) {
	raw := []byte("Message-Id: <a@b>\r\nSubject: x\r\nTo: <old@x>,\r\n <other@x>\r\n\r\nbody\r\n")
	got := string(rewriteHeaders(raw, map[string]string{"Message-Id": "<n@b>", "To": "<new@x>", "Date": "now"}))
	want := "Date: now\r\nMessage-Id: <n@b>\r\nSubject: x\r\nTo: <new@x>\r\n\r\nbody\r\n"
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestDocsCommandExamples runs every example mail of docs/commands.md, in order, and
// checks the reply shown under it: its lines appear in the real reply, in order ("..."
// marks lines left out).
func TestDocsCommandExamples(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "commands.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := docMailBlocks(string(doc))
	if len(blocks) < 15 {
		t.Fatalf("%d example mails in docs/commands.md", len(blocks))
	}
	f := newFixture(t)
	boss := f.addServerGM("boss@example.test")
	seen := map[string]bool{}
	for i, b := range blocks {
		from, subj, body := docMail(b[1])
		robot := strings.ToUpper(from[:1]) + from[1:strings.IndexByte(from, '@')]
		_, st := f.state()
		hand := ""
		if k := st.Robot(robot); k >= 0 {
			for _, c := range st.Robots[k].Hand[:5] {
				hand += fmt.Sprintf("P%d ", c)
			}
		}
		code := ""                                                                           // the latest code mailed to the sender for CONFIRM
		for _, m := range append(f.mailsTo(from, "notice"), f.mailsTo(from, "command")...) { // ADDRESS's notice, JOIN's reply
			if c := confirmCode.FindStringSubmatch(textOf(t, m)); c != nil {
				code = c[1]
			}
		}
		body = strings.NewReplacer("SERVER-SECRET", boss, "GM-SECRET", f.secrets[""], "PLAYER-SECRET", f.secrets[robot], "HAND", hand,
			"CONFIRM CODE", "CONFIRM "+code).Replace(body)
		cm, _ := parseCommandMail(body, testReader)
		if cm != nil {
			for _, c := range cm.cmds {
				seen[c.Verb] = true
			}
		}
		f.deliver(rawMail(from, subj, body))
		m, text := f.reply(f.uid)
		if m.Kind == "reject" {
			t.Errorf("example %d (%s): refused:\n%s", i+1, subj, text)
			continue
		}
		checkReplyLines(t, fmt.Sprintf("example %d (%s)", i+1, subj), b[2], text)
	}
	for v := range verbs {
		if !seen[v] {
			t.Errorf("docs/commands.md has no example of %s", v)
		}
	}
}

// TestCommandsThroughRealMail drives every command through the real mail stack
// (Postfix in, Dovecot out; RALLYJUDGE_MAILSTACK=1): alice and bob play, carol is the
// server's and the game's master. Each reply is read from the sender's mailbox, found
// by In-Reply-To, and checked.
func TestCommandsThroughRealMail(t *testing.T) {
	rm := newRealMail(t, "cmd.db")
	send := rm.send
	mailWith := func(user, subjectPart string) string { text, _ := rm.mailWith(user, subjectPart); return text }
	boss := rm.boss
	expect := func(step, text string, want ...string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: reply lacks %q:\n%s", step, w, text)
			}
		}
		if boss != "" && strings.Contains(text, boss) {
			t.Errorf("%s: the reply quotes the game master's secret", step)
		}
	}
	g := "[RR mailgame] "
	expect("help", send("carol", "help", "HELP\n"), "JOIN [GAME] ROBOT", "BROADCAST TEXT")
	expect("create", send("carol", "new", "secret "+boss+"\nCREATE mailgame course=sprint players=3 deadline=48h\n"), "Game mailgame is created")
	sec := map[string]string{}
	for _, u := range []string{"alice", "bob"} {
		robot := strings.ToUpper(u[:1]) + u[1:]
		text := send(u, "join", "JOIN mailgame "+robot+"\n")
		c := confirmCode.FindStringSubmatch(text)
		if c == nil {
			t.Fatalf("join %s: no code to confirm:\n%s", u, text)
		}
		text = send(u, "join", "CONFIRM "+c[1]+"\n")
		expect("join "+u, text, "You have joined game mailgame")
		m := secretInText.FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("join %s: no secret", u)
		}
		sec[u] = m[1]
	}
	expect("list", send("alice", "list", "LIST\n"), "mailgame", "2/3 players")
	expect("start", send("carol", g+"start", "secret "+boss+"\nSTART\n"), "has started with 2 robots (Alice, Bob)")
	hand := handFrom(mailWith("alice", "Welcome, Alice"))
	expect("status", send("alice", g+"status", "secret "+sec["alice"]+"\nSTATUS\n"), "Alice        waiting for orders")
	expect("orders", send("alice", g+"orders", "secret "+sec["alice"]+"\nORDERS\nrobot Alice\n"+strings.Join(hand[:5], " ")+"\n"), "Alice")
	// a deadline some months ahead on the real clock (DEADLINE refuses one past five years)
	dl := time.Now().UTC().AddDate(0, 3, 0)
	dl = time.Date(dl.Year(), dl.Month(), dl.Day(), 12, 0, 0, 0, time.UTC)
	expect("clock", send("carol", g+"clock", "secret "+boss+"\nDEADLINE "+dl.Format("2006-01-02 15:04")+"\nEXTEND 1d\nPAUSE\nRESUME\nSET missed autopilot\n"),
		dl.Format("Mon 2 Jan 2006 15:04 UTC"), dl.AddDate(0, 0, 1).Format("Mon 2 Jan 2006 15:04 UTC"), "is paused", "goes on", "missed orders:   autopilot")
	expect("process", send("carol", g+"go", "secret "+boss+"\nPROCESS\n"), "Turn 1 is resolved")
	expect("resend", send("bob", g+"again", "secret "+sec["bob"]+"\nRESEND 1\nHISTORY\n"), "Your report of turn 1", "Bob sent no orders (autopilot)")
	expect("rollback", send("carol", g+"undo", "secret "+boss+"\nROLLBACK\n"), "Turn 1 is rolled back")
	expect("replace", send("carol", g+"seats", "secret "+boss+"\nREPLACE Bob bob@example.test\nKICK Alice\nBROADCAST Last lap.\n"),
		"Bob is now played from bob@example.test", "Alice was removed", "went to 1 player(s)")
	if m := secretInText.FindStringSubmatch(mailWith("bob", "you now play Bob")); m != nil {
		sec["bob"] = m[1]
	} else {
		t.Fatal("bob got no new secret")
	}
	mailWith("bob", "A message from the game master")
	expect("withdraw", send("bob", g+"bye", "secret "+sec["bob"]+"\nWITHDRAW\n"), "Bob withdrew")
	expect("wrong secret", send("bob", g+"status", "secret not-it\nSTATUS\n"), "did not match")
}

// playersOf lists a game's players.
func (f *fixture) playersOf(tag string) []store.Player {
	f.t.Helper()
	g, _ := f.game(tag)
	var ps []store.Player
	if err := f.j.Store.View(context.Background(), func(tx *store.Tx) error {
		var err error
		ps, err = tx.Players(g.ID)
		return err
	}); err != nil {
		f.t.Fatal(err)
	}
	return ps
}
