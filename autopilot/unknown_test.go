package autopilot_test

import (
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/autopilot"
)

// Round 4 of head-to-head game 5041 on the docking run (TestAutopilotBeatsGreedy, seeds
// 5000 on): the autopilot (second seat) at 4,3 facing south with checkpoint 1 touched,
// two SPAMs in its hand, checkpoint 2 at 3,8 beside the blue belt. The forecast plays
// nothing for a SPAM (its replacement comes from the hidden deck), and the search once
// took that for a register spent waiting: Move 1, Rotate Right, Move 2 onto the belt,
// SPAM while the belt carried it, Back Up onto the checkpoint. The card drawn for the
// SPAM moved it off the belt's line, and the greedy player won the next round. Weighed
// over the cards its deck holds (unknown.go), the plan wins the race this round.
func TestChoose2023WeighsTheUnknownCard(t *testing.T) {
	s, st := newGame2023(t, "docking-run", 5041, 2)
	p, greedy := autopilot.New(s), greedyPolicy(s)
	const ap, rival = 1, 0
	for range 3 {
		orders := []adjudicator.Orders{greedy(st, rival), p.Choose(st, ap).Orders2023()}
		next, _, err := adjudicator.Resolve(s, st, orders)
		if err != nil {
			t.Fatal(err)
		}
		st = next
	}
	a := st.Robots[ap]
	spams := 0
	for _, c := range a.Hand {
		if adjudicator.CardKind(c) == adjudicator.CardSpam {
			spams++
		}
	}
	if a.Pos != (adjudicator.Pos{X: 4, Y: 3}) || a.Facing != adjudicator.South || a.Flags != 1 || spams != 2 || st.Over {
		t.Fatalf("round %d: the autopilot at %v facing %v, %d checkpoints, %d SPAMs in hand: not the position this test is about",
			st.Turn, a.Pos, a.Facing, a.Flags, spams)
	}
	plan := p.Choose(st, ap)
	next, _, err := adjudicator.Resolve(s, st, []adjudicator.Orders{greedy(st, rival), plan.Orders2023()})
	if err != nil {
		t.Fatal(err)
	}
	if next.Winner != a.Name {
		t.Errorf("%s (%s) ends at %v with %d checkpoints, winner %q: want the race won this round",
			autopilot.ProgramLine(plan.Program), plan.Why, next.Robots[ap].Pos, next.Robots[ap].Flags, next.Winner)
	}
}
