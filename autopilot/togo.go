package autopilot

import (
	"slices"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// The cost to go (2023 rules): what it costs a robot standing on a square, facing one
// way, to end a register on a checkpoint, counting what the floor does for it. The path
// distance of guide.go walks: it does not know that a blue belt carries a robot 2
// squares a register while it plays a card it does not need, that a gear turns it for
// nothing, nor that a path turning twice costs two turns. The table is a shortest path
// over (square, facing) whose steps are one register each: one card played on an empty
// floor (Move 1, 2, 3, Back Up, a quarter turn either way, a U-turn, or a register spent
// waiting), then the board elements of the register in the ruleset's order (blue belts
// twice, green belts, gears; push panels, which act only in some registers, are left
// out). A robot ending a register on the checkpoint is there; one carried into a pit or
// off the floor is not a path. A step costs, in the units of score.go, registerValue
// and what the evaluation charges for the card: a square moved by the robot's own card
// stepValue, a quarter turn turn2023Value, a register spent waiting waitValue; what the
// floor does is free. It is computed once per setup (NewGuide; a Dijkstra over the
// 4 facings of every square, 1 ms for the docking run), for the 2023 rules only, and
// pure: the same course gives the same table.
//
// Without registerValue (squares and turns only) three Back Ups cost what a Move 3
// does, and the autopilot ended rounds facing away from its way: 63 wins in 100 against
// the greedy player on the test's seeds, from 80 (docs/rules-2023.md).

const (
	// registerValue is what any register costs on top of what its card does: the race
	// goes to the first robot there, so three Back Ups cost more than a Move 3, and a
	// Move 3 more than a Move 1 by less than two squares.
	registerValue = 100
	// waitValue is a register spent standing (on a belt that carries the robot, or a
	// gear that turns it), besides registerValue: as much as a square walked.
	waitValue = stepValue
	// togoUnreachable is the cost of a state from which no sequence of cards ends a
	// register on the checkpoint.
	togoUnreachable = Unreachable * stepValue
)

// togoAction is one register's card in the cost table.
type togoAction struct {
	move int // squares forward (negative: back)
	turn int // quarter turns to the right (3: to the left)
	cost int32
}

var togoActions = [...]togoAction{
	{move: 1, cost: registerValue + stepValue},
	{move: 2, cost: registerValue + 2*stepValue},
	{move: 3, cost: registerValue + 3*stepValue},
	{move: -1, cost: registerValue + stepValue},
	{turn: 1, cost: registerValue + turn2023Value},
	{turn: 3, cost: registerValue + turn2023Value},
	{turn: 2, cost: registerValue + 2*turn2023Value},
	{cost: registerValue + waitValue},
}

// togoFloor is the empty floor as the table moves a robot on it.
type togoFloor struct {
	b         *adjudicator.Board
	elements  []string
	edgeWalls bool
	bare      []bool // board elements inactive (a 2023 checkpoint covers its square)
}

func (f *togoFloor) blocked(p adjudicator.Pos, d adjudicator.Dir) bool {
	return f.b.Blocked(p, d) || (f.edgeWalls && !f.b.In(p.Step(d)))
}

// belt moves a robot at p facing dir one square along the belt under it when the
// belt is of kind (any kind for adjudicator.NoBelt): the new square and facing, and
// whether it still stands on the floor.
func (f *togoFloor) belt(p adjudicator.Pos, facing adjudicator.Dir, kind adjudicator.BeltKind) (adjudicator.Pos, adjudicator.Dir, bool) {
	if f.bare[p.Y*f.b.W+p.X] {
		return p, facing, true
	}
	bt := f.b.At(p).Belt
	if bt.Kind == adjudicator.NoBelt || (kind != adjudicator.NoBelt && bt.Kind != kind) || f.blocked(p, bt.Dir) {
		return p, facing, true
	}
	q := p.Step(bt.Dir)
	if f.b.Deadly(q) {
		return q, facing, false
	}
	if nb := f.b.At(q).Belt; nb.Kind != adjudicator.NoBelt && nb.TurnFrom.Has(bt.Dir.Back()) {
		switch nb.Dir {
		case bt.Dir.Right():
			facing = facing.Right()
		case bt.Dir.Left():
			facing = facing.Left()
		}
	}
	return q, facing, true
}

// next is where a robot at p facing dir stands after a register playing a: the
// square, facing, and whether it is still on the floor.
func (f *togoFloor) next(p adjudicator.Pos, facing adjudicator.Dir, a togoAction) (adjudicator.Pos, adjudicator.Dir, bool) {
	facing = facing.Rotate(a.turn)
	d, n := facing, a.move
	if n < 0 {
		d, n = facing.Back(), -n
	}
	for range n {
		if f.blocked(p, d) {
			break
		}
		p = p.Step(d)
		if f.b.Deadly(p) {
			return p, facing, false
		}
	}
	ok := true
	for _, e := range f.elements {
		switch e {
		case "blue", "express":
			for range 2 {
				if p, facing, ok = f.belt(p, facing, adjudicator.BeltExpress); !ok {
					return p, facing, false
				}
				if e == "express" {
					break
				}
			}
		case "green":
			p, facing, ok = f.belt(p, facing, adjudicator.BeltNormal)
		case "belts":
			p, facing, ok = f.belt(p, facing, adjudicator.NoBelt)
		case "gears":
			if g := f.b.At(p).Gear; g != adjudicator.NoRotation && !f.bare[p.Y*f.b.W+p.X] {
				facing = facing.Rotate(int(g))
			}
		}
		if !ok {
			return p, facing, false
		}
	}
	return p, facing, true
}

// togoMoves is where each card leads from each state on the floor f, the same for
// every checkpoint: moves[i*len(togoActions)+k] is the state (square*4+facing) after
// card k from state i, -1 when the robot leaves the floor.
func togoMoves(f *togoFloor) []int32 {
	b := f.b
	n := len(b.Squares) * 4
	moves := make([]int32, n*len(togoActions))
	for i := range n {
		p := adjudicator.Pos{X: (i / 4) % b.W, Y: (i / 4) / b.W}
		for k, a := range togoActions {
			moves[i*len(togoActions)+k] = -1
			if b.Deadly(p) {
				continue
			}
			if to, fq, ok := f.next(p, adjudicator.Dir(i%4), a); ok {
				moves[i*len(togoActions)+k] = int32((to.Y*b.W+to.X)*4 + int(fq))
			}
		}
	}
	return moves
}

// togoTable is the cost to go to one checkpoint from every (square, facing), given
// the floor's moves (togoMoves): cost[(y*W+x)*4+facing].
func togoTable(b *adjudicator.Board, moves []int32, target adjudicator.Pos) []int32 {
	n := len(b.Squares) * 4
	cost := make([]int32, n)
	for i := range cost {
		cost[i] = togoUnreachable
	}
	if b.Deadly(target) {
		return cost
	}
	// Every state's predecessors: the states from which a card leads to it in one
	// register, and what the card costs, in one array (from[start[s]:start[s+1]] lead
	// to s). A card ending the register on the checkpoint is a path of its own.
	t := int32(target.Y*b.W + target.X)
	start := make([]int32, n+1)
	for i := range n {
		for k, a := range togoActions {
			switch s := moves[i*len(togoActions)+k]; {
			case s < 0 || int32(i/4) == t:
			case s/4 == t:
				cost[i] = min(cost[i], a.cost)
			default:
				start[s+1]++
			}
		}
	}
	for s := range n {
		start[s+1] += start[s]
	}
	from := make([]int32, start[n])
	via := make([]int32, start[n])
	fill := slices.Clone(start[:n])
	for i := range n {
		for k, a := range togoActions {
			if s := moves[i*len(togoActions)+k]; s >= 0 && int32(i/4) != t && s/4 != t {
				from[fill[s]], via[fill[s]] = int32(i), a.cost
				fill[s]++
			}
		}
	}
	for d := range 4 {
		cost[int(t)*4+d] = 0
	}
	// Dijkstra: the cheapest state first (ties to the lower index, so the same every
	// time, although the costs found do not depend on it).
	var q togoQueue
	for i := range n {
		if cost[i] < togoUnreachable {
			q.push(togoItem{cost[i], int32(i)})
		}
	}
	for len(q) > 0 {
		it := q.pop()
		if it.cost > cost[it.state] {
			continue
		}
		for e := start[it.state]; e < start[it.state+1]; e++ {
			if c := it.cost + via[e]; c < cost[from[e]] {
				cost[from[e]] = c
				q.push(togoItem{c, from[e]})
			}
		}
	}
	return cost
}

type togoItem struct{ cost, state int32 }

// togoQueue is a binary heap of states, the cheapest first, ties to the lower state.
type togoQueue []togoItem

func (q togoQueue) less(i, j int) bool {
	return q[i].cost < q[j].cost || (q[i].cost == q[j].cost && q[i].state < q[j].state)
}

func (q *togoQueue) push(it togoItem) {
	*q = append(*q, it)
	h := *q
	for i := len(h) - 1; i > 0; {
		up := (i - 1) / 2
		if !h.less(i, up) {
			break
		}
		h[i], h[up] = h[up], h[i]
		i = up
	}
}

func (q *togoQueue) pop() togoItem {
	h := *q
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < len(h) && h.less(l, m) {
			m = l
		}
		if r := l + 1; r < len(h) && h.less(r, m) {
			m = r
		}
		if m == i {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	*q = h
	return top
}

// newTogo is the cost tables of setup s, one a checkpoint, and the floor's moves they
// were computed from (togoMoves); nil unless the 2023 rules.
func newTogo(s *adjudicator.Setup) ([][]int32, []int32) {
	if !s.Rules.Own() {
		return nil, nil
	}
	b := s.Course.Board
	f := &togoFloor{b: b, elements: s.Rules.Elements, edgeWalls: s.Rules.EdgeWalls, bare: make([]bool, len(b.Squares))}
	if s.Rules.CheckpointCovers {
		for _, fl := range s.Course.Flags {
			if b.In(fl) {
				f.bare[fl.Y*b.W+fl.X] = true
			}
		}
	}
	moves := togoMoves(f)
	var out [][]int32
	for _, fl := range s.Course.Flags {
		out = append(out, togoTable(b, moves, fl))
	}
	return out, moves
}

// ToGo is the cost to go (in the units of score.go) from p facing f to checkpoint n
// (1-based) under the 2023 rules: 0 once every checkpoint is reached, togoUnreachable
// off the floor or where no cards lead there. Under other rules it is the path distance
// and the quarter turns the evaluation counts (Dist, Turns).
func (g *Guide) ToGo(n int, p adjudicator.Pos, f adjudicator.Dir) int {
	if n > len(g.flags) {
		return 0
	}
	if g.togo == nil {
		return g.Dist(n, p)*stepValue + g.Turns(n, p, f)*turn2023Value
	}
	if n < 1 || !g.board.In(p) {
		return togoUnreachable
	}
	return int(g.togo[n-1][(p.Y*g.board.W+p.X)*4+int(f)])
}

// BestToGo is ToGo for the best facing at p: what a robot re-entering there, which
// chooses its facing (ruling R-REBOOT-FACING), has to go.
func (g *Guide) BestToGo(n int, p adjudicator.Pos) int {
	best := g.ToGo(n, p, adjudicator.North)
	for f := adjudicator.East; f <= adjudicator.West; f++ {
		best = min(best, g.ToGo(n, p, f))
	}
	return best
}

// Race is the cost to go of the rest of the race from p facing f with checkpoint n
// next: to it (ToGo), then from each checkpoint to the next, leaving each facing the
// best way.
func (g *Guide) Race(n int, p adjudicator.Pos, f adjudicator.Dir) int {
	return g.ToGo(n, p, f) + g.legs(n)
}

// RaceBest is Race facing the best way at p: a robot re-entering there.
func (g *Guide) RaceBest(n int, p adjudicator.Pos) int {
	return g.BestToGo(n, p) + g.legs(n)
}

// legs is the cost to go from checkpoint n to the last, checkpoint by checkpoint.
func (g *Guide) legs(n int) int {
	c := 0
	for j := n; j < len(g.flags); j++ {
		c += g.BestToGo(j+1, g.flags[j-1])
	}
	return c
}
