package adjudicator

import "slices"

// Phase-programmed options (seed 001, Option Card Overview: Phase-Programmed Options,
// Programming, Destruction, Types of Phase-Programmed Options, Primary Card). How a card
// uses this machinery: the comment at the top of effects.go.
//
//   - Programming: a phase-programmed option is programmed with the program, for one
//     register (seed 001: "programmed by indicating the phase in which an option will take
//     effect"). By mail that is an order naming the register: "use Crab Legs in register 3
//     P490". The engine asks each robot's orders when the programs are loaded, register by
//     register, so a condition on such an order is judged then, as the program is laid.
//     An order that names no register programs nothing (check refuses it).
//   - Types: at most one Phase Programmed—Gadget and one Phase Programmed—Movement option
//     a register; a gadget and a movement option may share one. A second option of a type
//     in a register is refused (event "void", cause one-per-register); the first in the
//     robot's option order is kept. A card may be programmed in several registers.
//   - Timing: gadgets act before the robots move ("the bridge is laid before the program
//     card for that phase is executed"), after the cards are revealed; movement options
//     act during robot movement at the priority of the register's primary card. Ruling:
//     Self-Destruct, neither gadget nor movement, acts at the very start of its register
//     ("destroyed at the beginning of the register phase").
//   - Illegal programs: when a program cannot be carried out as it comes up, the tokens
//     or counters it spent are kept (given back to the card if the robot still holds it)
//     and every card of the register but the primary card is discarded: the primary card
//     is played alone, at its priority. Seed 001's example: Crab Legs on a teleporter.
//     Rulings: a program is illegal too when its robot stands inside an Option Damping
//     Field (seed 001, Option Damping Field: such options "cannot be used"), when its
//     register's primary card was replaced since it was laid (Emergency Switch,
//     Conditional Command, Randomizer, a randomizer square: the new card is played alone),
//     and when the robot plays another robot's program (Remote Control: it executes only
//     the controller's primary cards).
//   - Destruction: a program survives its card: if the option is destroyed during the turn
//     (shot away by Target Control, discarded to prevent damage), what was programmed
//     still happens ("the program for the current turn remains in effect").
//   - Primary card (seed 001, Primary Card): of two cards in a register the movement card
//     is the primary card; of two movement cards (or, ruling, two turning cards) the order
//     chooses ("primary P490"), else the first of them played. A register left
//     unprogrammed (Overload Override) still holds a card from the hand as its primary
//     card, which is not played. The primary card is what the register holds
//     (Robot.Registers): it is what a register locked by damage keeps for the next turn
//     (seed 001's example: the Move 2 "locked in" register 5) and what Remote Control
//     makes its target play. The other card is discarded at the end of the turn.
//   - Ruling: a locked register cannot take a phase program that places cards: it keeps
//     its card and runs it again.

// PhaseProgram is one phase-programmed option programmed in one register for this turn.
type PhaseProgram struct {
	Option   string
	Kind     PhaseKind
	Register int
	Answer   Answer // the order's parameters (answer.go)
	// For card placers (CardPlacer): the register's cards in the order they are played,
	// its primary card, and whether the register is left unprogrammed (Cards then holds
	// the primary card alone, which is not played).
	Cards   []int
	Primary int
	Empty   bool
	// Spent is what Program took from the card's payload (Robot.Tokens); an illegal
	// program gives it back.
	Spent int

	robot  int
	effect Phased
	done   bool
}

