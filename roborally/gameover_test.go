package roborally

import (
	"testing"

	"github.com/rallyjudge/rallyjudge/game"
)

// A game won in the middle of a turn stops where it was won, so its last position keeps
// the robots' programs in their registers. Load read that position as an impossible
// state ("register 1 holds P410 but is not locked"), so a won game behind the seam
// could not be read again: the judge could not mail its end (the options demos stopped
// at the winning turn). Every position of a game the autopilot plays to its end loads.
func TestWonGameLoads(t *testing.T) {
	for _, tc := range []struct {
		name string
		kv   map[string]string
	}{
		{"postal", map[string]string{"missed": MissedAutopilot}},
		{"armed and dangerous", map[string]string{"missed": MissedAutopilot, "options": "armed-dangerous", "rules.max_options": "3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := Kind{}
			cfg, err := k.Configure(tc.kv)
			if err != nil {
				t.Fatal(err)
			}
			pos, err := k.Start(cfg, []string{"Ada", "Boris"}, 3)
			if err != nil {
				t.Fatal(err)
			}
			for turn := 1; turn <= 60 && !pos.Over(); turn++ {
				moves := map[int]game.Move{}
				for _, seat := range pos.Due() {
					moves[seat] = pos.Autopilot(seat, int64(turn))
				}
				res, err := pos.Play(moves, game.TurnSeed(3, turn))
				if err != nil {
					t.Fatalf("turn %d: %v", turn, err)
				}
				b, err := res.Next.Encode()
				if err != nil {
					t.Fatal(err)
				}
				if pos, err = k.Load(cfg, b); err != nil {
					t.Fatalf("turn %d (over %v): the position the game wrote does not load: %v", turn, res.Next.Over(), err)
				}
			}
			if !pos.Over() {
				t.Fatal("the game did not end in 60 turns: the case this test is for was not played")
			}
		})
	}
}
