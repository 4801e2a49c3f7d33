package crashbycrash

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScenarios runs every file of testdata/scenarios (docs/crash-by-crash.md, "Scenario
// files"); each cites the section of seed 002 it checks.
func TestScenarios(t *testing.T) {
	files, err := filepath.Glob("testdata/scenarios/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 80 {
		t.Errorf("%d scenario files, want at least 80", len(files))
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txt"), func(t *testing.T) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := RunScenario(string(b)); err != nil {
				res, _ := runScenario(string(b))
				if res != nil {
					t.Logf("events:\n  %s\nerror: %s\n%s", strings.Join(res.Events, "\n  "), res.Error, res.Board)
				}
				t.Fatal(err)
			}
		})
	}
}

// TestScenarioFailsWhenWrong: a scenario whose expectation is false fails, saying which
// line (so the suite can catch a broken rule).
func TestScenarioFailsWhenWrong(t *testing.T) {
	_, err := RunScenario("rule: seed 002, Placing a standard car\na: E5\nmove:\n  place E4\n  operator A12 A11\nexpect:\n  a E5\n")
	if err == nil || !strings.Contains(err.Error(), "line 7: a E5: E5 holds") {
		t.Fatalf("err = %v", err)
	}
	if _, err := RunScenario("a: E5\nmove:\n place E4\nexpect:\n a E6\n"); err == nil || !strings.Contains(err.Error(), "rule: seed 002") {
		t.Fatalf("a scenario without a rule: %v", err)
	}
}

// TestScenarioCoverage: each of the twelve cards is played in at least three scenarios,
// and the team game has its own (issue 20 item 7).
func TestScenarioCoverage(t *testing.T) {
	files, _ := filepath.Glob("testdata/scenarios/*.txt")
	count := map[Card]int{}
	team := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.ToLower(string(b))
		for _, ci := range Cards() {
			if strings.Contains(text, "play "+strings.ToLower(ci.Name)) {
				count[ci.Card]++
			}
		}
		if strings.Contains(text, "players: 4") {
			team++
		}
	}
	for _, ci := range Cards() {
		if count[ci.Card] < 3 {
			t.Errorf("%s is played in %d scenarios, want at least 3", ci.Name, count[ci.Card])
		}
	}
	if team < 3 {
		t.Errorf("%d team-game scenarios", team)
	}
}
