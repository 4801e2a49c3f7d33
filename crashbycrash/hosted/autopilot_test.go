package hosted

import (
	"testing"

	"github.com/rallyjudge/rallyjudge/game"
)

// The demo's game (seed 1): every autopilot move reads back through Check and plays, to
// the end of the game. (An earlier autopilot's move whose first action ended the game
// was refused: one action, "a turn is two actions".)
func TestAutopilotPlaysTheDemoGameToTheEnd(t *testing.T) {
	k := Kind{}
	cfg, _ := k.Configure(nil)
	pos, _ := k.Start(cfg, []string{"Ada", "Boris"}, 1)
	for turn := 1; turn < 2000 && !pos.Over(); turn++ {
		seat := pos.Due()[0]
		m := pos.Autopilot(seat, 1+int64(turn))
		ch := pos.Check(seat, m.Text)
		if !ch.OK() {
			t.Fatalf("turn %d: %q: %v", turn, m.Text, ch.Problems)
		}
		res, err := pos.Play(map[int]game.Move{seat: ch.Move}, 0)
		if err != nil {
			t.Fatal(err)
		}
		pos = res.Next
	}
	if !pos.Over() {
		t.Fatal("the game did not end")
	}
}
