package adjudicator

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Every rules setting is described (rulestext.go), so LIST, the welcome and CREATE's
// reply show it: a new Rules field without a text fails here.
func TestEverySettingDescribed(t *testing.T) {
	var keys []string
	rt := reflect.TypeOf(Rules{})
	for i := range rt.NumField() {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		if name == "" || name == "-" {
			t.Errorf("Rules.%s has no JSON name: it cannot be set or shown", rt.Field(i).Name)
			continue
		}
		keys = append(keys, name)
	}
	var described []string
	for _, r := range ruleTexts {
		described = append(described, r.key)
		if !slices.Contains(keys, r.key) {
			t.Errorf("ruleTexts describes %q, which is not a rules setting", r.key)
		}
	}
	for _, k := range keys {
		if !slices.Contains(described, k) {
			t.Errorf("rules setting %q is not described in ruleTexts: LIST and the welcome would not show it", k)
		}
	}
}

// A setting a game changed is shown and marked, whether or not it belongs to the
// ruleset's usual settings; an unchanged one is shown unmarked.
func TestSettingsMarkChanges(t *testing.T) {
	r := PostalRules()
	if got := r.Changed(); len(got) != 0 {
		t.Errorf("the postal rules as they are changed %v", got)
	}
	for _, kv := range [][2]string{{"pass_touches", "true"}, {"option_package", "deluxe"}, {"scavenger_hunt", "2"}, {"bio_bots", "true"}, {"landing", "next"}, {"max_options", "4"}} {
		if err := r.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"max_options=4", "pass_touches=true", "landing=next", "option_package=deluxe", "scavenger_hunt=2", "bio_bots=true"}
	if got := r.Changed(); !slices.Equal(got, want) {
		t.Errorf("changed %v, want %v", got, want)
	}
	var turbo, energy bool
	for _, s := range r.Settings() {
		if s.Text == "" {
			t.Errorf("%s has no text", s.Key)
		}
		turbo = turbo || s.Key == "turbo_wrenches" && s.Value == "false" && !s.Changed
		energy = energy || s.Key == "energy_max"
		if s.Key == "scavenger_hunt" && !strings.Contains(s.Text, "give NAME") {
			t.Errorf("scavenger_hunt=2 reads %q", s.Text)
		}
	}
	if !turbo {
		t.Error("turbo_wrenches, unchanged, is not shown")
	}
	if energy {
		t.Error("energy_max, a 2023 setting the postal game did not change, is shown")
	}
	r.OptionCards = []string{"Brakes"}
	if got := r.Changed(); !slices.Contains(got, "option_cards=(1 cards)") {
		t.Errorf("a fixed deck other than the dealt one is not marked: %v", got)
	}
}
