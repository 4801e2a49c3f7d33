package render

import (
	"math/rand/v2"
	"slices"
	"testing"

	cbc "github.com/rallyjudge/rallyjudge/crashbycrash"
)

func cell(t *testing.T, s string) cbc.Cell {
	t.Helper()
	c, err := cbc.ParseCell(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestTraceTrails: each car is followed from where it was to where it ended, through
// pushes, pulls, swaps and falls.
func TestTraceTrails(t *testing.T) {
	s, err := cbc.NewGame(cbc.Settings{Players: 2}, 1)
	if err != nil {
		t.Fatal(err)
	}
	l := newLayout(1, 0)
	c := func(n string) cbc.Cell { return cell(t, n) }
	type want struct {
		side   int
		path   string
		pushed bool
		placed bool
		gone   bool
		off    cbc.Dir
	}
	for _, tc := range []struct {
		name string
		evs  []cbc.Event
		want []want
	}{
		{"a push then a pull is one way, dashed", []cbc.Event{
			{Kind: cbc.EvPlace, Side: 0, To: c("C4")},
			{Kind: cbc.EvPush, Side: 1, From: c("C5"), To: c("C6")},
			{Kind: cbc.EvPush, Side: 1, From: c("C6"), To: c("C7")},
			{Kind: cbc.EvPull, Side: 1, From: c("C7"), To: c("D7")},
		}, []want{{0, "C4", false, true, false, 0}, {1, "C5 C6 C7 D7", true, false, false, 0}}},
		{"a pull alone is solid", []cbc.Event{
			{Kind: cbc.EvPull, Side: 0, From: c("E5"), To: c("E6")},
		}, []want{{0, "E5 E6", false, false, false, 0}}},
		{"pushed off the board", []cbc.Event{
			{Kind: cbc.EvPush, Side: 1, From: c("A2"), To: c("A1")},
			{Kind: cbc.EvFall, Side: 1, From: c("A1")},
		}, []want{{1, "A2 A1", true, false, true, cbc.N}}},
		{"pushed off by a placed car's line", []cbc.Event{
			{Kind: cbc.EvPlace, Side: 0, To: c("F4")},
			{Kind: cbc.EvFall, Side: 1, From: c("I6")},
		}, []want{{0, "F4", false, true, false, 0}, {1, "I6", true, false, true, cbc.SE}}},
		{"pushed off by the operator, who then steps", []cbc.Event{
			{Kind: cbc.EvFall, Side: 0, From: c("H1")},
			{Kind: cbc.EvOperator, From: c("H3"), To: c("H2"), Dir: cbc.N},
		}, []want{{0, "H1", true, false, true, cbc.N}}},
		{"a swap crosses two ways", []cbc.Event{
			{Kind: cbc.EvPull, Side: 0, From: c("G3"), To: c("G4")},
			{Kind: cbc.EvSwap, From: c("G4"), To: c("H5")},
		}, []want{{0, "G3 G4 H5", false, false, false, 0}, {s.Board[c("G4")].Side(), "H5 G4", false, false, false, 0}}},
		{"a car on a removed tile", []cbc.Event{
			{Kind: cbc.EvReturned, Side: 1, From: c("K2")},
		}, []want{{1, "K2", false, false, true, cbc.NoDir}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := traceTrails(tc.evs, l, s)
			var got []want
			for _, k := range tr.cars {
				var names []string
				for _, p := range k.path {
					names = append(names, p.String())
				}
				got = append(got, want{k.side, join(names), k.pushed, k.placed, k.gone, k.off})
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// TestOperatorWalk: the operator's walk starts where it stood, and a walk out of a hole
// starts in the only hole next to the first cell.
func TestOperatorWalk(t *testing.T) {
	s, err := cbc.NewGame(cbc.Settings{Players: 2}, 1)
	if err != nil {
		t.Fatal(err)
	}
	l := newLayout(1, 0)
	tr := traceTrails([]cbc.Event{
		{Kind: cbc.EvOperator, From: cell(t, "F5"), To: cell(t, "F6")},
		{Kind: cbc.EvOperator, From: cell(t, "F6"), To: cell(t, "G6")},
	}, l, s)
	if want := []pt{l.token(cell(t, "F5")), l.token(cell(t, "F6")), l.token(cell(t, "G6"))}; !slices.Equal(tr.op, want) {
		t.Fatalf("walk %v, want %v", tr.op, want)
	}
	h := *s
	sl := cbc.SlotOf(cell(t, "H7"))
	h.Holes |= 1 << uint(sl)
	var first cbc.Cell
	for d := cbc.N; d <= cbc.NW; d++ {
		for _, in := range cbc.SlotCells(sl) {
			if n := cbc.Next(in, d); n != cbc.NoCell && h.Present(n) && first == cbc.NoCell {
				first = n
			}
		}
	}
	tr = traceTrails([]cbc.Event{{Kind: cbc.EvOperator, From: cbc.NoCell, To: first}}, l, &h)
	if want := []pt{l.slotCentre(sl), l.token(first)}; !slices.Equal(tr.op, want) {
		t.Fatalf("walk out of the hole %v, want %v", tr.op, want)
	}
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out
}

// TestTrailsFollowRealGames: in whole seeded games, after every move each car the trails
// say is still on the board stands on its track's last cell, in its side's colour, and
// every car that moved in the move has a track; each picture draws.
func TestTrailsFollowRealGames(t *testing.T) {
	l := newLayout(1, 0)
	for _, seed := range []uint64{3, 4} {
		players := 2 + 2*int(seed%2)
		s, err := cbc.NewGame(cbc.Settings{Players: players}, seed)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(seed, 9))
		ntr := 0
		for moves := 0; !s.Over() && moves < 200; moves++ {
			before := *s
			n, evs, err := cbc.Apply(s, s.ToMove, randomMove(t, s, r))
			if err != nil {
				t.Fatal(err)
			}
			s = n
			tr := traceTrails(evs, l, s)
			ntr += len(tr.cars)
			ended := map[cbc.Cell]bool{}
			for _, k := range tr.cars {
				last := k.path[len(k.path)-1]
				if k.gone {
					continue
				}
				ended[last] = true
				if p := s.Board[last]; !p.IsCar() || p.Side() != k.side {
					t.Fatalf("seed %d move %d: a track of side %d ends on %s, which holds piece %d\n%s", seed, moves, k.side, last, p, cbc.Narrate(evs))
				}
			}
			for c := cbc.Cell(1); c <= cbc.MaxCell; c++ {
				if p := s.Board[c]; p.IsCar() && before.Board[c] != p && !ended[c] {
					t.Fatalf("seed %d move %d: the car on %s came in the move but no track ends there\n%s", seed, moves, c, cbc.Narrate(evs))
				}
			}
			if moves%25 == 0 {
				if _, err := draw(s, Options{Scale: 0.25, Trails: evs, Highlight: touched(evs)}); err != nil {
					t.Fatal(err)
				}
			}
		}
		if ntr < 50 {
			t.Fatalf("seed %d: only %d tracks followed", seed, ntr)
		}
	}
}
