package narrate

import (
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// Devices and flying robots are told in the report's words (seed 001, Devices, Flying),
// not as bare event kinds.
func TestNarrateDevices(t *testing.T) {
	p := func(x, y int) *adjudicator.Pos { return &adjudicator.Pos{X: x, Y: y} }
	west := adjudicator.West
	ev := []adjudicator.Event{
		{Register: 1, Phase: "lasers", Kind: adjudicator.EvLaunch, Robot: "Zoom", Option: "Missile Launcher", Device: "missile", To: p(1, 1), Amount: 1},
		{Register: 1, Phase: "lasers", Kind: adjudicator.EvDeviceMove, Robot: "Zoom", Device: "missile", From: p(1, 1), To: p(2, 1), Amount: 1},
		{Register: 1, Phase: "lasers", Kind: adjudicator.EvLaunch, Robot: "Blue", Option: "Drone Launcher", Device: "drone", To: p(5, 5), Target: p(5, 9), Amount: 4},
		{Register: 2, Phase: "lasers", Kind: adjudicator.EvDeviceMove, Robot: "Zoom", Device: "drone", From: p(3, 3), To: p(3, 3), Facing: &west, Cause: "turn", Amount: 2},
		{Register: 2, Phase: "lasers", Kind: adjudicator.EvUse, Robot: "Zoom", Option: "Drone Launcher", Other: "Hulk", Cause: "target", To: p(3, 0), Device: "drone", Amount: 2, Target: p(3, 0)},
		{Register: 2, Phase: "belts", Kind: adjudicator.EvDeviceGone, Robot: "Zoom", Device: "mine", From: p(4, 0), Cause: "pit", Amount: 3},
		{Register: 3, Phase: "move", Kind: adjudicator.EvFlew, Robot: "Hulk", Option: "Big Jet", From: p(0, 0), To: p(8, 0)},
		{Register: 3, Phase: "move", Kind: adjudicator.EvLanded, Robot: "Hulk", To: p(8, 0)},
	}
	text := ""
	for _, s := range Narrate(adjudicator.StandardDeck(), ev) {
		text += strings.Join(s.Lines, "\n") + "\n"
	}
	for _, want := range []string{"Zoom's Missile Launcher puts a missile at 1,1", "Zoom's missile flies from 1,1 to 2,1",
		"Blue's Drone Launcher puts a drone at 5,5, its target counter at 5,9",
		"Zoom's drone at 3,3 turns to face west", "Zoom's drone sees Hulk: its target counter goes to 3,0", "Zoom's mine at 4,0 falls into the pit", "Hulk flies from 0,0 to 8,0", "Hulk lands at 8,0"} {
		if !strings.Contains(text, want) {
			t.Errorf("narration lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, ": launch") || strings.Contains(text, ": device") || strings.Contains(text, ": flew") {
		t.Errorf("a device event told as its bare kind:\n%s", text)
	}
}
