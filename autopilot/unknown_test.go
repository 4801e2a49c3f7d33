package autopilot_test

import (
	"slices"
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
// over the cards its deck holds (unknown.go), the plan wins the race this round. The
// game's first three rounds are the autopilot's plans as it chose them when the test was
// written (playPlans).
func TestChoose2023WeighsTheUnknownCard(t *testing.T) {
	s, st := newGame2023(t, "docking-run", 5041, 2)
	p, greedy := autopilot.New(s), greedyPolicy(s)
	const ap, rival = 1, 0
	st = playPlans(t, s, st, ap, greedy, []autopilot.Plan{
		{Program: cards(adjudicator.CardMove2, adjudicator.CardMove2, adjudicator.CardAgain, adjudicator.CardLeft, adjudicator.CardBackUp),
			Upgrade: adjudicator.UpgradeOrders{Draw: true}},
		{Program: cards(adjudicator.CardLeft, adjudicator.CardLeft, adjudicator.CardMove1, adjudicator.CardMove1, adjudicator.CardMove1),
			Upgrade: adjudicator.UpgradeOrders{Install: "Double-Barrel Laser", Draw: true}},
		{Program: cards(adjudicator.CardMove2, adjudicator.CardLeft, adjudicator.CardMove1, adjudicator.CardMove1, adjudicator.CardMove3)},
	})
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

// A 2023 choice is the same every run (the facings and the rival's hands are searched
// at once, each in a goroutine of its own; the unknown card weighed by integer means):
// two robots racing on the docking run, one holding SPAMs, one rebooting.
func TestChoose2023Deterministic(t *testing.T) {
	s, st := newGame2023(t, "docking-run", 5041, 2)
	p, greedy := autopilot.New(s), greedyPolicy(s)
	spam, reboot := false, false
	for round := 0; round < 6 && !st.Over; round++ {
		plan := p.Choose(st, 1)
		for range 2 {
			again := p.Choose(st, 1)
			if again.Program != plan.Program || again.Score != plan.Score || again.Why != plan.Why || !slices.Equal(again.Orders, plan.Orders) {
				t.Fatalf("round %d: %s (%d, %q), then %s (%d, %q)", st.Turn, autopilot.ProgramLine(plan.Program), plan.Score, plan.Why,
					autopilot.ProgramLine(again.Program), again.Score, again.Why)
			}
		}
		r := &st.Robots[1]
		spam = spam || slices.Contains(r.Hand, int(adjudicator.CardSpam))
		reboot = reboot || r.Destroyed
		next, _, err := adjudicator.Resolve(s, st, []adjudicator.Orders{greedy(st, 0), plan.Orders2023()})
		if err != nil {
			t.Fatal(err)
		}
		st = next
		if round == 1 {
			// The robot off the board: the next choice searches every reboot facing.
			st.Robots[1].Destroyed = true
		}
	}
	if !spam || !reboot {
		t.Errorf("the game held no SPAM (%v) or no reboot (%v) to choose with", spam, reboot)
	}
}
