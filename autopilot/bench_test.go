package autopilot_test

import (
	"testing"

	"github.com/rallyjudge/rallyjudge/autopilot"
)

// BenchmarkChoose is one robot's turn-1 choice from a full 9-card hand, 4 robots on the
// course (8 on stampede) (target: under 100 ms per robot per turn).
func BenchmarkChoose(b *testing.B) {
	for _, c := range []struct {
		course string
		robots int
	}{{"sprint", 4}, {"long-haul", 4}, {"stampede", 8}} {
		b.Run(c.course, func(b *testing.B) {
			s, st := newGame(b, c.course, 7, c.robots)
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
