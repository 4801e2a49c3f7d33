package picture

import (
	"compress/flate"
)

// spares keeps a few things made for one turn's pictures for the next: LZW encoders (a
// megabyte of dictionary each), deflate compressors (a few hundred KB each) and
// pixels. Unlike a sync.Pool it is not emptied at every garbage collection, which a
// turn's pictures set off at least once: without it each turn made its encoders again,
// and the garbage made collections come sooner. It holds at most its capacity (about
// 12 MB in all); it changes nothing drawn or written (scratch space, written before it
// is read).
type spares[T any] struct {
	kept chan T
	make func() T
}

func newSpares[T any](n int, make func() T) *spares[T] {
	return &spares[T]{kept: newChan[T](n), make: make}
}

func newChan[T any](n int) chan T { return make(chan T, n) }

// get is a spare, or a new one.
func (s *spares[T]) get() T {
	select {
	case v := <-s.kept:
		return v
	default:
		return s.make()
	}
}

// put keeps v for later, unless the spares are full.
func (s *spares[T]) put(v T) {
	select {
	case s.kept <- v:
	default:
	}
}

var (
	lzwSpares = newSpares(4, func() *lzwEncoder { return newLZWEncoder(gifLit, -1) })
	deflaters = newSpares(8, func() *flate.Writer { return newDeflater(pngLevel) })
	pixSpares = newSpares(12, func() *[]byte { return new([]byte) })
)

// gifLit is the LZW literal width of the package's palette (newPalette): the encoders
// kept are of this width.
const gifLit = 7

func newDeflater(level int) *flate.Writer {
	w, _ := flate.NewWriter(nil, level) // a level in range does not fail
	return w
}

// getLZW is an encoder of literals lit bits wide, jumping runs of the literal run;
// give it back with lzwSpares.put.
func getLZW(lit uint, run int) *lzwEncoder {
	e := lzwSpares.get()
	if e.lit != lit {
		e = newLZWEncoder(lit, run)
	}
	e.run = 1 << lit
	if run >= 0 && run < 1<<lit {
		e.run = uint32(run)
	}
	return e
}

// getPixels is n bytes of spare pixels (not cleared); give them back with
// pixSpares.put.
func getPixels(n int) *[]byte {
	b := pixSpares.get()
	if cap(*b) < n {
		*b = make([]byte, n)
	}
	*b = (*b)[:n]
	return b
}
