package orders

import (
	"testing"
)

// Seed 001's option variants are ordered by "keep NAME" and "give NAME [to ROBOT]"
// (adjudicator/variants.go); they read back as written, in text and in YAML, and do not
// swallow the older orders that start with "keep".
func TestPickOrdersParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Action
		text string
	}{
		{"keep Brakes", Action{Do: DoKeepOption, Option: "Brakes"}, "keep Brakes"},
		{"prefer Fourth Gear", Action{Do: DoKeepOption, Option: "Fourth Gear"}, "keep Fourth Gear"},
		{"give Turret", Action{Do: DoGiveOption, Option: "Turret"}, "give Turret"},
		{"give Turret to Zoë", Action{Do: DoGiveOption, Option: "Turret", Target: "Zoë"}, "give Turret to Zoë"},
		{"keep archive", Action{Do: DoKeepArchive}, "keep archive"},
		{"keep options", Action{Do: DoKeepOptions}, "keep options"},
		{"keep powered down", Action{Do: DoStayDown}, "stay down"},
		{"give up Brakes", Action{Do: DoLoseOption, Option: "Brakes"}, "lose Brakes"},
	} {
		r, err := ParseRule(tc.in, 1)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if r.Then != tc.want {
			t.Errorf("%q: %+v, want %+v", tc.in, r.Then, tc.want)
		}
		if got := r.Then.String(); got != tc.text {
			t.Errorf("%q reads back as %q, want %q", tc.in, got, tc.text)
		}
	}
	for _, bad := range []string{"keep Brakez Turret", "give", "give Turret to"} {
		if _, err := ParseRule(bad, 1); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	y, err := ParseYAML([]byte("robot: Fred\norders:\n  - keep Brakes\n  - give Turret to Zoë\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(y.Rules) != 2 || y.Rules[0].Then.Do != DoKeepOption || y.Rules[1].Then.Target != "Zoë" {
		t.Errorf("YAML: %+v", y.Rules)
	}
}

// A new sheet's keep orders replace the standing ones (Merge: one decision, "keep").
func TestPickOrdersMerge(t *testing.T) {
	cur, err := ParseText([]byte("Fred Turn 1\nkeep Brakes\nkeep Turret\npower down\n"))
	if err != nil {
		t.Fatal(err)
	}
	next, err := ParseText([]byte("Fred Turn 1\nkeep Flywheel\n"))
	if err != nil {
		t.Fatal(err)
	}
	m := Merge(cur, next)
	var keeps []string
	for _, r := range m.Rules {
		if r.Then.Do == DoKeepOption {
			keeps = append(keeps, r.Then.Option)
		}
	}
	if len(keeps) != 1 || keeps[0] != "Flywheel" || len(m.Rules) != 2 {
		t.Errorf("merged orders %v, keeps %v: want keep Flywheel and the power down", m.Rules, keeps)
	}
}
