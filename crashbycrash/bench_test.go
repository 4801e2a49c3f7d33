package crashbycrash

import (
	"math/rand/v2"
	"testing"
)

// midGame is a position some turns into a seeded game between two random movers.
func midGame(b testing.TB, seed uint64, turns int) *State {
	s, _ := NewGame(Settings{Players: 2}, seed)
	r := rand.New(rand.NewPCG(seed, 7))
	for !s.Over() && (s.Phase == PhaseSetup || s.Turn < turns) {
		m := randomMove(s, r)
		m.Draw = nil
		n, _, err := Apply(s, s.ToMove, m)
		if err != nil {
			b.Fatal(err)
		}
		s = n
	}
	return s
}

// BenchmarkApply: a move applied (issue 20 item 8: goal ≤ 20 µs).
func BenchmarkApply(b *testing.B) {
	s := midGame(b, 3, 12)
	m := BotMove(s)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := Apply(s, s.ToMove, m); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000, "µs/move(goal≤20)")
}

// BenchmarkBotMove: an autopilot move (issue 20 item 8: goal ≤ 50 ms).
func BenchmarkBotMove(b *testing.B) {
	s := midGame(b, 3, 12)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		BotMove(s)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/move(goal≤50)")
}
