package adjudicator

import "fmt"

// The factory floor. Sources: seed 003, "Factory Floor Guide"; rules README, "A turn".
//
// A Board is a grid of squares. Each square has at most one of each element kind; the
// kinds are fields of Square, so a new element (oil, portals, ramps, water, teleporters,
// flamers, swing doors...) is a new field here, a token in boardtext.go, and a step in
// the register's element phase (Rules.ElementSteps). Nothing else in the core changes.

// Floor is what a square is made of.
type Floor uint8

const (
	FloorPlain Floor = iota
	FloorPit         // seed 003, Pits: a robot entering one is destroyed
)

// BeltKind is a conveyor belt's speed.
type BeltKind uint8

const (
	NoBelt BeltKind = iota
	BeltNormal
	BeltExpress
)

// Belt is a conveyor belt square. Dir is where it carries robots.
//
// Curves (seed 003, Turning Conveyor Belts): "If a conveyor belt pushes a robot onto
// this square, the robot is rotated 90 degrees in the indicated direction ... Being
// pushed in from the West does not turn the robot." A curve is written per side of
// entry: TurnFrom holds the sides from which a robot carried onto the square is turned,
// and the turn is the quarter that brings its travel direction to Dir. A robot that
// drives or is pushed onto a curve is never turned (rules README).
type Belt struct {
	Kind     BeltKind
	Dir      Dir
	TurnFrom Edges // sides (of this square) from which arriving robots are turned
}

// Pusher pushes a robot on its square one square in Dir in the registers it is active.
type Pusher struct {
	Dir       Dir
	Registers RegisterSet
}

// Laser is a wall-mounted emitter on a square, firing in Dir with 1–3 beams. The beam
// covers its own square first (seed 003, Lasers).
type Laser struct {
	Dir   Dir
	Beams int
}

// RegisterSet is a set of registers 1–5, one bit each.
type RegisterSet uint8

// Has reports whether register r (1–5) is in the set.
func (s RegisterSet) Has(r int) bool { return s&(1<<r) != 0 }

// With adds register r.
func (s RegisterSet) With(r int) RegisterSet { return s | 1<<r }

func (s RegisterSet) String() string {
	out := ""
	for r := 1; r <= Registers; r++ {
		if s.Has(r) {
			if out != "" {
				out += ","
			}
			out += fmt.Sprint(r)
		}
	}
	return out
}

// Square is one square of the floor and everything on it.
type Square struct {
	Floor   Floor
	Walls   Edges       // walls on this square's edges (both neighbours carry them)
	Belt    Belt        // Kind NoBelt when none
	Gear    Rotation    // TurnLeft or TurnRight, NoRotation when none
	Pusher  Pusher      // Registers 0 when none
	Crusher RegisterSet // registers a crusher is active; 0 when none
	Laser   Laser       // Beams 0 when none
	Repair  int         // 0 none, 1 single wrench, 2 double wrench
	Flag    int         // 0 none, else the flag's number (set by the course)
	Start   int         // 0 none, else the start square's number
	// Battery: a robot ending a register here gains 1 energy (seed 004, Batteries).
	Battery bool
	// Reboot is a reboot token: where robots that fell from this board re-enter, and
	// the way an occupant is pushed (seed 004, Rebooting).
	Reboot RebootToken

	// The postal Grand Prix tiles (seed 003, "Extra Tiles For Grand Prix") and the Crash
	// & Burn floor (seed 000); each has its own file: oil.go, portals.go, levels.go,
	// repulsors.go, chopshop.go, flamers.go, doors.go, stompers.go. Edge elements
	// (ramps, repulsor fields, swing doors) are kept on the square they are written on;
	// lookups look at both squares of an edge, as Blocked does for walls.
	Oil       bool        // oil slick (oil.go)
	Portal    uint8       // portal colour 1–9, two squares a colour; 0 none (portals.go)
	Level     uint8       // height of the floor, 0 ground to MaxLevel (levels.go)
	Ramps     Edges       // sides where a ramp joins the neighbouring level (levels.go)
	Repulsors Edges       // sides carrying a repulsor field (repulsors.go)
	Door      Door        // a swing door on one side (doors.go); Side 0 none
	ChopShop  bool        // chop shop (chopshop.go)
	Flamer    RegisterSet // registers a flamer is active; 0 none (flamers.go)
	Stomper   RegisterSet // registers a stomper is active; 0 none (stompers.go)

	// The Armed and Dangerous floor (seed 001, Board Element Overview): water.go,
	// teleporters.go, randomizers.go. Levels, ramps and ledges are levels.go's.
	Water      bool  // water: the first square of a card played in it is lost (water.go)
	Current    uint8 // a current's flow, direction+1, on a water square; 0 none (water.go)
	Teleporter bool  // teleporter (teleporters.go)
	Randomizer bool  // randomizer (randomizers.go)
	Drain      bool  // a drain: a pit in every way (Floor is FloorPit), drawn as a drain
}

