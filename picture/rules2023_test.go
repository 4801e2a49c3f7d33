package picture

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// demo2023 is the first round of a seeded 4-robot demo game on the docking run in which
// a robot reboots: the turn the 2023 golden GIF shows.
func demo2023(t *testing.T) *Demo {
	t.Helper()
	c := loadCourse(t, "docking-run")
	for seed := uint64(1); seed <= 20; seed++ {
		for turn := 1; turn <= 6; turn++ {
			d, err := DemoTurn(c, 4, seed, turn)
			if err != nil {
				t.Fatal(err)
			}
			if slices.ContainsFunc(d.Events, func(e adjudicator.Event) bool { return e.Kind == adjudicator.EvReboot }) &&
				slices.ContainsFunc(d.Events, func(e adjudicator.Event) bool { return e.Kind == adjudicator.EvUpgrade }) {
				return d
			}
			if d.After.Over {
				break
			}
		}
	}
	t.Fatal("no demo round on the docking run with a reboot and an upgrade phase")
	return nil
}

func golden(t *testing.T, name string, data []byte) []byte {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return want
}

// The 2023 course picture draws batteries, reboot tokens, green and blue belts, push
// panels with their registers, the docking bay, and each robot's energy in the legend.
func TestCourse2023Golden(t *testing.T) {
	d := demo2023(t)
	c := d.Setup.Course
	robots := d.After.Robots
	img := Course(c, robots, Options{})
	var buf bytes.Buffer
	if err := PNG(&buf, img); err != nil {
		t.Fatal(err)
	}
	want, err := png.Decode(bytes.NewReader(golden(t, "docking-run.png", buf.Bytes())))
	if err != nil {
		t.Fatal(err)
	}
	samePixels(t, "docking-run.png", img, want)

	find := func(f func(*adjudicator.Square) bool) adjudicator.Pos {
		for y := 0; y < c.Board.H; y++ {
			for x := 0; x < c.Board.W; x++ {
				if p := (adjudicator.Pos{X: x, Y: y}); f(c.Board.At(p)) && c.FlagAt(p) == 0 {
					return p
				}
			}
		}
		t.Fatal("the docking run lacks an element the test looks for")
		return adjudicator.Pos{}
	}
	n := len(robots)
	empty := Course(c, nil, Options{})
	for _, tc := range []struct {
		what string
		at   adjudicator.Pos
		col  uint8
	}{
		{"battery", find(func(s *adjudicator.Square) bool { return s.Battery }), cBattery},
		{"reboot token", find(func(s *adjudicator.Square) bool { return s.Reboot.On }), cReboot},
		{"green belt", find(func(s *adjudicator.Square) bool { return s.Belt.Kind == adjudicator.BeltNormal }), cGreenBelt},
		{"blue belt", find(func(s *adjudicator.Square) bool { return s.Belt.Kind == adjudicator.BeltExpress }), cExpress},
		{"push panel", find(func(s *adjudicator.Square) bool { return s.Pusher.Registers != 0 }), cPusher},
		{"docking bay", adjudicator.Pos{X: 0, Y: 15}, cDock},
	} {
		if got := cell(empty, c, tc.at, 0)[tc.col]; got < 20 {
			t.Errorf("%s at %v: %d pixels of its colour", tc.what, tc.at, got)
		}
	}
	if got := cell(empty, c, adjudicator.Pos{X: 0, Y: 0}, 0)[cDock]; got != 0 {
		t.Errorf("the factory board is drawn as docking bay (%d pixels)", got)
	}
	// The same course under the postal look would draw yellow belts: the 2023 look is
	// the course's.
	if got := cell(Course(c, nil, Options{Rules: "postal"}), c, find(func(s *adjudicator.Square) bool { return s.Belt.Kind == adjudicator.BeltNormal }), 0)[cGreenBelt]; got != 0 {
		t.Errorf("postal look: %d green belt pixels", got)
	}
	// The legend: an energy bar per robot, filled as far as its energy.
	l := newLayout(c.Board, n, Options{}.cell(), 0, true)
	energy := 0
	for y := l.legendY; y < l.total; y++ {
		for x := 0; x < l.width; x++ {
			if img.ColorIndexAt(x, y) == cEnergy {
				energy++
			}
		}
	}
	total := 0
	for _, r := range robots {
		total += r.Mat.Energy
	}
	if energy != total*3*7 {
		t.Errorf("the legend's energy bars hold %d pixels, want %d for %d energy in all", energy, total*3*7, total)
	}
}

// The 2023 turn GIF: cards by name, the upgrade phase, a reboot crossed out where it
// happened; TurnFrames leaves the robots it is given (their mats) as they were.
func TestTurnGIF2023Golden(t *testing.T) {
	d := demo2023(t)
	c := d.Setup.Course
	energy := make([]int, len(d.Before))
	for i, r := range d.Before {
		energy[i] = r.Mat.Energy
	}
	opt := Options{Turn: d.Turn, Deck: d.Setup.Deck}
	frames := TurnFrames(c, d.Before, d.Events, opt)
	for i, r := range d.Before {
		if r.Mat.Energy != energy[i] {
			t.Errorf("TurnFrames changed %s's energy from %d to %d", r.Name, energy[i], r.Mat.Energy)
		}
	}
	var buf bytes.Buffer
	if err := EncodeFrames(&buf, frames, opt); err != nil {
		t.Fatal(err)
	}
	want, _ := composite(t, golden(t, "turn-docking-run.gif", buf.Bytes()))
	got, _ := composite(t, buf.Bytes())
	if len(want) != len(got) {
		t.Fatalf("%d frames, golden has %d", len(got), len(want))
	}
	for k := range want {
		samePixels(t, fmt.Sprintf("turn-docking-run.gif frame %d (%s)", k, frames[k].Caption), got[k], want[k])
	}
	var captions []string
	rebootFrame := -1
	for k, f := range frames {
		captions = append(captions, f.Caption)
		if strings.Contains(f.Caption, " reboots (") && rebootFrame < 0 {
			rebootFrame = k
		}
		if strings.Contains(f.Caption, ": P") {
			t.Errorf("frame %d names a priority: %q", k, f.Caption)
		}
	}
	all := strings.Join(captions, "\n")
	for _, want := range []string{"Upgrade phase", "Register 1 — ", "End of round"} {
		if !strings.Contains(all, want) {
			t.Errorf("no caption says %q:\n%s", want, all)
		}
	}
	if rebootFrame < 0 {
		t.Fatalf("no frame shows the reboot:\n%s", all)
	}
	crosses := 0
	for _, p := range frames[rebootFrame].Image.Pix {
		if p == cDestroyed {
			crosses++
		}
	}
	if crosses < 20 {
		t.Errorf("the reboot frame %q has %d pixels of the cross", frames[rebootFrame].Caption, crosses)
	}
}

