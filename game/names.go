package game

import (
	"fmt"
	"unicode"
)

// NameRuneProblem says what is wrong with r in a name that is shown to people (a robot's,
// a game's), or "": characters that change what is shown rather than show themselves —
// control characters (terminal escape sequences, C1 controls), the bidirectional
// overrides and isolates that reverse text (U+202A–U+202E, U+2066–U+2069), direction
// marks (U+200E, U+200F, U+061C), zero-width and other invisible format characters
// (issue 14 item 9). It is the one check every entry point's names go through: a new
// game's robots (adjudicator.NewGame), a game's name and players by mail or on the
// command line (judge), an archive's names (archive).
func NameRuneProblem(r rune) string {
	switch {
	case r >= ' ' && r < 0x7f:
		return "" // printable ASCII, most of a name: none of the below

	case r == 0x202A || r == 0x202B || r == 0x202C || r == 0x202D || r == 0x202E ||
		r == 0x2066 || r == 0x2067 || r == 0x2068 || r == 0x2069:
		return "a bidirectional override"
	case r == 0x200E || r == 0x200F || r == 0x061C:
		return "a direction mark"
	case r == 0x200B || r == 0x200C || r == 0x200D || r == 0xFEFF || r == 0x2060:
		return "a zero-width character"
	case unicode.IsControl(r):
		return "a control character"
	case unicode.Is(unicode.Cf, r):
		return "an invisible format character"
	case r == unicode.ReplacementChar:
		return "invalid UTF-8"
	}
	return ""
}

// NameProblem says what is wrong with a shown name's characters (NameRuneProblem) and
// which character it is (1-based, with its code point), or "". It never quotes the name.
func NameProblem(s string) string {
	i := 0
	for _, r := range s { // invalid UTF-8 reads as U+FFFD
		i++
		if p := NameRuneProblem(r); p != "" {
			if r == unicode.ReplacementChar {
				return fmt.Sprintf("character %d is invalid UTF-8", i)
			}
			return fmt.Sprintf("character %d is %s (U+%04X)", i, p, r)
		}
	}
	return ""
}
