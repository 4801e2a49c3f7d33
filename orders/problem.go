package orders

import (
	"fmt"
	"strings"
	"unicode"
)

// Problem is one thing wrong (or probably wrong) with a sheet, with where it is. Msg is
// written for the player.
type Problem struct {
	At      Pos    `json:"at"`
	Msg     string `json:"msg"`
	Warning bool   `json:"warning,omitempty"`
}

func (p Problem) String() string {
	kind := "error"
	if p.Warning {
		kind = "warning"
	}
	return fmt.Sprintf("%s: %s: %s", p.At, kind, p.Msg)
}

// Error is the message alone with its place, as a Go error.
func (p Problem) Error() string { return fmt.Sprintf("%s: %s", p.At, p.Msg) }

// SyntaxError is every problem found reading a sheet.
type SyntaxError struct {
	Problems []Problem
	// Hint is advice for the player beyond the problems ("" none): MarkerHint when lines
	// of an unmarked sheet read as neither orders nor greetings.
	Hint string `json:"hint,omitempty"`
}

// HintOf is err's Hint when it is a *SyntaxError, else "".
func HintOf(err error) string {
	if se, ok := err.(*SyntaxError); ok {
		return se.Hint
	}
	return ""
}

func (e *SyntaxError) Error() string {
	var b strings.Builder
	b.WriteString("orders: ")
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(p.Error())
	}
	return b.String()
}

// problems collects problems while reading.
type problems struct {
	list []Problem
}

func (ps *problems) add(at Pos, format string, args ...any) {
	if len(ps.list) >= MaxProblems {
		return
	}
	ps.list = append(ps.list, Problem{At: at, Msg: fmt.Sprintf(format, args...)})
}

func (ps *problems) err() error {
	if len(ps.list) == 0 {
		return nil
	}
	return &SyntaxError{Problems: ps.list}
}

// Limits: a sheet over these is refused with a clear error, never read in part.
const (
	MaxSize     = 64 << 10 // bytes in a sheet
	MaxLine     = 1000     // characters in a line
	MaxRules    = 100      // standing and conditional orders
	MaxProblems = 50       // problems reported; the rest are dropped
	MaxDepth    = 8        // YAML nesting
	// A condition's all/any nesting (its tests count 1) and its tests: the same limits
	// the archive holds a stored sheet to (archive.MaxCondDepth).
	MaxCondDepth = 8
	MaxCondTests = 256
)

// lookalike is a hint for a word that failed to read because of a letter that only looks
// like a plain one: a Cyrillic Р or a Greek Α among plain letters or digits ("Р490",
// "роwer"), or any full-width or mathematical letter ("Ｐ670"), so that "got "Р490""
// alone does not puzzle the player. It names the first such character and its code
// point; "" for anything else (a name like Zoë, a word in another language).
func lookalike(word string) string {
	ascii := false
	for _, r := range word {
		if r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			ascii = true
		}
	}
	i := 0
	for _, r := range word {
		i++
		mixed := ascii && (r >= 0x0370 && r <= 0x03FF || r >= 0x0400 && r <= 0x04FF)
		wide := r >= 0xFF01 && r <= 0xFF5E || r >= 0x1D400 && r <= 0x1D7FF
		if mixed || wide {
			return fmt.Sprintf(" (character %d is U+%04X, which only looks like a plain letter or digit: type it again in plain ASCII)", i, r)
		}
	}
	return ""
}
