// Package render draws a Crash by Crash board (package crashbycrash) as a PNG for the
// reports players read: inline in HTML mail, scaled to a phone's width, and on the replay
// page.
//
// It is pure: a picture is a function of the state and the options, with no I/O but
// encoding the bytes, no clock and no package-level mutable state; the same input gives
// the same bytes. It decides no rule: everything drawn comes from the state or from the
// last move's events. Pixels are painted whole (no blending, 14 colours, a 4-bit PNG)
// from float64 geometry; the golden files are made on amd64 with the default GOAMD64=v1,
// where Go fuses no multiply-add; on an architecture where it does (arm64), an edge
// pixel may move and the golden test say so.
//
// The API is one function and its options:
//
//	Board(state, Options{Scale, Highlight, Trails, NoLegend}) ([]byte, error)
//
// What is drawn (docs/crash-by-crash.md, "The board's picture"):
//
//   - each cell a flat-top hexagon in its shade: white (0), light (1), mid (2), dark (3),
//     one neutral hue in four well-spaced lightness steps, so the tones read apart for
//     every kind of colour vision and in daylight; thin lines between the cells of a
//     tile, thick ones round each of the 25 tiles;
//   - a removed tile (a hole) is a gap in the page's pale grey, its outline on the
//     board's edge dashed;
//   - each cell's name (C5) small at its top; column letters above and below, row
//     numbers beside the board (at columns A and O; odd columns B, D, ... sit half a row
//     lower, which is why every cell also carries its name);
//   - a bell is a gold bell; the operator a dark figure; side A's cars vermillion discs
//     lettered A, side B's blue discs lettered B (Okabe and Ito's colour-blind-safe
//     pair); a magnetic car is a square with a white keeper bar across its top;
//   - Options.Highlight rings cells in magenta; Options.Trails draws the last move: an
//     arrow in the car's colour from a hollow ring where it was to where it ended
//     (dashed when pushed, solid when pulled or moved by a card), a cross where a car left
//     the board, a gold star on a placed car, the operator's walk as a dark arrow, a bell
//     moved by Bell Charms as a gold one;
//   - a legend band: each side's colour, score, stock and accumulators, the six
//     direction names round a hexagon, the shades' values, the tokens, and whose move
//     it is.
//
// At Scale 1 the picture is 777 pixels wide (a hex radius of 30 pixels), about twice the
// 390 points a phone gives an image, so it is sharp on a phone's screen when the mail
// scales it to the width.
package render
