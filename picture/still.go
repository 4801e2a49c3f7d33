package picture

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"hash/adler32"
	"hash/crc32"
	"image"
	"image/color"
	"sync"

	"github.com/rallyjudge/rallyjudge/internal/parallel"
)

// A picture as a PNG for several readers (issue 24 item 3): the board after a turn and
// each register's picture go to every player with their own robot ringed (Frame.For).
// A Still compresses the shared picture once, in bands of rows cut at the edges of the
// robots' rings (bands.go), each band's deflate stream ending on a byte (a sync flush)
// with no reference to the rows before it. A reader's copy differs only in the rows of
// their ring: Still.For compresses just the bands whose rows came out different and
// takes the others as they are. The pictures are the frames' pixels and palette
// exactly (TestStillIsThePicture decodes them).
//
// Compression is for speed (pngLevel): the pictures are on the way
// from the last order to the reports (BenchmarkLastOrderToSMTP in judge/ gives the time
// and the bytes of a report); PNG is kept for pictures made once (course pictures,
// archives).

// Still is a picture encoded as a PNG, band by band (EncodeStill).
type Still struct {
	f     Frame
	once  sync.Once
	err   error
	head  []byte // the signature, IHDR, PLTE and tRNS
	cuts  []int  // the first row of each band, then the last row's end
	bands []pngBand
	data  []byte // the PNG

	// readers' bands compressed so far, by band: the same rows for another reader (the
	// legend's key to the ring is the same for every reader) are not compressed again
	mu   sync.Mutex
	seen map[int][]seenBand
}

// pngBand is a band's rows (a filter byte, the pixels), deflated alone, and their
// Adler-32 checksum and length for the zlib stream's.
type pngBand struct {
	data []byte
	sum  uint32
	n    int
}

// seenBand is a reader's band: its pixels and as compressed.
type seenBand struct {
	pix  []byte
	band pngBand
}

// The compression is deflate's fastest level (BestSpeed), for the shared bands and a
// reader's alike. On a turn's six pictures (sprint, 4 robots) it gives 87.3 KB in 8-9
// CPU-ms where level 3, used until issue 24 item 3's second round, gave 72.9 KB in
// 17-19 (level 2: 79.5 KB in 13-15; level 5: 58.6 KB in 23-32; the default, 6: 45.0 KB
// in five to eight times level 3's time): half the CPU for a fifth more bytes, about a
// tenth more mail a report (BenchmarkLastOrderToSMTP gives both). Levels 2 to 9 also
// clear 640 KB of tables at every band (Writer.Reset), BestSpeed next to nothing.
const pngLevel = flate.BestSpeed

// The compressors and pixels are spares (spares.go).

// NewStill is f to be encoded as EncodeStill does when first asked for (Bytes, For),
// once, by whichever goroutine asks first. f must not be changed while the Still is in
// use.
func NewStill(f Frame) *Still { return &Still{f: f} }

// EncodeStill encodes f as a PNG of 8-bit palette indexes, its bands side by side on
// every processor, keeping the bands for readers' copies (Still.For). f must not be
// changed while the Still is in use.
func EncodeStill(f Frame) (*Still, error) {
	s := NewStill(f)
	return s, s.encode()
}

func (s *Still) encode() error {
	s.once.Do(func() {
		img := s.f.Image
		if img == nil || img.Rect.Empty() {
			s.err = fmt.Errorf("picture: an empty picture")
			return
		}
		if n := len(img.Palette); n < 1 || n > 256 {
			s.err = fmt.Errorf("picture: a palette of %d colours", n)
			return
		}
		s.head = pngHead(img)
		s.cuts = bandCuts(img.Rect.Min.Y, img.Rect.Max.Y, ringRows(s.f.you, ""), -1)
		s.bands = make([]pngBand, len(s.cuts)-1)
		parallel.Do(len(s.bands), func(i int) { s.bands[i] = deflateRows(img, s.cuts[i], s.cuts[i+1]) })
		s.data = s.png(s.bands)
	})
	return s.err
}

// Bytes is the PNG (nil: the picture cannot be encoded, see EncodeStill's error).
func (s *Still) Bytes() []byte {
	s.encode()
	return s.data
}

// For is the PNG of the picture as the player of robot you sees it (Frame.For): the
// bands whose rows come out different for them are compressed again, the others taken
// as they are. Readers' copies may be asked for side by side. nil: the picture cannot
// be encoded.
func (s *Still) For(you string) []byte {
	if s.encode() != nil {
		return nil
	}
	ys := merge(ringRows(s.f.you, you), 0)
	if len(ys) == 0 {
		return s.data
	}
	// the reader's picture in the rows of their ring (where it can differ), the bands
	// there lying inside them (cut at the edges of every robot's ring rows)
	img := s.f.Image
	buf := getPixels(len(img.Pix))
	defer pixSpares.put(buf)
	mine := &image.Paletted{Pix: *buf, Stride: img.Stride, Rect: img.Rect, Palette: img.Palette}
	copyRows(mine, img, ys)
	ringYou(mine, s.f.you, you)
	var bands []pngBand
	redone := make([]bool, len(s.bands))
	band := 0
	w := img.Rect.Dx()
	for _, sp := range ys {
		for y := max(sp.y0, img.Rect.Min.Y); y < min(sp.y1, img.Rect.Max.Y); y++ {
			for s.cuts[band+1] <= y {
				band++
			}
			o := img.PixOffset(img.Rect.Min.X, y)
			if redone[band] || bytes.Equal(mine.Pix[o:o+w], img.Pix[o:o+w]) {
				continue
			}
			if bands == nil {
				bands = append([]pngBand(nil), s.bands...)
			}
			bands[band], redone[band] = s.readerBand(mine, band), true
		}
	}
	if bands == nil {
		return s.data
	}
	return s.png(bands)
}

