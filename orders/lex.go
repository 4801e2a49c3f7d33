package orders

import (
	"strings"
	"unicode"
)

// token is one word, number or sign of an order line, lower-cased, with its column.
type token struct {
	text string // lower-cased
	raw  string // as written
	col  int
	kind byte // 'w' word, 'n' number, 'o' operator, 'p' punctuation
}

// lex splits a cleaned line into tokens; cols[i] is the original column of line[i].
func lex(line []rune, cols []int) []token {
	var toks []token
	isWord := func(r rune) bool {
		return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '\'' || r == '-'
	}
	for i := 0; i < len(line); {
		r := line[i]
		switch {
		case unicode.IsSpace(r) || r == '"' || r == '`':
			i++
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_':
			j := i
			for j < len(line) && isWord(line[j]) {
				j++
			}
			// A word does not end in a hyphen or apostrophe ("flag-" "players'").
			for j > i+1 && (line[j-1] == '-' || line[j-1] == '\'') {
				j--
			}
			raw := string(line[i:j])
			k := byte('w')
			if allDigits(raw) {
				k = 'n'
			}
			toks = append(toks, token{text: strings.ToLower(raw), raw: raw, col: cols[i], kind: k})
			i = j
		default:
			op := ""
			two := ""
			if i+1 < len(line) {
				two = string(line[i : i+2])
			}
			switch two {
			case ">=", "<=", "!=", "==", "=>", "=<", "&&", "||", "<>":
				op = two
			}
			if op == "" {
				switch r {
				case '>', '<', '=', '&', '|', '≥', '≤', '≠':
					op = string(r)
				}
			}
			if op != "" {
				toks = append(toks, token{text: normOp(op), raw: op, col: cols[i], kind: 'o'})
				i += len([]rune(op))
				continue
			}
			toks = append(toks, token{text: string(r), raw: string(r), col: cols[i], kind: 'p'})
			i++
		}
	}
	return toks
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
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
