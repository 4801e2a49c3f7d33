package autopilot

import (
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

func docking2023(t *testing.T) *Guide {
	t.Helper()
	return NewGuide(courseSetup(t, "docking-run", adjudicator.Rules2023()))
}

// courseSetup is the setup of a shipped course with rules, seed 1, no option cards.
func courseSetup(t *testing.T, course string, rules adjudicator.Rules) *adjudicator.Setup {
	t.Helper()
	c, err := adjudicator.LoadCourse(course)
	if err != nil {
		t.Fatal(err)
	}
	s, err := adjudicator.NewSetup(c, rules, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The cost to go knows what the floor does: on the docking run the blue belt down the
// assembly's west side carries a robot towards checkpoint 2 (3,8), so its square 2,3
// costs less than 3,3 beside it, although 3,3 is a square nearer on foot.
func TestToGoRidesTheBelt(t *testing.T) {
	g := docking2023(t)
	belt, floor := adjudicator.Pos{X: 2, Y: 3}, adjudicator.Pos{X: 3, Y: 3}
	if g.Dist(2, belt) <= g.Dist(2, floor) {
		t.Fatalf("path distance: belt %d, floor %d; the test wants the belt square further on foot", g.Dist(2, belt), g.Dist(2, floor))
	}
	if b, f := g.BestToGo(2, belt), g.BestToGo(2, floor); b >= f {
		t.Errorf("cost to go from the belt square %v is %d, from %v %d: want the belt cheaper", belt, b, floor, f)
	}
}

// Facing counts: three squares south of checkpoint 1 (9,3), facing it is one Move 3;
// facing away it takes a U-turn or three Back Ups, and facing east a turn.
func TestToGoFacing(t *testing.T) {
	g := docking2023(t)
	p := adjudicator.Pos{X: 9, Y: 6}
	n, e, s := g.ToGo(1, p, adjudicator.North), g.ToGo(1, p, adjudicator.East), g.ToGo(1, p, adjudicator.South)
	if want := 3*stepValue + registerValue; n != want {
		t.Errorf("facing north: %d, want one Move 3 (%d)", n, want)
	}
	if !(n < e && e < s) {
		t.Errorf("facing north %d, east %d, south %d: want them rising", n, e, s)
	}
	if c := g.ToGo(1, adjudicator.Pos{X: 9, Y: 3}, adjudicator.West); c != 0 {
		t.Errorf("on the checkpoint: %d, want 0", c)
	}
	if c := g.BestToGo(1, adjudicator.Pos{X: 8, Y: 2}); c != togoUnreachable {
		t.Errorf("in the pit at 8,2: %d, want unreachable", c)
	}
	if c := g.ToGo(3, p, adjudicator.North); c != 0 {
		t.Errorf("beyond the last checkpoint: %d, want 0", c)
	}
}

// The table's floor: a gear turns a robot standing on it, a blue belt carries one that
// steps onto it two squares in the same register, a pit ends the path.
func TestToGoFloor(t *testing.T) {
	s := courseSetup(t, "docking-run", adjudicator.Rules2023())
	b := s.Course.Board
	f := &togoFloor{b: b, elements: s.Rules.Elements, bare: make([]bool, len(b.Squares))}
	wait, move1 := togoActions[len(togoActions)-1], togoActions[0]
	at := func(x, y int) adjudicator.Pos { return adjudicator.Pos{X: x, Y: y} }
	for _, tc := range []struct {
		name   string
		from   adjudicator.Pos
		facing adjudicator.Dir
		a      togoAction
		to     adjudicator.Pos
		end    adjudicator.Dir
		ok     bool
	}{
		{"the right gear turns it", at(8, 8), adjudicator.West, wait, at(8, 8), adjudicator.North, true},
		{"onto the gear", at(8, 9), adjudicator.North, move1, at(8, 8), adjudicator.East, true},
		{"onto the blue belt", at(3, 3), adjudicator.West, move1, at(2, 5), adjudicator.West, true},
		{"the green belt carries one", at(6, 5), adjudicator.North, wait, at(7, 5), adjudicator.North, true},
		{"into the pit", at(8, 3), adjudicator.North, move1, at(8, 2), adjudicator.North, false},
		{"the wall stops it", at(7, 8), adjudicator.North, move1, at(7, 8), adjudicator.North, true},
	} {
		to, end, ok := f.next(tc.from, tc.facing, tc.a)
		if to != tc.to || end != tc.end || ok != tc.ok {
			t.Errorf("%s: %v facing %v ends %v facing %v (on the floor %v), want %v %v (%v)", tc.name, tc.from, tc.facing, to, end, ok, tc.to, tc.end, tc.ok)
		}
	}
}

// Under the postal rules there is no table: ToGo is the path distance and the quarter
// turns the evaluation counts.
func TestToGoPostal(t *testing.T) {
	s := courseSetup(t, "sprint", adjudicator.PostalRules())
	g := NewGuide(s)
	if g.togo != nil {
		t.Fatal("a postal guide has a cost table")
	}
	p := adjudicator.Pos{X: 5, Y: 5}
	if got, want := g.ToGo(1, p, adjudicator.North), g.Dist(1, p)*stepValue+g.Turns(1, p, adjudicator.North)*turn2023Value; got != want {
		t.Errorf("postal ToGo %d, want %d", got, want)
	}
}

// The race's cost to go adds the legs from checkpoint to checkpoint: on the docking run,
// from checkpoint 1 to checkpoint 2 leaving it the best way.
func TestRace(t *testing.T) {
	g := docking2023(t)
	p := adjudicator.Pos{X: 9, Y: 6}
	leg := g.BestToGo(2, g.flags[0])
	if leg <= 0 || leg >= togoUnreachable {
		t.Fatalf("the leg from checkpoint 1 to 2 costs %d", leg)
	}
	if got, want := g.Race(1, p, adjudicator.North), g.ToGo(1, p, adjudicator.North)+leg; got != want {
		t.Errorf("Race(1) = %d, want %d", got, want)
	}
	if got, want := g.Race(2, p, adjudicator.North), g.ToGo(2, p, adjudicator.North); got != want {
		t.Errorf("Race(2) = %d, want %d (the last leg)", got, want)
	}
	if got, want := g.RaceBest(1, p), g.BestToGo(1, p)+leg; got != want {
		t.Errorf("RaceBest(1) = %d, want %d", got, want)
	}
}
