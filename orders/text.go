package orders

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// Plain-text sheets in the postal style (seed 003, "Sample Orders"):
//
//	Fred Turn 3
//	P490 M2 670 L70 R80 B430
//	If I finish on 2 spanner repair & damage > 3 repair, else take option card.
//
// Reading a mail, in this order: line endings are normalised; if a start marker is
// present only the lines after it are read, up to an end marker (markers: docs/orders.md);
// quoted lines ("> ...") and comments ("# ..." "// ...") are skipped, and a "#" after
// a space ends the line ("P490   # register 1"; see commentAt); a signature line ("-- ")
// ends the sheet. Each remaining line is a header, program cards, or orders.

// Parse reads a sheet in either notation: YAML when it starts with a "---" line or a
// "%YAML" directive (after blank lines and comments), plain text otherwise. Every
// problem found is returned in one *SyntaxError.
func Parse(b []byte) (*Sheet, error) {
	if len(b) > MaxSize {
		return nil, &SyntaxError{Problems: []Problem{{Msg: fmt.Sprintf("the sheet is larger than %d bytes, the most a sheet may be", MaxSize)}}}
	}
	if looksYAML(b) {
		return ParseYAML(b)
	}
	return ParseText(b)
}

func looksYAML(b []byte) bool {
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		line = bytes.TrimPrefix(line, []byte("\ufeff"))
		line = bytes.TrimSpace(line)
		switch {
		case len(line) == 0 || line[0] == '#':
			continue
		case string(line) == "---" || bytes.HasPrefix(line, []byte("%YAML")):
			return true
		}
		return false
	}
	return false
}

// textParser holds the state of reading one plain-text sheet.
type textParser struct {
	s  *Sheet
	ps problems
	// missing counts the registers written without a card (a bare "P" left from the
	// sheet the report mails), so the registers after them keep their numbers.
	missing int
	// overflowLine is the line whose card too many was told (addCard), 0 for none.
	overflowLine int
}

// ParseText reads a plain-text sheet.
func ParseText(b []byte) (*Sheet, error) {
	if len(b) > MaxSize {
		return nil, &SyntaxError{Problems: []Problem{{Msg: fmt.Sprintf("the sheet is larger than %d bytes, the most a sheet may be", MaxSize)}}}
	}
	sc := textScratches.Get().(*textScratch)
	defer sc.put()
	// One lower-cased copy of an ASCII sheet serves every line the cleaning leaves as
	// written (appendTokens); it is the sheet itself when there are no capitals.
	text, lower := normalize(b)
	lines, offs := sc.split(text)

	first, last := markedBlock(lines)
	marked := first > 0 // a start marker: every line after it is meant as orders
	read := false       // a line of the sheet has been read: no greeting below it
	tp := &textParser{s: &Sheet{}}
	c := &sc.c
	for i := first; i < last; i++ {
		n := i + 1
		raw := lines[i]
		runes, cols, tooLong := c.clean(raw)
		if tooLong {
			tp.ps.add(Pos{n, 0}, "the line is longer than %d characters", MaxLine)
			continue
		}
		if isSignature(raw) {
			break // a signature follows (RFC 3676 "-- ")
		}
		// Cleaning makes no "#": a line without one has no comment.
		if strings.IndexByte(raw, '#') >= 0 {
			if i := commentAt(runes); i >= 0 {
				runes, cols = runes[:i], cols[:i]
			}
		}
		// A line that cleaning did not change (but for a comment cut off) is a piece of
		// the sheet's string, and of its lower-cased copy.
		str, low := raw, ""
		if c.asIs || len(runes) <= len(raw) && sameASCII(runes, raw) {
			str = raw[:len(runes)]
			if lower != "" {
				low = lower[offs[i] : offs[i]+len(runes)]
			}
		} else {
			str = string(runes)
		}
		trimmed := strings.TrimSpace(str)
		if trimmed == "" || isQuoted(trimmed) || isComment(trimmed) || isAttribution(trimmed) {
			continue
		}
		if isOriginalMessage(trimmed) {
			break // the quoted original follows, unmarked (Outlook)
		}
		if !marked && !read && isGreeting(trimmed) {
			continue // a greeting above an unmarked sheet (greetings.go)
		}
		tp.line(n, runes, cols, str, low, sc)
		read = true
	}
	if err := tp.ps.err(); err != nil {
		if !marked && hasProse(tp.ps.list) {
			err.(*SyntaxError).Hint = MarkerHint
		}
		return tp.s, err
	}
	return tp.s, nil
}

