package adjudicator

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"syscall"
	"testing"
	"time"
)

// fastPathCourse is a shipped course, or with big the same course on a 24×28 floor (the
// squares beyond it plain floor): the same turns on a board of 3.5 times the area.
func fastPathCourse(tb testing.TB, rules string, big bool) *Course {
	tb.Helper()
	name := "sprint"
	if rules == "2023" {
		name = "docking-run"
	}
	c, err := LoadCourse(name)
	if err != nil {
		tb.Fatal(err)
	}
	if !big {
		return c
	}
	const w, h = 24, 28
	b := NewBoard(w, h)
	var owner []int
	if c.owner != nil {
		owner = make([]int, w*h)
	}
	for y := 0; y < c.Board.H; y++ {
		for x := 0; x < c.Board.W; x++ {
			b.Squares[y*w+x] = c.Board.Squares[y*c.Board.W+x]
			if owner != nil {
				owner[y*w+x] = c.owner[y*c.Board.W+x]
			}
		}
	}
	big2 := *c
	big2.Board, big2.owner = b, owner
	return &big2
}

// fastPathGame is a seeded game of n robots under rules ("postal", "2023") and the turns
// of it: states[k] and orders[k] are turn k+1's, random legal programs. With options
// every robot holds three Crash & Burn options (postal) or four upgrades it says yes to
// (2023, with energy to pay).
func fastPathGame(tb testing.TB, rules string, big bool, n int, options bool, turns int) (*Setup, []*State, [][]Orders) {
	tb.Helper()
	c := fastPathCourse(tb, rules, big)
	r := PostalRules()
	if rules == "2023" {
		r = Rules2023()
	}
	if len(c.Starts) < n {
		for i := len(c.Starts); i < n; i++ {
			c.Starts = append(c.Starts, Start{Pos: Pos{i, c.Board.H - 1}, Facing: North})
		}
	}
	c.MinPlayers, c.MaxPlayers = min(c.MinPlayers, n), max(c.MaxPlayers, n)
	s, err := NewSetup(c, r, 7, nil)
	if err != nil {
		tb.Fatal(err)
	}
	names := []string{"A", "B", "C", "D", "E", "F", "G", "H"}[:n]
	st, _, err := NewGame(s, names)
	if err != nil {
		tb.Fatal(err)
	}
	cards := DealtOptions(DeckCrashBurn)
	rng := rand.New(rand.NewPCG(uint64(n), 24))
	var states []*State
	var orders [][]Orders
	for k := 0; k < turns && !st.Over; k++ {
		st = st.Clone()
		ords := make([]Orders, n)
		for i := range st.Robots {
			rb := &st.Robots[i]
			if options && rules == "2023" {
				rb.Options = []string{"Ramming Gear", "Mini Howitzer", "Deflector Shield", "Rear Laser"}
				if rb.Mat != nil {
					rb.Mat.Energy = 6
				}
				ords[i].Decider = alwaysUse{}
			} else if options && len(rb.Options) < 3 {
				for j := 0; j < 3; j++ {
					rb.Options = append(rb.Options, cards[(3*i+j)%len(cards)])
				}
			}
			if rb.Out || rb.Power == PowerDown {
				continue
			}
			hand := slices.Clone(rb.Hand)
			rng.Shuffle(len(hand), func(a, b int) { hand[a], hand[b] = hand[b], hand[a] })
			for reg := 1; reg <= Registers && len(hand) > 0; reg++ {
				if rb.IsLocked(reg) || (rb.Mat != nil && rb.Mat.Haywire[reg-1] != 0) {
					continue
				}
				ords[i].Program[reg-1], hand = hand[0], hand[1:]
			}
		}
		next, _, err := Resolve(s, st, ords)
		if err != nil {
			tb.Fatalf("%s %d robots turn %d: %v", rules, n, k+1, err)
		}
		states, orders = append(states, st), append(orders, ords)
		st = next
	}
	return s, states, orders
}

