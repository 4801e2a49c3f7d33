package scenario

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

const scenarioDir = "../testdata/scenarios"

func scenarioFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(scenarioDir, "*.scn"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 120 {
		t.Errorf("%d scenarios, want at least 120", len(files))
	}
	return files
}

func runJSON(t *testing.T, s *Scenario) ([]byte, *Result) {
	t.Helper()
	res, err := s.Run()
	if err != nil {
		t.Fatal(err)
	}
	b, err := res.JSON()
	if err != nil {
		t.Fatal(err)
	}
	return b, res
}

// TestScenarios runs every scenario, checks its expectations, and resolves it twice
// more (once with GOMAXPROCS=1) to check the JSON is byte-identical.
func TestScenarios(t *testing.T) {
	for _, f := range scenarioFiles(t) {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".scn"), func(t *testing.T) {
			s, err := Load(f)
			if err != nil {
				t.Fatal(err)
			}
			if s.Source == "" || s.Title == "" {
				t.Errorf("%s: every scenario needs a title: and a source: line", f)
			}
			first, res := runJSON(t, s)
			for _, d := range s.Check(res) {
				t.Error(d)
			}
			second, _ := runJSON(t, s)
			if !bytes.Equal(first, second) {
				t.Errorf("resolved twice, the JSON differs")
			}
			old := runtime.GOMAXPROCS(1)
			third, _ := runJSON(t, s)
			runtime.GOMAXPROCS(old)
			if !bytes.Equal(first, third) {
				t.Errorf("under GOMAXPROCS=1 the JSON differs")
			}
		})
	}
}

// An expectation the engine would not check must make the file fail, not pass: a typo
// in an event kind, an event field or an option name, words after an options: list.
func TestExpectTyposRefused(t *testing.T) {
	base := "title: t\nsource: s\nboard:\n  .  f1\nrobot A at 0,0 facing N down options: Brakes\n"
	for _, line := range []string{
		"expect no event: optoin A",
		"expect no event: option A opton=Brakes",
		"expect A: options: Brake",
		"expect A: options: Brakes damage 0",
		"expect A: flywheel P9999",
		"orders A: use Brakes on",
		"orders Z: use Brakes",
		"expect used A: Brake=0",
		"expect used A: Brakes",
		"expect used Z: Brakes=0",
	} {
		if _, err := Parse("typo.scn", base+line+"\n"); err == nil {
			t.Errorf("%q parsed; want an error", line)
		}
	}
	if _, err := Parse("ok.scn", base+"expect A: damage 0 options: Brakes\nexpect used A: Brakes=0\norders A: use Brakes in register 2\n"); err != nil {
		t.Errorf("a good file: %v", err)
	}
}

// Every card a game may deal has at least three scenarios that give a robot the card
// and cite its seed (issue 9: "at least 3 per option card").
func TestDealtCardsHaveScenarios(t *testing.T) {
	files, err := filepath.Glob("../testdata/scenarios/*.scn")
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		for _, card := range adjudicator.DealtOptions(adjudicator.DeckBoth) {
			if strings.Contains(text, "options: ") && strings.Contains(text, card) && (strings.Contains(text, "seed 000") || strings.Contains(text, "seed 001")) {
				count[card]++
			}
		}
	}
	for _, card := range adjudicator.DealtOptions(adjudicator.DeckBoth) {
		if count[card] < 3 {
			t.Errorf("%s is dealt but has %d scenarios (want at least 3)", card, count[card])
		}
	}
}

// TestScenarioEndStatesArePossible: a whole turn played from a possible position ends
// in a possible one (adjudicator.CheckState, the check a saved turn goes through), so
// the engine never leaves what it would refuse to read back: two robots on one square
// (scenario 1017 did, before R-AD-PUSH-MEET), a hand larger than the deal (415).
// Scenarios stopped inside a turn and games over are left out. (A new 2023 game's
// upgrade deck, two copies of each card, was refused before the check counted copies.)
func TestScenarioEndStatesArePossible(t *testing.T) {
	for _, f := range scenarioFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		s, err := Parse(name, string(b))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if s.Stop > 0 {
			continue
		}
		res, err := s.Run()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.State.Over {
			continue
		}
		if err := s.Setup.CheckState(res.State); err != nil {
			t.Errorf("%s: the turn ends in a state the judge would refuse: %v", name, err)
		}
	}
}

