package main

import (
	"bytes"
	"strings"
	"testing"
)

// `rallyjudge demo --rules 2023 --variants less-spammy` (README, docs/gamemasters.md):
// four autopilot bots play a whole 2023 game by mail on docking-run, the course the
// 2023 rules default to, to a winner; a variant that is not seed 004's is refused.
func TestDemo2023PlaysToWinner(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole game through the mail servers")
	}
	var out, errs bytes.Buffer
	if rc := cmdDemo([]string{"--rules", "2023", "--variants", "less-spammy", "--turns", "40", "--seed", "3"}, &out, &errs); rc != 0 {
		t.Fatalf("exit %d: %s\n%s", rc, errs.String(), out.String())
	}
	for _, want := range []string{"course docking-run", "wins the race.", "checkpoints", "energy"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the demo's output lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "Option cards used") {
		t.Errorf("a 2023 game's bots use upgrades, and the demo calls them option cards:\n%s", out.String())
	}
	out.Reset()
	errs.Reset()
	if rc := cmdDemo([]string{"--rules", "2023", "--variants", "bio-bots"}, &out, &errs); rc == 0 || !strings.Contains(errs.String(), "not a variant of the 2023 rules") {
		t.Errorf("--rules 2023 --variants bio-bots: exit %d, %s", rc, errs.String())
	}
}

// `rallyjudge demo --set players=2` raced four robots: RoboRally's demo took --set and
// played none of it. --set is the hosted games' (--game crash-by-crash --set players=4);
// RoboRally's demo refuses it and names the flags it takes, before any server starts.
func TestDemoRefusesSetItWouldNotPlay(t *testing.T) {
	var out, errs bytes.Buffer
	if rc := cmdDemo([]string{"--set", "players=2"}, &out, &errs); rc != 2 || !strings.Contains(errs.String(), "--set is for --game crash-by-crash") {
		t.Errorf("demo --set players=2: exit %d, %q; want 2 and the games --set is for", rc, errs.String())
	}
	if out.Len() != 0 {
		t.Errorf("demo --set players=2 started a game:\n%s", out.String())
	}
}
