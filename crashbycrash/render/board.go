package render

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"math"

	cbc "github.com/rallyjudge/rallyjudge/crashbycrash"
)

// Options say what a picture shows beyond the state itself. The zero value draws the
// board, its names and the legend at the default size.
type Options struct {
	// Scale multiplies the default size (a hex radius of 30 pixels: a picture 777
	// pixels wide, twice a phone's 390-point width); 0 means 1. It must be 0.25-4.
	Scale float64
	// Highlight lists cells the last move touched; each that is still on the board (not
	// in a hole) is ringed.
	Highlight []cbc.Cell
	// Trails are the events of the last move (as Apply returned them): each car that
	// moved gets an arrow from where it was to where it ended (dashed if it was pushed,
	// solid if pulled or moved by a card), a car that left the board a cross where it
	// left, a placed car a star, the operator's walk a dark arrow.
	Trails []cbc.Event
	// NoLegend leaves out the band under the board (sides, scores, stocks, the
	// directions, the shades' values, whose move it is).
	NoLegend bool
}

// baseRadius is a hex's corner radius in pixels at Scale 1.
const baseRadius = 30

// layout places the board on the picture.
type layout struct {
	r        float64 // hex corner radius in pixels
	ox, oy   float64 // pixel of the CellCentre origin
	w, h     int     // picture size
	boardBot float64 // pixel y of the board's bottom edge
	right    float64 // pixel x of the board's right edge
}

func newLayout(scale float64, legendH float64) layout {
	r := baseRadius * scale
	// The board's extent in CellCentre units: x from 0 to 23.5, y from 0 to 13√3 (odd
	// columns stop at row 12).
	bw, bh := 1.5*(cbc.Cols-1)+2, 13*math.Sqrt(3)
	side, top := 1.45*r, 1.25*r
	l := layout{r: r, ox: side, oy: top}
	l.right = side + bw*r
	l.boardBot = top + bh*r
	l.w = int(math.Ceil(l.right + side))
	l.h = int(math.Ceil(l.boardBot + top + legendH))
	return l
}

// centre is the pixel centre of cell c.
func (l layout) centre(c cbc.Cell) pt {
	x, y := cbc.CellCentre(c)
	return pt{l.ox + x*l.r, l.oy + y*l.r}
}

// tokenDrop is how far below a cell's centre its piece stands, in hex radii, leaving
// the top of the cell to its name.
const tokenDrop = 0.2

// token is where a piece on c stands: a little below the centre, under the cell's name.
func (l layout) token(c cbc.Cell) pt {
	p := l.centre(c)
	return pt{p.x, p.y + tokenDrop*l.r}
}

// slotCentre is the middle of a tile slot (where the operator stands in its hole).
func (l layout) slotCentre(sl cbc.Slot) pt {
	cells := cbc.SlotCells(sl)
	var x, y float64
	for _, c := range cells {
		p := l.centre(c)
		x, y = x+p.x, y+p.y
	}
	n := float64(len(cells))
	return pt{x / n, y/n + tokenDrop*l.r}
}

// Board draws the state's board as a PNG: the tiles and their shades, holes, bells,
// cars, the operator, the cells' names, and what Options ask for. It reads the state
// and nothing else; the same state and options give the same bytes.
func Board(s *cbc.State, o Options) ([]byte, error) {
	img, err := draw(s, o)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	// The default level: BestCompression saves 5% of the bytes at 25 times the time.
	enc := png.Encoder{CompressionLevel: png.DefaultCompression}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("render: png: %v", err)
	}
	return buf.Bytes(), nil
}

// draw paints the picture.
func draw(s *cbc.State, o Options) (*image.Paletted, error) {
	if err := usable(s); err != nil {
		return nil, err
	}
	scale := o.Scale
	if scale == 0 {
		scale = 1
	}
	if !(scale >= 0.25 && scale <= 4) {
		return nil, fmt.Errorf("render: scale %g, want 0.25-4", o.Scale)
	}
	r := baseRadius * scale
	f, err := newFaces(r)
	if err != nil {
		return nil, err
	}
	legendH := 0.0
	if !o.NoLegend {
		legendH = legendHeight(r)
	}
	l := newLayout(scale, legendH)
	img := image.NewPaletted(image.Rect(0, 0, l.w, l.h), newPalette())
	c := canvas{img}
	c.rect(0, 0, l.w, l.h, cPage)
	drawCells(c, l, s)
	drawEdges(c, l, s)
	for _, h := range o.Highlight {
		if s.Present(h) { // not in a hole: a ring there would look like a cell
			ringHex(c, l.centre(h), 0.86*l.r, 0.14*l.r, cHighlight)
		}
	}
	drawNames(c, l, f, s)
	tr := traceTrails(o.Trails, l, s)
	tr.drawLines(c, l)
	drawPieces(c, l, f, s)
	tr.drawMarks(c, l)
	drawLabels(c, l, f)
	if !o.NoLegend {
		drawLegend(c, l, f, s)
	}
	return img, nil
}

