package autopilot

import "github.com/rallyjudge/rallyjudge/adjudicator"

// Unreachable is the distance of a square from which a flag cannot be reached on foot
// (walled in, or in a pit).
const Unreachable = 999

// Guide is what the autopilot knows of a course before any game is played: for every
// flag, the path distance from each square (steps, around walls and pits), and the
// board laser beams reaching each square of the empty floor. It is computed once per
// setup and read-only afterwards.
type Guide struct {
	board *adjudicator.Board
	flags []adjudicator.Pos
	dist  [][]int16 // dist[f][y*W+x]: steps from the square to flag f+1
	beams []int8    // board laser beams reaching the square on an empty floor
	// togo is the cost to go to each flag from every square and facing, under the 2023
	// rules only (togo.go); nil otherwise.
	togo [][]int32
	// moves is where each card leads from each (square, facing) on the empty floor
	// (togoMoves), what the tables were computed from: the rival's likely program is
	// found on it (nearest.go).
	moves []int32
}

// NewGuide measures the course of setup s.
func NewGuide(s *adjudicator.Setup) *Guide {
	b := s.Course.Board
	g := &Guide{board: b, flags: s.Course.Flags, beams: make([]int8, len(b.Squares))}
	g.togo, g.moves = newTogo(s)
	for _, f := range s.Course.Flags {
		g.dist = append(g.dist, bfs(b, f))
	}
	// Board lasers (seed 003, Lasers): the beam covers the emitter's square first and
	// stops at the first wall.
	for y := 0; y < b.H; y++ {
		for x := 0; x < b.W; x++ {
			p := adjudicator.Pos{X: x, Y: y}
			l := b.At(p).Laser
			if l.Beams <= 0 {
				continue
			}
			for q := p; b.In(q); q = q.Step(l.Dir) {
				g.beams[q.Y*b.W+q.X] += int8(l.Beams)
				if b.Blocked(q, l.Dir) {
					break
				}
			}
		}
	}
	return g
}

// bfs is the number of steps from every square to target, moving one square at a time
// through no wall and into no pit (seed 003, Pits; walls block both sides).
func bfs(b *adjudicator.Board, target adjudicator.Pos) []int16 {
	d := make([]int16, len(b.Squares))
	for i := range d {
		d[i] = Unreachable
	}
	if b.Deadly(target) {
		return d
	}
	queue := make([]adjudicator.Pos, 0, len(b.Squares))
	d[target.Y*b.W+target.X] = 0
	queue = append(queue, target)
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		dp := d[p.Y*b.W+p.X]
		for dir := adjudicator.North; dir <= adjudicator.West; dir++ {
			q := p.Step(dir)
			if b.Deadly(q) || b.Blocked(p, dir) {
				continue
			}
			if i := q.Y*b.W + q.X; d[i] > dp+1 {
				d[i] = dp + 1
				queue = append(queue, q)
			}
		}
	}
	return d
}

// Dist is the path distance from p to flag number n (1-based); 0 once every flag is
// touched (n beyond the last), Unreachable off the floor.
func (g *Guide) Dist(n int, p adjudicator.Pos) int {
	if n > len(g.flags) {
		return 0
	}
	if n < 1 || !g.board.In(p) {
		return Unreachable
	}
	return int(g.dist[n-1][p.Y*g.board.W+p.X])
}

// Beams is the number of board laser beams reaching p on an empty floor.
func (g *Guide) Beams(p adjudicator.Pos) int {
	if !g.board.In(p) {
		return 0
	}
	return int(g.beams[p.Y*g.board.W+p.X])
}

// Downhill is the direction from p that brings the robot nearest flag n: the open
// neighbour with the smallest distance, ties in the order N, E, S, W; ok is false when
// no neighbour is nearer than p itself.
func (g *Guide) Downhill(n int, p adjudicator.Pos) (dir adjudicator.Dir, ok bool) {
	best := g.Dist(n, p)
	for d := adjudicator.North; d <= adjudicator.West; d++ {
		if g.board.Blocked(p, d) {
			continue
		}
		if q := g.Dist(n, p.Step(d)); q < best {
			best, dir, ok = q, d, true
		}
	}
	return dir, ok
}

// Turns is how many quarter turns a robot at p facing f needs before a step forward
// brings it nearer flag n: 0, 1 or 2 (0 when no step does).
func (g *Guide) Turns(n int, p adjudicator.Pos, f adjudicator.Dir) int {
	here := g.Dist(n, p)
	best, found := 2, false
	for d := adjudicator.North; d <= adjudicator.West; d++ {
		if g.board.Blocked(p, d) || g.Dist(n, p.Step(d)) >= here {
			continue
		}
		q := 1
		switch d {
		case f:
			q = 0
		case f.Back():
			q = 2
		}
		best, found = min(best, q), true
	}
	if !found {
		return 0
	}
	return best
}

// Near is Dist for a square a robot can stand on; for a pit or a square off the board,
// one more than its nearest open neighbour: how close a robot destroyed there came.
func (g *Guide) Near(n int, p adjudicator.Pos) int {
	if !g.board.Deadly(p) {
		return g.Dist(n, p)
	}
	best := Unreachable
	for d := adjudicator.North; d <= adjudicator.West; d++ {
		if q := p.Step(d); !g.board.Deadly(q) {
			best = min(best, g.Dist(n, q)+1)
		}
	}
	return best
}
