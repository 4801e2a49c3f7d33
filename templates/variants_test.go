package templates

import (
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// A Bio-Bot's card is marked in the robots' status, and the Scavenger Hunt piles left are
// in every report's public part (seed 001, Option Variants).
func TestReportShowsVariants(t *testing.T) {
	st := &adjudicator.State{Turn: 3, Robots: []adjudicator.Robot{{Name: "Zoom", Lives: 3, Options: []string{"Brakes", "Turret"}, Bio: "Turret"}},
		Piles: [][]string{{"Flywheel"}, {}}}
	rs := StatusOf(adjudicator.StandardDeck(), st)
	if got := rs[0].Options; got != "Brakes, Turret (on its Bio Option)" {
		t.Errorf("options %q", got)
	}
	set := loadSet(t)
	rep := Report{Game: "g", Course: "c", Turn: 2, NextTurn: 3, Robots: rs, Piles: PileLines(st)}
	for _, tmpl := range []string{"report.txt.tmpl", "report.html.tmpl"} {
		var out string
		var err error
		if strings.HasSuffix(tmpl, ".html.tmpl") {
			out, err = set.HTML(tmpl, rep)
		} else {
			out, err = set.Text(tmpl, rep)
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"flag 1: Flywheel", "flag 2: empty", "(on its Bio Option)"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q:\n%s", tmpl, want, out)
			}
		}
	}
}
