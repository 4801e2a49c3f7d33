package adjudicator

// The priority token (seed 004, Priority System; Phase 3 A.2).
//
//   - The robot holding the token plays its register first, then the others clockwise
//     around the table. Seats are clockwise: the seat after i is i+1, wrapping.
//   - At the end of each round the token passes to the left. Ruling R-TOKEN-LEFT: at a
//     table, the player on your left is the next one clockwise, so "to the left" and
//     "clockwise" are the same way round: the token goes to seat+1.
//   - Ruling R-TOKEN-START: seed 004 does not say who holds the token first; the first
//     seat does.

// tokenOrder sets t.order to the robots that play this register, token holder first:
// every robot in the race that is on the board and not shut down, and robots re-entering
// after a reboot (they are placed at their turn, reboot.go), shut down or not.
func (t *turn) tokenOrder() {
	t.order = t.orderBuf[:0]
	n := len(t.st.Robots)
	for k := 0; k < n; k++ {
		i := (t.st.Priority + k) % n
		r := &t.st.Robots[i]
		if !t.acts(i) || r.Out {
			continue
		}
		if t.round().reentering[i] || (r.Active() && r.Power != PowerDown) {
			t.order = append(t.order, i)
		}
	}
}

// tokenRank is robot i's place in the playing order: 0 for the token's holder.
func (t *turn) tokenRank(i int) int {
	n := len(t.st.Robots)
	return (i - t.st.Priority%n + n) % n
}

// passToken passes the priority token to the left (seat+1).
func (t *turn) passToken() {
	n := len(t.st.Robots)
	if n == 0 {
		return
	}
	t.st.Priority = (t.st.Priority + 1) % n
	t.emit(Event{Kind: EvPriority, Robot: t.st.Robots[t.st.Priority].Name})
}
