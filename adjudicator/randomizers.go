package adjudicator

// Randomizers (seed 001, Board Element Overview: Randomizers).
//
//   - A powered-up robot standing on a randomizer when the cards of a register are
//     revealed (phase a) gets a new program card at random from the deck, in place of
//     every card in that register (extra cards of Crab Legs or Overload Override
//     included). The new card is played in phase b at its own priority.
//   - "Randomly from the deck" is deterministic here: the top card of the turn's draw
//     pile (drawFromPile, cards_crashburn.go: the cards not dealt, not in a register and
//     not on a Flywheel, shuffled by the game's seed and the turn), robots in seating
//     order within a register. So a replay draws the same card, and no card is ever in
//     play twice (priorities stay unique).
//   - Ruling: the new card takes the register's place for good: should the register lock
//     later in the turn, the new card is the one locked; a register already locked has
//     its card replaced as well, and keeps the new one locked (scenario 1011).
//   - Ruling: a forecast (Simulate, the autopilot) cannot know the card; it plays the
//     robot's own card and records a randomized event with no card.
//   - The 2023 rules have no shared deck to draw from: a course with a randomizer is
//     refused there (round.go, checkElements).

// randomize gives every robot in t.order standing on a randomizer a new card for this
// register.
func (t *turn) randomize() {
	b := t.board()
	regs := t.register - 1
	for _, i := range t.order {
		r := &t.st.Robots[i]
		if !b.In(r.Pos) || !b.At(r.Pos).Randomizer || t.ramp[i] != 0 || t.devs.flying[i] {
			continue
		}
		old := r.Registers[regs]
		if t.single >= 0 {
			t.emit(Event{Kind: EvRandomized, Robot: r.Name, Amount: old, Cause: "randomizer"})
			continue // a forecast cannot know the card
		}
		c := t.drawFromPile()
		if c == 0 {
			continue // the deck is spent: the robot keeps its card
		}
		r.Registers[regs] = c
		t.emit(Event{Kind: EvRandomized, Robot: r.Name, Card: c, Amount: old, Cause: "randomizer"})
	}
}
