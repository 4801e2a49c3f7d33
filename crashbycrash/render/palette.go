package render

import "image/color"

// Colour indexes into the picture's palette (newPalette). Every pixel is one of these,
// painted whole with no blending, so the bytes are the same on every run.
const (
	cPage      = iota // around the board and in holes
	cShade0           // cell shades 0..3: cShade0 + shade
	cShade1           //
	cShade2           //
	cShade3           //
	cCellEdge         // thin line between cells of one tile
	cTileEdge         // thick line round a tile
	cInk              // labels and outlines
	cWhite            // letters on tokens, halos
	cNameLight        // a cell's name on shades 0 and 1 (nameColour)
	cSideA            // side A's cars
	cSideB            // side B's cars
	cBell             // a bell's body
	cHighlight        // ring round a cell the last move touched
	numColours

	cHoleEdge = cCellEdge // the dashed outline of a removed tile
	cOperator = cInk      // the operator token
	cBand     = cShade0   // the legend's background
)

// The palette has at most 16 colours, so the PNG stores 4 bits a pixel: half the
// pixels' bytes to compress, a smaller file and a faster encoding.
var _ = [16 - numColours]struct{}{}

// Shades are one neutral hue in four clearly spaced lightness steps (CIE L* 100,
// 83, 62, 34), so they read apart for every kind of colour vision and in grey print.
// The two sides are Okabe and Ito's vermillion and blue, a pair colour-blind readers
// tell apart (their lightness is close, contrast 1.4, so in grey print the letters A
// and B tell them); every car has a white halo and a dark edge, so it stands out on
// all four shades. The highlight is Okabe and Ito's reddish purple made stronger. The
// page is a pale cool grey so that a hole (a removed tile) is not taken for white cells.
var paletteRGB = [numColours]uint32{
	cPage:      0xe3e9ef,
	cShade0:    0xffffff,
	cShade1:    0xd6cfbf,
	cShade2:    0x9d9483,
	cShade3:    0x57503f,
	cCellEdge:  0x7d7668,
	cTileEdge:  0x1b1b1b,
	cInk:       0x111111,
	cWhite:     0xffffff,
	cNameLight: 0x5c564a,
	cSideA:     0xd55e00,
	cSideB:     0x0066cc,
	cBell:      0xffc20a,
	cHighlight: 0xe0218a,
}

// newPalette returns the palette (a fresh slice each call).
func newPalette() color.Palette {
	p := make(color.Palette, numColours)
	for i, v := range paletteRGB {
		p[i] = color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff}
	}
	return p
}

// sideColour is the colour of a side's cars (0: A, 1: B).
func sideColour(side int) uint8 { return uint8(cSideA + side&1) }
