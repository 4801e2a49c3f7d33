package picture

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"math/bits"
	"slices"

	"github.com/rallyjudge/rallyjudge/internal/parallel"
)

// A turn's GIF for several readers (issue 24 item 3). Each reader's copy rings their
// robot in every frame (Frame.For). An Animation encodes the shared GIF once, each
// frame's difference from the one before in bands of rows (bands.go, lzw.go), and keeps
// the bands. A reader's copy of a frame differs from the shared one only in the rows of
// the reader's ring, and only where the ring moved or something changed under it: the
// bands are cut round those rows (difference), and Animation.For encodes again just the
// bands whose rows come out different for the reader, taking every other band, and
// every frame whose bands all came out the same, as they are. Where the reader's ring
// would reach outside the shared frame's rectangle (difference grows it so that it
// does not) the frame is encoded whole for them.
//
// The pictures are EncodeFrames' for the same frames, frame for frame and delay for
// delay (TestAnimationIsEncodeFrames decodes both and compares every composited
// frame); the bytes differ only in the clear codes between bands.

// Animation is a turn's GIF, frame by frame (EncodeAnimation).
type Animation struct {
	frames []Frame
	opt    Options
	head   []byte // header, screen descriptor, colour table, loop
	lit    uint   // LZW literal width
	trans  int    // the palette's transparent entry (-1: none)
	diffs  []*image.Paletted
	cuts   [][]int     // each frame's bands: the first row of each, then the last row's end
	bands  [][]lzwBand // each frame's bands, encoded
	blocks [][]byte    // each frame as encoded
}

