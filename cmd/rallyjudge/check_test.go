package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// savedTurnFile writes a --state file for the shipped sprint course with a fresh game.
func savedTurnFile(t *testing.T) (path string, hand []int) {
	t.Helper()
	c, err := adjudicator.LoadCourse("sprint")
	if err != nil {
		t.Skipf("shipped course: %v", err)
	}
	setup, err := adjudicator.NewSetup(c, adjudicator.PostalRules(), 42, adjudicator.DealtOptions(adjudicator.DeckBoth))
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := adjudicator.NewGame(setup, []string{"Fred", "Zoë"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(savedTurn{Course: "sprint", Seed: 42, State: st})
	if err != nil {
		t.Fatal(err)
	}
	path = filepath.Join(t.TempDir(), "turn.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, st.Robots[0].Hand
}

func writeSheet(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCheckExitStatus(t *testing.T) {
	state, hand := savedTurnFile(t)
	var prog []string
	for _, c := range hand[:5] {
		prog = append(prog, "P"+itoa(c))
	}
	good := writeSheet(t, "good.txt", "Fred Turn 1\r\nSecret: hunter2\r\n"+strings.Join(prog, " ")+"\r\nreenter facing toward the next flag\r\n")
	bad := writeSheet(t, "bad.txt", "Fred Turn 1\nP495 Q1 P2\nif damgae > 3 power down\n")
	notHand := writeSheet(t, "nothand.txt", "Fred Turn 2\nP495 P490 P500 P510 P520\n")
	for _, tc := range []struct {
		name string
		args []string
		code int
		out  []string // substrings of stdout
	}{
		{"parse only", []string{good}, 0, []string{`"robot": "Fred"`, `"secret": "(hidden)"`}},
		{"syntax errors", []string{bad}, 1, []string{"bad.txt:2:6: error:", "bad.txt:3:4: error:", `did you mean "damage"?`}},
		{"valid with state", []string{good, "--state", state}, 0, []string{"valid", "Forecast for Fred, turn 1"}},
		{"flag first", []string{"--state", state, good}, 0, []string{"register 5"}},
		{"invalid with state", []string{notHand, "--state", state}, 1, []string{"this sheet is for turn 2, but the turn to play is 1", "P495 is not a card"}},
		{"unreadable sheet", []string{filepath.Join(t.TempDir(), "missing.txt")}, 2, nil},
		{"unreadable state", []string{good, "--state", filepath.Join(t.TempDir(), "none.json")}, 2, nil},
		{"usage", []string{}, 2, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := cmdCheck(tc.args, &out, &errb)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out.String(), errb.String())
			}
			for _, s := range tc.out {
				if !strings.Contains(out.String(), s) {
					t.Errorf("stdout lacks %q:\n%s", s, out.String())
				}
			}
			if strings.Contains(out.String()+errb.String(), "hunter2") {
				t.Error("the secret was printed")
			}
		})
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