// RebootToken is a reboot token on a square (seed 004, Re-entering Play): On says there
// is one; Dir is its arrow, the way a robot found on it is pushed.
type RebootToken struct {
	On  bool
	Dir Dir
}

// Door is a swing door on a square's side: a wall except in the registers it is open
// (seed 000, Swing Door). Side is the direction of the side plus one; 0 means no door.
type Door struct {
	Side uint8
	Open RegisterSet
}

// Has reports whether the door stands on side d.
func (d Door) Has(dir Dir) bool { return d.Side != 0 && Dir(d.Side-1) == dir }

// Board is a W×H grid, stored row by row.
type Board struct {
	W, H    int
	Squares []Square
}

// NewBoard makes an empty w×h floor.
func NewBoard(w, h int) *Board {
	return &Board{W: w, H: h, Squares: make([]Square, w*h)}
}

// In reports whether p is on the board.
func (b *Board) In(p Pos) bool { return p.X >= 0 && p.Y >= 0 && p.X < b.W && p.Y < b.H }

// At returns the square at p; p must be on the board.
func (b *Board) At(p Pos) *Square { return &b.Squares[p.Y*b.W+p.X] }

// Blocked reports whether a wall stands on the edge leaving p in direction d: on p's
// side or on the neighbour's facing side.
func (b *Board) Blocked(p Pos, d Dir) bool {
	if b.In(p) && b.At(p).Walls.Has(d) {
		return true
	}
	q := p.Step(d)
	return b.In(q) && b.At(q).Walls.Has(d.Back())
}

// Deadly reports whether a robot at p is destroyed for being there: off the board or
// in a pit (seed 003, Pits: "Open edges of the game area also act like bottomless
// shafts").
func (b *Board) Deadly(p Pos) bool { return !b.In(p) || b.At(p).Floor == FloorPit }

// NormalizeWalls copies every wall onto the neighbouring square's facing edge, so that
// either square's Walls tells the whole truth.
func (b *Board) NormalizeWalls() {
	for y := 0; y < b.H; y++ {
		for x := 0; x < b.W; x++ {
			p := Pos{x, y}
			for d := North; d <= West; d++ {
				if b.At(p).Walls.Has(d) {
					if q := p.Step(d); b.In(q) {
						b.At(q).Walls = b.At(q).Walls.With(d.Back())
					}
				}
			}
		}
	}
}

// Clone returns a deep copy.
func (b *Board) Clone() *Board {
	c := *b
	c.Squares = append([]Square(nil), b.Squares...)
	return &c
}

// Rotated returns the board turned clockwise by q quarter turns, every element turned
// with it (a course can place a board in any of four orientations).
func (b *Board) Rotated(q int) *Board {
	q = (q%4 + 4) % 4
	out := b.Clone()
	for ; q > 0; q-- {
		out = out.rotateOnce()
	}
	return out
}

func (b *Board) rotateOnce() *Board {
	r := NewBoard(b.H, b.W)
	for y := 0; y < b.H; y++ {
		for x := 0; x < b.W; x++ {
			s := *b.At(Pos{x, y})
			s.Walls = rotateEdges(s.Walls)
			s.Belt.Dir = s.Belt.Dir.Right()
			s.Belt.TurnFrom = rotateEdges(s.Belt.TurnFrom)
			s.Pusher.Dir = s.Pusher.Dir.Right()
			s.Laser.Dir = s.Laser.Dir.Right()
			s.Reboot.Dir = s.Reboot.Dir.Right()
			s.Ramps = rotateEdges(s.Ramps)
			s.Repulsors = rotateEdges(s.Repulsors)
			if s.Door.Side != 0 {
				s.Door.Side = uint8(Dir(s.Door.Side-1).Right()) + 1
			}
			if s.Current != 0 {
				s.Current = uint8(Dir(s.Current-1).Right()) + 1
			}
			// clockwise: (x, y) -> (H-1-y, x)
			*r.At(Pos{b.H - 1 - y, x}) = s
		}
	}
	return r
}

func rotateEdges(e Edges) Edges {
	var out Edges
	for d := North; d <= West; d++ {
		if e.Has(d) {
			out = out.With(d.Right())
		}
	}
	return out
}
