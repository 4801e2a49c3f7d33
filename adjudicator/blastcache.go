package adjudicator

// blastDists keeps the blast distances (BlastDistances) a turn has worked out in the
// current register. They depend only on the board, the square, the reach and the
// register's doors, and the Homing Device (a whole-board search toward its target, for
// every homing robot each register), the Option Damping Field (a search around each
// field for every option a robot uses) and explosions ask for the same ones again and
// again: the first ask searches, the others read. A turn with a Resolver's memory keeps
// the buffers from turn to turn (turnMem.blast), a Simulator from run to run.
//
// Entries are only added during a register, so a slice handed out stays good to the end
// of the register; runRegister forgets them (the buffers stay).
type blastDists struct {
	n       int
	keys    []blastKey
	dists   [][]int
	buckets [][]Pos
}

type blastKey struct {
	b          *Board
	at         Pos
	reach, reg int
}

// get is BlastDistances(b, at, reach, reg), read from memory when worked out already
// this register. The caller must not change it.
func (c *blastDists) get(b *Board, at Pos, reach, reg int) []int {
	k := blastKey{b, at, reach, reg}
	for i := 0; i < c.n; i++ {
		if c.keys[i] == k {
			return c.dists[i]
		}
	}
	if c.n == len(c.keys) {
		c.keys, c.dists = append(c.keys, blastKey{}), append(c.dists, nil)
	}
	d := c.dists[c.n]
	if cap(d) < len(b.Squares) {
		d = make([]int, len(b.Squares))
	}
	d = d[:len(b.Squares)]
	c.buckets = blastDistancesInto(d, c.buckets, b, at, reach, reg)
	c.keys[c.n], c.dists[c.n] = k, d
	c.n++
	return d
}

// forget drops the entries, keeping their memory.
func (c *blastDists) forget() {
	clear(c.keys[:c.n]) // no board kept alive by a key
	c.n = 0
}

// blastDistances is BlastDistances through the turn's memory (blastDists).
func (t *turn) blastDistances(b *Board, at Pos, reach, reg int) []int {
	if t.blast == nil {
		if t.mem != nil {
			t.blast = &t.mem.blast
		} else {
			t.blast = new(blastDists)
		}
	}
	return t.blast.get(b, at, reach, reg)
}
