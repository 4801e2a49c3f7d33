package adjudicator

import "fmt"

// Course is a race: boards placed side by side into one floor, numbered flags to touch in
// order, start squares, and the number of players it suits. Courses are data (see
// docs/boards.md and boardtext.go); the engine sees only the assembled floor.
type Course struct {
	Name       string      `json:"name"`
	Board      *Board      `json:"-"`
	Flags      []Pos       `json:"flags"`  // flag 1 first
	Starts     []Start     `json:"starts"` // start 1 first
	MinPlayers int         `json:"min_players"`
	MaxPlayers int         `json:"max_players"`
	Boards     int         `json:"boards"` // how many boards it is made of (lives rule)
	Parts      []Placement `json:"parts,omitempty"`
	// Rules names the ruleset the course is made for ("2023"); "" any that accepts its
	// elements (the postal rules' courses).
	Rules string `json:"rules,omitempty"`
	// owner is, per square, the index+1 of the placed board covering it (0: none);
	// nil when the course is one board. The 2023 reboot finds the board a robot fell
	// from with it (reboot.go).
	owner []int
}

// BoardOf is the placed board covering p (an index into Parts, from 0), or -1 when
// the course does not say (a single board, or p off the floor).
func (c *Course) BoardOf(p Pos) int {
	if c.owner == nil || c.Board == nil || !c.Board.In(p) {
		return -1
	}
	return c.owner[p.Y*c.Board.W+p.X] - 1
}

// Start is a start square and the facing robots start with.
type Start struct {
	Pos    Pos `json:"pos"`
	Facing Dir `json:"facing"`
}

// Placement records which board sits where in a course, for the record and rendering.
type Placement struct {
	Board    string `json:"board"`
	At       Pos    `json:"at"`
	Rotation int    `json:"rotation"` // quarter turns clockwise
}

// Check validates that the course can be played: flags and starts on the floor, not in
// pits, and at least one of each.
func (c *Course) Check() error {
	if c.Board == nil || c.Board.W <= 0 || c.Board.H <= 0 {
		return fmt.Errorf("course %q: no board", c.Name)
	}
	if len(c.Flags) == 0 {
		return fmt.Errorf("course %q: no flags", c.Name)
	}
	if len(c.Starts) == 0 {
		return fmt.Errorf("course %q: no start squares", c.Name)
	}
	for i, f := range c.Flags {
		if c.Board.Deadly(f) {
			return fmt.Errorf("course %q: flag %d at %v is off the floor or in a pit", c.Name, i+1, f)
		}
	}
	for i, s := range c.Starts {
		if c.Board.Deadly(s.Pos) {
			return fmt.Errorf("course %q: start %d at %v is off the floor or in a pit", c.Name, i+1, s.Pos)
		}
	}
	// The floor tiles (seed 003 Grand Prix tiles, seed 000 floor): portal pairs, ramps
	// between neighbouring levels, doors on open edges.
	if _, err := checkPortals(c.Board); err != nil {
		return fmt.Errorf("course %q: %v", c.Name, err)
	}
	if err := checkLevels(c.Board); err != nil {
		return fmt.Errorf("course %q: %v", c.Name, err)
	}
	if err := checkDoors(c.Board); err != nil {
		return fmt.Errorf("course %q: %v", c.Name, err)
	}
	for i, f := range c.Flags {
		if c.Board.At(f).Portal != 0 {
			return fmt.Errorf("course %q: flag %d at %v is on a portal (a robot arriving there is sent on)", c.Name, i+1, f)
		}
	}
	return nil
}

// FlagAt is the number of the flag at p, or 0.
func (c *Course) FlagAt(p Pos) int {
	for i, f := range c.Flags {
		if f == p {
			return i + 1
		}
	}
	return 0
}

// BoardPart is a board placed in a course with its north-west corner at At (rules
// scenarios of several boards: adjudicator/scenario).
type BoardPart struct {
	File *BoardFile
	At   Pos
}

// CourseOfParts builds a course of several boards placed side by side, unturned: the
// floor is their bounding box, pits wherever no board lies, and BoardOf tells which
// board a square belongs to (the 2023 reboot: reboot.go). The flags and start squares
// keep the numbers their boards give them; a number on two boards is an error, and so
// is a board overlapping another.
func CourseOfParts(name string, parts []BoardPart) (*Course, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("course %q: no boards", name)
	}
	w, h := 0, 0
	for _, p := range parts {
		if p.At.X < 0 || p.At.Y < 0 || p.At.X > maxCourseSide || p.At.Y > maxCourseSide {
			return nil, fmt.Errorf("course %q: board %d placed at %v, off the course (0 to %d)", name, len(parts), p.At, maxCourseSide)
		}
		w, h = max(w, p.At.X+p.File.Board.W), max(h, p.At.Y+p.File.Board.H)
	}
	if w > maxCourseSide || h > maxCourseSide {
		return nil, fmt.Errorf("course %q: %dx%d squares, at most %d a side", name, w, h, maxCourseSide)
	}
	floor := NewBoard(w, h)
	owner := make([]int, w*h)
	for k := range floor.Squares {
		floor.Squares[k].Floor = FloorPit
	}
	flags := map[int]Pos{}
	starts := map[int]Start{}
	for i, p := range parts {
		b := p.File.Board
		for y := 0; y < b.H; y++ {
			for x := 0; x < b.W; x++ {
				q := Pos{p.At.X + x, p.At.Y + y}
				k := q.Y*w + q.X
				if owner[k] != 0 {
					return nil, fmt.Errorf("course %q: board %d at %v overlaps board %d", name, i+1, p.At, owner[k])
				}
				owner[k] = i + 1
				*floor.At(q) = *b.At(Pos{x, y})
			}
		}
		for n, f := range p.File.Flags {
			if _, dup := flags[n+1]; dup {
				return nil, fmt.Errorf("course %q: flag %d on two boards", name, n+1)
			}
			flags[n+1] = addPos(p.At, f)
		}
		for n, s := range p.File.Starts {
			if _, dup := starts[n+1]; dup {
				return nil, fmt.Errorf("course %q: start %d on two boards", name, n+1)
			}
			starts[n+1] = Start{Pos: addPos(p.At, s.Pos), Facing: s.Facing}
		}
	}
	floor.NormalizeWalls()
	c := &Course{Name: name, Board: floor, Boards: len(parts), owner: owner, MinPlayers: 1, MaxPlayers: MaxRobots}
	for n := 1; n <= len(flags); n++ {
		f, ok := flags[n]
		if !ok {
			return nil, fmt.Errorf("course %q: flag %d missing (number flags from 1 without gaps)", name, n)
		}
		c.Flags = append(c.Flags, f)
	}
	for n := 1; n <= len(starts); n++ {
		s, ok := starts[n]
		if !ok {
			return nil, fmt.Errorf("course %q: start %d missing", name, n)
		}
		c.Starts = append(c.Starts, s)
	}
	for _, p := range parts {
		c.Parts = append(c.Parts, Placement{Board: p.File.Name, At: p.At})
	}
	return c, nil
}
