package render

import (
	"bytes"
	"image"
	"image/png"
	"math"
	"strings"
	"testing"

	cbc "github.com/rallyjudge/rallyjudge/crashbycrash"
)

// TestDeterministic: the same state and options give the same bytes, call after call.
func TestDeterministic(t *testing.T) {
	s, o := load(t, "holes", 2, 11, fixtures[2].want)
	a, err := Board(s, o)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		b, err := Board(s, o)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Fatalf("call %d gave different bytes (%d and %d)", i+2, len(a), len(b))
		}
	}
	if c, _ := Board(s, Options{}); bytes.Equal(a, c) {
		t.Fatal("the trails and highlights changed nothing")
	}
}

// TestCellCentres: the centre pixel of every cell of the board that holds no piece is
// its shade's colour, and a hole's centre is the page, at three scales; the PNG decodes
// to the same colours.
func TestCellCentres(t *testing.T) {
	pal := newPalette()
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			s, _ := load(t, fx.name, fx.players, fx.seed, fx.want)
			b, err := Board(s, Options{})
			if err != nil {
				t.Fatal(err)
			}
			decoded, err := png.Decode(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			for _, scale := range []float64{1, 0.5, 2} {
				img, err := draw(s, Options{Scale: scale})
				if err != nil {
					t.Fatal(err)
				}
				l := newLayout(scale, legendHeight(baseRadius*scale))
				if img.Bounds().Dx() != l.w || img.Bounds().Dy() != l.h {
					t.Fatalf("scale %g: %v, want %dx%d", scale, img.Bounds(), l.w, l.h)
				}
				checked := 0
				for c := cbc.Cell(1); c <= cbc.MaxCell; c++ {
					if !cbc.OnBoard(c) || s.Board[c].IsCar() || s.BellAt(c) >= 0 || s.Operator == c {
						continue
					}
					want := uint8(cPage)
					if s.Present(c) {
						want = uint8(cShade0 + s.Shade(c))
					}
					p := l.centre(c)
					x, y := int(p.x), int(p.y)
					if got := img.ColorIndexAt(x, y); got != want {
						t.Errorf("scale %g: %s (shade %d) centre pixel is colour %d, want %d", scale, c, s.Shade(c), got, want)
					}
					if scale == 1 && decoded.At(x, y) != pal[want] {
						t.Errorf("the PNG's %s centre pixel is %v, want %v", c, decoded.At(x, y), pal[want])
					}
					checked++
				}
				if checked < 100 {
					t.Fatalf("only %d cells checked", checked)
				}
			}
		})
	}
}

// TestShadesDistinct: the four shades are far apart in lightness, each step at least 15
// of the 100 of CIE L*, so they read apart in daylight and for any colour vision.
func TestShadesDistinct(t *testing.T) {
	l := func(v uint32) float64 {
		// relative luminance, then L*
		lin := func(c uint32) float64 {
			x := float64(c&0xff) / 255
			if x <= 0.04045 {
				return x / 12.92
			}
			return math.Pow((x+0.055)/1.055, 2.4)
		}
		y := 0.2126*lin(v>>16) + 0.7152*lin(v>>8) + 0.0722*lin(v)
		if y > 216.0/24389 {
			return 116*math.Cbrt(y) - 16
		}
		return y * 24389 / 27
	}
	for i := 0; i < 3; i++ {
		a, b := l(paletteRGB[cShade0+i]), l(paletteRGB[cShade0+i+1])
		if a-b < 15 {
			t.Errorf("shades %d and %d: L* %.0f and %.0f, want at least 15 apart", i, i+1, a, b)
		}
	}
}

// TestRefused: what cannot be drawn is refused with a reason, not a panic.
func TestRefused(t *testing.T) {
	s, err := cbc.NewGame(cbc.Settings{Players: 2}, 1)
	if err != nil {
		t.Fatal(err)
	}
	bad := *s
	bad.Tiles[3] = 99
	broken := *s
	broken.Board[5] = 9
	for _, tc := range []struct {
		name string
		s    *cbc.State
		o    Options
	}{
		{"no state", nil, Options{}},
		{"scale too small", s, Options{Scale: 0.1}},
		{"scale too large", s, Options{Scale: 40}},
		{"negative scale", s, Options{Scale: -1}},
		{"unknown tile", &bad, Options{}},
		{"unknown piece", &broken, Options{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if b, err := Board(tc.s, tc.o); err == nil {
				t.Fatalf("drawn (%d bytes)", len(b))
			}
		})
	}
	// Events naming cells off the rectangle are skipped, not followed.
	o := Options{Trails: []cbc.Event{{Kind: cbc.EvPush, From: -3, To: 900}, {Kind: cbc.EvOperator, From: 0, To: 0, Slot: 77}}, Highlight: []cbc.Cell{-1, 0, 500}}
	if _, err := Board(s, o); err != nil {
		t.Fatal(err)
	}
}

// TestLegendFits: the longest lines of the legend (the team game, every car, the magnet
// and the accumulators in stock, two-digit scores; the longest status) end before the
// picture's edge and the compass, at every scale.
func TestLegendFits(t *testing.T) {
	s, err := cbc.NewGame(cbc.Settings{Players: 4}, 3)
	if err != nil {
		t.Fatal(err)
	}
	s.Score = [2]int{88, 99}
	s.Turn, s.Phase, s.ToMove, s.Events = 188, cbc.PhasePlay, 3, 6
	over := *s
	over.Phase, over.Events, over.Score = cbc.PhaseOver, 7, [2]int{99, 99}
	for _, st := range []*cbc.State{s, &over} {
		for _, scale := range []float64{0.25, 0.5, 1, 2, 4} {
			r := baseRadius * scale
			f, err := newFaces(r)
			if err != nil {
				t.Fatal(err)
			}
			l := newLayout(scale, legendHeight(r))
			img := image.NewPaletted(image.Rect(0, 0, l.w, l.h), newPalette())
			sides, beside := drawLegend(canvas{img}, l, f, st)
			if edge := float64(l.w) - 0.3*r; sides >= edge {
				t.Errorf("scale %g: %q ends at x %.0f, past %.0f", scale, sideLine(st, 0), sides, edge)
			}
			if left := compassLeft(l, f); beside >= left {
				t.Errorf("scale %g: %q ends at x %.0f, the compass begins at %.0f", scale, status(st), beside, left)
			}
		}
	}
}

// The legend of a game B won read "Game over: B wins, 40 to 62": the winner's score
// comes first.
func TestStatusGivesTheWinnersScoreFirst(t *testing.T) {
	s, err := cbc.NewGame(cbc.Settings{Players: 2}, 3)
	if err != nil {
		t.Fatal(err)
	}
	s.Phase, s.Events = cbc.PhaseOver, 7
	for _, c := range []struct {
		score [2]int
		want  string
	}{{[2]int{40, 62}, "Game over: B wins, 62 to 40"}, {[2]int{62, 40}, "Game over: A wins, 62 to 40"}, {[2]int{50, 50}, "Game over: a tie, 50 to 50"}} {
		s.Score = c.score
		if got := status(s); !strings.HasPrefix(got, c.want) {
			t.Errorf("scores %v: %q, want %q...", c.score, got, c.want)
		}
	}
}
