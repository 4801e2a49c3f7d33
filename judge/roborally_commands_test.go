package judge

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/archive"
	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/roborally"
	"github.com/rallyjudge/rallyjudge/store"
	"github.com/rallyjudge/rallyjudge/templates"
)

// twoPaths is one RoboRally game (game spring: roborally.Kind behind the seam) whose
// replies, states and summaries are held against a transcript (transcript_test.go)
// recorded when the judge's own RoboRally path answered the same mails byte for byte:
// old is what the transcript recorded, seam what the judge answers now.
type twoPaths struct {
	t     *testing.T
	tr    *transcript
	seam  *fixture
	rules *adjudicator.Rules
}

// newTwoPaths creates the game (Twonky, Zoombot, Hulk; game master gm@example.test)
// under the postal rules or (own) the 2023 rules.
func newTwoPaths(t *testing.T, own bool) *twoPaths {
	t.Helper()
	tp := &twoPaths{t: t, tr: newTranscript(t), seam: newJudgeFixture(t)}
	kv := map[string]string{"course": "sprint"}
	if own {
		r := adjudicator.Rules2023()
		tp.rules, kv = &r, map[string]string{"course": "docking-run", "rules": "2023"}
	}
	dl := store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}
	k := roborally.Kind{}
	tp.seam.j.Games = append(game.Catalog{k}, tp.seam.j.Games...)
	cfg, err := k.Configure(kv)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := cfg.Encode()
	tp.seam.createGame(GameSpec{Tag: "spring", Kind: "roborally", Config: raw, Seed: 42, GMEmail: "gm@example.test", Deadline: dl})
	return tp
}

// sheet is robot's valid sheet for the turn being played, with extra lines below it.
func (tp *twoPaths) sheet(robot, extra string) string {
	tp.t.Helper()
	if tp.rules == nil {
		return tp.seam.sheet(robot, extra)
	}
	_, st := tp.seam.state()
	prog := roborally.RandomProgram(tp.seam.j.mustSetup(tp.t, "spring"), st, st.Robot(robot), 5, st.Turn)
	return fmt.Sprintf("robot %s\nturn %d\nsecret %s\n%s\n%s", robot, st.Turn, tp.seam.secrets[robot], roborally.OwnProgramText(prog), extra)
}

// step is one mail sent to both games: from whom (a robot's player, "gm", or an
// address), and its body, in which SECRET stands for the sender's secret.
type step struct {
	from, body string
}

// send sends one mail to the game and returns the reply the transcript recorded for it
// (old) and the judge's (seam), the game's secrets written as SECRET.
func (tp *twoPaths) send(s step) (old, seam string) {
	tp.t.Helper()
	f := tp.seam
	addr, sec := s.from, ""
	switch {
	case s.from == "gm":
		addr, sec = "gm@example.test", f.secrets[""]
	case !strings.Contains(s.from, "@"):
		addr, sec = strings.ToLower(s.from)+"@example.test", f.secrets[s.from]
	}
	body := strings.ReplaceAll(s.body, "SECRET", sec)
	_, text := f.send(addr, "[RR spring] mail", body)
	for _, v := range f.secrets {
		if v != "" {
			text = strings.ReplaceAll(text, v, "SECRET")
		}
	}
	return tp.tr.see(fmt.Sprintf("reply to %s: %s", s.from, strings.SplitN(s.body, "\n", 2)[0]), text), text
}

// tick moves the judge's clock by d and runs its clock's work.
func (tp *twoPaths) tick(d time.Duration) {
	tp.t.Helper()
	tp.seam.now = tp.seam.now.Add(d)
	if _, err := tp.seam.j.Tick(context.Background()); err != nil {
		tp.t.Fatal(err)
	}
}

// sameState holds the game's turn and engine state against the transcript's.
func (tp *twoPaths) sameState(when string) {
	tp.t.Helper()
	g, _ := tp.seam.game("spring")
	tp.tr.same("the game "+when, fmt.Sprintf("turn %d, %s; state %s", g.CurrentTurn, g.Status, digest(tp.stateBytes(tp.seam))))
}

