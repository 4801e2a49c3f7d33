package autopilot_test

import (
	"testing"

	"github.com/rallyjudge/rallyjudge/autopilot"
)

// BenchmarkChoose is one robot's turn-1 choice from a full 9-card hand, 4 robots on the
// course (target: under 100 ms per robot per turn).
func BenchmarkChoose(b *testing.B) {
	for _, course := range []string{"sprint", "long-haul"} {
		b.Run(course, func(b *testing.B) {
			s, st := newGame(b, course, 7, 4)
			p := autopilot.New(s)
			b.ReportAllocs()
			var plan autopilot.Plan
			for b.Loop() {
				plan = p.Choose(st, 0)
			}
			b.ReportMetric(float64(plan.Tried), "programs/op")
		})
	}
}
