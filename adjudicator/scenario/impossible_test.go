package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScenarioRefusesImpossibleStates: a scenario whose state no game could reach is
// refused with a clear error naming the file, never played (issue 12).
func TestScenarioRefusesImpossibleStates(t *testing.T) {
	const board = "board:\n  .  .  f1\n  .  X  .\n  .  .  .\n"
	const ok = "robot A at 0,2 facing N\nprogram A: P790 P500 P070 P090 P100\nexpect A: at 0,2\n"
	if _, err := Parse("ok.scn", "seed: 1\n"+board+ok); err != nil {
		t.Fatalf("the base scenario: %v", err)
	}
	tests := []struct {
		name, text, want string
	}{
		{"robot on a pit", board + "robot A at 1,1 facing N\nprogram A: P790 P500 P070 P090 P100\nexpect A: at 1,1\n", "stands on the pit"},
		{"robot off the board", board + "robot A at 5,1 facing N\nprogram A: P790 P500 P070 P090 P100\nexpect A: at 1,1\n", "off the board"},
		{"two robots on a square", board + ok + "robot B at 0,2 facing N\nprogram B: P780 P510 P060 P110 P120\n", "same square"},
		{"damage 10 in play", board + "robot A at 0,2 facing N damage 10 locked P10 P20 P30 P40 P50\nexpect A: at 0,2\n", "10 destroys it"},
		{"lives 0 without out", board + "robot A at 0,2 facing N lives 0\nprogram A: P790 P500 P070 P090 P100\nexpect A: at 0,2\n", "no lives left"},
		{"archive off the board", board + "robot A at 0,2 facing N archive 9,9\nprogram A: P790 P500 P070 P090 P100\nexpect A: at 0,2\n", "archive 9,9 is off the board"},
		{"archive on a pit", board + "robot A at 0,2 facing N archive 1,1\nprogram A: P790 P500 P070 P090 P100\nexpect A: at 0,2\n", "archive 1,1 is a pit"},
		{"more options than the rules allow", "options: Brakes\n" + board + "robot A at 0,2 facing N options: Ablative Coat, Fourth Gear, Recompile, Shield\nprogram A: P790 P500 P070 P090 P100\nexpect A: at 0,2\n", "the rules allow 3"},
		{"an option held twice", board + "robot A at 0,2 facing N options: Brakes, Brakes\nprogram A: P790 P500 P070 P090 P100\nexpect A: at 0,2\n", "every card is in the deck once"},
		{"an option held and in the deck", "options: Brakes\n" + board + "robot A at 0,2 facing N options: Brakes\nprogram A: P790 P500 P070 P090 P100\nexpect A: at 0,2\n", "every card is in the deck once"},
		{"fewer locked cards than the damage locks", board + "robot A at 0,2 facing N damage 6 locked P10\nprogram A: P790 P500 P070 - -\nexpect A: at 0,2\n", "locks 2 registers but 1 locked cards"},
		{"a card held by two robots", board + ok + "robot B at 2,2 facing N\nprogram B: P790 P510 P060 P110 P120\n", "every card is in the deck once"},
		{"duplicate robot names, any case", board + ok + "robot a at 2,2 facing N\nprogram a: P780 P510 P060 P110 P120\n", "two robots are named"},
		{"game: new without start squares", "game: new\n" + board + "robot A\nexpect turn: 1\n", "start squares"},
		{"a huge turn", "turn: 99999999999\n" + board + ok, "turn: want a turn number"},
		{"a line over the cap", "title: " + strings.Repeat("x", MaxLineLen) + "\n" + board + ok, "longer than"},
		{"over the size cap", strings.Repeat("# padding\n", MaxFileSize/10+1) + board + ok, "larger than"},
		// hostile input found by the session-4 attack (issue 14 item 9): a name that
		// rewrites the terminal is refused without being echoed
		{"a bidi override in a robot's name", board + "robot A\u202eB at 0,2 facing N\nprogram A\u202eB: P790 P500 P070 P090 P100\nexpect A: at 0,2\n", "bidirectional override (U+202E)"},
		{"an escape in a robot's name", board + "robot A\x1b[2J at 0,2 facing N\nexpect A: at 0,2\n", "control character"},
		{"destroyed at 0 damage", "rules: destroy_at=0\n" + board + ok, "destroy_at 0"},
		{"no lives", "rules: base_lives=0\n" + board + ok, "base_lives 0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("x.scn", "seed: 1\n"+tc.text)
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "x.scn") || strings.ContainsAny(err.Error(), "\u202e\x1b") {
				t.Errorf("error %q lacks %q (or the file's name first)", err, tc.want)
			}
		})
	}
	t.Run("a byte-order mark is accepted", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "bom.scn")
		if err := os.WriteFile(p, []byte("\uFEFFseed: 1\n"+board+ok), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(p); err != nil {
			t.Fatal(err)
		}
	})
}
