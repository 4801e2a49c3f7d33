package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Names that are not there are answered with the near ones, whatever their case and
// accents, and nothing else: no JSON of the sheet printed before the error (issue 22:
// `check --game <unknown>` printed "{}" first), no internal prefix ("store:",
// "forecast:", "adjudicator:"). Games, robots, cards and courses.
func TestCheckNamesNearMatches(t *testing.T) {
	db := judgeDB(t, 1) // game cli: Twonky and Zoombot, turn 2
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	empty := write("empty.txt", "")
	prog := write("prog.txt", "P490 P70 P80 P100 P430\n")
	card := write("card.txt", "robot Twonky\nuse Brakess\n")
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		want   string // on stderr, or stdout when the sheet is at fault
		stdout bool
	}{
		{"unknown game, empty sheet", []string{"check", empty, "--db", db, "--game", "clii"}, 2, `there is no game "clii" here; did you mean cli?`, false},
		{"unknown game, a program", []string{"check", prog, "--db", db, "--game", "CLÍ"}, 2, `did you mean cli?`, false},
		{"no game near", []string{"check", prog, "--db", db, "--game", "xyzzy"}, 2, `the games here are: cli`, false},
		{"unknown robot", []string{"check", prog, "--db", db, "--game", "cli", "--robot", "Twinky"}, 1, `did you mean Twonky?`, true},
		{"unknown card", []string{"check", card, "--db", db, "--game", "cli"}, 1, `did you mean Brakes?`, true},
		{"unknown course", []string{"board", "show", "sprnt"}, 2, `did you mean sprint?`, false},
		{"unknown course, demo", []string{"demo", "--course", "Sprnt"}, 1, `there is no shipped course "Sprnt"; did you mean sprint?`, false},
		{"unknown course, game create", []string{"game", "create", "--db", filepath.Join(dir, "new.db"), "--address", "j@example.test", "--game", "g", "--course", "SPRÍNT"}, 1, `did you mean sprint?`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCmd(tc.args...)
			where := errs
			if tc.stdout {
				where = out
			}
			if code != tc.code || !strings.Contains(strings.ToLower(where), strings.ToLower(tc.want)) {
				t.Fatalf("exit %d, want %d and %q\nstdout:\n%s\nstderr:\n%s", code, tc.code, tc.want, out, errs)
			}
			if tc.code == 2 && tc.args[0] == "check" && out != "" {
				t.Errorf("printed before the error:\n%s", out)
			}
			for _, prefix := range []string{"store:", "forecast:", "adjudicator:", "judge:", "sql", "game demo:"} {
				if strings.Contains(out+errs, prefix) {
					t.Errorf("an internal prefix %q:\n%s%s", prefix, out, errs)
				}
			}
		})
	}
	// Zoë is Twonky's neighbour in no way, but a robot written in other case and
	// accents is the robot: TWÖNKY checks as Twonky.
	if code, out, errs := runCmd("check", prog, "--db", db, "--game", "cli", "--robot", "TWÖNKY"); strings.Contains(out+errs, "no robot") {
		t.Errorf("TWÖNKY is not taken for Twonky: exit %d\n%s%s", code, out, errs)
	}
}
