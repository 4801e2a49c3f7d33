package orders

import (
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
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

// check on a Deluxe robot's turn-1 sheet: orders for its three cards are accepted, a use
// of a card the sheet does not keep is warned about, keep and give orders the game never
// asks are warned about.
func TestPickOrdersChecked(t *testing.T) {
	plain, st := testGame(t)
	st.Turn = 1
	fred := st.Robot("Fred")
	st.Robots[fred].Offered = []string{"Brakes", "Turret", "Flywheel"}
	rules := plain.Rules
	rules.OptionPackage = "deluxe"
	deluxe, err := adjudicator.NewSetup(plain.Course, rules, plain.Seed, plain.Options)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, sheet, warn string // warn: "" for none
		setup             *adjudicator.Setup
	}{
		{"use of the card kept", "keep Turret\nuse Turret left", "", deluxe},
		{"use of the default", "use Brakes in register 2", "", deluxe},
		{"use of a card not kept", "keep Turret\nuse Brakes in register 2", "applies only if you keep Brakes", deluxe},
		{"keep without a Deluxe package", "keep Turret", "does nothing", plain},
		{"give without Scavenger Hunt II", "give Turret", "does nothing", deluxe},
	} {
		t.Run(tc.name, func(t *testing.T) {
			setup := tc.setup
			sheet, err := ParseText([]byte("Fred Turn 1\n" + tc.sheet + "\n"))
			if err != nil {
				t.Fatal(err)
			}
			var warns []string
			for _, p := range Validate(setup, st, "Fred", sheet).Problems {
				if !p.Warning {
					if !strings.Contains(p.Error(), "register") && !strings.Contains(p.Error(), "program") {
						t.Errorf("error %v", p.Error())
					}
					continue
				}
				warns = append(warns, p.Error())
			}
			got := strings.Join(warns, "; ")
			switch {
			case tc.warn == "" && (strings.Contains(got, "Deluxe") || strings.Contains(got, "do not hold")):
				t.Errorf("warned: %s", got)
			case tc.warn != "" && !strings.Contains(got, tc.warn):
				t.Errorf("warnings %q, want one with %q", got, tc.warn)
			}
		})
	}
}
