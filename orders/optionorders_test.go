package orders

import (
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
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
		// Phase-programmed cards (seed 001; Fred's unprogrammed cards: P10 P100 P500 P790).
		{"good crab legs", "use Crab Legs in register 3 P500", ""},
		{"crab legs, register first", "R3 use Crab Legs P500", ""},
		{"crab legs, R3 among the parameters", "use Crab Legs R3 P500", ""},
		{"phase card with no register", "use Crab Legs P500", "say which register"},
		{"crab legs with a move 3", "use Crab Legs in register 3 P790", "cannot play"},
		{"second card not in the hand", "use Crab Legs in register 3 P520", "not in your hand"},
		{"second card programmed", "use Crab Legs in register 3 P490", "already in register 1"},
		{"crab legs takes no empty", "use Crab Legs in register 3 empty", `takes no "empty"`},
		{"good dual processor", "use Dual Processor in register 4 P790", ""},
		{"dual processor, a pair not in its table", "use Dual Processor in register 4 P500", "cannot play"},
		{"good overload override, both named", "use Overload Override in register 2 P670 P500 primary P500", ""},
		{"overload override, neither card the register's", "use Overload Override in register 2 P100 P500", "holds P670"},
		{"overload override, primary not one of them", "use Overload Override in register 2 P500 primary P790", "primary P790 is not"},
		{"good overload override, empty", "use Overload Override in register 5 empty", ""},
		{"overload override with no card", "use Overload Override in register 5", "needs the second card"},
		{"primary on a card that takes none", "use Crab Legs in register 3 P500 primary P500", "takes no primary card"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			setup, st := testGame(t)
			fred := st.Robot("Fred")
			st.Robots[fred].Hand = append(st.Robots[fred].Hand, 500)
			st.Robots[fred].Options = []string{"Tractor Beam", "Flywheel", "Conditional Command", "Brakes", "Reverse Gear", "Target Control", "Protection Shield", "Big Gun", "Reengineering Unit", "Reflector", "Crab Legs", "Dual Processor", "Overload Override"}
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

// One movement option a register, and a card placed in one register only (seed 001,
// Types of Phase-Programmed Options).
func TestPhaseOrdersPerRegister(t *testing.T) {
	for _, tc := range []struct{ orders, want string }{
		{"use Crab Legs in register 3 P500\nuse Dual Processor in register 3 P790", "already has a movement option (Crab Legs)"},
		{"use Crab Legs in register 3 P500\nuse Overload Override in register 4 P500", "placed in register 3 already"},
		{"use Crab Legs in register 3 P500\nuse Dual Processor in register 4 P790", ""},
		{"use Crab Legs in register 3 P500\nuse Flywheel P500", "placed in register 3 by a phase-programmed option"},
	} {
		setup, st := testGame(t)
		fred := st.Robot("Fred")
		st.Robots[fred].Options = []string{"Crab Legs", "Dual Processor", "Overload Override", "Flywheel"}
		s := mustParse(t, "Fred Turn 3\nP490 P670 P70 P80 P430\n"+tc.orders)
		var errs []string
		for _, p := range Validate(setup, st, "Fred", s).Problems {
			if !p.Warning {
				errs = append(errs, p.Error())
			}
		}
		got := strings.Join(errs, "; ")
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%q: %q; want %q", tc.orders, got, tc.want)
		}
	}
	// A locked register takes no second card (Zoë: 6 damage locks registers 4 and 5).
	setup, st := testGame(t)
	zoe := st.Robot("Zoë")
	st.Robots[zoe].Options = []string{"Crab Legs"}
	s := mustParse(t, "Zoë Turn 3\nP520 P130 P680 - -\nuse Crab Legs in register 4 P130")
	var got []string
	for _, p := range Validate(setup, st, "Zoë", s).Problems {
		got = append(got, p.Error())
	}
	if !strings.Contains(strings.Join(got, "; "), "register 4 is locked") {
		t.Errorf("Crab Legs in a locked register: %q; want it refused", got)
	}
}

// Buzz Bomb's order keeps all five cards, in order (seed 001, Buzz Bomb: "take five
// program cards"); a sixth, or a second card for a one-card option, is an error, never
// the last card kept silently.
func TestBuzzBombOrderKeepsFiveCards(t *testing.T) {
	r, err := ParseRule("use Buzz Bomb P490 P500 P510 P520 P530", 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Then.Cards(); len(got) != 5 || got[0] != 490 || got[4] != 530 {
		t.Fatalf("cards %v, want P490 ... P530 in order", got)
	}
	if p := r.Then.Param(); p != "card=490;cards=490,500,510,520,530" {
		t.Errorf("param %q", p)
	}
	a := adjudicator.ParseAnswer(r.Then.Param())
	if len(a.Cards) != 5 || a.Cards[2] != 510 {
		t.Errorf("the engine reads cards %v", a.Cards)
	}
	back, err := ParseRule(r.String(), 1)
	if err != nil || back.Then != r.Then {
		t.Errorf("canonical %q reads back as %+v (%v)", r.String(), back.Then, err)
	}
	for _, bad := range []string{"use Buzz Bomb P490 P500 P510 P520 P530 P540", "use Flywheel P490 P670"} {
		if _, err := ParseRule(bad, 1); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// check --state: the five cards must be the bomb hand's, each once.
func TestBuzzBombOrderChecked(t *testing.T) {
	setup, st := testGame(t)
	fred := st.Robot("Fred")
	st.Robots[fred].Options = []string{"Buzz Bomb"}
	st.Robots[fred].BombHand = []int{110, 120, 130, 140, 150}
	for order, want := range map[string]string{
		"use Buzz Bomb P110 P120 P130 P140 P150": "",
		"use Buzz Bomb":                          "",
		"use Buzz Bomb P110 P120 P130 P140 P160": "P160 is not one of your buzz bomb's cards",
		"use Buzz Bomb P110 P120 P130 P140 P140": "P140 is written twice",
		"use Buzz Bomb P110 P120":                "programmed with 5 cards, not 2",
	} {
		s, err := Parse([]byte("Fred Turn 3\nP670 P70 P80 P100 P430\n" + order + "\n"))
		if err != nil {
			t.Fatalf("%q: %v", order, err)
		}
		var errs []string
		for _, p := range Validate(setup, st, "Fred", s).Problems {
			if !p.Warning {
				errs = append(errs, p.Error())
			}
		}
		switch {
		case want == "" && len(errs) > 0:
			t.Errorf("%q refused: %v", order, errs)
		case want != "" && (len(errs) == 0 || !strings.Contains(strings.Join(errs, "; "), want)):
			t.Errorf("%q: errors %v, want %q", order, errs, want)
		}
	}
}
