package adjudicator

import "slices"

// End of turn (rules README, A turn 5; seed 003, "After the fifth phase ... All robots on
// checkpoints or repair sites are repaired", Virtual Robots).
//
// In this order:
//  1. repairs: a robot on a flag or a single-wrench site repairs 1; on a double-wrench
//     site it repairs 2 or takes an option card instead (Decider.DoubleWrench); then a
//     robot on a chop shop makes its choice (chopshop.go);
//  2. unlocked registers are cleared (locked ones keep their cards);
//  3. destroyed robots with lives left re-enter at their archive with 2 damage, facing as
//     ordered (Decider.ReentryFacing); virtual if the archive square is occupied by any
//     robot already on the board (robots re-enter in seating order);
//  4. a virtual robot alone on its square becomes real;
//  5. power: a powered-down robot comes back up unless it stays down
//     (Decider.StayDown); any other robot may announce a power down for the next turn
//     (Decider.PowerDown). A robot powering down has all its damage repaired now, and
//     gets no cards;
//  6. the next turn's hands are dealt.
func (t *turn) endOfTurn() {
	t.phase = "end"
	t.landAll() // seed 001, Robo-Copter: "At the end of each turn, your robot lands" (flying.go)
	st := t.st
	b := t.board()
	for i := range st.Robots {
		t.settleBio(i) // Bio-Bots and the Bio Option card: variants.go
	}
	// 1. Repairs.
	for i := range st.Robots {
		r := &st.Robots[i]
		if !r.Active() || !b.In(r.Pos) || t.bare(r.Pos) {
			continue
		}
		sq := b.At(r.Pos)
		switch {
		case sq.Repair > 0 && t.setup.Rules.TurboWrenches:
			if !t.turboWrench(i, sq.Repair) { // seed 001, Turbo Wrenches: variants.go
				t.repair(i, sq.Repair)
			}
		case sq.Repair >= 2:
			// Ruling: with no option card left to draw (no deck, or a game without
			// options) the site repairs, so "take option card" never costs the repair
			// for nothing.
			if t.decider(i).DoubleWrench(t.view(i)) != TakeOption || !t.drawOption(i) {
				t.repair(i, sq.Repair)
			}
		case sq.Repair == 1 || sq.Flag > 0 || t.course().FlagAt(r.Pos) > 0:
			t.repair(i, 1)
		}
	}
	if t.setup.fx&fxChop != 0 {
		t.runChopShops(true) // chopshop.go: scrap, recharge or draw
	}
	if len(st.Devices) > 0 {
		t.endBombs() // seed 001, Buzz Bomb: cards_devices.go
	}
	// 2. Registers. Registers a Target Control shot jammed this turn stay locked through
	// the next; older jams end now (seed 000, Target Control).
	for i := range st.Robots {
		r := &st.Robots[i]
		r.Jammed = t.cards.jam[i]
		if r.Destroyed || r.Out {
			r.Jammed = 0
		}
		for reg := 1; reg <= Registers; reg++ {
			if !r.IsLocked(reg) || r.Destroyed || r.Out {
				r.Registers[reg-1] = 0
			}
		}
	}
	// 3. Re-entry.
	for i := range st.Robots {
		r := &st.Robots[i]
		if !r.Destroyed || r.Out {
			continue
		}
		t.reenterArchive(i)
	}
	// 4. Virtual robots alone become real.
	for i := range st.Robots {
		r := &st.Robots[i]
		if r.Active() && r.Virtual && !t.anyRobotAt(r.Pos, i) {
			r.Virtual = false
			t.emit(Event{Kind: EvReal, Robot: r.Name, To: t.pos(r.Pos)})
		}
		if !r.Virtual && len(st.Devices) > 0 && t.realDevicesOnly(i) {
			// Ruling R-AD-VIRTUAL-BRIDGE: the robot stood on its own virtual bridge, which
			// has gone with its virtual mode: it falls into the pit and re-enters at once,
			// as the robots destroyed earlier did (scenario 1020).
			t.checkFall(i)
			if r.Destroyed && !r.Out {
				t.reenterArchive(i)
			}
		}
	}
	// 5. Power.
	for i := range st.Robots {
		r := &st.Robots[i]
		if r.Out {
			continue
		}
		if r.Power == PowerDown {
			if t.decider(i).StayDown(t.view(i)) {
				t.emit(Event{Kind: EvStayDown, Robot: r.Name})
				t.repairAll(i)
				t.bioSwap(i, "bio-option") // seed 001, Bio Option: each power down (variants.go)
			} else {
				r.Power = PowerOn
				t.emit(Event{Kind: EvPoweredUp, Robot: r.Name})
			}
			continue
		}
		if forced := t.forcedDown(i); forced != "" {
			r.Power = PowerDown
			t.emit(Event{Kind: EvAnnounce, Robot: r.Name, Option: forced})
			t.repairAll(i)
			t.bioSwap(i, "bio-option")
			continue
		}
		if t.decider(i).PowerDown(t.view(i)) {
			r.Power = PowerDown
			t.emit(Event{Kind: EvAnnounce, Robot: r.Name})
			t.repairAll(i)
			t.bioSwap(i, "bio-option")
		}
	}
	// 6. Deal.
	st.Turn++
	t.phase = "deal"
	t.deal()
}

