package orders

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestOrdersGuideLanguage reads docs/orders.md's language section as a player would
// copy from it: every condition in its condition tables, every order in its action
// table and its examples block parse, and every line of its canonical-text table
// prints as the page says.
func TestOrdersGuideLanguage(t *testing.T) {
	b, err := os.ReadFile("../docs/orders.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	code := regexp.MustCompile("`([^`]+)`")
	table, n := "", 0
	for i, l := range lines {
		where := "docs/orders.md:" + itoa(i+1)
		switch {
		case strings.HasPrefix(l, "| condition | written as |"):
			table = "cond"
			continue
		case strings.HasPrefix(l, "| decision (rules README"):
			table = "action"
			continue
		case strings.HasPrefix(l, "| written | canonical |"):
			table = "canonical"
			continue
		case !strings.HasPrefix(l, "|"):
			table = ""
			continue
		case strings.HasPrefix(l, "|---"):
			continue
		}
		cells := strings.Split(strings.Trim(l, "|"), "|")
		switch table {
		case "cond":
			for _, m := range code.FindAllStringSubmatch(cells[len(cells)-1], -1) {
				c := m[1]
				rule := "if " + c + " then repair"
				if strings.HasPrefix(c, "when ") {
					rule = c + " then repair"
				}
				n++
				if _, err := ParseRule(rule, i+1); err != nil {
					t.Errorf("%s: the condition %q does not read: %v", where, c, err)
				}
			}
		case "action":
			for _, m := range code.FindAllStringSubmatch(cells[len(cells)-1], -1) {
				o := m[1]
				if strings.Contains(cells[len(cells)-1], "OPTION") { // use OPTION ...: the verbs alone are no orders
					break
				}
				if strings.ContainsAny(o, "[=") {
					continue
				}
				if strings.HasPrefix(cells[len(cells)-1], " `"+o) || strings.Contains(cells[len(cells)-1], ", `"+o) {
					n++
					want := ""
					if m := code.FindStringSubmatch(cells[1]); m != nil {
						want = m[1]
					}
					rs, err := ParseRules(o, i+1) // "lose Brakes before Turret": one order a card
					if err != nil {
						t.Errorf("%s: the order %q does not read: %v", where, o, err)
					}
					for _, r := range rs {
						if r.Then.Do != want {
							t.Errorf("%s: the order %q reads as %s, the page says %s", where, o, r.Then.Do, want)
						}
					}
				}
			}
		case "canonical":
			ms := code.FindAllStringSubmatch(l, -1)
			if len(ms) != 2 {
				continue
			}
			n++
			r, err := ParseRule(ms[0][1], i+1)
			if err != nil {
				t.Errorf("%s: %q does not read: %v", where, ms[0][1], err)
			} else if got := r.String(); got != ms[1][1] {
				t.Errorf("%s: %q prints as %q, the page says %q", where, ms[0][1], got, ms[1][1])
			}
		}
	}
	// The examples block under "Examples:".
	in := false
	for i, l := range lines {
		switch {
		case strings.TrimSpace(l) == "Examples:":
			in = true
		case in && l == "```" && n > 0 && lines[i-1] != "Examples:" && !strings.HasPrefix(lines[i-1], "```") && lines[i-1] != "":
			in = false
		case in && l != "" && l != "```":
			o, _, _ := strings.Cut(l, "  #")
			n++
			if _, err := ParseRule(strings.TrimSpace(o), i+1); err != nil {
				t.Errorf("docs/orders.md:%d: the example %q does not read: %v", i+1, o, err)
			}
		}
	}
	if n < 80 {
		t.Errorf("read %d examples of docs/orders.md; the tables are gone?", n)
	}
}

func itoa(n int) string {
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}
