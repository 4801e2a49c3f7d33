package autopilot_test

import (
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/autopilot"
)

// tinySetup is a 5×4 one-board course:
//
//	s1  .   .|E  .   f1
//	.   X   .|E  .   .
//	.   X   .    .   lW2|E
//	.   .   .    .   .
func tinySetup(t *testing.T) *adjudicator.Setup {
	t.Helper()
	bf, err := adjudicator.ParseBoardRows("tiny", 1, []string{
		"s1   .    .|E  .    f1",
		".    X    .|E  .    .",
		".    X    .    .    lW2|E",
		".    .    .    .    .",
	})
	if err != nil {
		t.Fatal(err)
	}
	s, err := adjudicator.NewSetup(bf.Course(), adjudicator.PostalRules(), 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestGuideDistances(t *testing.T) {
	g := autopilot.NewGuide(tinySetup(t))
	for _, c := range []struct {
		at   adjudicator.Pos
		want int
	}{
		{adjudicator.Pos{X: 4, Y: 0}, 0},
		{adjudicator.Pos{X: 3, Y: 0}, 1},
		// The walls east of 2,0 and 2,1 send the robot round by row 2.
		{adjudicator.Pos{X: 2, Y: 0}, 6},
		{adjudicator.Pos{X: 0, Y: 0}, 8},
		// Round the pits at 1,1 and 1,2.
		{adjudicator.Pos{X: 0, Y: 2}, 8},
		{adjudicator.Pos{X: 1, Y: 1}, autopilot.Unreachable}, // a pit
		{adjudicator.Pos{X: -1, Y: 0}, autopilot.Unreachable},
	} {
		if got := g.Dist(1, c.at); got != c.want {
			t.Errorf("Dist(flag 1, %v) = %d, want %d", c.at, got, c.want)
		}
	}
	if got := g.Dist(2, adjudicator.Pos{}); got != 0 {
		t.Errorf("distance beyond the last flag = %d, want 0", got)
	}
	if got := g.Beams(adjudicator.Pos{X: 2, Y: 2}); got != 2 {
		t.Errorf("Beams(2,2) = %d, want 2 (the emitter at 4,2 fires west)", got)
	}
	if got := g.Beams(adjudicator.Pos{X: 0, Y: 2}); got != 2 {
		t.Errorf("Beams(0,2) = %d, want 2 (a beam crosses pits to the board edge)", got)
	}
	if got := g.Beams(adjudicator.Pos{X: 0, Y: 3}); got != 0 {
		t.Errorf("Beams(0,3) = %d, want 0", got)
	}
	if d, ok := g.Downhill(1, adjudicator.Pos{X: 2, Y: 0}); !ok || d != adjudicator.South {
		t.Errorf("Downhill from 2,0 = %v %v, want S (the wall blocks east)", d, ok)
	}
	if n := g.Turns(1, adjudicator.Pos{X: 2, Y: 0}, adjudicator.North); n != 2 {
		t.Errorf("Turns from 2,0 facing N = %d, want 2", n)
	}
	if n := g.Turns(1, adjudicator.Pos{X: 2, Y: 0}, adjudicator.East); n != 1 {
		t.Errorf("Turns from 2,0 facing E = %d, want 1", n)
	}
}
