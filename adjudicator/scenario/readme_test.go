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
	dep := seedDependent(t, files)
	t.Logf("scenarios whose outcome depends on the seed chosen: %d (%s)", len(dep), strings.Join(dep, " "))
	for i, k := range []string{"all", "2023", "armed", "crash", "postal"} {
		floor, _ := strconv.Atoi(m[i+1])
		if n := count[k]; n < floor || n >= floor+100 {
			t.Errorf("README.md says some %d scenarios (%s); the suite has %d: write the floor, rounded down to ten", floor, k, n)
		}
	}
}

// seedDependent lists the scenarios whose expectations hold with the seed they name but
// not with some other seed: their outcome was found by choosing a seed, not stated in
// the file (issue 23). Those left should be the few that test randomness itself.
func seedDependent(t *testing.T, files []string) []string {
	t.Helper()
	var out []string
	for _, f := range files {
		s, err := Load(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, seed := range []uint64{s.Seed + 1, s.Seed + 7919, s.Seed ^ 0x5bd1e995} {
			if !holdsWithSeed(s, seed) {
				out = append(out, strings.TrimSuffix(filepath.Base(f), ".scn"))
				break
			}
		}
	}
	return out
}

// holdsWithSeed reports whether every expectation of s holds when it is played with
// seed instead of its own.
func holdsWithSeed(s *Scenario, seed uint64) bool {
	c := *s
	setup := *s.Setup
	setup.Seed = seed
	c.Setup = &setup
	res, err := c.Run()
	return err == nil && len(c.Check(res)) == 0
}
