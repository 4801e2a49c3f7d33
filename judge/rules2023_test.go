package judge

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/orders"
	"github.com/rallyjudge/rallyjudge/roborally"
	"github.com/rallyjudge/rallyjudge/roborally/demobots"
	"github.com/rallyjudge/rallyjudge/store"
)

// A whole 2023 game by mail: four bots mail 2023 sheets (cards by kind) over SMTP to
// the embedded servers, the judge reads them by IMAP, checks them against each robot's
// hand and Haywire cards, resolves the rounds and mails the reports, until a robot
// wins. Every turn stored replays from its record; the reports show the player mat.
func TestGame2023ByMail(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a 2023 game over local mail servers")
	}
	dir := t.TempDir()
	db := filepath.Join(t.TempDir(), "demo.db")
	var out bytes.Buffer
	res, err := RunDemo(context.Background(), DemoOptions{Game: demobots.New(demobots.Options{Rules: "2023", Bot: demobots.Autopilot}), Seed: 5, Turns: 40, DB: db, SaveMail: dir, Out: &out})
	if err != nil {
		names, _ := filepath.Glob(filepath.Join(dir, "*-reject-*.eml"))
		for _, n := range names {
			raw, _ := os.ReadFile(n)
			t.Logf("%s:\n%s", n, raw)
		}
		t.Fatalf("%v\n%s", err, out.String())
	}
	if res.Winner == "" {
		t.Fatalf("no winner after %d rounds:\n%s", res.Turns, out.String())
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var g store.Game
	var turns []store.Turn
	err = st.View(context.Background(), func(tx *store.Tx) error {
		if g, err = tx.GameByTag("demo"); err != nil {
			return err
		}
		for n := 1; n <= res.Turns; n++ {
			tn, err := tx.Turn(g.ID, n)
			if err != nil {
				return err
			}
			turns = append(turns, tn)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if r := gameRules(g); !r.Own() || r.Name != "2023" {
		t.Fatalf("the demo game plays the %q rules", r.Name)
	}
	// Every turn replays bit for bit from its record (orders.Played), the way archives
	// and `rallyjudge check` replay it.
	j, err := New(st, "judge@example.test", nil)
	if err != nil {
		t.Fatal(err)
	}
	setup, err := j.setupFor(g)
	if err != nil {
		t.Fatal(err)
	}
	missed := 0
	kinds := map[string]int{} // how often each upgrade event happened: draw, install, use
	for _, tn := range turns {
		var events []adjudicator.Event
		mustJSON(t, testEventsJSON(tn), &events)
		for _, e := range events {
			switch e.Kind {
			case adjudicator.EvUpgrade:
				kinds[e.Cause]++
			case adjudicator.EvUse:
				kinds["use"]++
			}
		}
		var before adjudicator.State
		mustJSON(t, testBeforeJSON(t, j, tn), &before)
		var played []orders.Played
		mustJSON(t, testPlayedJSON(tn), &played)
		ords := make([]adjudicator.Orders, len(played))
		for i, p := range played {
			ords[i] = p.Orders()
			if p.Missed != "" {
				missed++
			}
		}
		next, _, err := adjudicator.Resolve(setup, &before, ords)
		if err != nil {
			t.Fatalf("turn %d does not replay: %v", tn.Number, err)
		}
		if got, _ := json.Marshal(next); string(got) != string(testAfterJSON(tn)) {
			t.Errorf("turn %d replays to another state", tn.Number)
		}
	}
	// The bots buy, install and use upgrades (seed 004, Phase 1; autopilot/rules2023.go).
	if kinds["draw"] == 0 || kinds["install"] == 0 || kinds["use"] == 0 {
		t.Errorf("upgrade events %v: want the bots to draw, install and use upgrades", kinds)
	}
	if missed > 0 {
		t.Errorf("%d programs were missed: every bot's sheet should have been valid", missed)
	}
	// The reports: a player mat, the hand by kind, the 2023 events told.
	names, _ := filepath.Glob(filepath.Join(dir, "*-report-*.eml"))
	sort.Strings(names)
	if len(names) == 0 {
		t.Fatal("no reports saved")
	}
	all := ""
	for _, n := range names {
		raw, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		all += string(raw)
	}
	for _, want := range []string{"YOUR PLAYER MAT", "energy", "draw pile", "discard pile", "priority token"} {
		if !strings.Contains(all, want) {
			t.Errorf("no report says %q", want)
		}
	}
	if strings.Contains(all, " P1 ") || strings.Contains(all, "\n  P2 ") {
		t.Errorf("a 2023 report names a card by priority")
	}
}

// newFixture2023 is newFixture for a 2023 game on docking-run with the missed-orders
// policy missed ("" for the default) and the variants given (CREATE's keys).
func newFixture2023(t *testing.T, missed string, variants ...string) *fixture {
	t.Helper()
	f := newJudgeFixture(t)
	settings := map[string]string{"course": "docking-run", "rules": "2023"}
	for _, v := range variants {
		settings[v] = "yes"
	}
	if missed != "" {
		settings["missed"] = missed
	}
	f.createGame(GameSpec{Tag: "spring", Settings: settings, Seed: 42, GMEmail: "gm@example.test",
		Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}})
	return f
}

// sheet2023 is a valid 2023 sheet for robot: the first five cards of its hand by kind.
func (f *fixture) sheet2023(robot, extra string) string {
	_, st := f.state()
	r := st.Robots[st.Robot(robot)]
	var prog [adjudicator.Registers]int
	copy(prog[:], r.Hand[:5])
	return fmt.Sprintf("robot %s\nturn %d\nsecret %s\n%s\n%s", robot, st.Turn, f.secrets[robot], roborally.OwnProgramText(prog), extra)
}

// A 2023 sheet with errors gets every error in one reply and changes nothing; a valid
// one is acknowledged with the player mat and the forecast.
func TestSheet2023ByMail(t *testing.T) {
	f := newFixture2023(t, "")
	_, st := f.state()
	r := st.Robots[0]
	missing := ""
	for _, k := range []adjudicator.CardKind{adjudicator.CardMove3, adjudicator.CardMove2, adjudicator.CardMove1, adjudicator.CardUTurn, adjudicator.CardBackUp} {
		if !slices.Contains(r.Hand, int(k)) {
			missing = k.Title()
			break
		}
	}
	if missing == "" {
		t.Fatalf("hand %v holds every kind tried", r.Hand)
	}
	for _, bad := range []struct{ program, extra, want string }{
		{fmt.Sprintf("%s, %s, %s, %s, %s", adjudicator.CardKind(r.Hand[0]).Title(), missing, adjudicator.CardKind(r.Hand[1]).Title(),
			adjudicator.CardKind(r.Hand[2]).Title(), adjudicator.CardKind(r.Hand[3]).Title()), "install Zoop\n",
			missing + " is not in your hand|Zoop is not among your uninstalled upgrades|you hold "},
		{"P490, P500, P510, P520, P530", "", "2023 cards have no priority numbers"},
		{"Move 1, Move 1, Move 1, Move 1", "", "expected 5 cards"},
	} {
		f.deliver(rawMail("twonky@example.test", "[RR spring] orders", fmt.Sprintf("robot Twonky\nturn 1\nsecret %s\n%s\n%s", f.secrets["Twonky"], bad.program, bad.extra)))
		m, text := f.reply(f.uid)
		if m.Kind != "reject" {
			t.Fatalf("%s: reply kind %s:\n%s", bad.program, m.Kind, text)
		}
		for _, want := range strings.Split(bad.want, "|") {
			if !strings.Contains(text, want) {
				t.Errorf("the reply lacks %q:\n%s", want, text)
			}
		}
	}
	if g, _ := f.state(); g.CurrentTurn != 1 {
		t.Fatalf("turn %d after refused sheets", g.CurrentTurn)
	}
	// A valid sheet with an upgrade draw: acknowledged with the mat and the forecast.
	f.deliver(rawMail("twonky@example.test", "[RR spring] orders", f.sheet2023("Twonky", "draw upgrade\n")))
	m, text := f.reply(f.uid)
	if m.Kind != "ack" {
		t.Fatalf("reply kind %s:\n%s", m.Kind, text)
	}
	for _, want := range []string{"YOUR PLAYER MAT AS THE ROUND BEGINS", "energy 3", "register 1: " + adjudicator.CardKind(r.Hand[0]).Title(), "FORECAST", "draw upgrade", "SPAM risk", "Energy: 3 now"} {
		if !strings.Contains(text, want) {
			t.Errorf("the ack lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "P490") || strings.Contains(text, ": P") {
		t.Errorf("the ack names a 2023 card by priority:\n%s", text)
	}
}

// Missed orders in a 2023 game follow the game's policy: the default shuts the robot
// down for the round, Act Fast fills its registers at random from its hand, the
// autopilot plays for it; a sheet that only shuts down needs no program. Each turn's
// record replays.
func TestMissedOrders2023(t *testing.T) {
	for _, tc := range []struct {
		name, missed string
		variants     []string
		want         string // Played.Missed for Zoombot
		note         string
	}{
		{name: "shutdown", missed: "", want: "powerdown", note: "Zoombot sent no orders: it is shut down this round."},
		{name: "act fast", variants: []string{"act-fast"}, want: "random", note: "Act Fast filled its registers at random from its hand"},
		{name: "autopilot", missed: MissedAutopilot, want: MissedAutopilot, note: "Zoombot sent no orders: the autopilot played"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture2023(t, tc.missed, tc.variants...)
			g0, before := f.state()
			// What reminders and STATUS tell the player will happen.
			want := map[string]string{"powerdown": "shuts down for the round", "random": "Act Fast", MissedAutopilot: "autopilot"}[tc.want]
			if !strings.Contains(f.j.missedRule(g0), want) {
				t.Errorf("policy text %q, want it to say %q", f.j.missedRule(g0), want)
			}
			f.deliver(rawMail("twonky@example.test", "[RR spring] orders", f.sheet2023("Twonky", "")))
			// Hulk shuts down: a sheet without a program, which is enough.
			f.deliver(rawMail("hulk@example.test", "[RR spring] orders", fmt.Sprintf("robot Hulk\nturn 1\nsecret %s\nshut down\n", f.secrets["Hulk"])))
			if m, text := f.reply(f.uid); m.Kind != "ack" {
				t.Fatalf("a shutdown sheet: %s\n%s", m.Kind, text)
			}
			g, _ := f.state()
			if g.CurrentTurn != 1 {
				t.Fatalf("turn %d resolved before the deadline with Zoombot's orders missing", g.CurrentTurn)
			}
			f.now = f.now.Add(25 * time.Hour)
			if n, err := f.j.Tick(context.Background()); err != nil || n != 1 {
				t.Fatalf("tick: %d, %v", n, err)
			}
			var tn store.Turn
			if err := f.j.Store.View(context.Background(), func(tx *store.Tx) error {
				var err error
				tn, err = tx.Turn(g.ID, 1)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			var played []orders.Played
			mustJSON(t, testPlayedJSON(tn), &played)
			z := played[before.Robot("Zoombot")]
			if z.Missed != tc.want {
				t.Errorf("Zoombot played %+v, want missed %q", z, tc.want)
			}
			hand := before.Robots[before.Robot("Zoombot")].Hand
			switch tc.want {
			case "powerdown":
				if !z.Shutdown || z.Program != ([adjudicator.Registers]int{}) {
					t.Errorf("Zoombot %+v: want shut down with no program", z)
				}
			default:
				left := slices.Clone(hand)
				for _, c := range z.Program {
					k := slices.Index(left, c)
					if c == 0 || k < 0 {
						t.Fatalf("Zoombot's program %v is not from its hand %v", z.Program, hand)
					}
					left = slices.Delete(left, k, k+1)
				}
			}
			if h := played[before.Robot("Hulk")]; !h.Shutdown || h.Missed != "" {
				t.Errorf("Hulk %+v: want its own shutdown", h)
			}
			var events []adjudicator.Event
			mustJSON(t, testEventsJSON(tn), &events)
			shut := map[string]bool{}
			for _, e := range events {
				if e.Kind == adjudicator.EvShutdown {
					shut[e.Robot] = true
				}
			}
			if !shut["Hulk"] || shut["Zoombot"] != (tc.want == "powerdown") {
				t.Errorf("shut down: %v", shut)
			}
			// The record replays.
			setup, err := f.j.setupFor(g)
			if err != nil {
				t.Fatal(err)
			}
			var b adjudicator.State
			mustJSON(t, testBeforeJSON(t, f.j, tn), &b)
			ords := make([]adjudicator.Orders, len(played))
			for i, p := range played {
				ords[i] = p.Orders()
			}
			next, _, err := adjudicator.Resolve(setup, &b, ords)
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := json.Marshal(next); string(got) != string(testAfterJSON(tn)) {
				t.Error("the turn does not replay from its record")
			}
			// Zoombot's report says what was played for it.
			ms := f.mailsTo("zoombot@example.test", "report")
			if len(ms) == 0 || !strings.Contains(textOf(t, ms[len(ms)-1]), tc.note) {
				t.Errorf("Zoombot's report does not say %q", tc.note)
			}
		})
	}
}

func optionsOfGame(f *fixture, g store.Game) (Options, error) {
	var o Options
	err := f.j.Store.View(context.Background(), func(tx *store.Tx) error {
		var err error
		o, err = f.j.optionsOf(tx, g)
		return err
	})
	return o, err
}