// programPhases asks robot i's orders for its phase-programmed options, register by
// register, and keeps the legal programs for the turn.
func (t *turn) programPhases(i int) {
	r := &t.st.Robots[i]
	if !r.Active() || r.Power == PowerDown || !t.acts(i) {
		return
	}
	fx := t.fxOf(i)
	var kinds [Registers]uint8
	// Asked in the robot's option order (oldest card first), not the effect list's: of
	// two gadgets (or two movement options) in one register the card held first is kept,
	// as docs/options.md promises (scenario 925: Mine Layer held before Bridge Layer).
	fx = slices.Clone(fx)
	slices.SortStableFunc(fx, func(a, b Effect) int {
		return heldIndex(r.Options, a.Option()) - heldIndex(r.Options, b.Option())
	})
	for _, e := range fx {
		ph, ok := e.(Phased)
		if !ok {
			continue
		}
		_, placer := e.(CardPlacer)
		for reg := 1; reg <= Registers; reg++ {
			// The question is asked as of its register, so that "in register N" orders
			// answer it; the events are the turn's start's (register 0, Amount the
			// register), before any register is played.
			t.register = reg
			a := t.ask(i, e.Option(), "program it in this register (with its cards, if it takes any)?")
			t.register = 0
			if !a.Use() || a.Register != reg {
				continue
			}
			p := PhaseProgram{Option: e.Option(), Kind: ph.Phase(), Register: reg, Answer: a, robot: i, effect: ph}
			why := ""
			switch {
			case p.Kind != PhaseOther && kinds[reg-1]&(1<<p.Kind) != 0:
				why = "one-per-register"
			case placer:
				why = t.placeCards(i, &p)
			}
			if why == "" && !ph.Program(t.view(i), &p) {
				why = "not-allowed"
			}
			if why != "" {
				t.emit(Event{Kind: EvVoid, Robot: r.Name, Option: p.Option, Amount: reg, Cause: why})
				continue
			}
			if p.Kind != PhaseOther {
				kinds[reg-1] |= 1 << p.Kind
			}
			extra := 0
			if placer {
				r.Registers[reg-1] = p.Primary
				for _, c := range p.Cards {
					if c != p.Primary {
						extra = c
					}
				}
			}
			t.armed.progs = append(t.armed.progs, p)
			t.emit(Event{Kind: EvProgrammed, Robot: r.Name, Option: p.Option, Amount: reg, Card: extra})
		}
	}
}

// placeCards reads a card placer's cards from its order (card=, card2=, primary=,
// mode=empty) and checks them: the register is not locked and holds its program card;
// the second card is from the hand, not programmed, not on a Flywheel, not placed by
// another program. It fills p.Cards and p.Primary, or says why it cannot.
func (t *turn) placeCards(i int, p *PhaseProgram) string {
	r := &t.st.Robots[i]
	reg, a := p.Register, p.Answer
	if r.IsLocked(reg) {
		return "locked"
	}
	c0 := r.Registers[reg-1]
	if c0 == 0 {
		return "no-card"
	}
	if a.Mode == "empty" {
		if (a.Card != 0 && a.Card != c0) || a.Card2 != 0 {
			return "empty-with-cards"
		}
		p.Cards, p.Primary, p.Empty = []int{c0}, c0, true
		return ""
	}
	var cards []int
	switch {
	case a.Card != 0 && a.Card2 != 0:
		if a.Card != c0 && a.Card2 != c0 {
			return "not-in-register"
		}
		cards = []int{a.Card, a.Card2}
	case a.Card != 0:
		cards = []int{c0, a.Card}
	default:
		return "no-second-card"
	}
	extra := cards[0]
	if extra == c0 {
		extra = cards[1]
	}
	if extra == c0 {
		return "same-card"
	}
	if !slices.Contains(t.cards.hand[i], extra) || slices.Contains(r.Registers[:], extra) || r.Flywheel == extra {
		return "not-in-hand"
	}
	if t.cardPlaced(i, extra) {
		return "card-used-twice"
	}
	p.Cards = cards
	p.Primary = t.primaryOf(cards, a.Primary)
	return ""
}

// primaryOf is the primary card of a register holding cards (seed 001, Primary Card): the
// movement card; of two movement cards (or two turns) the one chosen, else the first.
func (t *turn) primaryOf(cards []int, chosen int) int {
	moves := 0
	move := 0
	for _, c := range cards {
		if t.setup.Deck.Kind(c).Steps() != 0 {
			moves++
			move = c
		}
	}
	if moves == 1 {
		return move
	}
	if slices.Contains(cards, chosen) {
		return chosen
	}
	return cards[0]
}

// phaseFor is robot i's program of that kind in this register not yet carried out, or nil.
func (t *turn) phaseFor(i int, kind PhaseKind) *PhaseProgram {
	for k := range t.armed.progs {
		p := &t.armed.progs[k]
		if p.robot == i && p.Register == t.register && p.Kind == kind && !p.done {
			return p
		}
	}
	return nil
}

