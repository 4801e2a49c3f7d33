package adjudicator

import (
	"encoding/json"
	"testing"
)

// A lent turn is Resolve's turn, byte for byte (state and log as JSON), whatever the
// pooled Resolvers played before: games of both rulesets, 2 to 8 robots, with and
// without options, two floor sizes, turn by turn interleaved; the state it hands over
// and the log KeepEvents copied are unchanged after the Resolver has played later
// turns, and Release empties the log it lent.
func TestLentTurnMatchesResolve(t *testing.T) {
	type game struct {
		s      *Setup
		states []*State
		orders [][]Orders
	}
	var games []game
	for _, rules := range []string{"postal", "2023"} {
		for _, big := range []bool{false, true} {
			for _, n := range []int{2, 5, 8} {
				for _, options := range []bool{false, true} {
					s, states, orders := fastPathGame(t, rules, big, n, options, 12)
					games = append(games, game{s, states, orders})
				}
			}
		}
	}
	type kept struct {
		v    any
		json string
	}
	var results []kept
	compared := 0
	for k := 0; ; k++ {
		played := false
		for _, g := range games {
			if k >= len(g.states) {
				continue
			}
			played = true
			want, wantEv, err := Resolve(g.s, g.states[k], g.orders[k])
			if err != nil {
				t.Fatal(err)
			}
			l, err := ResolveLent(g.s, g.states[k], g.orders[k])
			if err != nil {
				t.Fatal(err)
			}
			keptEv := l.KeepEvents()
			for _, pair := range [][3]any{{l.Next, want, "state"}, {l.Events, wantEv, "log"}, {keptEv, wantEv, "kept log"}} {
				a, _ := json.Marshal(pair[0])
				b, _ := json.Marshal(pair[1])
				if string(a) != string(b) {
					t.Fatalf("%s, %d robots, turn %d: lent %s %s\nResolve's %s", g.s.Rules.Name, len(g.states[k].Robots), k+1, pair[2], a, b)
				}
			}
			a, _ := json.Marshal(l.Next)
			b, _ := json.Marshal(keptEv)
			results = append(results, kept{l.Next, string(a)}, kept{keptEv, string(b)})
			l.Release()
			if l.Events != nil {
				t.Fatalf("the log is still lent after Release: %d events", len(l.Events))
			}
			l.Release() // twice is once: the Resolver is not in the pool twice
			compared++
		}
		if !played {
			break
		}
	}
	for k, r := range results {
		if a, _ := json.Marshal(r.v); string(a) != r.json {
			t.Fatalf("result %d changed after later turns: %s, was %s", k, a, r.json)
		}
	}
	if compared < 100 {
		t.Fatalf("only %d turns compared", compared)
	}
	t.Logf("%d turns compared", compared)
}

// An illegal program is Resolve's error, and leaves nothing to release.
func TestLentTurnError(t *testing.T) {
	s, states, orders := fastPathGame(t, "postal", false, 2, false, 1)
	bad := append([]Orders(nil), orders[0]...)
	bad[0].Program[0] = 99999
	_, _, want := Resolve(s, states[0], bad)
	l, err := ResolveLent(s, states[0], bad)
	if err == nil || want == nil || err.Error() != want.Error() {
		t.Fatalf("lent error %v, Resolve's %v", err, want)
	}
	if l.Next != nil || l.Events != nil {
		t.Fatalf("an error lent a turn: %+v", l)
	}
	l.Release()
}
