package adjudicator

import (
	"math/rand/v2"
	"slices"
)

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
//     of this project's own), shuffled once by the game's seed. Plain damage draws the
//     top card, SPAM or Haywire as they come: board lasers (seed 004, Board Lasers: each
//     beam's damage is drawn from the damage deck), a reboot's 2 cards (Rebooting 4),
//     Ramming Gear ("pushing deals 1 damage") and Mini Howitzer ("2 damage": not called
//     SPAM, and not a laser: Deflector Shield does not stop it either).
//   - Ruling R-ROBOT-LASER-SPAM: a robot's laser deals SPAM. Seed 004 words the two
//     lasers apart on purpose: under Board Lasers a beam's damage is drawn from the
//     damage deck; under Robot Lasers the damage is "1 SPAM card". A robot's laser is
//     its main laser, with Double-Barrel Laser's extra point (the main laser "deals +1
//     damage": more of the same laser's damage), and Rear Laser (a laser fired
//     backwards, a robot's laser too): the hits of cause "robot-laser", the robot hits
//     Deflector Shield counts as laser damage. Each point is the first SPAM from the top
//     of the damage deck (drawSpam): the Haywire cards above it stay where they are, in
//     their order. A deck holding no SPAM has the damage discard pile shuffled (by the
//     game's seed, as R-DAMAGE-EMPTY does) and put under it, its Haywire cards still on
//     top; with no SPAM in the deck nor in the damage discard pile (every SPAM is in the
//     robots' cards) the point is lost (event "no-damage-card" with card SPAM). Cards
//     only move, so the 40 cards stay 40. Games made before this ruling keep
//     R-DAMAGE-MIX for robot lasers too (their stored rules have no robot_laser setting:
//     Rules.RobotLaser ""), so their archives replay as they were played.

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
		t.shuffleDamageUnder()
	}
	c := st.DamageDeck[0]
	st.DamageDeck = st.DamageDeck[1:]
	return c, true
}

// drawSpam takes the first SPAM from the top of the damage deck, leaving the cards
// above it in place and in order (ruling R-ROBOT-LASER-SPAM). A deck without a SPAM has
// the damage discard pile shuffled in under it first, when that pile holds one; ok is
// false when neither holds a SPAM.
func (t *turn) drawSpam() (int, bool) {
	st := t.st
	k := slices.IndexFunc(st.DamageDeck, isSpam)
	if k < 0 {
		if !slices.ContainsFunc(st.DamageDiscard, isSpam) {
			return 0, false
		}
		t.shuffleDamageUnder()
		k = slices.IndexFunc(st.DamageDeck, isSpam)
	}
	c := st.DamageDeck[k]
	if k == 0 {
		st.DamageDeck = st.DamageDeck[1:]
		return c, true
	}
	if t.ownPiles {
		st.DamageDeck = slices.Delete(st.DamageDeck, k, k+1)
		return c, true
	}
	// A new slice: a forecast's deck shares its array with the state it forecasts.
	deck := make([]int, 0, len(st.DamageDeck)-1)
	deck = append(deck, st.DamageDeck[:k]...)
	st.DamageDeck = append(deck, st.DamageDeck[k+1:]...)
	return c, true
}

func isSpam(c int) bool { return CardKind(c) == CardSpam }

// shuffleDamageUnder shuffles the damage discard pile by the turn's damage generator
// and puts it under the damage deck; into an empty deck (R-DAMAGE-EMPTY) it becomes the
// deck. It shuffles a copy: a forecast's piles share their arrays with the state it
// forecasts, which must not change.
func (t *turn) shuffleDamageUnder() {
	st := t.st
	pile := slices.Clone(st.DamageDiscard)
	st.DamageDiscard = nil
	t.damageRNG().Shuffle(len(pile), func(a, b int) { pile[a], pile[b] = pile[b], pile[a] })
	if len(st.DamageDeck) == 0 {
		st.DamageDeck = pile
		t.emit(Event{Kind: EvReshuffle, Amount: len(pile), Cause: "damage"})
		return
	}
	// R-ROBOT-LASER-SPAM: the deck holds Haywire cards only; they stay on top.
	st.DamageDeck = append(slices.Clip(st.DamageDeck), pile...)
	t.emit(Event{Kind: EvReshuffle, Amount: len(pile), Cause: "damage-under"})
}

// damageCards deals amount damage cards to robot i, one at a time; an event "damage"
// sums them up after the cards. A robot laser's points are SPAM cards under ruling
// R-ROBOT-LASER-SPAM (Rules.RobotLaser "spam"); any other damage draws the top card.
func (t *turn) damageCards(i, amount int, cause, shooter string) {
	r := &t.st.Robots[i]
	spam := cause == "robot-laser" && t.setup.Rules.RobotLaser == RobotLaserSpam
	taken := 0
	for k := 0; k < amount; k++ {
		var c int
		var ok bool
		if spam {
			c, ok = t.drawSpam()
		} else {
			c, ok = t.drawDamage()
		}
		if !ok {
			ev := Event{Kind: EvNoDamage, Robot: r.Name, Cause: cause}
			if spam {
				ev.Card = int(CardSpam) // no SPAM in the deck nor the damage discard pile
			}
			t.emit(ev)
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
		t.round().dealt[i] = t.round().dealt[i].With(slot)
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
