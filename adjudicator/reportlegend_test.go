package adjudicator

import (
	"strings"
	"testing"
)

// A report's legend is one legend, in the game's words, of the elements its course has
// (issue 22: a 2023 report printed the postal legend, wrench sites and crushers
// included, then the 2023 one).
func TestRenderReportLegend(t *testing.T) {
	for _, tc := range []struct {
		course      string
		want, never []string
	}{
		{"docking-run", []string{"checkpoint 1", "reboot token", "battery", "push panel", "a robot going over it reboots", "green belt"},
			[]string{"flag 1", "wrench", "crusher", "falling off destroys", "2023 rules (seed 004)", "express belt"}},
		{"sprint", []string{"flag 1 (touch them in order)", "w1", "w2", "crusher", "falling off destroys", "express belt"},
			[]string{"checkpoint", "reboot token", "battery", "push panel", "2023"}},
	} {
		c, err := LoadCourse(tc.course)
		if err != nil {
			t.Fatal(err)
		}
		out := RenderReportLegend(c, &State{})
		if n := strings.Count(out, "Legend ("); n != 1 {
			t.Errorf("%s: %d legends", tc.course, n)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: the legend lacks %q:\n%s", tc.course, w, out)
			}
		}
		for _, w := range tc.never {
			if strings.Contains(out, w) {
				t.Errorf("%s: the legend names %q:\n%s", tc.course, w, out)
			}
		}
	}
}
