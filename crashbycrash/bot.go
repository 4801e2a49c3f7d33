package crashbycrash

// The autopilot (issue 20 item 5): plays a missed move. Among the legal moves it picks
// one that maximises the score difference (own side minus the other) after the move;
// ties go to the move that leaves its cars on the higher-valued cells against the other
// side's (what the next scoring event would pay), then to the first in generation order,
// so the choice is deterministic.
//
// Search: every legal first action is played out; the second action is searched in full
// after the most promising first actions (by the same measure, the best botWidth of
// them), after every first action already as good in score difference, and after every
// blue or yellow card (whose worth is all in the second action); every other first
// action is paired with the second actions of the best pairs found and the best single
// actions of the position. A first action after which the game is over needs no second.
// This is not a search of every pair (about 40 times the work): a pair whose first
// action only prepares its second can be missed (docs/crash-by-crash.md has figures).

import "sort"

// botWidth is how many first actions get a full search of second actions.
const botWidth = 10

// BotMove is the autopilot's move for the seat to move (set-up: a placement). It needs
// no hidden information but its own hand: the deck's order does not change the score
// after the move.
func BotMove(s *State) Move {
	if s.Phase == PhaseOver {
		return Move{}
	}
	if s.Phase == PhaseSetup {
		return Move{Actions: []Action{s.botSetup()}}
	}
	me := s.SideOf(s.ToMove)
	t := turn{seat: s.ToMove, side: me}
	scratch := make([]Event, 0, 128)
	type cand struct {
		a     Action
		after State
		tc    turn
		key   int
	}
	var firsts []cand
	for _, a := range s.candidates(&t) {
		n := *s
		tc := t
		tc.evs = scratch[:0]
		if n.action(&tc, a) != nil {
			continue
		}
		tc.evs = nil
		firsts = append(firsts, cand{a, n, tc, n.botKey(me)})
	}
	if len(firsts) == 0 {
		return s.botFinish(Move{Actions: []Action{{Kind: ActPass}, {Kind: ActPass}}})
	}
	order := make([]int, len(firsts))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return firsts[order[i]].key > firsts[order[j]].key })
	bestKey, found := 0, false
	var best Move
	bestDiff := firsts[order[0]].after.diff(me)
	searched := make([]bool, len(firsts))
	var goodSeconds []ranked // the second actions of the best pairs found
	for rank, i := range order {
		f := &firsts[i]
		binding := f.a.Kind == ActCard && cardColour(f.a.Card) != Grey
		if rank >= botWidth && f.after.diff(me) < bestDiff && !binding {
			continue
		}
		searched[i] = true
		if f.after.Phase == PhaseOver {
			if !found || f.key > bestKey {
				best, bestKey, found = Move{Actions: []Action{f.a, {Kind: ActPass}}}, f.key, true
			}
			continue
		}
		tc := f.tc
		tc.idx = 1
		seconds := f.after.candidates(&tc)
		legalSeconds := 0
		var neutralDone [3]bool
		for _, b := range seconds {
			// a second action that moves no car and changes no score (an exchange, Bell
			// Charms, Dead Accumulator) ranks the same as any other of its kind: one of
			// each is enough. (Not Flying Dutchman: moving the operator can free a
			// magnet's pull.)
			kind := neutralKind(b)
			if kind >= 0 && neutralDone[kind] {
				continue
			}
			if s.blindSecond(s.ToMove, f.a, b) != nil {
				continue // a card it could not know it would hold (blind.go)
			}
			n := f.after
			t2 := tc
			t2.evs = scratch[:0]
			if n.action(&t2, b) != nil {
				continue
			}
			if t2.bound != NoCard && cardColour(t2.bound) == Yellow && !t2.yellowDone && n.Phase != PhaseOver {
				continue
			}
			legalSeconds++
			if kind >= 0 {
				neutralDone[kind] = true
			}
			k := n.botKey(me)
			goodSeconds = keepBest(goodSeconds, ranked{b, k}, 3)
			if !found || k > bestKey {
				best, bestKey, found = Move{Actions: []Action{f.a, b}}, k, true
			}
		}
		if legalSeconds == 0 && neutralDone == [3]bool{} {
			// no second action at all: a pass (legal only then; a yellow card's
			// binding makes a pass refused, which action reports)
			n := f.after
			t2 := tc
			t2.evs = scratch[:0]
			if n.action(&t2, Action{Kind: ActPass}) == nil && !(t2.bound != NoCard && cardColour(t2.bound) == Yellow) {
				if k := n.botKey(me); !found || k > bestKey {
					best, bestKey, found = Move{Actions: []Action{f.a, {Kind: ActPass}}}, k, true
				}
			}
		}
	}
	// Every other first action is paired with the actions most likely to gain: the
	// second actions of the best pairs found, and the best single actions of the
	// position (a gain often does not depend on the first action).
	promising := goodSeconds
	byGain := make([]ranked, 0, 3)
	for _, f := range firsts {
		byGain = keepBest(byGain, ranked{f.a, f.after.diff(me)}, 3)
	}
	promising = append(promising, byGain...)
	for i := range firsts {
		f := &firsts[i]
		if searched[i] {
			continue
		}
		if f.after.Phase == PhaseOver {
			if !found || f.key > bestKey {
				best, bestKey, found = Move{Actions: []Action{f.a, {Kind: ActPass}}}, f.key, true
			}
			continue
		}
		for _, p := range promising {
			n := f.after
			t2 := f.tc
			t2.idx = 1
			t2.evs = scratch[:0]
			if p.a.Kind == ActPass || s.blindSecond(s.ToMove, f.a, p.a) != nil || n.action(&t2, p.a) != nil {
				continue
			}
			if k := n.botKey(me); !found || k > bestKey {
				best, bestKey, found = Move{Actions: []Action{f.a, p.a}}, k, true
			}
		}
	}
	if !found {
		return s.botFinish(Move{Actions: []Action{{Kind: ActPass}, {Kind: ActPass}}})
	}
	return s.botFinish(best)
}