// textScratch is the memory ParseText works in, kept from sheet to sheet: the cleaned
// line, the lines, the tokens, the order parser. Nothing of it is handed to the sheet
// (its strings are pieces of the sheet's own copy of the text). A sync.Pool: a judge
// reads a mail's sheets in a burst, and memory left between bursts is better given back.
type textScratch struct {
	c     cleaner
	lines []string
	offs  []int
	toks  []token
	lp    langParser
}

var textScratches = sync.Pool{New: func() any { return new(textScratch) }}

// put gives the scratch back. What it holds of the last sheet (lines, tokens: pieces of
// the sheet's text) is written over by the next sheet read in it, or let go of with the
// scratch when the pool drops it at a collection: clearing it at once zeroed a kB of
// pointers a sheet, each a write barrier while the collector marks.
func (sc *textScratch) put() {
	textScratches.Put(sc)
}

// normalize is b as a string, made valid UTF-8 (U+FFFD for what is not), without a
// byte order mark, with every line ending a "\n"; and when that text is ASCII, its
// lower-cased copy (strings.ToLower: the text itself when it has no capitals), else "".
// The text and its lower case of a valid sheet are one allocation.
func normalize(b []byte) (text, lower string) {
	// ASCII, as most sheets are, is valid UTF-8 without a byte order mark: told in one
	// pass, eight bytes at a time.
	ascii := isASCIIBytes(b)
	if !ascii && !utf8.Valid(b) {
		text := strings.ToValidUTF8(string(b), "\uFFFD")
		text = strings.TrimPrefix(text, "\ufeff")
		text = strings.ReplaceAll(text, "\r\n", "\n")
		text = strings.ReplaceAll(text, "\r", "\n")
		if isASCII(text) {
			lower = strings.ToLower(text)
		}
		return text, lower
	}
	if !ascii {
		b = bytes.TrimPrefix(b, []byte("\ufeff"))
		ascii = isASCIIBytes(b)
	}
	size := len(b)
	if ascii {
		size *= 2 // room for the lower case after the text
	}
	buf := make([]byte, 0, size)
	for rest := b; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\r')
		if i < 0 {
			buf = append(buf, rest...)
			break
		}
		buf = append(buf, rest[:i]...)
		buf = append(buf, '\n') // "\r\n" or a "\r" alone
		rest = rest[i+1:]
		if len(rest) > 0 && rest[0] == '\n' {
			rest = rest[1:]
		}
	}
	n := len(buf)
	// buf is never written again where the strings see it
	text = unsafe.String(unsafe.SliceData(buf), n)
	if !ascii {
		return text, ""
	}
	buf = buf[:2*n] // cap(buf) is twice len(b), n at most len(b)
	if !lowerASCII(buf[n:], buf[:n]) {
		return text, text
	}
	return text, unsafe.String(&buf[n], n)
}

// lowerASCII writes the ASCII text src lower-cased to dst, as long, and reports whether
// it had capitals.
func lowerASCII(dst, src []byte) bool {
	dst = dst[:len(src)]
	upper := false
	// Eight bytes at a time: a byte's top bit of x+0x3f is set from 'A' up, of x+0x25
	// past 'Z' (no byte carries into the next: every byte is below 0x80); the capitals'
	// top bits shifted down two are the 0x20 that lower-cases them.
	const ones = 0x0101010101010101
	for len(src) >= 8 {
		x := binary.LittleEndian.Uint64(src)
		caps := (x + 0x3f*ones) &^ (x + 0x25*ones) & (0x80 * ones)
		binary.LittleEndian.PutUint64(dst, x|caps>>2)
		upper = upper || caps != 0
		src, dst = src[8:], dst[8:]
	}
	for i, c := range src {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
			upper = true
		}
		dst[i] = c
	}
	return upper
}

