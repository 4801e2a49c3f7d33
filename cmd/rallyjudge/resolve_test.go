package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
