package rja

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/autopilot"
	"github.com/rallyjudge/rallyjudge/orders"
)

// play2023 plays a 2023 game of autopilot bots on the docking run and records it as the
// judge does: each bot's plan written as an order sheet (autopilot.Plan.SheetLines), read
// (orders.Parse), played as the judge plays it (Sheet.OwnOrders) and kept as the program
// played and the sheet's orders (orders.Played). The bots buy, install and use upgrades,
// shut down and reboot, so the record carries all of it.
func play2023(tb testing.TB, rules adjudicator.Rules, robots, rounds int, seed int64) Archive {
	tb.Helper()
	c, err := adjudicator.LoadCourse("docking-run")
	if err != nil {
		tb.Fatal(err)
	}
	inline, err := Inline(c, adjudicator.LoadBoard)
	if err != nil {
		tb.Fatal(err)
	}
	setup, err := adjudicator.NewSetup(c, rules, uint64(seed), nil)
	if err != nil {
		tb.Fatal(err)
	}
	rulesJSON, _ := json.Marshal(rules)
	names := []string{"Twonky", "Zoombot", "Hulk", "Spinbot"}[:robots]
	st, _, err := adjudicator.NewGame(setup, names)
	if err != nil {
		tb.Fatal(err)
	}
	a := Archive{Game: "r23", Course: inline, Rules: rulesJSON, Options: setup.Options, Seed: seed, Robots: names}
	a.Turns = append(a.Turns, Turn{Turn: 0, Hash: Hash(st)})
	p := autopilot.New(setup)
	for n := 1; n <= rounds && !st.Over; n++ {
		played := make([]Played, len(st.Robots))
		ords := make([]adjudicator.Orders, len(st.Robots))
		for i := range st.Robots {
			r := &st.Robots[i]
			plan := p.Choose(st, i)
			text := fmt.Sprintf("Robot: %s\nTurn: %d\n%s\n", r.Name, st.Turn, strings.Join(plan.SheetLines(setup, r), "\n"))
			sheet, err := orders.Parse([]byte(text))
			if err != nil {
				tb.Fatalf("round %d: %v\n%s", n, err, text)
			}
			ords[i] = sheet.OwnOrders(r)
			rulesOnly := *sheet
			rulesOnly.Program = nil
			played[i] = Played{Robot: r.Name, Program: ords[i].Program, Sheet: &rulesOnly}
		}
		next, _, err := adjudicator.Resolve(setup, st, ords)
		if err != nil {
			tb.Fatalf("round %d: %v", n, err)
		}
		a.Turns = append(a.Turns, Turn{Turn: n, Orders: played, Hash: Hash(next)})
		st = next
	}
	a.Count = len(a.Turns)
	return a
}

// A 2023 game archives and replays bit for bit: the header carries the ruleset and its
// settings, the turns the orders played (upgrade phase, uses, shutdown, reboot facing),
// and an archive written again from the replay is the same bytes.
func TestArchive2023(t *testing.T) {
	dynamic := adjudicator.Rules2023()
	dynamic.DynamicArchive = true
	for _, tc := range []struct {
		name     string
		rules    adjudicator.Rules
		settings []string // in the header's rules
	}{
		{"2023", adjudicator.Rules2023(), []string{`"name":"2023"`, `"energy_start":3`, `"energy_max":10`, `"cards":"own"`}},
		{"dynamic archiving", dynamic, []string{`"name":"2023"`, `"dynamic_archive":true`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The game is the first seeded one whose replay holds a draw, an install and
			// a use: which cards the autopilot plays, and when a robot wins, change with
			// the autopilot, and a game over before anyone used a card tests nothing of
			// uses. Every game tried must still archive and replay bit for bit.
			for seed := int64(7); ; seed++ {
				if archive2023Replays(t, tc.rules, seed, tc.settings) {
					break
				}
				if seed == 7+20 {
					t.Fatalf("no game of seeds 7 to %d replayed a draw, an install and a use: the archive does not carry them", seed)
				}
			}
		})
	}
}

