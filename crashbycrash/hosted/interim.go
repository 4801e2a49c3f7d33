package hosted

import (
	"math/rand/v2"
	"strings"

	"github.com/rallyjudge/rallyjudge/crashbycrash"
)

// boardText is the board as text: a row a line, each cell two characters.
func boardText(st *crashbycrash.State) string {
	var b strings.Builder
	b.WriteString("   ")
	for col := 0; col < crashbycrash.Cols; col++ {
		b.WriteString(" " + string(rune('A'+col)))
	}
	b.WriteString("\n")
	for row := 0; row < crashbycrash.Rows; row++ {
		b.WriteString(strings.Repeat(" ", 2-len(itoa(row+1))) + itoa(row+1) + " ")
		for col := 0; col < crashbycrash.Cols; col++ {
			c := crashbycrash.CellAt(col, row)
			ch := "  "
			switch {
			case !crashbycrash.OnBoard(c):
			case !st.Present(c):
				ch = " ~"
			case st.Operator == c:
				ch = " @"
			case st.Board[c].IsCar():
				ch = " " + pieceChar(st.Board[c])
			case st.BellAt(c) >= 0:
				ch = " *"
			default:
				ch = " " + itoa(st.Shade(c))
			}
			b.WriteString(ch)
		}
		b.WriteString("\n")
	}
	b.WriteString("a/b: cars of sides A/B, A/B: their magnets, * bell, @ operator, 0-3 a cell's value, ~ a hole\n")
	return b.String()
}

func pieceChar(p crashbycrash.Piece) string {
	s := "a"
	if p.Side() == 1 {
		s = "b"
	}
	if p.IsMagnet() {
		s = strings.ToUpper(s)
	}
	return s
}

func itoa(n int) string {
	if n < 0 {
		return "-"
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// autopilot is a legal move picked at random by the seed, drawing from the deck.
func autopilot(st *crashbycrash.State, seed int64) crashbycrash.Move {
	rng := rand.New(rand.NewPCG(uint64(seed), uint64(st.Turn)))
	first := st.LegalActions()
	if len(first) == 0 {
		return crashbycrash.Move{Actions: []crashbycrash.Action{{Kind: crashbycrash.ActPass}}}
	}
	a := first[rng.IntN(len(first))]
	m := crashbycrash.Move{Actions: []crashbycrash.Action{a}}
	if st.Phase == crashbycrash.PhasePlay {
		if second, err := st.LegalSeconds(a); err == nil && len(second) > 0 {
			m.Actions = append(m.Actions, second[rng.IntN(len(second))])
		} else {
			// the first action ends the game: the second is not played (a pass stands for it)
			m.Actions = append(m.Actions, crashbycrash.Action{Kind: crashbycrash.ActPass})
		}
	}
	return m
}
