package orders

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A greeting above a plain-text sheet written without markers (docs/orders.md, "Lines
// that are skipped"). Players write mail as mail:
//
//	Hi judge,
//
//	Fred Turn 3
//	P490 M2 670 L70 R80
//
// Read strictly, "Hi judge," is an error and the whole sheet is refused. A line above
// the first line of the sheet that is a greeting word ("hi", "hello", "dear", "good
// morning" ...) alone or with one of a few ways to address the judge or the table
// ("judge", "all", "there", "everyone" ...) is skipped: no order, card or header can be
// written so. Anything more on the line ("Hi, power down", "Hello Bob") keeps it an
// error, so that no word that might be a misspelt order is dropped unread; and between
// markers every line is meant as orders, greetings too.
//
// Sign-offs below a sheet ("Thanks, Zoe") are the judge's to skip, as it knows the
// sender's name (judge/signoff.go); client signatures ("Sent from my iPhone") are
// blanked when the mail is read (mail/reply.go), and a "-- " line ends the sheet.

var (
	// greetingWords open a greeting, as do greetingPairs.
	greetingWords = []string{"hi", "hello", "hey", "hiya", "howdy", "dear", "greetings", "hallo", "hej", "bonjour", "salut", "ciao", "morning", "evening", "afternoon"}
	greetingPairs = []string{"good morning", "good afternoon", "good evening", "good day"}
	// addressees may follow a greeting word, at most two of them ("Dear judge", "Hi
	// there all").
	addressees = []string{"judge", "rallyjudge", "robojudge", "gm", "all", "there", "everyone", "everybody", "folks", "friends", "team", "guys", "y'all", "again"}
)

// isGreeting reports whether line t (trimmed, cleaned, outside markers) is a greeting.
func isGreeting(t string) bool {
	if len(t) > 60 {
		return false
	}
	var buf [16]byte
	if w := firstASCIIWord(t, &buf); w != nil && string(w) != "good" && !slices.ContainsFunc(greetingWords, func(g string) bool { return string(w) == g }) {
		return false // most lines: no greeting, told without the copies below
	}
	fields := strings.Fields(strings.ToLower(strings.Map(func(r rune) rune {
		if unicode.IsPunct(r) && r != '\'' {
			return ' ' // "Hi," "Hello!" "Dear Judge:"
		}
		return r
	}, t)))
	n := 0 // the words the greeting takes
	switch {
	case len(fields) >= 2 && inList(fields[0]+" "+fields[1], greetingPairs...):
		n = 2
	case len(fields) >= 1 && inList(fields[0], greetingWords...):
		n = 1
	default:
		return false
	}
	rest := fields[n:]
	if len(rest) > 2 {
		return false
	}
	for _, w := range rest {
		if !inList(w, addressees...) {
			return false
		}
	}
	return true
}

// MarkerHint is the advice for a sheet with lines that read as neither orders nor
// everyday words, and no markers.
const MarkerHint = `Hint: the judge reads every line of your mail as orders, unless you mark them: put a line
"#orders" above your orders and a line "#end" below them, and nothing outside is read.
Without markers only a greeting above the orders ("Hi judge,") and your sign-off below them
("Thanks, Zoe", with the name your mail is sent under) may stay (docs/orders.md).`

// hasProse reports whether a problem is a line read as no order at all: prose, not a
// mistyped card or order.
func hasProse(ps []Problem) bool {
	for _, p := range ps {
		if strings.HasPrefix(p.Msg, "expected an order (") {
			return true
		}
	}
	return false
}

// firstASCIIWord is the first of t's fields as isGreeting reads them (lower case, split
// at spaces and punctuation but the apostrophe), written into buf, when t starts with
// ASCII letters that end there; nil when telling needs the full reading.
func firstASCIIWord(t string, buf *[16]byte) []byte {
	k := 0
	for k < len(t) && k < len(buf) && (t[k] >= 'a' && t[k] <= 'z' || t[k] >= 'A' && t[k] <= 'Z') {
		buf[k] = t[k] | 0x20
		k++
	}
	if k == 0 || k == len(buf) {
		return nil
	}
	if k < len(t) {
		c := t[k]
		if c >= utf8.RuneSelf || c == '\'' || !(c == ' ' || c == '\t' || unicode.IsPunct(rune(c))) {
			return nil
		}
	}
	return buf[:k]
}

// IsGreeting reports whether a line above a sheet written without markers is a
// greeting the judge skips ("Hi judge,"): the same test the sheet reader makes, for a
// game that reads its own moves (judge/hosted.go).
func IsGreeting(line string) bool { return isGreeting(strings.TrimSpace(line)) }
