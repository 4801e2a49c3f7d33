package judge

import (
	"unicode/utf8"

	"github.com/rallyjudge/rallyjudge/game"
)

// checkName refuses a name (a game's name: the free-text one; tags and robot names are
// plain ASCII already) that would reach players' mail and the operator's terminal with
// characters that change what is shown: control characters (escape sequences), the
// bidirectional overrides and isolates that reverse text (U+202A–U+202E, U+2066–U+2069,
// marks U+200E, U+200F, U+061C), zero-width characters, invalid UTF-8 (issue 14). It
// errs with what was wrong and where, never quoting the name.
func checkName(what, name string) error {
	if !utf8.ValidString(name) {
		return refuse("%s: not valid UTF-8.", what)
	}
	if n := utf8.RuneCountInString(name); n > 80 {
		return refuse("%s: %d characters (at most 80).", what, n)
	}
	for i, r := range []rune(name) {
		if bad := badRune(r); bad != "" {
			return refuse("%s: character %d is %s (U+%04X), which is not allowed in names.", what, i+1, bad, r)
		}
	}
	return nil
}

func badRune(r rune) string { return game.NameRuneProblem(r) }
