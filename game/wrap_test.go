package game

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// wrapBefore is Wrap as it was written before it wrote its pieces one by one (issue 24
// item 7): the words joined into a string each.
func wrapBefore(s, indent string) string {
	if utf8.RuneCountInString(s) <= ReportWidth {
		return s
	}
	lead := s[:len(s)-len(strings.TrimLeft(s, " "))]
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(s) {
		switch {
		case i == 0:
			b.WriteString(lead + w)
			n = utf8.RuneCountInString(lead + w)
		case n+1+utf8.RuneCountInString(w) > ReportWidth:
			b.WriteString("\n" + lead + indent + w)
			n = utf8.RuneCountInString(lead + indent + w)
		default:
			b.WriteString(" " + w)
			n += 1 + utf8.RuneCountInString(w)
		}
	}
	return b.String()
}

var wrapCases = []struct{ s, indent string }{
	{"short", "  "},
	{"  Warning: the robot has no program this turn: standing orders alone wait for the program, which is due by the deadline.", "  "},
	{strings.Repeat("word ", 40), "    "},
	{"  " + strings.Repeat("é", 80) + " and then ünïcödé words after a very long one", "  "},
	{"\t tabs\tand  double  spaces " + strings.Repeat("x", 75), ""},
	{strings.Repeat(" ", 80), "  "},
}

// Wrap breaks lines as it always did.
func TestWrapAsBefore(t *testing.T) {
	for _, c := range wrapCases {
		if got, want := Wrap(c.s, c.indent), wrapBefore(c.s, c.indent); got != want {
			t.Errorf("Wrap(%q, %q) =\n%q\nwant\n%q", c.s, c.indent, got, want)
		}
	}
}

func FuzzWrap(f *testing.F) {
	for _, c := range wrapCases {
		f.Add(c.s, c.indent)
	}
	f.Fuzz(func(t *testing.T, s, indent string) {
		if got, want := Wrap(s, indent), wrapBefore(s, indent); got != want {
			t.Fatalf("Wrap(%q, %q) =\n%q\nwant\n%q", s, indent, got, want)
		}
	})
}

func BenchmarkWrap(b *testing.B) {
	s := wrapCases[1].s
	b.ReportAllocs()
	for b.Loop() {
		_ = Wrap(s, "  ")
	}
}
