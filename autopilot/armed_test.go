package autopilot_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/autopilot"
	"github.com/rallyjudge/rallyjudge/orders"
)

// botSheet is the sheet a bot would mail for robot i: its program and orders.
func botSheet(t *testing.T, s *adjudicator.Setup, st *adjudicator.State, i int) (string, *orders.Sheet) {
	t.Helper()
	r := st.Robots[i]
	plan := autopilot.New(s).Choose(st, i)
	var b strings.Builder
	b.WriteString(r.Name + " Turn 1\n")
	for _, c := range plan.Program {
		if c != 0 {
			b.WriteString("P" + itoa(c) + " ")
		}
	}
	b.WriteString("\n" + strings.Join(plan.Orders, "\n") + "\n")
	sheet, err := orders.Parse([]byte(b.String()))
	if err != nil {
		t.Fatalf("%s: the bot's sheet does not parse: %v\n%s", r.Name, err, b.String())
	}
	for _, pr := range orders.Validate(s, st, r.Name, sheet).Problems {
		if !pr.Warning {
			t.Errorf("%s: %v\n%s", r.Name, pr.Error(), b.String())
		}
	}
	return b.String(), sheet
}

// A bot holding Armed and Dangerous options writes valid orders for them: its weapons
// fired only at a robot in line (one order a robot), the Reflector turned to the nearest
// robot, the Reengineering Unit used on a push.
func TestBotOrdersArmedOptions(t *testing.T) {
	s, st := newGame(t, "sprint", 5, 4)
	held := [][]string{
		{"Big Gun", "Reflector", "Interceptor"},
		{"Missile Launcher", "Drone Launcher", "Reengineering Unit"},
		{"Option Damping Field"},
		{"Crab Legs", "Self-Destruct", "Mine Layer"},
	}
	for i := range st.Robots {
		st.Robots[i].Virtual = false
		st.Robots[i].Options = held[i]
		st.OptionDeck = slices.DeleteFunc(st.OptionDeck, func(o string) bool { return slices.Contains(held[i], o) })
	}
	want := [][]string{
		{"use Big Gun on R2 unless next to a pit", "use Big Gun on R4 unless next to a pit", "use Reflector facing ", "use Interceptor on R3 if register > 0", "use Interceptor if register = 0 and damage > 4"},
		{"use Missile Launcher on R1", "use Drone Launcher on R4", "use Reengineering Unit"},
		{"use Option Damping Field if options < 2"},
		{},
	}
	for i := range st.Robots {
		text, _ := botSheet(t, s, st, i)
		for _, w := range want[i] {
			if !strings.Contains(text, w) {
				t.Errorf("R%d: no %q in the bot's sheet:\n%s", i+1, w, text)
			}
		}
		// Crab Legs is used only where its forecast pays (TestAutopilotUsesArmedCards);
		// the sheet is checked above either way.
		if i == 3 && strings.Contains(text, "use Self-Destruct") {
			t.Errorf("R4 uses Self-Destruct, which harms it, with no destruction forecast:\n%s", text)
		}
		if i == 3 {
			// The mine goes down in a register whose card is a Move 2 or 3.
			m := regexp.MustCompile(`use Mine Layer in register (\d)`).FindStringSubmatch(text)
			prog := autopilot.New(s).Choose(st, i).Program
			hasLong := false
			for _, p := range prog {
				k := s.Deck.Kind(p)
				hasLong = hasLong || k == adjudicator.CardMove2 || k == adjudicator.CardMove3
			}
			switch {
			case m == nil && hasLong:
				t.Errorf("R4 lays no mine though it moves 2 or 3 squares:\n%s", text)
			case m != nil:
				if k := s.Deck.Kind(prog[m[1][0]-'1']); k != adjudicator.CardMove2 && k != adjudicator.CardMove3 {
					t.Errorf("R4 lays its mine in register %s, whose card is %v:\n%s", m[1], k, text)
				}
			}
		}
	}
}

// With seed 001's option variants the bot keeps the card it likes best of its Deluxe
// package and of the next flag's pile, and under Scavenger Hunt II gives away the worst.
func TestBotKeepsAndGives(t *testing.T) {
	c, err := adjudicator.LoadCourse("sprint")
	if err != nil {
		t.Fatal(err)
	}
	rules := adjudicator.PostalRules()
	rules.OptionPackage, rules.ScavengerHunt = "deluxe", 2
	s, err := adjudicator.NewSetup(c, rules, 3, adjudicator.DealtOptions(adjudicator.DeckBoth))
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := adjudicator.NewGame(s, []string{"R1", "R2", "R3"})
	if err != nil {
		t.Fatal(err)
	}
	st.Robots[0].Offered = []string{"Self-Destruct", "Brakes", "Randomizer"}
	st.Piles[0] = []string{"Recompile", "Protective Coating", "Crab Legs"}
	text, sheet := botSheet(t, s, st, 0)
	for _, w := range []string{"keep Brakes", "use Brakes if next to a pit", "keep Protective Coating", "give Crab Legs"} {
		if !strings.Contains(text, w) {
			t.Errorf("no %q in the bot's sheet:\n%s", w, text)
		}
	}
	if strings.Contains(text, "keep Self-Destruct") {
		t.Errorf("the bot keeps Self-Destruct:\n%s", text)
	}
	// The sheet keeps Brakes when turn 1 is played.
	ords := make([]adjudicator.Orders, len(st.Robots))
	for i := range st.Robots {
		ords[i] = adjudicator.Orders{Program: autopilot.Choose(s, st, i).Program}
	}
	ords[0] = sheet.Orders()
	next, _, err := adjudicator.Resolve(s, st, ords)
	if err != nil {
		t.Fatal(err)
	}
	if got := next.Robots[0].Options; !slices.Contains(got, "Brakes") || slices.Contains(got, "Self-Destruct") {
		t.Errorf("after turn 1 R1 holds %v, want Brakes kept", got)
	}
}