// EncodeAnimation encodes frames of one size and palette as EncodeFrames does, the
// frames side by side on every processor, keeping each frame's bands for readers'
// copies (Animation.For).
func EncodeAnimation(frames []Frame, opt Options) (*Animation, error) {
	if len(frames) == 0 {
		return nil, fmt.Errorf("picture: no frames")
	}
	first := frames[0].Image
	pal := first.Palette
	if len(pal) == 0 {
		return nil, fmt.Errorf("picture: frames without a palette")
	}
	for k, f := range frames {
		if f.Image.Rect != first.Rect || !samePalette(f.Image.Palette, pal) {
			return nil, fmt.Errorf("picture: frame %d: not the first frame's size and palette", k)
		}
	}
	n := len(frames)
	a := &Animation{frames: frames, opt: opt, lit: uint(max(2, paletteBits(len(pal))+1)), trans: -1,
		diffs: make([]*image.Paletted, n), cuts: make([][]int, n), bands: make([][]lzwBand, n), blocks: make([][]byte, n)}
	for i, c := range pal {
		if _, _, _, al := c.RGBA(); al == 0 {
			a.trans = i
			break
		}
	}
	var err error
	if a.head, err = gifHead(first, n); err != nil {
		return nil, err
	}
	errs := make([]error, n)
	parallel.Do(n, func(k int) {
		var spans []rowSpan
		d := frames[k].Image
		if k == 0 {
			spans = ringRows(frames[0].you, "") // every reader's ring is new
		} else {
			d, spans = a.difference(k)
		}
		a.diffs[k] = d
		a.cuts[k] = bandCuts(d.Rect.Min.Y, d.Rect.Max.Y, spans, bandGap)
		e := getLZW(a.lit, a.trans)
		defer lzwSpares.put(e)
		a.bands[k] = make([]lzwBand, len(a.cuts[k])-1)
		for i := range a.bands[k] {
			if a.bands[k][i], errs[k] = e.band(d, a.cuts[k][i], a.cuts[k][i+1], len(pal)); errs[k] != nil {
				errs[k] = fmt.Errorf("picture: frame %d: %w", k, errs[k])
				return
			}
		}
		a.blocks[k] = a.block(k, d.Rect, a.bands[k])
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return a, nil
}

// difference is frame k's difference from the one before (delta), and the rows where a
// reader's copy of it may differ. A reader's copy differs only round their ring, and
// only where the ring moved (their robot moved, came or went) or the frame changed
// under it. The rectangle is grown to hold the rings that moved, so that a reader's
// copy of the frame has the shared frame's rectangle (Animation.For).
func (a *Animation) difference(k int) (*image.Paletted, []rowSpan) {
	prev, cur := a.frames[k-1], a.frames[k]
	d := delta(prev.Image, cur.Image)
	if len(d.Pix) == 1 && d.Pix[0] == cClear {
		d.Rect = image.Rectangle{} // nothing changed (for now)
	}
	var spans []rowSpan
	var moved image.Rectangle
	all := names(prev.you)
	for _, name := range names(cur.you) {
		if !slices.Contains(all, name) {
			all = append(all, name)
		}
	}
	for _, name := range all {
		before, now := ringBoxes(prev.you, name), ringBoxes(cur.you, name)
		for _, b := range slices.Concat(before, now) {
			if slices.Contains(before, b) && slices.Contains(now, b) {
				// the ring stays: the reader's copy differs where the frame changed
				// under it
				if clearIn(d, b) {
					continue
				}
			} else {
				moved = moved.Union(b) // the ring came or went
			}
			spans = append(spans, rowSpan{b.Min.Y, b.Max.Y})
		}
	}
	if r := d.Rect.Union(moved).Intersect(cur.Image.Rect); r != d.Rect {
		d = deltaIn(prev.Image, cur.Image, r)
	}
	if d.Rect.Empty() {
		d = deltaIn(prev.Image, cur.Image, image.Rectangle{Min: cur.Image.Rect.Min, Max: cur.Image.Rect.Min.Add(image.Pt(1, 1))})
	}
	return d, spans
}

// clearIn says whether every pixel of d in box is transparent (unchanged).
func clearIn(d *image.Paletted, box image.Rectangle) bool {
	r := box.Intersect(d.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for _, c := range d.Pix[d.PixOffset(r.Min.X, y):][:r.Dx()] {
			if c != cClear {
				return false
			}
		}
	}
	return true
}

// deltaIn is delta with the rectangle r: cur where it differs from prev, transparent
// elsewhere.
func deltaIn(prev, cur *image.Paletted, r image.Rectangle) *image.Paletted {
	out := image.NewPaletted(r, cur.Palette)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		o := cur.PixOffset(r.Min.X, y)
		deltaRow(out.Pix[out.PixOffset(r.Min.X, y):][:r.Dx()], prev.Pix[o:o+r.Dx()], cur.Pix[o:o+r.Dx()])
	}
	return out
}

// Bytes is the GIF.
func (a *Animation) Bytes() []byte { return a.gif(a.blocks) }

// For is the GIF of the frames as the player of robot you sees them (FramesFor): the
// bands of each frame that come out different for them are encoded, the others taken
// as they are.
func (a *Animation) For(you string) ([]byte, error) {
	blocks := make([][]byte, len(a.frames))
	// The reader's frame before and this one, drawn only in the rows of the reader's
	// ring in either (the only rows where their difference can differ from the shared
	// one), and their difference there.
	first := a.frames[0].Image
	bufs := []*[]byte{getPixels(len(first.Pix)), getPixels(len(first.Pix)), getPixels(len(first.Pix))}
	defer func() {
		for _, b := range bufs {
			pixSpares.put(b)
		}
	}()
	prev := &image.Paletted{Pix: *bufs[0], Stride: first.Stride, Rect: first.Rect, Palette: first.Palette}
	cur := &image.Paletted{Pix: *bufs[1], Stride: first.Stride, Rect: first.Rect, Palette: first.Palette}
	scratch := *bufs[2]
	row := make([]byte, first.Rect.Dx())
	e := getLZW(a.lit, a.trans)
	defer lzwSpares.put(e)
	colours := len(first.Palette)
	rs := rings{}
	var before []rowSpan // the reader's ring rows in the frame before
	for k, f := range a.frames {
		rows := ringRows(f.you, you)
		ys := merge(append(rows[:len(rows):len(rows)], before...), 0)
		before = rows
		blocks[k] = a.blocks[k]
		if len(ys) == 0 {
			continue // the reader's frame is the shared one, and so was the one before
		}
		copyRows(cur, f.Image, ys)
		rs.draw(cur, f.you, you)
		s := a.diffs[k]
		if k > 0 {
			copyRows(prev, a.frames[k-1].Image, ys)
			rs.draw(prev, a.frames[k-1].you, you)
			sr := s.Rect
			if len(s.Pix) == 1 && s.Pix[0] == cClear { // nothing changed for everyone
				sr = image.Rectangle{}
			}
			if changed(prev, cur, ys).Union(sr) != sr {
				// the reader's frame reaches outside the shared one's rectangle (not
				// expected: difference grows it to hold the rings that moved)
				copy(prev.Pix, a.frames[k-1].Image.Pix)
				rs.draw(prev, a.frames[k-1].you, you)
				copy(cur.Pix, f.Image.Pix)
				rs.draw(cur, f.you, you)
				d := delta(prev, cur)
				b, err := e.band(d, d.Rect.Min.Y, d.Rect.Max.Y, colours)
				if err != nil {
					return nil, fmt.Errorf("picture: %s's frame %d: %w", you, k, err)
				}
				blocks[k] = a.block(k, d.Rect, []lzwBand{b})
				continue
			}
			if sr.Empty() {
				continue
			}
		}
		// The reader's difference in row y, in the shared difference's columns.
		w := s.Rect.Dx()
		readerRow := func(dst []byte, y int) {
			o := cur.PixOffset(s.Rect.Min.X, y)
			if k == 0 {
				copy(dst, cur.Pix[o:o+w])
			} else {
				deltaRow(dst, prev.Pix[o:o+w], cur.Pix[o:o+w])
			}
		}
		// The bands holding a row that comes out different for the reader are encoded
		// again: the shared rows, the reader's in the rows of their ring.
		var mine []lzwBand
		cuts := a.cuts[k]
		redone := make([]bool, len(cuts)-1)
		band := 0
		for _, sp := range ys {
			for y := max(sp.y0, s.Rect.Min.Y); y < min(sp.y1, s.Rect.Max.Y); y++ {
				for cuts[band+1] <= y {
					band++
				}
				if redone[band] {
					continue
				}
				readerRow(row[:w], y)
				if bytes.Equal(row[:w], s.Pix[s.PixOffset(s.Rect.Min.X, y):][:w]) {
					continue
				}
				if mine == nil {
					mine = append([]lzwBand(nil), a.bands[k]...)
				}
				y0, y1 := cuts[band], cuts[band+1]
				d := &image.Paletted{Pix: scratch[:w*(y1-y0)], Stride: w, Palette: s.Palette,
					Rect: image.Rect(s.Rect.Min.X, y0, s.Rect.Max.X, y1)}
				copy(d.Pix, s.Pix[s.PixOffset(s.Rect.Min.X, y0):])
				for _, t := range ys {
					for yy := max(t.y0, y0); yy < min(t.y1, y1); yy++ {
						readerRow(d.Pix[(yy-y0)*w:][:w], yy)
					}
				}
				var err error
				if mine[band], err = e.band(d, y0, y1, colours); err != nil {
					return nil, fmt.Errorf("picture: %s's frame %d: %w", you, k, err)
				}
				redone[band] = true
			}
		}
		if mine != nil {
			blocks[k] = a.block(k, s.Rect, mine)
		}
	}
	return a.gif(blocks), nil
}

// copyRows copies the rows of spans from src to dst, pictures of one size.
func copyRows(dst, src *image.Paletted, spans []rowSpan) {
	r := src.Rect
	for _, s := range spans {
		y0, y1 := max(s.y0, r.Min.Y), min(s.y1, r.Max.Y)
		if y0 < y1 {
			copy(dst.Pix[(y0-r.Min.Y)*dst.Stride:(y1-r.Min.Y)*dst.Stride], src.Pix[(y0-r.Min.Y)*src.Stride:])
		}
	}
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

// block is frame k's block: rect's bands.
func (a *Animation) block(k int, rect image.Rectangle, bands []lzwBand) []byte {
	return gifFrame(rect, frameDelay(k, len(a.frames), a.opt), gif.DisposalNone, a.trans, a.lit, bands)
}

// gifHead is the start of a GIF of n frames of first's size and palette, as image/gif
// writes it: the header, the screen descriptor, the colour table and, for more than
// one frame, the loop.
func gifHead(first *image.Paletted, n int) ([]byte, error) {
	var b bytes.Buffer
	dot := image.NewPaletted(image.Rect(0, 0, 1, 1), first.Palette)
	err := gif.EncodeAll(&b, &gif.GIF{
		Config: image.Config{ColorModel: first.Palette, Width: first.Rect.Dx(), Height: first.Rect.Dy()},
		Image:  []*image.Paletted{dot}, Delay: []int{0},
	})
	if err != nil {
		return nil, err
	}
	h := 13 + 3*(2<<paletteBits(len(first.Palette))) // header, screen descriptor, colour table
	if b.Len() < h {
		return nil, fmt.Errorf("picture: the GIF encoder wrote %d bytes, not a header", b.Len())
	}
	head := append([]byte(nil), b.Bytes()[:h]...)
	if n > 1 { // the loop, as image/gif writes it for more than one frame
		head = append(head, 0x21, 0xff, 0x0b)
		head = append(head, "NETSCAPE2.0"...)
		head = append(head, 0x03, 0x01, 0, 0, 0)
	}
	return head, nil
}

// changed is the smallest rectangle holding every pixel of the rows of spans that
// differs between prev and cur (empty: none).
func changed(prev, cur *image.Paletted, spans []rowSpan) image.Rectangle {
	var box image.Rectangle
	r := cur.Rect
	w := r.Dx()
	for _, s := range spans {
		for y := max(s.y0, r.Min.Y); y < min(s.y1, r.Max.Y); y++ {
			a := prev.Pix[(y-r.Min.Y)*prev.Stride:][:w]
			b := cur.Pix[(y-r.Min.Y)*cur.Stride:][:w]
			if bytes.Equal(a, b) {
				continue
			}
			lo, hi := firstDiff(a, b), lastDiff(a, b)
			box = box.Union(image.Rect(r.Min.X+lo, y, r.Min.X+hi+1, y+1))
		}
	}
	return box
}

// deltaRow is a row of delta: cur where it differs from prev, transparent elsewhere;
// 32 pixels at a time where all of them are unchanged (most of a row), else eight.
func deltaRow(dst, prev, cur []byte) {
	const clear8 = cClear * 0x0101010101010101
	n := len(dst)
	prev, cur = prev[:n], cur[:n]
	i := 0
	for ; i+32 <= n; i += 32 {
		c, p, d := cur[i:i+32], prev[i:i+32], dst[i:i+32]
		if (binary.LittleEndian.Uint64(c)^binary.LittleEndian.Uint64(p))|
			(binary.LittleEndian.Uint64(c[8:])^binary.LittleEndian.Uint64(p[8:]))|
			(binary.LittleEndian.Uint64(c[16:])^binary.LittleEndian.Uint64(p[16:]))|
			(binary.LittleEndian.Uint64(c[24:])^binary.LittleEndian.Uint64(p[24:])) != 0 {
			deltaRow8(d, p, c)
			continue
		}
		binary.LittleEndian.PutUint64(d, clear8)
		binary.LittleEndian.PutUint64(d[8:], clear8)
		binary.LittleEndian.PutUint64(d[16:], clear8)
		binary.LittleEndian.PutUint64(d[24:], clear8)
	}
	deltaRow8(dst[i:], prev[i:], cur[i:])
}

// deltaRow8 is deltaRow eight pixels at a time where all eight are unchanged.
func deltaRow8(dst, prev, cur []byte) {
	const clear8 = cClear * 0x0101010101010101
	n := len(dst)
	prev, cur = prev[:n], cur[:n]
	i := 0
	for ; i+8 <= n; i += 8 {
		if binary.LittleEndian.Uint64(cur[i:]) == binary.LittleEndian.Uint64(prev[i:]) {
			binary.LittleEndian.PutUint64(dst[i:], clear8)
			continue
		}
		for j := i; j < i+8; j++ {
			if cur[j] == prev[j] {
				dst[j] = cClear
			} else {
				dst[j] = cur[j]
			}
		}
	}
	for ; i < n; i++ {
		if cur[i] == prev[i] {
			dst[i] = cClear
		} else {
			dst[i] = cur[i]
		}
	}
}

// firstDiff is the first place where a and b, rows of one length that differ, differ:
// eight pixels at a time.
func firstDiff(a, b []byte) int {
	i := 0
	for ; i+8 <= len(a); i += 8 {
		if x := binary.LittleEndian.Uint64(a[i:]) ^ binary.LittleEndian.Uint64(b[i:]); x != 0 {
			return i + bits.TrailingZeros64(x)/8
		}
	}
	for a[i] == b[i] {
		i++
	}
	return i
}

// lastDiff is the last place where a and b, rows of one length that differ, differ:
// eight pixels at a time.
func lastDiff(a, b []byte) int {
	i := len(a)
	for ; i >= 8; i -= 8 {
		if x := binary.LittleEndian.Uint64(a[i-8:]) ^ binary.LittleEndian.Uint64(b[i-8:]); x != 0 {
			return i - 1 - bits.LeadingZeros64(x)/8
		}
	}
	i--
	for a[i] == b[i] {
		i--
	}
	return i
}

// samePalette says whether a and b are the same colours.
func samePalette(a, b color.Palette) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
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

var debugFull, debugBand int
