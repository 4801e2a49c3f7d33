package roborally

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// Orders sent as an attached .yaml file are YAML whether or not they start with "---",
// as the judge's intake reads such a file on its own path: behind the seam the judge
// gives the file's name (game.FileChecker), and the same text read as the mail's own
// is plain text, which it is not.
func TestAttachedYAMLIsReadAsYAML(t *testing.T) {
	k := Kind{}
	cfg, err := k.Configure(map[string]string{})
	if err != nil {
		t.Fatal(err)
	}
	pos, err := k.Start(cfg, []string{"Ada", "Boris"}, 5)
	if err != nil {
		t.Fatal(err)
	}
	p := pos.(*position)
	hand := p.State.Robots[0].Hand
	var cards []string
	for _, c := range hand[:5] {
		cards = append(cards, fmt.Sprint(c))
	}
	text := "\n\nprogram: [" + strings.Join(cards, ", ") + "]\norders:\n  - power down if damage > 4\n"
	for _, file := range []string{"orders.yaml", "Zoombot Züge.YML"} {
		c := p.CheckFile(0, text, file)
		if !c.OK() {
			t.Fatalf("%s: refused: %v", file, c.Problems)
		}
		var mv move
		if err := json.Unmarshal(c.Move.Data, &mv); err != nil || mv.Sheet == nil || len(mv.Sheet.Program) != 5 || len(mv.Sheet.Rules) != 1 {
			t.Fatalf("%s: move %s (%v): want the five cards and the standing order", file, c.Move.Data, err)
		}
		if !strings.Contains(c.Forecast, "register 1: ") {
			t.Errorf("%s: forecast %q", file, c.Forecast)
		}
	}
	if c := p.Check(0, text); c.OK() {
		t.Errorf("the same text as the mail's own (no file) read as a sheet: %s", c.Move.Data)
	}
	if c := p.CheckFile(0, text, "orders.txt"); c.OK() {
		t.Errorf("the same text in a .txt file read as a sheet: %s", c.Move.Data)
	}
}
