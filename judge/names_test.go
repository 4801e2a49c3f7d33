package judge

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestEveryNameRefusesControlAndBidi: every name that reaches players' mail and the
// operator's terminal is checked, not only a game's name (issue 14 item 9): a new game's
// robot names (CreateGame's callers: the demo, the Go API), an imported game's name and
// the robot names an archive brings (an archive is outside input). JOIN's robot names
// are plain ASCII (robotName), a course is named from the shipped ones only, and
// addresses are plain ASCII (mail.ValidAddress).
func TestEveryNameRefusesControlAndBidi(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	for i, robot := range []string{"Ali\u202Ece", "Esc\x1b[2J", "Zero\u200Bwidth", "C1\u0085"} {
		_, err := f.j.CreateGame(ctx, GameSpec{Tag: fmt.Sprintf("names%d", i), Course: "sprint", Seed: 1,
			Players: []PlayerSpec{{Robot: robot, Email: "alice@example.test"}}})
		if err == nil || !strings.Contains(err.Error(), "not allowed in names") || strings.Contains(err.Error(), robot) {
			t.Errorf("CreateGame with the robot %q: %v", robot, err)
		}
	}
	f.playTurns(1)
	a := f.archiveOf("spring")
	if _, err := f.j.ImportGame(ctx, &a, ImportSpec{Tag: "fork-name", Name: "x\u202Ey", From: 1}); err == nil || !strings.Contains(err.Error(), "bidirectional") {
		t.Errorf("ImportGame with a bidi override in the game's name: %v", err)
	}
	b := f.archiveOf("spring")
	b.Robots[1] = "Hu\u202Elk"
	if _, err := f.j.ImportGame(ctx, &b, ImportSpec{Tag: "fork-robot", From: 1}); err == nil || !strings.Contains(err.Error(), "bidirectional") {
		t.Errorf("ImportGame of an archive with a bidi override in a robot's name: %v", err)
	}
	// the check refuses no plain name
	if _, err := f.j.ImportGame(ctx, &a, ImportSpec{Tag: "fork-ok", Name: "Spring, what if", From: 1}); err != nil {
		t.Errorf("ImportGame with plain names: %v", err)
	}
}
