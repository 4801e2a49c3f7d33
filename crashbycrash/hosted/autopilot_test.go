package hosted

import (
	"testing"

	"github.com/rallyjudge/rallyjudge/game"
)

// The demo's game (seed 1, the autopilot's seed 1+turn) reaches a turn whose first
// action ends the game (turn 422: the operator pushes the last car of a side off): the
// autopilot's move must still read back and play (it failed: one action, "a turn is two
// actions"), and the game must end.
func TestAutopilotWhenTheFirstActionEndsTheGame(t *testing.T) {
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