// readerBand is band i of a reader's copy mine, compressed unless another reader's
// copy had the same rows.
func (s *Still) readerBand(mine *image.Paletted, i int) pngBand {
	pix := mine.Pix[mine.PixOffset(mine.Rect.Min.X, s.cuts[i]):mine.PixOffset(mine.Rect.Min.X, s.cuts[i+1])]
	s.mu.Lock()
	for _, b := range s.seen[i] {
		if bytes.Equal(b.pix, pix) {
			s.mu.Unlock()
			return b.band
		}
	}
	s.mu.Unlock()
	b := deflateRows(mine, s.cuts[i], s.cuts[i+1])
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen == nil {
		s.seen = map[int][]seenBand{}
	}
	s.seen[i] = append(s.seen[i], seenBand{bytes.Clone(pix), b})
	return b
}

// deflateRows is rows y0 to y1 of img, each a filter byte (none) and its pixels,
// deflated by a spare compressor from an empty window and flushed to a byte.
func deflateRows(img *image.Paletted, y0, y1 int) pngBand {
	var b bytes.Buffer
	b.Grow((y1 - y0) * (1 + img.Rect.Dx()) / 4) // palette pictures come to a quarter or less
	w := deflaters.get()
	defer deflaters.put(w)
	w.Reset(&b)
	sum := adler32.New()
	row := make([]byte, 1+img.Rect.Dx()) // row[0]: the filter, none
	for y := y0; y < y1; y++ {
		copy(row[1:], img.Pix[img.PixOffset(img.Rect.Min.X, y):])
		w.Write(row) // a bytes.Buffer does not fail
		sum.Write(row)
	}
	w.Flush()
	return pngBand{data: b.Bytes(), sum: sum.Sum32(), n: (y1 - y0) * len(row)}
}

// png is the PNG of the picture whose rows the bands hold.
func (s *Still) png(bands []pngBand) []byte {
	n := 0
	for _, b := range bands {
		n += len(b.data)
	}
	idat := make([]byte, 0, 2+n+2+4)
	idat = append(idat, 0x78, 0x01) // zlib: deflate, 32K window, the fastest level
	sum := uint32(1)                // Adler-32 of nothing
	for _, b := range bands {
		idat = append(idat, b.data...)
		sum = adler32Combine(sum, b.sum, b.n)
	}
	idat = append(idat, 0x03, 0x00) // the last deflate block: empty, fixed codes
	idat = binary.BigEndian.AppendUint32(idat, sum)
	out := make([]byte, 0, len(s.head)+len(idat)+12+12)
	out = append(out, s.head...)
	out = pngChunk(out, "IDAT", idat)
	return pngChunk(out, "IEND", nil)
}

// adler32Combine is the Adler-32 checksum of two pieces of data one after the other,
// from their checksums and the second's length (as zlib's adler32_combine).
func adler32Combine(a1, a2 uint32, n2 int) uint32 {
	const base = 65521
	rem := uint32(n2 % base)
	s1 := a1 & 0xffff
	s2 := rem * s1 % base
	s1 += a2&0xffff + base - 1
	s2 += a1>>16 + a2>>16 + base - rem
	if s1 >= base {
		s1 -= base
	}
	if s1 >= base {
		s1 -= base
	}
	if s2 >= 2*base {
		s2 -= 2 * base
	}
	if s2 >= base {
		s2 -= base
	}
	return s1 | s2<<16
}

// pngHead is the start of a PNG of img as image/png writes it: the signature, the
// header (8-bit palette indexes) and the palette with its transparency.
func pngHead(img *image.Paletted) []byte {
	out := []byte("\x89PNG\r\n\x1a\n")
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(img.Rect.Dx()))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(img.Rect.Dy()))
	ihdr = append(ihdr, 8, 3, 0, 0, 0) // 8 bits, palette; deflate, no filter method, no interlace
	out = pngChunk(out, "IHDR", ihdr)
	var plte, trns []byte
	last := -1
	for i, c := range img.Palette {
		c1 := color.NRGBAModel.Convert(c).(color.NRGBA)
		plte = append(plte, c1.R, c1.G, c1.B)
		trns = append(trns, c1.A)
		if c1.A != 0xff {
			last = i
		}
	}
	out = pngChunk(out, "PLTE", plte)
	if last >= 0 {
		out = pngChunk(out, "tRNS", trns[:last+1])
	}
	return out
}

// pngChunk appends a chunk.
func pngChunk(out []byte, kind string, data []byte) []byte {
	out = binary.BigEndian.AppendUint32(out, uint32(len(data)))
	start := len(out)
	out = append(out, kind...)
	out = append(out, data...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[start:]))
}
