package orders

import (
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// A register that is blocked is worth a warning (issue 22: a forecast that showed three
// registers blocked by a wall ended "No warnings."). Fred faces north with a wall on his
// square's north edge, or Twonky (powered down, its back to a wall) in front of him:
// the robot is named, not the wall behind it; or his first move ends on a pit.
func TestForecastWarnsWhenBlocked(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(b *adjudicator.Board, st *adjudicator.State)
		want  string
	}{
		{"wall", func(b *adjudicator.Board, st *adjudicator.State) {
			b.At(adjudicator.Pos{X: 2, Y: 5}).Walls = b.At(adjudicator.Pos{X: 2, Y: 5}).Walls.With(adjudicator.North)
			b.NormalizeWalls()
		}, "is blocked by a wall at 2,5 in register 1"},
		{"robot", func(b *adjudicator.Board, st *adjudicator.State) {
			b.At(adjudicator.Pos{X: 2, Y: 4}).Walls = b.At(adjudicator.Pos{X: 2, Y: 4}).Walls.With(adjudicator.North)
			b.NormalizeWalls()
			tw := &st.Robots[st.Robot("Twonky")]
			tw.Pos, tw.Archive = adjudicator.Pos{X: 2, Y: 4}, adjudicator.Pos{X: 2, Y: 4}
		}, "is blocked by robot Twonky, which a wall behind it keeps from being pushed, at 2,5 in register 1"},
		{"pit", func(b *adjudicator.Board, st *adjudicator.State) {
			b.At(adjudicator.Pos{X: 2, Y: 4}).Floor = adjudicator.FloorPit
		}, "falls into a pit at 2,4 in register 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			setup, st := testGame(t)
			tc.setup(setup.Course.Board, st)
			setup, err := adjudicator.NewSetup(setup.Course, adjudicator.PostalRules(), 7, adjudicator.DealtOptions(adjudicator.DeckBoth))
			if err != nil {
				t.Fatal(err) // the set-up reads the walls as it is made
			}
			f, err := Forecast(setup, st, "Fred", mustParse(t, "P490 P70 P80 P100 P430"))
			if err != nil {
				t.Fatal(err)
			}
			out := f.String()
			if !strings.Contains(out, tc.want) || strings.Contains(out, "No warnings.") {
				t.Errorf("forecast:\n%s\nwant a warning %q", out, tc.want)
			}
		})
	}
}
