package adjudicator

import (
	"slices"
	"strings"
	"testing"
)

// The option variants' settings are read, checked and refused where they make no sense
// (variants.go).
func TestVariantSettingsChecked(t *testing.T) {
	for _, tc := range []struct {
		set  [][2]string
		want string // "" accepted, else a word of the error
	}{
		{[][2]string{{"option_package", "deluxe"}}, ""},
		{[][2]string{{"scavenger_hunt", "1"}}, ""},
		{[][2]string{{"scavenger_hunt", "2"}, {"bio_bots", "true"}, {"option_package", "deluxe"}, {"turbo_wrenches", "true"}}, ""},
		{[][2]string{{"scavenger_hunt", "3"}}, "scavenger hunt 3"},
		{[][2]string{{"option_package", "gold"}}, "option package \"gold\""},
	} {
		r := PostalRules()
		for _, kv := range tc.set {
			if err := r.Set(kv[0], kv[1]); err != nil {
				t.Fatalf("%v: %v", tc.set, err)
			}
		}
		err := r.Check()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%v refused: %v", tc.set, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%v: got %v, want an error about %s", tc.set, err, tc.want)
		}
	}
	r := Rules2023()
	r.BioBots = true
	if err := r.Check(); err == nil {
		t.Error("Bio-Bots accepted in the 2023 rules, which have no option cards")
	}
}

// seed 001, Bio-Bots: "Remove Bio Option from the option card deck".
func TestBioBotsDealNoBioOption(t *testing.T) {
	r := PostalRules()
	r.OptionCards = []string{"Brakes", BioOption, "Turret"}
	if got := r.Dealt(); !slices.Contains(got, BioOption) {
		t.Fatalf("without Bio-Bots the deck lost Bio Option: %v", got)
	}
	r.BioBots = true
	got := r.Dealt()
	if slices.Contains(got, BioOption) || len(got) != 2 {
		t.Errorf("Bio-Bots deals %v, want Brakes and Turret", got)
	}
	if !slices.Contains(r.OptionCards, BioOption) {
		t.Error("Dealt changed the rules' own card list")
	}
}

// A Deluxe game's new state is checked like any other: the offered cards are cards of the
// deck, once each, and only before turn 1 is played.
func TestDeluxeOfferedChecked(t *testing.T) {
	c := testCourse(t)
	rules := PostalRules()
	rules.OptionPackage = "deluxe"
	s, err := NewSetup(c, rules, 7, []string{"Brakes", "Turret", "Flywheel", "Rear Laser", "Fourth Gear", "Double Laser"})
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := NewGame(s, []string{"A", "B"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CheckState(st); err != nil {
		t.Fatalf("a new Deluxe game is impossible: %v", err)
	}
	if len(st.Robots[0].Offered) != 3 || len(st.Robots[1].Offered) != 3 || len(st.OptionDeck) != 0 {
		t.Fatalf("offered %v and %v, deck %v: want three each from the six", st.Robots[0].Offered, st.Robots[1].Offered, st.OptionDeck)
	}
	late := st.Clone()
	late.Turn = 2
	if err := s.CheckState(late); err == nil || !strings.Contains(err.Error(), "offered") {
		t.Errorf("offered cards at turn 2 accepted: %v", err)
	}
	twice := st.Clone()
	twice.Robots[1].Offered[0] = twice.Robots[0].Offered[0]
	if err := s.CheckState(twice); err == nil {
		t.Error("a card offered to two robots accepted")
	}
}
