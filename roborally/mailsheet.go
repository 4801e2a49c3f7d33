package roborally

import (
	"strings"
	"unicode/utf8"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/orders"
)

// RoboRally's order sheet reader reads every mail's sheet for the judge (game.MailReader):
// the envelope every game's orders carry is the header of its sheet (docs/orders.md).

// ReadSheet reads a mail's sheet with package orders (YAML for an attached .yaml).
func (Kind) ReadSheet(text string, yaml bool) (game.MailSheet, error) {
	var s *orders.Sheet
	var err error
	if yaml {
		s, err = orders.ParseYAML([]byte(text))
	} else {
		s, err = orders.Parse([]byte(text))
	}
	if s == nil {
		s = &orders.Sheet{}
	}
	out := game.MailSheet{Game: s.Game, Seat: s.Robot, Secret: s.Secret, Turn: s.Turn,
		HasOrders: len(s.Program) > 0, Read: s.JSON} // made when asked for
	if se, ok := err.(*orders.SyntaxError); ok {
		return out, sheetError{se}
	}
	return out, err
}

// sheetError is an orders.SyntaxError as a game.SheetError.
type sheetError struct{ *orders.SyntaxError }

func (e sheetError) SheetProblems() []game.SheetProblem { return SheetProblems(e.Problems) }
func (e sheetError) Hint() string                       { return e.SyntaxError.Hint }

// SheetProblems are the problems of package orders as the judge lists them.
func SheetProblems(ps []orders.Problem) []game.SheetProblem {
	out := make([]game.SheetProblem, len(ps))
	for i, p := range ps {
		out[i] = game.SheetProblem{Line: p.At.Line, Col: p.At.Col, Text: p.String()}
	}
	return out
}

// SheetBlock is the lines the sheet's markers give to read (orders.Block).
func (Kind) SheetBlock(text string) (first, last int) { return orders.Block(text) }

// MaxSheetSize is the most bytes a sheet may have (orders.MaxSize).
func (Kind) MaxSheetSize() int { return orders.MaxSize }

// ReadsAsSheet says whether a line by itself reads as a line of a sheet.
func (Kind) ReadsAsSheet(line string) bool {
	_, err := orders.ParseText([]byte(line))
	return err == nil
}

// MoveLines blanks the lines of text the judge reads as the sheet's envelope (game,
// robot or player, turn, secret) and those outside its markers, keeping every other
// line where it stands, so a game reads only the move and its problems name the lines
// of the mail.
func (Kind) MoveLines(text string) string {
	lines := strings.Split(text, "\n")
	// between markers (#orders ... #end) only the lines inside are the sheet's, as the
	// envelope was read: a greeting above or thanks below is not a move
	first, last := orders.Block(text)
	above := first == 0 // a greeting above a sheet without markers is skipped
	for i, l := range lines {
		if i < first || i >= last {
			lines[i] = ""
			continue
		}
		if above && strings.TrimSpace(l) != "" {
			if orders.IsGreeting(l) {
				lines[i] = ""
				continue
			}
			above = false
		}
		// a header is a key and its value ("pass" alone is a move of some games, not a
		// password; "pass   # nothing is legal" is a move with a comment: "#" starts no
		// value)
		if w, next, ok := firstWords(l); ok && (orders.IsHeaderKey(w) && next != "" && next[0] != '#' || w == "#orders" || w == "#end") {
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}

// firstWords are the first word of l in lower case, without a colon after it, and the
// start of the word after it ("" for none), as strings.Fields(strings.ToLower(l)) has
// them; ok is false for a blank line. A line in ASCII is not copied for them (every line
// of every sheet is asked: issue 24 item 7), but for a first word with capitals.
func firstWords(l string) (w, next string, ok bool) {
	for i := 0; i < len(l); i++ {
		if l[i] >= utf8.RuneSelf {
			f := strings.Fields(strings.ToLower(l))
			if len(f) == 0 {
				return "", "", false
			}
			if len(f) > 1 {
				next = f[1]
			}
			return strings.TrimSuffix(f[0], ":"), next, true
		}
	}
	start := 0
	for start < len(l) && asciiSpace(l[start]) {
		start++
	}
	if start == len(l) {
		return "", "", false
	}
	end := start
	for end < len(l) && !asciiSpace(l[end]) {
		end++
	}
	w = l[start:end]
	for i := 0; i < len(w); i++ {
		if 'A' <= w[i] && w[i] <= 'Z' {
			w = strings.ToLower(w)
			break
		}
	}
	for end < len(l) && asciiSpace(l[end]) {
		end++
	}
	return strings.TrimSuffix(w, ":"), l[end:], true
}

// asciiSpace says whether c is white space as unicode.IsSpace says of an ASCII byte.
func asciiSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }
