package autopilot

import (
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// The round against a rival's likely program (2023 rules). The program search
// (choose.go) forecasts the robot alone, the other robots standing still; in a short
// race two robots heading for the same checkpoint meet on the way, and the one moving
// later in a register pushes the other off its path or off the checkpoint. So the
// search's rivalTop best programs are played once more against what the nearest robot
// within rivalReach would likely program:
//
//   - its hand is hidden (ruling R-FORECAST-HIDDEN), but which cards it holds between
//     hand and draw pile is not (its 20 cards, the damage cards it took, less its face-up
//     discard pile): rivalHands hands are drawn from those cards by a generator seeded
//     by the position, so the same game gives the same hands, and nothing of the deck's
//     order is read (the cards are taken sorted);
//   - for each hand its program is the one a player programming by hand most often
//     chooses: the program ending nearest its next checkpoint, the robot standing still
//     as the rival's own forecast sees it, found on the empty floor of the cost table
//     (nearest.go, nearestProgram; cheap, so rivalHands is 10). Where the table cannot
//     tell (a rival rebooting, or holding a face-down Haywire card) rivalSearched hands
//     are imagined, each programmed as this autopilot would program it (the program
//     search alone), searches that need nothing of the robot's and run while it
//     searches its own programs;
//   - each of the robot's programs is played with the rival's through the engine
//     (adjudicator.Resolver, the five registers of the blind game, Setup.Blind), the
//     robots further away shut down (standing still, as the search saw them), the
//     draw piles (a SPAM's replacement comes from them) shuffled for each round. It is
//     valued as the search values a forecast, less rivalWeight percent of the rival's
//     value by the same measure: in a race, what a rival loses the robot gains, and
//     the robot behind is more often the one to win by blocking. A rival winning in
//     that round costs the race. The best total over the hands wins, ties to the
//     search's order.
//
// The candidates are the search's best programs ending apart (keepApart): of programs
// ending on one square, facing one way, with the same checkpoints, only the best. Cards
// of a kind and turns in either order reach the same square many ways, and the 24 best
// programs alone were often a handful of ends in different orders: the round against the
// rival chose where to stand among three or four squares, all of them in the rival's
// way (the greedy robot leaving checkpoint 1 along row 3 pushes the autopilot coming the
// other way). Measured on the docking run (TestAutopilotBeatsGreedy; seeds 5000 to 5199
// and 7000 to 7199, 200 games each; the test's seeds 2400 to 2499, 100 games): 157 and
// 156 wins, from 147 and 144; on the test's seeds 80, from 84.
//
// Measured against the one-turn greedy player (TestAutopilotBeatsGreedy, docking-run,
// 100 games; in brackets 200 other seeds, 5000 to 5199): 71 wins without it (131); with
// 3 hands and the rival's value weighed 250 %, 82 (143); with the piles shuffled for
// each imagined round, 84 (147). Measured once each: 2 hands 77, 4 hands 82, 5 hands 79,
// 64 programs 78, weight 500 75; in 40 games, the weight 0: 26, 100: 30, 250: 32, 1000:
// 32; the rival's hand known (not allowed: a measure of what better guesses could gain):
// 81. The figures move by about 4 from one set of seeds to another.
const (
	rivalTop = 24 // the search's best programs played against the rival
	// rivalHands is the hands imagined for the rival, each programmed on the table's
	// floor (nearestProgram); rivalSearched where the table cannot tell and each hand's
	// program is searched through the engine's forecasts.
	rivalHands    = 10
	rivalSearched = 3
	// rivalWeight is the rival's value taken from the robot's, in percent. It was 250
	// while a checkpoint was worth 10,000 (100 squares): since a forecast is valued by
	// the cost to go of the whole race (togo.go), a rival kept off its checkpoint for a
	// round weighs what that costs it, and 150 does better than 250 (docs/rules-2023.md).
	rivalWeight = 150
	// rivalReach is the distance (squares, as the crow flies) within which a rival can
	// meet the robot in a round: both move up to 5 registers of 1 to 3 squares, belts
	// carry them further.
	rivalReach = 12
	// lostRace is what a round in which the rival wins the race costs.
	lostRace = winValue / 2
)

// rivalRound is one imagined round: the blind game with the rival's hand set, and the
// orders of every robot but the one choosing (the rival's program; shutdown for the
// others).
type rivalRound struct {
	st     *adjudicator.State
	orders []adjudicator.Orders
	rival  int
}

// rivalGame is the imagined rounds of one choice.
type rivalGame struct {
	setup  *adjudicator.Setup
	rounds []rivalRound
}

// nearestRival is the robot nearest robot (as the crow flies, ties to the lower seat)
// within rivalReach that plays a program this round, -1 for none. A rebooting robot is
// measured from where it re-enters.
func nearestRival(st *adjudicator.State, robot int) int {
	me := &st.Robots[robot]
	pos := me.Pos
	if me.Destroyed {
		pos = me.Archive
	}
	best, bestD := -1, rivalReach+1
	for j := range st.Robots {
		r := &st.Robots[j]
		if j == robot || !r.Active() || r.Power == adjudicator.PowerDown || r.Mat == nil {
			continue
		}
		if d := abs(r.Pos.X-pos.X) + abs(r.Pos.Y-pos.Y); d < bestD {
			best, bestD = j, d
		}
	}
	return best
}

// imagineRival starts imagining rival's rounds: st is the game before the round, after
// the state after robot's upgrade phase. The rival's programs are found on the table's
// floor at once, or else searched, one goroutine a hand; the game returned is ready once
// wg is done.
func (p *Pilot) imagineRival(st, after *adjudicator.State, robot, rival int, wg *sync.WaitGroup) *rivalGame {
	bs, base := p.setup.Blind(after, robot)
	real := &st.Robots[rival]
	hands := rivalHands
	walk := p.walkable(real) // its programs found on the table's floor (nearest.go)
	if !walk {
		hands = rivalSearched
	}
	g := &rivalGame{setup: bs, rounds: make([]rivalRound, hands)}
	seed := uint64(st.Turn)<<32 | uint64(robot)<<16 | uint64(rival)
	for _, r := range st.Robots {
		seed = seed*31 + uint64(r.Pos.X*64+r.Pos.Y)
	}
	rng := rand.New(rand.NewPCG(seed, 0x72_69_76_61_6c)) // "rival"
	for k := range g.rounds {
		b := base.Clone()
		orders := make([]adjudicator.Orders, len(b.Robots))
		for j := range b.Robots {
			if j != robot && j != rival {
				orders[j].Shutdown = true
			}
		}
		pool := slices.Concat(real.Hand, real.Mat.Deck)
		slices.Sort(pool)
		hand := make([]int, 0, len(real.Hand))
		for len(hand) < len(real.Hand) && len(pool) > 0 {
			i := rng.IntN(len(pool))
			hand = append(hand, pool[i])
			pool = slices.Delete(pool, i, i+1)
		}
		slices.Sort(hand)
		b.Robots[rival].Hand = hand
		// The draw piles in an order of their own each round, a SPAM's replacement being
		// the top card (Blind's piles, sorted, would play the same kind for every SPAM):
		// the rival's is the cards not in the hand imagined; the robot's own, whose order
		// its player does not know either, is its pile shuffled.
		rng.Shuffle(len(pool), func(x, y int) { pool[x], pool[y] = pool[y], pool[x] })
		b.Robots[rival].Mat.Deck = pool
		own := b.Robots[robot].Mat
		own.Deck = slices.Clone(own.Deck)
		rng.Shuffle(len(own.Deck), func(x, y int) { own.Deck[x], own.Deck[y] = own.Deck[y], own.Deck[x] })
		rd := &g.rounds[k]
		*rd = rivalRound{st: b, orders: orders, rival: rival}
		if walk {
			if prog, ok := p.nearestProgram(&b.Robots[rival], hand); ok {
				rd.orders[rival] = adjudicator.Orders{Program: prog}
				continue
			}
		}
		wg.Go(func() {
			if prog, ok := p.rivalProgram(bs, b, rival); ok {
				rd.orders[rival] = adjudicator.Orders{Program: prog}
			} else {
				rd.orders[rival] = adjudicator.Orders{Shutdown: true}
			}
		})
	}
	return g
}

// rivalProgram is the program this autopilot would choose for robot j of the blind game
// b holding the hand b gives it: the program search alone.
func (p *Pilot) rivalProgram(bs *adjudicator.Setup, b *adjudicator.State, j int) ([adjudicator.Registers]int, bool) {
	r := &b.Robots[j]
	s := &search{p: p, robot: j, before: *r, own: true, decider: &planDecider{}}
	for reg := range adjudicator.Registers {
		if r.Mat.Haywire[reg] == 0 {
			s.free = append(s.free, reg)
		}
	}
	if len(r.Hand) < len(s.free) {
		return [adjudicator.Registers]int{}, false
	}
	for _, c := range r.Hand {
		k := adjudicator.CardKind(c)
		gi := slices.IndexFunc(s.groups, func(g group) bool { return g.kind == k })
		if gi < 0 {
			s.groups = append(s.groups, group{kind: k})
			gi = len(s.groups) - 1
		}
		s.groups[gi].cards = append(s.groups[gi].cards, c)
	}
	s.sim = adjudicator.NewSimulator(bs, b)
	s.walk(0)
	return s.bestProg, s.found
}

// best plays each candidate (the search's best, best first) in the imagined rounds and
// returns the index of the best total; -1 when none could be played.
func (g *rivalGame) best(p *Pilot, robot int, before *adjudicator.Robot, cands []ranked) int {
	var rv adjudicator.Resolver
	best, bestScore := -1, 0
	orders := make([]adjudicator.Orders, len(g.rounds[0].orders))
	for c, cand := range cands {
		total, ok := 0, true
		for _, rd := range g.rounds {
			copy(orders, rd.orders)
			orders[robot] = adjudicator.Orders{Program: cand.prog, Decider: &planDecider{facing: cand.facing, hasFacing: before.Destroyed}}
			next, events, err := rv.ResolveUntil(g.setup, rd.st, orders, adjudicator.Registers)
			if err != nil {
				ok = false // cannot happen: both programs come from the hands
				break
			}
			total += p.roundValue(before, next, events, robot)
			if orders[rd.rival].Program != ([adjudicator.Registers]int{}) {
				total -= rivalWeight * p.evaluate2023(&rd.st.Robots[rd.rival], &next.Robots[rd.rival]).Score / 100
			}
		}
		if ok && (best < 0 || total > bestScore) {
			best, bestScore = c, total
		}
	}
	return best
}

// roundValue values robot's place after an imagined round as value2023 values a
// forecast, from the round's events.
func (p *Pilot) roundValue(before *adjudicator.Robot, next *adjudicator.State, events []adjudicator.Event, robot int) int {
	end := &next.Robots[robot]
	o := p.evaluate2023(before, end)
	if next.Over && next.Winner != end.Name {
		return o.Score - lostRace
	}
	flagReg, winReg := 0, 0
	for _, e := range events {
		switch {
		case e.Kind == adjudicator.EvFlag && e.Robot == end.Name:
			flagReg = e.Register
		case e.Kind == adjudicator.EvWin && e.Robot == end.Name:
			winReg = e.Register
		}
	}
	if o.Won {
		return o.Score - winReg*earlyWinValue
	}
	if o.Flags > 0 {
		return o.Score - flagReg*earlyFlagValue
	}
	return o.Score
}

// endsAlike reports whether two forecasts end alike for the round against the rival:
// on one square, facing one way, with the same checkpoints, both rebooting or neither.
func endsAlike(a, b *adjudicator.Robot) bool {
	return a.Pos == b.Pos && a.Facing == b.Facing && a.Flags == b.Flags && a.Destroyed == b.Destroyed
}

// apart is where keepApart would put a program prog of that key whose forecast ends at
// end: alike is the index of the program in list ending alike (-1 for none), and keep
// whether it is kept at all.
func apart(list []ranked, n, key int, prog [adjudicator.Registers]int, end *adjudicator.Robot) (alike int, keep bool) {
	for j := range list {
		if endsAlike(&list[j].end, end) {
			return j, key > list[j].key || (key == list[j].key && less(prog, list[j].prog))
		}
	}
	return -1, admits(list, n, key, prog)
}

// keepApart keeps c among the n best programs of list whose forecasts end apart: of two
// programs ending alike (endsAlike) the better is kept, ties to the lower program.
func keepApart(list *[]ranked, n int, c ranked) {
	j, ok := apart(*list, n, c.key, c.prog, &c.end)
	if !ok {
		return
	}
	if j >= 0 {
		*list = slices.Delete(*list, j, j+1)
	}
	keepTop(list, n, c)
}
