package render

import (
	"fmt"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Text is set in Go Bold (golang.org/x/image/font/gofont), sized in pixels and drawn
// without blending: a glyph pixel is painted when its coverage is at least half.

// boldFont is the parsed Go Bold font; it is only read after loading.
var boldFont = mustParse(gobold.TTF)

func mustParse(ttf []byte) *opentype.Font {
	f, err := opentype.Parse(ttf)
	if err != nil {
		panic(fmt.Sprintf("render: the embedded Go font does not parse: %v", err))
	}
	return f
}

// faces holds the faces of one picture (a face is not safe for concurrent use, so each
// call of Board makes its own).
type faces struct {
	label, name, token, legend, small font.Face
}

func newFaces(r float64) (*faces, error) {
	mk := func(px float64) (font.Face, error) {
		return opentype.NewFace(boldFont, &opentype.FaceOptions{Size: math.Round(px), DPI: 72, Hinting: font.HintingFull})
	}
	var f faces
	var err error
	for _, x := range []struct {
		dst *font.Face
		px  float64
	}{{&f.label, 0.72 * r}, {&f.name, 0.47 * r}, {&f.token, 0.58 * r}, {&f.legend, 0.66 * r}, {&f.small, 0.50 * r}} {
		if *x.dst, err = mk(x.px); err != nil {
			return nil, fmt.Errorf("render: font of %.0f px: %v", x.px, err)
		}
	}
	return &f, nil
}

// textWidth is the advance of s in pixels.
func textWidth(face font.Face, s string) float64 {
	return float64(font.MeasureString(face, s)) / 64
}

// capHeight is the height of a capital letter (the part above the baseline).
func capHeight(face font.Face) float64 {
	b, _, ok := face.GlyphBounds('H')
	if !ok {
		return float64(face.Metrics().Ascent) / 64
	}
	return float64(-b.Min.Y) / 64
}

// text draws s with the left end of its baseline at (x, y).
func (c canvas) text(face font.Face, x, y float64, s string, col uint8) {
	dot := fixed.Point26_6{X: fixed.Int26_6(math.Round(x * 64)), Y: fixed.Int26_6(math.Round(y * 64))}
	prev := rune(-1)
	for _, r := range s {
		if prev >= 0 {
			dot.X += face.Kern(prev, r)
		}
		dr, mask, mp, adv, ok := face.Glyph(dot, r)
		if !ok {
			dr, mask, mp, adv, _ = face.Glyph(dot, '?')
		}
		for py := dr.Min.Y; py < dr.Max.Y; py++ {
			for px := dr.Min.X; px < dr.Max.X; px++ {
				if _, _, _, a := mask.At(mp.X+px-dr.Min.X, mp.Y+py-dr.Min.Y).RGBA(); a >= 0x8000 {
					c.set(px, py, col)
				}
			}
		}
		dot.X += adv
		prev = r
	}
}

// centred draws s centred on p (horizontally on its advance, vertically on its capitals).
func (c canvas) centred(face font.Face, p pt, s string, col uint8) {
	c.text(face, p.x-textWidth(face, s)/2, p.y+capHeight(face)/2, s, col)
}

// haloed draws s centred on p with a halo of w pixels round each letter.
func (c canvas) haloed(face font.Face, p pt, s string, col, halo uint8, w float64) {
	for dy := -w; dy <= w; dy++ {
		for dx := -w; dx <= w; dx++ {
			if dx*dx+dy*dy <= w*w+0.5 && (dx != 0 || dy != 0) {
				c.centred(face, pt{p.x + dx, p.y + dy}, s, halo)
			}
		}
	}
	c.centred(face, p, s, col)
}
