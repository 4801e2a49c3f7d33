package crashbycrash

// seed 002, Game Setup ("board tiles forming the pattern shown on diagram 1") and the
// rules README ("hexagonal cells; flower tiles of 7 hexes, X-shaped tiles of 8; 12 flower
// and 13 X tiles alternating 5×5"). The diagram is not in the text, so the geometry is a
// ruling (docs/crash-by-crash.md, "The board"):
//
//   - flat-top hexagons in 15 columns A..O and 13 rows 1..13, "odd-q" offset: odd columns
//     (B, D, F, ...) sit half a cell lower than even ones;
//   - tile column k (0..4) owns hex columns 3k, 3k+1, 3k+2; 3k+1 is its centre column;
//   - the tile in tile row r, tile column k is X-shaped when r+k is even (13 X tiles,
//     12 flowers, the top-left one an X);
//   - a flower is its centre column's 3 cells and 2 cells in each side column: a centre
//     and the six cells around it; an X is 2 cells of the centre column and 3 of each side
//     column (8 cells);
//   - down a tile column the tiles follow the runs in runsEven/runsOdd below.
//
// 188 of the 195 cells of the 15×13 rectangle belong to a tile; the other 7 (bottom
// corners of some columns) are outside the board's perimeter.

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Board size in hex columns and rows, and in tiles.
const (
	Cols      = 15
	Rows      = 13
	NumCells  = Cols * Rows // the rectangle; only 188 cells are on the board
	TileCols  = 5
	TileRows  = 5
	NumTiles  = TileCols * TileRows
	BoardSize = 188 // cells that belong to a tile
)

// Cell is a hex: 1 + column*Rows + row, column and row from 0; the zero Cell, NoCell, is
// "none", so a field that does not apply reads as none.
type Cell int16

// NoCell is no cell (off the rectangle, or an empty choice).
const NoCell Cell = 0

// MaxCell is the last cell; cells are 1..MaxCell and tables indexed by Cell have
// MaxCell+1 entries.
const MaxCell = Cell(NumCells)

// Col is the cell's column, 0 for A.
func (c Cell) Col() int { return int(c-1) / Rows }

// Row is the cell's row, 0 for row 1.
func (c Cell) Row() int { return int(c-1) % Rows }

// CellAt is the cell in column col and row row (both from 0), NoCell outside the rectangle.
func CellAt(col, row int) Cell {
	if col < 0 || col >= Cols || row < 0 || row >= Rows {
		return NoCell
	}
	return Cell(col*Rows + row + 1)
}

// String names the cell the way players write it: column letter and row number, "C5".
func (c Cell) String() string {
	if c <= 0 || c > MaxCell {
		return "none"
	}
	return string(rune('A'+c.Col())) + strconv.Itoa(c.Row()+1)
}

// ParseCell reads a cell name such as "C5" or "c5". It says what is wrong otherwise; it
// does not say whether the cell is on the board (OnBoard does).
func ParseCell(s string) (Cell, error) {
	if len(s) < 2 || len(s) > 3 {
		return NoCell, fmt.Errorf("%q is not a cell (a column A-O and a row 1-13, e.g. C5)", s)
	}
	col := int(strings.ToUpper(s[:1])[0]) - 'A'
	row, err := strconv.Atoi(s[1:])
	if col < 0 || col >= Cols || err != nil || row < 1 || row > Rows || s[1] == '+' || s[1] == '-' {
		return NoCell, fmt.Errorf("%q is not a cell (a column A-O and a row 1-13, e.g. C5)", s)
	}
	return CellAt(col, row-1), nil
}

// Dir is one of the six directions between neighbouring flat-top hexes.
type Dir int8

// The six directions, clockwise from north.
const (
	N Dir = iota
	NE
	SE
	S
	SW
	NW
	NoDir Dir = -1
)

var dirNames = [6]string{"N", "NE", "SE", "S", "SW", "NW"}

// String is the direction's name: N, NE, SE, S, SW, NW.
func (d Dir) String() string {
	if d < 0 || d > 5 {
		return "none"
	}
	return dirNames[d]
}

// ParseDir reads N, NE, SE, S, SW or NW (any case).
func ParseDir(s string) (Dir, error) {
	for i, n := range dirNames {
		if strings.EqualFold(s, n) {
			return Dir(i), nil
		}
	}
	return NoDir, fmt.Errorf("%q is not a direction (N, NE, SE, S, SW, NW)", s)
}

// Opposite is the direction turned half way round.
func (d Dir) Opposite() Dir { return (d + 3) % 6 }

// odd-q offsets: [column parity][direction] = (dcol, drow).
var hexSteps = [2][6][2]int{
	{{0, -1}, {1, -1}, {1, 0}, {0, 1}, {-1, 0}, {-1, -1}}, // even column
	{{0, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}},   // odd column (half a cell lower)
}

// Step is the cell next to c in direction d within the rectangle, NoCell past its edge.
// (Whether that cell is on the board is OnBoard's question.)
func (c Cell) Step(d Dir) Cell {
	s := hexSteps[c.Col()&1][d]
	return CellAt(c.Col()+s[0], c.Row()+s[1])
}