// Seed 004 allows one draw and one install an upgrade phase. An upgrade line (or orders
// lines) with a second is refused: before issue 23 "install A; install B" kept only B
// and "draw; draw" drew once, in silence.
func TestUpgradePhaseTwiceRefused(t *testing.T) {
	base := "title: t\nsource: s\nrules: 2023\noptions: Zoop, Boink\nboard:\n  .  .\n  .  f1\n" +
		"robot A at 0,0 facing S energy 9\ncollection A: Zoop, Boink\nprogram A: left right left right left\nexpect A: energy 9\n"
	for _, tc := range []struct{ lines, want string }{
		{"upgrade A: install Zoop; install Boink\n", "2 installs"},
		{"upgrade A: draw; draw\n", "draw 2 times"},
		{"upgrade A: install drawn; install drawn\n", "2 installs"},
		{"orders A: install Zoop\norders A: install Boink\n", "2 installs"},
		{"orders A: draw upgrade; buy an upgrade\n", "draw upgrade 2 times"},
		{"upgrade A: draw\norders A: install Zoop\n", "written twice"},
	} {
		_, err := Parse("twice.scn", base+tc.lines)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want an error saying %q", tc.lines, err, tc.want)
		}
	}
	for _, ok := range []string{"upgrade A: install drawn; install Zoop\n", "orders A: install the card I draw, else install Zoop\n", "upgrade A: draw; install Zoop\n"} {
		if _, err := Parse("once.scn", base+ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
}

// Turn sections, pile: and deal: lines that cannot be played as written are refused,
// with the line, never played some other way.
func TestTurnSectionsRefused(t *testing.T) {
	base := "title: t\nsource: s\nboard:\n  .  .  .\n  .  .  f1\nrobot A at 0,0 facing N\nprogram A: P070 P080 P090 P100 P110\n"
	for _, tc := range []struct{ lines, want string }{
		{"turn 3:\nexpect A: at 0,0\n", "want \"turn 2:\""},
		{"turn 2:\nrobot B at 1,0\nexpect A: at 0,0\n", "a turn section holds only"},
		{"stop: after register 2\nturn 2:\nexpect A: at 0,0\n", "only the last turn may stop"},
		{"turn 2:\nstop: after register 2\nturn 3:\nexpect A: at 0,0\n", "only the last turn may stop"},
		{"pile: P490 P490\nexpect A: at 0,0\n", "P490 twice"},
		{"deal: P9999\nexpect A: at 0,0\n", "not a card of the deck"},
		{"turn 2:\nturn: 4\nexpect A: at 0,0\n", "before the turn sections"},
		{"expect A: hand P07\n", "cards of the deck"},
	} {
		s, err := Parse("sections.scn", base+tc.lines)
		if err == nil && s != nil {
			_, err = s.Run()
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want an error saying %q", tc.lines, err, tc.want)
		}
	}
	// A pile: card in a hand would be passed over: refused when the turn is played.
	s, err := Parse("pile.scn", base+"pile: P070\nexpect A: at 0,0\n")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(); err == nil || !strings.Contains(err.Error(), "P70 is not in the draw pile") {
		t.Errorf("pile: card in the hand: got %v", err)
	}
	// A later turn's program that its hand cannot pay is refused, naming the section.
	s, err = Parse("hand.scn", base+"turn 2:\nprogram A: P070 P080 P090 P100 P110\nexpect A: at 0,0\n")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(); err == nil || !strings.Contains(err.Error(), "hand.scn:8: turn 2:") {
		t.Errorf("turn 2 program not in the hand: got %v", err)
	}
}
