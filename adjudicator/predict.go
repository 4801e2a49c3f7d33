package adjudicator

// Predictions at a decision point: what the engine can tell a Decider about the outcome
// of the decision it is asked, so that conditional orders like "if I would be destroyed
// then discard an option to prevent damage" or "if the target would fall into a pit use
// Tractor Beam" can be judged (orders, docs/orders.md "Predicted outcomes").
//
// What is known, exactly:
//
//   - Self, WouldBeDestroyed: at a PreventDamage decision only. True when the robot's
//     damage before the hit, plus the points of the hit already taken, plus the points
//     still to come (the one being decided included) reach Rules.DestroyAt: the robot is
//     destroyed by this hit unless more of it is prevented.
//   - Self, WouldEndOnLaser: at the end of the turn (Register() == 0) only: a board laser
//     reaches the robot's square as the board stands (OnLaser). Not known during the
//     registers, where the rest of the turn is still to be played.
//   - Self, WouldFall: never known yet (no decision is asked in the middle of a move).
//   - TheTarget, WouldBeDestroyed / WouldFall: at an option question that carries a target
//     (AskOption), from the Impact the option declares: the target falls when its move
//     crosses a pit or the board's edge before a wall stops it (other robots in the way
//     are not considered); it is destroyed when it falls or when its damage plus the
//     Impact's damage reaches Rules.DestroyAt (before any option it might discard).
//   - Anything else, and every question without a target about TheTarget: not known.
//
// Predict returns known == false for what it cannot tell; callers treat that as "no".

// Subject is whose outcome a prediction is about.
type Subject uint8

const (
	Self      Subject = iota // the deciding robot
	TheTarget                // the robot an option question is about (View.Target)
)

// Outcome is a predicted outcome.
type Outcome uint8

const (
	WouldBeDestroyed Outcome = iota + 1
	WouldFall                // into a pit or off the board
	WouldEndOnLaser          // end the turn where a board laser reaches
)

// Impact is what an option would do to its target if used, as the option's effect
// declares it when it asks (AskOption): points of damage, and a move of Steps squares
// in direction Move (a push, a pull). The zero Impact does nothing.
type Impact struct {
	Damage int
	Move   Dir
	Steps  int
}

// PendingDamage is, at a PreventDamage decision, the damage the hit being dealt would
// still do if nothing more of it is prevented: the points already taken (they land at
// the end of the hit, so Robot().Damage does not count them yet) plus the points still
// to come, the one being decided included. 0 at any other decision.
func (v View) PendingDamage() int { return v.taken + v.left }

// Target is a copy of the robot an option question is about, and false when the
// question has no target (every decision but Option, and option questions asked
// without one).
func (v View) Target() (Robot, bool) {
	if v.target == 0 {
		return Robot{}, false
	}
	r := v.t.st.Robots[v.target-1]
	r.Hand = nil
	r.Options = append([]string(nil), r.Options...)
	return r, true
}

// Predict says whether who would suffer what, as far as the engine can tell at this
// decision; known is false when it cannot tell (see the list at the top of predict.go).
func (v View) Predict(who Subject, what Outcome) (yes, known bool) {
	switch who {
	case Self:
		r := &v.t.st.Robots[v.robot]
		switch what {
		case WouldBeDestroyed:
			if v.left == 0 {
				return false, false
			}
			return r.Damage+v.taken+v.left >= v.t.setup.Rules.DestroyAt, true
		case WouldEndOnLaser:
			if v.t.register != 0 || !r.Active() {
				return false, false
			}
			return v.OnLaser(), true
		}
	case TheTarget:
		if v.target == 0 {
			return false, false
		}
		r := &v.t.st.Robots[v.target-1]
		if !r.Active() {
			return false, true // nothing more happens to a robot out of play
		}
		falls := v.impactFalls(r.Pos)
		switch what {
		case WouldFall:
			return falls, true
		case WouldBeDestroyed:
			return falls || (v.impact.Damage > 0 && r.Damage+v.impact.Damage >= v.t.setup.Rules.DestroyAt), true
		}
	}
	return false, false
}

// impactFalls walks the Impact's move from p: a pit or the board's edge before a wall.
func (v View) impactFalls(p Pos) bool {
	b := v.t.board()
	for s := 0; s < v.impact.Steps; s++ {
		if b.Blocked(p, v.impact.Move) {
			return false
		}
		p = p.Step(v.impact.Move)
		if b.Deadly(p) {
			return true
		}
	}
	return false
}

// AskOption puts an option card's question to the deciding robot's orders
// (Decider.Option) about another robot, target (a robot's name; "" for none), with
// what the option would do to it, so that the orders can judge "target would be
// destroyed" and "target would fall". It is for option effects, which receive a View at
// their hook points; a Decider must not call it. An unknown or inactive target is asked
// about as no target. The answer is the Decider's: the chosen parameter, "" to decline.
func (v View) AskOption(option, question, target string, impact Impact) string {
	q := v
	q.taken, q.left, q.target, q.impact = 0, 0, 0, Impact{}
	if target != "" {
		for j := range v.t.st.Robots {
			if j != v.robot && v.t.st.Robots[j].Name == target && v.t.st.Robots[j].Active() {
				q.target, q.impact = j+1, impact
				break
			}
		}
	}
	return v.t.decider(v.robot).Option(q, option, question)
}
