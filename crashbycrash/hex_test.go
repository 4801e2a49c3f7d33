package crashbycrash

import (
	"math"
	"strings"
	"testing"
)

// TestTiling checks the geometry ruling: the 25 slots cover 188 cells, each once; a
// flower is its centre and the six cells around it; an X is 8 cells in three columns;
// the 7 uncovered cells of the rectangle are outside the perimeter; X slots are where
// tile row + column is even, the first one an X.
func TestTiling(t *testing.T) {
	seen := map[Cell]Slot{}
	xs, flowers := 0, 0
	for sl := Slot(0); sl < NumTiles; sl++ {
		cells := SlotCells(sl)
		for _, c := range cells {
			if o, dup := seen[c]; dup {
				t.Fatalf("%s is in %s and %s", c, o, sl)
			}
			if !OnBoard(c) || SlotOf(c) != sl {
				t.Fatalf("%s of %s: OnBoard %v, SlotOf %v", c, sl, OnBoard(c), SlotOf(c))
			}
			seen[c] = sl
		}
		if sl.IsX() {
			xs++
			if len(cells) != 8 {
				t.Errorf("X %s has %d cells", sl, len(cells))
			}
			cols := map[int]int{}
			for _, c := range cells {
				cols[c.Col()]++
			}
			k := int(sl) % TileCols
			if cols[3*k+1] != 2 || cols[3*k] != 3 || cols[3*k+2] != 3 {
				t.Errorf("X %s: cells by column %v", sl, cols)
			}
		} else {
			flowers++
			if len(cells) != 7 {
				t.Fatalf("flower %s has %d cells", sl, len(cells))
			}
			for d := N; d <= NW; d++ {
				if n := Next(cells[0], d); n != cells[1+int(d)] || SlotOf(n) != sl {
					t.Errorf("flower %s: %s of centre %s is %s, want %s in the tile", sl, d, cells[0], n, cells[1+int(d)])
				}
			}
		}
	}
	if len(seen) != BoardSize || xs != 13 || flowers != 12 || !Slot(0).IsX() {
		t.Fatalf("%d cells, %d X, %d flowers, slot 0 X %v; want 188, 13, 12, true", len(seen), xs, flowers, Slot(0).IsX())
	}
	outside := 0
	for c := Cell(1); c <= MaxCell; c++ {
		if !OnBoard(c) {
			outside++
		}
	}
	if outside != NumCells-BoardSize {
		t.Errorf("%d cells outside, want %d", outside, NumCells-BoardSize)
	}
}

// TestNeighbours: stepping in a direction and back returns; neighbouring centres are √3
// apart (so the picture's hexes touch).
func TestNeighbours(t *testing.T) {
	for c := Cell(1); c <= MaxCell; c++ {
		for d := N; d <= NW; d++ {
			n := c.Step(d)
			if n == NoCell {
				continue
			}
			if back := n.Step(d.Opposite()); back != c {
				t.Fatalf("%s %s is %s, back %s is %s", c, d, n, d.Opposite(), back)
			}
			x1, y1 := CellCentre(c)
			x2, y2 := CellCentre(n)
			if dist := math.Hypot(x2-x1, y2-y1); math.Abs(dist-math.Sqrt(3)) > 1e-9 {
				t.Fatalf("%s to %s: centres %.3f apart", c, n, dist)
			}
		}
	}
}

func TestCellNames(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Cell
		ok   bool
	}{{"A1", CellAt(0, 0), true}, {"c5", CellAt(2, 4), true}, {"O13", CellAt(14, 12), true},
		{"P1", NoCell, false}, {"A0", NoCell, false}, {"A14", NoCell, false}, {"A+1", NoCell, false}, {"", NoCell, false}} {
		got, err := ParseCell(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseCell(%q) = %v, %v", tc.in, got, err)
		}
		if tc.ok && got.String() != string([]byte{tc.in[0] &^ 0x20})+tc.in[1:] {
			t.Errorf("%q prints as %s", tc.in, got)
		}
	}
}

func TestDesigns(t *testing.T) {
	if len(Designs()) != 25 {
		t.Fatalf("%d designs", len(Designs()))
	}
	for _, bad := range []struct{ yaml, want string }{
		{"flowers:\n  - {name: F1, shades: [1,2], star: N}\n", "tiles.yaml:2: tile F1 has 2 shades, want 7"},
		{"flowers:\n  - {name: F1, shades: [1,2,3,4,0,0,0], star: N}\n", "tiles.yaml:2: tile F1 cell 4 has shade 4, want 0-3"},
		{"flowers:\n  - {name: F1, shades: [1,2,3,0,0,0,0], star: up}\n", `tiles.yaml:2: tile F1 has star "up"`},
		{"xs:\n  - {name: X1, shades: [1,2,3,0,0,0,0,0], star: N}\n", "tiles.yaml:2: X tile X1 has a star"},
		{"xs:\n  - {name: X1, shades: [1,2,3,0,0,0,0,0]}\n  - {name: X1, shades: [1,2,3,0,0,0,0,0]}\n", "tiles.yaml:3: tile X1 is named twice (also line 2)"},
		{"xs: []\n", "want 12 and 13"},
	} {
		_, err := loadDesigns("tiles.yaml", []byte(bad.yaml))
		if err == nil || !contains(err.Error(), bad.want) {
			t.Errorf("loadDesigns(%q) = %v, want %q", bad.yaml, err, bad.want)
		}
	}
}

func TestCardsData(t *testing.T) {
	total := 0
	for _, c := range Cards() {
		total += c.Count
	}
	if len(Cards()) != 12 || total != 36 {
		t.Fatalf("%d kinds, %d cards; want 12 and 36 (ruling \"The deck\")", len(Cards()), total)
	}
	for _, bad := range []struct{ yaml, want string }{
		{"cards:\n  - {name: Joker, colour: grey, count: 3}\n", `cards.yaml:2: "Joker" is not one of the twelve`},
		{"cards:\n  - {name: Tandem, colour: grey, count: 3}\n", "cards.yaml:2: Tandem is blue in seed 002, not grey"},
	} {
		_, err := loadCards("cards.yaml", []byte(bad.yaml))
		if err == nil || !contains(err.Error(), bad.want) {
			t.Errorf("loadCards(%q) = %v, want %q", bad.yaml, err, bad.want)
		}
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
