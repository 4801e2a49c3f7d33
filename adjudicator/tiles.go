package adjudicator

import (
	"fmt"
	"strings"
)

// Element tiles laid on a course for one game (seed 000, Game Preparations, "Factory
// Elements as tiles": "These tiles may be placed in any empty spaces on the board, and
// these spaces will then function as if the tiles were a permanent part of the board").
//
// A game's Rules.Tiles lists them as words "X,Y:TOKEN", separated by spaces or semicolons,
// TOKEN in the board grammar (docs/boards.md): "3,4:t1 9,4:t1 6,2:m24 5,7:dE13". They
// are a rules setting, so they are kept with the game and in its archive header, and a
// replay lays the same tiles.
//
//   - Only Crash & Burn's tiles may be laid: portals, crushers, flamers, swing doors (and
//     stompers, which are printed on its boards); at most as many of each as the box
//     holds (2 portals of one colour, 2 crushers, 2 flamers, 4 swing doors). Ruling: a
//     stomper tile counts against the crushers.
//   - A tile goes on an empty square: plain floor with no element, flag or start square
//     on it. Ruling: a swing door may hang on a side where no wall stands, of a square
//     that holds nothing else; walls on its other sides are allowed.
//   - The course with its tiles passes Course.Check (portal pairs complete).

// tileSupply is how many tiles of each kind the Crash & Burn box holds.
var tileSupply = map[string]int{"portal": 2, "crusher": 2, "flamer": 2, "swing door": 4}

const maxTileSpec = 4096

// WithTiles returns a copy of the course with the tiles of spec laid on it.
func (c *Course) WithTiles(spec string) (*Course, error) {
	if len(spec) > maxTileSpec {
		return nil, fmt.Errorf("tiles: %d bytes (at most %d)", len(spec), maxTileSpec)
	}
	out := *c
	out.Board = c.Board.Clone()
	used := map[string]int{}
	words := strings.FieldsFunc(spec, func(r rune) bool { return r == ' ' || r == ';' || r == '\t' || r == '\n' })
	for n, w := range words {
		at, tok, ok := strings.Cut(w, ":")
		if !ok {
			return nil, fmt.Errorf("tiles: word %d %q: want X,Y:TOKEN, e.g. 3,4:@1", n+1, clip(w))
		}
		p, ok := parsePos(at, maxCourseSide)
		if !ok || !out.Board.In(p) {
			return nil, fmt.Errorf("tiles: %q: %q is not a square of the course (%dx%d)", clip(w), clip(at), out.Board.W, out.Board.H)
		}
		sq := out.Board.At(p)
		if !emptySquare(sq) || c.FlagAt(p) > 0 || startAt(c, p) {
			return nil, fmt.Errorf("tiles: %q: square %v is not empty (tiles go on plain floor)", clip(w), p)
		}
		errs := &errList{file: "tiles"}
		var tile Square
		kind := parseElement(errs, 0, 0, tok, &tile)
		if kind == "" {
			return nil, fmt.Errorf("tiles: %q: %s", clip(w), errs.errs.List[0].Msg)
		}
		if kind == "stomper" {
			kind = "crusher"
		}
		limit, ok := tileSupply[kind]
		if !ok {
			return nil, fmt.Errorf("tiles: %q: a %s is not one of Crash & Burn's tiles (portals tN, crushers cN, stompers kN, flamers mN, swing doors dSN)", clip(w), kind)
		}
		if kind == "portal" {
			kind = fmt.Sprintf("portal %d", tile.Portal)
		}
		if used[kind]++; used[kind] > limit {
			return nil, fmt.Errorf("tiles: %q: more than %d %s tiles (the box holds %d)", clip(w), limit, kind, limit)
		}
		if tile.Portal != 0 && portalColourUsed(c.Board, tile.Portal) {
			return nil, fmt.Errorf("tiles: %q: the course already has portals of colour %d", clip(w), tile.Portal)
		}
		walls := sq.Walls
		*sq = tile
		sq.Walls = walls
		if tile.Door.Side != 0 && out.Board.Blocked(p, Dir(tile.Door.Side-1)) {
			return nil, fmt.Errorf("tiles: %q: a wall stands on that side already", clip(w))
		}
	}
	if err := out.Check(); err != nil {
		return nil, fmt.Errorf("tiles: %v", err)
	}
	return &out, nil
}

// emptySquare: plain floor with nothing on it but walls.
func emptySquare(s *Square) bool {
	e := *s
	e.Walls = 0
	return e == Square{}
}

func startAt(c *Course, p Pos) bool {
	for _, s := range c.Starts {
		if s.Pos == p {
			return true
		}
	}
	return false
}

func portalColourUsed(b *Board, colour uint8) bool {
	for k := range b.Squares {
		if b.Squares[k].Portal == colour {
			return true
		}
	}
	return false
}
