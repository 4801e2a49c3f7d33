package orders

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// token is one word, number or sign of an order line, lower-cased, with its column.
type token struct {
	text string // lower-cased
	raw  string // as written
	col  int
	kind byte // 'w' word, 'n' number, 'o' operator, 'p' punctuation
}

// lex splits a cleaned line into tokens; cols[i] is the original column of line[i].
// Tokens' texts are slices of one string made for the line (no allocation per token
// but for lower-casing words written with capitals).
func lex(line []rune, cols []int) []token {
	return lexString(string(line), line, cols)
}

// lexString is lex with string(line) already made.
func lexString(str string, line []rune, cols []int) []token {
	return appendTokens(make([]token, 0, len(line)/4+2), str, "", line, cols)
}

// appendTokens is lexString appending to toks; lower is strings.ToLower(str) when the
// caller has it (an ASCII line), or "".
func appendTokens(toks []token, str, lower string, line []rune, cols []int) []token {
	if len(str) == len(line) {
		// A byte a rune (a rune string(line) cannot encode takes three): an ASCII line,
		// most of a sheet, read byte by byte.
		if lower == "" {
			lower = strings.ToLower(str) // one copy, only when there are capitals
		}
		return appendTokensASCII(toks, str, lower, cols)
	}
	return appendTokensRunes(toks, str, lower, line, cols)
}

// appendTokensASCII is appendTokensRunes for an ASCII line str, lower its lower case:
// the same tokens (FuzzTokensASCII), without decoding runes.
func appendTokensASCII(toks []token, str, lower string, cols []int) []token {
	lower = lower[:len(str)]
	cols = cols[:len(str)]
	for i := 0; i < len(str); {
		c := str[i]
		switch lexASCII[c&0x7f] {
		case lexSkip:
			i++
		case lexWord:
			j := i + 1
			for j < len(str) && wordASCII[str[j]&0x7f] {
				j++
			}
			// A word does not end in a hyphen or apostrophe (appendTokensRunes).
			for j > i+1 && (str[j-1] == '-' || str[j-1] == '\'') {
				j--
			}
			k := byte('w')
			if c <= '9' && allDigits(str[i:j]) { // a word starting with a letter or '_' is no number
				k = 'n'
			}
			toks = appendToken(toks, lower[i:j], str[i:j], cols[i], k)
			i = j
		default:
			op := ""
			if i+1 < len(str) {
				switch two := str[i : i+2]; two {
				case ">=", "<=", "!=", "==", "=>", "=<", "&&", "||", "<>":
					op = two
				}
			}
			if op == "" {
				switch c {
				case '>', '<', '=', '&', '|':
					op = str[i : i+1]
				}
			}
			if op != "" {
				toks = appendToken(toks, normOp(op), op, cols[i], 'o')
				i += len(op)
				continue
			}
			one := str[i : i+1]
			toks = appendToken(toks, one, one, cols[i], 'p')
			i++
		}
	}
	return toks
}

// appendToken appends a token written in place, field by field: a token{...} appended
// is built on the stack and copied, with a bulk write barrier while the collector marks.
func appendToken(toks []token, text, raw string, col int, kind byte) []token {
	n := len(toks)
	toks = slices.Grow(toks, 1)[:n+1]
	t := &toks[n]
	t.text, t.raw, t.col, t.kind = text, raw, col, kind
	return toks
}