type ranked struct {
	a   Action
	key int
}

// keepBest keeps the n best-ranked actions (the first of equals), no action twice.
func keepBest(list []ranked, r ranked, n int) []ranked {
	worst := 0
	for i := range list {
		if list[i].key < list[worst].key {
			worst = i
		}
	}
	if len(list) == n && r.key <= list[worst].key {
		return list
	}
	for _, x := range list {
		if sameAction(x.a, r.a) {
			return list
		}
	}
	if len(list) < n {
		return append(list, r)
	}
	list[worst] = r
	return list
}

func sameAction(a, b Action) bool {
	if a.Kind != b.Kind || a.Cell != b.Cell || a.NoPush != b.NoPush || a.Acc != b.Acc || a.Card != b.Card ||
		a.Give != b.Give || a.From != b.From || len(a.Push) != len(b.Push) || len(a.Cells) != len(b.Cells) {
		return false
	}
	for i := range a.Push {
		if a.Push[i] != b.Push[i] {
			return false
		}
	}
	for i := range a.Cells {
		if a.Cells[i] != b.Cells[i] {
			return false
		}
	}
	return true
}

// neutralKind classes the second actions that cannot change botKey: no car moves (the
// magnets were settled by the first action) and no score changes; -1 for the others.
func neutralKind(a Action) int {
	switch {
	case a.Kind == ActExchange:
		return 0
	case a.Kind == ActCard && a.Card == BellCharms:
		return 1
	case a.Kind == ActCard && a.Card == DeadAccumulator:
		return 2
	}
	return -1
}

// diff is the score difference for side me.
func (s *State) diff(me int) int { return s.Score[me] - s.Score[1-me] }

// botKey ranks a state for side me: the score difference first, then the shade value of
// its cars on the board against the other side's, then its cars and accumulators kept.
func (s *State) botKey(me int) int {
	v := 0
	for c := Cell(1); c <= MaxCell; c++ {
		p := s.Board[c]
		if p == Empty {
			continue
		}
		sh := int(designs[s.Tiles[geo.slotOf[c]]].Shades[cellIndex[c]])
		if p.Side() == me {
			v += sh
		} else {
			v -= sh
		}
	}
	return s.diff(me)*1000 + v*10 + int(s.Acc[me])
}

// botSetup places on the most valuable free cell a set-up car may take.
func (s *State) botSetup() Action {
	best, bestV := NoCell, -1
	for c := Cell(1); c <= MaxCell; c++ {
		if s.setupCellOKQuick(c) && s.Shade(c) > bestV {
			best, bestV = c, s.Shade(c)
		}
	}
	return Action{Kind: ActPlace, Cell: best}
}

// botFinish adds the draw: face-up cards the bot likes, else the deck.
func (s *State) botFinish(m Move) Move {
	if s.Players == 4 {
		m.Keep = []Card{Saboteur, DoubleHit, CarRacket, FreeRide, Lambada, Tandem}
		return m
	}
	n, _, err := Apply(s, s.ToMove, m)
	if err != nil || n.Over() {
		return m
	}
	// the number of cards to draw is what the move left missing; face-up cards as they
	// were before the move (an exchange may have taken some)
	need := 0
	var trial State = *s
	t := turn{seat: s.ToMove, side: s.SideOf(s.ToMove), evs: make([]Event, 0, 32)}
	for i, a := range m.Actions {
		t.idx = i
		if trial.action(&t, a) != nil || trial.Phase == PhaseOver {
			return m
		}
	}
	for _, c := range trial.Hands[s.ToMove] {
		if c == NoCard {
			need++
		}
	}
	for _, want := range []Card{Saboteur, DoubleHit, CarRacket, FreeRide, Lambada} {
		for i, c := range trial.FaceUp {
			if need > 0 && c == want && !containsSource(m.Draw, Source(i+1)) {
				m.Draw = append(m.Draw, Source(i+1))
				need--
			}
		}
	}
	return m
}

func containsSource(ss []Source, s Source) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
