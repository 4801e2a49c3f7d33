package picture

import (
	"image"
)

// The reader's own robot is ringed in their copy of every picture of a turn: the board
// after the turn, each register's picture and every frame of the GIF (issue 22). The
// pictures are drawn once for everyone; each robot drawn leaves a ringSpot on its
// frame, and a reader's copy is the shared frame with the ring drawn over the spots of
// their robot (Frame.For), so a report for eight players costs eight copies and
// encodings, not eight drawings. The ring is the last thing drawn on a picture, so a
// copy is the same picture as one drawn with Options.You.

// ringSpot is where a robot was drawn: on the board, or its entry in the legend.
type ringSpot struct {
	name      string
	cx, cy, s float64
}

// youMarks are the places a frame's reader ring goes.
type youMarks struct {
	spots []ringSpot
	key   image.Point // where the legend's "you" key goes; zero: the picture has none
}

// ringYou draws the ring round every spot of robot you, and the legend's key to it.
func ringYou(img *image.Paletted, m youMarks, you string) {
	rings(nil).draw(img, m, you)
}

// rings keeps the pixels of the rings drawn, by where they were drawn: a reader's copies
// of a turn's pictures ring the same places again and again (Animation.For,
// Still.For). A nil rings draws every ring afresh.
type rings map[ringAt][]ringPixel

// ringAt is where a ring is drawn: round a spot, or the legend's key at key.
type ringAt struct {
	spot ringSpot
	key  image.Point
}

type ringPixel struct {
	x, y int
	c    uint8
}

// draw is ringYou, drawing each ring as it was drawn before.
func (rs rings) draw(img *image.Paletted, m youMarks, you string) {
	if you == "" {
		return
	}
	found := false
	for _, s := range m.spots {
		if s.name == you {
			rs.stamp(img, ringAt{spot: ringSpot{cx: s.cx, cy: s.cy, s: s.s}}, spotBox(s),
				func(cv canvas) { youRing(cv, s.cx, s.cy, s.s) })
			found = true
		}
	}
	if found && m.key != (image.Point{}) {
		k := m.key
		rs.stamp(img, ringAt{key: k}, keyBox(k), func(cv canvas) {
			youRing(cv, float64(k.X+16), float64(k.Y+7), 13)
			cv.text(k.X+26, k.Y, "you", cInk, 0)
		})
	}
}

// stamp draws a ring (draw, inside box) on img: as kept, or drawn and kept.
func (rs rings) stamp(img *image.Paletted, at ringAt, box image.Rectangle, draw func(canvas)) {
	if rs == nil {
		draw(canvas{img})
		return
	}
	px, ok := rs[at]
	if !ok {
		// drawn on a picture of the box alone, every pixel unpainted (no palette has
		// 0xff colours); what is painted is the ring
		r := box.Intersect(img.Rect)
		scratch := image.NewPaletted(r, img.Palette)
		for i := range scratch.Pix {
			scratch.Pix[i] = 0xff
		}
		draw(canvas{scratch})
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				if c := scratch.Pix[scratch.PixOffset(x, y)]; c != 0xff {
					px = append(px, ringPixel{x, y, c})
				}
			}
		}
		rs[at] = px
	}
	for _, p := range px {
		if (image.Point{p.x, p.y}).In(img.Rect) {
			img.Pix[img.PixOffset(p.x, p.y)] = p.c
		}
	}
}

// For returns the frame as the player of robot you sees it: a copy with their robot
// ringed wherever it is drawn. f is not changed; a robot not in the picture (or ""):
// the copy is the same picture.
func (f Frame) For(you string) Frame {
	img := image.NewPaletted(f.Image.Rect, f.Image.Palette)
	copy(img.Pix, f.Image.Pix)
	ringYou(img, f.you, you)
	return Frame{Image: img, Caption: f.Caption, you: f.you}
}

// FramesFor is every frame as the player of robot you sees it (Frame.For): their copy
// of a turn's GIF.
func FramesFor(frames []Frame, you string) []Frame {
	out := make([]Frame, len(frames))
	for i, f := range frames {
		out[i] = f.For(you)
	}
	return out
}
