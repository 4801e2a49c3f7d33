package orders

import (
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// Validate forecasts every sheet through a Simulator kept in a pool (simulators),
// reset for each game: a sheet checked against one game and then another, on the same
// course or another, is warned about what it does in the game it is checked against,
// never in the game checked before. The same sheet drives Fred into the pit at 4,5 from
// 4,7 and past no pit from 2,5; on a course without that pit, from nowhere.
func TestValidateForecastsEachGameAfresh(t *testing.T) {
	setup, safe := testGame(t)
	doomed := safe.Clone()
	doomed.Robots[0].Pos, doomed.Robots[0].Archive = adjudicator.Pos{X: 4, Y: 7}, adjudicator.Pos{X: 4, Y: 7}
	c := *setup.Course
	c.Board = adjudicator.NewBoard(8, 8)
	c.Board.At(adjudicator.Pos{X: 2, Y: 1}).Flag = 1
	c.Board.At(adjudicator.Pos{X: 6, Y: 6}).Flag = 2
	noPit, err := adjudicator.NewSetup(&c, adjudicator.PostalRules(), 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(typicalSheet)
	if err != nil {
		t.Fatal(err)
	}
	const pit = "falls into a pit at 4,5 in register 2"
	games := []struct {
		name  string
		setup *adjudicator.Setup
		st    *adjudicator.State
		want  string // the destruction warned of, "" for none
	}{
		{"safe", setup, safe, ""},
		{"doomed", setup, doomed, pit},
		{"doomed on a course without the pit", noPit, doomed, ""},
	}
	for round := 0; round < 3; round++ {
		for k := range games {
			g := games[(k+round)%len(games)] // each game after each other
			rep := Validate(g.setup, g.st, "Fred", s)
			if !rep.OK() {
				t.Fatalf("%s: %v", g.name, rep)
			}
			var got []string
			for _, p := range rep.Warnings() {
				if strings.Contains(p.Msg, "pit") || strings.Contains(p.Msg, "destroyed") {
					got = append(got, p.Msg)
				}
			}
			switch {
			case g.want == "" && len(got) > 0:
				t.Errorf("round %d, %s: warned %q, a forecast of another game", round, g.name, got)
			case g.want != "" && (len(got) != 1 || got[0] != g.want):
				t.Errorf("round %d, %s: warned %q, want %q", round, g.name, got, g.want)
			}
		}
	}
}
