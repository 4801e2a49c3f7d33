package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/orders"
)

const passing = `title: Move 1
source: seed 003, Program Cards
seed: 1
board:
  .  .  f1
  .  .  .
robot A at 1,1 facing N
program A: P490 P070 P080 P090 P100
stop: after register 1
expect A: at 1,0 facing N
`

func TestResolve(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name, text string
		args       []string
		code       int
		stderr     string
	}{
		{"holds", passing, nil, 0, ""},
		{"fails", strings.Replace(passing, "at 1,0", "at 2,0", 1), nil, 1, "got A at 1,0"},
		{"bad-line", strings.Replace(passing, "seed: 1", "seed: x", 1), nil, 2, "bad-line.scn:3: seed"},
		{"bad-board", strings.Replace(passing, "  .  .  f1", "  .  q  f1", 1), nil, 2, "bad-board.scn:5"},
		{"missing", "", []string{filepath.Join(dir, "nope.scn")}, 2, "nope.scn"},
		{"no-args", "", []string{}, 2, "usage"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := tc.args
			if args == nil {
				args = []string{write(tc.name+".scn", tc.text)}
			}
			var out, errb bytes.Buffer
			code := cmdResolve(args, &out, &errb)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tc.code, errb.String())
			}
			if !strings.Contains(errb.String(), tc.stderr) {
				t.Errorf("stderr %q does not mention %q", errb.String(), tc.stderr)
			}
			if code == 2 {
				return
			}
			var res struct {
				State struct {
					Robots []struct {
						Name string         `json:"name"`
						Pos  map[string]int `json:"pos"`
					} `json:"robots"`
				} `json:"state"`
				Events []map[string]any `json:"events"`
			}
			if err := json.Unmarshal(out.Bytes(), &res); err != nil {
				t.Fatalf("stdout is not JSON: %v\n%s", err, out.String())
			}
			if len(res.State.Robots) != 1 || res.State.Robots[0].Pos["y"] != 0 || len(res.Events) == 0 {
				t.Errorf("unexpected result: %+v", res)
			}
		})
	}
}

// TestResolveShippedScenario runs one file of the suite through the command.
func TestResolveShippedScenario(t *testing.T) {
	var out, errb bytes.Buffer
	if code := cmdResolve([]string{"../../adjudicator/testdata/scenarios/124-win.scn"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !bytes.Contains(out.Bytes(), []byte(`"winner": "A"`)) {
		t.Errorf("no winner in output:\n%s", out.String())
	}
}

// sprintTurn is a new two-robot game on sprint (seed 9, both option decks dealt), each
// robot playing the first five cards of its hand.
func sprintTurn(t testing.TB) (*adjudicator.Setup, *adjudicator.State, []orders.Played) {
	t.Helper()
	c, err := adjudicator.LoadCourse("sprint")
	if err != nil {
		t.Fatal(err)
	}
	setup, err := adjudicator.NewSetup(c, adjudicator.PostalRules(), 9, adjudicator.DealtOptions(adjudicator.DeckBoth))
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := adjudicator.NewGame(setup, []string{"Ann", "Ben"})
	if err != nil {
		t.Fatal(err)
	}
	played := make([]orders.Played, len(st.Robots))
	for i, r := range st.Robots {
		played[i].Robot = r.Name
		copy(played[i].Program[:], r.Hand[:5])
	}
	return setup, st, played
}

// TestResolveSavedTurn: a saved turn (state before, every robot's orders as the judge
// records them) resolves to the same state as the engine gives, and a wrong expected
// hash exits 1.
func TestResolveSavedTurn(t *testing.T) {
	setup, st, played := sprintTurn(t)
	ords := make([]adjudicator.Orders, len(played))
	for i := range played {
		ords[i] = played[i].Orders()
	}
	next, _, err := adjudicator.Resolve(setup, st, ords)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(next)
	sum := sha256.Sum256(want)
	for _, tc := range []struct {
		hash string
		code int
	}{{hex.EncodeToString(sum[:]), 0}, {strings.Repeat("0", 64), 1}} {
		b, _ := json.Marshal(savedTurn{Course: "sprint", Seed: 9, State: st, Orders: played, Hash: tc.hash})
		path := filepath.Join(t.TempDir(), "turn.json")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		if code := cmdResolve([]string{path}, &out, &errb); code != tc.code {
			t.Fatalf("exit %d, want %d: %s", code, tc.code, errb.String())
		}
		var got struct {
			State json.RawMessage `json:"state"`
		}
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		var a adjudicator.State
		json.Unmarshal(got.State, &a)
		if ga, _ := json.Marshal(a); !bytes.Equal(ga, want) {
			t.Fatalf("resolve's state differs from the engine's")
		}
	}
}
