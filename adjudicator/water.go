package adjudicator

// Water, currents and drains (seed 001, Board Element Overview: Water, Currents, Drains).
//
//   - Water slows a robot playing a movement card in it: the card's first square is
//     lost. A Back Up or Move 1 started in water does not move the robot, a Move 2 moves
//     it 1, a Move 3 moves it 2 (seed 001's worked examples). Only the square the robot
//     stands on when the card starts counts: driving into water from dry floor is plain
//     floor, and so is every square after the first. Turning cards are not affected.
//   - Water acts on cards only: a robot pushed, carried or otherwise moved treats water
//     as open floor (seed 001: "if a robot is pushed or moved by other means, treat the
//     water as open floor"), and a robot in water pushes others as on dry floor.
//   - A current is water that flows (the board writes it ~N, ~E, ~S, ~W). In the board
//     elements step, after the conveyor belts and before the pushers (Rules.Elements:
//     "currents" after "belts"), a robot in a current moves 1 square with the flow. A
//     robot that plays a card in a current is slowed by its water too.
//   - Ruling (seed 001 does not say how two robots meet in currents): a current carries
//     robots the way a normal conveyor belt does (belts.go): all at once, never pushing;
//     two robots carried into one square both stay; a robot whose way is held by a robot
//     that is not leaving stays. A current never turns a robot. Options that act on
//     belts (Gyroscopic Stabilisator) do not act on currents: a current is not a belt.
//   - Drains "function as pits in every way": the board token D is a pit (Floor is
//     FloorPit) that pictures draw as a drain.
//   - Ruling: virtual robots are slowed and carried like real ones (the board moves them,
//     seed 003, Virtual Robots).

// inWater reports whether robot i stands in water (not on a ramp).
func (t *turn) inWater(i int) bool {
	r := &t.st.Robots[i]
	return r.Active() && t.ramp[i] == 0 && t.board().In(r.Pos) && t.board().At(r.Pos).Water
}

// slowInWater is the squares a card of steps squares moves robot i: one fewer when it
// starts the card in water, never below 0.
func (t *turn) slowInWater(i, steps int) int {
	if steps <= 0 || !t.inWater(i) {
		return steps
	}
	r := &t.st.Robots[i]
	t.emit(Event{Kind: EvSlowed, Robot: r.Name, From: t.pos(r.Pos), Amount: 1, Cause: "water"})
	return steps - 1
}

// currentDir is the flow of the current at p; ok is false where there is none.
func (b *Board) currentDir(p Pos) (Dir, bool) {
	if !b.In(p) || b.At(p).Current == 0 {
		return 0, false
	}
	return Dir(b.At(p).Current - 1), true
}
