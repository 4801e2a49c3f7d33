package orders

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// cleanLine undoes what mail clients and HTML-to-text conversion do to a line: HTML
// entities and tags, no-break and odd spaces, tabs, zero-width characters, smart quotes,
// dashes. It returns the runes and, for each, its 1-based column in the line as written,
// so messages point at what the player typed. tooLong reports a line over MaxLine.
// The caller owns both slices.
func cleanLine(s string) (out []rune, cols []int, tooLong bool) {
	var c cleaner
	out, cols, tooLong = c.clean(s)
	if c.asIs && !tooLong {
		cols = slices.Clone(cols) // not ascending's memory: scalarTokens shifts them
	}
	return out, cols, tooLong
}

// cleaner is cleanLine with buffers kept from one line to the next (a sheet's lines
// are read one at a time; what a line yields is copied out before the next). The
// columns of a line left as it was are ascending's memory, never to be written to.
type cleaner struct {
	in, out []rune
	cols    []int
	// asIs says the last line cleaned was left as it was: its runes are its bytes.
	asIs bool
}

func (c *cleaner) clean(s string) (out []rune, cols []int, tooLong bool) {
	clean := printableASCII(s)
	c.asIs = clean
	n := len(s) // a rune a byte in a clean line
	if !clean {
		n = utf8.RuneCountInString(s)
	}
	if n > MaxLine {
		return nil, nil, true
	}
	if cap(c.in) < n {
		k := max(n, 96) // most lines of a sheet fit the first buffers
		c.in, c.out, c.cols = make([]rune, 0, k), make([]rune, 0, k), make([]int, 0, k)
	}
	if clean {
		// Most lines: nothing to undo; a rune a byte, and the columns 1, 2, 3 ... (a
		// piece of ascending, which no one writes to: capped, an append copies it).
		if cap(c.out) < n {
			c.out = make([]rune, 0, n)
		}
		out = c.out[:len(s)]
		for i := 0; i < len(s); i++ {
			out[i] = rune(s[i])
		}
		c.out = out
		return out, ascending[:n:n], false
	}
	out, cols = c.undo(s, n)
	return out, cols, false
}

// undo is clean for a line that is not printable ASCII already (printableASCII), of n
// runes.
func (c *cleaner) undo(s string, n int) (out []rune, cols []int) {
	if cap(c.in) < n {
		c.in = make([]rune, 0, n)
	}
	in := c.in[:n]
	if n == len(s) {
		for i := range in { // ASCII: a rune a byte
			in[i] = rune(s[i])
		}
	} else {
		i := 0
		for _, r := range s {
			in[i] = r
			i++
		}
	}
	if cap(c.out) < n || cap(c.cols) < n {
		c.out, c.cols = make([]rune, 0, n), make([]int, 0, n)
	}
	out, cols = c.out[:0], c.cols[:0] // a rune of in makes at most one of out
	defer func() { c.in, c.out, c.cols = in, out, cols }()
	for i := 0; i < len(in); i++ {
		r := in[i]
		col := i + 1
		if r >= ' ' && r < 0x7f && r != '&' && r != '<' {
			// printable ASCII, most of a sheet: the run of it copied at once
			j := i + 1
			for j < len(in) && in[j] >= ' ' && in[j] < 0x7f && in[j] != '&' && in[j] != '<' {
				j++
			}
			k := len(out)
			out, cols = out[:k+j-i], cols[:k+j-i]
			for x := i; x < j; x++ {
				out[k+x-i], cols[k+x-i] = in[x], x+1
			}
			i = j - 1
			continue
		}
		switch {
		case r == '&':
			if rep, n := entity(in[i:]); n > 0 {
				if rep != 0 {
					out, cols = append(out, rep), append(cols, col)
				}
				i += n - 1
				continue
			}
		case r == '<':
			if n := tag(in[i:]); n > 0 {
				out, cols = append(out, ' '), append(cols, col)
				i += n - 1
				continue
			}
		}
		switch r {
		case '\t', '\u00a0', '\u2007', '\u202f', '\u3000', '\u2002', '\u2003', '\u2009', '\r', '\f', '\v':
			r = ' '
		case '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad':
			continue
		case '‘', '’', '‚', '‛', '′', '´':
			r = '\''
		case '“', '”', '„', '‟', '″', '«', '»':
			r = '"'
		case '–', '—', '‐', '‑', '−', '‒':
			r = '-'
		case '…':
			r = '.'
		case '＞':
			r = '>'
		}
		if r != ' ' && !unicode.IsPrint(r) {
			r = ' '
		}
		out, cols = append(out, r), append(cols, col)
	}
	return out, cols
}

