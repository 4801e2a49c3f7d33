package adjudicator

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// roundState is the working state of one 2023 round: the shuffles of the robots' own
// piles and of the damage deck in this turn (owndeck.go, spam.go), what each robot played
// in the previous register (Again), and the robots that rebooted in an earlier round and
// re-enter now (reboot.go).
type roundState struct {
	rngDeck, rngDamage *rand.Rand
	ran                [MaxRobots]CardKind
	reentering         [MaxRobots]bool
	// dealt is the registers (bit r for register r) under which a Haywire was dealt
	// face down this round: it is revealed in the next round, never in this one, even
	// when it arrives before the robot's own turn in the register (seed 004, Haywire
	// Cards: "Revealed and executed during the next round").
	dealt [MaxRobots]RegisterSet
	// Upgrades (upgrades.go): the register a Deflector Shield was paid for, the robots a
	// Ramming Gear rammed this register, the robot hovering in its own move (index+1).
	deflected [MaxRobots]int
	rammed    [MaxRobots]uint8
	hover     int
}

// round is the turn's 2023 working state, made on first use.
func (t *turn) round() *roundState {
	if t.r23 == nil {
		t.r23 = &roundState{}
	}
	return t.r23
}

// The 2023 round (seed 004, Game Structure), played through the same turn pipeline as
// the postal turn (turn.go) when Rules.Own():
//
//  1. the upgrade phase: each robot's, as its orders give it (upgrades.go, ruling
//     R-UPGRADE-WHEN), played as activation begins;
//  2. programming: hands were drawn at the end of the previous round (owndeck.go), so
//     players see them; the orders bring the program and any shutdown (shutdown.go);
//     the rest of the hand is discarded, damage cards kept;
//  3. activation: five registers, each: the programs, the priority token's holder first
//     and then clockwise (token.go), a robot re-entering after a reboot first placed on
//     its reboot token in register 1 (reboot.go); blue belts, green belts, push panels,
//     gears (Rules.Elements); board and robot lasers (lasers.go, damage as cards:
//     spam.go); batteries (energy.go); checkpoints (flags.go);
//  4. end of round (endOfRound): the token passes to the left, register cards are
//     discarded (face-down Haywire cards stay), shut-down robots come back, hands are
//     drawn for the next round.

// prepare2023 readies a setup for the 2023 rules: the cards named by kind, the card set,
// and the floor as the rules see it. Board elements under a checkpoint are taken off the
// engine's copy of the floor (seed 004, Checkpoints: "Board elements under checkpoints
// are inactive"; the checkpoints of seed 004 do not move, so this is the same as
// switching them off each register); with Rules.EdgeWalls the outer edges get walls.
// Elements a ruleset does not play are refused by checkElements, not played dead.
func (s *Setup) prepare2023() error {
	s.Deck = KindDeck()
	s.cards = Cards2023()
	s.Effects = upgradeEffects()
	c := *s.Course
	b := c.Board.Clone()
	if s.Rules.Lighter {
		// seed 004, A Lighter Game: "Remove ... battery spaces".
		for k := range b.Squares {
			b.Squares[k].Battery = false
		}
	}
	if s.Rules.CheckpointCovers {
		for _, f := range c.Flags {
			sq := b.At(f)
			sq.Belt, sq.Gear, sq.Pusher, sq.Laser, sq.Battery = Belt{}, NoRotation, Pusher{}, Laser{}, false
		}
	}
	if s.Rules.EdgeWalls {
		for x := 0; x < b.W; x++ {
			b.At(Pos{x, 0}).Walls = b.At(Pos{x, 0}).Walls.With(North)
			b.At(Pos{x, b.H - 1}).Walls = b.At(Pos{x, b.H - 1}).Walls.With(South)
		}
		for y := 0; y < b.H; y++ {
			b.At(Pos{0, y}).Walls = b.At(Pos{0, y}).Walls.With(West)
			b.At(Pos{b.W - 1, y}).Walls = b.At(Pos{b.W - 1, y}).Walls.With(East)
		}
	}
	c.Board = b
	s.Course = &c
	return nil
}

