package autopilot_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/adjudicator/scenario"
	"github.com/rallyjudge/rallyjudge/autopilot"
	"github.com/rallyjudge/rallyjudge/orders"
)

// grid is a scenario board of w×h plain squares with marks ("5,1=f1", "5,9=X").
func grid(w, h int, marks ...string) string {
	at := map[string]string{}
	for _, m := range marks {
		k, v, _ := strings.Cut(m, "=")
		at[k] = v
	}
	var b strings.Builder
	for y := range h {
		b.WriteString(" ")
		for x := range w {
			tok := "."
			if v, ok := at[fmt.Sprintf("%d,%d", x, y)]; ok {
				tok = v
			}
			fmt.Fprintf(&b, " %-3s", tok)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// cardGame is a position from scenario lines (adjudicator/scenario: robot, program,
// used, bomb hand ...) on board, for robot A (the first robot line).
func cardGame(t *testing.T, board string, lines ...string) (*adjudicator.Setup, *adjudicator.State) {
	t.Helper()
	text := "title: autopilot position\nsource: seed 001\nseed: 5\nboard:\n" + board + strings.Join(lines, "\n") + "\nexpect no event: out *\n" // not run: the position only
	sc, err := scenario.Parse("position.scn", text)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	return sc.Setup, sc.State
}

// planSheet is robot A's plan and the sheet the bot mails for it, checked like any
// sheet (botSheet); the sheet's orders, compiled by the orders package as the judge
// compiles a mailed sheet, forecast the same end of the registers as the plan.
func planSheet(t *testing.T, s *adjudicator.Setup, st *adjudicator.State) (autopilot.Plan, string) {
	t.Helper()
	plan := autopilot.New(s).Choose(st, 0)
	text, sheet := botSheet(t, s, st, 0)
	end, _, err := adjudicator.Simulate(s, st, 0, sheet.Orders())
	if err != nil {
		t.Fatalf("the sheet's forecast: %v\n%s", err, text)
	}
	type at struct {
		pos              adjudicator.Pos
		facing           adjudicator.Dir
		damage, flags    int
		destroyed, alive bool
	}
	got := at{end.Pos, end.Facing, end.Damage, end.Flags, end.Destroyed, !end.Out}
	want := at{plan.End.Pos, plan.End.Facing, plan.End.Damage, plan.End.Flags, plan.End.Destroyed, !plan.End.Out}
	if got != want {
		t.Errorf("the sheet forecasts %+v, the plan %+v:\n%s", got, want, text)
	}
	return plan, text
}

// Each of the ten Armed and Dangerous cards the forecast plays: a position where its
// use clearly pays, where the bot's sheet must order it, and one where it does not,
// where the sheet must not.
func TestAutopilotUsesArmedCards(t *testing.T) {
	// Hands: U-turns are P010–P060, Left P070 P090 …, Right P080 P100 …, Back Up
	// P430–P480, Move 1 P490–P660, Move 2 P670–P780, Move 3 P790–P840.
	const turns = "P010 P020 P030 P040 P050 P060"
	for _, c := range []struct {
		name  string
		board string
		lines []string
		use   string // the order the sheet must hold (or, with !pays, must not)
		pays  bool
	}{
		{
			// Nine squares to the flag and a hand that moves one: Big Jet flies 8.
			name: "big jet reaches the flag", pays: true, use: "use Big Jet in register",
			board: grid(12, 12, "5,1=f1"),
			lines: []string{"robot A at 5,10 facing N hand P490 P070 P080 " + turns + " options: Big Jet", "program A: P490 P070 P080 P010 P020"},
		},
		{
			// Two squares to the flag and a Move 2: the program wins without the jet.
			name: "big jet not needed", use: "use Big Jet",
			board: grid(12, 12, "5,8=f1"),
			lines: []string{"robot A at 5,10 facing N hand P670 P070 P080 " + turns + " options: Big Jet", "program A: P670 P070 P080 P010 P020"},
		},
		{
			// A row of pits across the way, its gap far off; the Move 1 played on a
			// teleporter laid under the robot jumps 3 squares, over the pits.
			name: "portable teleporter jumps the pits", pays: true, use: "use Portable Teleporter in register",
			board: grid(12, 12, "5,3=f1", "0,9=X", "1,9=X", "2,9=X", "3,9=X", "4,9=X", "5,9=X", "6,9=X", "7,9=X", "8,9=X", "9,9=X", "10,9=X"),
			lines: []string{"robot A at 5,10 facing N hand P490 P070 P080 " + turns + " options: Portable Teleporter", "program A: P490 P070 P080 P010 P020"},
		},
		{
			// The flag a square ahead: the Move 1 wins; teleporting would jump past it.
			name: "portable teleporter not needed", use: "use Portable Teleporter",
			board: grid(12, 12, "5,9=f1"),
			lines: []string{"robot A at 5,10 facing N hand P490 P070 P080 " + turns + " options: Portable Teleporter", "program A: P490 P070 P080 P010 P020"},
		},
		{
			// The flag 6 squares behind the robot, a hand that turns and moves a square:
			// three fuel counters fly it back 6.
			name: "retro-rockets fly back to the flag", pays: true, use: "use Retro-Rockets in register",
			board: grid(12, 12, "5,8=f1"),
			lines: []string{"robot A at 5,2 facing N hand P490 P070 P080 P090 P100 P110 P120 P130 P140 options: Retro-Rockets", "program A: P490 P070 P080 P090 P100"},
		},
		{
			// The same, with a U-turn and two Move 3: the program wins without fuel.
			name: "retro-rockets not needed", use: "use Retro-Rockets",
			board: grid(12, 12, "5,8=f1"),
			lines: []string{"robot A at 5,2 facing N hand P010 P790 P800 P070 P080 P090 P100 P110 P120 options: Retro-Rockets", "program A: P010 P790 P800 P070 P080"},
		},
		{
			// A pit ahead, the flag a column to the right; with no Left (nor U-turn) the
			// robot that turns right cannot face north again. Crab Legs steps it right
			// facing north, and the Move 3 reaches the flag.
			name: "crab legs sidesteps to the flag", pays: true, use: "use Crab Legs in register",
			board: grid(12, 12, "6,7=f1", "5,9=X"),
			lines: []string{"robot A at 5,10 facing N damage 3 hand P080 P490 P790 P430 P440 P450 options: Crab Legs", "program A: P080 P490 P790 P430 P440"},
		},
		{
			// The flag straight ahead: the Move 3 wins.
			name: "crab legs not needed", use: "use Crab Legs",
			board: grid(12, 12, "5,7=f1"),
			lines: []string{"robot A at 5,10 facing N damage 3 hand P080 P490 P790 P430 P440 P450 options: Crab Legs", "program A: P080 P490 P790 P430 P440"},
		},
		{
			// A Move 2 with a Rotate Right moves 1 and turns right; the second Move 2
			// then reaches the flag, which the cards alone cannot.
			name: "dual processor turns on the way", pays: true, use: "use Dual Processor in register",
			board: grid(12, 12, "7,10=f1", "5,9=X"),
			lines: []string{"robot A at 5,11 facing N damage 3 hand P670 P680 P080 P430 P440 P450 options: Dual Processor", "program A: P670 P680 P080 P430 P440"},
		},
		{
			// The flag two squares ahead: the Move 2 wins.
			name: "dual processor not needed", use: "use Dual Processor",
			board: grid(12, 12, "5,8=f1"),
			lines: []string{"robot A at 5,10 facing N damage 3 hand P670 P680 P080 P430 P440 P450 options: Dual Processor", "program A: P670 P680 P080 P430 P440"},
		},
		{
			// Six Move 1 and the flag six squares ahead: the sixth card, played in a
			// register with another, reaches it for a point of damage.
			name: "overload override plays a sixth card", pays: true, use: "use Overload Override in register",
			board: grid(12, 12, "5,4=f1"),
			lines: []string{"robot A at 5,10 facing N damage 3 hand P490 P500 P510 P520 P530 P540 options: Overload Override", "program A: P490 P500 P510 P520 P530"},
		},
		{
			// Seven squares: the sixth card gains a square, not worth the point of damage.
			name: "overload override not worth its damage", use: "use Overload Override",
			board: grid(12, 12, "5,3=f1"),
			lines: []string{"robot A at 5,10 facing N damage 3 hand P490 P500 P510 P520 P530 P540 options: Overload Override", "program A: P490 P500 P510 P520 P530"},
		},
		{
			// Five Move 1 and nothing else (damage 4: five cards), a pit five squares
			// ahead: a register left empty, for a point of damage, keeps the robot
			// out of it.
			name: "overload override leaves a register empty", pays: true, use: "empty",
			board: grid(12, 12, "5,0=f1", "5,5=X"),
			lines: []string{"robot A at 5,10 facing N damage 4 hand P490 P500 P510 P520 P530 options: Overload Override", "program A: P490 P500 P510 P520 P530"},
		},
		{
			// A pit ahead and the flag beyond it: the Move 2 jumps it.
			name: "frog legs jump the pit", pays: true, use: "use Frog Legs in register",
			board: grid(12, 12, "5,7=f1", "5,9=X"),
			lines: []string{"robot A at 5,10 facing N damage 3 hand P670 P490 P010 P020 P030 P040 options: Frog Legs", "program A: P670 P490 P010 P020 P030"},
		},
		{
			// Two pits ahead: the jump would land in the second.
			name: "frog legs would land in a pit", use: "use Frog Legs",
			board: grid(12, 12, "5,5=f1", "5,9=X", "5,8=X"),
			lines: []string{"robot A at 5,10 facing N damage 3 hand P670 P490 P010 P020 P030 P040 options: Frog Legs", "program A: P670 P490 P010 P020 P030"},
		},
		{
			// Pits across the way: flying, the robot passes over them, its spare Move 2
			// played before each of its cards.
			name: "robo-copter flies over the pits", pays: true, use: "use Robo-Copter P",
			board: grid(12, 12, "5,1=f1", "0,7=X", "1,7=X", "2,7=X", "3,7=X", "4,7=X", "5,7=X", "6,7=X", "7,7=X", "8,7=X", "9,7=X", "10,7=X"),
			lines: []string{"robot A at 5,10 facing N damage 3 hand P490 P500 P510 P520 P530 P670 options: Robo-Copter", "program A: P490 P500 P510 P520 P530"},
		},
		{
			// The flag 5 squares ahead: five Move 1 win on foot.
			name: "robo-copter not needed", use: "use Robo-Copter",
			board: grid(12, 12, "5,5=f1"),
			lines: []string{"robot A at 5,10 facing N damage 3 hand P490 P500 P510 P520 P530 P670 options: Robo-Copter", "program A: P490 P500 P510 P520 P530"},
		},
		{
			// Its homing token on B, ahead on the way to the flag, and a hand that only
			// turns: homing closes 3 squares a register.
			name: "homing device homes in", pays: true, use: "use Homing Device home",
			board: grid(12, 12, "5,4=f1"),
			lines: []string{"robot A at 5,10 facing N hand " + turns + " P070 P080 P090 options: Homing Device", "robot B at 5,1 facing N down",
				"used A: Homing Device=2", "program A: P010 P020 P030 P040 P050"},
		},
		{
			// The token on B behind it, the flag ahead and Move 3 in hand: homing would
			// turn it away from the flag.
			name: "homing device would turn away", use: "use Homing Device home",
			board: grid(12, 12, "5,4=f1"),
			lines: []string{"robot A at 5,10 facing N hand P790 P800 P010 P020 P030 P040 P050 P060 P070 options: Homing Device", "robot B at 5,11 facing N down",
				"used A: Homing Device=2", "program A: P790 P800 P010 P020 P030"},
		},
		{
			// B three squares ahead: the bomb's Move 3 flies into it and explodes for 4.
			name: "buzz bomb hits a robot", pays: true, use: "use Buzz Bomb P",
			board: grid(12, 12, "11,0=f1"),
			lines: []string{"robot A at 5,10 facing N hand " + turns + " P070 P080 P090 options: Buzz Bomb", "bomb hand A: P110 P120 P800 P480 P130",
				"robot B at 5,7 facing N down", "program A: P010 P020 P030 P040 P050"},
		},
		{
			// B two squares off the bomb's line: no order of its cards runs it into B
			// (it flies 3 squares and back 1), so it would not go off: it is kept.
			name: "buzz bomb kept", use: "use Buzz Bomb",
			board: grid(12, 12, "11,0=f1"),
			lines: []string{"robot A at 5,10 facing N hand " + turns + " P070 P080 P090 options: Buzz Bomb", "bomb hand A: P110 P120 P800 P480 P130",
				"robot B at 7,7 facing N down", "program A: P010 P020 P030 P040 P050"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, st := cardGame(t, c.board, c.lines...)
			plan, text := planSheet(t, s, st)
			t.Logf("%s\nwhy: %s; end %v facing %v damage %d", text, plan.Why, plan.End.Pos, plan.End.Facing, plan.End.Damage)
			if got := strings.Contains(text, c.use); got != c.pays {
				t.Errorf("%q in the sheet: %v, want %v (why: %s)\n%s", c.use, got, c.pays, plan.Why, text)
			}
		})
	}
}

// Homing Device's tag, which the forecast cannot value: the bot tags a robot nearer its
// next flag than itself while its token is on no robot, and not once it is.
func TestAutopilotTagsWithHomingDevice(t *testing.T) {
	board := grid(12, 12, "5,1=f1")
	for _, c := range []struct {
		name  string
		used  string
		b, cc string // "tag on B", "tag on C" expected
	}{
		{name: "no token", b: "yes", cc: "no"},
		{name: "token on C", used: "used A: Homing Device=3", b: "no", cc: "no"},
	} {
		t.Run(c.name, func(t *testing.T) {
			lines := []string{"robot A at 5,8 facing N hand P490 P500 P010 P020 P030 P040 P050 P060 P070 options: Homing Device",
				"robot B at 5,4 facing N down", "robot C at 5,11 facing N down", "program A: P490 P500 P010 P020 P030"}
			if c.used != "" {
				lines = append(lines, c.used)
			}
			s, st := cardGame(t, board, lines...)
			_, text := planSheet(t, s, st)
			for name, want := range map[string]string{"B": c.b, "C": c.cc} {
				if got := strings.Contains(text, "use Homing Device tag on "+name); got != (want == "yes") {
					t.Errorf("tag on %s in the sheet: %v, want %s\n%s", name, got, want, text)
				}
			}
		})
	}
}

// A card the bot does not use this turn is declined: the judge keeps a sheet's orders
// in force until a later sheet answers for the same card (docs/orders.md, A later
// sheet), so last turn's "use Big Jet" would otherwise fly the robot again.
func TestAutopilotDeclinesUnusedCards(t *testing.T) {
	hand := "hand P490 P070 P080 P010 P020 P030 P040 P050 P060 options: Big Jet"
	s, st := cardGame(t, grid(12, 12, "5,1=f1"), "robot A at 5,10 facing N "+hand, "program A: P490 P070 P080 P010 P020")
	_, first := botSheet(t, s, st, 0)
	s, st = cardGame(t, grid(12, 12, "5,9=f1"), "robot A at 5,10 facing N "+hand, "program A: P490 P070 P080 P010 P020")
	text, second := botSheet(t, s, st, 0)
	if !strings.Contains(text, "decline Big Jet") {
		t.Errorf("no decline of the unused Big Jet:\n%s", text)
	}
	// The judge's fold (judge/resolve.go): the earlier sheet's orders stand, this
	// turn's sheet goes over them.
	standing := *first
	standing.Program = nil
	now := *second
	now.Program = nil
	var uses []string
	for _, r := range orders.Merge(&standing, &now).Rules {
		if strings.HasPrefix(r.String(), "use Big Jet") {
			uses = append(uses, r.String())
		}
	}
	var had bool
	for _, r := range first.Rules {
		had = had || strings.HasPrefix(r.String(), "use Big Jet")
	}
	if !had || len(uses) > 0 {
		t.Errorf("turn 1 orders Big Jet: %v; in force in turn 2: %q", had, uses)
	}
}
