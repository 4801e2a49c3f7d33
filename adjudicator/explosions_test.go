package adjudicator

import (
	"slices"
	"testing"
)

// seed 001, Explosive Damage: the table, row by row, distances 0 to 7.
func TestExplosionDamageTable(t *testing.T) {
	table := map[int][8]int{
		2:  {2, 1, 0, 0, 0, 0, 0, 0},
		4:  {4, 2, 1, 0, 0, 0, 0, 0},
		16: {16, 8, 4, 2, 1, 0, 0, 0},
		64: {64, 32, 16, 8, 4, 2, 1, 0},
	}
	for power, row := range table {
		for d, want := range row {
			if got := ExplosionDamage(power, d); got != want {
				t.Errorf("power %d at distance %d: %d, want %d", power, d, got, want)
			}
		}
		if got := ExplosionDamage(power, 100); got != 0 {
			t.Errorf("power %d at distance 100: %d", power, got)
		}
	}
	for _, c := range []struct{ power, reach int }{{2, 1}, {4, 2}, {16, 4}, {64, 6}, {0, -1}} {
		if got := BlastReach(c.power); got != c.reach {
			t.Errorf("reach of %d: %d, want %d", c.power, got, c.reach)
		}
	}
	if ExplosionDamage(4, -1) != 0 || ExplosionDamage(-4, 0) != 0 {
		t.Error("a negative distance or power deals damage")
	}
}

func blastBoard(t *testing.T, rows ...string) *Board {
	t.Helper()
	bf, err := ParseBoardRows("t", 1, rows)
	if err != nil {
		t.Fatal(err)
	}
	return bf.Board
}

func TestBlastDistances(t *testing.T) {
	cases := []struct {
		name  string
		rows  []string
		at, p Pos
		want  int // distance, -1 unreached
	}{
		{"same square", []string{". . ."}, Pos{1, 0}, Pos{1, 0}, 0},
		{"adjacent", []string{". . ."}, Pos{1, 0}, Pos{2, 0}, 1},
		{"diagonal is two", []string{". .", ". ."}, Pos{0, 0}, Pos{1, 1}, 2},
		{"around a wall", []string{".|E .", ".   ."}, Pos{0, 0}, Pos{1, 0}, 3},
		{"walled in", []string{".|ES .|W", ".|N  ."}, Pos{0, 0}, Pos{1, 1}, -1},
		{"a level is a square", []string{". h1"}, Pos{0, 0}, Pos{1, 0}, 2},
		{"down a level too", []string{"h1 . ."}, Pos{0, 0}, Pos{2, 0}, 3},
		{"a ramp joins levels at the same cost", []string{"rE h1"}, Pos{0, 0}, Pos{1, 0}, 2},
		{"pits and water do not stop a blast", []string{". X ~ D ."}, Pos{0, 0}, Pos{4, 0}, 4},
		{"beyond reach", []string{". . . . . . . ."}, Pos{0, 0}, Pos{7, 0}, -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := blastBoard(t, c.rows...)
			got := BlastDistances(b, c.at, 6, 0)[c.p.Y*b.W+c.p.X]
			if got != c.want {
				t.Errorf("distance %v to %v: %d, want %d", c.at, c.p, got, c.want)
			}
		})
	}
}

// seed 001's three pictured examples are lost from the text; their sentences are kept:
// a mine 2 squares from one robot and 3 from another; a wall making a neighbour 3 away;
// two robots 4 away. Rebuilt here on boards of our own.
func TestBlastDamageAroundWalls(t *testing.T) {
	b := blastBoard(t,
		". .|E . .",
		". .   . .",
	)
	// The mine at 1,0; a robot at 2,0 is behind the wall on 1,0's east side: the way
	// round is 1,1 → 2,1 → 2,0, three squares, so a power-4 mine does nothing to it.
	if got := BlastDamage(b, Pos{1, 0}, 4, 0, Pos{2, 0}); got != 0 {
		t.Errorf("behind the wall: %d damage, want 0 (distance 3)", got)
	}
	if got := BlastDamage(b, Pos{1, 0}, 4, 0, Pos{0, 1}); got != 1 {
		t.Errorf("diagonal: %d damage, want 1 (distance 2)", got)
	}
	if got := BlastDamage(b, Pos{1, 0}, 16, 0, Pos{2, 0}); got != 2 {
		t.Errorf("Self-Destruct behind the wall: %d damage, want 2 (distance 3)", got)
	}
	if got := BlastDamage(b, Pos{1, 0}, 4, 0, Pos{9, 9}); got != 0 {
		t.Errorf("off the board: %d", got)
	}
}

func TestBlastSwingDoors(t *testing.T) {
	b := blastBoard(t, ". dE2 . .")
	// The door on 1,0's east side is open in register 2 only.
	if got := BlastDistances(b, Pos{0, 0}, 6, 1)[2]; got != -1 {
		t.Errorf("door closed in register 1: distance %d, want unreached", got)
	}
	if got := BlastDistances(b, Pos{0, 0}, 6, 2)[2]; got != 2 {
		t.Errorf("door open in register 2: distance %d, want 2", got)
	}
}

