package orders

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

func ruleJSON(t testing.TB, r Rule) string {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// roundTrip checks that r prints as text that parses back to r.
func roundTrip(t testing.TB, r Rule, from string) {
	t.Helper()
	text := r.String()
	back, err := ParseRule(text, 1)
	if err != nil {
		t.Errorf("%s: %s prints as %q, which does not parse: %v", from, ruleJSON(t, r), text, err)
		return
	}
	if a, b := ruleJSON(t, r), ruleJSON(t, back); a != b {
		t.Errorf("%s: %q reads back differently:\n was %s\n now %s", from, text, a, b)
	}
}

// Every rule of every golden sheet and example prints as text that parses back to it.
func TestRuleStringRoundTrip(t *testing.T) {
	var files []string
	for _, pat := range []string{"testdata/sheets/*.txt", "testdata/sheets/*.yaml", "testdata/examples/*"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	rules := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".golden") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := Parse(b)
		if s == nil {
			continue
		}
		for _, r := range s.Rules {
			roundTrip(t, r, f)
			rules++
		}
	}
	if rules < 30 {
		t.Errorf("only %d rules in the golden sheets; the round trip proves little", rules)
	}
}

// Every option card, in every place an option is named, prints and reads back.
func TestRuleStringOptions(t *testing.T) {
	for _, name := range adjudicator.OptionNames() {
		for _, r := range []Rule{
			{If: &Cond{Test: TestHolds, Arg: name}, Then: Action{Do: DoPowerDown}},
			{If: &Cond{Not: true, Test: TestHolds, Arg: name}, Then: Action{Do: DoUse, Option: name, Dir: "left", Register: 2}},
			{Then: Action{Do: DoPreventDamage, Option: name}},
			{Then: Action{Do: DoLoseOption, Option: name}},
			{Then: Action{Do: DoDecline, Option: name}},
			{Then: Action{Do: DoUse, Option: name, Target: "Twonky"}},
			{Then: Action{Do: DoUse, Option: name, Card: 500}},
			{If: &Cond{All: []Cond{{Test: TestHolds, Arg: name}, {Test: TestDamage, Op: ">", N: 3}}}, Then: Action{Do: DoUse, Option: name, Dir: "N"}, Else: &Action{Do: DoLoseOption, Option: name}},
		} {
			roundTrip(t, r, name)
		}
	}
}

// The canonical texts, exactly: the reports print these.
func TestRuleString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"If I finish on 2 spanner repair & damage > 3 repair, else take option card.", "if on a double repair site and damage > 3 then repair else take option"},
		{"power down if damage at least 6 or lives < 2", "if damage >= 6 or lives < 2 then power down"},
		{"if (damage > 2 or lives = 1) and on a double repair site take option", "if (damage > 2 or lives = 1) and on a double repair site then take option"},
		{"unless I hold Brakes take option", "if not hold Brakes then take option"},
		{"unless damage > 2 or on a flag then repair", "if not (damage > 2 or on a flag) then repair"},
		{"if not (on a belt and facing N) stay down", "if not (on a belt and facing N) then stay down"},
		{"if ((damage > 1 and lives = 1) and on a gear) or ((on a pusher or on a crusher) or register 3) repair", "if (damage > 1 and lives = 1) and on a gear or ((on a pusher or on a crusher) or register = 3) then repair"},
		{"re-enter facing toward the next flag", "reenter facing toward the next flag"},
		{"when destroyed lose Brakes", "if destroyed then lose Brakes"},
		{"discard any option to prevent damage when damage > 7", "if damage > 7 then discard any option to prevent damage"},
		{"use turret left in register 2", "use Turret left in register 2"},
		{"if target would fall into a pit use Tractor Beam on Twonky", "if target would fall into a pit then use Tractor Beam on Twonky"},
		{"fire conditional command P500 in register 3", "use Conditional Command in register 3 P500"},
		{"if I would be destroyed discard Turret to prevent damage", "if I would be destroyed then discard Turret to prevent damage"},
		{"if I'd end the turn on a laser, power down, otherwise do nothing", "if I would end on a laser then power down else nothing"},
		{"don't power down", "come back up"},
		{"keep my options", "keep options"},
		{"I have an option", ""}, // not a rule: an error
	}
	for _, tt := range tests {
		r, err := ParseRule(tt.in, 1)
		if tt.want == "" {
			if err == nil {
				t.Errorf("%q parses as %q; want an error", tt.in, r)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		if got := r.String(); got != tt.want {
			t.Errorf("%q prints as\n %q; want\n %q", tt.in, got, tt.want)
		}
		roundTrip(t, r, tt.in)
	}
}

// FuzzRuleString: whatever parses as a rule prints as text that parses back to the
// same rule. Run long: go test ./orders -run '^$' -fuzz FuzzRuleString -fuzztime 1000000x
func FuzzRuleString(f *testing.F) {
	for _, s := range []string{
		"If I finish on 2 spanner repair & damage > 3 repair, else take option card.",
		"if (damage > 2 or lives = 1) and on a double repair site take option",
		"unless I hold Brakes take option", "when destroyed lose Brakes",
		"use Turret left in register 2", "if target would fall into a pit use Tractor Beam on Twonky",
		"discard any option to prevent damage when damage > 7", "reenter facing toward the next flag",
		"if not (on a belt and facing N) stay down", "fire conditional command P500 in register 3",
		"if I would be destroyed discard Turret to prevent damage", "use the big one in register 4",
		"if on an express belt or next to a pit and flags >= 2 then power down else come back up",
	} {
		f.Add(s)
	}
	files, _ := filepath.Glob("testdata/examples/*.txt")
	for _, p := range files {
		b, _ := os.ReadFile(p)
		for _, l := range bytes.Split(b, []byte("\n")) {
			f.Add(string(l))
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRule(s, 1)
		if err != nil {
			return
		}
		roundTrip(t, r, s)
	})
}

// The 2023 upgrade phase prints as the order language reads it (the bug: "draw-upgrade",
// which no sheet can say, so a 2023 turn's record failed Played.Check and the reports
// showed it).
func TestRuleStringUpgradePhase(t *testing.T) {
	for _, line := range []string{"draw upgrade", "install Mini Howitzer", "uninstall Deflector Shield", "install Zoop", "buy an upgrade",
		"install the card I draw", "install the card I draw if I can afford it", "draw an upgrade and install it"} {
		r, err := ParseRule(line, 1)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		roundTrip(t, r, line)
		if s := r.String(); strings.Contains(s, "-upgrade") || s == DoInstall || s == DoUninstall {
			t.Errorf("%q prints as %q", line, s)
		}
		if err := (Played{Sheet: &Sheet{Rules: []Rule{r}}}).Check(); err != nil {
			t.Errorf("%q: a played record holding it is refused: %v", line, err)
		}
	}
}
