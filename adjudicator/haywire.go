package adjudicator

// Haywire cards (seed 004, Haywire Cards): damage that lies face down under a register
// and is played in the next round instead of that register's card, then discarded to the
// damage discard pile at the end of the round.
//
// Seed 004 names no Haywire effects. The four below are THIS PROJECT'S OWN, kept small
// and plain so that a player can foresee them; they are not official card texts
// (docs/rules-2023.md, "Haywire"):
//
//	Lurch     the robot moves 3 squares forward, pushing as a move does;
//	Spin-out  the robot makes a U-turn, then moves 1 square forward;
//	Stall     the robot does nothing in this register;
//	Surge     the robot gains 2 energy, then moves 1 square back.
//
// Ruling R-HAYWIRE-SLOT: a register holding a face-down Haywire is not programmed in the
// next round (a program card there is an error); the Haywire plays in its place. Ruling
// R-AGAIN: an Again after a Haywire register repeats nothing (a Haywire is not a
// programming card).

func (t *turn) runHaywire(i int, k CardKind) {
	switch k {
	case CardHaywire1: // Lurch
		t.playKind(i, CardMove3)
	case CardHaywire2: // Spin-out
		t.playKind(i, CardUTurn)
		if t.st.Robots[i].Active() {
			t.playKind(i, CardMove1)
		}
	case CardHaywire3: // Stall
	case CardHaywire4: // Surge
		t.gainEnergy(i, 2, "haywire")
		t.playKind(i, CardBackUp)
	}
}
