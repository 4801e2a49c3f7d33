// Package near finds the names a person most likely meant: game tags, robot names,
// courses and cards named in a command or on the command line. Names are compared
// case- and accent-insensitively ("Zoë" is "zoe"), so a player who writes the name as
// they say it is matched; a name that matches none is answered with the near ones.
// It does no I/O and knows nothing of games: callers pass the candidates.
package near

import (
	"sort"
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// Fold is the form names are compared in: lower case, accents taken off, and letters
// with no decomposition (ß, æ, ø, ł, đ) written out as their plain Latin letters.
func Fold(s string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	out, _, err := transform.String(t, s)
	if err != nil {
		out = s
	}
	out = strings.ToLower(out)
	return plain.Replace(out)
}

var plain = strings.NewReplacer("ß", "ss", "æ", "ae", "ø", "o", "œ", "oe", "ł", "l", "đ", "d", "ð", "d", "þ", "th", "ı", "i")

// Same reports whether a and b are one name, folded.
func Same(a, b string) bool { return Fold(a) == Fold(b) }

// Match is the one candidate that is name, folded; ok is false when none or more than
// one is (two robots "Zoe" and "Zoë" are both kept apart then).
func Match(name string, candidates []string) (string, bool) {
	f := Fold(name)
	found, n := "", 0
	for _, c := range candidates {
		if c == name {
			return c, true // exact wins over a folded twin
		}
		if Fold(c) == f {
			found, n = c, n+1
		}
	}
	if n != 1 {
		return "", false
	}
	return found, true
}

// Matches are the candidates close to name, nearest first: those that start with it or
// it starts with, and those a few edits away (one edit in every three letters, at least
// one). Exact folded matches come first.
func Matches(name string, candidates []string) []string {
	f := Fold(name)
	type scored struct {
		s string
		d int
	}
	var out []scored
	seen := map[string]bool{}
	for _, c := range candidates {
		if seen[c] {
			continue
		}
		seen[c] = true
		fc := Fold(c)
		d := distance(f, fc)
		limit := max(1, (len([]rune(f))+1)/3)
		switch {
		case fc == f:
			out = append(out, scored{c, -1})
		case len(f) >= 2 && (strings.HasPrefix(fc, f) || strings.HasPrefix(f, fc) && len(fc) >= 2):
			out = append(out, scored{c, min(d, limit)})
		case d <= limit:
			out = append(out, scored{c, d})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].d != out[j].d {
			return out[i].d < out[j].d
		}
		return out[i].s < out[j].s
	})
	names := make([]string, len(out))
	for i, s := range out {
		names[i] = s.s
	}
	return names
}

// Hint is what follows "there is no X %q": "did you mean crash?" when some
// candidates are near, else "the WHAT: a, b, c" (the first ten), else "" when there
// are none at all. what names the things in the plural ("games here are").
// Sentence writes it as a sentence of its own.
func Hint(name string, candidates []string, what string) string {
	if m := Matches(name, candidates); len(m) > 0 {
		if len(m) > 3 {
			m = m[:3]
		}
		return "did you mean " + orList(m) + "?"
	}
	if len(candidates) == 0 {
		return ""
	}
	c := append([]string(nil), candidates...)
	sort.Strings(c)
	more := ""
	if len(c) > 10 {
		c, more = c[:10], ", …"
	}
	return "the " + what + ": " + strings.Join(c, ", ") + more
}

// Sentence is a hint as a sentence that follows another: " Did you mean crash?" or
// " The games here are: a, b." ("" stays "").
func Sentence(hint string) string {
	if hint == "" {
		return ""
	}
	if !strings.HasSuffix(hint, "?") {
		hint += "."
	}
	return " " + strings.ToUpper(hint[:1]) + hint[1:]
}

func orList(m []string) string {
	switch len(m) {
	case 1:
		return m[0]
	case 2:
		return m[0] + " or " + m[1]
	}
	return strings.Join(m[:len(m)-1], ", ") + " or " + m[len(m)-1]
}

// distance is the Levenshtein distance between a and b, by runes.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
