package picture

import (
	"bytes"
	"image"
	"image/gif"
	"math/rand/v2"
	"testing"
)

// encodeOne is frame d as image/gif encodes it alone: its block, cut from a GIF of one
// frame.
func encodeOne(t *testing.T, d *image.Paletted, delay int) []byte {
	t.Helper()
	var b bytes.Buffer
	err := gif.EncodeAll(&b, &gif.GIF{
		Config: image.Config{ColorModel: d.Palette, Width: d.Rect.Max.X, Height: d.Rect.Max.Y},
		Image:  []*image.Paletted{d}, Delay: []int{delay}, Disposal: []byte{gif.DisposalNone},
	})
	if err != nil {
		t.Fatal(err)
	}
	h := 13 + 3*(2<<paletteBits(len(d.Palette)))
	return b.Bytes()[h : b.Len()-1]
}

// TestLZWOneBandIsImageGIF: a frame encoded as one band is the block image/gif writes,
// byte for byte, on pictures that fill the dictionary more than once (noise, and runs
// of transparent pixels of every length between noise: the runs taken at a jump), that
// barely start it (one pixel) and on a turn's frames.
func TestLZWOneBandIsImageGIF(t *testing.T) {
	pal := newPalette()
	rng := rand.New(rand.NewPCG(1, 2))
	noise := image.NewPaletted(image.Rect(3, 2, 203, 152), pal)
	for i := range noise.Pix {
		noise.Pix[i] = uint8(rng.IntN(len(pal)))
	}
	few := image.NewPaletted(image.Rect(0, 0, 300, 200), pal)
	for i := range few.Pix {
		few.Pix[i] = uint8(rng.IntN(3))
	}
	runs := image.NewPaletted(image.Rect(0, 0, 317, 400), pal) // transparent runs of every length
	for i := range runs.Pix {
		runs.Pix[i] = cClear
		if rng.IntN(1+i%97) == 0 || i%5000 < 700 {
			runs.Pix[i] = uint8(rng.IntN(len(pal)))
		}
	}
	dot := image.NewPaletted(image.Rect(5, 5, 6, 6), pal)
	c := loadCourse(t, "sprint")
	d, err := DemoTurn(c, 4, 7, 2)
	if err != nil {
		t.Fatal(err)
	}
	frames, _ := TurnStory(c, d.Before, d.Events, Options{Turn: d.Turn})
	for _, tc := range []struct {
		name string
		img  *image.Paletted
	}{{"noise", noise}, {"three colours", few}, {"runs and noise", runs}, {"one pixel", dot},
		{"a frame", frames[0].Image}, {"a difference", delta(frames[2].Image, frames[3].Image)},
		{"a small difference", delta(frames[5].Image, frames[6].Image)}} {
		e := newLZWEncoder(7, cClear)
		band, err := e.band(tc.img, tc.img.Rect.Min.Y, tc.img.Rect.Max.Y, len(pal))
		if err != nil {
			t.Fatal(err)
		}
		got := gifFrame(tc.img.Rect, 80, gif.DisposalNone, cClear, 7, []lzwBand{band})
		if want := encodeOne(t, tc.img, 80); !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes, image/gif wrote %d", tc.name, len(got), len(want))
		}
	}
}

// TestLZWBands: a picture cut into bands (one row, odd heights, the dictionary full
// within a band) decodes to the picture.
func TestLZWBands(t *testing.T) {
	pal := newPalette()
	rng := rand.New(rand.NewPCG(3, 4))
	img := image.NewPaletted(image.Rect(0, 0, 157, 120), pal)
	for i := range img.Pix {
		img.Pix[i] = uint8(rng.IntN(4)) // runs and repeats
		if i%997 < 300 {
			img.Pix[i] = uint8(rng.IntN(len(pal)))
		}
	}
	for _, cuts := range [][]int{{0, 120}, {0, 1, 120}, {0, 1, 2, 3, 119, 120}, {0, 7, 33, 34, 80, 120}} {
		e := newLZWEncoder(7, cClear)
		var bands []lzwBand
		for i := range len(cuts) - 1 {
			b, err := e.band(img, cuts[i], cuts[i+1], len(pal))
			if err != nil {
				t.Fatal(err)
			}
			bands = append(bands, b)
		}
		var b bytes.Buffer
		b.Write(mustHead(t, img, 1))
		b.Write(gifFrame(img.Rect, 0, 0, -1, 7, bands))
		b.WriteByte(0x3b)
		g, err := gif.DecodeAll(&b)
		if err != nil {
			t.Fatalf("cuts %v: %v", cuts, err)
		}
		if !bytes.Equal(g.Image[0].Pix, img.Pix) {
			t.Errorf("cuts %v: the picture decoded is not the one encoded", cuts)
		}
	}
}

func mustHead(t *testing.T, img *image.Paletted, n int) []byte {
	t.Helper()
	h, err := gifHead(img, n)
	if err != nil {
		t.Fatal(err)
	}
	return h
}
