package picture

import (
	"bytes"
	"image"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// deviceFixture is one device of each look on sprint: flat ones (a mine, goo), a
// flying one facing east (a missile), a drone with its target counter, all launched by
// the robots of fixtureRobots.
func deviceFixture() []adjudicator.Device {
	target := adjudicator.Pos{X: 6, Y: 8}
	return []adjudicator.Device{
		{ID: 1, Kind: adjudicator.DevMine, Owner: "Zoom", Pos: adjudicator.Pos{X: 2, Y: 3}},
		{ID: 2, Kind: adjudicator.DevGoo, Owner: "Blue", Pos: adjudicator.Pos{X: 5, Y: 3}},
		{ID: 3, Kind: adjudicator.DevMissile, Owner: "Hammer", Pos: adjudicator.Pos{X: 8, Y: 5}, Facing: adjudicator.East, Priority: 845},
		{ID: 4, Kind: adjudicator.DevDrone, Owner: "Zoom", Pos: adjudicator.Pos{X: 3, Y: 8}, Facing: adjudicator.East, Priority: 835, Target: &target},
	}
}

// Devices are drawn in their squares in their launcher's colour (seed 001, Devices); the
// picture is golden.
func TestDevicesGolden(t *testing.T) {
	c := loadCourse(t, "sprint")
	robots := fixtureRobots(c)
	ds := deviceFixture()
	img := Course(c, robots, Options{Devices: ds})
	plain := Course(c, robots, Options{})
	for _, d := range ds {
		seat := 0
		for i, r := range robots {
			if r.Name == d.Owner {
				seat = i
			}
		}
		if n := cell(img, c, d.Pos, len(robots))[uint8(cRobot0+seat)]; n < 20 {
			t.Errorf("%s of %s at %v: %d pixels of its launcher's colour", d.Kind, d.Owner, d.Pos, n)
		}
		if n := cell(plain, c, d.Pos, len(robots))[uint8(cRobot0+seat)]; n != 0 {
			t.Errorf("without devices square %v has %d pixels of seat colour %d", d.Pos, n, seat)
		}
	}
	if n := cell(img, c, *ds[3].Target, len(robots))[uint8(cRobot0)]; n < 20 {
		t.Errorf("the drone's target counter at %v is not drawn (%d pixels)", *ds[3].Target, n)
	}
	var buf bytes.Buffer
	if err := PNG(&buf, img); err != nil {
		t.Fatal(err)
	}
	want, _, err := image.Decode(bytes.NewReader(golden(t, "devices-sprint.png", buf.Bytes())))
	if err != nil {
		t.Fatal(err)
	}
	samePixels(t, "devices-sprint.png", img, want)
}

// launchOnce answers yes to the first option question: the robot's launcher fires once.
type launchOnce struct {
	adjudicator.Defaults
	done bool
}

func (l *launchOnce) Option(adjudicator.View, string, string) string {
	if l.done {
		return ""
	}
	l.done = true
	return "yes"
}

// An engine turn in which a missile is launched, flies and explodes: the GIF shows it
// from its launch to its explosion, and the frames after it do not.
func TestDevicesTurnGIF(t *testing.T) {
	c := loadCourse(t, "sprint")
	s, err := adjudicator.NewSetup(c, adjudicator.PostalRules(), 9, []string{"Missile Launcher"})
	if err != nil {
		t.Fatal(err)
	}
	st := &adjudicator.State{Turn: 1, Robots: []adjudicator.Robot{
		{Name: "Zoom", Pos: adjudicator.Pos{X: 1, Y: 8}, Archive: adjudicator.Pos{X: 1, Y: 8}, Facing: adjudicator.East, Lives: 3, Options: []string{"Missile Launcher"}, Hand: []int{70, 90, 110, 130, 150}},
		{Name: "Blue", Pos: adjudicator.Pos{X: 8, Y: 8}, Archive: adjudicator.Pos{X: 8, Y: 8}, Facing: adjudicator.North, Lives: 3, Power: adjudicator.PowerDown},
	}}
	if err := s.CheckState(st); err != nil {
		t.Fatal(err)
	}
	ords := []adjudicator.Orders{{Program: [adjudicator.Registers]int{70, 90, 110, 130, 150}, Decider: &launchOnce{}}, {}}
	_, events, err := adjudicator.Resolve(s, st, ords)
	if err != nil {
		t.Fatal(err)
	}
	var launched, gone bool
	for _, e := range events {
		launched = launched || e.Kind == adjudicator.EvLaunch
		gone = gone || e.Kind == adjudicator.EvDeviceGone
	}
	if !launched || !gone {
		t.Fatalf("the fixture turn launched %v, ended its missile %v: %v", launched, gone, events)
	}
	frames := TurnFrames(c, st.Robots, events, Options{Turn: 1, Devices: st.Devices})
	steps := Steps(events, nil)
	seen, after := false, false
	for k, s := range steps {
		f := frames[k+1]
		has := false
		for y := 0; y < c.Board.H && !has; y++ {
			for x := 0; x < c.Board.W && !has; x++ {
				q := adjudicator.Pos{X: x, Y: y}
				if q == st.Robots[0].Pos {
					continue
				}
				has = cell(f.Image, c, q, 2)[uint8(cRobot0)] > 20
			}
		}
		for _, e := range s.Events {
			if e.Kind == adjudicator.EvLaunch {
				seen = true
				if !has {
					t.Errorf("frame %d (%s): the missile just launched is not drawn", k+1, f.Caption)
				}
				if !strings.Contains(f.Caption, "launches a missile") {
					t.Errorf("frame %d caption %q does not say so", k+1, f.Caption)
				}
			}
			if e.Kind == adjudicator.EvDeviceGone {
				after = true
			}
		}
		if after && has {
			t.Errorf("frame %d (%s): the missile is drawn after it left the board", k+1, f.Caption)
		}
	}
	if !seen {
		t.Fatal("no launch step")
	}
}

// The GIF of a hand-written turn with devices (a mine and a drone with its target on the
// board, a missile launched that flies and explodes) is golden: the drawing, independent
// of how the engine plays devices.
func TestDevicesGIFGolden(t *testing.T) {
	c := loadCourse(t, "sprint")
	p := func(x, y int) *adjudicator.Pos { return &adjudicator.Pos{X: x, Y: y} }
	east, north := adjudicator.East, adjudicator.North
	target := adjudicator.Pos{X: 9, Y: 3}
	robots := []adjudicator.Robot{
		{Name: "Zoom", Pos: adjudicator.Pos{X: 2, Y: 5}, Facing: east, Lives: 3},
		{Name: "Blue", Pos: adjudicator.Pos{X: 8, Y: 5}, Facing: north, Lives: 3},
	}
	devices := []adjudicator.Device{
		{ID: 1, Kind: adjudicator.DevMine, Owner: "Blue", Pos: adjudicator.Pos{X: 4, Y: 9}},
		{ID: 2, Kind: adjudicator.DevDrone, Owner: "Blue", Pos: adjudicator.Pos{X: 6, Y: 3}, Facing: east, Priority: 835, Target: &target},
	}
	events := []adjudicator.Event{
		{Register: 1, Phase: "move", Kind: adjudicator.EvCard, Robot: "Zoom", Card: 70},
		{Register: 1, Phase: "lasers", Kind: adjudicator.EvLaunch, Robot: "Zoom", Option: "Missile Launcher", Device: string(adjudicator.DevMissile), To: p(4, 5), Facing: &east, Amount: 3},
		{Register: 2, Phase: "move", Kind: adjudicator.EvDeviceMove, Robot: "Zoom", Device: string(adjudicator.DevMissile), From: p(4, 5), To: p(6, 5), Facing: &east, Amount: 3},
		{Register: 2, Phase: "move", Kind: adjudicator.EvDeviceMove, Robot: "Blue", Device: string(adjudicator.DevDrone), From: p(6, 3), To: p(9, 3), Facing: &east, Amount: 2},
		{Register: 3, Phase: "move", Kind: adjudicator.EvExplosion, Robot: "Zoom", Option: string(adjudicator.DevMissile), To: p(8, 5), Amount: 4},
		{Register: 3, Phase: "move", Kind: adjudicator.EvDeviceGone, Robot: "Zoom", Device: string(adjudicator.DevMissile), From: p(7, 5), Amount: 3, Cause: "exploded"},
	}
	frames := TurnFrames(c, robots, events, Options{Turn: 4, Devices: devices})
	missileAt := func(f Frame, q adjudicator.Pos) bool { return cell(f.Image, c, q, 2)[uint8(cRobot0)] > 20 }
	if !missileAt(frames[2], adjudicator.Pos{X: 4, Y: 5}) || !missileAt(frames[3], adjudicator.Pos{X: 6, Y: 5}) || missileAt(frames[4], adjudicator.Pos{X: 6, Y: 5}) {
		t.Errorf("the missile is not drawn where the log puts it: %q, %q, %q", frames[2].Caption, frames[3].Caption, frames[4].Caption)
	}
	var buf bytes.Buffer
	if err := EncodeFrames(&buf, frames, Options{}); err != nil {
		t.Fatal(err)
	}
	const path = "turn-devices.gif"
	got, _ := composite(t, buf.Bytes())
	want, _ := composite(t, golden(t, path, buf.Bytes()))
	if len(want) != len(got) {
		t.Fatalf("%d frames, golden has %d", len(got), len(want))
	}
	for k := range want {
		samePixels(t, path, got[k], want[k])
	}
}

// A drone launched during the turn has its target counter drawn from the launch on: the
// launch event carries the counter (adjudicator.Event.Target), so the GIF needs nothing
// but the log. Before the launch, no ring of the launcher's colour is on the target's
// square; from the launch frame until the drone explodes, there is.
func TestDroneLaunchedMidTurnTargetRing(t *testing.T) {
	c := loadCourse(t, "sprint")
	s, err := adjudicator.NewSetup(c, adjudicator.PostalRules(), 9, []string{"Drone Launcher"})
	if err != nil {
		t.Fatal(err)
	}
	target := adjudicator.Pos{X: 8, Y: 8}
	st := &adjudicator.State{Turn: 1, Robots: []adjudicator.Robot{
		{Name: "Zoom", Pos: adjudicator.Pos{X: 1, Y: 8}, Archive: adjudicator.Pos{X: 1, Y: 8}, Facing: adjudicator.East, Lives: 3, Options: []string{"Drone Launcher"}, Hand: []int{70, 90, 110, 130, 150}},
		{Name: "Blue", Pos: target, Archive: target, Facing: adjudicator.North, Lives: 3, Power: adjudicator.PowerDown},
	}}
	if err := s.CheckState(st); err != nil {
		t.Fatal(err)
	}
	ords := []adjudicator.Orders{{Program: [adjudicator.Registers]int{70, 90, 110, 130, 150}, Decider: &launchOnce{}}, {}}
	_, events, err := adjudicator.Resolve(s, st, ords)
	if err != nil {
		t.Fatal(err)
	}
	launch := -1
	for k, e := range events {
		if e.Kind == adjudicator.EvLaunch && e.Device == string(adjudicator.DevDrone) {
			launch = k
			if e.Target == nil || *e.Target != target {
				t.Fatalf("the drone's launch event carries target %v, want %v", e.Target, target)
			}
		}
	}
	if launch < 0 {
		t.Fatalf("the fixture turn launched no drone: %v", events)
	}
	frames := TurnFrames(c, st.Robots, events, Options{Turn: 1, Devices: st.Devices})
	steps := Steps(events, nil)
	ring := func(f Frame) int { return cell(f.Image, c, target, 2)[uint8(cRobot0)] }
	launched, gone, checked := false, false, 0
	for k, s := range steps {
		f := frames[k+1]
		for _, e := range s.Events {
			launched = launched || e.Kind == adjudicator.EvLaunch
		}
		switch {
		case !launched:
			if n := ring(f); n != 0 {
				t.Errorf("frame %d (%s), before the launch: %d pixels of the launcher's colour on the target's square", k+1, f.Caption, n)
			}
		case !gone:
			if n := ring(f); n < 20 {
				t.Errorf("frame %d (%s): the drone's target counter is not drawn (%d pixels)", k+1, f.Caption, n)
			}
			checked++
		}
		for _, e := range s.Events {
			gone = gone || e.Kind == adjudicator.EvDeviceGone
		}
	}
	if checked == 0 {
		t.Fatal("no frame between the launch and the drone's end")
	}
}
