package gametest

import (
	"testing"

	"github.com/rallyjudge/rallyjudge/game"
)

var _ game.Kind = Nim{}

func TestNimPlaysToAWinner(t *testing.T) {
	k := Nim{}
	c, err := k.Configure(map[string]string{"pile": "5"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := k.Start(c, []string{"Ann", "Bob"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for !p.Over() {
		due := p.Due()
		if len(due) != 1 {
			t.Fatalf("due %v", due)
		}
		res, err := p.Play(map[int]game.Move{due[0]: p.Autopilot(due[0], 0)}, 0)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := res.Next.Encode()
		if p, err = k.Load(c, b); err != nil {
			t.Fatal(err)
		}
	}
	// 5 counters: Ann (seat 0, seed 0 moves first) takes 1, then wins
	if st := p.Standings(); st[0].Seat != 0 || st[0].Rank != 1 {
		t.Errorf("standings %+v, want Ann first", st)
	}
	if ch := p.Check(0, "take 4"); ch.OK() {
		t.Errorf("take 4 accepted")
	}
}
