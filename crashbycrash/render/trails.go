package render

import (
	"math"

	cbc "github.com/rallyjudge/rallyjudge/crashbycrash"
)

// Trails: what the last move did, drawn from its events. Each car is followed through
// the events from the cell it stood on (or was placed on) to the cell it ended on, so a
// car pushed twice and then pulled gets one arrow along its whole way.

// track is one car's way through a move.
type track struct {
	side   int
	path   []cbc.Cell // cells in order; the last is where it ended or left the board
	pushed bool       // some step was a push: the arrow is dashed
	placed bool       // placed in this move
	gone   bool       // left the board (pushed off, into a hole, its tile removed, sabotaged)
	off    cbc.Dir    // pushed off the board this way (NoDir: not pushed off, or not known)
}

// trails is a move's tracks, the operator's walk and the bells moved.
type trails struct {
	cars  []*track
	op    []pt    // the operator's walk, in pixels
	bells [][2]pt // a bell moved by Bell Charms: from, to
}

// traceTrails follows the events. A move's events name cells of the board as it was when
// they happened; the state is the board after the move (for the holes the operator
// walked through).
func traceTrails(evs []cbc.Event, l layout, s *cbc.State) trails {
	var t trails
	at := map[cbc.Cell]*track{} // the car standing on a cell now, by its track
	get := func(c cbc.Cell, side int) *track {
		if k := at[c]; k != nil {
			return k
		}
		k := &track{side: side, path: []cbc.Cell{c}}
		t.cars = append(t.cars, k)
		return k
	}
	move := func(from, to cbc.Cell, side int, push bool) {
		k := get(from, side)
		delete(at, from)
		k.path = append(k.path, to)
		k.pushed = k.pushed || push
		at[to] = k
	}
	leave := func(from cbc.Cell, side int) *track {
		k := get(from, side)
		delete(at, from)
		k.gone, k.off = true, cbc.NoDir
		return k
	}
	opAt := func(c cbc.Cell, hole cbc.Slot) (pt, bool) {
		if c != cbc.NoCell && cbc.OnBoard(c) {
			return l.token(c), true
		}
		if hole >= 0 && hole < cbc.NumTiles {
			return l.slotCentre(hole), true
		}
		return pt{}, false
	}
	for i, e := range evs {
		if e.From < 0 || e.From > cbc.MaxCell || e.To < 0 || e.To > cbc.MaxCell {
			continue // not an event of this board: nothing to draw
		}
		switch e.Kind {
		case cbc.EvPlace, cbc.EvSetup:
			k := &track{side: e.Side & 1, path: []cbc.Cell{e.To}, placed: true}
			t.cars = append(t.cars, k)
			at[e.To] = k
		case cbc.EvPush:
			move(e.From, e.To, e.Side&1, true)
		case cbc.EvPull, cbc.EvMoveCar:
			move(e.From, e.To, e.Side&1, false)
		case cbc.EvSwap:
			a, b := at[e.From], at[e.To]
			sa, sb := s.Board[e.To].Side(), s.Board[e.From].Side() // after the swap
			if a == nil {
				a = get(e.From, sa)
			}
			if b == nil {
				b = get(e.To, sb)
			}
			a.path, b.path = append(a.path, e.To), append(b.path, e.From)
			at[e.From], at[e.To] = b, a
		case cbc.EvFall:
			k := leave(e.From, e.Side&1)
			k.pushed, k.off = true, fallDir(evs, i, k, s)
		case cbc.EvReturned, cbc.EvSabotage:
			leave(e.From, e.Side&1)
		case cbc.EvOperator, cbc.EvFly:
			to, ok := opAt(e.To, e.Slot)
			if !ok {
				continue
			}
			if len(t.op) == 0 {
				from, ok := opAt(e.From, cbc.NoSlot)
				if !ok {
					from, ok = holeNextTo(l, s, e.To)
				}
				if ok {
					t.op = append(t.op, from)
				}
			}
			t.op = append(t.op, to)
		case cbc.EvBell:
			if cbc.OnBoard(e.From) && cbc.OnBoard(e.To) {
				t.bells = append(t.bells, [2]pt{l.token(e.From), l.token(e.To)})
			}
		}
	}
	return t
}

