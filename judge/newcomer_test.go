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

// limits.max_message_bytes is told as the config states it: a limit of 4000 bytes was
// told as "3 KiB" (and one under 1 KiB as "0 KiB").
func TestSizeLimitToldAsConfigured(t *testing.T) {
	f := newFixture(t)
	f.j.MaxMessageBytes = 4000
	_, text := f.send("zoombot@example.test", "[RR spring] big", "STATUS\n"+strings.Repeat("padding padding padding padding padding\n", 200))
	if !strings.Contains(text, "(4000 bytes)") {
		t.Fatalf("the refusal does not give the limit as 4000 bytes:\n%s", text)
	}
	for n, want := range map[int]string{262144: "256 KiB", 4000: "4000 bytes", 500: "500 bytes", 1 << 20: "1024 KiB"} {
		if got := sizeText(n); got != want {
			t.Errorf("sizeText(%d) = %q, want %q", n, got, want)
		}
	}
}
