package render

import (
	"fmt"
	"math"
	"strings"

	cbc "github.com/rallyjudge/rallyjudge/crashbycrash"
)

// The legend under the board: each side's colour with its score and stock, what the
// shades are worth and what the tokens are, and whose move it is.

// legendLines is how many lines the legend has.
const legendLines = 4

func legendHeight(r float64) float64 { return legendLines*1.3*r + 0.5*r }

// drawLegend draws the legend and says where its text ends: the right end of the
// longest of the sides' lines, and of the two lines beside the compass.
func drawLegend(c canvas, l layout, f *faces, s *cbc.State) (sides, beside float64) {
	r := l.r
	top := l.boardBot + 1.25*r
	c.rect(0, int(top), l.w, l.h, cBand)
	c.rect(0, int(top), l.w, int(top)+int(math.Max(1, r/15)), cCellEdge)
	line := func(i int) float64 { return top + 0.25*r + (float64(i)+0.5)*1.3*r }
	x0 := 0.9 * r
	tx := x0 + 0.9*r
	for side := 0; side < 2; side++ {
		y := line(side)
		car(c, f, pt{x0, y}, r, side, false)
		text := sideLine(s, side)
		c.text(f.legend, tx, y+capHeight(f.legend)/2, text, cInk)
		sides = math.Max(sides, tx+textWidth(f.legend, text))
	}
	compass(c, f, compassAt(l, line(2), line(3)), r)
	// shades and tokens
	y := line(2)
	x := x0 - 0.45*r
	for sh := 0; sh < 4; sh++ {
		p := pt{x + 0.45*r, y}
		c.hex(p, 0.55*r, cTileEdge)
		c.hex(p, 0.55*r-math.Max(1.5, r/15), uint8(cShade0+sh))
		ink := uint8(cInk)
		if sh >= 2 {
			ink = cWhite
		}
		c.centred(f.small, p, fmt.Sprint(sh), ink)
		x += 1.05 * r
	}
	x += 0.05 * r
	c.text(f.legend, x, y+capHeight(f.legend)/2, "points", cInk)
	x += textWidth(f.legend, "points") + 0.55*r
	for _, item := range []struct {
		name string
		draw func(p pt)
	}{
		{"bell", func(p pt) { bell(c, pt{p.x, p.y + 0.05*r}, r) }},
		{"operator", func(p pt) { operator(c, pt{p.x, p.y - 0.04*r}, r) }},
		{"magnet", func(p pt) { car(c, f, p, r*0.9, 0, true) }},
	} {
		item.draw(pt{x + 0.4*r, y})
		x += 0.95 * r
		c.text(f.legend, x, y+capHeight(f.legend)/2, item.name, cInk)
		beside = x + textWidth(f.legend, item.name)
		x = beside + 0.45*r
	}
	st := status(s)
	c.text(f.legend, x0-0.45*r, line(3)+capHeight(f.legend)/2, st, cInk)
	return sides, math.Max(beside, x0-0.45*r+textWidth(f.legend, st))
}

// status says whose move it is, or how the game ended.
func status(s *cbc.State) string {
	seat := func(n int) string {
		return fmt.Sprintf("seat %d (%s)", n+1, cbc.SideName(s.SideOf(n)))
	}
	ev := fmt.Sprintf("scoring events %d of %d", s.Events, cbc.ChartSize)
	switch s.Phase {
	case cbc.PhaseSetup:
		return fmt.Sprintf("Set-up: %s places a car", seat(s.ToMove))
	case cbc.PhaseOver:
		// the winner's score first: "B wins, 62 to 40" (it read "B wins, 40 to 62")
		w, hi, lo := "a tie", s.Score[0], s.Score[1]
		switch {
		case s.Score[0] > s.Score[1]:
			w = "A wins"
		case s.Score[1] > s.Score[0]:
			w, hi, lo = "B wins", s.Score[1], s.Score[0]
		}
		return fmt.Sprintf("Game over: %s, %d to %d · %s", w, hi, lo, ev)
	}
	return fmt.Sprintf("Turn %d: %s to move · %s", s.Turn, seat(s.ToMove), ev)
}

// compass shows the six directions orders name (push NE, ...): a hexagon with each
// direction's name beyond the side it leaves by.
func compass(c canvas, f *faces, p pt, r float64) {
	c.hex(p, 0.5*r, cTileEdge)
	c.hex(p, 0.5*r-math.Max(1.5, r/15), cShade1)
	for d := cbc.N; d <= cbc.NW; d++ {
		a := (float64(d)*60 - 90) * math.Pi / 180
		ux, uy := math.Cos(a), math.Sin(a)
		c.line(pt{p.x + 0.2*r*ux, p.y + 0.2*r*uy}, pt{p.x + 0.56*r*ux, p.y + 0.56*r*uy}, math.Max(1.5, r/15), cInk)
		c.centred(f.small, pt{p.x + 1.22*r*ux, p.y + 0.9*r*uy}, d.String(), cInk)
	}
}

// seats names the seats that play a side: "seat 1", or "seats 1, 3" in the team game.
func seats(s *cbc.State, side int) string {
	var n []string
	for seat := 0; seat < s.Players; seat++ {
		if s.SideOf(seat) == side {
			n = append(n, fmt.Sprint(seat+1))
		}
	}
	if len(n) == 1 {
		return "seat " + n[0]
	}
	return "seats " + strings.Join(n, ", ")
}

// sideLine is a side's line of the legend: its seats, score, stock and accumulators.
func sideLine(s *cbc.State, side int) string {
	plural := func(n int, what string) string {
		if n == 1 {
			return fmt.Sprintf("%d %s", n, what)
		}
		return fmt.Sprintf("%d %ss", n, what)
	}
	stock := plural(int(s.Stock[side]), "car")
	if s.Magnet[side] {
		stock += " + magnet"
	}
	return fmt.Sprintf("%s (%s): %s · stock %s · %s", cbc.SideName(side), seats(s, side),
		plural(s.Score[side], "point"), stock, plural(int(s.Acc[side]), "accumulator"))
}

// compassAt is the compass's centre: at the right end of the legend's lines y0 and y1.
func compassAt(l layout, y0, y1 float64) pt { return pt{float64(l.w) - 1.45*l.r, (y0 + y1) / 2} }

// compassLeft is the left end of the compass's labels.
func compassLeft(l layout, f *faces) float64 {
	return compassAt(l, 0, 0).x - 1.22*l.r*math.Cos(math.Pi/6) - textWidth(f.small, "NW")/2
}
