package picture

import (
	"encoding/binary"
	"fmt"
	"image"
	"math/bits"
)

// A GIF frame's LZW data in bands (issue 24 item 3). GIF's LZW lets the encoder send a
// clear code at any point: the decoder empties its dictionary and starts again. A frame
// cut into bands of rows, each band encoded from an empty dictionary and followed by a
// clear code, decodes to the same pixels as the frame encoded in one piece, and a band's
// codes depend only on its own rows. So a reader's copy of a frame, which differs from
// the shared one only in the rows of their ring, keeps the shared bands of every other
// row and encodes only its own (Animation.For).
//
// The encoder is compress/lzw's (the one image/gif uses), code for code: a frame in one
// band is the bytes image/gif writes (TestLZWOneBandIsImageGIF). Its dictionary is a
// table of each code's children, one entry per literal, instead of a hash table.

const (
	lzwMaxCode = 1<<12 - 1 // the largest code: 12 bits
	lzwNone    = 1<<32 - 1 // no code pending
)

// lzwBand is one band's codes, LSB first: data holds bits bits. tail is the code width
// at which the code after the band (a clear code, or the end) is written.
type lzwBand struct {
	data []byte
	bits int
	tail uint
}

// lzwEncoder encodes bands of pixels of one literal width. It is not safe for use by
// more than one goroutine.
type lzwEncoder struct {
	lit   uint
	child []uint16 // child[code<<lit|literal]: the code of code followed by literal; 0: none yet
	out   []byte
	acc   uint64 // bits not yet in out
	n     uint   // how many
	width uint
	hi    uint32 // the last code given out
	over  uint32 // the code at which width grows

	// Runs of one literal (a frame's transparent pixels, most of a GIF's difference
	// frames) go at a jump: the dictionary holds a run of k of them for every k up to
	// maxRun (each made from the one a pixel shorter), runs[k] its code. A string
	// begun at such a pixel is the longest run that fits, as the walk a pixel at a time
	// would find.
	run    uint32 // the literal; beyond the literals: none
	runs   [lzwMaxCode + 2]uint16
	maxRun int
}

// newLZWEncoder is an encoder of literals lit bits wide, jumping runs of the literal
// run (-1: none).
func newLZWEncoder(lit uint, run int) *lzwEncoder {
	e := &lzwEncoder{lit: lit, child: make([]uint16, (lzwMaxCode+1)<<lit), run: 1 << lit}
	if run >= 0 && run < 1<<lit {
		e.run = uint32(run)
	}
	return e
}

// reset empties the dictionary, as a clear code does. Codes above the literals have no
// children until given out (their row is emptied then), so only the literals' rows are
// emptied here.
func (e *lzwEncoder) reset() {
	clear(e.child[:1<<(2*e.lit)])
	e.width = e.lit + 1
	e.hi = 1<<e.lit + 1
	e.over = 1 << (e.lit + 1)
	e.runs[1], e.maxRun = uint16(e.run), 1
}

// put writes code c at the current width.
func (e *lzwEncoder) put(c uint32) {
	e.acc |= uint64(c) << e.n
	e.n += e.width
	if e.n >= 32 {
		e.out = binary.LittleEndian.AppendUint32(e.out, uint32(e.acc))
		e.acc >>= 32
		e.n -= 32
	}
}

// next gives out the next code, for key (a code and a literal) unless the codes ran
// out: then a clear code goes and the dictionary starts again, as compress/lzw does.
func (e *lzwEncoder) next(key uint32) {
	e.hi++
	if e.hi == e.over {
		e.width++
		e.over <<= 1
	}
	if e.hi == lzwMaxCode {
		e.put(1 << e.lit)
		e.reset()
		return
	}
	if key != lzwNone {
		e.child[key] = uint16(e.hi)
		clear(e.child[e.hi<<e.lit : (e.hi+1)<<e.lit])
		if key == uint32(e.runs[e.maxRun])<<e.lit|e.run { // a run one longer
			e.maxRun++
			e.runs[e.maxRun] = uint16(e.hi)
		}
	}
}

// runLength is how many of p's first bytes are c.
func runLength(p []byte, c byte) int {
	pat := uint64(c) * 0x0101010101010101
	n := 0
	for len(p) >= 8 {
		if x := binary.LittleEndian.Uint64(p) ^ pat; x != 0 {
			return n + bits.TrailingZeros64(x)/8
		}
		n, p = n+8, p[8:]
	}
	for _, b := range p {
		if b != c {
			break
		}
		n++
	}
	return n
}

