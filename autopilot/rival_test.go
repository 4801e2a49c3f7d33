package autopilot_test

import (
	"slices"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/autopilot"
)

// Round 3 of head-to-head game 2439 on the docking run (TestAutopilotBeatsGreedy): the
// autopilot (second seat) at 10,5 facing north, the greedy player beside it at 9,5 facing
// east and moving first, checkpoint 1 at 9,3 and the pit at 8,2 beside it. Searched
// alone, the autopilot's best program goes for the checkpoint past the greedy robot, whose
// real program drives it into the pit at 8,2. Played against the rival's likely programs
// (rival.go), it keeps out of the pit: with the 24 best programs it once took the
// checkpoint behind the greedy robot; with the candidates ending apart (keepApart) it
// stops beside it (a square nearer than it stood), out of the greedy robot's way. The
// game's first two rounds are the autopilot's plans as it chose them when the test was
// written (playPlans): it now imagines the rival otherwise (nearest.go) and plays
// another game.
func TestChoose2023AgainstTheRival(t *testing.T) {
	s, st := newGame2023(t, "docking-run", 2439, 2)
	p, greedy := autopilot.New(s), greedyPolicy(s)
	const ap, rival = 1, 0
	st = playPlans(t, s, st, ap, greedy, []autopilot.Plan{
		{Program: cards(adjudicator.CardMove1, adjudicator.CardMove1, adjudicator.CardLeft, adjudicator.CardBackUp, adjudicator.CardRight),
			Upgrade: adjudicator.UpgradeOrders{Draw: true}},
		{Program: cards(adjudicator.CardMove1, adjudicator.CardMove1, adjudicator.CardAgain, adjudicator.CardMove2, adjudicator.CardMove2),
			Upgrade: adjudicator.UpgradeOrders{Install: "Double-Barrel Laser", Draw: true}},
	})
	a, b := st.Robots[ap], st.Robots[rival]
	if a.Pos != (adjudicator.Pos{X: 10, Y: 5}) || b.Pos != (adjudicator.Pos{X: 9, Y: 5}) || st.Priority != rival || a.Flags != 0 {
		t.Fatalf("round %d: the autopilot at %v, the greedy robot at %v, token %d, %d checkpoints: not the position this test is about",
			st.Turn, a.Pos, b.Pos, st.Priority, a.Flags)
	}
	rivalOrders := greedy(st, rival)
	play := func(plan autopilot.Plan) adjudicator.Robot {
		next, _, err := adjudicator.Resolve(s, st, []adjudicator.Orders{rivalOrders, plan.Orders2023()})
		if err != nil {
			t.Fatal(err)
		}
		return next.Robots[ap]
	}
	alone, against := p.Alone().Choose(st, ap), p.Choose(st, ap)
	if got := play(alone); got.Flags != 0 {
		t.Errorf("searched alone, %s reaches checkpoint 1 (at %v): the position no longer shows the difference",
			autopilot.ProgramLine(alone.Program), got.Pos)
	}
	if got := play(alone); !got.Destroyed {
		t.Errorf("searched alone, %s ends at %v, not in the pit: the position no longer shows the difference",
			autopilot.ProgramLine(alone.Program), got.Pos)
	}
	if got := play(against); got.Destroyed || (got.Flags != 1 && p.Guide().Dist(1, got.Pos) >= p.Guide().Dist(1, a.Pos)) {
		t.Errorf("against the rival, %s ends at %v (destroyed %v) with %d checkpoints, want it out of the pit and nearer checkpoint 1 (alone: %s)",
			autopilot.ProgramLine(against.Program), got.Pos, got.Destroyed, got.Flags, autopilot.ProgramLine(alone.Program))
	}
}

// The rival's hand is hidden: which of its cards are in its hand and which in its draw
// pile, in what order, does not change the choice; only which cards it holds between
// the two does (ruling R-FORECAST-HIDDEN).
func TestChoose2023RivalHandHidden(t *testing.T) {
	s, st := newGame2023(t, "docking-run", 2427, 2)
	p := autopilot.New(s)
	want := p.Choose(st, 0)
	other := st.Clone()
	r := &other.Robots[1]
	n := len(r.Hand) // the deck's top cards in hand, the hand at the deck's bottom
	r.Hand, r.Mat.Deck = slices.Sorted(slices.Values(r.Mat.Deck[:n])), slices.Concat(r.Mat.Deck[n:], r.Hand)
	if slices.Equal(r.Hand, st.Robots[1].Hand) {
		t.Fatal("the test did not change the rival's hand")
	}
	if got := p.Choose(other, 0); got.Program != want.Program {
		t.Errorf("the rival's hidden hand changed the choice: %s, then %s", autopilot.ProgramLine(want.Program), autopilot.ProgramLine(got.Program))
	}
}

// cards is a 2023 program of the card kinds given (a 2023 card's number is its kind).
func cards(kinds ...adjudicator.CardKind) [adjudicator.Registers]int {
	var prog [adjudicator.Registers]int
	for i, k := range kinds {
		prog[i] = int(k)
	}
	return prog
}

// playPlans plays a two-robot 2023 game a round for each plan: robot ap plays the plan,
// the other the policy. The tests about a position reached in a head-to-head game
// replay the autopilot's plans of that game, so that a change to its choices in earlier
// rounds leaves the position they are about.
func playPlans(t *testing.T, s *adjudicator.Setup, st *adjudicator.State, ap int, other policy, plans []autopilot.Plan) *adjudicator.State {
	t.Helper()
	for _, plan := range plans {
		orders := make([]adjudicator.Orders, 2)
		orders[ap], orders[1-ap] = plan.Orders2023(), other(st, 1-ap)
		next, _, err := adjudicator.Resolve(s, st, orders)
		if err != nil {
			t.Fatal(err)
		}
		st = next
	}
	return st
}
