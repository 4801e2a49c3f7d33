package orders

import (
	"strings"
	"testing"
)

// check --state for option orders (issue 9, item 4): each of these passed before.
func TestOptionOrdersValidated(t *testing.T) {
	for _, tc := range []struct {
		name, order, want string // want: "" for no error
	}{
		{"target that does not exist", "use Tractor Beam on Nobody", `no robot "Nobody"`},
		{"card that does not exist", "use Flywheel P999", "P999 is not a card"},
		{"card already programmed", "use Flywheel P490", "already in register 1"},
		{"card in hand, unprogrammed", "use Conditional Command P500 in register 2", ""},
		{"card not in the hand at all", "use Conditional Command P520", "not in your hand"},
		{"option not held", "use Ramming Device", "you do not hold Ramming Device"},
		{"a parameter the card does not take", "use Brakes on Zoë", "takes no target"},
		{"own robot as target", "use Tractor Beam on Fred", "your own robot"},
		{"Flywheel with no card", "use Flywheel", "needs the card"},
		{"good target", "use Tractor Beam on Zoë", ""},
		{"good flywheel", "use Flywheel P790", ""},
		{"good reverse gear", "use Reverse Gear back 2", ""},
		{"good target control", "use Target Control on Zoë lock register 3", ""},
		{"target control both", "use Target Control on Zoë lock register 3 destroy Brakes", "not both"},
		{"good shield", "use Protection Shield left", ""},
		// Armed and Dangerous (seed 001).
		{"good big gun", "use Big Gun on Zoë", ""},
		{"big gun takes no direction", "use Big Gun facing left", "takes no direction"},
		{"good reengineering unit", "use Reengineering Unit on Zoë take Brakes", ""},
		{"reengineering unit takes no card", "use Reengineering Unit P790", "takes no card"},
		{"good reflector", "use Reflector facing back", ""},
		{"reflector takes no target", "use Reflector on Zoë", "takes no target"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			setup, st := testGame(t)
			fred := st.Robot("Fred")
			st.Robots[fred].Hand = append(st.Robots[fred].Hand, 500)
			st.Robots[fred].Options = []string{"Tractor Beam", "Flywheel", "Conditional Command", "Brakes", "Reverse Gear", "Target Control", "Protection Shield", "Big Gun", "Reengineering Unit", "Reflector"}
			s := mustParse(t, "Fred Turn 3\nP490 P670 P70 P80 P430\n"+tc.order)
			rep := Validate(setup, st, "Fred", s)
			var errs []string
			for _, p := range rep.Problems {
				if !p.Warning {
					errs = append(errs, p.Error())
				}
			}
			got := strings.Join(errs, "; ")
			switch {
			case tc.want == "" && got != "":
				t.Errorf("%q: %s; want no error", tc.order, got)
			case tc.want != "" && !strings.Contains(got, tc.want):
				t.Errorf("%q: %q; want an error with %q", tc.order, got, tc.want)
			case tc.want != "" && !strings.Contains(got, "line 3"):
				t.Errorf("%q: %q; want the error on line 3", tc.order, got)
			}
		})
	}
}