// The explosion step deals each robot the damage of its distance, counted around walls,
// in one EvExplosion; a virtual device's blast (Only) hurts only its launcher.
func TestExplodeDealsDamageByDistance(t *testing.T) {
	s := armedSetup(t, ". . .|E . . f1 s1", PostalRules(), 1)
	st := &State{Turn: 1, Robots: []Robot{
		{Name: "A", Pos: Pos{0, 0}, Lives: 3},
		{Name: "B", Pos: Pos{1, 0}, Lives: 3},
		{Name: "C", Pos: Pos{3, 0}, Lives: 3}, // behind the wall: out of reach
		{Name: "D", Pos: Pos{2, 0}, Lives: 3},
	}}
	tu := &turn{setup: s, st: st, single: -1, register: 1}
	tu.explode(Blast{At: Pos{0, 0}, Power: 4, By: 1, Source: "mine", Why: "collision"})
	for i, want := range []int{4, 2, 0, 1} {
		if got := st.Robots[i].Damage; got != want {
			t.Errorf("%s: %d damage, want %d", st.Robots[i].Name, got, want)
		}
	}
	n := 0
	for _, e := range tu.events {
		if e.Kind == EvExplosion {
			n++
			if e.Robot != "B" || e.Amount != 4 || e.Option != "mine" || *e.To != (Pos{0, 0}) {
				t.Errorf("explosion event %+v", e)
			}
		}
		if e.Kind == EvDamage && (e.Cause != "explosion" || e.Other != "B") {
			t.Errorf("damage event %+v", e)
		}
	}
	if n != 1 {
		t.Errorf("%d explosion events, want 1", n)
	}
	tu.explode(Blast{At: Pos{0, 0}, Power: 4, By: 1, Source: "mine", Only: 2})
	if st.Robots[0].Damage != 4 || st.Robots[1].Damage != 4 {
		t.Errorf("a blast for B alone: A %d, B %d damage, want 4 (untouched), 4", st.Robots[0].Damage, st.Robots[1].Damage)
	}
}

// The turn's blast distances (blastcache.go) are BlastDistances, asked once or again, in
// any order, on boards of two sizes, for every register's doors; what one ask handed out
// is not changed by the asks after it in the same register.
func TestBlastDistancesCached(t *testing.T) {
	small := testCourse(t).Board
	door := blastBoard(t, ". dE2 . .", ". . . .")
	tr := &turn{mem: new(turnMem)}
	for reg := 0; reg <= Registers; reg++ {
		if tr.blast != nil {
			tr.blast.forget() // as runRegister does
		}
		var kept [][]int
		var want [][]int
		for k := 0; k < 40; k++ {
			b := small
			if k%3 == 0 {
				b = door
			}
			at := Pos{(k * 7) % b.W, (k * 5) % b.H}
			reach := []int{0, 1, 3, 6, len(b.Squares)}[k%5]
			got := tr.blastDistances(b, at, reach, reg)
			w := BlastDistances(b, at, reach, reg)
			if !slices.Equal(got, w) {
				t.Fatalf("register %d, %v reach %d: cached %v, BlastDistances %v", reg, at, reach, got, w)
			}
			kept, want = append(kept, got), append(want, w)
		}
		for k := range kept {
			if !slices.Equal(kept[k], want[k]) {
				t.Fatalf("register %d: ask %d was changed by later asks", reg, k)
			}
		}
	}
}

// Issue 24 item 5: blast distances are searched once per register and reused. Asked
// again in the register, the same distances come back from memory (the same slice, no
// new entry); asked in the next register (runRegister forgets), they are searched anew,
// in the memory the last register used.
func TestBlastDistancesSearchedOncePerRegister(t *testing.T) {
	b := testCourse(t).Board
	tr := &turn{mem: new(turnMem)}
	at := Pos{3, 4}
	first := tr.blastDistances(b, at, len(b.Squares), 1)
	for k := 0; k < 5; k++ {
		again := tr.blastDistances(b, at, len(b.Squares), 1)
		if &again[0] != &first[0] || tr.blast.n != 1 {
			t.Fatalf("ask %d in the same register: searched again (%d entries)", k+2, tr.blast.n)
		}
	}
	other := tr.blastDistances(b, Pos{0, 0}, len(b.Squares), 1)
	if tr.blast.n != 2 || &other[0] == &first[0] {
		t.Fatalf("another square in the register: %d entries, want 2 of their own", tr.blast.n)
	}
	tr.blast.forget() // as runRegister does at the start of a register
	next := tr.blastDistances(b, at, len(b.Squares), 2)
	if tr.blast.n != 1 || &next[0] != &first[0] {
		t.Fatalf("the next register: %d entries, want 1 searched into the first's memory", tr.blast.n)
	}
	if !slices.Equal(next, BlastDistances(b, at, len(b.Squares), 2)) {
		t.Fatal("the next register's distances are not BlastDistances")
	}
}
