package adjudicator

import (
	"encoding/json"
	"strings"
	"testing"
)

// A saved turn is hostile input: devices no game could hold are refused by CheckState
// with an error naming the device and what is wrong, never played.
func TestCheckStateRefusesImpossibleDevices(t *testing.T) {
	s := armedSetup(t, ". . X . f1 s1\n. . . . . .", PostalRules(), 1)
	base := `{"turn": 2, "robots": [{"name": "A", "pos": {"x": 0, "y": 0}, "facing": "E", "lives": 3, "archive": {"x": 0, "y": 0}, "power": "on", "registers": [0,0,0,0,0], "options": ["Missile Launcher"], "option_tokens": [%s]}], "devices": [%s]}`
	cases := []struct {
		name, tokens, devices, want string
	}{
		{"fine", "1", `{"id": 1, "kind": "missile", "owner": "A", "pos": {"x": 3, "y": 0}, "facing": "E", "priority": 845}`, ""},
		{"off the board", "1", `{"id": 1, "kind": "mine", "owner": "A", "pos": {"x": 9, "y": 0}, "facing": "N"}`, "device 1 (mine): square 9,9 is off the board"},
		{"unknown kind", "0", `{"id": 1, "kind": "nuke", "owner": "A", "pos": {"x": 1, "y": 0}, "facing": "N"}`, `"nuke" is not a device`},
		{"unknown owner", "0", `{"id": 1, "kind": "mine", "owner": "Zed", "pos": {"x": 1, "y": 0}, "facing": "N"}`, `owner "Zed" is not a robot`},
		{"a mine on a pit", "0", `{"id": 1, "kind": "mine", "owner": "A", "pos": {"x": 2, "y": 0}, "facing": "N"}`, "on the pit"},
		{"a bridge off a pit", "0", `{"id": 1, "kind": "bridge", "owner": "A", "pos": {"x": 1, "y": 0}, "facing": "N"}`, "a bridge lies over a pit"},
		{"more missiles than tokens", "0", strings.Repeat(`{"id": 1, "kind": "missile", "owner": "A", "pos": {"x": 1, "y": 1}, "facing": "N", "priority": 845},`, 3) + `{"id": 4, "kind": "missile", "owner": "A", "pos": {"x": 1, "y": 1}, "facing": "N", "priority": 445}`, "there are 3 tokens"},
		{"a priority no token has", "0", `{"id": 1, "kind": "missile", "owner": "A", "pos": {"x": 1, "y": 1}, "facing": "N", "priority": 700}`, "priority 700 is not a free missile token's"},
		{"a launcher over its payload", "4", ``, "Missile Launcher has launched 4 of a payload of 3"},
		{"a drone without its counter", "0", `{"id": 1, "kind": "drone", "owner": "A", "pos": {"x": 1, "y": 1}, "facing": "N", "priority": 835}`, "without its target counter"},
		{"a mine with a program", "0", `{"id": 1, "kind": "mine", "owner": "A", "pos": {"x": 1, "y": 1}, "facing": "N", "program": [490]}`, "only a buzz bomb has one"},
		{"a virtual device of a real robot", "0", `{"id": 1, "kind": "mine", "owner": "A", "pos": {"x": 1, "y": 1}, "facing": "N", "virtual": true}`, "its owner A is real"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var st State
			text := strings.Replace(strings.Replace(base, "%s", c.tokens, 1), "%s", c.devices, 1)
			if err := json.Unmarshal([]byte(text), &st); err != nil {
				t.Fatal(err)
			}
			err := s.CheckState(&st)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.want != "" && err == nil:
				t.Fatal("accepted")
			case c.want != "" && !strings.Contains(err.Error(), strings.ReplaceAll(c.want, "9,9", "9,0")):
				t.Errorf("error %q lacks %q", err, c.want)
			}
		})
	}
}

