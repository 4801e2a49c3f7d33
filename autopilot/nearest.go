package autopilot

import (
	"slices"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// The rival's likely program (2023 rules; rival.go): the one a player programming by
// hand most often chooses, ending nearest its next checkpoint. The round against the
// rival imagines it for each of the rival's imagined hands, and it is found on the
// empty floor of the cost table (togo.go: togoMoves, the cards walked with the belts
// and gears after each; no robots, lasers or push panels) instead of by the engine's
// forecasts: a few hundred table look-ups a hand instead of some 2,000 forecasts, so
// ten hands cost less than one did. Head to head with the greedy player on the docking
// run (TestAutopilotBeatsGreedy; the test's seeds, then 200 games from seeds 5000 and
// 7000): 88, 160 and 165 wins, from 84, 156 and 166 with three hands each programmed
// by the autopilot's own search; half the CPU time a choice at round 1
// (BenchmarkChoose2023; docs/rules-2023.md, "The rival programs by hand").

// floorAction is the togoActions index of what a card of kind k does on the empty
// floor; floorWait for a card that moves nothing a player can foresee (Power Up, a
// damage card: a SPAM's replacement is not known), floorAgain for Again.
func floorAction(k adjudicator.CardKind) int {
	var a togoAction
	switch k {
	case adjudicator.CardMove1:
		a.move = 1
	case adjudicator.CardMove2:
		a.move = 2
	case adjudicator.CardMove3:
		a.move = 3
	case adjudicator.CardBackUp:
		a.move = -1
	case adjudicator.CardRight:
		a.turn = 1
	case adjudicator.CardLeft:
		a.turn = 3
	case adjudicator.CardUTurn:
		a.turn = 2
	case adjudicator.CardAgain:
		return floorAgain
	default:
		return floorWait
	}
	for i, t := range togoActions {
		if t.move == a.move && t.turn == a.turn {
			return i
		}
	}
	return floorWait
}

const (
	floorWait  = len(togoActions) - 1 // togoActions' last: a register spent waiting
	floorAgain = len(togoActions)
)

// walkable reports whether nearestProgram can tell robot r's program: under the 2023
// rules, on the floor, neither rebooting nor holding a face-down Haywire card, the race
// not over.
func (p *Pilot) walkable(r *adjudicator.Robot) bool {
	g := p.guide
	return g.moves != nil && !r.Destroyed && r.Mat != nil && g.board.In(r.Pos) && r.Flags < len(g.flags) &&
		!slices.ContainsFunc(r.Mat.Haywire[:], func(c int) bool { return c != 0 })
}

// nearestProgram is the program ending nearest its next checkpoint for robot r holding
// hand, walked on the empty floor of the cost table: more checkpoints reached first
// (the last one wins), then fewer squares to the next as the crow flies, a program
// leaving the floor last; the first such program in the order of the card kinds wins a
// tie. ok is false where the table cannot tell (walkable), or for a hand too small.
func (p *Pilot) nearestProgram(r *adjudicator.Robot, hand []int) (prog [adjudicator.Registers]int, ok bool) {
	g := p.guide
	if !p.walkable(r) || len(hand) < adjudicator.Registers {
		return prog, false
	}
	// The hand by kind, the kinds in their order.
	var kinds []adjudicator.CardKind
	var counts []int
	for _, c := range hand {
		k := adjudicator.CardKind(c)
		if i := slices.Index(kinds, k); i >= 0 {
			counts[i]++
		} else {
			kinds = append(kinds, k)
			counts = append(counts, 1)
		}
	}
	order := make([]int, len(kinds))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return int(kinds[a]) - int(kinds[b]) })
	acts := make([]int, len(kinds)) // what each kind does on the floor (floorAction)
	for i, k := range kinds {
		acts[i] = floorAction(k)
	}
	w := g.board.W
	score := func(state int32, flags int, off bool) int {
		switch {
		case off:
			return -1 << 30
		case flags >= len(g.flags):
			return 1 << 30
		}
		f := g.flags[flags]
		x, y := int(state/4)%w, int(state/4)/w
		return flags*10_000 - abs(x-f.X) - abs(y-f.Y)
	}
	// bestSeq is the kinds (indexes into kinds) of the best program's registers, -1
	// after the register that decides it (leaving the floor, the last checkpoint).
	var seq, bestSeq [adjudicator.Registers]int
	best, found := 0, false
	var walk func(reg int, state int32, flags, prev int, off bool)
	walk = func(reg int, state int32, flags, prev int, off bool) {
		if reg == adjudicator.Registers || off || flags >= len(g.flags) {
			if sc := score(state, flags, off); !found || sc > best {
				best, found, bestSeq = sc, true, seq
				for k := reg; k < adjudicator.Registers; k++ {
					bestSeq[k] = -1
				}
			}
			return
		}
		for _, i := range order {
			if counts[i] == 0 {
				continue
			}
			a := acts[i]
			if a == floorAgain {
				a = prev // the register before once more; in register 1 unknown
				if a < 0 {
					a = floorWait
				}
			}
			counts[i]--
			seq[reg] = i
			if to := g.moves[int(state)*len(togoActions)+a]; to < 0 {
				walk(reg+1, state, flags, a, true)
			} else {
				fl := flags
				if f := g.flags[fl]; int(to/4) == f.Y*w+f.X {
					fl++
				}
				walk(reg+1, to, fl, a, false)
			}
			counts[i]++
		}
	}
	walk(0, int32((r.Pos.Y*w+r.Pos.X)*4+int(r.Facing)), r.Flags, -1, false)
	// The cards of the kinds chosen; registers after the one deciding the race take the
	// hand's other cards in the order of kinds.
	used := make([]bool, len(hand))
	take := func(k adjudicator.CardKind) int {
		for j, c := range hand {
			if !used[j] && adjudicator.CardKind(c) == k {
				used[j] = true
				return c
			}
		}
		return 0
	}
	for reg, i := range bestSeq {
		if i >= 0 {
			prog[reg] = take(kinds[i])
		}
	}
	for reg := range prog {
		for _, i := range order {
			if prog[reg] != 0 {
				break
			}
			prog[reg] = take(kinds[i])
		}
	}
	return prog, true
}
