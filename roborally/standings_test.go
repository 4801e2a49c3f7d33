package roborally

import (
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// The final standings speak each ruleset's words (issue 22: a 2023 game's standings said
// "2 flag(s), 0 lives, 0 damage").
func TestStandingsSpeakTheRulesWords(t *testing.T) {
	postal := &adjudicator.State{Winner: "Hulk", Robots: []adjudicator.Robot{
		{Name: "Zoe", Flags: 1, Lives: 2, Damage: 3}, {Name: "Hulk", Flags: 2, Lives: 3}}}
	own := &adjudicator.State{Winner: "Hulk", Robots: []adjudicator.Robot{
		{Name: "Zoe", Flags: 1, Mat: &adjudicator.Mat{Energy: 4}},
		{Name: "Hulk", Flags: 2, Options: []string{"Zoop"}, Mat: &adjudicator.Mat{Energy: 7}}}}
	for _, tc := range []struct {
		name  string
		st    *adjudicator.State
		want  []string
		never []string
	}{
		{"postal", postal, []string{"Hulk         2 flags, 3 lives, 0 damage — winner", "Zoe          1 flag, 2 lives, 3 damage"}, []string{"flag(s)", "checkpoint"}},
		{"2023", own, []string{"Hulk         2 checkpoints, energy 7, upgrades Zoop — winner", "Zoe          1 checkpoint, energy 4"}, []string{"flag", "lives", "damage"}},
	} {
		var lines []string
		for _, i := range Ranking(tc.st) {
			lines = append(lines, StandingLine(tc.st, tc.st.Robots[i]))
		}
		out := strings.Join(lines, "\n")
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s standings lack %q:\n%s", tc.name, w, out)
			}
		}
		for _, w := range tc.never {
			if strings.Contains(out, w) {
				t.Errorf("%s standings say %q:\n%s", tc.name, w, out)
			}
		}
	}
}