// CellCentre is the centre of cell c for a picture: flat-top hexagons whose corners are 1
// unit from their centre, x to the right and y down, cell A1's centre at (1, √3/2). A
// picture scales by its hex radius; the whole rectangle spans 23.5 × 13.5·√3 + √3/2.
func CellCentre(c Cell) (x, y float64) {
	col, row := float64(c.Col()), float64(c.Row())
	x = 1 + 1.5*col
	y = math.Sqrt(3) * (row + 0.5 + 0.5*float64(c.Col()&1))
	return x, y
}

// A tile shape's runs down one column of its tile column: for each of the five tiles
// (tile rows 0..4), the first and last hex row of that tile in the column.
type runs [TileRows][2]int

var (
	// tile columns 0, 2, 4 (their centre columns are odd, so half a cell lower)
	runsEvenCentre = runs{{0, 1}, {2, 4}, {5, 6}, {7, 9}, {10, 11}}
	runsEvenSide   = runs{{0, 2}, {3, 4}, {5, 7}, {8, 9}, {10, 12}}
	// tile columns 1, 3
	runsOddCentre = runs{{0, 2}, {3, 4}, {5, 7}, {8, 9}, {10, 12}}
	runsOddSide   = runs{{0, 1}, {2, 4}, {5, 6}, {7, 9}, {10, 11}}
)

// Slot is a tile's place in the 5×5 pattern: tileRow*5 + tileCol.
type Slot int8

// NoSlot is "no tile".
const NoSlot Slot = -1

// IsX says whether the slot takes an X-shaped tile (tile row + tile column even).
func (s Slot) IsX() bool { return (int(s)/TileCols+int(s)%TileCols)%2 == 0 }

// String names a slot by its tile row and column, "tile 2,3" (from 1).
func (s Slot) String() string {
	return fmt.Sprintf("tile %d,%d", int(s)/TileCols+1, int(s)%TileCols+1)
}

// geometry holds the fixed tables built once from the rules above; nothing changes them.
type geometry struct {
	slotOf    [MaxCell + 1]Slot    // NoSlot: outside the board's perimeter
	nb        [MaxCell + 1][6]Cell // neighbour on the board (NoCell: off the perimeter)
	slotCells [NumTiles][]Cell     // in the tile design's cell order (tiles.go)
	slotAdj   [NumTiles][NumTiles]bool
}

var geo = buildGeometry()

func buildGeometry() *geometry {
	g := &geometry{}
	for i := range g.slotOf {
		g.slotOf[i] = NoSlot
	}
	for k := 0; k < TileCols; k++ {
		centre, side := runsEvenCentre, runsEvenSide
		if k%2 == 1 {
			centre, side = runsOddCentre, runsOddSide
		}
		for r := 0; r < TileRows; r++ {
			slot := Slot(r*TileCols + k)
			var cells []Cell
			if slot.IsX() {
				// X order: centre column top, bottom; left column top..bottom; right column top..bottom
				for _, cr := range []struct {
					col int
					rn  runs
				}{{3*k + 1, centre}, {3 * k, side}, {3*k + 2, side}} {
					for row := cr.rn[r][0]; row <= cr.rn[r][1]; row++ {
						cells = append(cells, CellAt(cr.col, row))
					}
				}
			} else {
				// flower order: centre, then N, NE, SE, S, SW, NW of it
				mid := CellAt(3*k+1, (centre[r][0]+centre[r][1])/2)
				cells = append(cells, mid)
				for d := N; d <= NW; d++ {
					cells = append(cells, mid.Step(d))
				}
			}
			g.slotCells[slot] = cells
			for _, c := range cells {
				g.slotOf[c] = slot
			}
		}
	}
	for c := Cell(1); c <= MaxCell; c++ {
		for d := N; d <= NW; d++ {
			n := c.Step(d)
			if g.slotOf[c] == NoSlot || n == NoCell || g.slotOf[n] == NoSlot {
				n = NoCell
			}
			g.nb[c][d] = n
			if n != NoCell && g.slotOf[n] != g.slotOf[c] {
				g.slotAdj[g.slotOf[c]][g.slotOf[n]] = true
			}
		}
	}
	return g
}

// OnBoard says whether c belongs to a tile of the original board (inside its perimeter).
func OnBoard(c Cell) bool { return c > 0 && c <= MaxCell && geo.slotOf[c] != NoSlot }

// SlotOf is the tile slot holding c (NoSlot outside the perimeter).
func SlotOf(c Cell) Slot {
	if c <= 0 || c > MaxCell {
		return NoSlot
	}
	return geo.slotOf[c]
}

// SlotCells lists the cells of a tile slot in its design's order (flower: centre, N, NE,
// SE, S, SW, NW; X: centre column top to bottom, then the left and the right column).
func SlotCells(s Slot) []Cell { return geo.slotCells[s] }

// Next is the neighbour of c in direction d inside the original perimeter, or NoCell.
func Next(c Cell, d Dir) Cell {
	if c <= 0 || c > MaxCell {
		return NoCell
	}
	return geo.nb[c][d]
}
