package adjudicator

import "math/rand/v2"

// Damage as cards (seed 004, Damage System), when Rules.Damage is "cards".
//
//   - Each point of damage is one card drawn from the shared damage deck, one at a time.
//     A SPAM goes on the robot's own discard pile (it comes back through its deck). A
//     Haywire goes face down under the register being played; at most one a register,
//     a further one goes to the damage discard pile (haywire.go).
//   - A SPAM revealed in a register goes to the damage discard pile and the top card of
//     the robot's deck is played in its place (replaceCard).
//   - Ruling R-DAMAGE-ORDER: when several robots are hit in one step they draw in the
//     playing order of the robots hit (token.go), board lasers before robot lasers (seed
//     004 gives them two steps, 5 and 6); each robot draws all its cards before the next.
//   - Ruling R-DAMAGE-EMPTY: an empty damage deck is refilled by shuffling the damage
//     discard pile; when both are empty the point of damage is lost (event
//     "no-damage-card"): there is no card to give.
//   - Ruling R-DAMAGE-MIX: the deck is what data/deck2023.txt says (32 SPAM, 8 Haywire
//     of this project's own), shuffled once by the game's seed; SPAM and Haywire are
//     drawn as they come, whatever deals the damage: Robot Lasers' "Deal 1 damage (1 SPAM
//     card)" is one card drawn as the Damage System says (scenario r23-143).

// damageRNG is the turn's generator for reshuffling the damage deck.
func (t *turn) damageRNG() *rand.Rand {
	if t.round().rngDamage == nil {
		t.round().rngDamage = turnRNG(t.setup.Seed, t.st.Turn, streamDamage)
	}
	return t.round().rngDamage
}

// drawDamage takes the top card of the damage deck, reshuffling the damage discard pile
// into a new deck when it is empty; ok is false when there is no card at all.
func (t *turn) drawDamage() (int, bool) {
	st := t.st
	if len(st.DamageDeck) == 0 {
		if len(st.DamageDiscard) == 0 {
			return 0, false
		}
		st.DamageDeck, st.DamageDiscard = st.DamageDiscard, nil
		t.damageRNG().Shuffle(len(st.DamageDeck), func(a, b int) {
			st.DamageDeck[a], st.DamageDeck[b] = st.DamageDeck[b], st.DamageDeck[a]
		})
		t.emit(Event{Kind: EvReshuffle, Amount: len(st.DamageDeck), Cause: "damage"})
	}
	c := st.DamageDeck[0]
	st.DamageDeck = st.DamageDeck[1:]
	return c, true
}

// damageCards deals amount damage cards to robot i, one at a time; an event "damage"
// sums them up after the cards.
func (t *turn) damageCards(i, amount int, cause, shooter string) {
	r := &t.st.Robots[i]
	taken := 0
	for k := 0; k < amount; k++ {
		c, ok := t.drawDamage()
		if !ok {
			t.emit(Event{Kind: EvNoDamage, Robot: r.Name, Cause: cause})
			continue
		}
		t.receiveDamageCard(i, c)
		taken++
	}
	if taken > 0 {
		t.emit(Event{Kind: EvDamage, Robot: r.Name, Other: shooter, Amount: taken, Cause: cause})
	}
}

// receiveDamageCard puts damage card c where it goes: a SPAM on the robot's discard
// pile, a Haywire face down under the register being played (register 1 outside the
// registers), or on the damage discard pile when that register already holds one.
func (t *turn) receiveDamageCard(i, c int) {
	r := &t.st.Robots[i]
	ev := Event{Kind: EvDamageCard, Robot: r.Name, Card: c}
	if !CardKind(c).Haywire() {
		r.Mat.Discard = append(r.Mat.Discard, c)
		ev.Cause = "discard-pile"
		t.emit(ev)
		return
	}
	slot := max(t.register, 1)
	if r.Mat.Haywire[slot-1] == 0 {
		r.Mat.Haywire[slot-1] = c
		ev.Cause, ev.Amount = "register", slot
	} else {
		// seed 004, Haywire Cards: "Maximum 1 Haywire per register (extras go to damage
		// discard)". Ruling R-HAYWIRE-EXTRA: only face-down Haywire cards count; one
		// played this round lies face up and leaves at the end of the round.
		t.st.DamageDiscard = append(t.st.DamageDiscard, c)
		ev.Cause = "damage-discard"
	}
	t.emit(ev)
}

// replaceCard discards the card c revealed in robot i's register (a SPAM to the damage
// discard pile; an Again in register 1 to the robot's own discard pile, ruling
// R-AGAIN-FIRST) and puts the top card of its deck in the register in its place; it
// returns the new card and its kind, or 0 when the deck and discard pile are both empty
// (ruling R-REPLACE-EMPTY: the register then plays nothing).
//
// seed 004, SPAM Cards: "Discard SPAM to damage discard pile; draw top card from your
// programming deck as replacement; execute the replacement card". Again Card Special
// Rule: in register 1 "treat it like SPAM". A replacement that is itself a SPAM, or an
// Again in register 1, is replaced in turn (activate loops).
func (t *turn) replaceCard(i, c int) (int, CardKind) {
	r := &t.st.Robots[i]
	reg := t.register
	if CardKind(c) == CardSpam {
		t.st.DamageDiscard = append(t.st.DamageDiscard, c)
	} else {
		r.Mat.Discard = append(r.Mat.Discard, c)
	}
	r.Registers[reg-1] = 0
	if t.single >= 0 {
		// Ruling R-FORECAST-HIDDEN: a forecast (Simulate, the autopilot) does not know
		// the order of the robot's deck any more than its player does: the replacement
		// is unknown and the forecast plays nothing in its place.
		t.emit(Event{Kind: EvReplaced, Robot: r.Name, Card: c, Cause: "unknown"})
		return 0, NoCard
	}
	nc, ok := t.drawCard(i)
	if !ok {
		t.emit(Event{Kind: EvReplaced, Robot: r.Name, Card: c, Cause: "empty-deck"})
		return 0, NoCard
	}
	r.Registers[reg-1] = nc
	t.emit(Event{Kind: EvReplaced, Robot: r.Name, Card: c, Amount: nc})
	t.emit(Event{Kind: EvCard, Robot: r.Name, Card: nc, Cause: "replacement"})
	return nc, CardKind(nc)
}

// sortHits puts the laser hits of a register in the order their damage cards are drawn
// (R-DAMAGE-ORDER): board lasers first, then robot lasers; within each, by the playing
// order of the robot hit. An insertion sort: a handful of hits, no allocation.
func (t *turn) sortHits(hits []hit) {
	key := func(h hit) int {
		k := t.tokenRank(h.target)
		if h.shooter >= 0 {
			k += MaxRobots
		}
		return k
	}
	for a := 1; a < len(hits); a++ {
		for b := a; b > 0 && key(hits[b]) < key(hits[b-1]); b-- {
			hits[b], hits[b-1] = hits[b-1], hits[b]
		}
	}
}
