package archive

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/game/gametest"
)

// nimGame plays a Nim game with the autopilot and gives its archive as the judge
// would write it.
func nimGame(t *testing.T) Hosted {
	t.Helper()
	k := gametest.Nim{}
	cfg, err := k.Configure(map[string]string{"pile": "11"})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := cfg.Encode()
	h := Hosted{Kind: "nim", Game: "pile", Config: raw, Seed: 5, Seats: []string{"Ann", "Bob"}}
	pos, err := k.Start(cfg, h.Seats, h.Seed)
	if err != nil {
		t.Fatal(err)
	}
	sum, _ := HashPosition(pos)
	h.Turns = append(h.Turns, HostedTurn{Turn: 0, Hash: sum})
	for n := 1; !pos.Over(); n++ {
		seat := pos.Due()[0]
		m := pos.Autopilot(seat, 0)
		res, err := pos.Play(map[int]game.Move{seat: m}, game.TurnSeed(h.Seed, n))
		if err != nil {
			t.Fatal(err)
		}
		pos = res.Next
		sum, _ := HashPosition(pos)
		h.Turns = append(h.Turns, HostedTurn{Turn: n, Moves: []HostedMove{{Seat: seat, Move: m}}, Hash: sum})
	}
	return h
}

func TestHostedArchiveRoundTripsAndReplays(t *testing.T) {
	h := nimGame(t)
	var a, b bytes.Buffer
	if err := WriteHosted(&a, h); err != nil {
		t.Fatal(err)
	}
	if !IsHosted(a.Bytes()) {
		t.Fatalf("IsHosted is false for %q", a.String()[:40])
	}
	got, err := ReadHosted(bytes.NewReader(a.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteHosted(&b, got); err != nil || !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatalf("read and written again, the archive differs (%v)", err)
	}
	steps := 0
	if err := ReplayHosted(&got, game.Catalog{gametest.Nim{}}, func(s HostedStep) error { steps++; return nil }); err != nil {
		t.Fatal(err)
	}
	if steps != len(h.Turns) {
		t.Errorf("replayed %d steps of %d", steps, len(h.Turns))
	}
	// a move changed: the turn it changes is named
	got.Turns[2].Moves[0].Move.Data = []byte(`{"take":3}`)
	var re *ReplayError
	if err := ReplayHosted(&got, game.Catalog{gametest.Nim{}}, nil); !errors.As(err, &re) || re.Turn != 2 {
		t.Errorf("a changed move replayed with %v, want a replay error at turn 2", err)
	}
}

func TestReadHostedRefusesHostileArchives(t *testing.T) {
	var ok bytes.Buffer
	if err := WriteHosted(&ok, nimGame(t)); err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(ok.String(), "\n")
	for _, c := range []struct{ name, text, want string }{
		{"empty", "", "empty file"},
		{"other magic", "rallyjudge-archive 1\n", "not an archive of a hosted game"},
		{"no header", lines[0], "no header"},
		{"bad header", lines[0] + "{\"kind\":\"nim\"\n", "line 2"},
		{"no seats", lines[0] + strings.Replace(lines[1], `"seats":["Ann","Bob"]`, `"seats":[]`, 1), "seats"},
		{"cut short", strings.Join(lines[:3], ""), "cut short"},
		{"turn misnumbered", lines[0] + lines[1] + strings.Replace(lines[2], `"turn":0`, `"turn":7`, 1), "numbered 7"},
		{"move of no seat", strings.Join(lines[:3], "") + strings.Replace(lines[3], `"seat":`, `"seat":9`, 1), "no such seat"},
	} {
		_, err := ReadHosted(strings.NewReader(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want it to say %q", c.name, err, c.want)
		}
	}
}

func FuzzReadHosted(f *testing.F) {
	f.Add([]byte(HostedMagic + " 1\n{\"kind\":\"nim\",\"game\":\"g\",\"config\":{},\"seed\":1,\"seats\":[\"A\"],\"turns\":1}\n{\"turn\":0,\"hash\":\"" + strings.Repeat("a", 64) + "\"}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := ReadHosted(bytes.NewReader(b))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := WriteHosted(&out, h); err != nil {
			t.Fatalf("an archive read is refused when written: %v", err)
		}
		_ = ReplayHosted(&h, game.Catalog{gametest.Nim{}}, nil) // never panics
	})
}
