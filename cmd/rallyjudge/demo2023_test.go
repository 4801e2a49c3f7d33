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
