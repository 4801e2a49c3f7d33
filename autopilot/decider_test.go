package autopilot_test

import (
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/autopilot"
	"github.com/rallyjudge/rallyjudge/orders"
)

// deciderSetup is a 5×4 board with a belt loop, a double wrench, a one-beam laser and
// two flags:
//
//	s1|E  .   w2  .   .
//	.     .   .   .   lW1|E
//	bE    bS  .   .   f2
//	bN    bW  .   .   f1
func deciderSetup(t *testing.T) *adjudicator.Setup {
	t.Helper()
	bf, err := adjudicator.ParseBoardRows("decider", 1, []string{
		"s1|E  .    w2   .    .",
		".     .    .    .    lW1|E",
		"bE    bS   .    .    f2",
		"bN    bW   .    .    f1",
	})
	if err != nil {
		t.Fatal(err)
	}
	s, err := adjudicator.NewSetup(bf.Course(), adjudicator.PostalRules(), 1, []string{"Double Laser", "Extra Memory", "Brakes"})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The Decider's answers, seen through whole turns: the robot turns in place (Left P70,
// Right P80, Left P90, Right P100, Left P110) and the end of turn asks the Decider.
func TestDecider(t *testing.T) {
	at := func(x, y int) adjudicator.Pos { return adjudicator.Pos{X: x, Y: y} }
	turns := [adjudicator.Registers]int{70, 80, 90, 100, 110}
	for _, c := range []struct {
		name    string
		pos     adjudicator.Pos
		facing  adjudicator.Dir
		damage  int
		flags   int
		program [adjudicator.Registers]int
		decider adjudicator.Decider
		check   func(t *testing.T, r adjudicator.Robot)
	}{{
		name: "powers down at 5 damage", pos: at(2, 2), damage: 5, program: turns,
		check: func(t *testing.T, r adjudicator.Robot) {
			if r.Power != adjudicator.PowerDown || r.Damage != 0 {
				t.Errorf("power %v damage %d, want powered down and repaired", r.Power, r.Damage)
			}
		},
	}, {
		name: "not at 4 damage", pos: at(2, 2), damage: 4, program: turns,
		check: func(t *testing.T, r adjudicator.Robot) {
			if r.Power != adjudicator.PowerOn || r.Damage != 4 {
				t.Errorf("power %v damage %d, want on with 4", r.Power, r.Damage)
			}
		},
	}, {
		name: "not on the last flag run at 5", pos: at(2, 2), damage: 5, flags: 1, program: turns,
		check: func(t *testing.T, r adjudicator.Robot) {
			if r.Power != adjudicator.PowerOn {
				t.Errorf("powered down on the last flag run with 5 damage")
			}
		},
	}, {
		name: "on the last flag run at 7", pos: at(2, 2), damage: 7, flags: 1, program: turns,
		check: func(t *testing.T, r adjudicator.Robot) {
			if r.Power != adjudicator.PowerDown {
				t.Errorf("still on with %d damage", r.Damage)
			}
		},
	}, {
		name: "not in a laser beam", pos: at(2, 1), program: turns,
		check: func(t *testing.T, r adjudicator.Robot) {
			if r.Damage != 5 || r.Power != adjudicator.PowerOn {
				t.Errorf("damage %d power %v, want 5 damage from the laser and still on", r.Damage, r.Power)
			}
		},
	}, {
		name: "not on a belt", pos: at(0, 2), damage: 5, program: turns,
		check: func(t *testing.T, r adjudicator.Robot) {
			if r.Power != adjudicator.PowerOn || r.Pos != at(1, 2) {
				t.Errorf("power %v at %v, want on, carried round the loop to 1,2", r.Power, r.Pos)
			}
		},
	}, {
		name: "double wrench: option when lightly damaged", pos: at(2, 0), damage: 2, program: turns,
		check: func(t *testing.T, r adjudicator.Robot) {
			if len(r.Options) != 1 || r.Damage != 2 {
				t.Errorf("options %v damage %d, want one option and 2 damage", r.Options, r.Damage)
			}
		},
	}, {
		name: "double wrench: repair above 3", pos: at(2, 0), damage: 4, program: turns,
		check: func(t *testing.T, r adjudicator.Robot) {
			if len(r.Options) != 0 || r.Damage != 2 {
				t.Errorf("options %v damage %d, want no option and 2 damage", r.Options, r.Damage)
			}
		},
	}, {
		// The wall east of 0,0 sends the path south; straight at the flag is east.
		name: "re-enters along the path", pos: at(0, 0), facing: adjudicator.West, program: [5]int{490, 70, 80, 90, 100},
		check: func(t *testing.T, r adjudicator.Robot) {
			if r.Pos != at(0, 0) || r.Facing != adjudicator.South || r.Lives != 2 {
				t.Errorf("at %v facing %v with %d lives, want 0,0 facing S with 2", r.Pos, r.Facing, r.Lives)
			}
		},
	}, {
		name: "zero Decider re-enters facing the flag", pos: at(0, 0), facing: adjudicator.West, program: [5]int{490, 70, 80, 90, 100},
		decider: autopilot.Decider{},
		check: func(t *testing.T, r adjudicator.Robot) {
			if r.Facing != adjudicator.East {
				t.Errorf("facing %v, want E (View.TowardNextFlag)", r.Facing)
			}
		},
	}} {
		t.Run(c.name, func(t *testing.T) {
			s := deciderSetup(t)
			st, _, err := adjudicator.NewGame(s, []string{"A"})
			if err != nil {
				t.Fatal(err)
			}
			r := &st.Robots[0]
			r.Pos, r.Archive, r.Facing, r.Damage, r.Flags = c.pos, c.pos, c.facing, c.damage, c.flags
			r.Hand = nil
			for reg, card := range c.program {
				if r.IsLocked(reg + 1) {
					r.Registers[reg] = card
				} else {
					r.Hand = append(r.Hand, card)
				}
			}
			prog := c.program
			for reg := range prog {
				if r.IsLocked(reg + 1) {
					prog[reg] = 0
				}
			}
			d := c.decider
			if d == nil {
				d = autopilot.NewDecider(s)
			}
			next, _, err := adjudicator.Resolve(s, st, []adjudicator.Orders{{Program: prog, Decider: d}})
			if err != nil {
				t.Fatal(err)
			}
			c.check(t, next.Robots[0])
			if c.decider != nil {
				return
			}
			// The plan's suggested standing orders, compiled by the orders package,
			// decide the same.
			var sheet orders.Sheet
			for n, line := range autopilot.Choose(s, st, 0).Orders {
				rule, err := orders.ParseRule(line, n+1)
				if err != nil {
					t.Fatalf("%q: %v", line, err)
				}
				sheet.Rules = append(sheet.Rules, rule)
			}
			byOrders, _, err := adjudicator.Resolve(s, st, []adjudicator.Orders{{Program: prog, Decider: orders.Compile(&sheet)}})
			if err != nil {
				t.Fatal(err)
			}
			a, b := next.Robots[0], byOrders.Robots[0]
			if a.Power != b.Power || a.Damage != b.Damage || a.Facing != b.Facing || a.Pos != b.Pos || len(a.Options) != len(b.Options) {
				t.Errorf("Decider left %+v\nthe suggested orders %+v", a, b)
			}
		})
	}
}
