package autopilot

import (
	"slices"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// The autopilot plays a legal 2023 program: cards by kind, as many of a kind as the
// hand holds, nothing in a register holding a face-down Haywire; and its choice does not
// depend on the order of the robot's deck, which its player cannot see.
func TestChoose2023(t *testing.T) {
	c, err := adjudicator.LoadCourse("docking-run")
	if err != nil {
		t.Fatal(err)
	}
	s, err := adjudicator.NewSetup(c, adjudicator.Rules2023(), 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := adjudicator.NewGame(s, []string{"A", "B", "C"})
	if err != nil {
		t.Fatal(err)
	}
	r := &st.Robots[0]
	r.Hand = []int{int(adjudicator.CardSpam), int(adjudicator.CardMove1), int(adjudicator.CardMove1), int(adjudicator.CardMove2),
		int(adjudicator.CardLeft), int(adjudicator.CardRight), int(adjudicator.CardAgain), int(adjudicator.CardUTurn), int(adjudicator.CardMove3)}
	slices.Sort(r.Hand)
	r.Mat.Haywire[2] = int(adjudicator.CardHaywire3)
	plan := Choose(s, st, 0)
	if plan.Program[2] != 0 {
		t.Errorf("program %v: a card in register 3, which holds a Haywire", plan.Program)
	}
	if errs := s.CheckOrders(st, 0, adjudicator.Orders{Program: plan.Program}); len(errs) > 0 {
		t.Fatalf("program %v is not legal: %v", plan.Program, errs)
	}
	// The same hand with another deck order: the same choice.
	other := st.Clone()
	slices.Reverse(other.Robots[0].Mat.Deck)
	if got := Choose(s, other, 0); got.Program != plan.Program {
		t.Errorf("the deck's order changed the choice: %v, then %v", plan.Program, got.Program)
	}
	// A whole round with the autopilot's programs resolves.
	os := make([]adjudicator.Orders, len(st.Robots))
	for i := range st.Robots {
		os[i] = adjudicator.Orders{Program: Choose(s, st, i).Program}
	}
	if _, _, err := adjudicator.Resolve(s, st, os); err != nil {
		t.Fatal(err)
	}
}

// Of programs that all reach the last checkpoint, the autopilot plays one reaching it in
// the earliest register: the race goes to the first robot to end a register there
// (seed 004, Winning the Game), so a win in register 5 loses to a rival arriving in
// register 3. It chose a win in the last register before (the lowest program of the
// tied ones).
func TestChoose2023WinsInTheEarliestRegister(t *testing.T) {
	c, err := adjudicator.LoadCourse("docking-run")
	if err != nil {
		t.Fatal(err)
	}
	s, err := adjudicator.NewSetup(c, adjudicator.Rules2023(), 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := adjudicator.NewGame(s, []string{"A", "B"})
	if err != nil {
		t.Fatal(err)
	}
	r := &st.Robots[0]
	last := c.Flags[len(c.Flags)-1]
	r.Flags, r.Pos, r.Facing = len(c.Flags)-1, adjudicator.Pos{X: last.X, Y: last.Y + 3}, adjudicator.North
	r.Hand = []int{int(adjudicator.CardUTurn), int(adjudicator.CardLeft), int(adjudicator.CardRight), int(adjudicator.CardMove1),
		int(adjudicator.CardMove1), int(adjudicator.CardMove1), int(adjudicator.CardMove3), int(adjudicator.CardPowerUp), int(adjudicator.CardAgain)}
	plan := Choose(s, st, 0)
	sim := adjudicator.NewSimulator(s, st)
	if _, err := sim.Run(0, plan.Program, nil); err != nil {
		t.Fatal(err)
	}
	if got := sim.Ended(); got != 1 {
		t.Errorf("program %s wins in register %d, want 1 (Move 3 first)", ProgramLine(plan.Program), got)
	}
}

// A checkpoint reached in an earlier register is worth more than the same checkpoint
// reached later with the same end: a rival has fewer registers to take the square
// first. Both programs end on checkpoint 1 facing north with 2 energy more; they were
// valued alike before.
func TestValue2023ReachesACheckpointEarly(t *testing.T) {
	c, err := adjudicator.LoadCourse("docking-run")
	if err != nil {
		t.Fatal(err)
	}
	s, err := adjudicator.NewSetup(c, adjudicator.Rules2023(), 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := adjudicator.NewGame(s, []string{"A", "B"})
	if err != nil {
		t.Fatal(err)
	}
	r := &st.Robots[0]
	r.Pos, r.Facing = adjudicator.Pos{X: c.Flags[0].X, Y: c.Flags[0].Y + 1}, adjudicator.North
	m1, left, right, up := int(adjudicator.CardMove1), int(adjudicator.CardLeft), int(adjudicator.CardRight), int(adjudicator.CardPowerUp)
	r.Hand = []int{m1, left, right, up, up, int(adjudicator.CardUTurn), int(adjudicator.CardAgain), int(adjudicator.CardMove2), int(adjudicator.CardBackUp)}
	slices.Sort(r.Hand)
	se := &search{p: New(s), sim: adjudicator.NewSimulator(s, st), robot: 0, before: *r}
	value := func(prog [adjudicator.Registers]int) (outcome, adjudicator.Robot, int) {
		end, err := se.sim.Run(0, prog, nil)
		if err != nil {
			t.Fatal(err)
		}
		return se.value2023(&end), end, se.sim.FlagRegister()
	}
	early, eEnd, eReg := value([adjudicator.Registers]int{m1, left, right, up, up})
	late, lEnd, lReg := value([adjudicator.Registers]int{left, right, m1, up, up})
	if eEnd.Pos != lEnd.Pos || eEnd.Facing != lEnd.Facing || eEnd.Flags != 1 || lEnd.Flags != 1 || eReg != 1 || lReg != 3 {
		t.Fatalf("the programs end at %v %v (checkpoint %d, register %d) and %v %v (checkpoint %d, register %d): want the same end, checkpoint 1 in registers 1 and 3",
			eEnd.Pos, eEnd.Facing, eEnd.Flags, eReg, lEnd.Pos, lEnd.Facing, lEnd.Flags, lReg)
	}
	if early.Score <= late.Score {
		t.Errorf("checkpoint 1 in register 1 is valued %d, in register 3 %d: want more for the earlier", early.Score, late.Score)
	}
}
