package adjudicator

import (
	"fmt"
	"slices"
	"testing"
)

func TestShippedBoardsLoad(t *testing.T) {
	names := Boards()
	if len(names) < 5 {
		t.Fatalf("shipped boards %v: want at least 4 factory boards and a start board", names)
	}
	factory, startBoards := 0, 0
	for _, n := range names {
		t.Run(n, func(t *testing.T) {
			bf, err := LoadBoard(n)
			if err != nil {
				t.Fatal(err)
			}
			if bf.Name != n {
				t.Errorf("header names %q, file %q", bf.Name, n)
			}
			switch {
			case bf.Board.W == 12 && bf.Board.H == 12 && len(bf.Starts) == 0:
				factory++
			case bf.Board.W == 12 && bf.Board.H == 4 && len(bf.Starts) == 8:
				startBoards++
			case bf.Board.W == 12 && bf.Board.H == 4 && len(bf.Starts) == 6:
				startBoards++ // the 2023 docking bay: six robots (seed 004, Components)
			default:
				t.Errorf("%dx%d with %d starts: neither a 12x12 factory board nor a 12x4 start board with 8 (or, 2023, 6) starts", bf.Board.W, bf.Board.H, len(bf.Starts))
			}
			if len(bf.Flags) != 0 {
				t.Errorf("shipped board carries flags %v (courses place flags)", bf.Flags)
			}
			for _, p := range sensible(bf.Board) {
				t.Error(p)
			}
		})
	}
	if factory < 4 || startBoards < 1 {
		t.Errorf("%d factory boards, %d start boards; want 4 and 1", factory, startBoards)
	}
}

func TestShippedCoursesLoad(t *testing.T) {
	names := Courses()
	if len(names) < 3 {
		t.Fatalf("shipped courses %v: want at least 3", names)
	}
	var short, long, eight bool
	for _, n := range names {
		t.Run(n, func(t *testing.T) {
			c, err := LoadCourse(n)
			if err != nil {
				t.Fatal(err)
			}
			if c.Name != n {
				t.Errorf("header names %q, file %q", c.Name, n)
			}
			if err := c.Check(); err != nil {
				t.Fatal(err)
			}
			for _, p := range sensible(c.Board) {
				t.Error(p)
			}
			for i, f := range c.Flags {
				if c.Board.At(f).Flag != i+1 {
					t.Errorf("flag %d at %v: square says %d", i+1, f, c.Board.At(f).Flag)
				}
				if !reachable(c.Board, c.Starts[0].Pos, f) {
					t.Errorf("flag %d at %v cannot be reached from start 1", i+1, f)
				}
			}
			// The engine accepts it with the most players it is for, under its ruleset.
			rules, err := RulesByName(c.Rules)
			if err != nil {
				t.Fatal(err)
			}
			s, err := NewSetup(c, rules, 1, nil)
			if err != nil {
				t.Fatal(err)
			}
			var robots []string
			for i := 0; i < c.MaxPlayers; i++ {
				robots = append(robots, fmt.Sprintf("r%d", i))
			}
			if _, _, err := NewGame(s, robots); err != nil {
				t.Fatal(err)
			}
			factory := c.Boards - 1 // every shipped course has one start board
			switch {
			case c.MaxPlayers <= 4 && c.MinPlayers >= 2:
				short = true
			case c.MaxPlayers == 8 && len(c.Starts) == 8 && c.Boards >= 2:
				eight = true
			}
			if len(c.Flags) >= 3 && factory >= 2 {
				long = true
			}
		})
	}
	if !short || !long || !eight {
		t.Errorf("short 2-4 player race %v, long race (3+ flags, 2 factory boards) %v, 8-player race %v", short, long, eight)
	}
}

// TestShippedElements checks that the shipped boards together show every base element.
func TestShippedElements(t *testing.T) {
	seen := map[string]bool{}
	for _, n := range Boards() {
		bf, err := LoadBoard(n)
		if err != nil {
			t.Fatal(err)
		}
		b := bf.Board
		for y := 0; y < b.H; y++ {
			for x := 0; x < b.W; x++ {
				s := b.At(Pos{x, y})
				mark := func(k string, ok bool) {
					if ok {
						seen[k] = true
					}
				}
				mark("pit", s.Floor == FloorPit)
				mark("belt", s.Belt.Kind == BeltNormal)
				mark("express belt", s.Belt.Kind == BeltExpress)
				both := s.Belt.TurnFrom.Has(s.Belt.Dir.Left()) && s.Belt.TurnFrom.Has(s.Belt.Dir.Right())
				fromBehind := feeds(b, Pos{x, y}, s.Belt.Dir.Back())
				mark("curve", s.Belt.TurnFrom != 0 && !both && !fromBehind)
				mark("merge", s.Belt.TurnFrom != 0 && (both || fromBehind))
				mark("gear left", s.Gear == TurnLeft)
				mark("gear right", s.Gear == TurnRight)
				mark("pusher", s.Pusher.Registers != 0)
				mark("crusher on a belt", s.Crusher != 0 && s.Belt.Kind != NoBelt)
				mark(fmt.Sprintf("laser %d", s.Laser.Beams), s.Laser.Beams > 0)
				mark("single wrench", s.Repair == 1)
				mark("double wrench", s.Repair == 2)
				mark("wall", s.Walls != 0)
				mark("start", s.Start > 0)
			}
		}
	}
	for _, k := range []string{"pit", "belt", "express belt", "curve", "merge", "gear left", "gear right",
		"pusher", "crusher on a belt", "laser 1", "laser 2", "laser 3", "single wrench", "double wrench", "wall", "start"} {
		if !seen[k] {
			t.Errorf("no shipped board has a %s", k)
		}
	}
}

