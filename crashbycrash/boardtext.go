package crashbycrash

// The board as text for mail, readable on a phone (33 columns): each hex row takes two
// text lines, the even columns (A, C, E, ...) on the first and the odd columns (B, D, ...),
// which sit half a cell lower, on the second. A cell is two characters: what stands on
// it, then its shade (0 white .. 3 darkest).

import (
	"fmt"
	"strings"
)

// BoardLegend explains BoardText's symbols.
const BoardLegend = `legend: a cell is what stands on it,
then its value 0-3
  a b  cars of sides A and B
  A B  their magnetic cars
  *    a bell     @  the operator
  .    a free cell
  ::   a hole (@: the operator in it)
Columns A C E ... on a row's first line;
B D F ... half a cell lower, the second.`

// BoardText draws the board, then the score chart, the scores, stocks and cards in view.
func BoardText(s *State) string {
	var b strings.Builder
	head := []byte("   ")
	for c := 0; c < Cols; c++ {
		head = append(head, byte('A'+c), ' ')
	}
	b.WriteString(strings.TrimRight(string(head), " ") + "\n")
	for r := 0; r < Rows; r++ {
		for par := 0; par < 2; par++ {
			line := []byte(strings.Repeat(" ", 3+2*Cols))
			if par == 0 {
				copy(line, fmt.Sprintf("%2d", r+1))
			}
			for col := par; col < Cols; col += 2 {
				cell := CellAt(col, r)
				x := 3 + 2*col
				copy(line[x:], s.cellText(cell))
			}
			b.WriteString(strings.TrimRight(string(line), " ") + "\n")
		}
	}
	b.WriteString(s.StatusText())
	return b.String()
}

func (s *State) cellText(c Cell) string {
	if !OnBoard(c) {
		return "  "
	}
	if !s.Present(c) {
		if s.OpHole == SlotOf(c) && geo.slotCells[s.OpHole][0] == c {
			return "@:"
		}
		return "::"
	}
	sh := byte('0' + s.Shade(c))
	what := byte('.')
	switch {
	case s.Board[c] != Empty:
		what = pieceChars[s.Board[c]]
	case s.Operator == c:
		what = '@'
	case s.BellAt(c) >= 0:
		what = '*'
	}
	return string([]byte{what, sh})
}

// StatusText is the scores, the chart, stocks, accumulators, face-up cards and whose move.
func (s *State) StatusText() string {
	var b strings.Builder
	for side := 0; side < 2; side++ {
		seats := fmt.Sprintf("seat %d", side+1)
		if s.Players == 4 {
			seats = fmt.Sprintf("seats %d+%d", side+1, side+3)
		}
		mag := "on board"
		if s.Magnet[side] {
			mag = "in stock"
		}
		fmt.Fprintf(&b, "%s (%s): score %d\n  stock %d, magnet %s, acc %d", SideName(side), seats, s.Score[side], s.Stock[side], mag, s.Acc[side])
		if s.DeadAcc[side] {
			b.WriteString(" (dead this turn)")
		}
		b.WriteString("\n")
	}
	b.WriteString("scoring chart:")
	for i := 0; i < ChartSize; i++ {
		if i < s.Events {
			b.WriteString(" *")
		} else {
			fmt.Fprintf(&b, " %d", i+1)
		}
	}
	b.WriteString("\n")
	if s.Players == 2 {
		var fu []string
		for i, c := range s.FaceUp {
			fu = append(fu, fmt.Sprintf("%d %s", i+1, c))
		}
		fmt.Fprintf(&b, "face-up:\n  %s\n", strings.Join(fu, "\n  "))
	}
	fmt.Fprintf(&b, "deck: %d cards, discard: %d\n", s.DeckN, s.DiscardN)
	switch s.Phase {
	case PhaseSetup:
		fmt.Fprintf(&b, "set-up: seat %d places a car (%d of %d placed)\n", s.ToMove+1, s.Placed, s.setupCars())
	case PhasePlay:
		fmt.Fprintf(&b, "turn %d: seat %d (%s) to move", s.Turn, s.ToMove+1, SideName(s.SideOf(s.ToMove)))
		if s.Turn < s.FirstEventTurn {
			fmt.Fprintf(&b, "; no bell may ring before turn %d", s.FirstEventTurn)
		}
		b.WriteString("\n")
	case PhaseOver:
		var w []string
		for _, seat := range s.Winners() {
			w = append(w, fmt.Sprintf("seat %d", seat+1))
		}
		fmt.Fprintf(&b, "game over: %s won\n", strings.Join(w, " and "))
	}
	return b.String()
}
