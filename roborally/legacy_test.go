package roborally

import (
	"encoding/json"
	"testing"

	"github.com/rallyjudge/rallyjudge/game"
)

// oldGame is a game as the judge's older path stored it after one turn: the bare
// states, the engine's events, the orders played, a version of the turn's sheet.
func oldGame(t testing.TB) (game.LegacyGame, Config) {
	k := Kind{}
	c, err := k.Configure(nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := c.(Config)
	pos, err := k.Start(cfg, []string{"Ada", "Boris"}, 5)
	if err != nil {
		t.Fatal(err)
	}
	p := pos.(*position)
	text := ""
	for _, c := range p.State.Robots[0].Hand[:5] {
		text += "P" + itoa(c) + "\n"
	}
	sheet := p.Check(0, text+"if damage > 2 power down\n")
	if !sheet.OK() {
		t.Fatalf("%+v", sheet.Problems)
	}
	res, err := p.Play(map[int]game.Move{0: sheet.Move, 1: p.Autopilot(1, 1)}, 1)
	if err != nil {
		t.Fatal(err)
	}
	var o outcome
	_ = json.Unmarshal(res.Events, &o)
	after0, _ := json.Marshal(p.State)
	after1, _ := json.Marshal(res.Next.(*position).State)
	events, _ := json.Marshal(o.Events)
	played, _ := json.Marshal(o.Played)
	var mv move
	_ = json.Unmarshal(sheet.Move.Data, &mv)
	parsed, _ := json.Marshal(mv.Sheet)
	return game.LegacyGame{Tag: "spring", Course: cfg.CourseName, Rules: []byte("{}"), Seed: 5, Seats: []string{"Ada", "Boris"},
		Turns: []game.LegacyTurn{
			{Number: 0, After: after0, Events: []byte("[]")},
			{Number: 1, Before: after0, After: after1, Events: events, Orders: played},
		},
		Versions: []game.LegacyVersion{{Turn: 1, Seat: 0, Parsed: parsed}},
	}, cfg
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// Adopt reads hostile stored bytes (a turn's state, events and orders played, an order
// version) without a panic, and what it adopts loads and plays.
func FuzzAdopt(f *testing.F) {
	old, _ := oldGame(f)
	t1 := old.Turns[1]
	f.Add(t1.After, t1.Events, t1.Orders, old.Versions[0].Parsed)
	f.Add([]byte(`{"robots":[{}]}`), []byte(`[{}]`), []byte(`[{"robot":"Ada","missed":"x"}]`), []byte(`{"program":[{"p":1}]}`))
	k := Kind{}
	f.Fuzz(func(t *testing.T, after, events, played, parsed []byte) {
		g := old
		g.Turns = append([]game.LegacyTurn(nil), old.Turns...)
		g.Versions = append([]game.LegacyVersion(nil), old.Versions...)
		g.Turns[1].After, g.Turns[1].Events, g.Turns[1].Orders, g.Versions[0].Parsed = after, events, played, parsed
		got, err := k.Adopt(g)
		if err != nil {
			return
		}
		c, err := k.LoadConfig(got.Config)
		if err != nil {
			t.Fatalf("adopted settings do not load: %v", err)
		}
		for i, at := range got.Turns {
			p, err := k.Load(c, at.After)
			if err != nil {
				t.Fatalf("adopted turn %d does not load: %v", i, err)
			}
			_ = p.Due()
		}
	})
}

// The adopted game is the game Play makes: the same state, and the standing orders
// of the sheet played.
func TestAdoptIsPlay(t *testing.T) {
	old, cfg := oldGame(t)
	k := Kind{}
	got, err := k.Adopt(old)
	if err != nil {
		t.Fatal(err)
	}
	p, err := k.Load(cfg, got.Turns[1].After)
	if err != nil {
		t.Fatal(err)
	}
	pos := p.(*position)
	st, _ := json.Marshal(pos.State)
	if string(st) != string(old.Turns[1].After) {
		t.Fatal("the adopted state is not the stored one")
	}
	if pos.Standing[0] == nil || len(pos.Standing[0].Rules) != 1 || pos.Standing[1] != nil {
		t.Fatalf("standing orders adopted: %+v", pos.Standing)
	}
	if len(got.Turns[1].Played) != 2 || !got.Turns[1].Played[1].Missed || got.Turns[1].Played[0].Missed {
		t.Fatalf("moves adopted: %+v", got.Turns[1].Played)
	}
}
