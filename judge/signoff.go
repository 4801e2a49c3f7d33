package judge

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A sign-off under a sheet: "Zoe", "Thanks, Zoe", "Cheers," over "Zoe". Players end a
// mail with their name as they end every mail, and a sheet without markers read the
// name as an order ("expected an order, got "Zoe""), so the whole sheet was refused.
// Only the mail's last two lines are looked at, and only when each is the sender's
// own name (from the From header: the display name, its first
// word, or the address's local part) or a closing word with that name or nothing
// after it: no order or card can be written so.

// closings are the words a sign-off starts with, lower case, without punctuation.
var closings = map[string]bool{
	"thanks": true, "thank you": true, "thx": true, "cheers": true, "regards": true,
	"best": true, "best regards": true, "kind regards": true, "best wishes": true,
	"greetings": true, "cu": true, "bye": true, "ciao": true, "love": true, "yours": true,
	"danke": true, "grüße": true, "gruß": true, "viele grüße": true, "liebe grüße": true,
	"beste grüße": true, "lg": true, "vg": true, "mfg": true, "merci": true,
	"cordialement": true, "amitiés": true, "gracias": true, "saludos": true, "grazie": true,
	"saluti": true, "groeten": true, "groetjes": true, "hälsningar": true, "mvh": true,
	"hilsen": true, "tack": true, "takk": true, "díky": true, "pozdrawiam": true,
}

// signOffLines are the 0-based lines of text that are a sign-off by the sender named
// name at address from (see above); nil when the last paragraph is not one. Only the
// last lines are looked at, from the end of text (it was split whole for them: issue 24
// item 7).
func signOffLines(text, name, from string) []int {
	names := senderNames(name, from)
	if names.n == 0 {
		return nil
	}
	rest := text
	last := strings.Count(text, "\n") // the index of the line popLine gives next
	l := popLine(&rest)
	for last >= 0 && strings.TrimSpace(l) == "" {
		if last--; last >= 0 {
			l = popLine(&rest)
		}
	}
	var at []int
	var kept [2]string // the lines of at
	for i := last; i >= 0 && i > last-2; i-- {
		if strings.TrimSpace(l) == "" || !signOffLine(l, names) {
			break
		}
		kept[len(at)] = l
		at = append(at, i)
		if i > 0 {
			l = popLine(&rest)
		}
	}
	if len(at) == 0 || at[len(at)-1] == 0 {
		return nil // nothing above it: the mail is all sign-off
	}
	// "Cheers," alone under the sheet is one; "Zoe" over "Cheers" is not
	if len(at) == 2 && !names.has(signOffName(kept[0])) {
		at = at[:1]
	}
	return at
}

// popLine is the last line of *rest (after its last "\n"), taken off it.
func popLine(rest *string) string {
	i := strings.LastIndexByte(*rest, '\n')
	l := (*rest)[i+1:]
	*rest = (*rest)[:max(i, 0)]
	return l
}

// signOffLine: a name, a closing, or a closing followed by a name.
func signOffLine(l string, names signNames) bool {
	t := signOffName(l)
	if t == "" || utf8.RuneCountInString(t) > 60 {
		return false
	}
	if names.has(t) || closings[t] {
		return true
	}
	for _, sep := range []string{", ", "! ", " "} {
		if i := strings.LastIndex(t, sep); i > 0 && closings[strings.TrimRight(t[:i], ",.! ")] && names.has(strings.TrimSpace(t[i+len(sep):])) {
			return true
		}
	}
	return false
}

// signOffName is a line as signOffLine compares it: lower case, without the
// punctuation and dashes around it ("-Zoe", "—Zoe" as Outlook's autocorrect makes it).
func signOffName(l string) string {
	return strings.Trim(strings.ToLower(strings.TrimSpace(visible(l))), ",.!~-–— ")
}

// senderNames are the ways a sender signs, lower case: the display name, its first word
// and the address's local part (at least two letters each).
func senderNames(name, from string) signNames {
	var names signNames
	add := func(s string) {
		s = strings.ToLower(strings.TrimSpace(s))
		if utf8.RuneCountInString(s) >= 2 {
			names.s[names.n], names.n = s, names.n+1
		}
	}
	add(name)
	// the first word, when there are two or more (strings.Fields, without the copy)
	if t := strings.TrimLeftFunc(name, unicode.IsSpace); t != "" {
		if i := strings.IndexFunc(t, unicode.IsSpace); i > 0 && strings.TrimSpace(t[i:]) != "" {
			add(t[:i])
		}
	}
	if i := strings.LastIndexByte(from, '@'); i > 0 {
		add(from[:i])
	}
	return names
}

// signNames are a sender's names (senderNames): at most three.
type signNames struct {
	s [3]string
	n int
}

func (ns *signNames) has(s string) bool {
	for _, x := range ns.s[:ns.n] {
		if x == s {
			return true
		}
	}
	return false
}
