package adjudicator

// Flamers (seed 000, "Robot moves through a Flamer" and "Activate Factory Elements").
//
//   - A flamer is active in the registers written on it.
//   - "If a Robot moves onto or passes a space with an active Flamer will it sustain 1
//     Damage": every time a robot enters the square while the flamer is active, it takes
//     1 damage at once. Ruling: entering by any means counts (own move, pushed, sliding,
//     carried by a belt or a pusher), since the flame burns what comes onto the square.
//   - "A Robot sustain a point of damage if it stands on the space of a Flamer when it is
//     active", and flamers act "directly after the Lasers" (the "flamers" step of
//     Rules.AfterLasers). A robot may so take 2 damage from one flamer in one register.

// flameOnEntry deals the damage of an active flamer to robot i, which has just entered
// its square.
func (t *turn) flameOnEntry(i int) {
	r := &t.st.Robots[i]
	if t.register == 0 || !r.Active() || !t.board().In(r.Pos) {
		return
	}
	if t.board().At(r.Pos).Flamer.Has(t.register) {
		t.damage(i, 1, "flamer", "")
	}
}

// runFlamers: robots standing in an active flamer take 1 damage.
func (t *turn) runFlamers() {
	if t.setup.fx&fxFlamer == 0 {
		return
	}
	b := t.board()
	for i, hi := t.actors(); i < hi; i++ {
		r := &t.st.Robots[i]
		if !r.Active() || !b.In(r.Pos) {
			continue
		}
		if b.At(r.Pos).Flamer.Has(t.register) && t.effectElement(i, "flamer") {
			t.damage(i, 1, "flamer", "")
		}
	}
}