// runPhases carries out this register's programs of one kind (PhaseOther at the start of
// the register, PhaseGadget before the robots move), robots in seating order.
func (t *turn) runPhases(kind PhaseKind) {
	for k := 0; k < len(t.armed.progs); k++ {
		p := &t.armed.progs[k]
		if p.Register != t.register || p.Kind != kind || p.done {
			continue
		}
		p.done = true
		i := p.robot
		if !t.st.Robots[i].Active() {
			t.voidPhase(p, "destroyed")
			continue
		}
		if t.damped(i) {
			t.voidPhase(p, "damping-field")
			continue
		}
		if !p.effect.Run(t.view(i), p) {
			t.voidPhase(p, "illegal")
		}
	}
}

// playPhased plays robot i's movement program of this register, if it has one, in place
// of its card; card is the card the robot plays. It reports whether it did; when it did
// not (none, or the program turned illegal) the card is played as usual.
func (t *turn) playPhased(i, card int) bool {
	p := t.phaseFor(i, PhaseMovement)
	if p == nil {
		return false
	}
	p.done = true
	_, placer := p.effect.(CardPlacer)
	switch {
	case t.cards.remote[i] > 0:
		t.voidPhase(p, "remote-control")
		return false
	case placer && card != p.Primary:
		t.voidPhase(p, "card-replaced")
		return false
	case t.damped(i):
		t.voidPhase(p, "damping-field")
		return false
	case placer && !p.Empty && t.setup.fx&fxTeleporter != 0 && t.onTeleporter(i):
		// seed 001, Teleporters: options that change movement cards "cannot be used";
		// seed 001, Programming: Crab Legs on a teleporter plays its primary card alone.
		t.voidPhase(p, "teleporter")
		return false
	}
	if !p.effect.Run(t.view(i), p) {
		t.voidPhase(p, "illegal")
		return false
	}
	return true
}

// voidPhase gives an illegal program's spent payload back to its card (if still held)
// and logs it (seed 001, Programming: "keep any counters or tokens used in the program").
// Inside an Option Damping Field nothing is given back (seed 001, Option Damping Field:
// "discard any counters or tokens that were programmed for that phase").
func (t *turn) voidPhase(p *PhaseProgram, why string) {
	i := p.robot
	if p.Spent > 0 && why != "damping-field" && t.holds(i, p.Option) {
		t.setToken(i, p.Option, max(0, t.token(i, p.Option)-p.Spent))
	}
	t.emit(Event{Kind: EvVoid, Robot: t.st.Robots[i].Name, Option: p.Option, Amount: p.Register, Cause: why})
}

// PhaseCard reports whether the named option card is phase programmed (seed 001), its
// type, and whether it places program cards in its register (CardPlacer): what an order
// sheet's check needs to know.
func PhaseCard(name string) (kind PhaseKind, placer, ok bool) {
	e := effectFor(name)
	ph, ok := e.(Phased)
	if !ok {
		return 0, false, false
	}
	_, placer = e.(CardPlacer)
	return ph.Phase(), placer, true
}

// PhaseCardsLegal reports whether a card placer (PhaseCard) may be programmed with these
// cards in one register, in the order played (empty: the register left unprogrammed), as
// the engine would judge it when the program is laid.
func (s *Setup) PhaseCardsLegal(name string, cards []int, empty bool) bool {
	e := effectFor(name)
	ph, ok := e.(Phased)
	if _, placer := e.(CardPlacer); !ok || !placer {
		return false
	}
	t := &turn{setup: s, single: -1, quiet: true}
	p := PhaseProgram{Option: name, Kind: ph.Phase(), Cards: cards, Empty: empty}
	if len(cards) > 0 {
		p.Primary = t.primaryOf(cards, 0)
	}
	return ph.Program(t.view(0), &p)
}

// cardPlaced reports whether card c of robot i's hand is placed in a register by one of
// its phase programs this turn (so a Flywheel or a Conditional Command cannot take it
// too: a card is in play once).
func (t *turn) cardPlaced(i, c int) bool {
	for k := range t.armed.progs {
		q := &t.armed.progs[k]
		if q.robot == i && slices.Contains(q.Cards, c) {
			return true
		}
	}
	return false
}

// heldIndex is where robot's options hold the card named name (oldest first), or
// len(opts) when it holds none (a card granted some other way comes last).
func heldIndex(opts []string, name string) int {
	if k := slices.Index(opts, name); k >= 0 {
		return k
	}
	return len(opts)
}
