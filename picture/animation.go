package picture

import (
	"bytes"
	"fmt"
	"image"
	"image/gif"

	"github.com/rallyjudge/rallyjudge/internal/parallel"
)

// A turn's GIF for several readers (issue 24 item 3). Each reader's copy rings their
// robot in every frame (Frame.For), and most frames of a copy come out the same as the
// shared GIF's: where the reader's robot did not move and nothing was drawn under its
// ring, a frame's difference from the one before is the same. An Animation keeps the
// shared GIF frame by frame (each frame's difference and its encoded block), so a
// reader's copy encodes only the frames that differ; the others are the shared blocks.
// The bytes are those EncodeFrames writes for the same frames.
//
// Each block is one frame as image/gif encodes it (its graphic control extension, image
// descriptor and LZW data): image/gif encodes a GIF of that one frame, and the block is
// cut from between the header (screen descriptor and colour table) and the trailer.

// Animation is a turn's GIF, frame by frame (EncodeAnimation).
type Animation struct {
	frames []Frame
	opt    Options
	head   []byte            // header, screen descriptor, colour table, loop
	diffs  []*image.Paletted // each frame's difference from the one before (the first: itself)
	blocks [][]byte          // each frame as encoded
}

// EncodeAnimation encodes frames of one size and palette as EncodeFrames does, the
// frames side by side on every processor, keeping each frame's block for readers'
// copies (Animation.For).
func EncodeAnimation(frames []Frame, opt Options) (*Animation, error) {
	if len(frames) == 0 {
		return nil, fmt.Errorf("picture: no frames")
	}
	a := &Animation{frames: frames, opt: opt, diffs: make([]*image.Paletted, len(frames)), blocks: make([][]byte, len(frames))}
	errs := make([]error, len(frames))
	parallel.Do(len(frames), func(k int) {
		a.diffs[k] = frames[k].Image
		if k > 0 {
			a.diffs[k] = delta(frames[k-1].Image, frames[k].Image)
		}
		var head []byte
		head, a.blocks[k], errs[k] = a.block(k, a.diffs[k])
		if k == 0 {
			a.head = head
		}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	if len(frames) > 1 { // the loop, as image/gif writes it for more than one frame
		a.head = append(a.head[:len(a.head):len(a.head)], 0x21, 0xff, 0x0b)
		a.head = append(a.head, "NETSCAPE2.0"...)
		a.head = append(a.head, 0x03, 0x01, 0, 0, 0)
	}
	return a, nil
}

// Bytes is the GIF.
func (a *Animation) Bytes() []byte { return a.gif(a.blocks) }

// For is the GIF of the frames as the player of robot you sees them (FramesFor): the
// frames that differ from the shared ones are encoded, the others taken as they are.
func (a *Animation) For(you string) ([]byte, error) {
	blocks := make([][]byte, len(a.frames))
	// the reader's frames in two pictures used in turn (Frame.For without a new picture
	// a frame)
	first := a.frames[0].Image
	prev, cur := image.NewPaletted(first.Rect, first.Palette), image.NewPaletted(first.Rect, first.Palette)
	for k, f := range a.frames {
		prev, cur = cur, prev
		copy(cur.Pix, f.Image.Pix)
		ringYou(cur, f.you, you)
		d := cur
		if k > 0 {
			d = delta(prev, cur)
		}
		if s := a.diffs[k]; d.Rect == s.Rect && bytes.Equal(d.Pix, s.Pix) {
			blocks[k] = a.blocks[k]
			continue
		}
		var err error
		if _, blocks[k], err = a.block(k, d); err != nil {
			return nil, err
		}
	}
	return a.gif(blocks), nil
}

func (a *Animation) gif(blocks [][]byte) []byte {
	n := len(a.head) + 1
	for _, b := range blocks {
		n += len(b)
	}
	out := make([]byte, 0, n)
	out = append(out, a.head...)
	for _, b := range blocks {
		out = append(out, b...)
	}
	return append(out, 0x3b) // the trailer
}

// block encodes frame k's difference d as a GIF of its own, and cuts it into the
// header and the frame's block.
func (a *Animation) block(k int, d *image.Paletted) (head, block []byte, err error) {
	first := a.frames[0].Image
	var b bytes.Buffer
	err = gif.EncodeAll(&b, &gif.GIF{
		Config: image.Config{ColorModel: first.Palette, Width: first.Rect.Dx(), Height: first.Rect.Dy()},
		Image:  []*image.Paletted{d}, Delay: []int{frameDelay(k, len(a.frames), a.opt)}, Disposal: []byte{gif.DisposalNone},
	})
	if err != nil {
		return nil, nil, err
	}
	out := b.Bytes()
	h := 13 + 3*(2<<paletteBits(len(first.Palette))) // header, screen descriptor, colour table
	if len(out) < h+1 || out[len(out)-1] != 0x3b {
		return nil, nil, fmt.Errorf("picture: frame %d: the GIF encoder wrote %d bytes, not one frame", k, len(out))
	}
	return out[:h], out[h : len(out)-1], nil
}

// paletteBits is image/gif's size of a colour table of n entries: 2^(1+bits) entries.
func paletteBits(n int) int {
	bits := 0
	for 2<<bits < n {
		bits++
	}
	return bits
}

// frameDelay is frame k's delay of n, as EncodeFrames gives it: the first and the last
// stay three times as long.
func frameDelay(k, n int, opt Options) int {
	d := opt.Delay
	if d <= 0 {
		d = 80
	}
	if k == 0 || k == n-1 {
		return 3 * d
	}
	return d
}