// ascending are the columns of a line of MaxLine characters each a column wide: 1, 2, 3 ...
var ascending = func() (a [MaxLine]int) {
	for i := range a {
		a[i] = i + 1
	}
	return a
}()

// printableASCII reports whether s is printable ASCII without a "<" (an HTML tag may
// start with it) and whose every "&" starts no HTML entity: a line clean already, which
// cleaning would leave as it is ("repair & damage > 3", from seed 003's sample orders).
func printableASCII(s string) bool {
	// Eight bytes at a time while none is past '~' or below ' ' and none is "<" or "&"
	// (hasZeroByte of x with the byte's bits flipped off).
	// Eight bytes with one of those are looked at one by one, and the eight after them
	// again at once ("repair & damage > 3": a plain "&" in the middle of a line).
	const ones = 0x0101010101010101
	for i := 0; i < len(s); {
		if i+8 <= len(s) {
			w := s[i : i+8] // one bounds check for the eight bytes, read as one load
			x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
				uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
			odd := x&(0x80*ones) | (x-0x20*ones)&^x&(0x80*ones) | hasZeroByte(x^0x7f*ones) | hasZeroByte(x^'<'*ones) | hasZeroByte(x^'&'*ones)
			if odd == 0 {
				i += 8
				continue
			}
			for end := i + 8; i < end; i++ {
				if !printableAt(s, i) {
					return false
				}
			}
			continue
		}
		if !printableAt(s, i) {
			return false
		}
		i++
	}
	return true
}

// printableAt reports whether s[i] is printable ASCII, not "<", and not an "&" that
// starts an HTML entity (printableASCII).
func printableAt(s string, i int) bool {
	c := s[i]
	return c >= ' ' && c < 0x7f && c != '<' && (c != '&' || !ampEntity(s[i:]))
}

// hasZeroByte is nonzero when a byte of x is zero.
func hasZeroByte(x uint64) uint64 {
	const ones = 0x0101010101010101
	return (x - ones) &^ x & (0x80 * ones)
}

// ampEntity reports whether the ASCII text s, which starts with "&", starts with an HTML
// entity (entity): the runes entity reads of it, at most ten, are copied onto the stack.
func ampEntity(s string) bool {
	var buf [10]rune
	n := 0
	for n < len(buf) && n < len(s) {
		buf[n] = rune(s[n])
		n++
	}
	_, k := entity(buf[:n])
	return k > 0
}

var entities = map[string]rune{
	"nbsp": ' ', "amp": '&', "gt": '>', "lt": '<', "quot": '"', "apos": '\'', "#39": '\'',
	"#160": ' ', "#38": '&', "#62": '>', "#60": '<', "#34": '"', "ensp": ' ', "emsp": ' ',
	"thinsp": ' ', "ndash": '-', "mdash": '-', "lsquo": '\'', "rsquo": '\'', "ldquo": '"',
	"rdquo": '"', "hellip": '.', "shy": 0, "zwsp": 0, "#8203": 0, "ge": '≥', "le": '≤', "ne": '≠',
}

// entity reads an HTML entity at the start of in: its replacement (0 to drop it) and
// its length, or n == 0 when it is not one.
func entity(in []rune) (rune, int) {
	for j := 1; j < len(in) && j < 10; j++ {
		if in[j] == ';' {
			if r, ok := entities[strings.ToLower(string(in[1:j]))]; ok {
				return r, j + 1
			}
			return 0, 0
		}
		if !(unicode.IsLetter(in[j]) || unicode.IsDigit(in[j]) || in[j] == '#') {
			return 0, 0
		}
	}
	return 0, 0
}

// htmlTags are the tags HTML-to-text conversion leaves behind.
var htmlTags = map[string]bool{
	"br": true, "p": true, "div": true, "span": true, "b": true, "i": true, "u": true, "em": true,
	"strong": true, "font": true, "pre": true, "tt": true, "code": true, "blockquote": true,
	"html": true, "body": true, "head": true, "li": true, "ul": true, "ol": true, "tr": true,
	"td": true, "table": true, "tbody": true, "a": true, "hr": true, "o:p": true, "wbr": true,
}

// tag reads an HTML tag like <br>, </div> or <font face="x"> at the start of in and
// returns its length, or 0. Only known tags count, so "damage <3 and >1" is left alone.
func tag(in []rune) int {
	j := 1
	if j < len(in) && in[j] == '/' {
		j++
	}
	start := j
	for j < len(in) && (unicode.IsLetter(in[j]) || unicode.IsDigit(in[j]) || in[j] == ':') {
		j++
	}
	if !htmlTags[strings.ToLower(string(in[start:j]))] {
		return 0
	}
	for k := j; k < len(in) && k < 200; k++ {
		if in[k] == '>' {
			return k + 1
		}
		if in[k] == '<' {
			return 0
		}
	}
	return 0
}
