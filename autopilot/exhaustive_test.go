package autopilot

import (
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// bruteForce scores every ordered choice of real cards (no collapsing of cards of one
// kind) and returns the best score and how many programs it tried.
func bruteForce(p *Pilot, st *adjudicator.State, robot int) (best, tried int) {
	r := &st.Robots[robot]
	sim := adjudicator.NewSimulator(p.setup, st)
	var free []int
	for reg := 1; reg <= adjudicator.Registers; reg++ {
		if !r.IsLocked(reg) {
			free = append(free, reg-1)
		}
	}
	var prog [adjudicator.Registers]int
	used := make([]bool, len(r.Hand))
	found := false
	var walk func(depth int)
	walk = func(depth int) {
		if depth == len(free) {
			end, err := sim.Run(robot, prog, nil)
			if err != nil {
				panic(err)
			}
			tried++
			if o := p.evaluate(r, &end); !found || o.Score > best {
				best, found = o.Score, true
			}
			return
		}
		for i, c := range r.Hand {
			if used[i] {
				continue
			}
			used[i] = true
			prog[free[depth]] = c
			walk(depth + 1)
			used[i] = false
		}
		prog[free[depth]] = 0
	}
	walk(0)
	return best, tried
}

// Collapsing cards of one kind loses nothing: the search finds the score the full
// 15,120-program search finds, and the program it names scores that.
func TestChooseMatchesBruteForce(t *testing.T) {
	for _, c := range []struct {
		course string
		seed   uint64
		turns  int // autopilot turns played before the check
	}{
		{"sprint", 1, 0}, {"sprint", 2, 2}, {"long-haul", 3, 0}, {"long-haul", 4, 3},
	} {
		cr, err := adjudicator.LoadCourse(c.course)
		if err != nil {
			t.Fatal(err)
		}
		s, err := adjudicator.NewSetup(cr, adjudicator.PostalRules(), c.seed, adjudicator.DealtOptions(adjudicator.DeckBoth))
		if err != nil {
			t.Fatal(err)
		}
		st, _, err := adjudicator.NewGame(s, []string{"A", "B", "C", "D"})
		if err != nil {
			t.Fatal(err)
		}
		p := New(s)
		for range c.turns {
			orders := make([]adjudicator.Orders, len(st.Robots))
			for i := range st.Robots {
				orders[i] = adjudicator.Orders{Program: p.Choose(st, i).Program, Decider: p.Decider()}
			}
			if st, _, err = adjudicator.Resolve(s, st, orders); err != nil {
				t.Fatal(err)
			}
		}
		for _, robot := range []int{0, 3} {
			r := &st.Robots[robot]
			if r.Power != adjudicator.PowerOn || r.Out {
				continue
			}
			plan := p.Choose(st, robot)
			best, tried := bruteForce(p, st, robot)
			if plan.Score != best {
				t.Errorf("%s seed %d turn %d robot %d: search scored %d (%d programs), brute force %d (%d programs)",
					c.course, c.seed, st.Turn, robot, plan.Score, plan.Tried, best, tried)
			}
			end, err := adjudicator.NewSimulator(s, st).Run(robot, plan.Program, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.evaluate(r, &end).Score; got != plan.Score {
				t.Errorf("%s seed %d robot %d: program %v scores %d, plan says %d", c.course, c.seed, robot, plan.Program, got, plan.Score)
			}
			if len(r.Hand) == 9 && plan.Tried >= tried { // nine cards of seven kinds: some alike
				t.Errorf("search tried %d programs, brute force %d: collapsing saved nothing", plan.Tried, tried)
			}
		}
	}
}

// BenchmarkBruteForce runs all 15,120 programs of a 9-card hand through the Simulator
// with no collapsing: the cost Choose would have without it.
func BenchmarkBruteForce(b *testing.B) {
	c, err := adjudicator.LoadCourse("long-haul")
	if err != nil {
		b.Fatal(err)
	}
	s, err := adjudicator.NewSetup(c, adjudicator.PostalRules(), 7, adjudicator.DealtOptions(adjudicator.DeckBoth))
	if err != nil {
		b.Fatal(err)
	}
	st, _, err := adjudicator.NewGame(s, []string{"A", "B", "C", "D"})
	if err != nil {
		b.Fatal(err)
	}
	p := New(s)
	b.ReportAllocs()
	tried := 0
	for b.Loop() {
		_, tried = bruteForce(p, st, 0)
	}
	b.ReportMetric(float64(tried), "programs/op")
}
