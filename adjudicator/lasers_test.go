package adjudicator

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// The board lasers found from the robots (fireLasers' beam index) hit what walking every
// laser's path hits (boardLasers, kept for floors with more than 64 lasers): games on
// every course of the library, played both ways, give the same logs and states.
func TestBeamIndexMatchesPathWalk(t *testing.T) {
	names := []string{"A", "B", "C", "D", "E", "F", "G", "H"}
	lit := 0
	for _, name := range Courses() {
		c, err := LoadCourse(name)
		if err != nil {
			t.Fatal(err)
		}
		fast, err := NewSetup(c, PostalRules(), 3, DealtOptions(DeckBoth))
		if err != nil {
			continue // a course made for other rules
		}
		walk, err := NewSetup(c, PostalRules(), 3, DealtOptions(DeckBoth))
		if err != nil {
			t.Fatal(err)
		}
		walk.beamFrom, walk.beamRefs = nil, nil // fireLasers falls back on boardLasers
		n := min(len(names), len(c.Starts))
		st, _, err := NewGame(fast, names[:n])
		if err != nil {
			t.Fatal(err)
		}
		a, b := st, st
		for turn := 1; turn <= 15 && !a.Over; turn++ {
			orders := simpleOrders(a)
			na, ea, err := Resolve(fast, a, orders)
			if err != nil {
				t.Fatalf("%s turn %d: %v", name, turn, err)
			}
			nb, eb, err := Resolve(walk, b, orders)
			if err != nil {
				t.Fatalf("%s turn %d: path walk: %v", name, turn, err)
			}
			if got, want := mustJSON(t, ea), mustJSON(t, eb); got != want {
				t.Fatalf("%s turn %d: beam index log\n%s\npath walk log\n%s", name, turn, got, want)
			}
			if got, want := mustJSON(t, na), mustJSON(t, nb); got != want {
				t.Fatalf("%s turn %d: states differ", name, turn)
			}
			for _, e := range ea {
				if e.Kind == EvDamage && e.Cause == "laser" {
					lit++
				}
			}
			a, b = na, nb
		}
	}
	if lit == 0 {
		t.Fatal("no board laser hit a robot: the test compares nothing")
	}
	t.Logf("%d board laser hits compared", lit)
}

// A robot's laser aimed from the robots in line (shootPlain, Setup.reach) hits what
// walking the beam square by square hits (shootWalk): every robot of random crowds on
// every course of the library fires in every direction, both ways, with virtual,
// destroyed and stacked robots among the crowd.
func TestPlainShotMatchesBeamWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	hits := 0
	for _, name := range Courses() {
		c, err := LoadCourse(name)
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewSetup(c, PostalRules(), 3, nil)
		if err != nil || s.fx != 0 {
			continue // a course made for other rules, or a floor whose tiles stop beams
		}
		b := c.Board
		for crowd := 0; crowd < 200; crowd++ {
			st := &State{Robots: make([]Robot, 8)}
			for j := range st.Robots {
				r := &st.Robots[j]
				r.Name = string(rune('A' + j))
				r.Pos = Pos{rng.IntN(b.W), rng.IntN(b.H)}
				if j > 0 && rng.IntN(4) == 0 {
					r.Pos = st.Robots[rng.IntN(j)].Pos // two on a square
				}
				r.Virtual = rng.IntN(5) == 0
				r.Destroyed = rng.IntN(8) == 0
				r.Lives = 3
			}
			tr := &turn{setup: s, st: st, single: -1, walls: s.walls, wallsW: s.wallsW}
			tr.occ = make([]bool, len(b.Squares))
			for j := range st.Robots {
				if r := &st.Robots[j]; r.Active() {
					tr.occ[r.Pos.Y*b.W+r.Pos.X] = true
				}
			}
			for i := range st.Robots {
				for d := North; d <= West; d++ {
					g := Gun{Dir: d, Beams: 1 + i%2}
					tr.hits = nil
					if !tr.shootPlain(i, g, true) {
						t.Fatalf("%s: robot at %v: the plain shot refused a plain floor", name, st.Robots[i].Pos)
					}
					plain := tr.hits
					tr.hits = nil
					tr.shootWalk(i, g, true)
					if !slices.Equal(plain, tr.hits) {
						t.Fatalf("%s: robot %d at %v facing %v: plain shot %v, walked beam %v", name, i, st.Robots[i].Pos, d, plain, tr.hits)
					}
					hits += len(plain)
				}
			}
		}
	}
	if hits < 1000 {
		t.Fatalf("only %d hits compared", hits)
	}
	t.Logf("%d hits compared", hits)
}

// A forecast skips the board lasers when its robot stands on no laser's path
// (turn.offBeams): walking every laser's path (boardLasers) hits it then in no register,
// on any library course, for random crowds; and the robot is on a path often enough for
// the skip to be tested both ways.
func TestForecastOffBeamsHitsNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	off, on := 0, 0
	for _, name := range Courses() {
		c, err := LoadCourse(name)
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewSetup(c, PostalRules(), 3, nil)
		if err != nil {
			continue // a course made for other rules
		}
		b := c.Board
		for crowd := 0; crowd < 50; crowd++ {
			st := &State{Robots: make([]Robot, 4)}
			for j := range st.Robots {
				r := &st.Robots[j]
				r.Name = string(rune('A' + j))
				r.Pos = Pos{rng.IntN(b.W), rng.IntN(b.H)}
				r.Destroyed = rng.IntN(8) == 0
				r.Lives = 3
			}
			for single := range st.Robots {
				tr := &turn{setup: s, st: st, single: single, walls: s.walls, wallsW: s.wallsW}
				tr.occ = make([]bool, len(b.Squares))
				for j := range st.Robots {
					if r := &st.Robots[j]; r.Active() {
						tr.occ[r.Pos.Y*b.W+r.Pos.X] = true
					}
				}
				for reg := 1; reg <= Registers; reg++ {
					tr.register = reg
					hits := tr.boardLasers(nil, s.fx&fxDoor != 0)
					if !tr.offBeams(b) {
						on++
						continue
					}
					off++
					if len(hits) > 0 {
						t.Fatalf("%s register %d: robot %d at %v is off every beam, but a laser hits it: %v", name, reg, single, st.Robots[single].Pos, hits)
					}
				}
			}
		}
	}
	if off < 100 || on < 100 {
		t.Fatalf("robots off the beams %d times, on them %d times: too few to tell", off, on)
	}
	t.Logf("off the beams %d times, on them %d", off, on)
}