// fallDir is the way the car of track k went off the board in event i (an EvFall). The
// event does not say, so it is read from what pushed it: its own last step; else the
// operator's next step (the operator pushes, then steps) or the last push or placement
// before it, whichever has the car ahead on its line; else the one way off the board
// from that cell. NoDir when none of these tells.
func fallDir(evs []cbc.Event, i int, k *track, s *cbc.State) cbc.Dir {
	from := k.path[len(k.path)-1]
	if n := len(k.path); n >= 2 {
		if d := dirBetween(k.path[n-2], from); d != cbc.NoDir {
			return d
		}
	}
	ahead := func(c cbc.Cell, d cbc.Dir) bool {
		for step := 0; step < cbc.Cols+cbc.Rows && c != cbc.NoCell; step++ {
			if c == from {
				return true
			}
			c = c.Step(d)
		}
		return false
	}
	for j := i + 1; j < len(evs); j++ {
		if e := evs[j]; e.Kind == cbc.EvOperator {
			if e.To != cbc.NoCell && e.Dir >= cbc.N && e.Dir <= cbc.NW && ahead(e.To, e.Dir) {
				return e.Dir
			}
			break
		}
	}
	for j := i - 1; j >= 0; j-- {
		e := evs[j]
		switch e.Kind {
		case cbc.EvPush:
			if e.Dir >= cbc.N && e.Dir <= cbc.NW && ahead(e.To.Step(e.Dir), e.Dir) {
				return e.Dir
			}
		case cbc.EvPlace:
			for d := cbc.N; d <= cbc.NW; d++ {
				if ahead(e.To.Step(d), d) {
					return d
				}
			}
		default:
			continue
		}
		break
	}
	only := cbc.NoDir
	for d := cbc.N; d <= cbc.NW; d++ {
		if !s.Present(cbc.Next(from, d)) {
			if only != cbc.NoDir {
				return cbc.NoDir
			}
			only = d
		}
	}
	return only
}

// dirBetween is the direction from cell a to its neighbour b, NoDir if they do not touch.
func dirBetween(a, b cbc.Cell) cbc.Dir {
	for d := cbc.N; d <= cbc.NW; d++ {
		if a.Step(d) == b {
			return d
		}
	}
	return cbc.NoDir
}

// dirVec is the unit step towards direction d on the picture (flat-top hexes).
func dirVec(d cbc.Dir) (x, y float64) {
	a := (float64(d)*60 - 90) * math.Pi / 180
	return math.Cos(a), math.Sin(a)
}

// endPoint is where a track's picture ends: its last cell, or for a car pushed off the
// board, most of a cell beyond it the way it went.
func (k *track) endPoint(l layout) pt {
	p := l.token(k.path[len(k.path)-1])
	if k.gone && k.off != cbc.NoDir {
		x, y := dirVec(k.off)
		step := 0.75 * math.Sqrt(3) * l.r
		p = pt{p.x + x*step, p.y + y*step}
	}
	return p
}

// holeNextTo is the hole the operator left to step onto c, when exactly one hole of the
// board touches c (the events do not name the hole left).
func holeNextTo(l layout, s *cbc.State, c cbc.Cell) (pt, bool) {
	found := cbc.NoSlot
	for d := cbc.N; d <= cbc.NW; d++ {
		n := cbc.Next(c, d)
		if n == cbc.NoCell || s.Present(n) {
			continue
		}
		if sl := cbc.SlotOf(n); found != cbc.NoSlot && sl != found {
			return pt{}, false
		} else {
			found = sl
		}
	}
	if found == cbc.NoSlot {
		return pt{}, false
	}
	return l.slotCentre(found), true
}