// forcedDown is the option that powers robot i down without its orders, or "".
func (t *turn) forcedDown(i int) string {
	if !t.has(i, hkPowerDown) {
		return ""
	}
	for x, e := range t.fxOf(i) {
		if !t.actsAt(i, x, hkPowerDown) {
			continue
		}
		if p, ok := e.(PowerDowner); ok && p.ForcePowerDown(t.view(i)) {
			return e.Option()
		}
	}
	return ""
}

// reenteringAt reports whether another robot that is still to re-enter this turn has
// its archive at p.
func (t *turn) reenteringAt(p Pos, not int) bool {
	for j := range t.st.Robots {
		q := &t.st.Robots[j]
		if j != not && q.Destroyed && !q.Out && q.Archive == p {
			return true
		}
	}
	return false
}

func (t *turn) repair(i, n int) {
	r := &t.st.Robots[i]
	if n > r.Damage {
		n = r.Damage
	}
	if n <= 0 {
		return
	}
	r.Damage -= n
	t.emit(Event{Kind: EvRepair, Robot: r.Name, Amount: n})
}

// repairAll: a powered-down robot "has all its damage repaired" (rules README, A turn 3).
// Its locked registers are freed with the damage.
func (t *turn) repairAll(i int) {
	r := &t.st.Robots[i]
	t.repair(i, r.Damage)
	for reg := 1; reg <= Registers; reg++ {
		if !r.IsLocked(reg) {
			r.Registers[reg-1] = 0
		}
	}
}

// destroy takes robot i off the board at once: it loses a life (and leaves the race with
// none left), discards its program, and loses an option card of its owner's choice.
func (t *turn) destroy(i int, cause string) {
	r := &t.st.Robots[i]
	if r.Destroyed || r.Out {
		return
	}
	r.Destroyed = true
	e := t.event(EvDestroyed, r.Name)
	e.From, e.Cause = t.pos(r.Pos), cause
	if len(r.Options) > 0 {
		idx := t.safetyCopyLost(i) // seed 000, De Luxe Safety Copy: cards_crashburn.go
		if idx < 0 {
			idx = t.decider(i).LoseOption(t.view(i), LossDestroyed)
		}
		if idx < 0 || idx >= len(r.Options) {
			idx = 0
		}
		opt := t.removeOption(i, idx)
		t.emit(Event{Kind: EvOptionLose, Robot: r.Name, Option: opt, Cause: "destroyed"})
	}
	r.Lives--
	t.event(EvLifeLost, r.Name).Amount = r.Lives
	if r.Lives <= 0 {
		r.Out = true
		r.Virtual = false
		t.emit(Event{Kind: EvOut, Robot: r.Name})
	}
	if t.st.Over || t.single >= 0 {
		return
	}
	// The last robot standing does not win: the race is to the flags. When no robot is
	// left in the race the game is over with no winner.
	for k := range t.st.Robots {
		if !t.st.Robots[k].Out {
			return
		}
	}
	t.st.Over = true
}