// appendTokensRunes is appendTokens for any line.
func appendTokensRunes(toks []token, str, lower string, line []rune, cols []int) []token {
	// One lower-cased copy of an ASCII line serves every word; other lines lower-case
	// word by word (a rune's lower case may not be as long as it).
	if lower == "" && isASCII(str) {
		lower = strings.ToLower(str) // one copy, only when there are capitals
	}
	isWord := func(r rune) bool {
		if r < utf8.RuneSelf {
			return wordASCII[r]
		}
		return unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	size := func(r rune) int {
		if r < utf8.RuneSelf {
			return 1
		}
		if n := utf8.RuneLen(r); n > 0 {
			return n
		}
		return 3 // string(line) writes U+FFFD for a rune that cannot be encoded
	}
	b := 0 // byte offset of line[i] in str
	for i := 0; i < len(line); {
		r := line[i]
		// ASCII, most of a sheet, classed by a table (lexASCII), the same classes as
		// unicode's
		var class byte
		if r < utf8.RuneSelf {
			class = lexASCII[r]
		} else if unicode.IsSpace(r) {
			class = lexSkip
		} else if unicode.IsLetter(r) || unicode.IsDigit(r) {
			class = lexWord
		}
		switch class {
		case lexSkip:
			b += size(r)
			i++
		case lexWord:
			j, bj := i+1, b+size(r)
			for j < len(line) {
				if c := line[j]; c < utf8.RuneSelf {
					if !wordASCII[c] {
						break
					}
					bj++
				} else if isWord(c) {
					bj += size(c)
				} else {
					break
				}
				j++
			}
			// A word does not end in a hyphen or apostrophe ("flag-" "players'"); those
			// are read again, as punctuation.
			for j > i+1 && (line[j-1] == '-' || line[j-1] == '\'') {
				j--
				bj--
			}
			raw := str[b:bj]
			k := byte('w')
			if allDigits(raw) {
				k = 'n'
			}
			text := ""
			if lower != "" {
				text = lower[b:bj]
			} else {
				text = strings.ToLower(raw)
			}
			toks = append(toks, token{text: text, raw: raw, col: cols[i], kind: k})
			i, b = j, bj
		default:
			op := ""
			if i+1 < len(line) && r < utf8.RuneSelf && line[i+1] < utf8.RuneSelf {
				switch two := str[b : b+2]; two {
				case ">=", "<=", "!=", "==", "=>", "=<", "&&", "||", "<>":
					op = two
				}
			}
			if op == "" {
				switch r {
				case '>', '<', '=', '&', '|', '≥', '≤', '≠':
					op = str[b : b+size(r)]
				}
			}
			if op != "" {
				toks = append(toks, token{text: normOp(op), raw: op, col: cols[i], kind: 'o'})
				i += len([]rune(op))
				b += len(op)
				continue
			}
			one := str[b : b+size(r)]
			toks = append(toks, token{text: one, raw: one, col: cols[i], kind: 'p'})
			b += size(r)
			i++
		}
	}
	return toks
}

// The classes of lexASCII: what appendTokens does with an ASCII character there.
const (
	lexOther byte = iota // an operator or a punctuation mark
	lexSkip              // white space (unicode.IsSpace), '"' and '`': between tokens
	lexWord              // a letter (unicode.IsLetter), digit (unicode.IsDigit) or '_': a word starts
)

// lexASCII classes the ASCII characters for appendTokens.
var lexASCII = func() (c [utf8.RuneSelf]byte) {
	for r := range c {
		switch {
		case unicode.IsSpace(rune(r)) || r == '"' || r == '`':
			c[r] = lexSkip
		case unicode.IsLetter(rune(r)) || unicode.IsDigit(rune(r)) || r == '_':
			c[r] = lexWord
		}
	}
	return c
}()

// wordASCII are the ASCII characters of a word: letters, digits, underscore, apostrophe
// and hyphen.
var wordASCII = func() (w [utf8.RuneSelf]bool) {
	for c := range w {
		w[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '\'' || c == '-'
	}
	return w
}()

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func normOp(op string) string {
	switch op {
	case "==":
		return "="
	case "=>", "≥":
		return ">="
	case "=<", "≤":
		return "<="
	case "≠", "<>":
		return "!="
	case "&&":
		return "&"
	case "||":
		return "|"
	}
	return op
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ { // a byte of a rune past ASCII is no digit either
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