// diffLines is where two texts part, line by line, for a test's failure.
func diffLines(old, seam string) string {
	a, b := strings.Split(old, "\n"), strings.Split(seam, "\n")
	var out strings.Builder
	for i := 0; i < max(len(a), len(b)); i++ {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			fmt.Fprintf(&out, "line %d:\n  old:  %q\n  seam: %q\n", i+1, x, y)
		}
	}
	return out.String()
}

// Every command the judge answers for a RoboRally game on its own path it answers the
// same for a roborally.Kind game on the generic path: the same mails to the two games
// get the same replies, word for word, postal and 2023.
func TestRoboRallyCommandsThroughTheSeamAnswerTheSame(t *testing.T) {
	type tcase struct {
		name  string
		setup []step // sent to both, replies not compared
		turns int    // turns played (every robot's sheet) after setup
		steps []step // replies compared
	}
	cases := []tcase{
		{name: "STATUS by a player", steps: []step{{"Twonky", "secret SECRET\nSTATUS\n"}}},
		{name: "STATUS by the game master", steps: []step{{"gm", "secret SECRET\nSTATUS\n"}}},
		{name: "STATUS after a sheet", setup: []step{{"Twonky", "SHEET"}}, steps: []step{{"Zoombot", "secret SECRET\nSTATUS\n"}, {"gm", "secret SECRET\nSTATUS\n"}}},
		{name: "STATUS after a turn", turns: 1, steps: []step{{"Hulk", "secret SECRET\nSTATUS\n"}}},
		{name: "HISTORY", turns: 2, steps: []step{{"Hulk", "secret SECRET\nHISTORY\n"}}},
		{name: "the ack of a sheet", steps: []step{{"Twonky", "SHEET"}, {"Zoombot", "SHEET"}}},
		{name: "the ack of a sheet with standing orders", steps: []step{{"Twonky", "SHEET if damage > 2 power down\n"}}},
		{name: "a sheet refused", steps: []step{{"Twonky", "robot Twonky\nturn 1\nsecret SECRET\nP495\nP10 frobnicate\n"}}},
		{name: "a sheet for another turn", steps: []step{{"Twonky", "robot Twonky\nturn 3\nsecret SECRET\nP495\n"}}},
		{name: "a sheet without a secret", steps: []step{{"Zoombot", "robot Zoombot\nP490\n"}, {"Zoombot", "robot Zoombot\nP490 frobnicate\n"}}},
		{name: "KICK", steps: []step{{"gm", "secret SECRET\nKICK Hulk\n"}, {"gm", "secret SECRET\nSTATUS\n"}}},
		{name: "WITHDRAW", steps: []step{{"Hulk", "secret SECRET\nWITHDRAW\n"}, {"Twonky", "secret SECRET\nSTATUS\n"}}},
		{name: "REPLACE", steps: []step{{"gm", "secret SECRET\nREPLACE Hulk new@example.test\n"}}},
		{name: "WAIT and NOWAIT", steps: []step{{"Zoombot", "secret SECRET\nWAIT\n"}, {"Twonky", "secret SECRET\nSTATUS\n"}, {"Zoombot", "secret SECRET\nNOWAIT\n"}}},
		{name: "SET missed", steps: []step{{"gm", "secret SECRET\nSET missed random\n"}, {"gm", "secret SECRET\nSET missed autopilot\n"}}},
		{name: "SET players", steps: []step{{"gm", "secret SECRET\nSET players 5\n"}}},
		{name: "SET rules", steps: []step{{"gm", "secret SECRET\nSET rules 2023\n"}}},
		{name: "SET deadline", steps: []step{{"gm", "secret SECRET\nSET deadline 36h\n"}}},
		{name: "PAUSE and RESUME", steps: []step{{"gm", "secret SECRET\nPAUSE\n"}, {"gm", "secret SECRET\nRESUME\n"}}},
		{name: "PROCESS", steps: []step{{"gm", "secret SECRET\nPROCESS\n"}}},
		// a rolled-back turn is played again at the deadline or PROCESS, so that new
		// orders count, as the rollback notice tells the players
		{name: "ROLLBACK", turns: 1, steps: []step{{"gm", "secret SECRET\nROLLBACK\n"}}},
		// a game behind the seam has no course in its row: LIST names its game
		// a robot powered down this turn: its player says whether it stays down (the
		// turn waits for it: absence.go), and the others see it in STATUS
		{name: "a powered-down robot", setup: []step{{"Zoombot", "SHEET"}, {"Hulk", "SHEET"}, {"Twonky", "SHEET power down\n"}},
			steps: []step{{"Zoombot", "secret SECRET\nSTATUS\n"}, {"Twonky", "robot Twonky\nsecret SECRET\nstay down\n"}, {"Zoombot", "SHEET"}, {"Hulk", "SHEET"}, {"Hulk", "secret SECRET\nSTATUS\n"}}},
		{name: "a powered-down robot comes back up", setup: []step{{"Zoombot", "SHEET"}, {"Hulk", "SHEET"}, {"Twonky", "SHEET power down\n"}},
			steps: []step{{"Twonky", "robot Twonky\nsecret SECRET\ncome back up\n"}, {"Zoombot", "SHEET"}, {"Hulk", "SHEET"}, {"Twonky", "secret SECRET\nSTATUS\n"}}},
		{name: "LIST", steps: []step{{"someone@example.test", "LIST\n"}}},
	}
	for _, own := range []bool{false, true} {
		rules := "postal"
		if own {
			rules = "2023"
		}
		for _, tc := range cases {
			t.Run(rules+"/"+tc.name, func(t *testing.T) {
				tp := newTwoPaths(t, own)
				fill := func(s step) step {
					if r, extra, ok := strings.Cut(s.body, "SHEET"); ok && r == "" {
						s.body = tp.sheet(s.from, strings.TrimSpace(extra)+"\n")
					}
					return s
				}
				for _, s := range tc.setup {
					tp.send(fill(s))
				}
				for range tc.turns {
					_, st := tp.seam.state()
					for _, r := range st.Robots {
						if roborally.NeedsProgram(r) {
							tp.send(fill(step{r.Name, "SHEET"}))
						}
					}
				}
				for i, s := range tc.steps {
					old, seam := tp.send(fill(s))
					if testing.Verbose() {
						t.Logf("step %d: %s", i+1, seam)
					}
					if old != seam {
						t.Errorf("step %d (%s: %q): the replies differ:\n%s\n--- old:\n%s\n--- seam:\n%s", i+1, s.from, strings.SplitN(s.body, "\n", 2)[0], diffLines(old, seam), old, seam)
					}
				}
				// and the game is the same after the mails (SET, KICK, a robot that stays down)
				tp.sameState("after the mails")
			})
		}
	}
}

