package crashbycrash

import "testing"

// bestDiffExhaustive: the best score difference over every pair of legal actions.
func bestDiffExhaustive(s *State) int { v, _ := bestPair(s); return v }

func bestPair(s *State) (int, string) {
	bm := ""
	me := s.SideOf(s.ToMove)
	t := turn{seat: s.ToMove, side: me}
	scratch := make([]Event, 0, 128)
	best := -1 << 30
	for _, a := range s.candidates(&t) {
		n := *s
		tc := t
		tc.evs = scratch[:0]
		if n.action(&tc, a) != nil {
			continue
		}
		if n.Phase == PhaseOver {
			if n.diff(me) > best {
				best, bm = n.diff(me), FormatAction(a)
			}
			continue
		}
		tc.idx = 1
		for _, b := range append(n.candidates(&tc), Action{Kind: ActPass}) {
			m := n
			t2 := tc
			t2.evs = scratch[:0]
			if m.action(&t2, b) != nil {
				continue
			}
			if t2.bound != NoCard && cardColour(t2.bound) == Yellow && !t2.yellowDone && m.Phase != PhaseOver {
				continue
			}
			if m.diff(me) > best {
				best = m.diff(me)
				bm = FormatAction(a) + " / " + FormatAction(b)
			}
		}
	}
	return best, bm
}

// TestBotAgainstExhaustive measures the autopilot's search against a search of every
// pair of legal actions on 12 mid-game positions: it never does better (a check of the
// exhaustive search) and finds the best score difference in at least 11 of them (a full
// search is about 40 times the work; docs/crash-by-crash.md gives the figures).
func TestBotAgainstExhaustive(t *testing.T) {
	if testing.Short() {
		t.Skip("an exhaustive search of 12 positions")
	}
	found := 0
	for seed := uint64(1); seed <= 12; seed++ {
		s := midGame(t, seed, 8+int(seed))
		if s.Over() {
			found++
			continue
		}
		m := BotMove(s)
		n, _, err := Apply(s, s.ToMove, m)
		if err != nil {
			t.Fatal(err)
		}
		me := s.SideOf(s.ToMove)
		ex, pair := bestPair(s)
		switch {
		case n.diff(me) > ex:
			t.Fatalf("seed %d: the bot's move makes %d, more than the exhaustive best %d", seed, n.diff(me), ex)
		case n.diff(me) == ex:
			found++
		default:
			t.Logf("seed %d: the bot makes %d with %q; best %d with %q", seed, n.diff(me), Format(m), ex, pair)
		}
	}
	if found < 11 {
		t.Fatalf("the bot found the best score difference in %d of 12 positions, want 11", found)
	}
}
