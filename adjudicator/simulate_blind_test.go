package adjudicator

import (
	"encoding/json"
	"testing"
)

// ResetBlind forecasts as Reset does with Blind's copies: the position it forecasts
// from is Blind's, JSON for JSON, with Blind's seed, and the robot after every program
// of the seeded games (both rulesets, 2 to 8 robots, with and without options), every
// robot forecast, is the same, JSON for JSON; one Simulator serves them all in turn, as
// the pool in orders.Validate serves sheets of different games; and the game's state is
// not changed by the forecasts.
func TestResetBlindMatchesBlind(t *testing.T) {
	pooled := NewSimulator(nil, &State{})
	compared := 0
	for _, rules := range []string{"postal", "2023"} {
		for _, n := range []int{2, 5, 8} {
			for _, options := range []bool{false, true} {
				s, states, orders := fastPathGame(t, rules, false, n, options, 8)
				for k, st := range states {
					before, _ := json.Marshal(st)
					for i := range st.Robots {
						bs, bst := s.Blind(st, i)
						want, wantErr := NewSimulator(bs, bst).Run(i, orders[k][i].Program, orders[k][i].Decider)
						pooled.ResetBlind(s, st, i)
						if pooled.setup.Seed != bs.Seed {
							t.Fatalf("seed %d, want %d", pooled.setup.Seed, bs.Seed)
						}
						a, _ := json.Marshal(pooled.base)
						b, _ := json.Marshal(bst)
						if string(a) != string(b) {
							t.Fatalf("%s %d robots turn %d robot %d:\nResetBlind's state %s\nBlind's            %s", rules, n, k+1, i, a, b)
						}
						got, gotErr := pooled.Run(i, orders[k][i].Program, orders[k][i].Decider)
						pooled.Reset(nil, nil)
						if (wantErr == nil) != (gotErr == nil) {
							t.Fatalf("%s %d robots turn %d robot %d: error %v, want %v", rules, n, k+1, i, gotErr, wantErr)
						}
						a, _ = json.Marshal(got)
						b, _ = json.Marshal(want)
						if string(a) != string(b) {
							t.Fatalf("%s %d robots turn %d robot %d:\nResetBlind %s\nBlind      %s", rules, n, k+1, i, a, b)
						}
						compared++
					}
					if after, _ := json.Marshal(st); string(after) != string(before) {
						t.Fatalf("%s %d robots turn %d: the state changed", rules, n, k+1)
					}
				}
			}
		}
	}
	if compared < 200 {
		t.Fatalf("only %d forecasts compared", compared)
	}
	t.Logf("%d forecasts compared", compared)
}
