package picture

import (
	"image"
	"slices"
	"sync"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// The course drawn without robots (painter.drawStatic: the floor, every element,
// coordinates, the legend's band) is the same picture every turn of a game, and for
// every game on the course drawn at the same size. A few of them are kept
// (backgroundsKept), the least recently used dropped, so a turn's pictures start from
// a copy instead of drawing the course again (issue 24 item 3).
//
// An entry is used only when everything the drawing reads is the same: the layout, the
// 2023 look, and the course's squares, flags, start squares and docking-bay squares,
// compared in full (not by the course's name or address: a course may be read again,
// or edited, between turns). The cache only saves time: the pictures are the same with
// it and without (TestBackgroundCache).

// backgroundsKept is how many backgrounds are kept: 16 of 24×28 squares at 28 pixels
// are about 12 MB.
const backgroundsKept = 16

// background is one course drawn, and what it was drawn from.
type background struct {
	from staticInputs
	img  *image.Paletted // never changed once drawn
}

// staticInputs is everything drawStatic reads.
type staticInputs struct {
	l       layout
	own     bool
	w, h    int
	squares []adjudicator.Square
	flags   []adjudicator.Pos
	starts  []adjudicator.Start
	dock    []bool // the squares of the 2023 docking bay
}

func (a *staticInputs) equal(b *staticInputs) bool {
	return a.l == b.l && a.own == b.own && a.w == b.w && a.h == b.h && slices.Equal(a.squares, b.squares) &&
		slices.Equal(a.flags, b.flags) && slices.Equal(a.starts, b.starts) && slices.Equal(a.dock, b.dock)
}

// backgroundCache is the backgrounds kept, the most recently used first.
type backgroundCache struct {
	mu   sync.Mutex
	kept []*background
}

// backgrounds is the package's cache: its entries change what is drawn in no way, only
// how soon (see above).
var backgrounds backgroundCache

// inputs is what p's background is drawn from.
func (p *painter) inputs() staticInputs {
	in := staticInputs{l: p.l, own: p.own, w: p.b.W, h: p.b.H, squares: p.b.Squares, flags: p.c.Flags, starts: p.c.Starts}
	if p.own {
		in.dock = make([]bool, p.b.W*p.b.H)
		for i := range in.dock {
			in.dock[i] = p.dockAt(adjudicator.Pos{X: i % p.b.W, Y: i / p.b.W})
		}
	}
	return in
}

// get is p's background: kept, or drawn and kept.
func (c *backgroundCache) get(p *painter) *image.Paletted {
	in := p.inputs()
	c.mu.Lock()
	for i, b := range c.kept {
		if b.from.equal(&in) {
			copy(c.kept[1:i+1], c.kept[:i]) // to the front
			c.kept[0] = b
			c.mu.Unlock()
			return b.img
		}
	}
	c.mu.Unlock()
	img := image.NewPaletted(image.Rect(0, 0, p.l.width, p.l.total), newPalette())
	p.drawStatic(canvas{img})
	// a copy of what it was drawn from: the course's slices may change after
	in.squares, in.flags, in.starts = slices.Clone(in.squares), slices.Clone(in.flags), slices.Clone(in.starts)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.kept = slices.Insert(c.kept, 0, &background{from: in, img: img})
	if len(c.kept) > backgroundsKept {
		c.kept[backgroundsKept] = nil
		c.kept = c.kept[:backgroundsKept]
	}
	return img
}
