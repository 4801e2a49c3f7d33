package orders

import (
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

func mustParse(t *testing.T, text string) *Sheet {
	t.Helper()
	s, err := Parse([]byte(text))
	if err != nil {
		t.Fatalf("parse %q: %v", text, err)
	}
	return s
}

func eventsOf(evs []adjudicator.Event, robot, kind string) []adjudicator.Event {
	var out []adjudicator.Event
	for _, e := range evs {
		if e.Robot == robot && e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// Conditions are judged when the damage arrives: Zoë (6 damage) walks into the laser
// in register 2 with 6 damage, so "damage > 5" holds then and "damage > 6" does not.
func TestDeciderPreventDamageJudgedAtDecision(t *testing.T) {
	for _, tc := range []struct {
		order     string
		prevented string // option discarded, "" for none
	}{
		{"discard Turret to prevent damage if damage > 5", "Turret"},
		{"discard Turret to prevent damage if damage > 6", ""},
		{"discard any option to prevent damage", "Brakes"},
		{"if I hold Turret discard Turret to prevent damage else keep options", "Turret"},
		{"if register 2 then prevent damage with Brakes", "Brakes"},
		{"if register 3 then prevent damage with Brakes", ""},
		{"keep options\ndiscard any option to prevent damage", ""},
		{"discard Rear Laser to prevent damage", ""}, // not held
		{"if target would be destroyed discard Turret to prevent damage", ""},
	} {
		t.Run(tc.order, func(t *testing.T) {
			setup, st := testGame(t)
			s := mustParse(t, "Zoë Turn 3\nP130 P520 P680 locked locked\n"+tc.order+"\n")
			_, evs, err := adjudicator.Simulate(setup, st, st.Robot("Zoë"), s.Orders())
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if p := eventsOf(evs, "Zoë", adjudicator.EvPrevented); len(p) > 0 {
				got = p[0].Option
			}
			if got != tc.prevented {
				t.Errorf("prevented with %q, want %q", got, tc.prevented)
			}
		})
	}
}

// A whole turn through the engine: Ådne drives off the board, loses the option its
// orders name, re-enters facing as ordered; Fred ends on the laser and powers down
// because his condition holds at the end of the turn.
func TestDeciderWholeTurn(t *testing.T) {
	setup, st := testGame(t)
	st.Robots[st.Robot("Ådne")].Options = []string{"Brakes", "Turret", "Rear Laser"}
	sheets := map[string]string{
		"Fred":   "Fred Turn 3\nM2 670 L70 R80 U10 R100\nif damage > 2 and on a laser then power down else come back up\n",
		"Zoë":    "Zoë Turn 3\nP130 P520 P680 locked locked\nkeep options\n",
		"Twonky": "Twonky Turn 3\ncome back up\n",
		"Ådne":   "Ådne Turn 3\nP540 P20 P90 P150 P690\nwhen destroyed lose Turret\nif destroyed reenter facing east\n",
	}
	orders := make([]adjudicator.Orders, len(st.Robots))
	for i, r := range st.Robots {
		orders[i] = mustParse(t, sheets[r.Name]).Orders()
	}
	next, evs, err := adjudicator.Resolve(setup, st, orders)
	if err != nil {
		t.Fatal(err)
	}
	if l := eventsOf(evs, "Ådne", adjudicator.EvOptionLose); len(l) != 1 || l[0].Option != "Turret" {
		t.Errorf("Ådne lost %+v, want Turret", l)
	}
	if r := eventsOf(evs, "Ådne", adjudicator.EvReenter); len(r) != 1 || r[0].Facing == nil || *r[0].Facing != adjudicator.East {
		t.Errorf("Ådne re-entered %+v, want facing E", r)
	}
	if a := eventsOf(evs, "Fred", adjudicator.EvAnnounce); len(a) != 1 {
		t.Errorf("Fred announced %d power downs, want 1", len(a))
	}
	if got := next.Robots[next.Robot("Twonky")].Power; got != adjudicator.PowerOn {
		t.Errorf("Twonky power %v, want on", got)
	}
	if got := next.Robots[next.Robot("Zoë")].Power; got != adjudicator.PowerOn {
		t.Errorf("Zoë power %v, want on (no order to power down)", got)
	}
}

func TestDeciderDefaultsWhenSilent(t *testing.T) {
	setup, st := testGame(t)
	st.Robots[st.Robot("Ådne")].Options = []string{"Brakes", "Turret"}
	s := mustParse(t, "Ådne Turn 3\nP540 P20 P90 P150 P690\nwhen destroyed lose Reflector\n") // not held
	orders := make([]adjudicator.Orders, len(st.Robots))
	orders[0] = mustParse(t, "P490 P670 P70 P80 P430").Orders()
	orders[1] = mustParse(t, "P130 P520 P680").Orders()
	orders[3] = s.Orders()
	_, evs, err := adjudicator.Resolve(setup, st, orders)
	if err != nil {
		t.Fatal(err)
	}
	if l := eventsOf(evs, "Ådne", adjudicator.EvOptionLose); len(l) != 1 || l[0].Option != "Brakes" {
		t.Errorf("lost %+v, want the oldest (Brakes) by default", l)
	}
}

func TestOptionAnswers(t *testing.T) {
	s := mustParse(t, "use Turret left in register 2\nuse Tractor Beam on Twonky\ndecline Brakes\nuse Flywheel P790\nuse Reverse Gear back 2\nuse Target Control on Hulk destroy Brakes")
	d := Compile(s).(*decider)
	for _, tc := range []struct{ opt, want string }{
		{"Turret", "side=left;register=2"}, {"tractor beam", "target=Twonky"}, {"Brakes", ""}, {"Flywheel", "card=790"}, {"Rear Laser", ""},
		{"Reverse Gear", "steps=2"}, {"Target Control", "target=Hulk;option=Brakes"},
	} {
		var got string
		for _, r := range d.rules {
			if r.Then.Do == DoUse && squash(r.Then.Option) == squash(tc.opt) {
				got = r.Then.Param()
			}
		}
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.opt, got, tc.want)
		}
	}
}

// Bugs of issue 9: a trailing word became part of the target's name, a second card
// silently replaced the first, and "back 2" read as register 2.
func TestUseParamsRefused(t *testing.T) {
	for _, line := range []string{
		"use Tractor Beam on Twonky Mk 2",
		"use Conditional Command P490 P500",
		"use Flywheel P490 P670",
		"use Remote Control on Hulk on Twonky",
		"use Reverse Gear back 3",
	} {
		if _, err := ParseRule(line, 1); err == nil {
			t.Errorf("%q parsed; want an error", line)
		}
	}
	r, err := ParseRule("use Reverse Gear back 2", 1)
	if err != nil || r.Then.Register != 0 || r.Then.Steps != 2 {
		t.Errorf("use Reverse Gear back 2: %+v %v; want steps 2, no register", r.Then, err)
	}
	for alias, card := range map[string]string{"Conditional Program": "Conditional Command", "Double Barreled Laser": "Double Laser",
		"Power-Down Shield": "Protection Shields", "Ramming Gear": "Ramming Device", "Rear-Firing Laser": "Rear Laser",
		"Superior Archive": "De Luxe Safety Copy"} {
		r, err := ParseRule("use "+alias, 1)
		if err != nil || r.Then.Option != card {
			t.Errorf("use %s: %+v %v; want %s", alias, r.Then, err, card)
		}
	}
}

func TestMerge(t *testing.T) {
	cur := mustParse(t, "Fred Turn 3\nP490 P670 P70 P80 P430\npower down if damage > 5\ntake option\nreenter facing N\nuse Brakes")
	standing := mustParse(t, "Fred Turn 3\nstay down\nreenter facing toward the next flag\n")
	m := Merge(cur, standing)
	if len(m.Program) != 5 || m.Program[0].Priority != 490 {
		t.Errorf("standing-only sheet lost the program: %+v", m.Program)
	}
	var dos []string
	for _, r := range m.Rules {
		dos = append(dos, r.Then.Do)
	}
	want := []string{DoStayDown, DoFace, DoTakeOption, DoUse}
	if len(dos) != len(want) {
		t.Fatalf("merged orders %v, want %v", dos, want)
	}
	for i := range want {
		if dos[i] != want[i] {
			t.Fatalf("merged orders %v, want %v", dos, want)
		}
	}
	if m.Rules[1].Then.Dir != "next-flag" {
		t.Errorf("face %q, want next-flag", m.Rules[1].Then.Dir)
	}
	full := mustParse(t, "Fred Turn 3\nP10 P670 P70 P80 P430\n")
	r := Merge(cur, full)
	if r.Program[0].Priority != 10 || len(r.Rules) != 0 {
		t.Errorf("a sheet with a program must replace the current one whole: %+v", r)
	}
	if len(cur.Rules) != 4 || cur.Program[0].Priority != 490 {
		t.Error("Merge changed its input")
	}
}

func TestValidateForecastRegister1(t *testing.T) {
	setup, st := testGame(t)
	rep := Validate(setup, st, "Ådne", mustParse(t, "Ådne Turn 3\nP540 P20 P90 P150 P690"))
	if !rep.OK() || len(rep.Warnings()) != 1 {
		t.Fatalf("want one warning, got %v", rep)
	}
	if w := rep.Warnings()[0].Msg; w != "drives off the board at -1,2 in register 1" {
		t.Errorf("warning %q", w)
	}
}

func TestValidateNoRobot(t *testing.T) {
	setup, st := testGame(t)
	rep := Validate(setup, st, "Nobody", mustParse(t, "P490"))
	if rep.OK() {
		t.Error("an unknown sender must be an error")
	}
}

// appendSquashed is squash of the words joined, and squash leaves a squashed string as it is.
func TestAppendSquashed(t *testing.T) {
	for _, words := range [][]string{
		{"retro", "rockets"}, {"Retro-Rockets"}, {"fire", "control", "r3"}, {"Über", "Schild"},
		{"a b", "c\u00a0d"}, {"\xff", "x"}, {}, {"ÉCLAIR", "ǅ"},
	} {
		want := squash(strings.Join(words, ""))
		if got := string(appendSquashed(nil, words...)); got != want {
			t.Errorf("%q: appendSquashed %q, squash %q", words, got, want)
		}
		if again := squash(want); again != want {
			t.Errorf("%q: squash of %q is %q", words, want, again)
		}
	}
}
