package rja

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/orders"
)

var updateDevices = flag.Bool("update-devices", false, "rewrite testdata/replay-devices.golden")

// The replay page draws the devices on the board (seed 001, Devices), replayed from the
// log: in a game in which robots launch missiles and drones and lay mines, each frame's
// devices follow the log to where the state after the turn has them. Each robot starts
// with a launcher (the Standard Option Package over a deck of launchers) and orders to
// use it.
func TestHTMLDevices(t *testing.T) {
	rules := adjudicator.PostalRules()
	rules.OptionPackage = "standard"
	deck := []string{"Missile Launcher", "Mine Layer", "Drone Launcher", "Proximity Mine"}
	var rs []orders.Rule
	for k, o := range []string{"use Missile Launcher", "use Drone Launcher", "use Mine Layer in register 2", "use Proximity Mine in register 3"} {
		r, err := orders.ParseRule(o, k+1)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	a := playGameWithAll(t, "sprint", 4, 8, 21, rules, deck, &orders.Sheet{Rules: rs})
	setup, err := a.Setup()
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	err = Replay(&a, setup, -1, func(s Step) error {
		if s.Turn == 0 {
			return nil
		}
		fs := turnFrames(setup.Course.Board, s, setup.Deck)
		compact(fs)
		if got, want := fs[len(fs)-1].Devices, packDevices(s.After.Devices, s.After.Robots); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("turn %d: the last frame's devices %v, the state after the turn has %v", s.Turn, got, want)
		}
		// Replayed from the log, the devices before the last frame end where the state
		// after the turn has them, a drone's target counter included: the launch event
		// carries it (adjudicator.Event.Target), and so does a waiting drone's new target.
		if n := len(fs); n >= 2 && fmt.Sprint(fs[n-2].Devices) != fmt.Sprint(fs[n-1].Devices) {
			t.Errorf("turn %d: devices replayed from the log %v, the state after the turn %v", s.Turn, fs[n-2].Devices, fs[n-1].Devices)
		}
		for _, f := range fs {
			seen += len(f.Devices)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen == 0 {
		t.Fatal("no device was on the board in any frame: the fixture shows nothing")
	}
	var page bytes.Buffer
	if err := WriteHTML(&page, &a, HTMLOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), `"v":[[`) || !strings.Contains(page.String(), "function device(") {
		t.Error("the page carries no devices or does not draw them")
	}
}

// The page's device frames for a hand-written turn (a mine on the board, a missile
// launched that flies and explodes, a drone with its target counter) are golden: what
// the page is given, independent of how the engine plays devices.
func TestHTMLDevicesGolden(t *testing.T) {
	a := playGame(t, "sprint", 2, 1, 3, 0)
	setup, err := a.Setup()
	if err != nil {
		t.Fatal(err)
	}
	p := func(x, y int) *adjudicator.Pos { return &adjudicator.Pos{X: x, Y: y} }
	east, north := adjudicator.East, adjudicator.North
	target := adjudicator.Pos{X: 9, Y: 3}
	robots := []adjudicator.Robot{
		{Name: "Twonky", Pos: adjudicator.Pos{X: 2, Y: 5}, Facing: east, Lives: 3},
		{Name: "Zoombot", Pos: adjudicator.Pos{X: 8, Y: 5}, Facing: north, Lives: 3},
	}
	before := &adjudicator.State{Turn: 4, Robots: robots, Devices: []adjudicator.Device{
		{ID: 1, Kind: adjudicator.DevMine, Owner: "Zoombot", Pos: adjudicator.Pos{X: 4, Y: 9}},
		{ID: 2, Kind: adjudicator.DevDrone, Owner: "Zoombot", Pos: adjudicator.Pos{X: 6, Y: 3}, Facing: east, Priority: 835, Target: &target},
	}}
	events := []adjudicator.Event{
		{Register: 1, Phase: "move", Kind: adjudicator.EvCard, Robot: "Twonky", Card: 70},
		{Register: 1, Phase: "lasers", Kind: adjudicator.EvLaunch, Robot: "Twonky", Option: "Missile Launcher", Device: string(adjudicator.DevMissile), To: p(4, 5), Facing: &east, Amount: 3},
		{Register: 2, Phase: "move", Kind: adjudicator.EvDeviceMove, Robot: "Twonky", Device: string(adjudicator.DevMissile), From: p(4, 5), To: p(6, 5), Facing: &east, Amount: 3},
		{Register: 2, Phase: "move", Kind: adjudicator.EvDeviceMove, Robot: "Zoombot", Device: string(adjudicator.DevDrone), From: p(6, 3), To: p(9, 3), Facing: &east, Amount: 2},
		{Register: 3, Phase: "move", Kind: adjudicator.EvExplosion, Robot: "Twonky", Option: string(adjudicator.DevMissile), To: p(8, 5), Amount: 4},
		{Register: 3, Phase: "move", Kind: adjudicator.EvDeviceGone, Robot: "Twonky", Device: string(adjudicator.DevMissile), From: p(7, 5), Amount: 3, Cause: "exploded"},
	}
	after := &adjudicator.State{Turn: 5, Robots: robots, Devices: []adjudicator.Device{before.Devices[0],
		{ID: 2, Kind: adjudicator.DevDrone, Owner: "Zoombot", Pos: target, Facing: east, Priority: 835, Target: &target}}}
	fs := turnFrames(setup.Course.Board, Step{Turn: 4, Before: before, After: after, Events: events}, setup.Deck)
	compact(fs)
	var lines []string
	for k, f := range fs {
		if f.V != nil {
			lines = append(lines, fmt.Sprintf("frame %d %q: %v", k, f.Caption, f.V))
		}
	}
	got := strings.Join(lines, "\n") + "\n"
	path := filepath.Join("testdata", "replay-devices.golden")
	if *updateDevices {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("the page's devices differ from %s (go test ./roborally/rja -run TestHTMLDevicesGolden -update-devices):\n%s", path, got)
	}
	if !strings.Contains(got, "[[-1") && !strings.Contains(got, "[77 ") {
		t.Error("the golden shows no missile")
	}
}

// answerFirst answers yes to the first option question only: the robot's launcher fires
// once.
type answerFirst struct {
	adjudicator.Defaults
	done bool
}

func (a *answerFirst) Option(adjudicator.View, string, string) string {
	if a.done {
		return ""
	}
	a.done = true
	return "yes"
}

// A drone launched during the turn shows its target counter on the replay page from the
// launch frame on: the engine's launch event carries the counter, and the page's
// frames, replayed from the log, put it where the state after the turn has it.
func TestHTMLDroneLaunchedMidTurnTarget(t *testing.T) {
	c, err := adjudicator.LoadCourse("sprint")
	if err != nil {
		t.Fatal(err)
	}
	s, err := adjudicator.NewSetup(c, adjudicator.PostalRules(), 9, []string{"Drone Launcher"})
	if err != nil {
		t.Fatal(err)
	}
	target := adjudicator.Pos{X: 8, Y: 8}
	before := &adjudicator.State{Turn: 1, Robots: []adjudicator.Robot{
		{Name: "Zoom", Pos: adjudicator.Pos{X: 1, Y: 8}, Archive: adjudicator.Pos{X: 1, Y: 8}, Facing: adjudicator.East, Lives: 3, Options: []string{"Drone Launcher"}, Hand: []int{70, 90, 110, 130, 150}},
		{Name: "Blue", Pos: target, Archive: target, Facing: adjudicator.North, Lives: 3, Power: adjudicator.PowerDown},
	}}
	if err := s.CheckState(before); err != nil {
		t.Fatal(err)
	}
	ords := []adjudicator.Orders{{Program: [adjudicator.Registers]int{70, 90, 110, 130, 150}, Decider: &answerFirst{}}, {}}
	after, events, err := adjudicator.Resolve(s, before, ords)
	if err != nil {
		t.Fatal(err)
	}
	fs := turnFrames(c.Board, Step{Turn: 1, Before: before, After: after, Events: events}, s.Deck)
	want := target.X*1000 + target.Y
	launched := false
	for k, f := range fs[1 : len(fs)-1] {
		for _, d := range f.Devices {
			if d[0] != int(adjudicator.DeviceSymbol(adjudicator.DevDrone)) {
				continue
			}
			launched = true
			if d[6] != want {
				t.Errorf("frame %d %q: the drone's target is %d, want %d (x*1000+y)", k+1, f.Caption, d[6], want)
			}
		}
	}
	if !launched {
		t.Fatalf("no frame shows the drone: %v", events)
	}
	n := len(fs)
	if fmt.Sprint(fs[n-2].Devices) != fmt.Sprint(fs[n-1].Devices) {
		t.Errorf("devices replayed from the log %v, the state after the turn %v", fs[n-2].Devices, fs[n-1].Devices)
	}
}
