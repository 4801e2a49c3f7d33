package crashbycrash

// Legal-move generation: every action the seat to move may take now, found by trying
// each candidate on a copy of the state, so that "legal" means exactly "Apply accepts
// it". Used by error messages and the autopilot.

import "fmt"

// LegalActions lists every legal first action of the seat to move (during set-up, every
// legal placement). A first action that binds the second (a blue or yellow card) is
// listed only if some second action can follow it.
func (s *State) LegalActions() []Action {
	if s.Phase == PhaseOver {
		return nil
	}
	t := &turn{seat: s.ToMove, side: s.SideOf(s.ToMove)}
	if s.Phase == PhaseSetup {
		var out []Action
		for c := Cell(1); c <= MaxCell; c++ {
			if s.setupCellOKQuick(c) {
				out = append(out, Action{Kind: ActPlace, Cell: c})
			}
		}
		return out
	}
	return s.legalActions(t)
}

// LegalSeconds lists every legal second action after first (which must be legal).
func (s *State) LegalSeconds(first Action) ([]Action, error) {
	if s.Phase != PhasePlay {
		return nil, fmt.Errorf("the game is not in play")
	}
	n := *s
	t := &turn{seat: s.ToMove, side: s.SideOf(s.ToMove)}
	if err := n.action(t, first); err != nil {
		return nil, fmt.Errorf("action 1 (%s): %w", FormatAction(first), err)
	}
	if n.Phase == PhaseOver {
		return nil, nil
	}
	t.idx = 1
	t.evs = nil
	return n.legalActions(t), nil
}