// isASCIIBytes reports whether b is ASCII, eight bytes at a time.
func isASCIIBytes(b []byte) bool {
	for len(b) >= 8 {
		if binary.LittleEndian.Uint64(b)&0x8080808080808080 != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// split is strings.Split(text, "\n") in the scratch's memory, and each line's offset in
// text.
func (sc *textScratch) split(text string) ([]string, []int) {
	lines, offs := sc.lines[:0], sc.offs[:0]
	off := 0
	for {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			lines, offs = append(lines, text[off:]), append(offs, off)
			break
		}
		lines, offs = append(lines, text[off:off+i]), append(offs, off)
		off += i + 1
	}
	sc.lines, sc.offs = lines, offs
	return lines, offs
}

// sameASCII reports whether runes spell the start of s, ASCII byte for byte.
func sameASCII(runes []rune, s string) bool {
	if len(runes) > len(s) {
		return false
	}
	for i, r := range runes {
		if r != rune(s[i]) || s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// isSignature reports whether l is the line above a signature: "--" and nothing after
// it but spaces and tabs (strings.TrimRight(l, " \t") == "--", without building the set
// of the characters to trim at every line).
func isSignature(l string) bool {
	if len(l) < 2 || l[0] != '-' || l[1] != '-' {
		return false
	}
	for i := 2; i < len(l); i++ {
		if l[i] != ' ' && l[i] != '\t' {
			return false
		}
	}
	return true
}

func isQuoted(t string) bool { return strings.HasPrefix(t, ">") || strings.HasPrefix(t, "|>") }

// isAttribution recognises the line a mail client puts above quoted text ("On Tue, 4
// Mar 2025, Judge <judge@example.org> wrote:").
func isAttribution(t string) bool {
	if !strings.HasSuffix(t, ":") {
		return false // every ending below does
	}
	l := strings.ToLower(t)
	for _, end := range []string{"wrote:", "writes:", "schrieb:", "a écrit :", "a écrit:", "skrev:", "escribió:", "scrisse:", "schreef:"} {
		if strings.HasSuffix(l, end) {
			return true
		}
	}
	return false
}

func isOriginalMessage(t string) bool {
	// strings.Trim(t, "-_ ") without its set built at every call: every line read as
	// orders comes here
	i, j := 0, len(t)
	for i < j && (t[i] == '-' || t[i] == '_' || t[i] == ' ') {
		i++
	}
	for j > i && (t[j-1] == '-' || t[j-1] == '_' || t[j-1] == ' ') {
		j--
	}
	l := t[i:j] // no lower-cased copy
	// What folds to the words' first letters is those letters (TestFirstFoldsASCII): a
	// line starting otherwise is none of them, told without comparing.
	if l == "" || (l[0]|0x20 != 'o' && l[0]|0x20 != 'f' && l[0]|0x20 != 'u') {
		return false
	}
	return strings.EqualFold(l, "original message") || strings.EqualFold(l, "forwarded message") || strings.EqualFold(l, "ursprüngliche nachricht")
}

func isComment(t string) bool {
	return strings.HasPrefix(t, "//") || (strings.HasPrefix(t, "#") && markerKind(t) == 0)
}

// commentAt finds a trailing comment in a line that is not a comment as a whole: the
// index of a "#" that follows a space and is not followed by a digit ("P490   # register
// 1", "power down # to be safe"), or -1. A "#" inside a word ("C#", "tango#42") is not a
// comment, and neither is "#490" after a space, a priority written the old way ("M1
// #490"). A line that starts with "#" is a comment as a whole (isComment), unless it is a
// marker.
func commentAt(line []rune) int {
	for i := 1; i < len(line); i++ {
		if line[i] != '#' || !unicode.IsSpace(line[i-1]) {
			continue
		}
		if i+1 < len(line) && line[i+1] >= '0' && line[i+1] <= '9' {
			continue
		}
		return i
	}
	return -1
}

// cutComment is the line without its trailing comment (commentAt), for markers.
func cutComment(l string) string {
	t := strings.TrimSpace(l)
	if i := commentAt([]rune(t)); i >= 0 {
		return string([]rune(t)[:i])
	}
	return t
}

// Block is the range of lines (0-based, last exclusive) of a text that ParseText
// reads: between the markers, or the whole text up to an end marker.
func Block(text string) (first, last int) {
	return markedBlock(strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n"))
}

// markedBlock finds the lines to read: after a start marker up to an end marker, or
// the whole text up to an end marker. Quoted lines never count as markers.
func markedBlock(lines []string) (first, last int) {
	first, last = 0, len(lines)
	for i, l := range lines {
		if plainLine(l) {
			continue
		}
		if isQuoted(strings.TrimSpace(l)) {
			continue
		}
		if markerKind(l) == 1 {
			first = i + 1
			break
		}
	}
	for i := first; i < len(lines); i++ {
		if !plainLine(lines[i]) && !isQuoted(strings.TrimSpace(lines[i])) && markerKind(lines[i]) == 2 {
			return first, i
		}
	}
	return first, last
}

// plainLine reports whether l is neither quoted (isQuoted) nor a marker (markerKind) by
// its first character, as most lines are: blank, or the first after ASCII white space is
// ASCII and can start neither.
func plainLine(l string) bool {
	i := 0
	for i < len(l) && (l[i] == ' ' || l[i] >= '\t' && l[i] <= '\r') {
		i++
	}
	return i == len(l) || l[i] < utf8.RuneSelf && !markerFirsts[l[i]] && l[i] != '|'
}

// markerFirsts are the ASCII characters a marker can start with (markerKind), by code:
// a table, not a search of a string of them at every line.
var markerFirsts = func() (f [utf8.RuneSelf]bool) {
	for _, c := range []byte("-#=*[]<>_:obsemOBSEM") {
		f[c] = true
	}
	return f
}()

// markerKind: 1 for a start marker ("#orders", "--- orders ---", "=== begin orders ==="),
// 2 for an end marker ("#end", "--- end ---", "end of orders"), 0 otherwise.
func markerKind(l string) int {
	t := strings.TrimSpace(l)
	if t == "" || t[0] >= utf8.RuneSelf || !markerFirsts[t[0]] {
		// Neither trimming below nor cutting a comment changes the first character
		// unless it is one of these, and every marker word starts with o, b, s, e or m.
		return 0
	}
	if strings.LastIndexByte(t, '#') > 0 {
		t = cutComment(t) // "#end   # that's all"
	}
	if len(t) > 40 {
		return 0
	}
	decorated := strings.TrimLeft(t, "-#=*[<_ ") != t
	t = strings.Trim(t, "-#=*[]<>_ :")
	if len(t) < 3 || !strings.ContainsAny(t[:1], "obsemOBSEM") {
		return 0 // cannot be one of the words below
	}
	if !markerStart(t) {
		return 0 // "secret ...", "move 2": not copied to be told so (issue 24 item 7)
	}
	t = strings.ToLower(strings.Join(strings.Fields(t), " "))
	switch t {
	case "orders", "begin orders", "start orders", "orders begin", "orders start", "start of orders", "my orders":
		if decorated {
			return 1
		}
	case "end", "end orders", "end of orders", "orders end", "stop":
		if decorated || t != "stop" {
			return 2
		}
	}
	return 0
}

// markerStart says whether t, trimmed, may be a marker of markerKind's: in ASCII, when
// its first word is one a marker starts with in any case (beyond ASCII, where other
// letters lower to ASCII ones, any may).
func markerStart(t string) bool {
	w := t
	for i := 0; i < len(t); i++ {
		if c := t[i]; c >= utf8.RuneSelf {
			return true
		} else if c == ' ' || c >= '\t' && c <= '\r' {
			w = t[:i]
			break
		}
	}
	for _, m := range [...]string{"orders", "begin", "start", "my", "end", "stop"} {
		if strings.EqualFold(w, m) {
			return true
		}
	}
	return false
}

// header keys, lower case, and the Sheet field each sets.
var headerKeys = map[string]string{
	"game": "game", "robot": "robot", "bot": "robot", "player": "robot", "turn": "turn", "round": "turn",
	"secret": "secret", "password": "secret", "passwd": "secret", "pw": "secret", "pass": "secret",
}

// headerFirsts are the first letters of the header keys, by ASCII code.
var headerFirsts = func() (f [utf8.RuneSelf]bool) {
	for k := range headerKeys {
		f[k[0]] = true
	}
	return f
}()

// IsHeaderKey says whether a line's first word (lower case, without a colon) is one of
// a sheet's header keys (game, robot or player, turn, secret and their other names):
// the sheet's envelope, which the judge reads for every game.
func IsHeaderKey(word string) bool { _, ok := headerKeys[word]; return ok }

// line reads one line that is not blank, quoted or a comment.
// str is string(runes), lower strings.ToLower(str) or "" (appendTokens); the tokens
// and the order parser are sc's.
func (tp *textParser) line(n int, runes []rune, cols []int, str, lower string, sc *textScratch) {
	// "Key: value" headers.
	if key, val, vcol, ok := splitHeader(runes, cols, str); ok {
		tp.header(n, key, val, vcol)
		return
	}
	toks := appendTokens(sc.toks[:0], str, lower, runes, cols)
	sc.toks = toks[:0]
	if len(toks) == 0 {
		return
	}
	// Prefixes that only say what follows.
	for len(toks) > 1 && isLinePrefix(toks[0].text) {
		k := 1
		if toks[0].text == "standing" || toks[0].text == "conditional" {
			if k < len(toks) && toks[k].text == "orders" {
				k++
			}
		}
		if k < len(toks) && (toks[k].text == ":" || toks[k].text == "-" || toks[k].text == "=") {
			toks = toks[k+1:]
			continue
		}
		break
	}
	// A bullet: "- P490 ..." or "* power down". A lone "-" is a locked register, and so
	// is a "-" a separator follows: "-, Move 1, ..." (a 2023 program whose register 1
	// holds a face-down Haywire).
	if len(toks) > 1 && inList(toks[0].text, "-", "*", "•") && (toks[0].text != "-" || !inList(toks[1].text, ",", ";", "/", "|")) {
		toks = toks[1:]
	}
	if len(toks) == 0 {
		return
	}
	// "Fred Turn 3": the postal header.
	if name, turn, ok := postalHeader(toks); ok {
		tp.set(n, "robot", name, toks[0].col)
		tp.set(n, "turn", turn, toks[len(toks)-1].col)
		return
	}
	if cardStart(toks) {
		tp.cards(n, toks)
		return
	}
	p := &sc.lp
	p.reset(toks, n)
	for !p.end() {
		if len(tp.s.Rules) >= MaxRules {
			tp.ps.add(Pos{n, 0}, "more than %d orders on one sheet", MaxRules)
			return
		}
		rs, ok := p.appendRules(tp.s.Rules)
		if !ok {
			tp.ps.list = append(tp.ps.list, *p.err)
			return
		}
		if len(rs) > MaxRules {
			tp.ps.add(Pos{n, 0}, "more than %d orders on one sheet", MaxRules)
			return
		}
		tp.s.Rules = rs
	}
}

// isLinePrefix reports the words that may start a line only to say what follows
// ("Program: P490 ...", "Standing orders: ...").
func isLinePrefix(w string) bool {
	switch w {
	case "program", "programme", "prog", "registers", "cards", "orders", "standing", "conditional", "conditionals", "options":
		return true
	}
	return false
}

// splitHeader recognises "Key: value" / "Key value" for the header keys. str is
// string(runes).
func splitHeader(runes []rune, cols []int, str string) (key, val string, vcol int, ok bool) {
	i := 0
	for i < len(runes) && runes[i] == ' ' {
		i++
	}
	if i == len(runes) || runes[i] >= utf8.RuneSelf || !headerFirsts[runes[i]|0x20] {
		return "", "", 0, false // most lines: the first letter starts no key
	}
	j := i
	for j < len(runes) && (runes[j] >= 'a' && runes[j] <= 'z' || runes[j] >= 'A' && runes[j] <= 'Z') {
		j++
	}
	var buf [16]byte // the longest header key is shorter; a longer word is no key
	if j-i > len(buf) {
		return "", "", 0, false
	}
	lk := buf[:0]
	for _, r := range runes[i:j] {
		lk = append(lk, byte(r)|0x20) // ASCII letters (the loop above): lower case
	}
	field, known := headerKeys[string(lk)]
	if !known || j == len(runes) {
		return "", "", 0, false
	}
	k := j
	for k < len(runes) && runes[k] == ' ' {
		k++
	}
	colon := false
	if k < len(runes) && (runes[k] == ':' || runes[k] == '=' || runes[k] == '#') {
		colon = true
		k++
	}
	if !colon && k == j {
		return "", "", 0, false // "Turnip"
	}
	for k < len(runes) && runes[k] == ' ' {
		k++
	}
	if k == len(runes) {
		return "", "", 0, false
	}
	if len(str) == len(runes) {
		val = strings.TrimSpace(str[k:]) // a rune a byte: a piece of the line, no copy
	} else {
		val = strings.TrimSpace(string(runes[k:]))
	}
	if field == "turn" {
		val = strings.TrimRight(val, ".!")
	}
	// Without a colon, only "Turn 3", "Game NAME", "Robot NAME" count; "turn left" does not.
	if !colon && field == "turn" && !allDigits(val) {
		return "", "", 0, false
	}
	return field, val, cols[k], true
}

func (tp *textParser) header(n int, field, val string, col int) {
	if field == "secret" {
		val = strings.TrimSpace(val)
	}
	tp.set(n, field, val, col)
}

// set records a header field; the same field twice with different values is an error.
func (tp *textParser) set(n int, field, val string, col int) {
	at := Pos{n, col}
	s := tp.s
	if field == "game" || field == "robot" {
		// a name that rewrites what is shown is no game's or robot's (issue 14 item 9);
		// it is never echoed
		if msg := adjudicator.NameProblem(val); msg != "" {
			tp.ps.add(at, "%s name: %s, which is not allowed in names", field, msg)
			return
		}
	}
	switch field {
	case "game":
		if s.Game != "" && s.Game != val {
			tp.ps.add(at, "game given twice (%q, then %q)", s.Game, val)
			return
		}
		s.Game = val
	case "robot":
		val = strings.Trim(val, " ,.:")
		if s.Robot != "" && s.Robot != val {
			tp.ps.add(at, "robot given twice (%q, then %q)", s.Robot, val)
			return
		}
		s.Robot = val
	case "turn":
		t, err := strconv.Atoi(strings.TrimSpace(val))
		if err != nil || t < 1 || t > 100000 {
			tp.ps.add(at, "expected a turn number, got %q", val)
			return
		}
		if s.Turn != 0 && s.Turn != t {
			tp.ps.add(at, "turn given twice (%d, then %d)", s.Turn, t)
			return
		}
		s.Turn = t
	case "secret":
		if s.Secret != "" && s.Secret != val {
			tp.ps.add(at, "secret given twice, differently")
			return
		}
		s.Secret = val
	}
	s.setAt(field, at)
}

// postalHeader recognises "NAME Turn N" (seed 003, Sample Orders: "Fred Turn 3").
func postalHeader(toks []token) (name, turn string, ok bool) {
	k := len(toks)
	if k >= 1 && (toks[k-1].text == "." || toks[k-1].text == "!") {
		k--
	}
	if k < 3 || toks[k-1].kind != 'n' || toks[k-2].text != "turn" {
		return "", "", false
	}
	if inList(toks[0].text, actionWords...) || inList(toks[0].text, "if", "when", "unless") {
		return "", "", false
	}
	var buf [4]string
	parts := buf[:0]
	for _, t := range toks[:k-2] {
		if t.text == "," || t.text == "-" || t.text == ":" {
			continue
		}
		if t.kind == 'p' || t.kind == 'o' {
			return "", "", false
		}
		parts = append(parts, t.raw)
	}
	if len(parts) == 0 {
		return "", "", false
	}
	return strings.Join(parts, " "), toks[k-1].text, true
}
