package rja

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// Course is a course carried inline: its course file (docs/boards.md) and the text of
// every board the course file places. Build turns it back into the engine's course.
type Course struct {
	Name   string  `json:"name"`
	Text   string  `json:"text"`   // the course file
	Boards []Board `json:"boards"` // each board placed, once, in the order first placed
}

// Board is one board file's text under the name the course file places it by.
type Board struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

// Inline writes course c as a course file and board files, with boards resolving the
// names of its placed boards (adjudicator.LoadBoard for the shipped ones). The course
// file states the flags, start squares (with their facing) and players explicitly, so
// nothing depends on what the boards carry. The result is checked: rebuilt with Build,
// it must give the same floor, flags, starts and players as c.
func Inline(c *adjudicator.Course, boards func(name string) (*adjudicator.BoardFile, error)) (Course, error) {
	if c == nil || c.Board == nil {
		return Course{}, errors.New("archive: inline course: no course")
	}
	out := Course{Name: c.Name}
	var sb strings.Builder
	fmt.Fprintf(&sb, "course %s\nplayers %d-%d\n", c.Name, c.MinPlayers, c.MaxPlayers)
	parts := c.Parts
	single := len(parts) == 0
	if !single && boards != nil {
		for _, p := range parts {
			if slices.ContainsFunc(out.Boards, func(b Board) bool { return b.Name == p.Board }) {
				continue
			}
			bf, err := boards(p.Board)
			if err != nil || bf == nil || bf.Board == nil {
				if len(parts) == 1 {
					single = true
					break
				}
				return Course{}, fmt.Errorf("archive: inline course %q: board %q: %v", c.Name, p.Board, err)
			}
			out.Boards = append(out.Boards, Board{Name: p.Board, Text: adjudicator.FormatBoard(bf)})
		}
	} else if !single && len(parts) == 1 {
		single = true
	} else if !single {
		return Course{}, fmt.Errorf("archive: inline course %q: %d boards placed and no way to look them up", c.Name, len(parts))
	}
	if single {
		// One board: the assembled floor is that board (flags and starts are restated
		// in the course file).
		name := c.Name
		if len(parts) == 1 {
			name = parts[0].Board
		}
		floor := cloneBoard(c.Board)
		for i := range floor.Squares {
			floor.Squares[i].Flag, floor.Squares[i].Start = 0, 0
		}
		out.Boards = []Board{{Name: name, Text: adjudicator.FormatBoard(&adjudicator.BoardFile{Name: name, Board: floor})}}
		fmt.Fprintf(&sb, "place %s at 0,0\n", name)
	} else {
		for _, p := range parts {
			fmt.Fprintf(&sb, "place %s at %d,%d rotate %d\n", p.Board, p.At.X, p.At.Y, p.Rotation*90)
		}
	}
	for i, f := range c.Flags {
		fmt.Fprintf(&sb, "flag %d at %d,%d\n", i+1, f.X, f.Y)
	}
	for i, s := range c.Starts {
		fmt.Fprintf(&sb, "start %d at %d,%d facing %s\n", i+1, s.Pos.X, s.Pos.Y, s.Facing)
	}
	out.Text = sb.String()
	rebuilt, err := out.Build()
	if err != nil {
		return Course{}, fmt.Errorf("archive: inline course %q: %w", c.Name, err)
	}
	if d := SameCourse(c, rebuilt); d != "" {
		return Course{}, fmt.Errorf("archive: inline course %q: the rebuilt course differs: %s", c.Name, d)
	}
	return out, nil
}

// floorText is the board's text without flags and start squares (compared apart).
func floorText(b *adjudicator.Board) string {
	c := cloneBoard(b)
	for i := range c.Squares {
		c.Squares[i].Flag, c.Squares[i].Start = 0, 0
	}
	return adjudicator.FormatBoard(&adjudicator.BoardFile{Board: c})
}

func cloneBoard(b *adjudicator.Board) *adjudicator.Board {
	c := *b
	c.Squares = slices.Clone(b.Squares)
	return &c
}

// Build parses the course file with its boards (adjudicator.ParseCourse). Errors name
// the file as course/NAME.course or boards/NAME.board with line and column.
func (c Course) Build() (*adjudicator.Course, error) {
	files := map[string]*adjudicator.BoardFile{}
	lookup := func(name string) (*adjudicator.BoardFile, error) {
		if bf, ok := files[name]; ok {
			return bf, nil
		}
		for _, b := range c.Boards {
			if b.Name == name {
				bf, err := adjudicator.ParseBoard("boards/"+name+".board", b.Text)
				if err != nil {
					return nil, err
				}
				files[name] = bf
				return bf, nil
			}
		}
		return nil, fmt.Errorf("not in the archive")
	}
	return adjudicator.ParseCourse("course/"+c.Name+".course", c.Text, lookup)
}

// SameCourse compares two courses as the engine sees them: the floor (as board text),
// flags, starts, players and number of boards. It returns "" when they are the same,
// else what differs.
func SameCourse(a, b *adjudicator.Course) string {
	switch {
	case floorText(a.Board) != floorText(b.Board):
		return "the floor"
	case !slices.Equal(a.Flags, b.Flags):
		return "the flags"
	case !slices.Equal(a.Starts, b.Starts):
		return "the start squares"
	case a.MinPlayers != b.MinPlayers || a.MaxPlayers != b.MaxPlayers:
		return "the players"
	case a.Boards != b.Boards:
		return "the number of boards"
	}
	return ""
}