func TestLoadBoardIsFresh(t *testing.T) {
	a, err := LoadBoard("foundry")
	if err != nil {
		t.Fatal(err)
	}
	a.Board.At(Pos{0, 0}).Floor = FloorPit
	b, _ := LoadBoard("foundry")
	if b.Board.At(Pos{0, 0}).Floor == FloorPit {
		t.Error("a change to one loaded board shows in the next")
	}
}

func TestLoadUnknown(t *testing.T) {
	for _, n := range []string{"nope", "../boards/foundry", "", "a/b"} {
		if _, err := LoadBoard(n); err == nil {
			t.Errorf("LoadBoard(%q) found something", n)
		}
		if _, err := LoadCourse(n); err == nil {
			t.Errorf("LoadCourse(%q) found something", n)
		}
	}
	if !slices.Contains(Courses(), "sprint") {
		t.Errorf("courses %v lack sprint", Courses())
	}
}

func TestSensibleCatches(t *testing.T) {
	bf, err := ParseBoard("bad", "board bad 4x3\nlE1 bE bW .\nbE bN bN|N bS:E\n~E ~W ~N|N .\n")
	if err != nil {
		t.Fatal(err)
	}
	got := sensible(bf.Board)
	want := []string{
		"laser at 0,0 is not on a wall",
		"belts at 1,0 and 2,0 run head-on",
		"belts at 2,0 and 1,0 run head-on",
		"belt at 1,0 is fed from S but does not turn",
		"belt at 1,1 is fed from W but does not turn",
		"belt at 2,1 runs into a wall",
		"belt at 3,1 turns robots from E but no belt comes from there",
		"currents at 0,2 and 1,2 run head-on",
		"currents at 1,2 and 0,2 run head-on",
		"current at 2,2 runs into a wall",
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// feeds reports whether the neighbour on p's side d is a belt carrying into p.
func feeds(b *Board, p Pos, d Dir) bool {
	q := p.Step(d)
	return b.In(q) && b.At(q).Belt.Kind != NoBelt && b.At(q).Belt.Dir == d.Back() && !b.Blocked(p, d)
}

// sensible lists what makes a board odd to play: lasers not on a wall, belts running
// into walls or head-on into each other, belts fed from a side that do not turn, and
// curve sides that nothing feeds.
func sensible(b *Board) []string {
	var out []string
	for y := 0; y < b.H; y++ {
		for x := 0; x < b.W; x++ {
			p := Pos{x, y}
			s := b.At(p)
			if s.Laser.Beams > 0 && !s.Walls.Has(s.Laser.Dir.Back()) {
				out = append(out, fmt.Sprintf("laser at %v is not on a wall", p))
			}
			if s.Pusher.Registers != 0 && !s.Walls.Has(s.Pusher.Dir.Back()) {
				out = append(out, fmt.Sprintf("pusher at %v is not on a wall", p))
			}
			if d, ok := b.currentDir(p); ok {
				// seed 001, Currents: a current that runs into a wall or head-on into
				// another holds the robots in it for good.
				if b.Blocked(p, d) {
					out = append(out, fmt.Sprintf("current at %v runs into a wall", p))
				}
				if e, ok := b.currentDir(p.Step(d)); ok && e == d.Back() {
					out = append(out, fmt.Sprintf("currents at %v and %v run head-on", p, p.Step(d)))
				}
			}
			belt := s.Belt
			if belt.Kind == NoBelt {
				continue
			}
			if b.Blocked(p, belt.Dir) {
				out = append(out, fmt.Sprintf("belt at %v runs into a wall", p))
			}
			if q := p.Step(belt.Dir); b.In(q) && b.At(q).Belt.Kind != NoBelt && b.At(q).Belt.Dir == belt.Dir.Back() {
				out = append(out, fmt.Sprintf("belts at %v and %v run head-on", p, q))
			}
			for _, side := range []Dir{belt.Dir.Left(), belt.Dir.Right()} {
				fed := feeds(b, p, side)
				if fed && !belt.TurnFrom.Has(side) {
					out = append(out, fmt.Sprintf("belt at %v is fed from %s but does not turn", p, side))
				}
				if !fed && belt.TurnFrom.Has(side) {
					out = append(out, fmt.Sprintf("belt at %v turns robots from %s but no belt comes from there", p, side))
				}
			}
		}
	}
	return out
}

// reachable reports whether a robot could walk from a to b without pits or crossing walls.
func reachable(b *Board, from, to Pos) bool {
	seen := make([]bool, len(b.Squares))
	queue := []Pos{from}
	seen[from.Y*b.W+from.X] = true
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if p == to {
			return true
		}
		for d := North; d <= West; d++ {
			q := p.Step(d)
			if b.Deadly(q) || b.Blocked(p, d) || seen[q.Y*b.W+q.X] {
				continue
			}
			seen[q.Y*b.W+q.X] = true
			queue = append(queue, q)
		}
	}
	return false
}
