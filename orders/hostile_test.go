package orders

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHostileSheets: sheets written to hurt (issue 14: every input from outside is
// hostile). Each is refused with a problem that says where (line and column) and what,
// and never echoes a character that rewrites what is shown. A character that only looks
// like the right one (a Cyrillic Р, a full-width Ｐ, a Greek Α) is named with its code
// point, so the player can see why "Р490" is not P490.
func TestHostileSheets(t *testing.T) {
	deepYAML := "orders:\n  - if: " + strings.Repeat("{not: ", 500) + "x" + strings.Repeat("}", 500) + "\n"
	bomb := "a: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nprogram: *c\n"
	tests := []struct {
		name, text, at, want string
	}{ // "at" is where: a line, and a column when the word is known
		{"a zero-width space in the robot's name, YAML", "---\n" + "robot: \"Two\u200Bnky\"\nprogram: [P490]\n", "line 2", "zero-width"},
		{"a bidi isolate in the game's name, YAML", "---\n" + "game: \"spr\u2067ing\"\n", "line 2", "bidirectional"},
		{"a Cyrillic P", "Р490 P670 P70 P80 P430\n", "line 1, column 1", "U+0420"},
		{"a full-width P", "P490 Ｐ670 P70 P80 P430\n", "line 1", "U+FF30"},
		{"a Cyrillic P, YAML", "---\n" + "program: [Р490, P670, P70, P80, P430]\n", "line 2", "U+0420"},
		{"a Greek letter in an option's name", "P490 P670 P70 P80 P430\nuse Βrakes in register 2\n", "line 2", "Brakes"},
		{"a Cyrillic letter in an order word", "P490 P670 P70 P80 P430\nif damage > 3 роwer down\n", "line 2", "U+0440"},
		// deeper than an archive takes: the game's archive could not be read back
		{"and/or nested 12 deep", "P490 P670 P70 P80 P430\nif " + andOr(12) + " power down\n", "line 2", "nested more than 8 deep"},
		{"and/or nested 12 deep, YAML", "---\nprogram: [P490]\norders:\n  - \"if " + andOr(12) + " power down\"\n", "line 4", "nested more than 8 deep"},
		{"YAML nested 500 deep", "---\n" + deepYAML, "line 3", "deep"},
		{"a YAML alias bomb", "---\n" + bomb, "line 2", "aliases"},
		{"a YAML merge key", "---\nb: &b {robot: Twonky}\n<<: *b\n", "line 2", "aliases"},
		{"a turn number past int64", "turn 99999999999999999999999999\nP490 P670 P70 P80 P430\n", "line 1", "turn number"},
		{"a YAML turn past int64", "---\n" + "turn: 99999999999999999999999999\n", "line 2", "turn number"},
		{"a YAML float turn", "---\n" + "turn: !!float 1.5\n", "line 2", "turn number"},
		// YAML counts lines by it, the mail does not: the problem was on "line 3" of two
		{"a line separator in a YAML sheet", "---\n" + "robot: a\u2028program: [Q]\n", "line 2, column 9", "U+2028"},
		{"a NEL in a YAML sheet", "---\n" + "# x\u0085y\nprogram: [Q]\n", "line 2, column 4", "U+0085"},
		{"a YAML duplicate key", "---\n" + "robot: Twonky\nrobot: Zoombot\n", "line 3", "twice"},
		{"a YAML list for a name", "---\nrobot: [a, b]\n", "line 2", "single value"},
		{"a card number past int64", "P99999999999999999999999 P670 P70 P80 P430\n", "line 1, column 1", "P99999999999999999999999"},
		{"a card with a long number", "L99999999999999999999 P670 P70 P80 P430\n", "line 1, column 1", "L99999999999999999999"},
		{"a condition's card past int64", "P490 P670 P70 P80 P430\nif P99999999999999999999 in register 2 power down\n", "line 2", "99999999999999999999"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.text))
			if err == nil {
				t.Fatal("accepted")
			}
			msg := err.Error()
			if !strings.Contains(msg, tc.at) || !strings.Contains(msg, tc.want) {
				t.Errorf("error %q; want it at %q and to say %q", msg, tc.at, tc.want)
			}
			if strings.ContainsAny(msg, "\u202E\u2067\u200B\x1b\x00") {
				t.Errorf("the error echoes a character that rewrites what is shown: %q", msg)
			}
		})
	}
	// A plain-text sheet drops invisible and control characters as it reads (clean.go):
	// the names it reads carry none.
	for _, text := range []string{"robot Tw\u202Eonky\ngame spr\u2067ing\x1b[2J\nP490 P670 P70 P80 P430\n"} {
		s, _ := Parse([]byte(text))
		if s == nil || strings.ContainsAny(s.Robot+s.Game, "\u202E\u2067\x1b") {
			t.Errorf("a plain-text sheet kept a character that rewrites what is shown: %+v", s)
		}
	}
	// Parentheses around one test nest nothing: 200 of them read as the test.
	if _, err := Parse([]byte("P490 P670 P70 P80 P430\nif " + strings.Repeat("(", 200) + "damage > 3" + strings.Repeat(")", 200) + " power down\n")); err != nil {
		t.Errorf("a test in 200 parentheses: %v", err)
	}
	// A huge sheet is read in bounded time and refused for its size, not its contents.
	huge := strings.Repeat("P490 P670 P70 P80 P430\n", 200000)
	if _, err := Parse([]byte(huge)); err == nil {
		t.Error("a 4.6 MB sheet was accepted")
	}
}

// TestHostileSheetSeedsInCorpus writes the hostile sheets as seed files of the parsers'
// fuzzers when RALLYJUDGE_WRITE_SEEDS is set (kept in testdata/fuzz).
func TestHostileSheetSeedsInCorpus(t *testing.T) {
	if os.Getenv("RALLYJUDGE_WRITE_SEEDS") == "" {
		t.Skip("set RALLYJUDGE_WRITE_SEEDS=1 to write the seed files")
	}
	for i, s := range []string{"robot Tw\u202Eonky\nР490 Ｐ670 P70 P80 P430\n", "program: [Р490]\nrobot: \"a\u200Bb\"\n"} {
		for _, fz := range []string{"FuzzParseText", "FuzzParseYAML"} {
			p := filepath.Join("testdata", "fuzz", fz, fmt.Sprintf("hostile%d", i))
			body := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", s)
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// andOr is a condition n levels deep, alternating and and or.
func andOr(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			b.WriteString("(damage > 1 and ")
		} else {
			b.WriteString("(damage > 2 or ")
		}
	}
	return b.String() + "damage > 3" + strings.Repeat(")", n)
}

func TestLookalike(t *testing.T) {
	for word, hint := range map[string]bool{"Р490": true, "роwer": true, "Ｐ670": true, "Βrakes": true, "Zoë": false, "Привет": false, "P490": false, "–": false} {
		if got := lookalike(word) != ""; got != hint {
			t.Errorf("lookalike(%q) = %q", word, lookalike(word))
		}
	}
}
