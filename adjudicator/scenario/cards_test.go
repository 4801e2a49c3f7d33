package scenario

import (
	"os"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// TestTestedCardsHaveScenarios: every option card a game deals (adjudicator's
// scenarioTested list) has at least three scenarios in which a robot holds it and whose
// source cites the card's seed (000 for Crash & Burn, 001 for Armed and Dangerous).
// go test -v -run TestedCards prints the count for every card.
func TestTestedCardsHaveScenarios(t *testing.T) {
	type scn struct {
		source string
		holds  map[string]bool
	}
	var all []scn
	for _, f := range scenarioFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s := scn{holds: map[string]bool{}}
		for _, line := range strings.Split(string(b), "\n") {
			switch {
			case strings.HasPrefix(line, "source:"):
				s.source = line
			case strings.HasPrefix(line, "robot ") || strings.HasPrefix(line, "options "):
				if _, list, ok := strings.Cut(line, "options"); ok {
					_, list, _ = strings.Cut(list, ":")
					for _, o := range strings.Split(list, ",") {
						s.holds[strings.TrimSpace(o)] = true
					}
				}
			}
		}
		all = append(all, s)
	}
	cards, err := adjudicator.OptionCards()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cards {
		if !adjudicator.Implemented(c.Name) {
			continue
		}
		seed := "seed 000"
		if c.Source == "A&D" {
			seed = "seed 001"
		}
		n := 0
		for _, s := range all {
			if strings.Contains(s.source, seed) && s.holds[c.Name] {
				n++
			}
		}
		t.Logf("%2d %-24s %d scenarios citing %s", c.Number, c.Name, n, seed)
		if n < 3 {
			t.Errorf("%s is dealt but has %d scenarios citing %s with a robot holding it; want at least 3", c.Name, n, seed)
		}
	}
}
