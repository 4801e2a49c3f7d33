package render

import (
	"image"
	"math"
	"slices"
)

// Drawing primitives on a paletted image. They paint whole palette entries with no
// anti-aliasing, so every pixel is a palette colour and the output depends only on the
// input. Coordinates are in pixels, floating point; a pixel is painted when its centre
// is inside the shape.

type canvas struct {
	img *image.Paletted
}

type pt struct{ x, y float64 }

func (c canvas) set(x, y int, col uint8) {
	r := c.img.Rect
	if x < r.Min.X || y < r.Min.Y || x >= r.Max.X || y >= r.Max.Y {
		return
	}
	c.img.Pix[(y-r.Min.Y)*c.img.Stride+(x-r.Min.X)] = col
}

// at is the colour index of a pixel (cPage outside).
func (c canvas) at(x, y int) uint8 {
	r := c.img.Rect
	if x < r.Min.X || y < r.Min.Y || x >= r.Max.X || y >= r.Max.Y {
		return cPage
	}
	return c.img.Pix[(y-r.Min.Y)*c.img.Stride+(x-r.Min.X)]
}

// rect fills [x0,x1)×[y0,y1).
func (c canvas) rect(x0, y0, x1, y1 int, col uint8) {
	r := image.Rect(x0, y0, x1, y1).Intersect(c.img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := c.img.Pix[(y-c.img.Rect.Min.Y)*c.img.Stride:]
		for x := r.Min.X; x < r.Max.X; x++ {
			row[x-c.img.Rect.Min.X] = col
		}
	}
}

// fill paints every pixel in the box whose centre satisfies in.
func (c canvas) fill(x0, y0, x1, y1 float64, col uint8, in func(px, py float64) bool) {
	b := c.img.Rect
	ys, ye := max(int(math.Floor(y0)), b.Min.Y), min(int(math.Ceil(y1)), b.Max.Y-1)
	xs, xe := max(int(math.Floor(x0)), b.Min.X), min(int(math.Ceil(x1)), b.Max.X-1)
	for y := ys; y <= ye; y++ {
		for x := xs; x <= xe; x++ {
			if in(float64(x)+0.5, float64(y)+0.5) {
				c.img.Pix[(y-b.Min.Y)*c.img.Stride+(x-b.Min.X)] = col
			}
		}
	}
}

// disc fills a circle, row by row.
func (c canvas) disc(p pt, r float64, col uint8) {
	b := c.img.Rect
	for y := max(int(math.Floor(p.y-r)), b.Min.Y); y <= min(int(math.Ceil(p.y+r)), b.Max.Y-1); y++ {
		dy := float64(y) + 0.5 - p.y
		if dy*dy > r*r {
			continue
		}
		// pixel x is inside when (x+0.5-p.x)² + dy² <= r²
		hw := math.Sqrt(r*r - dy*dy)
		xa := max(int(math.Ceil(p.x-hw-0.5)), b.Min.X)
		xb := min(int(math.Floor(p.x+hw-0.5)), b.Max.X-1)
		row := c.img.Pix[(y-b.Min.Y)*c.img.Stride:]
		for x := xa; x <= xb; x++ {
			row[x-b.Min.X] = col
		}
	}
}

// ring draws a circle's outline, w thick, inside radius r.
func (c canvas) ring(p pt, r, w float64, col uint8) {
	c.fill(p.x-r, p.y-r, p.x+r, p.y+r, col, func(x, y float64) bool {
		d := (x-p.x)*(x-p.x) + (y-p.y)*(y-p.y)
		return d <= r*r && d >= (r-w)*(r-w)
	})
}

// poly fills a simple polygon (convex or not) by the even-odd rule: a pixel is painted
// when its centre has an odd number of the polygon's edges to its right. It works row by
// row, painting the spans between pairs of crossings.
func (c canvas) poly(col uint8, pts ...pt) {
	y0, y1 := pts[0].y, pts[0].y
	for _, p := range pts {
		y0, y1 = math.Min(y0, p.y), math.Max(y1, p.y)
	}
	b := c.img.Rect
	var xs [16]float64
	for y := max(int(math.Floor(y0)), b.Min.Y); y <= min(int(math.Ceil(y1)), b.Max.Y-1); y++ {
		py := float64(y) + 0.5
		cross := xs[:0]
		j := len(pts) - 1
		for i := range pts {
			a, e := pts[i], pts[j]
			if (a.y > py) != (e.y > py) {
				cross = append(cross, a.x+(py-a.y)/(e.y-a.y)*(e.x-a.x))
			}
			j = i
		}
		slices.Sort(cross)
		row := c.img.Pix[(y-b.Min.Y)*c.img.Stride:]
		for k := 0; k+1 < len(cross); k += 2 {
			// pixel x is inside when cross[k] <= x+0.5 < cross[k+1]
			xa := max(int(math.Ceil(cross[k]-0.5)), b.Min.X)
			xb := min(int(math.Ceil(cross[k+1]-0.5)), b.Max.X)
			for x := xa; x < xb; x++ {
				row[x-b.Min.X] = col
			}
		}
	}
}

// line draws a segment w pixels wide with round ends (a rectangle and two discs).
func (c canvas) line(a, b pt, w float64, col uint8) {
	h := w / 2
	c.disc(a, h, col)
	c.disc(b, h, col)
	l := math.Hypot(b.x-a.x, b.y-a.y)
	if l == 0 {
		return
	}
	nx, ny := -(b.y-a.y)/l*h, (b.x-a.x)/l*h
	c.poly(col, pt{a.x + nx, a.y + ny}, pt{b.x + nx, b.y + ny}, pt{b.x - nx, b.y - ny}, pt{a.x - nx, a.y - ny})
}

// dashed draws a segment as dashes of length on with gaps off between them.
func (c canvas) dashed(a, b pt, w, on, off float64, col uint8) {
	l := math.Hypot(b.x-a.x, b.y-a.y)
	if l == 0 {
		return
	}
	ux, uy := (b.x-a.x)/l, (b.y-a.y)/l
	for s := 0.0; s < l; s += on + off {
		e := math.Min(l, s+on)
		c.line(pt{a.x + ux*s, a.y + uy*s}, pt{a.x + ux*e, a.y + uy*e}, w, col)
	}
}

// hexCorners are the six corners of a flat-top hexagon of radius r round p, clockwise
// from east (y grows downwards): corner k is at k·60°.
func hexCorners(p pt, r float64) [6]pt {
	var out [6]pt
	for k := range out {
		a := float64(k) * math.Pi / 3
		out[k] = pt{p.x + r*math.Cos(a), p.y + r*math.Sin(a)}
	}
	return out
}

// hex fills a flat-top hexagon.
func (c canvas) hex(p pt, r float64, col uint8) {
	h := hexCorners(p, r)
	c.poly(col, h[:]...)
}
