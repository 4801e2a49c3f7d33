package hosted

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/game"
)

// FuzzCheck: a player's mail, whatever it holds, is read without a panic, and every
// problem names a line of the text (or none).
func FuzzCheck(f *testing.F) {
	for _, s := range []string{"place C5\npass", "actions:\n  - place D9\n  - pass\n", "exchange Tandem Saboteur: face-up 2, deck\nplay Lambada C4 C5\ndraw face-up 1",
		"operator D2 D3 D4 D5", "place A1 push NE 2 accumulators\nmagnet C5", "actions: [[[", "\x00", "place D9 push S -1 accumulators\npass"} {
		f.Add(s)
	}
	p := inPlay(f, 3)
	f.Fuzz(func(t *testing.T, text string) {
		ch := p.Check(p.State.ToMove, text)
		n := strings.Count(text, "\n") + 1
		for _, pr := range ch.Problems {
			if pr.Line < 0 || pr.Line > n || pr.Msg == "" {
				t.Errorf("%q: problem %+v (the text has %d lines)", text, pr, n)
			}
		}
	})
}

// FuzzPlayHostileMove: an archive's move data is hostile (ReplayHosted hands it to Play):
// an error, never a panic.
func FuzzPlayHostileMove(f *testing.F) {
	for _, s := range []string{`{"Actions":[{"Kind":0,"Cell":"D9","Push":[3],"Acc":9}]}`, `{"Actions":[{"Kind":2,"Card":200,"Cells":["A1","Z9"]},{"Kind":9}]}`,
		`{"Actions":[{"Kind":4,"Give":[255,0],"From":[-5,99]},{"Kind":3,"Cells":[]}],"Draw":[7,-1],"Keep":[99]}`,
		`{"Actions":[{"Kind":1,"Cell":"O13"},{"Kind":0,"Cell":"A1","Push":[0,1,2,3,4,5,6,7],"NoPush":true,"Acc":-3}]}`} {
		f.Add(s)
	}
	p := inPlay(f, 3)
	f.Fuzz(func(t *testing.T, data string) {
		if !json.Valid([]byte(data)) {
			return
		}
		_, _ = p.Play(map[int]game.Move{p.State.ToMove: {Data: json.RawMessage(data), Text: "x"}}, 1)
	})
}