// usable refuses a state the picture cannot be drawn from (it does not judge the
// rules: State.Check does).
func usable(s *cbc.State) error {
	if s == nil {
		return fmt.Errorf("render: no state")
	}
	nd := len(cbc.Designs())
	for sl, d := range s.Tiles {
		if int(d) < 0 || int(d) >= nd {
			return fmt.Errorf("render: %s holds tile design %d, want 0-%d", cbc.Slot(sl), d, nd-1)
		}
	}
	for c, p := range s.Board {
		if p > cbc.MagnetB {
			return fmt.Errorf("render: cell %s holds piece %d", cbc.Cell(c), p)
		}
	}
	return nil
}

// drawCells fills each cell of a tile still on the board with its shade.
func drawCells(c canvas, l layout, s *cbc.State) {
	for cell := cbc.Cell(1); cell <= cbc.MaxCell; cell++ {
		if s.Present(cell) {
			c.hex(l.centre(cell), l.r+0.5, uint8(cShade0+s.Shade(cell)))
		}
	}
}

// edge is the side of cell c towards direction d (flat-top hexes: N is the top edge,
// between corners 4 and 5, and so on clockwise).
func (l layout) edge(cell cbc.Cell, d cbc.Dir) (pt, pt) {
	h := hexCorners(l.centre(cell), l.r)
	return h[(4+int(d))%6], h[(5+int(d))%6]
}

// drawEdges draws thin lines between cells of a tile, thick ones round each tile, and
// a dashed line where a removed tile met the board's edge or another hole.
func drawEdges(c canvas, l layout, s *cbc.State) {
	thin, thick := math.Max(1, l.r/22), math.Max(2, l.r/7)
	type seg struct {
		a, b pt
		w    float64
		col  uint8
	}
	var thickSegs, holeSegs []seg
	for cell := cbc.Cell(1); cell <= cbc.MaxCell; cell++ {
		if !cbc.OnBoard(cell) {
			continue
		}
		sl := cbc.SlotOf(cell)
		for d := cbc.N; d <= cbc.NW; d++ {
			n := cell.Step(d)
			a, b := l.edge(cell, d)
			same := n != cbc.NoCell && cbc.SlotOf(n) == sl
			switch {
			case s.Present(cell) && same:
				c.line(a, b, thin, cCellEdge)
			case s.Present(cell):
				thickSegs = append(thickSegs, seg{a, b, thick, cTileEdge})
			case !same && !s.Present(n):
				holeSegs = append(holeSegs, seg{a, b, math.Max(1.5, l.r/12), cHoleEdge})
			}
		}
	}
	for _, g := range thickSegs {
		c.line(g.a, g.b, g.w, g.col)
	}
	for _, g := range holeSegs {
		// Dashes from the middle of each side outwards, so neighbouring sides meet alike.
		m := pt{(g.a.x + g.b.x) / 2, (g.a.y + g.b.y) / 2}
		on, off := l.r/5, l.r/7
		c.dashed(m, g.a, g.w, on, off, g.col)
		c.dashed(m, g.b, g.w, on, off, g.col)
	}
}

// ringHex draws a hexagonal ring of corner radius r, w thick, inside it.
func ringHex(c canvas, p pt, r, w float64, col uint8) {
	out, in := hexCorners(p, r), hexCorners(p, r-w/math.Cos(math.Pi/6))
	for k := 0; k < 6; k++ {
		j := (k + 1) % 6
		c.poly(col, out[k], out[j], in[j], in[k])
	}
}

// nameColour is the colour of a cell's name on each shade: the one with the most
// contrast (WCAG contrast ratios 7.3, 4.7, 6.3 and 8.0).
var nameColour = [4]uint8{cNameLight, cNameLight, cInk, cWhite}

// drawNames writes each cell's name small at its top, in a tone that reads on its shade.
func drawNames(c canvas, l layout, f *faces, s *cbc.State) {
	for cell := cbc.Cell(1); cell <= cbc.MaxCell; cell++ {
		if !s.Present(cell) {
			continue
		}
		p := l.centre(cell)
		c.centred(f.name, pt{p.x, p.y - 0.57*l.r}, cell.String(), nameColour[s.Shade(cell)])
	}
}

// drawLabels writes the column letters above and below the board and the row numbers
// beside it (at the rows of columns A and O; odd columns B, D, ... sit half a row lower).
func drawLabels(c canvas, l layout, f *faces) {
	for col := 0; col < cbc.Cols; col++ {
		top := l.centre(cbc.CellAt(col, 0))
		name := string(rune('A' + col))
		c.centred(f.label, pt{top.x, l.oy - 0.62*l.r}, name, cInk)
		c.centred(f.label, pt{top.x, l.boardBot + 0.62*l.r}, name, cInk)
	}
	for row := 0; row < cbc.Rows; row++ {
		y := l.centre(cbc.CellAt(0, row)).y
		name := fmt.Sprint(row + 1)
		c.centred(f.label, pt{l.ox / 2, y}, name, cInk)
		c.centred(f.label, pt{l.right + l.ox/2, y}, name, cInk)
	}
}
