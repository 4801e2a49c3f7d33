package orders

import (
	"errors"
	"testing"
)

// TestGreetings: a greeting above an unmarked sheet is skipped; a line that might hold
// an order is not, and a sheet with lines of prose gets MarkerHint.
func TestGreetings(t *testing.T) {
	const prog = "Fred Turn 3\nP490 M2 670 L70 R80\n"
	tests := []struct {
		name, text string
		ok         bool
		hint       bool // the error carries MarkerHint
	}{
		{"hi", "Hi,\n\n" + prog, true, false},
		{"dear judge", "Dear Judge,\n" + prog, true, false},
		{"good morning all", "Good morning all!\n" + prog, true, false},
		{"hi there with headers", "Hi there\nRobot: Fred\nTurn: 3\nP490 P670 P70 P80 P430\n", true, false},
		// never skipped: what follows the greeting word might be a (misspelt) order
		{"a greeting holding an order", "Hey, power down\n" + prog, false, true},
		{"a greeting holding a misspelt order", "Hi, repiar\n" + prog, false, true},
		{"a greeting to someone", "Hello Bob\n" + prog, false, true},
		{"a greeting below the orders", prog + "Hi,\n", false, true},
		{"prose", "Hello\nhere are my orders\n" + prog, false, true},
		// sign-offs are the judge's, which knows the sender's name (judge/signoff.go)
		{"a sign-off", prog + "Thanks,\nBob\n", false, true},
		// inside markers every line is meant as orders: no greeting, no hint
		{"greeting between markers", "#orders\nHi,\n" + prog + "#end\n", false, false},
		// a mistyped card is no prose: no hint
		{"typo", "Fred Turn 3\nP490 M2 670 L70 Q80\n", false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Parse([]byte(tc.text))
			if tc.ok {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if !s.HasProgram() || s.Robot != "Fred" || s.Turn != 3 {
					t.Errorf("read as %s", s.JSON())
				}
				return
			}
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("accepted (%v), want an error: read as %s", err, s.JSON())
			}
			if got := se.Hint == MarkerHint; got != tc.hint {
				t.Errorf("hint %q, want the marker hint: %v (%v)", se.Hint, tc.hint, err)
			}
		})
	}
}
