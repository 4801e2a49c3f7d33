package picture

import (
	"image"
	"math"
	"math/bits"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// Drawing primitives on a paletted image. They paint whole palette entries with no
// anti-aliasing, so every pixel stays a palette colour and the output is the same on
// every machine. Coordinates are floating point, in pixels; a pixel is painted when its
// centre is inside the shape.

type canvas struct {
	img *image.Paletted
}

func (c canvas) set(x, y int, col uint8) {
	r := c.img.Rect
	if x < r.Min.X || y < r.Min.Y || x >= r.Max.X || y >= r.Max.Y {
		return
	}
	c.img.Pix[(y-r.Min.Y)*c.img.Stride+(x-r.Min.X)] = col
}

// rect fills [x0,x1)×[y0,y1): the first row a pixel at a time, the others copied
// from it.
func (c canvas) rect(x0, y0, x1, y1 int, col uint8) {
	r := image.Rect(x0, y0, x1, y1).Intersect(c.img.Rect)
	if r.Empty() {
		return
	}
	w := r.Dx()
	first := c.img.Pix[c.img.PixOffset(r.Min.X, r.Min.Y):][:w]
	for i := range first {
		first[i] = col
	}
	for y := r.Min.Y + 1; y < r.Max.Y; y++ {
		copy(c.img.Pix[c.img.PixOffset(r.Min.X, y):][:w], first)
	}
}

// frame draws the outline of [x0,x1)×[y0,y1), w pixels thick, inside it.
func (c canvas) frame(x0, y0, x1, y1, w int, col uint8) {
	c.rect(x0, y0, x1, y0+w, col)
	c.rect(x0, y1-w, x1, y1, col)
	c.rect(x0, y0, x0+w, y1, col)
	c.rect(x1-w, y0, x1, y1, col)
}

// fill paints every pixel in the box whose centre satisfies in.
func (c canvas) fill(x0, y0, x1, y1 float64, col uint8, in func(px, py float64) bool) {
	xa, ya, xb, yb := c.box(x0, y0, x1, y1)
	for y := ya; y < yb; y++ {
		row, py := c.row(y, xa, xb), float64(y)+0.5
		for x := xa; x < xb; x++ {
			if in(float64(x)+0.5, py) {
				row[x-xa] = col
			}
		}
	}
}

// box is the pixels fill looks at for the box x0,y0 to x1,y1 that lie on the image:
// columns xa to xb and rows ya to yb (not included).
func (c canvas) box(x0, y0, x1, y1 float64) (xa, ya, xb, yb int) {
	r := c.img.Rect
	xa, ya = max(int(math.Floor(x0)), r.Min.X), max(int(math.Floor(y0)), r.Min.Y)
	xb, yb = min(int(math.Ceil(x1))+1, r.Max.X), min(int(math.Ceil(y1))+1, r.Max.Y)
	if xa >= xb {
		yb = ya // no column: no row either
	}
	return xa, ya, xb, yb
}

// row is the pixels xa to xb of row y of the image (all on it).
func (c canvas) row(y, xa, xb int) []byte {
	o := c.img.PixOffset(xa, y)
	return c.img.Pix[o : o+xb-xa]
}

// disc fills a circle.
func (c canvas) disc(cx, cy, r float64, col uint8) {
	xa, ya, xb, yb := c.box(cx-r, cy-r, cx+r, cy+r)
	for y := ya; y < yb; y++ {
		row, dy := c.row(y, xa, xb), float64(y)+0.5-cy
		dy2 := dy * dy
		for x := xa; x < xb; x++ {
			if dx := float64(x) + 0.5 - cx; dx*dx+dy2 <= r*r {
				row[x-xa] = col
			}
		}
	}
}

// ring draws a circle's outline, w thick, inside radius r.
func (c canvas) ring(cx, cy, r, w float64, col uint8) {
	xa, ya, xb, yb := c.box(cx-r, cy-r, cx+r, cy+r)
	for y := ya; y < yb; y++ {
		row, dy := c.row(y, xa, xb), float64(y)+0.5-cy
		dy2 := dy * dy
		for x := xa; x < xb; x++ {
			dx := float64(x) + 0.5 - cx
			if d := dx*dx + dy2; d <= r*r && d >= (r-w)*(r-w) {
				row[x-xa] = col
			}
		}
	}
}

// arc draws part of a ring from angle a0 to a1 (radians, clockwise from east, as y
// grows downwards), w thick, inside radius r.
func (c canvas) arc(cx, cy, r, w, a0, a1 float64, col uint8) {
	c.fill(cx-r, cy-r, cx+r, cy+r, col, func(x, y float64) bool {
		d := (x-cx)*(x-cx) + (y-cy)*(y-cy)
		if d > r*r || d < (r-w)*(r-w) {
			return false
		}
		a := math.Atan2(y-cy, x-cx)
		for a < a0 {
			a += 2 * math.Pi
		}
		return a <= a1
	})
}

// poly fills a convex polygon: a pixel whose centre is on the same side of every edge
// (or on it).
func (c canvas) poly(col uint8, pts ...[2]float64) {
	x0, y0, x1, y1 := pts[0][0], pts[0][1], pts[0][0], pts[0][1]
	for _, p := range pts {
		x0, y0 = math.Min(x0, p[0]), math.Min(y0, p[1])
		x1, y1 = math.Max(x1, p[0]), math.Max(y1, p[1])
	}
	// each edge from a to b: the side of a point is the cross product
	// (b-a) × (point-a), its first term the same along a row
	type edge struct{ ax, ay, dx, dy, row float64 }
	var kept [8]edge
	es := kept[:0]
	for i := range pts {
		a, b := pts[i], pts[(i+1)%len(pts)]
		es = append(es, edge{ax: a[0], ay: a[1], dx: b[0] - a[0], dy: b[1] - a[1]})
	}
	xa, ya, xb, yb := c.box(x0, y0, x1, y1)
	for y := ya; y < yb; y++ {
		row, py := c.row(y, xa, xb), float64(y)+0.5
		for i := range es {
			es[i].row = es[i].dx * (py - es[i].ay)
		}
	pixels:
		for x := xa; x < xb; x++ {
			px := float64(x) + 0.5
			sign := 0.0
			for i := range es {
				e := &es[i]
				cr := e.row - e.dy*(px-e.ax)
				if cr == 0 {
					continue
				}
				if sign == 0 {
					sign = cr
				} else if (cr > 0) != (sign > 0) {
					continue pixels
				}
			}
			row[x-xa] = col
		}
	}
}

// line draws a segment w pixels wide with square ends.
func (c canvas) line(x0, y0, x1, y1, w float64, col uint8) {
	dx, dy := x1-x0, y1-y0
	l := math.Hypot(dx, dy)
	if l == 0 {
		c.rect(int(x0-w/2), int(y0-w/2), int(x0+w/2), int(y0+w/2), col)
		return
	}
	nx, ny := -dy/l*w/2, dx/l*w/2
	c.poly(col, [2]float64{x0 + nx, y0 + ny}, [2]float64{x1 + nx, y1 + ny},
		[2]float64{x1 - nx, y1 - ny}, [2]float64{x0 - nx, y0 - ny})
}

// text draws s with its top-left corner at (x, y) in the 7×13 fixed font, no wider
// than maxW pixels (longer text is cut and ends in "..."); it returns the width drawn.
// An em dash, which the font lacks, is drawn as a line.
func (c canvas) text(x, y int, s string, col uint8, maxW int) int {
	face := basicfont.Face7x13
	const adv = 7
	runes := []rune(s)
	if maxW > 0 && len(runes)*adv > maxW {
		n := maxW/adv - 3
		if n < 0 {
			n = 0
		}
		runes = append(runes[:n:n], '.', '.', '.')
	}
	dot := fixed.P(x, y+face.Ascent)
	for _, r := range runes {
		if r == '·' { // the font has no middle dot: a square one
			c.rect(dot.X.Floor()+2, y+6, dot.X.Floor()+5, y+9, col)
			dot.X += fixed.I(adv)
			continue
		}
		if r == '—' {
			c.rect(dot.X.Floor(), y+6, dot.X.Floor()+adv, y+7, col)
			dot.X += fixed.I(adv)
			continue
		}
		c.glyph(face, dot, r, col)
		dot.X += fixed.I(adv)
	}
	return len(runes) * adv
}

func (c canvas) glyph(face font.Face, dot fixed.Point26_6, r rune, col uint8) {
	dr, mask, mp, _, ok := face.Glyph(dot, r)
	if !ok {
		dr, mask, mp, _, _ = face.Glyph(dot, '?')
	}
	if a, ok := mask.(*image.Alpha); ok { // the fixed font's: its pixels read directly
		// the glyph's pixels on the image, and where they are in the mask
		on := dr.Intersect(c.img.Rect)
		src := on.Add(mp.Sub(dr.Min)).Intersect(a.Rect)
		on = src.Add(dr.Min.Sub(mp))
		if a == fontMask && a.Rect.Dx() <= 8 && src.Min.X == a.Rect.Min.X && on.Dx() == a.Rect.Dx() {
			// the inked pixels of each row, as bits (fontBits)
			fb := fontBits()
			for y := on.Min.Y; y < on.Max.Y; y++ {
				row := c.row(y, on.Min.X, on.Max.X)
				for m := fb[src.Min.Y+y-on.Min.Y-a.Rect.Min.Y]; m != 0; m &= m - 1 {
					row[bits.TrailingZeros8(m)] = col
				}
			}
			return
		}
		for y := on.Min.Y; y < on.Max.Y; y++ {
			m := a.Pix[a.PixOffset(src.Min.X, src.Min.Y+y-on.Min.Y):][:on.Dx()]
			row := c.row(y, on.Min.X, on.Max.X)
			for i, v := range m {
				if v >= 0x80 {
					row[i] = col
				}
			}
		}
		return
	}
	for y := dr.Min.Y; y < dr.Max.Y; y++ {
		for x := dr.Min.X; x < dr.Max.X; x++ {
			if _, _, _, a := mask.At(mp.X+x-dr.Min.X, mp.Y+y-dr.Min.Y).RGBA(); a >= 0x8000 {
				c.set(x, y, col)
			}
		}
	}
}

// fontMask is the 7×13 font's glyphs, one under another; fontBits is each of its rows
// as bits (bit x: the pixel in column x is inked, alpha 0x80 or more), worked out once
// from the font's pixels.
var (
	fontMask, _ = basicfont.Face7x13.Mask.(*image.Alpha)
	fontBits    = sync.OnceValue(func() []uint8 {
		a := fontMask
		out := make([]uint8, a.Rect.Dy())
		for y := range out {
			for x := range min(a.Rect.Dx(), 8) {
				if a.Pix[a.PixOffset(a.Rect.Min.X+x, a.Rect.Min.Y+y)] >= 0x80 {
					out[y] |= 1 << x
				}
			}
		}
		return out
	})
)

// tinyDigits is a 3×5 pixel font for the digits 0–9, row by row, for register numbers
// on pushers and crushers where the 7×13 font does not fit.
const tinyDigits = "" +
	"111101101101111" + // 0
	"010110010010111" + // 1
	"111001111100111" + // 2
	"111001111001111" + // 3
	"101101111001001" + // 4
	"111100111001111" + // 5
	"111100111101111" + // 6
	"111001010010010" + // 7
	"111101111101111" + // 8
	"111101111001111" // 9

// tiny draws a string of digits at (x, y), each pixel scaled by k; other characters
// leave a gap. It returns the width.
func (c canvas) tiny(x, y int, s string, k int, col uint8) int {
	w := 0
	for _, ch := range s {
		if ch >= '0' && ch <= '9' {
			g := tinyDigits[15*int(ch-'0'):]
			for i := 0; i < 15; i++ {
				if g[i] == '1' {
					c.rect(x+w+(i%3)*k, y+(i/3)*k, x+w+(i%3+1)*k, y+(i/3+1)*k, col)
				}
			}
		}
		w += 4 * k
	}
	return w - k
}

// tinyWidth is the width tiny would draw s with.
func tinyWidth(s string, k int) int { return len(s)*4*k - k }
