package orders

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// A line that cleaning takes as clean already (printableASCII: an "&" that starts no
// HTML entity, as in seed 003's "repair & damage > 3") comes out as the full cleaning
// (cleaner.undo) makes it: the same runes, the same columns. Random lines of the
// characters that matter, entities among them.
func TestCleanTakesPlainLinesAsTheyAre(t *testing.T) {
	pieces := []string{"&", "&amp;", "&nbsp;", "&gt;", "&#39;", "&#8203;", "&shy;", "&foo;", "&amp", "& ", ";", "#", "<", ">", "<br>", "a", "Z", "7", " ", "repair", "damage", "-", "\t", "é"}
	rng := rand.New(rand.NewPCG(24, 5))
	plain := 0
	for k := 0; k < 20000; k++ {
		var b strings.Builder
		for n := rng.IntN(12); n >= 0; n-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		var c, full cleaner
		got, gotCols, _ := c.clean(s)
		want, wantCols := full.undo(s, utf8.RuneCountInString(s))
		if !slices.Equal(got, want) || !slices.Equal(gotCols, wantCols) {
			t.Fatalf("%q: cleaned %q %v, the full cleaning %q %v", s, string(got), gotCols, string(want), wantCols)
		}
		if c.asIs {
			plain++
			if string(got) != s {
				t.Fatalf("%q taken as clean, but cleaned to %q", s, string(got))
			}
		}
	}
	if plain < 1000 {
		t.Fatalf("only %d lines taken as clean", plain)
	}
	for _, s := range []string{"repair & damage > 3 repair", "a & b", "&", "x &c"} {
		if !printableASCII(s) {
			t.Errorf("%q: not taken as clean", s)
		}
	}
	for _, s := range []string{"a &amp; b", "&nbsp;", "x<br>", "&#39;s", "tab\there"} {
		if printableASCII(s) {
			t.Errorf("%q: taken as clean", s)
		}
	}
}

// lowerASCII, eight bytes at a time, lower-cases as strings.ToLower does and tells the
// capitals, for every ASCII byte at every place of a word.
func TestLowerASCII(t *testing.T) {
	for c := 0; c < utf8.RuneSelf; c++ {
		for n := 1; n <= 17; n++ {
			src := []byte(strings.Repeat("a", n))
			src[n-1-c%n] = byte(c)
			dst := make([]byte, n)
			upper := lowerASCII(dst, src)
			if want := strings.ToLower(string(src)); string(dst) != want || upper != (want != string(src)) {
				t.Fatalf("%q: %q capitals %v, want %q", src, dst, upper, want)
			}
		}
	}
}

// printableASCII, eight bytes at a time, finds every byte that is no printable ASCII, at
// every place of a line.
func TestPrintableASCIIEveryByte(t *testing.T) {
	for c := 0; c < 256; c++ {
		for n := 1; n <= 17; n++ {
			b := []byte(strings.Repeat("x", n))
			b[n-1-c%n] = byte(c)
			want := c >= ' ' && c < 0x7f && c != '<' && (c != '&' || !ampEntity(string(b[n-1-c%n:])))
			if got := printableASCII(string(b)); got != want {
				t.Fatalf("%q: printableASCII %v", b, got)
			}
		}
	}
}
