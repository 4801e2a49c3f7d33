package orders

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// FuzzTokensASCII: an ASCII line read byte by byte (appendTokensASCII) gives the tokens
// the general reading by runes gives (appendTokensRunes).
func FuzzTokensASCII(f *testing.F) {
	for _, s := range []string{
		"P490 M2 670 L70 R80 B430", "If I finish on 2 spanner repair & damage > 3 repair, else take option card.",
		"reenter facing toward the next flag", "damage >= 5 || lives <> 1 && x=>y =< z == w != v",
		"don't-- players' flag- 'quoted' \"double\" `tick` a_b 3rd 490", "\t\v\f\r x", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := []byte(s)
		for i := range b {
			b[i] &= 0x7f
		}
		check := func(line []rune, cols []int) {
			str := string(line)
			if len(str) != len(line) {
				return // not ASCII once cleaned (an entity such as &ge;)
			}
			want := appendTokensRunes(nil, str, "", line, cols)
			got := appendTokensASCII(nil, str, strings.ToLower(str), cols)
			if !slices.Equal(got, want) {
				t.Fatalf("%q:\n got %v\nwant %v", str, got, want)
			}
		}
		if line, cols, tooLong := cleanLine(string(b)); !tooLong {
			check(line, cols)
		}
		// and as written, control characters and all (lex's callers but ParseText)
		line, cols := []rune(string(b)), make([]int, len(b))
		for i := range cols {
			cols[i] = i + 1
		}
		check(line, cols)
	})
}
