package scenario

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// boardFile is an inline board: the floor, its flags (flag 1 first) and start squares.
type boardFile struct {
	Board  *adjudicator.Board
	Flags  []adjudicator.Pos
	Starts []adjudicator.Start
}

// parseRows reads board rows in the token grammar of docs/boards.md (one token a
// square, north row first). rows[k] is line firstLine+k of file name. It is a minimal
// reader of the shared grammar for scenario boards, used until the adjudicator's own
// board text parser exists.
func parseRows(name string, firstLine int, rows []string) (*boardFile, error) {
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s:%d: board: no rows", name, firstLine)
	}
	w := len(strings.Fields(rows[0]))
	b := adjudicator.NewBoard(w, len(rows))
	flags := map[int]adjudicator.Pos{}
	starts := map[int]adjudicator.Pos{}
	for y, row := range rows {
		line := firstLine + y
		toks := fieldsWithCols(row)
		if len(toks) != w {
			return nil, fmt.Errorf("%s:%d:1: board row %d has %d squares, want %d like the first row", name, line, y+1, len(toks), w)
		}
		for x, tk := range toks {
			p := adjudicator.Pos{X: x, Y: y}
			sq, flag, start, err := parseSquare(tk.text)
			if err != nil {
				return nil, fmt.Errorf("%s:%d:%d: %v", name, line, tk.col, err)
			}
			*b.At(p) = sq
			if flag > 0 {
				if _, dup := flags[flag]; dup {
					return nil, fmt.Errorf("%s:%d:%d: flag %d placed twice", name, line, tk.col, flag)
				}
				flags[flag] = p
			}
			if start > 0 {
				if _, dup := starts[start]; dup {
					return nil, fmt.Errorf("%s:%d:%d: start %d placed twice", name, line, tk.col, start)
				}
				starts[start] = p
			}
		}
	}
	b.NormalizeWalls()
	bf := &boardFile{Board: b}
	for n := 1; n <= len(flags); n++ {
		p, ok := flags[n]
		if !ok {
			return nil, fmt.Errorf("%s:%d: flags must be numbered 1 to %d, flag %d is missing", name, firstLine, len(flags), n)
		}
		bf.Flags = append(bf.Flags, p)
		b.At(p).Flag = n
	}
	nums := make([]int, 0, len(starts))
	for n := range starts {
		nums = append(nums, n)
	}
	sort.Ints(nums)
	for _, n := range nums {
		bf.Starts = append(bf.Starts, adjudicator.Start{Pos: starts[n], Facing: adjudicator.North})
	}
	return bf, nil
}

type token struct {
	text string
	col  int
}

func fieldsWithCols(s string) []token {
	var out []token
	start := -1
	for i := 0; i <= len(s); i++ {
		space := i == len(s) || s[i] == ' ' || s[i] == '\t'
		if space && start >= 0 {
			out = append(out, token{s[start:i], start + 1})
			start = -1
		} else if !space && start < 0 {
			start = i
		}
	}
	return out
}

// parseSquare reads one square token: elements joined by '+', then optionally '|' and
// the wall sides.
func parseSquare(tok string) (sq adjudicator.Square, flag, start int, err error) {
	elems, walls, hasWalls := strings.Cut(tok, "|")
	if hasWalls {
		if walls == "" {
			return sq, 0, 0, fmt.Errorf("square %q: want wall sides (N, E, S, W) after '|'", tok)
		}
		for _, c := range walls {
			d, ok := adjudicator.ParseDir(string(c))
			if !ok {
				return sq, 0, 0, fmt.Errorf("square %q: %q is not a wall side (want N, E, S or W)", tok, c)
			}
			sq.Walls = sq.Walls.With(d)
		}
	}
	for _, e := range strings.Split(elems, "+") {
		if err := parseElement(&sq, e, &flag, &start); err != nil {
			return sq, 0, 0, fmt.Errorf("square %q: %v", tok, err)
		}
	}
	return sq, flag, start, nil
}

func parseElement(sq *adjudicator.Square, e string, flag, start *int) error {
	if e == "" {
		return fmt.Errorf("empty element")
	}
	num := func(s string, lo, hi int) (int, bool) {
		n, err := strconv.Atoi(s)
		return n, err == nil && n >= lo && n <= hi
	}
	regs := func(s string) (adjudicator.RegisterSet, bool) {
		var set adjudicator.RegisterSet
		if s == "" {
			return 0, false
		}
		for _, c := range s {
			if c < '1' || c > '5' {
				return 0, false
			}
			set = set.With(int(c - '0'))
		}
		return set, true
	}
	switch {
	case e == ".":
	case e == "X":
		sq.Floor = adjudicator.FloorPit
	case e[0] == 'b' || e[0] == 'B':
		if len(e) < 2 {
			return fmt.Errorf("belt %q: want a direction (bN, BE:S ...)", e)
		}
		d, ok := adjudicator.ParseDir(e[1:2])
		if !ok {
			return fmt.Errorf("belt %q: %q is not a direction", e, e[1:2])
		}
		sq.Belt = adjudicator.Belt{Kind: adjudicator.BeltNormal, Dir: d}
		if e[0] == 'B' {
			sq.Belt.Kind = adjudicator.BeltExpress
		}
		if rest := e[2:]; rest != "" {
			if rest[0] != ':' || len(rest) < 2 {
				return fmt.Errorf("belt %q: want ':' and the turning sides after the direction", e)
			}
			for _, c := range rest[1:] {
				s, ok := adjudicator.ParseDir(string(c))
				if !ok {
					return fmt.Errorf("belt %q: %q is not a side", e, c)
				}
				sq.Belt.TurnFrom = sq.Belt.TurnFrom.With(s)
			}
		}
	case e == "gL":
		sq.Gear = adjudicator.TurnLeft
	case e == "gR":
		sq.Gear = adjudicator.TurnRight
	case e[0] == 'p' && len(e) >= 3:
		d, ok := adjudicator.ParseDir(e[1:2])
		set, ok2 := regs(e[2:])
		if !ok || !ok2 {
			return fmt.Errorf("pusher %q: want pN135 (direction, registers 1-5)", e)
		}
		sq.Pusher = adjudicator.Pusher{Dir: d, Registers: set}
	case e[0] == 'c':
		set, ok := regs(e[1:])
		if !ok {
			return fmt.Errorf("crusher %q: want c24 (registers 1-5)", e)
		}
		sq.Crusher = set
	case e[0] == 'l' && len(e) == 3:
		d, ok := adjudicator.ParseDir(e[1:2])
		n, ok2 := num(e[2:], 1, 3)
		if !ok || !ok2 {
			return fmt.Errorf("laser %q: want lS2 (direction, 1-3 beams)", e)
		}
		sq.Laser = adjudicator.Laser{Dir: d, Beams: n}
	case e == "w1":
		sq.Repair = 1
	case e == "w2":
		sq.Repair = 2
	case e[0] == 's':
		n, ok := num(e[1:], 1, adjudicator.MaxRobots)
		if !ok {
			return fmt.Errorf("start %q: want s1 to s8", e)
		}
		*start = n
	case e[0] == 'f':
		n, ok := num(e[1:], 1, 99)
		if !ok {
			return fmt.Errorf("flag %q: want f1, f2 ...", e)
		}
		*flag = n
	default:
		return fmt.Errorf("unknown element %q (want . X bN BN gL gR pN135 c24 lS2 w1 w2 s1 f1)", e)
	}
	return nil
}
