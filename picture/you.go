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
	if you == "" {
		return
	}
	cv := canvas{img}
	found := false
	for _, s := range m.spots {
		if s.name == you {
			youRing(cv, s.cx, s.cy, s.s)
			found = true
		}
	}
	if found && m.key != (image.Point{}) {
		youRing(cv, float64(m.key.X+16), float64(m.key.Y+7), 13)
		cv.text(m.key.X+26, m.key.Y, "you", cInk, 0)
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
