package rja

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rallyjudge/rallyjudge/internal/pagefit"
)

// The replay page fits a phone (390 px) and a desktop (1280 px): nothing scrolls
// sideways, the board scales to the width (issue 22: columns 10-11 were cut at 390 px).
// RALLYJUDGE_KEEP_SCREENSHOT=DIR keeps a screenshot at each width to look at.
func TestReplayPageFitsPhoneAndDesktop(t *testing.T) {
	if pagefit.Chromium() == "" {
		t.Skip("no chromium: apt-get install -y chromium (.ci/run installs it)")
	}
	_, path := htmlGame(t)
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{390, 1280} {
		shot := ""
		if dir := os.Getenv("RALLYJUDGE_KEEP_SCREENSHOT"); dir != "" {
			shot = filepath.Join(dir, fmt.Sprintf("replay-%d.png", w))
		}
		r, err := pagefit.Measure(context.Background(), t.TempDir(), page, w, shot, 0, 1100)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Fits() {
			t.Errorf("the replay page scrolls sideways %s", r)
		}
	}
}
