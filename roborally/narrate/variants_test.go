package narrate

import (
	"fmt"
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

// The reports say what the option variants did (seed 001, Option Variants).
func TestNarrateVariants(t *testing.T) {
	ev := []adjudicator.Event{
		{Phase: "move", Register: 0, Kind: adjudicator.EvOptionGain, Robot: "Zoom", Option: "Brakes", Cause: "deluxe"},
		{Phase: "flags", Register: 2, Kind: adjudicator.EvOptionGain, Robot: "Zoom", Option: "Turret", Cause: "scavenger-hunt"},
		{Phase: "end", Kind: adjudicator.EvOptionLose, Robot: "Zoom", Option: "Turret", Cause: "bio-option"},
		{Phase: "end", Kind: adjudicator.EvOptionGain, Robot: "Zoom", Option: "Flywheel", Cause: "bio-option"},
	}
	var b strings.Builder
	for _, s := range Narrate(adjudicator.StandardDeck(), ev) {
		fmt.Fprintf(&b, "%v\n", s)
	}
	for _, want := range []string{"Zoom keeps Brakes of its Deluxe Option Package", "Zoom receives Turret from the flag's Scavenger Hunt pile",
		"Zoom discards Turret from its Bio Option", "Zoom draws Flywheel onto its Bio Option"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in\n%s", want, b.String())
		}
	}
}