// drawLines draws the arrows and crosses, under the pieces.
func (t trails) drawLines(c canvas, l layout) {
	w := math.Max(2, l.r/7)
	for _, k := range t.cars {
		if len(k.path) < 2 && !(k.gone && k.off != cbc.NoDir) {
			continue
		}
		pts := make([]pt, len(k.path))
		for i, cell := range k.path {
			pts[i] = l.token(cell)
		}
		if k.gone && k.off != cbc.NoDir {
			pts = append(pts, k.endPoint(l))
		}
		// where it started: a hollow ring in its colour
		c.ring(pts[0], 0.3*l.r+w/2, w+2, cWhite)
		c.ring(pts[0], 0.3*l.r, w, sideColour(k.side))
		end := carRadius(l.r) + 0.12*l.r
		if k.gone {
			end = 0.34 * l.r
		}
		arrow(c, pts, w, end, sideColour(k.side), k.pushed)
	}
	if len(t.op) >= 2 {
		c.ring(t.op[0], 0.3*l.r+w/2, w+2, cWhite)
		c.ring(t.op[0], 0.3*l.r, w, cOperator)
		arrow(c, t.op, w, 0.5*l.r, cOperator, false)
	}
	for _, b := range t.bells {
		arrow(c, []pt{b[0], b[1]}, w, 0.5*l.r, cBell, false)
	}
	// a cross where a car left the board; under the pieces, so that a car or the operator
	// standing there now stays in sight
	for _, k := range t.cars {
		if k.gone {
			cross(c, k.endPoint(l), 0.3*l.r, w, sideColour(k.side))
		}
	}
}

// drawMarks draws what goes over the pieces: a star on a placed car.
func (t trails) drawMarks(c canvas, l layout) {
	for _, k := range t.cars {
		if p := l.token(k.path[len(k.path)-1]); k.placed && !k.gone {
			star(c, pt{p.x + 0.5*l.r, p.y - 0.02*l.r}, 0.3*l.r)
		}
	}
}

// arrow draws a polyline with a white casing and a head at its end, stopping short of
// the last point by end pixels; dashed draws the shaft in dashes.
func arrow(c canvas, pts []pt, w, end float64, col uint8, dashed bool) {
	n := len(pts)
	a, b := pts[n-2], pts[n-1]
	l := math.Hypot(b.x-a.x, b.y-a.y)
	if l <= end {
		return
	}
	ux, uy := (b.x-a.x)/l, (b.y-a.y)/l
	tip := pt{b.x - ux*end, b.y - uy*end}
	head := 2.6 * w
	base := pt{tip.x - ux*head, tip.y - uy*head}
	shaft := append(append([]pt{}, pts[:n-1]...), base)
	nx, ny := -uy*head*0.62, ux*head*0.62
	tri := []pt{tip, {base.x + nx, base.y + ny}, {base.x - nx, base.y - ny}}
	casing := w + 2*math.Max(1.5, w/3)
	for i := 1; i < len(shaft); i++ {
		c.line(shaft[i-1], shaft[i], casing, cWhite)
	}
	grown := growTri(tri, casing-w)
	c.poly(cWhite, grown...)
	for i := 1; i < len(shaft); i++ {
		if dashed {
			c.dashed(shaft[i-1], shaft[i], w, 2*w, 1.4*w, col)
		} else {
			c.line(shaft[i-1], shaft[i], w, col)
		}
	}
	c.poly(col, tri...)
}

// growTri pushes a triangle's corners out from its centre by about g pixels.
func growTri(tri []pt, g float64) []pt {
	cx, cy := (tri[0].x+tri[1].x+tri[2].x)/3, (tri[0].y+tri[1].y+tri[2].y)/3
	out := make([]pt, len(tri))
	for i, p := range tri {
		d := math.Hypot(p.x-cx, p.y-cy)
		k := (d + 2*g) / d
		out[i] = pt{cx + (p.x-cx)*k, cy + (p.y-cy)*k}
	}
	return out
}

// cross draws an X of half-size h with a white casing.
func cross(c canvas, p pt, h, w float64, col uint8) {
	a1, b1 := pt{p.x - h, p.y - h}, pt{p.x + h, p.y + h}
	a2, b2 := pt{p.x - h, p.y + h}, pt{p.x + h, p.y - h}
	c.line(a1, b1, w+4, cWhite)
	c.line(a2, b2, w+4, cWhite)
	c.line(a1, b1, w, col)
	c.line(a2, b2, w, col)
}

// star draws a five-pointed star of outer radius r, gold and ink-edged.
func star(c canvas, p pt, r float64) {
	mk := func(r float64) []pt {
		var out []pt
		for k := 0; k < 10; k++ {
			a := -math.Pi/2 + float64(k)*math.Pi/5
			rr := r
			if k%2 == 1 {
				rr = r * 0.45
			}
			out = append(out, pt{p.x + rr*math.Cos(a), p.y + rr*math.Sin(a)})
		}
		return out
	}
	c.poly(cWhite, mk(r+3)...)
	c.poly(cInk, mk(r+1.5)...)
	c.poly(cBell, mk(r)...)
}