// deal shuffles every card not locked in a register and deals each robot in the race
// that is not powered down Rules.HandSize minus its damage (rules README, A turn 1: "All
// cards are reshuffled every turn"). The deal is fixed by (seed, turn).
func (t *turn) deal() {
	st := t.st
	var lockedArr [MaxRobots * (Registers + 1)]int
	locked := lockedArr[:0]
	for i := range st.Robots {
		r := &st.Robots[i]
		for _, c := range r.Registers {
			if c != 0 {
				locked = append(locked, c)
			}
		}
		// A card on a Flywheel stays out of the deal; it goes back to the deck when the
		// Flywheel is lost or the robot is out (seed 000, Flywheel).
		if r.Flywheel != 0 && (r.Out || !slices.Contains(r.Options, "Flywheel")) {
			r.Flywheel = 0
		}
		if r.Flywheel != 0 {
			locked = append(locked, r.Flywheel)
		}
	}
	// The deck less the locked cards. Deck.cards is ascending, so each locked card is
	// found by a binary search and the deck copied in the pieces between them.
	slices.Sort(locked)
	var deck []int
	if t.sm != nil && t.setup.Deck.Len() <= len(t.sm.deck) {
		deck = t.sm.deck[:0]
	} else {
		deck = make([]int, 0, t.setup.Deck.Len())
	}
	cards, from := t.setup.Deck.cards, 0
	for _, c := range locked {
		if k, ok := slices.BinarySearch(cards, c); ok && k >= from {
			deck = append(deck, cards[from:k]...)
			from = k + 1
		}
	}
	deck = append(deck, cards[from:]...)
	clear(deck[len(deck):len(cards)]) // as slices.DeleteFunc leaves a copy of the deck
	// Each hand is the piece of the shuffled deck it was dealt from (the new state's
	// memory, stateMem, or Deck.Cards' copy), clipped so that adding a card to one
	// (Flywheel) copies it rather than writing over the next; the pile left is the rest
	// of the deck.
	shuffleInts(t.setup.Seed, st.Turn, streamDeal, deck)
	if len(t.setup.DealTop) > 0 {
		stackTop(deck, t.setup.DealTop) // a scenario's "deal:" line
	}
	for i := range st.Robots {
		r := &st.Robots[i]
		r.Hand, r.BombHand = nil, nil
		if r.Out || r.Power == PowerDown {
			continue
		}
		n := t.effectHandSize(i, t.setup.Rules.HandSize-r.Damage)
		if n < 0 {
			n = 0
		}
		if n > len(deck) {
			n = len(deck)
		}
		r.Hand = deck[:n:n]
		deck = deck[n:]
		slices.Sort(r.Hand)
		t.event(EvDeal, r.Name).Amount = n
		t.dealPile = deck
		t.eachFx(i, hkDeal, func(e Effect) {
			if d, ok := e.(Dealer); ok {
				d.AfterDeal(t.view(i))
			}
		})
		deck = t.dealPile
	}
	for i := range st.Robots {
		t.eachFx(i, hkHands, func(e Effect) {
			if d, ok := e.(HandsDealer); ok {
				d.AfterHands(t.view(i))
			}
		})
	}
}

// reenterArchive brings destroyed robot i back at its archive (step 3 of the end of turn).
func (t *turn) reenterArchive(i int) {
	r := &t.st.Robots[i]
	r.Destroyed = false
	r.Pos = r.Archive
	r.Damage = t.setup.Rules.ReentryDamage
	t.eachFx(i, hkReenter, func(e Effect) {
		if re, ok := e.(Reenterer); ok {
			re.Reenter(t.view(i), &r.Damage)
		}
	})
	t.safetyCopyReenter(i, &r.Damage)
	// seed 003, Virtual Robots: a reactivated robot is real only "if no other robot
	// exists on the square" it reactivates on. Ruling (1994 FAQ): robots re-entering
	// on one square in the same turn are all virtual, whatever the seating order.
	r.Virtual = t.anyRobotAt(r.Pos, i) || t.reenteringAt(r.Pos, i)
	r.Destroyed = true // so the View sees it as re-entering
	f := t.decider(i).ReentryFacing(t.view(i))
	r.Destroyed = false
	if f > West {
		f = North
	}
	r.Facing = f
	e := t.event(EvReenter, r.Name)
	e.To, e.Facing, e.Amount = t.pos(r.Pos), t.dir(f), r.Damage
	t.bioSwap(i, "bio-option") // seed 001, Bio Option: an archive copy draws anew (variants.go)
}
