package judge

import (
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/store"
)

// STATUS writes the grace as the game master typed it and the settings show it ("grace
// 2h"), not as Go prints a duration (the bug: "Deadline: ... (grace 2h0m0s)").
func TestStatusShowsGraceAsTyped(t *testing.T) {
	f := newJudgeFixture(t)
	f.createGame(GameSpec{Tag: "spring", Course: "sprint", Seed: 42, GMEmail: "gm@example.test", Grace: 2 * time.Hour,
		Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}})
	_, text := f.send("zoombot@example.test", "[RR spring] status", "secret "+f.secrets["Zoombot"]+"\nSTATUS\n")
	if !strings.Contains(text, "(grace 2h).") || strings.Contains(text, "0m0s") {
		t.Fatalf("STATUS does not show the grace as 2h:\n%s", text)
	}
}
