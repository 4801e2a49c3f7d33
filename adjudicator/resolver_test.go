package adjudicator

import (
	"encoding/json"
	"testing"
)

// simpleOrders programs every robot from its hand, the cards taken from position turn
// on (so that programs differ from turn to turn); locked registers are left to their
// cards.
func simpleOrders(st *State) []Orders {
	orders := make([]Orders, len(st.Robots))
	for i := range st.Robots {
		r := &st.Robots[i]
		if len(r.Hand) == 0 {
			continue
		}
		k := st.Turn
		for reg := 1; reg <= Registers; reg++ {
			if r.IsLocked(reg) {
				continue
			}
			orders[i].Program[reg-1] = r.Hand[k%len(r.Hand)]
			k++
		}
	}
	return orders
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A Resolver reused turn after turn, each state passed back to it, plays the game
// Resolve plays, byte for byte, and changes none of the states it is given.
func TestResolverMatchesResolve(t *testing.T) {
	for _, deck := range []OptionDeck{DeckNone, DeckCrashBurn, DeckBoth} {
		s, err := NewSetup(testCourse(t), PostalRules(), 7, DealtOptions(deck))
		if err != nil {
			t.Fatal(err)
		}
		st, _, err := NewGame(s, []string{"A", "B", "C", "D", "E", "F", "G", "H"})
		if err != nil {
			t.Fatal(err)
		}
		var rv Resolver
		plain, reused := st, st
		played := 0
		for turn := 1; turn <= 40 && !plain.Over; turn++ {
			orders := simpleOrders(plain)
			before := mustJSON(t, reused)
			next, evs, err := Resolve(s, plain, orders)
			if err != nil {
				t.Fatalf("deck %v turn %d: %v", deck, turn, err)
			}
			rnext, revs, err := rv.Resolve(s, reused, orders)
			if err != nil {
				t.Fatalf("deck %v turn %d: resolver: %v", deck, turn, err)
			}
			if got, want := mustJSON(t, revs), mustJSON(t, evs); got != want {
				t.Fatalf("deck %v turn %d: resolver log\n%s\nResolve log\n%s", deck, turn, got, want)
			}
			if got, want := mustJSON(t, rnext), mustJSON(t, next); got != want {
				t.Fatalf("deck %v turn %d: resolver state\n%s\nResolve state\n%s", deck, turn, got, want)
			}
			if after := mustJSON(t, reused); after != before {
				t.Fatalf("deck %v turn %d: the resolver changed the state it was given", deck, turn)
			}
			plain, reused = next, rnext
			played++
		}
		if played < 10 {
			t.Errorf("deck %v: only %d turns played", deck, played)
		}
	}
}

// Given a state from outside, or an older state of its own, the Resolver never writes
// over it, and the state it returned last survives the next call given it.
func TestResolverKeepsStates(t *testing.T) {
	s, st, orders := benchGame(t)
	want, wantEv, err := Resolve(s, st, orders)
	if err != nil {
		t.Fatal(err)
	}
	var rv Resolver
	first, _, err := rv.Resolve(s, st, orders)
	if err != nil {
		t.Fatal(err)
	}
	firstJSON := mustJSON(t, first)
	second, _, err := rv.Resolve(s, first, simpleOrders(first))
	if err != nil {
		t.Fatal(err)
	}
	if mustJSON(t, first) != firstJSON {
		t.Fatal("the state given was written over")
	}
	secondJSON := mustJSON(t, second)
	// The first state again (the older one): the second must survive this call.
	again, evs, err := rv.Resolve(s, first, simpleOrders(first))
	if err != nil {
		t.Fatal(err)
	}
	if mustJSON(t, second) != secondJSON || mustJSON(t, again) != secondJSON {
		t.Fatal("replaying the older state wrote over the newer one or played differently")
	}
	// A state from outside, three times: the same turn each time.
	for k := 0; k < 3; k++ {
		got, ev, err := rv.Resolve(s, st, orders)
		if err != nil {
			t.Fatal(err)
		}
		if mustJSON(t, got) != mustJSON(t, want) || mustJSON(t, ev) != mustJSON(t, wantEv) {
			t.Fatalf("call %d: the resolver played the same turn differently", k)
		}
	}
	_ = evs
}

// The 2023 round through a Resolver plays as Resolve does.
func TestResolverMatchesResolve2023(t *testing.T) {
	s, st, orders := game2023(t, 6)
	want, wantEv, err := Resolve(s, st, orders)
	if err != nil {
		t.Fatal(err)
	}
	var rv Resolver
	for k := 0; k < 3; k++ {
		got, ev, err := rv.Resolve(s, st, orders)
		if err != nil {
			t.Fatal(err)
		}
		if mustJSON(t, got) != mustJSON(t, want) || mustJSON(t, ev) != mustJSON(t, wantEv) {
			t.Fatalf("call %d: the resolver played the 2023 round differently", k)
		}
	}
}

// What Resolve returns is the caller's: later calls (which reuse the engine's working
// memory) leave every earlier state and log as it was.
func TestResolveResultsOwned(t *testing.T) {
	s, err := NewSetup(testCourse(t), PostalRules(), 11, DealtOptions(DeckCrashBurn))
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := NewGame(s, []string{"A", "B", "C", "D", "E", "F", "G", "H"})
	if err != nil {
		t.Fatal(err)
	}
	type kept struct {
		st     *State
		events []Event
		js     string
	}
	var all []kept
	for turn := 1; turn <= 30 && !st.Over; turn++ {
		next, evs, err := Resolve(s, st, simpleOrders(st))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, kept{next, evs, mustJSON(t, next) + mustJSON(t, evs)})
		// A turn from outside the game in between, on the same working memory.
		bs, bst, bo := benchGame(t)
		if _, _, err := Resolve(bs, bst, bo); err != nil {
			t.Fatal(err)
		}
		st = next
	}
	if len(all) < 10 {
		t.Fatalf("only %d turns played", len(all))
	}
	for k, c := range all {
		if got := mustJSON(t, c.st) + mustJSON(t, c.events); got != c.js {
			t.Fatalf("turn %d's state or log changed after later calls", k+1)
		}
	}
}
