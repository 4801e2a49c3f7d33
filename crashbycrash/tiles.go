package crashbycrash

// seed 002, Game Contents and Game Setup: 12 flower-shaped and 13 X-shaped tiles, cells of
// four shades, stars on flower tiles for the bells. The designs are data
// (data/tiles.yaml), checked when the package loads; the check's errors say file:line.

import (
	_ "embed"
	"fmt"

	"gopkg.in/yaml.v3"
)

//go:embed data/tiles.yaml
var tilesYAML []byte

// Design is one tile's printing: the shade (0 white .. 3 darkest) of each cell in the
// slot's cell order (SlotCells) and, for a flower, the index of its star cell (-1: none).
type Design struct {
	Name   string
	Flower bool
	Shades []int8
	Star   int // index into Shades; -1 for an X or a star-less flower
}

// Designs is the 25 tiles of data/tiles.yaml: the 12 flowers first, then the 13 Xs.
// A game's State.Tiles names them by index.
func Designs() []Design { return designs }

var designs = mustLoadDesigns(tilesYAML)

func mustLoadDesigns(b []byte) []Design {
	d, err := loadDesigns("data/tiles.yaml", b)
	if err != nil {
		panic(err) // the embedded file is ours; TestDesigns keeps it valid
	}
	return d
}

var starNames = map[string]int{"centre": 0, "N": 1, "NE": 2, "SE": 3, "S": 4, "SW": 5, "NW": 6, "none": -1}

// loadDesigns reads and checks a tiles file: 12 flowers of 7 shades (10 with a star, 2
// without) and 13 Xs of 8 shades, shades 0-3, names unique.
func loadDesigns(file string, b []byte) ([]Design, error) {
	var doc struct {
		Flowers []yaml.Node `yaml:"flowers"`
		Xs      []yaml.Node `yaml:"xs"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	var out []Design
	names := map[string]int{}
	stars := 0
	read := func(n *yaml.Node, flower bool) error {
		var t struct {
			Name   string `yaml:"name"`
			Shades []int8 `yaml:"shades"`
			Star   string `yaml:"star"`
		}
		if err := n.Decode(&t); err != nil {
			return fmt.Errorf("%s:%d: %v", file, n.Line, err)
		}
		want := 8
		if flower {
			want = 7
		}
		if t.Name == "" {
			return fmt.Errorf("%s:%d: a tile without a name", file, n.Line)
		}
		if l, dup := names[t.Name]; dup {
			return fmt.Errorf("%s:%d: tile %s is named twice (also line %d)", file, n.Line, t.Name, l)
		}
		names[t.Name] = n.Line
		if len(t.Shades) != want {
			return fmt.Errorf("%s:%d: tile %s has %d shades, want %d", file, n.Line, t.Name, len(t.Shades), want)
		}
		for i, s := range t.Shades {
			if s < 0 || s > 3 {
				return fmt.Errorf("%s:%d: tile %s cell %d has shade %d, want 0-3", file, n.Line, t.Name, i+1, s)
			}
		}
		star := -1
		if flower {
			v, ok := starNames[t.Star]
			if !ok {
				return fmt.Errorf("%s:%d: tile %s has star %q, want centre, N, NE, SE, S, SW, NW or none", file, n.Line, t.Name, t.Star)
			}
			star = v
			if star >= 0 {
				stars++
			}
		} else if t.Star != "" {
			return fmt.Errorf("%s:%d: X tile %s has a star; only flowers carry bells", file, n.Line, t.Name)
		}
		out = append(out, Design{Name: t.Name, Flower: flower, Shades: t.Shades, Star: star})
		return nil
	}
	for i := range doc.Flowers {
		if err := read(&doc.Flowers[i], true); err != nil {
			return nil, err
		}
	}
	for i := range doc.Xs {
		if err := read(&doc.Xs[i], false); err != nil {
			return nil, err
		}
	}
	if len(doc.Flowers) != 12 || len(doc.Xs) != 13 {
		return nil, fmt.Errorf("%s: %d flowers and %d X tiles, want 12 and 13", file, len(doc.Flowers), len(doc.Xs))
	}
	if stars != 10 {
		return nil, fmt.Errorf("%s: %d flowers have a star, want 10 (and 2 without)", file, stars)
	}
	return out, nil
}
