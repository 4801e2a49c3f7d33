package adjudicator

// Oil slicks (seed 003, "Extra Tiles For Grand Prix", OIL SLICKS; seed 000, "Robot
// moves through an Oil Slick", Illustrations 1–3c).
//
//   - A robot slides only when its move ends on oil: "a robot does not slide until it
//     attempts to end its movement on an oil slick; robots that are still moving behave
//     in the normal manner". It slides on in the direction it was moving until it is no
//     longer on oil (it stops on the first square without oil), or a wall stops it, or a
//     robot that is not on oil does.
//   - A sliding robot that meets a robot on oil pushes it, and both slide ("If a robot
//     slides into another robot which is on an oil slick, both robots slide"), until the
//     front robot leaves the oil or is stopped.
//   - "If a robot begins its movement on an oil slick, the first square of movement is
//     negated": Move 3 moves 2, Move 1 and Back Up do not move. Turning cards are not
//     affected. Ruling: a robot whose whole move is negated has not moved and does not
//     slide.
//   - Ruling: a move ends when the card is done (or stopped), and every robot it moved
//     that stands on oil then slides, the one furthest along its direction first: the
//     mover and the robots it pushed (seed 000, Illustration 3c: the purple robot stops
//     on oil, slides and pushes the orange robot). A robot pushed onto oil slides in the
//     direction it was pushed.
//   - Ruling: a robot pushed ahead off the slick into a pit is gone, and the robot behind,
//     still on oil with nothing to stop it, slides on after it (seed 003: it slides "until
//     it is stopped by a wall or another robot that is not on an oil slick, or until it is
//     no longer on an oil slick"; seed 000's "until the front Robot reaches a space
//     without Oil" is the usual case, where the front robot stays to block it). Scenario
//     233.
//   - Ruling: oil acts on movement in phase b only (cards, pushes by moving robots, bounces
//     off repulsor fields, sliding back off a ramp); belts and pushers carry robots over
//     and onto oil without a slide. Oil does no damage.

// onOil reports whether robot i stands on an oil slick (not on a ramp).
func (t *turn) onOil(i int) bool {
	r := &t.st.Robots[i]
	return r.Active() && t.ramp[i] == 0 && t.board().In(r.Pos) && t.board().At(r.Pos).Oil
}

// slideOnOil lets every robot moved by this card that stands on oil slide, front first,
// until none can. It reports whether anything slid.
func (t *turn) slideOnOil() bool {
	any := false
	limit := t.board().W + t.board().H + 2
	for pass := 0; pass < 4*MaxRobots; pass++ {
		j, best := -1, 0
		for k := range t.st.Robots {
			if t.moved[k] == 0 || t.settled&(1<<k) != 0 || !t.onOil(k) {
				continue
			}
			p := t.st.Robots[k].Pos
			d := Dir(t.moved[k] - 1)
			ahead := dirDelta[d].X*p.X + dirDelta[d].Y*p.Y
			if j < 0 || ahead > best {
				j, best = k, ahead
			}
		}
		if j < 0 {
			break
		}
		t.settled |= 1 << j
		d := Dir(t.moved[j] - 1)
		for n := 0; n < limit && t.onOil(j) && !t.st.Over; n++ {
			if !t.step(j, d, "oil") {
				break
			}
			any = true
		}
	}
	return any
}