// Steps of a 2023 round: the upgrade phase and a shutdown before the registers, a
// rebooted robot re-entering and then playing its card in one step, a SPAM replaced by
// the card drawn in the same step, cards named without priorities, the end of round.
func TestSteps2023(t *testing.T) {
	pos := func(x, y int) *adjudicator.Pos { return &adjudicator.Pos{X: x, Y: y} }
	n := adjudicator.North
	ev := func(reg int, phase, kind, robot string, f func(*adjudicator.Event)) adjudicator.Event {
		e := adjudicator.Event{Register: reg, Phase: phase, Kind: kind, Robot: robot}
		if f != nil {
			f(&e)
		}
		return e
	}
	spam, move2 := int(adjudicator.CardSpam), int(adjudicator.CardMove2)
	events := []adjudicator.Event{
		ev(0, "upgrade", adjudicator.EvUpgrade, "Zoom", func(e *adjudicator.Event) { e.Cause, e.Option, e.Amount = "install", "Zoop", 1 }),
		ev(0, "upgrade", adjudicator.EvUpgrade, "Blue", func(e *adjudicator.Event) { e.Cause, e.Option, e.Amount = "draw", "Boink", 1 }),
		ev(0, "", adjudicator.EvShutdown, "Hammer", func(e *adjudicator.Event) { e.Amount = 3 }),
		ev(1, "move", adjudicator.EvReenter, "Zoom", func(e *adjudicator.Event) { e.To, e.Facing = pos(0, 1), &n }),
		ev(1, "move", adjudicator.EvCard, "Zoom", func(e *adjudicator.Event) { e.Card = int(adjudicator.CardMove1) }),
		ev(1, "move", adjudicator.EvMove, "Zoom", func(e *adjudicator.Event) { e.From, e.To = pos(0, 1), pos(0, 0) }),
		ev(1, "move", adjudicator.EvCard, "Blue", func(e *adjudicator.Event) { e.Card = spam }),
		ev(1, "move", adjudicator.EvReplaced, "Blue", func(e *adjudicator.Event) { e.Card, e.Amount = spam, move2 }),
		ev(1, "move", adjudicator.EvCard, "Blue", func(e *adjudicator.Event) { e.Card, e.Cause = move2, "replacement" }),
		ev(1, "batteries", adjudicator.EvEnergy, "Blue", func(e *adjudicator.Event) { e.Amount, e.Cause = 4, "battery" }),
		ev(0, "end", adjudicator.EvPriority, "Blue", nil),
	}
	steps := Steps(events, adjudicator.KindDeck())
	var got []string
	for _, s := range steps {
		got = append(got, s.Caption)
	}
	want := []string{
		"Upgrade phase: Zoom installs Zoop (1 energy), Blue draws an upgrade",
		"Before the registers: Hammer shuts down (discards 3 damage cards)",
		"Register 1 — Zoom: Move 1; Zoom re-enters at 0,1",
		"Register 1 — Blue: SPAM; SPAM replaced by Move 2",
		"Register 1 — batteries: Blue energy 4",
		"End of round: Blue takes the priority token",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("captions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// The 2023 legend says in words what a robot's state is (issue 22: it read
// "Twonky E5 CP0 U1 D1"): energy, checkpoints, facing, upgrades, damage cards held.
func TestLegendWords2023(t *testing.T) {
	for _, tc := range []struct {
		r             adjudicator.Robot
		first, second string
	}{
		{adjudicator.Robot{Name: "Twonky", Facing: adjudicator.North, Mat: &adjudicator.Mat{Energy: 5}},
			"Twonky: energy 5, 0 of 3 checkpoints", "faces north; no upgrades"},
		{adjudicator.Robot{Name: "Hulk", Flags: 2, Facing: adjudicator.West, Power: adjudicator.PowerDown, Options: []string{"Boink", "Brakes"},
			Hand: []int{int(adjudicator.CardSpam), int(adjudicator.CardSpam)}, Mat: &adjudicator.Mat{Energy: 0}},
			"Hulk: energy 0, 2 of 3 checkpoints", "faces west; shut down; upgrades: Boink, Brakes; 2 damage cards"},
		{adjudicator.Robot{Name: "Zoe", Destroyed: true, Mat: &adjudicator.Mat{Energy: 1}},
			"Zoe: energy 1, 0 of 3 checkpoints", "rebooting; no upgrades"},
	} {
		first, second, _ := legendWords2023(&tc.r, 3)
		if first != tc.first || second != tc.second {
			t.Errorf("legend of %s: %q / %q, want %q / %q", tc.r.Name, first, second, tc.first, tc.second)
		}
	}
}
