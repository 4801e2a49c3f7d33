package autopilot

import (
	"fmt"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// The rival's likely program found on the table's floor (nearest.go) is the program
// ending nearest its next checkpoint as the engine plays it: on the docking run, away
// from its push panels, the floor walk's program ends where the best of every order of
// the hand's cards does, forecast by the engine (the robot alone), by checkpoints
// reached and then squares as the crow flies.
func TestNearestProgramIsTheEnginesNearest(t *testing.T) {
	s := courseSetup(t, "docking-run", adjudicator.Rules2023())
	p := New(s)
	k := func(kinds ...adjudicator.CardKind) []int {
		out := make([]int, len(kinds))
		for i, kd := range kinds {
			out[i] = int(kd)
		}
		return out
	}
	M1, M2, M3, B, L, R, U, P, A, S := adjudicator.CardMove1, adjudicator.CardMove2, adjudicator.CardMove3,
		adjudicator.CardBackUp, adjudicator.CardLeft, adjudicator.CardRight, adjudicator.CardUTurn,
		adjudicator.CardPowerUp, adjudicator.CardAgain, adjudicator.CardSpam
	for _, tc := range []struct {
		pos    adjudicator.Pos
		facing adjudicator.Dir
		flags  int
		hand   []int
	}{
		{adjudicator.Pos{X: 4, Y: 14}, adjudicator.North, 0, k(M1, M2, M2, R, L, L, U, P, A)},
		{adjudicator.Pos{X: 7, Y: 14}, adjudicator.North, 0, k(M1, M1, M3, B, R, R, L, S, S)},
		{adjudicator.Pos{X: 9, Y: 6}, adjudicator.West, 0, k(M1, M2, M3, B, R, L, U, P, A)},  // through checkpoint 1
		{adjudicator.Pos{X: 8, Y: 3}, adjudicator.West, 1, k(M1, M2, M2, M3, L, L, R, A, S)}, // the blue belt
		{adjudicator.Pos{X: 5, Y: 6}, adjudicator.South, 1, k(M1, M2, B, B, R, L, U, P, A)},  // checkpoint 2: the race
		{adjudicator.Pos{X: 7, Y: 1}, adjudicator.North, 0, k(M2, M3, M3, R, R, L, P, P, S)}, // the north edge
	} {
		t.Run(fmt.Sprintf("%v %v", tc.pos, tc.facing), func(t *testing.T) {
			st, _, err := adjudicator.NewGame(s, []string{"A", "B"})
			if err != nil {
				t.Fatal(err)
			}
			r := &st.Robots[0]
			r.Pos, r.Facing, r.Flags, r.Hand = tc.pos, tc.facing, tc.flags, tc.hand
			st.Robots[1].Pos = adjudicator.Pos{X: 11, Y: 15} // out of the way
			prog, ok := p.nearestProgram(r, tc.hand)
			if !ok {
				t.Fatal("the floor walk cannot tell")
			}
			sim := adjudicator.NewSimulator(s, st)
			score := func(prog [adjudicator.Registers]int) int {
				end, err := sim.Run(0, prog, nil)
				if err != nil {
					t.Fatalf("%v: %v", prog, err)
				}
				switch {
				case end.Destroyed:
					return -1 << 30
				case end.Flags >= len(s.Course.Flags):
					return 1 << 30
				}
				f := s.Course.Flags[end.Flags]
				return end.Flags*10_000 - abs(end.Pos.X-f.X) - abs(end.Pos.Y-f.Y)
			}
			got := score(prog)
			best := -1 << 31
			var bestProg, cur [adjudicator.Registers]int
			used := make([]bool, len(tc.hand))
			var walk func(reg int)
			walk = func(reg int) {
				if reg == adjudicator.Registers {
					if sc := score(cur); sc > best {
						best, bestProg = sc, cur
					}
					return
				}
				for i, c := range tc.hand {
					if !used[i] {
						used[i], cur[reg] = true, c
						walk(reg + 1)
						used[i] = false
					}
				}
			}
			walk(0)
			if got != best {
				t.Errorf("the floor walk's %s ends at %d; the engine's nearest, %s, at %d", ProgramLine(prog), got, ProgramLine(bestProg), best)
			}
		})
	}
}