// Devices are part of the state: a clone is deep (a drone's counter too), and the JSON
// of a state with devices reads back the same.
func TestDevicesCloneAndJSON(t *testing.T) {
	target := Pos{3, 1}
	st := &State{Turn: 1, Robots: []Robot{{Name: "A", Lives: 3}}, Devices: []Device{
		{ID: 1, Kind: DevDrone, Owner: "A", Pos: Pos{1, 1}, Facing: East, Priority: 835, Target: &target},
	}}
	c := st.Clone()
	c.Devices[0].Target.X = 9
	c.Devices[0].Pos.X = 9
	if st.Devices[0].Target.X != 3 || st.Devices[0].Pos.X != 1 {
		t.Error("a clone shares its devices with the original")
	}
	b, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	var back State
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	b2, _ := json.Marshal(&back)
	if string(b) != string(b2) {
		t.Errorf("JSON round trip:\n%s\n%s", b, b2)
	}
}

// The text picture draws devices as a letter and an arrow; a robot on a device keeps
// its square and shows the device's letter third; the legend lists every device.
func TestRenderStateDrawsDevices(t *testing.T) {
	s := armedSetup(t, ". . . . f1 s1", PostalRules(), 1)
	target := Pos{3, 0}
	st := &State{Turn: 1, Robots: []Robot{{Name: "Ann", Pos: Pos{2, 0}, Facing: East, Lives: 3}}, Devices: []Device{
		{ID: 1, Kind: DevMissile, Owner: "Ann", Pos: Pos{0, 0}, Facing: East, Priority: 845},
		{ID: 2, Kind: DevDrone, Owner: "Ann", Pos: Pos{2, 0}, Facing: North, Priority: 835, Target: &target},
	}}
	pic := RenderState(s.Course, st)
	for _, want := range []string{"M> ", "A>d"} {
		if !strings.Contains(pic, want) {
			t.Errorf("picture lacks %q:\n%s", want, pic)
		}
	}
	if RenderText(s.Course, st.Robots) == pic {
		t.Error("RenderState draws no more than RenderText")
	}
	leg := RenderStateLegend(st)
	for _, want := range []string{"M>  missile", "of Ann at 0,0, moves at priority 845", "d^  drone", "target counter at 3,0", "explodes for 4 on a robot or wall"} {
		if !strings.Contains(leg, want) {
			t.Errorf("legend lacks %q:\n%s", want, leg)
		}
	}
}

// mineIn2 orders Mine Layer in register 2 (as "use Mine Layer in register 2" does).
type mineIn2 struct{ Defaults }

func (mineIn2) Option(v View, option, _ string) string {
	if option == "Mine Layer" && v.Register() == 2 {
		return "register=2"
	}
	return ""
}

// A forecast (Simulate: check --state, the autopilot) lays the robot's phase programs
// as a turn does: a mine laid in register 2 by a robot that stays on it goes off at the
// lasers, and the robot stays where it is.
func TestSimulatePlaysPhasePrograms(t *testing.T) {
	s := armedSetup(t, ". . . . f1\n. . . . s1", PostalRules(), 1)
	st := &State{Turn: 1, Robots: []Robot{{Name: "A", Pos: Pos{1, 1}, Facing: North, Lives: 3, Archive: Pos{1, 1},
		Hand: []int{70, 80, 100, 120, 140}, Options: []string{"Mine Layer"}}}}
	o := Orders{Program: [Registers]int{70, 80, 100, 120, 140}, Decider: mineIn2{}}
	r, ev, err := Simulate(s, st, 0, o)
	if err != nil {
		t.Fatal(err)
	}
	if r.Damage != 4 || r.Pos != (Pos{1, 1}) {
		t.Errorf("forecast: %d damage at %v, want 4 at 1,1", r.Damage, r.Pos)
	}
	laid := false
	for _, e := range ev {
		laid = laid || (e.Kind == EvLaunch && e.Register == 2)
	}
	if !laid {
		t.Error("the forecast lays no mine in register 2")
	}
	if st.Robots[0].Damage != 0 || len(st.Devices) != 0 || len(st.Robots[0].Tokens) != 0 {
		t.Error("the forecast changed the state it was given")
	}
}
