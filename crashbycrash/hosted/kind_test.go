package hosted

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/game"
)

// A whole game through the seam: every move is the autopilot's, written out in words,
// read back by Check and played; the position survives encoding at every step; the
// game ends with standings.
func TestWholeGameThroughTheSeam(t *testing.T) {
	for _, players := range []string{"2", "4"} {
		t.Run(players+" players", func(t *testing.T) {
			k := Kind{}
			cfg, err := k.Configure(map[string]string{"players": players})
			if err != nil {
				t.Fatal(err)
			}
			names := []string{"Ada", "Boris", "Cleo", "Dario"}[:map[string]int{"2": 2, "4": 4}[players]]
			pos, err := k.Start(cfg, names, 11)
			if err != nil {
				t.Fatal(err)
			}
			turns := 0
			for ; !pos.Over() && turns < 2000; turns++ {
				due := pos.Due()
				if len(due) != 1 {
					t.Fatalf("turn %d: due %v, want one seat", turns, due)
				}
				m := pos.Autopilot(due[0], int64(turns))
				ch := pos.Check(due[0], m.Text)
				if !ch.OK() {
					t.Fatalf("turn %d: the autopilot's move %q does not read back: %v", turns, m.Text, ch.Problems)
				}
				if other := (due[0] + 1) % len(names); pos.Check(other, m.Text).OK() {
					t.Fatalf("turn %d: a move out of turn was accepted", turns)
				}
				res, err := pos.Play(map[int]game.Move{due[0]: ch.Move}, game.TurnSeed(11, turns+1))
				if err != nil {
					t.Fatalf("turn %d: %v", turns, err)
				}
				b, err := res.Next.Encode()
				if err != nil {
					t.Fatal(err)
				}
				if pos, err = k.Load(cfg, b); err != nil {
					t.Fatalf("turn %d: the position does not load back: %v", turns, err)
				}
				b2, _ := pos.Encode()
				if !bytes.Equal(b, b2) {
					t.Fatalf("turn %d: encode, load, encode differs", turns)
				}
				rep := pos.Report(due[0], res.Events)
				if !strings.Contains(rep.Text, "Your cards") || rep.Subject == "" {
					t.Fatalf("turn %d: report %q", turns, rep.Text)
				}
			}
			if !pos.Over() {
				t.Fatalf("no end after %d turns", turns)
			}
			st := pos.Standings()
			if len(st) != len(names) || st[0].Rank != 1 {
				t.Errorf("standings %+v", st)
			}
			t.Logf("%d turns; %+v", turns, st)
		})
	}
}

func TestConfigureRefusesWhatItDoesNotKnow(t *testing.T) {
	for _, kv := range []map[string]string{{"players": "3"}, {"colour": "red"}, {"first-event-turn": "x"}} {
		if _, err := (Kind{}).Configure(kv); err == nil {
			t.Errorf("%v accepted", kv)
		}
	}
	// of two bad settings, the same is named every time (a map's order named either)
	for i := 0; i < 20; i++ {
		_, err := (Kind{}).Configure(map[string]string{"players": "3", "colour": "red", "first-event-turn": "x", "zzz": "1"})
		if err == nil || !strings.Contains(err.Error(), `"colour"`) {
			t.Fatalf("refused with %v; want colour, the first bad key", err)
		}
	}
}

func TestLoadRefusesHostileBytes(t *testing.T) {
	k := Kind{}
	cfg, _ := k.Configure(nil)
	for _, b := range []string{"", "{", `{"names":["a"],"state":{}}`, `{"names":["a","b"],"state":null}`, `[]`} {
		if _, err := k.Load(cfg, []byte(b)); err == nil {
			t.Errorf("%q loaded", b)
		}
	}
}
