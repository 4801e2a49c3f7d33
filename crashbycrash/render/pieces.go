package render

import (
	"math"

	cbc "github.com/rallyjudge/rallyjudge/crashbycrash"
)

// The pieces: a car is a disc in its side's colour with the side's letter; a magnetic
// car is a square in that colour with the letter and a white bar across its top (the
// keeper of a magnet); a bell is a gold bell; the operator is a dark figure with a white
// outline. All sit on the cell's token point, under the cell's name.

// drawPieces draws the bells, the operator (on a cell or in its hole) and the cars.
func drawPieces(c canvas, l layout, f *faces, s *cbc.State) {
	for _, b := range s.Bells {
		if b != cbc.NoCell && cbc.OnBoard(b) {
			bell(c, l.token(b), l.r)
		}
	}
	switch {
	case s.Operator != cbc.NoCell && cbc.OnBoard(s.Operator):
		operator(c, l.token(s.Operator), l.r)
	case s.OpHole >= 0 && s.OpHole < cbc.NumTiles:
		operator(c, l.slotCentre(s.OpHole), l.r)
	}
	for cell := cbc.Cell(1); cell <= cbc.MaxCell; cell++ {
		if p := s.Board[cell]; p.IsCar() && cbc.OnBoard(cell) {
			car(c, f, l.token(cell), l.r, p.Side(), p.IsMagnet())
		}
	}
}

// carRadius is a car disc's radius for hex radius r.
func carRadius(r float64) float64 { return 0.42 * r }

// car draws a side's car (or its magnet) centred on p.
func car(c canvas, f *faces, p pt, r float64, side int, magnet bool) {
	rr := carRadius(r)
	edge := math.Max(1.5, r/16)
	halo := math.Max(1.5, r/14)
	col := sideColour(side)
	if magnet {
		h := rr * 0.98
		sq := func(e float64, k uint8) {
			c.poly(k, pt{p.x - h - e, p.y - h - e}, pt{p.x + h + e, p.y - h - e},
				pt{p.x + h + e, p.y + h + e}, pt{p.x - h - e, p.y + h + e})
		}
		sq(halo+edge, cWhite)
		sq(edge, cInk)
		sq(0, col)
		// the keeper: a white bar across the top with an ink line under it
		bar := 0.28 * h
		c.rect(int(math.Round(p.x-h)), int(math.Round(p.y-h)), int(math.Round(p.x+h)), int(math.Round(p.y-h+bar)), cWhite)
		c.line(pt{p.x - h, p.y - h + bar}, pt{p.x + h, p.y - h + bar}, edge, cInk)
		c.centred(f.token, pt{p.x, p.y + 0.14*h}, cbc.SideName(side), cWhite)
		return
	}
	c.disc(p, rr+edge+halo, cWhite)
	c.disc(p, rr+edge, cInk)
	c.disc(p, rr, col)
	c.centred(f.token, p, cbc.SideName(side), cWhite)
}

// bellShape is a bell's outline in units of the hex radius, centred on the token point:
// a dome, straight sides flaring to a wide rim.
func bellShape(p pt, r, grow float64) []pt {
	var pts []pt
	// the rim, left to right
	pts = append(pts, pt{-0.42, 0.28}, pt{0.42, 0.28})
	// right side up to the dome
	pts = append(pts, pt{0.34, 0.18}, pt{0.26, 0.06}, pt{0.24, -0.12})
	// the dome: half a circle of radius 0.24 centred at (0, -0.12)
	for k := 1; k < 12; k++ {
		a := float64(k) * math.Pi / 12
		pts = append(pts, pt{0.24 * math.Cos(a), -0.12 - 0.24*math.Sin(a)})
	}
	pts = append(pts, pt{-0.24, -0.12}, pt{-0.26, 0.06}, pt{-0.34, 0.18})
	out := make([]pt, len(pts))
	for i, q := range pts {
		// grow outwards from the bell's middle for the outline
		mx, my := q.x, q.y-0.02
		d := math.Hypot(mx, my)
		k := 1.0
		if d > 0 {
			k = (d + grow) / d
		}
		out[i] = pt{p.x + mx*k*r, p.y + (my*k+0.02)*r}
	}
	return out
}

// bell draws a gold bell with a dark outline, a clapper under its rim and a knob on top.
func bell(c canvas, p pt, r float64) {
	e := math.Max(1.5, r/15)
	r *= 0.88 // the bell's own size: its knob stays clear of the cell's name
	p.y += 0.04 * r
	e /= r
	c.poly(cWhite, bellShape(p, r, 2.2*e)...)
	c.disc(pt{p.x, p.y + 0.36*r}, (0.1+2.2*e)*r, cWhite)
	c.disc(pt{p.x, p.y - 0.39*r}, (0.07+2.2*e)*r, cWhite)
	c.disc(pt{p.x, p.y + 0.36*r}, (0.1+e)*r, cInk)
	c.disc(pt{p.x, p.y - 0.39*r}, (0.07+e)*r, cInk)
	c.poly(cInk, bellShape(p, r, e)...)
	c.poly(cBell, bellShape(p, r, 0)...)
	c.disc(pt{p.x, p.y + 0.36*r}, 0.1*r, cBell)
	c.disc(pt{p.x, p.y - 0.39*r}, 0.07*r, cBell)
	// a shine on the dome
	c.line(pt{p.x - 0.12*r, p.y - 0.16*r}, pt{p.x - 0.14*r, p.y + 0.08*r}, math.Max(1.5, r/14), cWhite)
}

// operator draws the operator: a dark figure (head and shoulders) in a white outline.
func operator(c canvas, p pt, r float64) {
	body := func(grow float64, col uint8) {
		g := grow
		c.disc(pt{p.x, p.y - 0.22*r}, 0.17*r+g, col)
		c.poly(col,
			pt{p.x - 0.2*r - g, p.y - 0.02*r - g}, pt{p.x + 0.2*r + g, p.y - 0.02*r - g},
			pt{p.x + 0.38*r + g, p.y + 0.40*r + g}, pt{p.x - 0.38*r - g, p.y + 0.40*r + g})
		c.disc(pt{p.x - 0.2*r, p.y + 0.08*r}, 0.1*r+g, col)
		c.disc(pt{p.x + 0.2*r, p.y + 0.08*r}, 0.1*r+g, col)
	}
	e := math.Max(1.5, r/16)
	body(2*e+math.Max(1.5, r/14), cInk)
	body(2*e, cWhite)
	body(0, cOperator)
}