// stateBytes is the engine's state of game spring as stored: the roborally position's.
func (tp *twoPaths) stateBytes(f *fixture) []byte {
	tp.t.Helper()
	var b []byte
	err := f.j.Store.View(context.Background(), func(tx *store.Tx) error {
		g, err := tx.GameByTag("spring")
		if err != nil {
			return err
		}
		k, err := f.j.hostedKind(g)
		if err != nil || k == nil {
			return fmt.Errorf("game spring is not hosted: %v", err)
		}
		h, err := f.j.hostedState(tx, g, k)
		if err != nil {
			return err
		}
		pb, err := h.pos.Encode()
		if err != nil {
			return err
		}
		var p struct {
			State json.RawMessage `json:"state"`
		}
		if err := json.Unmarshal(pb, &p); err != nil {
			return err
		}
		var st adjudicator.State
		if err := json.Unmarshal(p.State, &st); err != nil {
			return err
		}
		b, err = json.Marshal(&st)
		return err
	})
	if err != nil {
		tp.t.Fatal(err)
	}
	return b
}

// A game master's SET of the missed-orders policy counts on both paths: after SET
// missed random (postal) or autopilot (2023) a missed program is played by it, and
// the two games are the same state after the deadline; the seam's game still replays
// from its archive.
func TestRoboRallySetMissedThroughTheSeam(t *testing.T) {
	for _, tc := range []struct {
		name   string
		own    bool
		policy string
	}{
		{"postal", false, "random"},
		{"2023", true, "autopilot"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tp := newTwoPaths(t, tc.own)
			old, seam := tp.send(step{"gm", "secret SECRET\nSET missed " + tc.policy + "\n"})
			if old != seam || !strings.Contains(seam, "is set") {
				t.Fatalf("SET missed:\n%s", diffLines(old, seam))
			}
			for turn := 1; turn <= 2; turn++ {
				tp.send(step{"Twonky", tp.sheet("Twonky", "")}) // Zoombot and Hulk miss theirs
				tp.tick(25 * time.Hour)
				tp.sameState(fmt.Sprintf("after turn %d", turn))
			}
			if g, _ := tp.seam.state(); g.CurrentTurn != 3 {
				t.Fatalf("the judge's game is at turn %d, want 3", g.CurrentTurn)
			}
			var h archive.Hosted
			if err := tp.seam.j.Store.View(context.Background(), func(tx *store.Tx) (err error) {
				g, err := tx.GameByTag("spring")
				if err != nil {
					return err
				}
				h, err = archive.HostedFromStore(tx, g.ID)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			if err := archive.ReplayHosted(&h, tp.seam.j.Games, nil); err != nil {
				t.Fatalf("the seam's game does not replay from its archive: %v", err)
			}
		})
	}
}

// The game masters' summary of each turn (who was in, who was late and what was played
// for them, who is out) is the same mail on both paths: a turn with every program in,
// one with two programs missed at the deadline, one after a KICK with a robot
// powered down.
func TestRoboRallyTurnSummaryThroughTheSeam(t *testing.T) {
	for _, own := range []bool{false, true} {
		t.Run(map[bool]string{false: "postal", true: "2023"}[own], func(t *testing.T) {
			tp := newTwoPaths(t, own)
			all := func(extra map[string]string) {
				_, st := tp.seam.state()
				for _, r := range st.Robots {
					if roborally.NeedsProgram(r) && len(r.Hand) > 0 && r.Name != "Hulk" {
						tp.send(step{r.Name, tp.sheet(r.Name, extra[r.Name])})
					}
				}
			}
			all(nil)
			tp.send(step{"Twonky", tp.sheet("Twonky", "")})
			tp.tick(25 * time.Hour) // Zoombot and Hulk missed
			tp.send(step{"gm", "secret SECRET\nKICK Hulk\n"})
			down := "power down\n"
			if own {
				down = "shut down\n"
			}
			all(map[string]string{"Zoombot": down})
			tp.tick(25 * time.Hour)
			summaries := func(f *fixture) []string {
				var out []string
				for _, m := range f.mailsTo("gm@example.test", "gm-notice") {
					if strings.Contains(m.Subject, "summary") {
						out = append(out, m.Subject+"\n"+textOf(t, m))
					}
				}
				return out
			}
			seam := summaries(tp.seam)
			if len(seam) < 3 {
				t.Fatalf("the game mailed %d summaries, want at least 3", len(seam))
			}
			for i := range seam {
				tp.tr.same(fmt.Sprintf("summary %d", i+1), seam[i])
			}
		})
	}
}

// A game that opens for players answers the same on both paths: a JOIN's CONFIRM,
// START, PAUSE and RESUME (the game's words: robots, the first hand, programs).
func TestRoboRallyOpenGameThroughTheSeam(t *testing.T) {
	secretIs := regexp.MustCompile(`Your secret is: \S+`)
	for _, own := range []bool{false, true} {
		t.Run(map[bool]string{false: "postal", true: "2023"}[own], func(t *testing.T) {
			tp := &twoPaths{t: t, tr: newTranscript(t), seam: newJudgeFixture(t)}
			kv := map[string]string{"course": "sprint"}
			if own {
				r := adjudicator.Rules2023()
				tp.rules, kv = &r, map[string]string{"course": "docking-run", "rules": "2023"}
			}
			k := roborally.Kind{}
			tp.seam.j.Games = append(game.Catalog{k}, tp.seam.j.Games...)
			cfg, err := k.Configure(kv)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := cfg.Encode()
			dl := store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}
			spec := GameSpec{Tag: "spring", Kind: "roborally", Config: raw, Seed: 42, GMEmail: "gm@example.test", Deadline: dl}
			f := tp.seam
			if err := f.j.Store.Tx(context.Background(), func(tx *store.Tx) (err error) {
				_, f.secrets, err = f.j.createGameIn(tx, spec)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			same := func(what, seam string) {
				t.Helper()
				tp.tr.same(what, secretIs.ReplaceAllString(seam, "SECRET"))
			}
			for _, robot := range []string{"Rusty", "Dusty"} {
				got := f.joinConfirmed(strings.ToLower(robot)+"@example.test", "[RR spring] join", "JOIN spring "+robot+"\n")
				same("CONFIRM of "+robot, got)
				mustContain(t, "the seam's CONFIRM", got, "with the robot "+robot, "your robot's\nfirst hand")
			}
			want := map[string]string{"STATUS": "2 of ", "START": "has started with 2 robots (Rusty, Dusty). Each player has the first hand",
				"PAUSE": "is paused", "RESUME": "goes on"}
			for _, cmd := range []string{"STATUS", "START", "PAUSE", "RESUME"} {
				old, seam := tp.send(step{"gm", "secret SECRET\n" + cmd + "\n"})
				if old != seam {
					t.Errorf("%s: the reply differs from the transcript's:\n%s", cmd, diffLines(old, seam))
				}
				mustContain(t, "the seam's "+cmd, seam, want[cmd])
			}
		})
	}
}

// An operator's acknowledgement template that breaks fails the mail behind the seam as
// on the old path (TestBatchAckTemplateFails): kept as failed, with no sheet version
// and no acknowledgement; the other sheet of the batch is stored and acknowledged.
func TestRoboRallyAckTemplateFailsThroughTheSeam(t *testing.T) {
	tp := newTwoPaths(t, false)
	f := tp.seam
	dir := t.TempDir()
	over := "{{if eq .Robot \"Twonky\"}}{{index .Warnings 99}}{{end}}Orders of {{.Robot}} received.\n"
	if err := os.WriteFile(filepath.Join(dir, "ack.txt.tmpl"), []byte(over), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := templates.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	f.j.Templates = set
	seamSheet := func(robot string) string { return tp.sheet(robot, "") }
	batch := []mail.Fetched{
		{UID: 1, Raw: rawMail("twonky@example.test", "[RR spring] orders", seamSheet("Twonky")), Received: f.now},
		{UID: 2, Raw: rawMail("zoombot@example.test", "[RR spring] orders", seamSheet("Zoombot")), Received: f.now},
	}
	for i, err := range f.j.HandleBatch(context.Background(), 7, batch) {
		if err != nil {
			t.Fatalf("mail %d: %v", i, err)
		}
	}
	if row := f.inboxStatus(1); row.Status != store.InboxFailed {
		t.Errorf("the mail whose acknowledgement broke: %s (%s), want failed", row.Status, row.Note)
	}
	if row := f.inboxStatus(2); row.Status != store.InboxProcessed {
		t.Errorf("the other mail: %s (%s), want processed", row.Status, row.Note)
	}
	if acks := f.mailsTo("twonky@example.test", "ack"); len(acks) != 0 {
		t.Errorf("%d acknowledgements to Twonky, want none", len(acks))
	}
	if acks := f.mailsTo("zoombot@example.test", "ack"); len(acks) != 1 || !strings.Contains(textOf(t, acks[0]), "Orders of Zoombot received.") {
		t.Errorf("Zoombot's acknowledgement: %d, want 1 from the operator's template", len(acks))
	}
	g, _ := f.game("spring")
	if err := f.j.Store.View(context.Background(), func(tx *store.Tx) error {
		vs, err := tx.OrderVersions(g.ID, 1, "Twonky")
		if err == nil && len(vs) != 0 {
			t.Errorf("Twonky: %d sheet versions, want 0", len(vs))
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
}
