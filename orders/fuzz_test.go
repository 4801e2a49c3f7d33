package orders

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// Native fuzzers: no input may crash or hang a parser, and whatever parses must marshal
// and compile. Seed corpora: testdata/fuzz/Fuzz*/ plus the sheets and examples.
// Run long: go test ./orders -run '^$' -fuzz FuzzParseText -fuzztime 1000000x

func addSheets(f *testing.F, pattern string) {
	files, _ := filepath.Glob(pattern)
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
}

func checkSheet(t *testing.T, s *Sheet, err error) {
	if s == nil {
		if err == nil {
			t.Fatal("nil sheet without an error")
		}
		return
	}
	if _, e := json.Marshal(s); e != nil {
		t.Fatal(e)
	}
	if err != nil {
		if se, ok := err.(*SyntaxError); !ok || len(se.Problems) == 0 {
			t.Fatalf("error without problems: %v", err)
		}
		return
	}
	if len(s.Program) > 5 || len(s.Rules) > MaxRules {
		t.Fatalf("limits broken: %d cards, %d rules", len(s.Program), len(s.Rules))
	}
	_ = s.Orders()
}

func FuzzParseText(f *testing.F) {
	addSheets(f, "testdata/sheets/*.txt")
	addSheets(f, "testdata/examples/*.txt")
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ParseText(b)
		checkSheet(t, s, err)
	})
}

func FuzzParseYAML(f *testing.F) {
	addSheets(f, "testdata/sheets/*.yaml")
	addSheets(f, "testdata/examples/*.yaml")
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ParseYAML(b)
		checkSheet(t, s, err)
	})
}

func FuzzCondition(f *testing.F) {
	for _, s := range []string{
		"I finish on 2 spanner repair & damage > 3", "damage >= 5 or lives = 1", "not next to a pit",
		"(damage > 2 or lives = 1) and on a double repair site", "target would fall into a pit",
		"I would end on a laser", "I hold Brakes", "I have 2 options or more", "facing north and in register 3",
		"flags touched >= 1", "i don't hold the big one", "damage at least six",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCond(s)
		if err != nil {
			return
		}
		if _, e := json.Marshal(c); e != nil {
			t.Fatal(e)
		}
		// A condition that parses is also a rule's condition.
		if _, err := ParseRule("if "+s+" power down", 1); err != nil && len(s) < MaxLine-20 {
			t.Fatalf("%q parses as a condition but not in a rule: %v", s, err)
		}
	})
}
