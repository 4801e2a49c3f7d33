package autopilot_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/autopilot"
	"github.com/rallyjudge/rallyjudge/orders"
)

// Every plan is a legal program, the same every run, and explained.
func TestChooseLegalAndDeterministic(t *testing.T) {
	for _, course := range []string{"sprint", "long-haul", "stampede"} {
		for seed := uint64(1); seed <= 3; seed++ {
			n := 4
			if course == "stampede" {
				n = 6
			}
			s, st := newGame(t, course, seed, n)
			p := autopilot.New(s)
			for turn := 0; turn < 4 && !st.Over; turn++ {
				orders := make([]adjudicator.Orders, len(st.Robots))
				for i := range st.Robots {
					plan := p.Choose(st, i)
					if errs := s.CheckProgram(st, i, plan.Program); len(errs) > 0 {
						t.Fatalf("%s seed %d turn %d robot %d: illegal program %v: %v", course, seed, st.Turn, i, plan.Program, errs)
					}
					again := autopilot.Choose(s, st, i)
					if again.Program != plan.Program || again.Score != plan.Score || again.Why != plan.Why {
						t.Fatalf("%s seed %d turn %d robot %d: %v (%d) then %v (%d)", course, seed, st.Turn, i, plan.Program, plan.Score, again.Program, again.Score)
					}
					if plan.Why == "" {
						t.Errorf("%s seed %d turn %d robot %d: no explanation", course, seed, st.Turn, i)
					}
					r := st.Robots[i]
					if r.Power == adjudicator.PowerOn && !r.Out && plan.Tried == 0 {
						t.Errorf("%s seed %d turn %d robot %d: nothing tried", course, seed, st.Turn, i)
					}
					orders[i] = adjudicator.Orders{Program: plan.Program, Decider: p.Decider()}
				}
				var err error
				if st, _, err = adjudicator.Resolve(s, st, orders); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// place puts robot i of st real on p facing f with hand.
func place(st *adjudicator.State, i int, p adjudicator.Pos, f adjudicator.Dir, hand ...int) {
	r := &st.Robots[i]
	r.Pos, r.Archive, r.Facing, r.Virtual = p, p, f, false
	r.Hand = slices.Sorted(slices.Values(hand))
}

// A full hand of every kind: Move 3 P790, Move 2 P670, Move 1 P490 and P500, Right
// P80 and P100, Left P70, Back Up P430, U-Turn P20.
var fullHand = []int{790, 670, 490, 500, 80, 100, 70, 430, 20}

func TestChooseSituations(t *testing.T) {
	at := func(x, y int) adjudicator.Pos { return adjudicator.Pos{X: x, Y: y} }
	for _, c := range []struct {
		name   string
		pos    adjudicator.Pos
		facing adjudicator.Dir
		damage int
		locked [adjudicator.Registers]int
		hand   []int
		check  func(t *testing.T, plan autopilot.Plan)
	}{{
		// sprint: flag 1 at 9,3 straight north, pits at 9,5 and 9,6 on the way; with no
		// card to turn a quarter, the robot must stop short.
		name: "short of the pits", pos: at(9, 8), facing: adjudicator.North, hand: []int{20, 30, 430, 440, 450, 460, 490, 670, 790},
		check: func(t *testing.T, plan autopilot.Plan) {
			if plan.End.Destroyed {
				t.Errorf("destroyed at %v", plan.End.Pos)
			}
			if !strings.Contains(plan.Why, "avoids the pit at 9,") {
				t.Errorf("Why = %q, want it to name the pit it avoids", plan.Why)
			}
		},
	}, {
		name: "round the pits", pos: at(9, 8), facing: adjudicator.North, hand: fullHand,
		check: func(t *testing.T, plan autopilot.Plan) {
			if plan.End.Destroyed || plan.Score < -300 {
				t.Errorf("destroyed %v at %v, score %d", plan.End.Destroyed, plan.End.Pos, plan.Score)
			}
		},
	}, {
		name: "flag ahead", pos: at(9, 4), facing: adjudicator.North, hand: fullHand,
		check: func(t *testing.T, plan autopilot.Plan) {
			if plan.End.Flags != 1 || !strings.Contains(plan.Why, "touches flag 1") {
				t.Errorf("flags %d, Why %q: want flag 1 touched", plan.End.Flags, plan.Why)
			}
		},
	}, {
		name: "edge behind", pos: at(0, 1), facing: adjudicator.East, hand: []int{430, 440, 450, 460, 470, 20, 30, 40, 50},
		check: func(t *testing.T, plan autopilot.Plan) {
			if plan.End.Destroyed {
				t.Errorf("destroyed at %v with %v", plan.End.Pos, plan.Program)
			}
		},
	}, {
		// 6 damage locks registers 4 and 5; the hand is 3 cards.
		name: "locked registers", pos: at(3, 12), facing: adjudicator.North, damage: 6,
		locked: [adjudicator.Registers]int{0, 0, 0, 80, 100}, hand: []int{490, 670, 790},
		check: func(t *testing.T, plan autopilot.Plan) {
			if plan.Program[3] != 0 || plan.Program[4] != 0 {
				t.Errorf("program %v fills locked registers", plan.Program)
			}
			if plan.End.Destroyed {
				t.Errorf("destroyed at %v", plan.End.Pos)
			}
			if plan.Tried != 6 {
				t.Errorf("tried %d programs, want 3! = 6", plan.Tried)
			}
		},
	}, {
		name: "interchangeable cards", pos: at(3, 12), facing: adjudicator.North, hand: []int{490, 500, 510, 520, 530, 540, 550, 560, 570},
		check: func(t *testing.T, plan autopilot.Plan) {
			if plan.Tried != 1 {
				t.Errorf("tried %d programs of nine Move 1 cards, want 1", plan.Tried)
			}
			// The highest priorities play, first register first.
			if plan.Program != [adjudicator.Registers]int{570, 560, 550, 540, 530} {
				t.Errorf("program %v", plan.Program)
			}
		},
	}} {
		t.Run(c.name, func(t *testing.T) {
			s, st := newGame(t, "sprint", 5, 4)
			place(st, 0, c.pos, c.facing, c.hand...)
			st.Robots[0].Damage = c.damage
			st.Robots[0].Registers = c.locked
			plan := autopilot.Choose(s, st, 0)
			if errs := s.CheckProgram(st, 0, plan.Program); len(errs) > 0 {
				t.Fatalf("illegal program %v: %v", plan.Program, errs)
			}
			t.Logf("%v: %s", plan.Program, plan.Why)
			c.check(t, plan)
		})
	}
}

func TestChooseNoProgram(t *testing.T) {
	s, st := newGame(t, "sprint", 5, 4)
	st.Robots[1].Power, st.Robots[1].Hand = adjudicator.PowerDown, nil
	st.Robots[2].Out, st.Robots[2].Hand = true, nil
	for _, i := range []int{1, 2} {
		plan := autopilot.Choose(s, st, i)
		if plan.Program != ([adjudicator.Registers]int{}) || plan.Tried != 0 {
			t.Errorf("robot %d: program %v, %d tried; want none", i, plan.Program, plan.Tried)
		}
		if errs := s.CheckProgram(st, 1, plan.Program); i == 1 && len(errs) > 0 {
			t.Errorf("powered down: %v", errs)
		}
	}
	if plan := autopilot.Choose(s, st, 9); plan.Why == "" {
		t.Errorf("no robot 9: want a reason")
	}
}

// Every suggested standing order is a rule of the order language.
func TestSuggestedOrdersParse(t *testing.T) {
	s, st := newGame(t, "long-haul", 9, 4)
	st.Robots[0].Options = []string{"Shield"}
	st.Robots[1].Power, st.Robots[1].Hand = adjudicator.PowerDown, nil
	seen := 0
	for i := range st.Robots {
		plan := autopilot.Choose(s, st, i)
		if len(plan.Orders) < 3 {
			t.Errorf("robot %d: only %d orders suggested", i, len(plan.Orders))
		}
		for n, line := range plan.Orders {
			seen++
			if _, err := orders.ParseRule(line, n+1); err != nil {
				t.Errorf("robot %d: suggested %q does not parse: %v", i, line, err)
			}
		}
	}
	if seen == 0 {
		t.Fatal("no orders suggested")
	}
}
