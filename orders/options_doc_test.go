package orders

import (
	"bufio"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// validFor checks an order line as a sheet for Fred holding card would carry it.
func validFor(t *testing.T, card, order string) {
	t.Helper()
	setup, st := testGame(t)
	fred := st.Robot("Fred")
	st.Robots[fred].Options = []string{card}
	s, err := Parse([]byte("Fred Turn 3\nP670 P70 P80 P100 P430\n" + order + "\n"))
	if err != nil {
		t.Errorf("%s: %q does not parse: %v", card, order, err)
		return
	}
	for _, p := range Validate(setup, st, "Fred", s).Problems {
		if !p.Warning {
			t.Errorf("%s: %q: %v", card, order, p.Error())
		}
	}
}

// The examples of docs/options.md are orders a player can mail: each parses and is
// valid for a robot holding its card, and every Crash & Burn card has its section.
func TestOptionsDocExamples(t *testing.T) {
	f, err := os.Open("../docs/options.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	heading := regexp.MustCompile(`^### (\d+) (.+)$`)
	regUse := regexp.MustCompile(`^R[1-5] use `)
	sections := map[string]bool{}
	card, examples := "", 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if m := heading.FindStringSubmatch(line); m != nil {
			card = m[2]
			sections[card] = true
			continue
		}
		if strings.HasPrefix(line, "#") {
			card = "-" // a section that is not one card's: each example is checked for the card it names
			continue
		}
		ex := strings.TrimPrefix(line, "    ")
		if card == "" || ex == line || !(strings.HasPrefix(ex, "use ") || strings.HasPrefix(ex, "decline ") || regUse.MatchString(ex)) {
			continue
		}
		examples++
		if card == "-" {
			r, err := ParseRule(ex, 1)
			if err != nil {
				t.Errorf("%q does not parse: %v", ex, err)
				continue
			}
			validFor(t, r.Then.Option, ex)
			continue
		}
		validFor(t, card, ex)
	}
	for _, c := range adjudicator.DealtOptions(adjudicator.DeckBoth) {
		if !sections[c] {
			t.Errorf("docs/options.md has no section for %s", c)
		}
	}
	if examples < 20 {
		t.Errorf("%d examples found; the parser of this test lost them", examples)
	}
}

// The example each card carries in data/options.txt (shown in the report that deals
// the card) is valid too.
func TestOptionCardExamples(t *testing.T) {
	cards, err := adjudicator.OptionCards()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cards {
		if !adjudicator.Implemented(c.Name) {
			continue
		}
		if c.Example == "" {
			t.Errorf("%s is dealt but has no example in data/options.txt", c.Name)
			continue
		}
		if c.Example != "-" {
			validFor(t, c.Name, c.Example)
		}
	}
}
