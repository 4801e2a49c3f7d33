package crashbycrash

// seed 002, Scoring event: a car moved onto a bell (pushed by a car or the operator,
// pulled by a magnet) rings it; each side adds the values of its cars on the board; the
// bell's tile is removed, its cars go back to their owners without points, the operator
// on it goes into the hole; the bell goes to the chart; the seventh event ends the game.
// A yellow card played as the first action changes the first event of the second action.
//
// Rulings (rules README, docs/crash-by-crash.md): the cars are summed before the tile is
// removed (the ringing car counts); several bells in one action are several events, in
// the order they rang; Shady Exception: each car is worth 3 minus its cell's shade; after
// the seventh event nothing more happens; no bell may ring before game turn 6
// (FirstEventTurn): such an action is refused.

func (s *State) resolveRings(t *turn) {
	for i := 0; i < t.nrings; i++ {
		if s.Phase == PhaseOver {
			break
		}
		s.scoringEvent(t, t.rings[i])
	}
	t.nrings = 0
}

func (s *State) scoringEvent(t *turn, at Cell) {
	bell := s.BellAt(at)
	if bell < 0 {
		return
	}
	mod := NoCard
	if t.idx == 1 && t.bound != NoCard && cardColour(t.bound) == Yellow && !t.yellowDone {
		mod = t.bound
		t.yellowDone = true
	}
	var sum [2]int
	for c, p := range s.Board {
		if p == Empty {
			continue
		}
		v := s.Shade(Cell(c))
		if mod == ShadyException {
			v = 3 - v
		}
		sum[p.Side()] += v
	}
	for side := 0; side < 2; side++ {
		s.Score[side] += sum[side]
		t.ev(Event{Kind: EvScore, Side: side, N: sum[side], From: NoCell, To: at, Card: mod})
	}
	s.Bells[bell] = NoCell
	s.Chart[s.Events] = int8(bell)
	s.Events++
	t.ev(Event{Kind: EvChart, N: s.Events, From: NoCell, To: at})
	if mod != PowerlessBell {
		sl := SlotOf(at)
		for _, c := range geo.slotCells[sl] {
			if p := s.Board[c]; p != Empty {
				s.Board[c] = Empty
				s.toStock(p)
				t.ev(Event{Kind: EvReturned, Side: p.Side(), Magnet: p.IsMagnet(), From: c, To: NoCell})
			}
			if s.Operator == c {
				s.Operator, s.OpHole = NoCell, sl
				t.ev(Event{Kind: EvOpHole, From: c, To: NoCell, Slot: sl})
			}
		}
		s.Holes |= 1 << uint(sl)
		t.ev(Event{Kind: EvRemoved, Slot: sl, From: NoCell, To: NoCell})
	}
	if s.Events >= ChartSize {
		s.Phase = PhaseOver
		t.ev(Event{Kind: EvGameOver, N: 1, From: NoCell, To: NoCell})
	}
}