// archive2023Replays plays a 2023 game of seed with 4 robots for up to 12 rounds,
// archives it and checks that the header names the settings, that the replay writes the
// same archive again, and that an upgrade order changed is refused at its turn. It
// reports whether the replay held a draw, an install and a use.
func archive2023Replays(t *testing.T, rules adjudicator.Rules, seed int64, settings []string) bool {
	t.Helper()
	a := play2023(t, rules, 4, 12, seed)
	b := encode(t, a)
	header := string(b[:bytes.IndexByte(b[bytes.IndexByte(b, '\n')+1:], '\n')+bytes.IndexByte(b, '\n')+1])
	for _, s := range settings {
		if !strings.Contains(header, s) {
			t.Errorf("the header lacks %s", s)
		}
	}
	got, err := Read(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	again := Archive{Game: got.Game, Course: got.Course, Rules: got.Rules, Options: got.Options, Seed: got.Seed, Robots: got.Robots}
	used := map[string]bool{}
	err = Replay(&got, nil, -1, func(s Step) error {
		again.Turns = append(again.Turns, Turn{Turn: s.Turn, Orders: s.Played, Hash: s.Hash})
		for _, e := range s.Events {
			switch e.Kind {
			case adjudicator.EvUpgrade:
				used[e.Cause] = true
			case adjudicator.EvUse, adjudicator.EvShutdown, adjudicator.EvReboot, adjudicator.EvReenter:
				used[e.Kind] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if out := encode(t, again); !bytes.Equal(out, b) {
		t.Fatalf("the archive written from the replay differs from the archive (%d and %d bytes)", len(out), len(b))
	}
	t.Logf("seed %d, %d rounds; the replay played: %v", seed, len(a.Turns)-1, used)
	ok := used["draw"] && used["install"] && used[adjudicator.EvUse]
	// A changed upgrade order is not the game: the replay names the turn.
	for n := 1; n < len(got.Turns); n++ {
		if s := got.Turns[n].Orders[0].Sheet; s != nil && !s.Orders().Upgrade.Empty() {
			bad := got
			bad.Turns = append([]Turn(nil), got.Turns...)
			ps := append([]Played(nil), bad.Turns[n].Orders...)
			sheet := *ps[0].Sheet
			sheet.Rules = nil
			ps[0].Sheet = &sheet
			bad.Turns[n].Orders = ps
			var re *ReplayError
			if err := Replay(&bad, nil, -1, nil); err == nil || !errors.As(err, &re) || re.Turn != n {
				t.Errorf("round %d without its upgrade orders: %v", n, err)
			}
			break
		}
	}
	return ok
}

// The replay page of a 2023 game shows each robot's energy, checkpoints and upgrades.
func TestHTML2023(t *testing.T) {
	a := play2023(t, adjudicator.Rules2023(), 4, 6, 7)
	got, err := Read(bytes.NewReader(encode(t, a)))
	if err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	if err := WriteHTML(&page, &got, HTMLOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	data := regexp.MustCompile(`const D = (\{.*\});`).FindSubmatch(page.Bytes())
	if data == nil {
		t.Fatal("no data in the page")
	}
	var d struct {
		Own   bool `json:"own"`
		Turns []struct {
			F []struct {
				E []int      `json:"e"`
				U [][]string `json:"u"`
			} `json:"f"`
		} `json:"turns"`
	}
	if err := json.Unmarshal(data[1], &d); err != nil {
		t.Fatal(err)
	}
	if !d.Own {
		t.Fatal("the page does not know the game is of the 2023 rules")
	}
	// The energy of the last frame of each turn is the state's after it.
	setup, err := got.Setup()
	if err != nil {
		t.Fatal(err)
	}
	upgrades := 0
	err = Replay(&got, setup, -1, func(s Step) error {
		fs := d.Turns[s.Turn].F
		var e []int
		var u [][]string
		for _, f := range fs {
			if f.E != nil {
				e = f.E
			}
			if f.U != nil {
				u = f.U
			}
		}
		for i, r := range s.After.Robots {
			if e[i] != r.Mat.Energy {
				t.Errorf("turn %d: the page gives %s energy %d, the state %d", s.Turn, r.Name, e[i], r.Mat.Energy)
			}
			if strings.Join(u[i], ",") != strings.Join(r.Options, ",") {
				t.Errorf("turn %d: the page gives %s upgrades %v, the state %v", s.Turn, r.Name, u[i], r.Options)
			}
			upgrades += len(r.Options)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if upgrades == 0 {
		t.Error("no robot had an upgrade installed: the test shows nothing")
	}
	if _, err := os.Stat(chromium); err != nil {
		t.Skip("no " + chromium)
	}
	path := filepath.Join(t.TempDir(), "r23.html")
	if err := os.WriteFile(path, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	last := len(got.Turns) - 1
	dom := string(runChromium(t, "--dump-dom", fmt.Sprintf("file://%s#turn=%d&step=999", path, last)))
	for _, want := range []string{"<th>energy</th>", "<th>upgrades</th>", "<th>checkpoints</th>"} {
		if !strings.Contains(dom, want) {
			t.Errorf("the page in Chromium lacks %s", want)
		}
	}
	var final adjudicator.State
	_ = Replay(&got, setup, -1, func(s Step) error { final = *s.After; return nil })
	for _, r := range final.Robots {
		for _, o := range r.Options {
			if !strings.Contains(dom, o) {
				t.Errorf("the page in Chromium does not show %s's %s", r.Name, o)
			}
		}
	}
}

// A 2023 game made before ruling R-ROBOT-LASER-SPAM: its stored rules carry no
// robot_laser key, read back as "" (a robot laser's damage drawn as it comes), and its
// archive replays bit for bit under this version. New games carry robot_laser "spam".
func TestArchive2023BeforeRobotLaserSpam(t *testing.T) {
	old := adjudicator.Rules2023()
	old.RobotLaser = ""
	a := play2023(t, old, 4, 8, 7)
	if strings.Contains(string(a.Rules), "robot_laser") {
		t.Fatalf("rules of a game made before the ruling name robot_laser: %s", a.Rules)
	}
	got, err := Read(bytes.NewReader(encode(t, a)))
	if err != nil {
		t.Fatal(err)
	}
	s, err := got.Setup()
	if err != nil {
		t.Fatal(err)
	}
	if s.Rules.RobotLaser != "" {
		t.Fatalf("an archive without robot_laser reads as %q", s.Rules.RobotLaser)
	}
	if err := Replay(&got, s, -1, nil); err != nil {
		t.Fatalf("an archive made before the ruling does not replay: %v", err)
	}
	if b, _ := json.Marshal(adjudicator.Rules2023()); !strings.Contains(string(b), `"robot_laser":"spam"`) {
		t.Errorf("new 2023 rules lack robot_laser spam: %s", b)
	}
}
