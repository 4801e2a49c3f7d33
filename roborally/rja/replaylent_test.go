package rja

import (
	"encoding/json"
	"testing"
)

// A Step's log is lent by the engine and valid only during each; s.Kept() outlives it:
// every turn's kept log is, after the whole replay, what each saw of it then (a copy
// sharing the engine's positions would show later turns' moves).
func TestReplayStepKept(t *testing.T) {
	a := playGame(t, "sprint", 4, 15, 3, 50)
	setup, err := a.Setup()
	if err != nil {
		t.Fatal(err)
	}
	var kept []Step
	var seen []string
	if err := Replay(&a, setup, -1, func(s Step) error {
		b, err := json.Marshal(s.Events)
		if err != nil {
			return err
		}
		kept, seen = append(kept, s.Kept()), append(seen, string(b))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(kept) < 10 {
		t.Fatalf("only %d turns replayed", len(kept))
	}
	moves := 0
	for k, s := range kept {
		b, _ := json.Marshal(s.Events)
		if string(b) != seen[k] {
			t.Fatalf("turn %d: the kept log changed after the replay:\n%s\nwas\n%s", s.Turn, b, seen[k])
		}
		for _, e := range s.Events {
			if e.To != nil {
				moves++
			}
		}
	}
	if moves == 0 {
		t.Fatal("no event with a position: nothing compared")
	}
}
