package render

import (
	"bytes"
	"encoding/json"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	cbc "github.com/rallyjudge/rallyjudge/crashbycrash"
)

var (
	update   = flag.Bool("update", false, "rewrite testdata: the positions (played afresh) and the golden pictures")
	pictures = flag.String("pictures", "", "also write each test picture into this directory, to look at")
)

// position is a fixture: a state, the last move's events and the cells it touched.
type position struct {
	State     json.RawMessage `json:"state"`
	Events    []cbc.Event     `json:"events"`
	Highlight []cbc.Cell      `json:"highlight"`
}

// fixtures are the positions the golden pictures show, each played by seeded random
// legal moves until want says it is reached.
var fixtures = []struct {
	name    string
	players int
	seed    uint64
	want    func(s *cbc.State, moves int) bool
}{
	{"newgame", 2, 7, func(s *cbc.State, moves int) bool { return true }},
	{"midgame", 2, 7, func(s *cbc.State, moves int) bool { return s.Phase == cbc.PhasePlay && moves >= 20 }},
	{"holes", 2, 11, func(s *cbc.State, moves int) bool { return s.Events >= 3 || s.Over() }},
	// the team game's last move: the operator pushes a car off into a hole, a bell rings,
	// the tile goes with its cars, the game ends in a tie
	{"teamover", 4, 21, func(s *cbc.State, moves int) bool { return s.Over() }},
}

// randomMove picks a random legal move for the seat to move.
func randomMove(t testing.TB, s *cbc.State, r *rand.Rand) cbc.Move {
	acts := s.LegalActions()
	a := acts[r.IntN(len(acts))]
	if s.Phase == cbc.PhaseSetup {
		return cbc.Move{Actions: []cbc.Action{a}}
	}
	sec, err := s.LegalSeconds(a)
	if err != nil {
		t.Fatal(err)
	}
	m := cbc.Move{Actions: []cbc.Action{a}}
	if len(sec) > 0 {
		m.Actions = append(m.Actions, sec[r.IntN(len(sec))])
	} else {
		m.Actions = append(m.Actions, cbc.Action{Kind: cbc.ActPass})
	}
	return m
}

// play plays seeded random moves from a new game until want holds.
func play(t testing.TB, players int, seed uint64, want func(*cbc.State, int) bool) (*cbc.State, []cbc.Event) {
	s, err := cbc.NewGame(cbc.Settings{Players: players}, seed)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 2))
	var evs []cbc.Event
	for moves := 0; !want(s, moves); moves++ {
		if s.Over() || moves > 600 {
			t.Fatalf("seed %d: the wanted position never came (%d moves)", seed, moves)
		}
		n, e, err := cbc.Apply(s, s.ToMove, randomMove(t, s, r))
		if err != nil {
			t.Fatal(err)
		}
		s, evs = n, e
	}
	return s, evs
}

// touched lists the board cells a move's events name, once each, in order.
func touched(evs []cbc.Event) []cbc.Cell {
	var out []cbc.Cell
	seen := map[cbc.Cell]bool{}
	for _, e := range evs {
		for _, c := range []cbc.Cell{e.From, e.To} {
			if cbc.OnBoard(c) && !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	return out
}

// load reads a fixture (writing it afresh with -update).
func load(t testing.TB, name string, players int, seed uint64, want func(*cbc.State, int) bool) (*cbc.State, Options) {
	t.Helper()
	path := filepath.Join("testdata", name+".json")
	if *update {
		s, evs := play(t, players, seed, want)
		js, err := s.Encode()
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.MarshalIndent(position{State: js, Events: evs, Highlight: touched(evs)}, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var p position
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	s, err := cbc.Decode(p.State)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return s, Options{Highlight: p.Highlight, Trails: p.Events}
}

// TestGolden compares each fixture's picture with testdata/NAME.png (-update rewrites).
func TestGolden(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			s, o := load(t, fx.name, fx.players, fx.seed, fx.want)
			got, err := Board(s, o)
			if err != nil {
				t.Fatal(err)
			}
			if *pictures != "" {
				if err := os.WriteFile(filepath.Join(*pictures, fx.name+".png"), got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			golden := filepath.Join("testdata", fx.name+".png")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s: the picture differs from %s (%d bytes, golden %d); look, then go test -update", fx.name, golden, len(got), len(want))
			}
			t.Logf("%s: %d bytes", fx.name, len(got))
		})
	}
}
