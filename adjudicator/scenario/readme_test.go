package scenario

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestReadmeScenarioCounts keeps README.md's account of the scenario suite with the
// suite: it said "688 cases" while the suite held 786. The README gives each count as
// "some N" (a floor, rounded down to ten): the test fails when a count falls below the
// floor or has outgrown it by a hundred or more, so the page is rewritten as the suite
// grows, not with every scenario. It logs the exact counts (go test -v -run
// TestReadmeScenarioCounts ./adjudicator/scenario).
func TestReadmeScenarioCounts(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`the rules-scenario suite, some (\d+) cases: some (\d+) for the 2023 rules \(seed 004\), (\d+) citing Armed and Dangerous \(seed 001\), (\d+) citing Crash & Burn \(seed 000\), (\d+) citing the postal rules`).FindStringSubmatch(string(b))
	if m == nil {
		t.Fatal("README.md no longer counts the scenarios as this test reads them (\"the rules-scenario suite, some N cases: some N for the 2023 rules (seed 004), N citing ...\")")
	}
	files, err := filepath.Glob(scenarioDir + "/*.scn")
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{"all": len(files)}
	cites := map[string]*regexp.Regexp{
		"2023":   regexp.MustCompile(`seed 004`),
		"armed":  regexp.MustCompile(`seed 001`),
		"crash":  regexp.MustCompile(`seed 000`),
		"postal": regexp.MustCompile(`seed 003|rules README`),
	}
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var source string
		for _, l := range strings.Split(string(text), "\n") {
			if s, ok := strings.CutPrefix(l, "source:"); ok {
				source = s
			}
		}
		for k, re := range cites {
			if re.MatchString(source) {
				count[k]++
			}
		}
	}
	t.Logf("scenarios: %d; citing seed 004 %d, seed 001 %d, seed 000 %d, the postal rules %d",
		count["all"], count["2023"], count["armed"], count["crash"], count["postal"])
	for i, k := range []string{"all", "2023", "armed", "crash", "postal"} {
		floor, _ := strconv.Atoi(m[i+1])
		if n := count[k]; n < floor || n >= floor+100 {
			t.Errorf("README.md says some %d scenarios (%s); the suite has %d: write the floor, rounded down to ten", floor, k, n)
		}
	}
}