// newGame2023 gives every robot its mat: energy, its own deck shuffled, its start square;
// shuffles the damage deck; the priority token starts with the first seat (ruling
// R-TOKEN-START: seed 004 does not say who holds it first).
func (t *turn) newGame2023() {
	s, st := t.setup, t.st
	rng := turnRNG(s.Seed, 0, streamSetup2023)
	for i := range st.Robots {
		r := &st.Robots[i]
		deck := slices.Clone(s.cards.Program)
		rng.Shuffle(len(deck), func(a, b int) { deck[a], deck[b] = deck[b], deck[a] })
		r.Mat = &Mat{Energy: s.Rules.EnergyStart, Deck: deck, Discard: []int{}, Start: r.Pos}
		r.Archive = r.Pos
	}
	st.DamageDeck = slices.Clone(s.cards.Damage)
	rng.Shuffle(len(st.DamageDeck), func(a, b int) {
		st.DamageDeck[a], st.DamageDeck[b] = st.DamageDeck[b], st.DamageDeck[a]
	})
	st.Priority = 0
	t.drawHands()
}

// playRound is play for the 2023 rules.
func (t *turn) playRound() {
	st := t.st
	for i := range st.Robots {
		r := &st.Robots[i]
		if r.Out || r.Mat == nil {
			continue
		}
		t.round().reentering[i] = r.Destroyed
		t.upgradePhase(i) // seed 004, Phase 1: upgrades.go
		// A shutdown is ordered outright (Orders.Shutdown) or by the orders' power-down
		// decision ("shut down", "if ... power down"), asked as the round begins.
		if t.orders[i].Shutdown || t.decider(i).PowerDown(t.view(i)) {
			t.shutdown(i)
			continue
		}
		for reg := 1; reg <= Registers; reg++ {
			c := t.orders[i].Program[reg-1]
			if r.Mat.Haywire[reg-1] != 0 || c == 0 {
				continue
			}
			takeFromHand(r, c)
			r.Registers[reg-1] = c
		}
		t.discardHand(i)
	}
	last := Registers
	if t.stopAfter > 0 {
		last = t.stopAfter
	}
	for reg := 1; reg <= last && !st.Over; reg++ {
		t.runRegister(reg)
	}
	if t.stopAfter > 0 {
		return
	}
	t.register = 0
	if !st.Over {
		t.endOfRound()
	}
}

// endOfRound (seed 004, End of Round): the priority token passes to the left; the cards
// face up in the registers are discarded, damage cards to the damage discard pile and
// programming cards to the robot's own discard pile; face-down Haywire cards stay under
// their registers; a shut-down robot powers up again; the next hands are drawn.
func (t *turn) endOfRound() {
	t.phase = "end"
	st := t.st
	t.passToken()
	for i := range st.Robots {
		r := &st.Robots[i]
		if r.Mat == nil {
			continue
		}
		for k, c := range r.Registers {
			if c == 0 {
				continue
			}
			if CardKind(c).Damage() {
				st.DamageDiscard = append(st.DamageDiscard, c)
			} else {
				r.Mat.Discard = append(r.Mat.Discard, c)
			}
			r.Registers[k] = 0
		}
		if r.Power == PowerDown {
			r.Power = PowerOn
			t.emit(Event{Kind: EvPoweredUp, Robot: r.Name})
		}
	}
	st.Turn++
	t.phase = "deal"
	t.drawHands()
	for i := range st.Robots {
		t.eachFx(i, hkAfterDraw, func(e Effect) {
			if a, ok := e.(AfterDrawer); ok {
				a.AfterDraw(t.view(i))
			}
		})
	}
}

