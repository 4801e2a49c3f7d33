package autopilot

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/orders"
)

// policyGame is a two-robot game on a shipped course, its robots free to be placed.
func policyGame(t *testing.T) (*adjudicator.Setup, *adjudicator.State) {
	t.Helper()
	c, err := adjudicator.LoadCourse("sprint")
	if err != nil {
		t.Fatal(err)
	}
	s, err := adjudicator.NewSetup(c, adjudicator.PostalRules(), 3, adjudicator.DealtOptions(adjudicator.DeckBoth))
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := adjudicator.NewGame(s, []string{"R1", "R2"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range st.Robots {
		st.Robots[i].Virtual = false
		st.Robots[i].Options = nil
	}
	return s, st
}

// cardOf is a card number of that kind in the deck, not one of not.
func cardOf(t *testing.T, s *adjudicator.Setup, kind adjudicator.CardKind, not ...int) int {
	t.Helper()
	for p := 10; p <= 840; p += 10 {
		if s.Deck.Kind(p) == kind && !slices.Contains(not, p) {
			return p
		}
	}
	t.Fatalf("no %v card", kind)
	return 0
}

// The narrow uses of Goo Dropper, Bridge Layer and Self-Destruct: each order is written
// when its case holds and not when one condition fails.
func TestArmedDevicePolicies(t *testing.T) {
	s, st := policyGame(t)
	b := s.Course.Board
	m1 := cardOf(t, s, adjudicator.CardMove1)
	m2 := cardOf(t, s, adjudicator.CardMove2)
	left := cardOf(t, s, adjudicator.CardLeft)
	right := cardOf(t, s, adjudicator.CardRight)
	back := cardOf(t, s, adjudicator.CardBackUp)
	l2, l3 := cardOf(t, s, adjudicator.CardLeft, left), cardOf(t, s, adjudicator.CardLeft, left, cardOf(t, s, adjudicator.CardLeft, left))

	// An open square with an open square west of it, and a pit with an open square west.
	var open, pitW adjudicator.Pos
	foundOpen, foundPit := false, false
	for y := 0; y < b.H; y++ {
		for x := 1; x < b.W; x++ {
			p, w := adjudicator.Pos{X: x, Y: y}, adjudicator.Pos{X: x - 1, Y: y}
			if b.Deadly(w) || b.Blocked(w, adjudicator.East) {
				continue
			}
			switch {
			case !foundOpen && !b.Deadly(p) && x >= 4:
				open, foundOpen = p, true
			case !foundPit && b.At(p).Floor == adjudicator.FloorPit:
				pitW, foundPit = w, true
			}
		}
	}
	if !foundOpen || !foundPit {
		t.Fatalf("sprint: no open square (%v) or no pit with an open square west of it (%v)", foundOpen, foundPit)
	}

	type robot struct {
		pos    adjudicator.Pos
		facing adjudicator.Dir
	}
	type policyCase struct {
		name   string
		option string
		me, o  robot
		prog   [adjudicator.Registers]int
		end    func(r *adjudicator.Robot) // the forecast robot after the registers
		want   string                     // "" for no use (the card declined)
	}
	cases := []policyCase{
		{"goo: followed", "Goo Dropper", robot{open, adjudicator.East}, robot{open.Step(adjudicator.West), adjudicator.East},
			[5]int{m1, left, right, l2, l3}, nil, "use Goo Dropper in register 1"},
		{"goo: the robot behind faces away", "Goo Dropper", robot{open, adjudicator.East}, robot{open.Step(adjudicator.West), adjudicator.North},
			[5]int{m1, left, right, l2, l3}, nil, ""},
		{"goo: a Back Up would put the bot on its goo", "Goo Dropper", robot{open, adjudicator.East}, robot{open.Step(adjudicator.West), adjudicator.East},
			[5]int{m1, left, right, back, l3}, nil, ""},
		{"goo: register 1 turns the bot", "Goo Dropper", robot{open, adjudicator.East}, robot{open.Step(adjudicator.West), adjudicator.East},
			[5]int{left, m1, right, l2, l3}, nil, ""},
		{"bridge: the pit in front, register 1", "Bridge Layer", robot{pitW, adjudicator.East}, robot{adjudicator.Pos{X: -9, Y: -9}, adjudicator.North},
			[5]int{m2, left, right, l2, l3}, nil, "use Bridge Layer in register 1"},
		{"bridge: turned towards the pit first", "Bridge Layer", robot{pitW, adjudicator.South}, robot{adjudicator.Pos{X: -9, Y: -9}, adjudicator.North},
			[5]int{left, m1, right, l2, l3}, nil, "use Bridge Layer in register 2"},
		{"bridge: moving away from the pit", "Bridge Layer", robot{pitW, adjudicator.West}, robot{adjudicator.Pos{X: -9, Y: -9}, adjudicator.North},
			[5]int{m1, left, right, l2, l3}, nil, ""},
		{"self-destruct: destroyed anyway, a robot next to it", "Self-Destruct", robot{open, adjudicator.East}, robot{open.Step(adjudicator.West), adjudicator.North},
			[5]int{m1, left, right, l2, l3}, func(r *adjudicator.Robot) { r.Destroyed = true }, "use Self-Destruct in register 1"},
		{"self-destruct: not destroyed", "Self-Destruct", robot{open, adjudicator.East}, robot{open.Step(adjudicator.West), adjudicator.North},
			[5]int{m1, left, right, l2, l3}, nil, ""},
		{"self-destruct: destroyed, nobody near", "Self-Destruct", robot{open, adjudicator.East}, robot{adjudicator.Pos{X: -9, Y: -9}, adjudicator.North},
			[5]int{m1, left, right, l2, l3}, func(r *adjudicator.Robot) { r.Destroyed = true }, ""},
		{"self-destruct: destroyed after touching a flag", "Self-Destruct", robot{open, adjudicator.East}, robot{open.Step(adjudicator.West), adjudicator.North},
			[5]int{m1, left, right, l2, l3}, func(r *adjudicator.Robot) { r.Destroyed = true; r.Flags++ }, ""},
	}
	far := func(r *adjudicator.Robot) { r.Pos = adjudicator.Pos{X: r.Pos.X - 4, Y: r.Pos.Y + 3} }
	near := func(r *adjudicator.Robot) { r.Pos = adjudicator.Pos{X: r.Pos.X - 3, Y: r.Pos.Y + 3} }
	gone := func(r *adjudicator.Robot) { far(r); r.Destroyed = true }
	for _, card := range []string{"The Big One", "Scrambler Bomb"} {
		o := robot{open.Step(adjudicator.West), adjudicator.North}
		nobody := robot{adjudicator.Pos{X: -9, Y: -9}, adjudicator.North}
		prog := [5]int{m1, left, right, l2, l3}
		cases = append(cases,
			policyCase{card + ": 7 squares away by the end", card, robot{open, adjudicator.East}, o, prog, far, "use " + card + " in register 1"},
			policyCase{card + ": 6 squares away", card, robot{open, adjudicator.East}, o, prog, near, ""},
			policyCase{card + ": nobody near", card, robot{open, adjudicator.East}, nobody, prog, far, ""},
			policyCase{card + ": destroyed on the way", card, robot{open, adjudicator.East}, o, prog, gone, ""},
		)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := st.Clone()
			me, o := &st.Robots[0], &st.Robots[1]
			me.Pos, me.Facing, me.Options = c.me.pos, c.me.facing, []string{c.option}
			o.Pos, o.Facing = c.o.pos, c.o.facing
			if !b.In(o.Pos) {
				o.Out = true
			}
			end := *me
			if c.end != nil {
				c.end(&end)
			}
			got := optionOrders(s, st, 0, c.prog, &end)
			// No use is a decline, so that no earlier turn's order of the card stands.
			if c.want == "" && !slices.Equal(got, []string{"decline " + c.option}) || c.want != "" && !slices.Contains(got, c.want) {
				t.Errorf("orders %q, want %q", got, c.want)
			}
			if len(got) == 0 {
				return
			}
			// The order is one a player could mail: the sheet parses and validates.
			var sheet strings.Builder
			sheet.WriteString("R1 Turn 1\n")
			for _, p := range c.prog {
				fmt.Fprintf(&sheet, "P%d ", p)
			}
			sheet.WriteString("\n" + strings.Join(got, "\n") + "\n")
			parsed, err := orders.Parse([]byte(sheet.String()))
			if err != nil {
				t.Fatalf("the sheet does not parse: %v\n%s", err, sheet.String())
			}
			me.Hand = c.prog[:]
			for _, pr := range orders.Validate(s, st, "R1", parsed).Problems {
				if !pr.Warning {
					t.Errorf("%v\n%s", pr.Error(), sheet.String())
				}
			}
		})
	}
}
