package adjudicator

import "testing"

// The board lasers found from the robots (fireLasers' beam index) hit what walking every
// laser's path hits (boardLasers, kept for floors with more than 64 lasers): games on
// every course of the library, played both ways, give the same logs and states.
func TestBeamIndexMatchesPathWalk(t *testing.T) {
	names := []string{"A", "B", "C", "D", "E", "F", "G", "H"}
	lit := 0
	for _, name := range Courses() {
		c, err := LoadCourse(name)
		if err != nil {
			t.Fatal(err)
		}
		fast, err := NewSetup(c, PostalRules(), 3, DealtOptions(DeckBoth))
		if err != nil {
			continue // a course made for other rules
		}
		walk, err := NewSetup(c, PostalRules(), 3, DealtOptions(DeckBoth))
		if err != nil {
			t.Fatal(err)
		}
		walk.beamFrom, walk.beamRefs = nil, nil // fireLasers falls back on boardLasers
		n := min(len(names), len(c.Starts))
		st, _, err := NewGame(fast, names[:n])
		if err != nil {
			t.Fatal(err)
		}
		a, b := st, st
		for turn := 1; turn <= 15 && !a.Over; turn++ {
			orders := simpleOrders(a)
			na, ea, err := Resolve(fast, a, orders)
			if err != nil {
				t.Fatalf("%s turn %d: %v", name, turn, err)
			}
			nb, eb, err := Resolve(walk, b, orders)
			if err != nil {
				t.Fatalf("%s turn %d: path walk: %v", name, turn, err)
			}
			if got, want := mustJSON(t, ea), mustJSON(t, eb); got != want {
				t.Fatalf("%s turn %d: beam index log\n%s\npath walk log\n%s", name, turn, got, want)
			}
			if got, want := mustJSON(t, na), mustJSON(t, nb); got != want {
				t.Fatalf("%s turn %d: states differ", name, turn)
			}
			for _, e := range ea {
				if e.Kind == EvDamage && e.Cause == "laser" {
					lit++
				}
			}
			a, b = na, nb
		}
	}
	if lit == 0 {
		t.Fatal("no board laser hit a robot: the test compares nothing")
	}
	t.Logf("%d board laser hits compared", lit)
}