// activate plays robot i's register in the 2023 rules (seed 004, Phase 3 A): re-entry
// after a reboot, then a face-down Haywire from the last round in place of the card, or
// the card: SPAM (and Again in register 1) replaced by the top card of the deck, Again
// repeating the previous register, Power Up, or a move.
func (t *turn) activate(i int) {
	r := &t.st.Robots[i]
	reg := t.register
	if t.round().reentering[i] {
		if !t.reenter(i) {
			return // blocked: it tries again at its turn in the next register
		}
		t.round().reentering[i] = false
	}
	if !r.Active() || r.Power == PowerDown {
		return
	}
	if hw := r.Mat.Haywire[reg-1]; hw != 0 && !t.round().dealt[i].Has(reg) {
		// Ruling R-HAYWIRE-SLOT: a register holding a face-down Haywire was not
		// programmed; the Haywire is turned face up and played in its place.
		r.Mat.Haywire[reg-1] = 0
		r.Registers[reg-1] = hw
		t.round().ran[i] = NoCard
		t.emit(Event{Kind: EvCard, Robot: r.Name, Card: hw})
		t.runHaywire(i, CardKind(hw))
		t.afterCard(i)
		return
	}
	c := r.Registers[reg-1]
	if c == 0 {
		t.round().ran[i] = NoCard
		return
	}
	t.emit(Event{Kind: EvCard, Robot: r.Name, Card: c})
	k := CardKind(c)
	if t.effectAborts(i, c) { // Abort Switch: upgrades.go
		if c, k = t.replaceCard(i, c); c == 0 {
			t.round().ran[i] = NoCard
			return
		}
	}
	// Ruling R-AGAIN-ONLY: an Again in register 1 goes to the robot's own discard pile,
	// from which a reshuffle may draw it again; once every card of the deck and the
	// discard pile has been drawn and none could be played (only Again cards are left),
	// the register plays nothing, as with an empty deck (R-REPLACE-EMPTY). Without this
	// bound such a deck loops for ever.
	for tries := len(r.Mat.Deck) + len(r.Mat.Discard) + 1; k == CardSpam || (k == CardAgain && reg == 1); tries-- {
		if tries < 0 {
			t.round().ran[i] = NoCard
			return
		}
		if c, k = t.replaceCard(i, c); c == 0 {
			t.round().ran[i] = NoCard
			return
		}
	}
	if k == CardAgain {
		// Ruling R-AGAIN: Again repeats what the previous register played (the
		// replacement of a SPAM, what an Again there repeated); nothing after a Haywire
		// or a register the robot did not play.
		k = t.round().ran[i]
		t.emit(Event{Kind: EvAgain, Robot: r.Name, Card: int(k)})
		if k == NoCard {
			t.afterCard(i)
			return
		}
	} else {
		t.round().ran[i] = k
	}
	t.playKind(i, k)
	t.afterCard(i)
}

// checkElements refuses a floor holding an element the ruleset does not play, rather
// than playing it as dead floor: batteries and reboot tokens belong to the 2023 rules;
// repair sites, crushers and the Grand Prix, Crash & Burn and Armed and Dangerous
// elements to the postal rules (seed 004 has none of them).
func (r Rules) checkElements(c *Course) error {
	b := c.Board
	for k := range b.Squares {
		sq := &b.Squares[k]
		p := Pos{k % b.W, k / b.W}
		var what string
		switch {
		case !r.Own() && sq.Battery:
			what = "a battery"
		case !r.Own() && sq.Reboot.On:
			what = "a reboot token"
		case r.Own() && sq.Repair > 0:
			what = "a repair site"
		case r.Own() && sq.Crusher != 0:
			what = "a crusher"
		case r.Own() && (sq.Oil || sq.Portal != 0 || sq.Level != 0 || sq.Ramps != 0 || sq.Repulsors != 0 ||
			sq.Door != (Door{}) || sq.ChopShop || sq.Flamer != 0 || sq.Stomper != 0):
			what = "a Grand Prix or Crash & Burn element"
		case r.Own() && (sq.Water || sq.Teleporter || sq.Randomizer):
			// seed 001's water, currents, teleporters and randomizers (a randomizer
			// draws from a shared deck the 2023 rules do not have); drains are pits.
			what = "an Armed and Dangerous element"
		default:
			continue
		}
		return fmt.Errorf("course %q: square %v holds %s, which the %s rules do not play", c.Name, p, what, r.Name)
	}
	return nil
}
