package adjudicator

// Rebooting (seed 004, Rebooting; Re-entering Play), when Rules.Fall is "reboot".
//
// A robot that falls into a pit or off the board (moving, pushed or carried) reboots at
// once:
//  1. it leaves the board (Robot.Destroyed, until it re-enters);
//  2. its remaining registers are cancelled;
//  3. the cards in its registers and hand are discarded: SPAM and programming cards to
//     its own discard pile, Haywire cards (face up or face down) to the damage discard
//     pile (seed 004, Rebooting 3);
//  4. it draws Rules.ReentryDamage (2) damage cards, one at a time: a SPAM to its
//     discard pile, a Haywire face down under the register being played.
//
// In register 1 of the next round, when its turn in the playing order comes, it is put
// on the reboot token of the board it fell from, facing as its orders say
// (Decider.ReentryFacing; ruling R-REBOOT-FACING: the facing is written in the orders of
// the round it re-enters in, default towards its next checkpoint); a robot on the token
// is pushed one square the way the token's arrow points, as a push panel pushes (a
// chain, falling robots reboot); then it plays its register 1.
//
// Rulings:
//   - R-REBOOT-BOARD: the board it fell from is the placed board holding the square it
//     was last on (for a robot gone over an outer edge, the edge square it left); on a
//     one-board floor with several tokens, the token nearest that square (reading order
//     on a tie).
//   - R-REBOOT-START: a board with no reboot token (the docking bay of seed 004's
//     components) sends the robot back to the start square it began the game on, an
//     occupant pushed the way the start square faces.
//   - R-REBOOT-BLOCKED: when a wall stops the push, nobody moves and the robot does not
//     enter in this register; it tries again at its turn in each later register and
//     plays that register's card once in.
//   - R-REBOOT-KEEPS: energy, claimed checkpoints and held cards other than those in
//     registers and hand survive a reboot.

// reboot takes robot i off the board (the 2023 counterpart of destroy).
func (t *turn) reboot(i int, cause string) {
	r := &t.st.Robots[i]
	if r.Destroyed || r.Out {
		return
	}
	r.Destroyed = true
	t.emit(Event{Kind: EvReboot, Robot: r.Name, From: t.pos(r.Pos), Cause: cause})
	if t.single >= 0 && i != t.single {
		return
	}
	m := r.Mat
	for k, c := range r.Registers {
		if c != 0 {
			t.discardCard(i, c)
			r.Registers[k] = 0
		}
		if hw := m.Haywire[k]; hw != 0 {
			t.st.DamageDiscard = append(t.st.DamageDiscard, hw)
			m.Haywire[k] = 0
		}
	}
	for _, c := range r.Hand {
		t.discardCard(i, c)
	}
	r.Hand = r.Hand[:0]
	t.round().reentering[i] = false
	if !t.setup.Rules.DynamicArchive {
		p, _ := t.rebootSquare(i)
		r.Archive = p
	}
	t.damageCards(i, t.setup.Rules.ReentryDamage, "reboot", "")
}

// discardCard puts a card leaving robot i's registers or hand on its discard pile, or a
// Haywire on the damage discard pile (seed 004, Rebooting 3).
func (t *turn) discardCard(i, c int) {
	if CardKind(c).Haywire() {
		t.st.DamageDiscard = append(t.st.DamageDiscard, c)
		return
	}
	t.st.Robots[i].Mat.Discard = append(t.st.Robots[i].Mat.Discard, c)
}

// rebootSquare is where robot i re-enters and the way an occupant is pushed
// (R-REBOOT-BOARD, R-REBOOT-START).
func (t *turn) rebootSquare(i int) (Pos, Dir) {
	r := &t.st.Robots[i]
	b := t.board()
	last := Pos{min(max(r.Pos.X, 0), b.W-1), min(max(r.Pos.Y, 0), b.H-1)}
	region := t.course().BoardOf(last)
	best, found := Pos{}, false
	var dir Dir
	dist := 0
	try := func(k int) {
		tok := b.Squares[k].Reboot
		if !tok.On {
			return
		}
		p := Pos{k % b.W, k / b.W}
		if region >= 0 && t.course().BoardOf(p) != region {
			return
		}
		d := abs(p.X-last.X) + abs(p.Y-last.Y)
		if !found || d < dist {
			best, dir, dist, found = p, tok.Dir, d, true
		}
	}
	if s := t.setup; s.rebootsOK {
		for _, k := range s.reboots {
			try(int(k))
		}
	} else {
		for k := range b.Squares {
			try(k)
		}
	}
	if found {
		return best, dir
	}
	start := r.Mat.Start
	for _, s := range t.course().Starts {
		if s.Pos == start {
			return start, s.Facing
		}
	}
	return start, North
}

// reenter puts rebooting robot i on its reboot square, pushing a robot found there; it
// reports whether the robot is on the board.
func (t *turn) reenter(i int) bool {
	r := &t.st.Robots[i]
	f := t.decider(i).ReentryFacing(t.view(i))
	if f > West {
		f = North
	}
	p, d := t.rebootSquare(i)
	if t.setup.Rules.DynamicArchive {
		// seed 004, Dynamic Archiving: "Reboot at Archive Token location". Ruling
		// R-ARCHIVE-PUSH: the archive token has no arrow; a robot found there is pushed
		// the way the rebooting robot will face.
		p, d = r.Archive, f
	}
	if j := t.realAt(p, i); j >= 0 {
		t.step(j, d, "reboot") // it may fall and reboot in turn: the token is free then
		if t.realAt(p, i) >= 0 {
			t.emit(Event{Kind: EvBlocked, Robot: r.Name, Other: t.st.Robots[j].Name, From: t.pos(p), Cause: "reboot"})
			return false
		}
	}
	r.Pos, r.Archive = p, p
	r.Destroyed = false
	r.Facing = f
	t.emit(Event{Kind: EvReenter, Robot: r.Name, To: t.pos(p), Facing: t.dir(f)})
	return true
}