// legalActions lists the legal actions for the turn's current action index; a pass when
// there is none.
func (s *State) legalActions(t *turn) []Action {
	var out []Action
	scratch := make([]Event, 0, 64)
	for _, a := range s.candidates(t) {
		if s.tryAction(t, a, scratch) {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		out = append(out, Action{Kind: ActPass})
	}
	return out
}

// tryAction says whether a is legal now (and, for a binding first action, whether some
// second action can follow).
func (s *State) tryAction(t *turn, a Action, scratch []Event) bool {
	n := *s
	tc := *t
	tc.evs = scratch[:0]
	if n.action(&tc, a) != nil {
		return false
	}
	if t.idx == 0 && a.Kind == ActCard && cardColour(a.Card) != Grey && n.Phase != PhaseOver {
		tc.idx = 1
		for _, b := range n.candidates(&tc) {
			if n.tryAction(&tc, b, scratch) {
				return true
			}
		}
		return false
	}
	return true
}

// candidates lists actions worth trying: everything that could be legal, no more than
// needed (e.g. only the cells next to cars for a standard car).
func (s *State) candidates(t *turn) []Action {
	var out []Action
	blue := NoCard
	if t.idx == 1 && t.bound != NoCard && cardColour(t.bound) == Blue {
		blue = t.bound
	}
	maxAcc := 0
	if blue == NoCard && !s.DeadAcc[t.side] {
		maxAcc = min(2, int(s.Acc[t.side]))
	}
	// standard cars
	if s.Stock[t.side] > 0 {
		for c := Cell(1); c <= MaxCell; c++ {
			if !s.vacant(c) {
				continue
			}
			dirs := s.carDirs(c)
			if blue == ExpansionUnlimited {
				out = append(out, Action{Kind: ActPlace, Cell: c, NoPush: true})
			}
			for i, d := range dirs {
				for acc := 0; acc <= maxAcc; acc++ {
					out = append(out, Action{Kind: ActPlace, Cell: c, Push: []Dir{d}, Acc: acc})
				}
				if blue == DoubleHit {
					for _, e := range dirs[i+1:] {
						out = append(out, Action{Kind: ActPlace, Cell: c, Push: []Dir{d, e}})
					}
				}
			}
		}
	}
	if blue != NoCard {
		return out
	}
	// the magnet
	if s.Magnet[t.side] {
		for c := Cell(1); c <= MaxCell; c++ {
			if s.vacant(c) && s.magnetWouldPull(c) {
				out = append(out, Action{Kind: ActMagnet, Cell: c})
			}
		}
	}
	// cards
	var seen [numCards]bool
	for _, c := range s.Hands[t.seat] {
		if c == NoCard || seen[c] {
			continue
		}
		seen[c] = true
		out = s.cardCandidates(t, c, out)
	}
	// the operator
	out = s.operatorPaths(out)
	// exchanges
	h := cardsOf(s.Hands[t.seat])
	if len(h) >= 2 {
		var srcs [][2]Source
		srcs = append(srcs, [2]Source{Deck, Deck})
		if s.Players == 2 {
			for i := Source(1); i <= FaceUpCards; i++ {
				if s.FaceUp[i-1] == NoCard {
					continue
				}
				srcs = append(srcs, [2]Source{i, Deck})
				for j := i + 1; j <= FaceUpCards; j++ {
					if s.FaceUp[j-1] != NoCard {
						srcs = append(srcs, [2]Source{i, j})
					}
				}
			}
		}
		var pairs [][2]Card
		for i := 0; i < len(h); i++ {
			for j := i + 1; j < len(h); j++ {
				p := [2]Card{min(h[i], h[j]), max(h[i], h[j])}
				dup := false
				for _, q := range pairs {
					dup = dup || q == p
				}
				if !dup {
					pairs = append(pairs, p)
				}
			}
		}
		for _, p := range pairs {
			for _, src := range srcs {
				out = append(out, Action{Kind: ActExchange, Give: p, From: src})
			}
		}
	}
	return out
}

func (s *State) magnetWouldPull(m Cell) bool {
	for d := N; d <= NW; d++ {
		mid := Next(m, d)
		if mid == NoCell || !s.Present(mid) || s.Board[mid] != Empty || s.Operator == mid {
			continue
		}
		if far := Next(mid, d); far != NoCell && s.Board[far] != Empty {
			return true
		}
	}
	return false
}

func (s *State) cardCandidates(t *turn, c Card, out []Action) []Action {
	act := func(cells ...Cell) Action { return Action{Kind: ActCard, Card: c, Cells: cells} }
	switch c {
	case BellCharms:
		for _, b := range s.Bells {
			if b == NoCell {
				continue
			}
			for to := Cell(1); to <= MaxCell; to++ {
				if s.vacant(to) && !SlotOf(to).IsX() {
					out = append(out, act(b, to))
				}
			}
		}
	case Lambada:
		for a := Cell(1); a <= MaxCell; a++ {
			if s.Board[a] == Empty {
				continue
			}
			for d := NE; d <= S; d++ { // each pair once
				if b := Next(a, d); b != NoCell && s.Board[b] != Empty {
					out = append(out, act(a, b))
				}
			}
		}
	case FreeRide:
		for a := Cell(1); a <= MaxCell; a++ {
			if s.Board[a] == Empty {
				continue
			}
			for d := N; d <= NW; d++ {
				if b := Next(a, d); b != NoCell && s.vacant(b) {
					out = append(out, act(a, b))
				}
			}
		}
	case Saboteur:
		for a := Cell(1); a <= MaxCell; a++ {
			if p := s.Board[a]; p != Empty && p.Side() != t.side {
				out = append(out, act(a))
			}
		}
	case FlyingDutchman:
		for a := Cell(1); a <= MaxCell; a++ {
			if s.vacant(a) {
				out = append(out, act(a))
			}
		}
	default:
		out = append(out, act())
	}
	return out
}

// operatorPaths appends every operator move of 2 and 4 cells that never enters a cell
// twice and stays inside the perimeter (legality of pushes is left to the trial).
func (s *State) operatorPaths(out []Action) []Action {
	start := opPos{s.Operator, s.OpHole}
	var path [5]opPos
	path[0] = start
	var walk func(n int)
	walk = func(n int) {
		if n == 3 || n == 5 {
			cells := make([]Cell, n-1)
			for i := 1; i < n; i++ {
				cells[i-1] = s.posCell(path[i])
			}
			out = append(out, Action{Kind: ActOperator, Cells: cells})
			if n == 5 {
				return
			}
		}
		for _, q := range s.opSteps(path[n-1]) {
			dup := false
			for _, p := range path[:n] {
				dup = dup || p == q
			}
			if !dup {
				path[n] = q
				walk(n + 1)
			}
		}
	}
	walk(1)
	return out
}

// posCell names an operator position by a cell (a hole by its first cell).
func (s *State) posCell(p opPos) Cell {
	if p.cell != NoCell {
		return p.cell
	}
	return geo.slotCells[p.hole][0]
}

// opSteps lists where the operator can step from p.
func (s *State) opSteps(p opPos) []opPos {
	var out []opPos
	add := func(q opPos) {
		for _, o := range out {
			if o == q {
				return
			}
		}
		out = append(out, q)
	}
	from := []Cell{p.cell}
	if p.cell == NoCell {
		from = geo.slotCells[p.hole]
	}
	for _, c := range from {
		for d := N; d <= NW; d++ {
			n := Next(c, d)
			if n == NoCell {
				continue
			}
			q := opPos{n, NoSlot}
			if !s.Present(n) {
				q = opPos{NoCell, SlotOf(n)}
			}
			if q != p {
				add(q)
			}
		}
	}
	return out
}
