package orders

import (
	"strings"
	"testing"
)

// Trailing comments: a "#" after a space ends the line; one inside a word, or "#490",
// does not (docs/orders.md, "Lines that are skipped").
func TestTrailingComments(t *testing.T) {
	tests := []struct {
		name, in string
		want     string // the sheet's JSON must contain this
		bad      string // or the error must contain this
	}{
		{name: "register comment", in: "P490   # register 1\nP670 # my second card\nP70 P80 P430", want: `"p": 670`},
		{name: "tab before hash", in: "P490\t# register 1\n", want: `"p": 490`},
		{name: "hash in secret", in: "secret tango#42 # mine\nP490", want: ""},
		{name: "old priority mark", in: "M1 #490 M2 #670", want: `"kind": "move2"`},
		{name: "comment after order", in: "power down if damage > 3  # safe", want: `"power-down"`},
		{name: "comment without space", in: "power down #safe", want: `"power-down"`},
		{name: "whole line", in: "   # P999 P998\nP490", want: `"p": 490`},
		{name: "hash glued is not a comment", in: "power down#safe", bad: `unexpected "#"`},
		{name: "end marker with comment", in: "#orders\nP490\n#end   # that is all\nP999", want: `"p": 490`},
		{name: "bare P", in: "P # register 1: a card from your hand\n", bad: "register 1: no card given: write the card's priority, like P490"},
		{name: "bare P later", in: "P490\nP10\nP\n", bad: "line 3, column 1: error: register 3: no card given"},
		{name: "P space priority", in: "P 490, P 670", want: `"p": 670`},
		{name: "bare P on a card line", in: "P490 P P670", bad: "column 6: error: register 2: no card given"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ParseText([]byte(tt.in))
			if tt.bad != "" {
				if err == nil {
					t.Fatalf("no error; want %q", tt.bad)
				}
				if got := problemsText(err); !strings.Contains(got, tt.bad) {
					t.Fatalf("error %q; want %q", got, tt.bad)
				}
				return
			}
			if err != nil {
				t.Fatal(problemsText(err))
			}
			if got := string(s.JSON()); !strings.Contains(got, tt.want) {
				t.Errorf("got %s; want it to contain %s", got, tt.want)
			}
		})
	}
	s, err := ParseText([]byte("secret tango#42   # mine\nP490"))
	if err != nil || s.Secret != "tango#42" {
		t.Errorf("secret %q, %v; want tango#42", s.Secret, err)
	}
	s, err = ParseText([]byte("P490 P670 P70 P80 P430 # and a comment with P999"))
	if err != nil || len(s.Program) != 5 {
		t.Errorf("program %v, %v; want five cards", s.Program, err)
	}
}