// band encodes rows y0 to y1 of img from an empty dictionary; every pixel must be
// below colours (at most 1<<lit).
func (e *lzwEncoder) band(img *image.Paletted, y0, y1 int, colours int) (lzwBand, error) {
	e.reset()
	e.out, e.acc, e.n = e.out[:0], 0, 0
	w := img.Rect.Dx()
	code := uint32(lzwNone)
	lit, child, limit := e.lit, e.child, byte(min(colours, 1<<e.lit)-1)
	rows, step := 1, w // rows at a time: all of them when they follow one another
	if img.Stride == w {
		rows, step = y1-y0, w*(y1-y0)
	}
	for y := y0; y < y1; y += rows {
		p := img.Pix[(y-img.Rect.Min.Y)*img.Stride:][:step]
		i, runTo := 0, 0 // runTo: where the run of e.run pixels last found ends
		if code == lzwNone {
			if p[0] > limit {
				return lzwBand{}, badPixel(y, p[0], colours)
			}
			code, i = uint32(p[0]), 1
		}
		for i < len(p) {
			x := p[i]
			if x > limit {
				return lzwBand{}, badPixel(y+i/w, x, colours)
			}
			i++ // past x
			key := code<<lit | uint32(x)
			if c := child[key]; c != 0 {
				code = uint32(c)
				continue
			}
			e.put(code)
			e.next(key)
			code = uint32(x)
			if code == e.run && e.maxRun > 1 { // a run begins: the longest the dictionary has
				if runTo < i {
					runTo = i + runLength(p[i:], x) // the run's end, found once
				}
				k := min(1+runTo-i, e.maxRun)
				code = uint32(e.runs[k])
				i += k - 1
			}
		}
	}
	e.put(code)
	e.next(lzwNone)
	b := lzwBand{bits: len(e.out)*8 + int(e.n), tail: e.width}
	b.data = make([]byte, 0, len(e.out)+8)
	b.data = append(b.data, e.out...)
	for acc, n := e.acc, e.n; n > 0; acc, n = acc>>8, n-min(n, 8) {
		b.data = append(b.data, byte(acc))
	}
	return b, nil
}

func badPixel(y int, c byte, colours int) error {
	return fmt.Errorf("row %d: a pixel of colour %d, beyond the palette's %d", y, c, colours)
}

// bitWriter joins bands' codes, LSB first.
type bitWriter struct {
	out []byte
	acc uint64
	n   uint
}

func (w *bitWriter) put(v uint32, bits uint) {
	w.acc |= uint64(v) << w.n
	w.n += bits
	if w.n >= 32 {
		w.out = binary.LittleEndian.AppendUint32(w.out, uint32(w.acc))
		w.acc >>= 32
		w.n -= 32
	}
}

// band appends a band's bits.
func (w *bitWriter) band(b lzwBand) {
	whole := b.bits / 8
	if w.n == 0 { // aligned: the bytes as they are
		w.out = append(w.out, b.data[:whole]...)
	} else {
		d := b.data[:whole]
		for len(d) >= 3 {
			w.put(uint32(d[0])|uint32(d[1])<<8|uint32(d[2])<<16, 24)
			d = d[3:]
		}
		for _, c := range d {
			w.put(uint32(c), 8)
		}
	}
	if r := uint(b.bits % 8); r > 0 {
		w.put(uint32(b.data[whole])&(1<<r-1), r)
	}
}

// bytes is what was written, the last byte padded with zero bits.
func (w *bitWriter) bytes() []byte {
	for ; w.n > 0; w.n -= min(w.n, 8) {
		w.out = append(w.out, byte(w.acc))
		w.acc >>= 8
	}
	return w.out
}

// gifFrame is one frame's block of a GIF as image/gif writes it (graphic control
// extension, image descriptor with no colour table of its own, LZW data in sub-blocks
// of 255 bytes) from the bands of its rows: the GIF's colour table is the frame's
// palette. trans is the palette's transparent entry (-1: none).
func gifFrame(rect image.Rectangle, delay int, disposal byte, trans int, lit uint, bands []lzwBand) []byte {
	var w bitWriter
	clearCode := uint32(1) << lit
	w.put(clearCode, lit+1)
	for i, b := range bands {
		w.band(b)
		if i < len(bands)-1 {
			w.put(clearCode, b.tail)
		} else {
			w.put(clearCode+1, b.tail) // the end
		}
	}
	data := w.bytes()
	out := make([]byte, 0, 8+10+1+len(data)+len(data)/255+2)
	flags, t := disposal<<2, byte(0)
	if trans >= 0 {
		flags, t = flags|1, byte(trans)
	}
	if delay > 0 || disposal != 0 || trans >= 0 {
		out = append(out, 0x21, 0xf9, 0x04, flags, byte(delay), byte(delay>>8), t, 0x00)
	}
	out = append(out, 0x2c)
	for _, v := range []int{rect.Min.X, rect.Min.Y, rect.Dx(), rect.Dy()} {
		out = binary.LittleEndian.AppendUint16(out, uint16(v))
	}
	out = append(out, 0x00, byte(lit)) // the global colour table; LZW's least code size
	for len(data) > 0 {
		n := min(len(data), 255)
		out = append(out, byte(n))
		out = append(out, data[:n]...)
		data = data[n:]
	}
	return append(out, 0x00)
}
