package adjudicator

import "fmt"

// Levels, ledges and ramps (seed 003, "Extra Tiles For Grand Prix", LEDGES and RAMPS;
// seed 001, Levels, Ramps, Ledges, for Armed and Dangerous later).
//
// Each square has a Level (0 the ground). Where two neighbouring squares differ in level
// and no wall stands between them, the edge is a ledge, unless a ramp is written on it
// (Square.Ramps, on either square):
//
//   - A robot crossing a ledge from the lower side meets a wall ("The ledge is treated as
//     a wall if coming from the lower level"), moving or pushed.
//   - A robot crossing a ledge from the upper side falls and takes 2 damage ("a robot
//     crossing from the upper to the lower level takes two damage points"). If it lands
//     on a robot, that robot is pushed on in the direction of travel and takes 2 damage
//     too ("this robot is pushed and it also takes two damage points"). Ruling: when the
//     robot landed on cannot be pushed (a wall or a chain held by one), nobody moves: the
//     step is blocked like any push.
//   - Going up a ramp counts as an extra square: the first step puts the robot on the
//     ramp, the next takes it to the upper square. A robot that ends a move on the ramp
//     slides back down one square, pushing whatever stands there ("If the robot stops on
//     the extra square, it slides back down"; seed 001's ramp example: the slide pushes
//     the robot behind). A robot is only ever on a ramp inside a move: the ramp is not a
//     square of the board, so between moves every robot stands on a square.
//   - Going down a ramp is one ordinary step with no damage ("the ramp simply negates
//     the 2 damage").
//   - Ruling (seed 001: robots on different levels cannot fire on one another; seed 003
//     is silent): laser beams, board and robot alike, stop at a ledge or ramp edge.
//   - Seed 001 (Ledges; Landing) lands a falling robot differently: it comes down on the
//     next square along its way without a robot, and nobody else moves or is damaged.
//     Rules.Landing "next" plays it (fallBeside); the default is seed 003's push.
//   - Ruling: belts and pushers treat a ledge from below like a wall and cannot carry a
//     robot up a ramp (one square up a ramp ends on the ramp, and the robot slides
//     straight back); carried down a ledge the robot falls and takes 2 damage.
//     Ruling R-AD-PUSHER-RAMP: "straight back" is within the same element step: the
//     turn settles the ramps after every element step (turn.go), not at some later
//     card's end (scenario 916).
//   - The Big One is moved over ledges and ramps as a robot is (cards_devices.go,
//     R-AD-BIGONE-RAMP); a robot flying by Robo-Copter stays on a ramp until it lands
//     (R-AD-COPTER-RAMP).

// MaxLevel is the highest level a square may have.
const MaxLevel = 3

// HasRamp reports whether a ramp is written on the edge leaving p in direction d (on p's
// side or on the neighbour's).
func (b *Board) HasRamp(p Pos, d Dir) bool {
	if b.In(p) && b.At(p).Ramps.Has(d) {
		return true
	}
	q := p.Step(d)
	return b.In(q) && b.At(q).Ramps.Has(d.Back())
}

// LevelAt is the level of the square at p, 0 off the board.
func (b *Board) LevelAt(p Pos) int {
	if !b.In(p) {
		return 0
	}
	return int(b.At(p).Level)
}

// levelEdge reports whether the edge leaving p towards d joins two levels.
func (b *Board) levelEdge(p Pos, d Dir) bool {
	q := p.Step(d)
	return b.In(p) && b.In(q) && b.At(p).Level != b.At(q).Level
}

// checkLevels: a ramp joins two squares one level apart with no wall between.
func checkLevels(b *Board) error {
	for y := 0; y < b.H; y++ {
		for x := 0; x < b.W; x++ {
			p := Pos{x, y}
			s := b.At(p)
			for d := North; d <= West; d++ {
				if !s.Ramps.Has(d) {
					continue
				}
				q := p.Step(d)
				switch {
				case !b.In(q):
					return fmt.Errorf("square %v: a ramp on its %s side leads off the floor", p, d)
				case b.Blocked(p, d):
					return fmt.Errorf("square %v: a ramp on its %s side, where a wall stands", p, d)
				}
				if diff := int(s.Level) - int(b.At(q).Level); diff != 1 && diff != -1 {
					return fmt.Errorf("square %v: a ramp on its %s side joins levels %d and %d (a ramp joins neighbouring levels)", p, d, s.Level, b.At(q).Level)
				}
			}
		}
	}
	return nil
}

// fallBeside is seed 001's landing (Rules.Landing "next"): robot i, moving towards d from
// slot from, falls down a ledge into slot to, where a robot stands; it comes down on the
// next square along d without one (teleporters.go, landing) and takes the fall's 2
// damage. Ruling: should no square ahead be free (a wall behind the robots below), the
// fall does not happen and the robot is blocked at the ledge.
func (t *turn) fallBeside(i int, d Dir, from, to slot, by string) bool {
	r := &t.st.Robots[i]
	p := t.landing(i, to.p, d, from.p)
	if p == from.p || t.board().LevelAt(p) >= t.board().LevelAt(from.p) && t.board().In(p) {
		t.emit(Event{Kind: EvBlocked, Robot: r.Name, From: t.pos(r.Pos), Cause: "robot"})
		return false
	}
	ev := Event{Kind: EvMove, Card: t.cardOf(i, by), Cause: t.moveCause(i, by)}
	if by == "oil" {
		ev = Event{Kind: EvSlid, Cause: by}
	} else if by != "" {
		ev = Event{Kind: EvPushed, Cause: by}
	}
	t.place(i, d, slot{p: p}, edgeFall, ev, -1, false)
	return r.Active()
}

// BeamStops reports whether a laser beam leaving p towards d stops on that edge for good:
// a wall, or the edge between two levels (seed 001, Levels: robots on different levels
// cannot fire on one another). Swing doors open and close, so they are not counted here.
func (b *Board) BeamStops(p Pos, d Dir) bool { return b.Blocked(p, d) || b.levelEdge(p, d) }