// cpuTime is the CPU time the process has used (the collector's workers too): on a
// machine shared with other work, wall time counts the waits for a core.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkFastPath plays the same turns through a Resolver reused turn after turn and
// through the judge's path (ResolveLent: a pooled Resolver lending its log, released
// once the turn is used; the judge, replay and the resolve command play turns so),
// alternately in one loop, and reports each per turn, their ratio and the goal beside
// it (issue 24: the judge's path at most 1.5× the reused Resolver, at 2, 4 and 8
// robots, with and without options, postal and 2023, and flat in board area: 24x28 is
// the same course on a bigger floor). After the loop, the same turns through Resolve (a
// pooled Resolver, its log copied out: e-Resolve, the judge's path before ResolveLent)
// and through a new Resolver a turn (f-before, as Resolve played before the pool). The
// figures are the process's CPU time (cpuTime), the collector's included, not wall time.
func BenchmarkFastPath(b *testing.B) {
	for _, rules := range []string{"postal", "2023"} {
		for _, big := range []bool{false, true} {
			for _, n := range []int{2, 4, 8} {
				for _, options := range []bool{false, true} {
					area := "12x16"
					if big {
						area = "24x28"
					}
					b.Run(fmt.Sprintf("%s/%s/robots=%d/options=%v", rules, area, n, options), func(b *testing.B) {
						s, states, orders := fastPathGame(b, rules, big, n, options, 6)
						var rv Resolver
						var reused, lent time.Duration
						turns := 0
						for b.Loop() {
							t0 := cpuTime(b)
							for k := range states {
								if _, _, err := rv.Resolve(s, states[k], orders[k]); err != nil {
									b.Fatal(err)
								}
							}
							t1 := cpuTime(b)
							for k := range states {
								l, err := ResolveLent(s, states[k], orders[k])
								if err != nil {
									b.Fatal(err)
								}
								l.Release()
							}
							lent += cpuTime(b) - t1
							reused += t1 - t0
							turns += len(states)
						}
						// The same turns after, not between: the garbage of a log copied out,
						// or of a new Resolver a turn, would be collected in the other two's time.
						after := func(play func(k int) error) time.Duration {
							t := cpuTime(b)
							for n := 0; n < turns; n++ {
								if err := play(n % len(states)); err != nil {
									b.Fatal(err)
								}
							}
							return cpuTime(b) - t
						}
						copied := after(func(k int) error {
							_, _, err := Resolve(s, states[k], orders[k])
							return err
						})
						fresh := after(func(k int) error {
							_, _, err := new(Resolver).Resolve(s, states[k], orders[k])
							return err
						})
						perTurn := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(turns) }
						b.ReportMetric(perTurn(reused), "a-reused-ns/turn")
						b.ReportMetric(perTurn(lent), "b-judge-ns/turn")
						b.ReportMetric(float64(lent)/float64(reused), "c-judge/reused")
						b.ReportMetric(1.5, "d-goal-max")
						b.ReportMetric(perTurn(copied), "e-Resolve-ns/turn")
						b.ReportMetric(perTurn(fresh), "f-before-ns/turn")
					})
				}
			}
		}
	}
}

// Resolve through pooled Resolvers gives what a new Resolver gives, byte for byte,
// however the pool's Resolvers were used before: games of both rulesets, of 2 to 8
// robots, with and without options, on two floor sizes, played turn by turn interleaved,
// and each turn compared (state and log as JSON) with a Resolver made for it; and what
// Resolve returned is still the same at the end (nothing of it lives in the pool).
func TestPooledResolveMatchesFresh(t *testing.T) {
	type game struct {
		s      *Setup
		states []*State
		orders [][]Orders
	}
	var games []game
	for _, rules := range []string{"postal", "2023"} {
		for _, big := range []bool{false, true} {
			for _, n := range []int{2, 5, 8} {
				for _, options := range []bool{false, true} {
					s, states, orders := fastPathGame(t, rules, big, n, options, 12)
					games = append(games, game{s, states, orders})
				}
			}
		}
	}
	compared := 0
	type kept struct {
		v    any
		json string
	}
	var results []kept
	for k := 0; ; k++ {
		played := false
		for _, g := range games {
			if k >= len(g.states) {
				continue
			}
			played = true
			for _, stop := range []int{0, 3} {
				got, gotEv, err := ResolveUntil(g.s, g.states[k], g.orders[k], stop)
				if err != nil {
					t.Fatal(err)
				}
				want, wantEv, err := new(Resolver).ResolveUntil(g.s, g.states[k], g.orders[k], stop)
				if err != nil {
					t.Fatal(err)
				}
				for _, pair := range [][2]any{{got, want}, {gotEv, wantEv}} {
					a, _ := json.Marshal(pair[0])
					b, _ := json.Marshal(pair[1])
					if string(a) != string(b) {
						t.Fatalf("%s, %d robots, turn %d (stop %d): pooled %s\nfresh %s", g.s.Rules.Name, len(g.states[k].Robots), k+1, stop, a, b)
					}
					results = append(results, kept{pair[0], string(a)})
				}
				compared++
			}
		}
		if !played {
			break
		}
	}
	for k, r := range results {
		if a, _ := json.Marshal(r.v); string(a) != r.json {
			t.Fatalf("result %d changed after later turns: %s, was %s", k, a, r.json)
		}
	}
	if compared < 200 {
		t.Fatalf("only %d turns compared", compared)
	}
	t.Logf("%d turns compared", compared)
}
