package adjudicator

import "fmt"

// Dir is a compass direction. North is up on a printed board (towards row 0).
type Dir uint8

const (
	North Dir = iota
	East
	South
	West
)

var dirNames = [4]string{"N", "E", "S", "W"}

func (d Dir) String() string {
	if d > West {
		return fmt.Sprintf("Dir(%d)", uint8(d))
	}
	return dirNames[d]
}

// Left is the direction 90° anticlockwise of d.
func (d Dir) Left() Dir { return (d + 3) & 3 }

// Right is the direction 90° clockwise of d.
func (d Dir) Right() Dir { return (d + 1) & 3 }

// Back is the opposite direction.
func (d Dir) Back() Dir { return (d + 2) & 3 }

// Rotate turns d clockwise by q quarter turns (q may be negative).
func (d Dir) Rotate(q int) Dir { return Dir((int(d) + q%4 + 4) & 3) }

// ParseDir reads N, E, S, W (or the full names, any case).
func ParseDir(s string) (Dir, bool) {
	switch s {
	case "N", "n", "north", "North", "NORTH", "up":
		return North, true
	case "E", "e", "east", "East", "EAST", "right":
		return East, true
	case "S", "s", "south", "South", "SOUTH", "down":
		return South, true
	case "W", "w", "west", "West", "WEST", "left":
		return West, true
	}
	return 0, false
}

// MarshalText writes the one-letter name.
func (d Dir) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads a direction.
func (d *Dir) UnmarshalText(b []byte) error {
	v, ok := ParseDir(string(b))
	if !ok {
		return fmt.Errorf("bad direction %q (want N, E, S or W)", b)
	}
	*d = v
	return nil
}

// Pos is a square on the course: X counts columns from the west edge, Y rows from the
// north edge, both from 0.
type Pos struct {
	X int `json:"x"`
	Y int `json:"y"`
}

var dirDelta = [4]Pos{{0, -1}, {1, 0}, {0, 1}, {-1, 0}}

// Step is the neighbouring square in direction d (it may be off the board).
func (p Pos) Step(d Dir) Pos { return Pos{p.X + dirDelta[d].X, p.Y + dirDelta[d].Y} }

func (p Pos) String() string { return fmt.Sprintf("%d,%d", p.X, p.Y) }

// Edges is a set of square edges, one bit per direction.
type Edges uint8

// Has reports whether the edge on side d is in the set.
func (e Edges) Has(d Dir) bool { return e&(1<<d) != 0 }

// With adds side d.
func (e Edges) With(d Dir) Edges { return e | 1<<d }

// Rotation is a turn in place: none, a quarter left, a quarter right, or half.
type Rotation int8

const (
	NoRotation Rotation = 0
	TurnRight  Rotation = 1
	UTurn      Rotation = 2
	TurnLeft   Rotation = -1
)

func (r Rotation) String() string {
	switch r {
	case TurnLeft:
		return "left"
	case TurnRight:
		return "right"
	case UTurn:
		return "u-turn"
	}
	return "none"
}
