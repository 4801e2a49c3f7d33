package roborally

import (
	"strings"

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
		f := strings.Fields(strings.ToLower(l))
		if len(f) == 0 {
			continue
		}
		// a header is a key and its value ("pass" alone is a move of some games, not a
		// password; "pass   # nothing is legal" is a move with a comment: "#" starts no
		// value)
		if w := strings.TrimSuffix(f[0], ":"); orders.IsHeaderKey(w) && len(f) > 1 && !strings.HasPrefix(f[1], "#") || w == "#orders" || w == "#end" {
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}
