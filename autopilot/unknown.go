package autopilot

import (
	"slices"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// A card the forecast cannot know (2023 rules). A SPAM revealed in a register, and an
// Again in register 1, are replaced by the top card of the robot's own deck (seed 004,
// SPAM Cards and the Again Card Special Rule; ruling R-AGAIN-FIRST), and the order of
// that deck is hidden from its player (R-FORECAST-HIDDEN): the engine's forecast plays
// nothing in its place. The search took that for a register spent standing still, and
// built plans on it: a SPAM in register 4 to wait for the belt before a Back Up onto the
// last checkpoint, a "win" that the card drawn in its place walked off (head-to-head
// game 5041 on the docking run). Which cards the deck holds is not hidden, only their
// order: so each program of the search's best holding such a card is valued as the
// average over the deck's cards of the program with that card in the register (an Again
// after it repeats it, as the engine plays it), each card weighed by its copies. Only
// the first such register is weighed; later ones still play nothing. A program that
// wins only with some of the cards is no sure win: it is played against the rival too.

// unknownRegister is the first register (1-5) of prog whose card is replaced by one
// from the deck, 0 for none.
func unknownRegister(prog [adjudicator.Registers]int) int {
	for i, c := range prog {
		k := adjudicator.CardKind(c)
		if c != 0 && (k == adjudicator.CardSpam || (k == adjudicator.CardAgain && i == 0)) {
			return i + 1
		}
	}
	return 0
}

// weighUnknown values each program of cands (the search's best, forecasts of the state
// after, as the search ran them) that holds a card replaced from the deck by the average
// over the deck's cards, and sorts cands again, best first; it reports whether it
// weighed any.
func (p *Pilot) weighUnknown(after *adjudicator.State, robot int, cands []ranked) bool {
	if !slices.ContainsFunc(cands, func(c ranked) bool { return unknownRegister(c.prog) > 0 }) {
		return false
	}
	r := &after.Robots[robot]
	pile := r.Mat.Deck
	if len(pile) == 0 {
		pile = r.Mat.Discard // shuffled into a new deck first (owndeck.go)
	}
	// The kinds the deck holds, with their copies, in the order of kinds.
	var kinds, copies [adjudicator.CardSpam + 1]int
	n := 0
	for _, c := range pile {
		if k := adjudicator.CardKind(c); k < adjudicator.CardSpam && k != 0 {
			if copies[k] == 0 {
				kinds[n] = int(k)
				n++
			}
			copies[k]++
		}
	}
	if n == 0 {
		return false // no card to draw: the register plays nothing (R-REPLACE-EMPTY)
	}
	slices.Sort(kinds[:n])
	// The forecasts run on the state after with one card of each kind added to the hand,
	// so that a program holding the card drawn is one the hand allows.
	base := *after
	base.Robots = slices.Clone(after.Robots)
	b := &base.Robots[robot]
	b.Hand = append(slices.Clone(b.Hand), kinds[:n]...)
	sim := adjudicator.NewSimulator(p.setup, &base)
	before := &after.Robots[robot]
	d := &planDecider{hasFacing: before.Destroyed}
	for i := range cands {
		c := &cands[i]
		u := unknownRegister(c.prog)
		if u == 0 {
			continue
		}
		d.facing = c.facing
		total, weight, wins := 0, 0, 0
		for _, k := range kinds[:n] {
			if k == int(adjudicator.CardAgain) && u == 1 {
				continue // replaced in turn
			}
			prog := c.prog
			prog[u-1] = k
			end, err := sim.Forecast(robot, prog, d)
			if err != nil {
				continue
			}
			o := p.value2023On(sim, before, end)
			total += copies[k] * o.Score
			weight += copies[k]
			if o.Won {
				wins += copies[k]
			}
		}
		if weight == 0 {
			continue
		}
		c.o.Score = total / weight
		c.o.Won = c.o.Won && wins == weight
		c.key = c.o.Score
	}
	slices.SortStableFunc(cands, func(a, b ranked) int {
		switch {
		case a.key != b.key:
			return b.key - a.key
		case less(a.prog, b.prog):
			return -1
		case less(b.prog, a.prog):
			return 1
		}
		return 0
	})
	return true
}
