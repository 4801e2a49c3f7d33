package adjudicator

// Shutdown (seed 004, Shutdown): a robot may shut down for the round, declared after
// programming and before register 1 is revealed. By mail it is an order of the round:
// Orders.Shutdown, or the power-down decision of its orders (Decider.PowerDown: "shut
// down", "if ... power down"), asked as the round's activation begins with the state
// as it is then; a program is still given in that case (it is discarded). Its consequences, numbered as seed 004 numbers them:
//
//  1. the robot is shut down for this round (Robot.Power is PowerDown until the end of
//     the round);
//  2. 3. 4. its registers are revealed (an EvRevealed event naming each card) and
//     emptied: every damage card it holds goes to the damage discard pile, every
//     programming card to its own discard pile;
//  5. it stays on the board and plays no programming;
//  6. board elements, pushes and lasers still act on it (it takes damage cards as usual);
//  7. it gains no energy and claims no checkpoint (energy.go, flags.go).
//
// Rulings:
//   - R-SHUTDOWN-REACH: "all damage cards" are those the robot holds: its hand and its
//     registers, face-down Haywire cards included; damage cards already in its draw or
//     discard pile stay there.
//   - R-SHUTDOWN-FIRE: a shut-down robot does not fire its laser (it is shut down, as a
//     powered-down robot of the postal rules).
//   - R-SHUTDOWN-WHEN: the order is for the round being programmed; a robot re-entering
//     after a reboot may shut down (it is still placed on its token in register 1).
//     A shutdown order needs no program (the cards would be discarded anyway).

func (t *turn) shutdown(i int) {
	r := &t.st.Robots[i]
	r.Power = PowerDown
	// 2. the registers are revealed: one event a card, naming it (a face-down Haywire,
	// or the card the orders programmed there).
	for reg := 1; reg <= Registers; reg++ {
		e := Event{Kind: EvRevealed, Robot: r.Name, Amount: reg}
		if hw := r.Mat.Haywire[reg-1]; hw != 0 {
			e.Card, e.Cause = hw, "haywire"
		} else if i < len(t.orders) && t.orders[i].Program[reg-1] != 0 {
			e.Card = t.orders[i].Program[reg-1]
		} else {
			continue
		}
		t.emit(e)
	}
	damage := 0
	for k, hw := range r.Mat.Haywire {
		if hw != 0 {
			t.st.DamageDiscard = append(t.st.DamageDiscard, hw)
			r.Mat.Haywire[k] = 0
			damage++
		}
	}
	for _, c := range r.Hand {
		if CardKind(c).Damage() {
			t.st.DamageDiscard = append(t.st.DamageDiscard, c)
			damage++
		} else {
			r.Mat.Discard = append(r.Mat.Discard, c)
		}
	}
	r.Hand = r.Hand[:0]
	t.emit(Event{Kind: EvShutdown, Robot: r.Name, Amount: damage})
}
