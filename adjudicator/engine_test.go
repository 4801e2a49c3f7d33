package adjudicator

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The deck of the rules README, "Program deck": 84 cards, unique priorities.
func TestStandardDeck(t *testing.T) {
	d := StandardDeck()
	if d.Len() != 84 {
		t.Fatalf("deck has %d cards, want 84", d.Len())
	}
	want := []struct {
		kind               CardKind
		count, first, step int
	}{
		{CardUTurn, 6, 10, 10}, {CardLeft, 18, 70, 20}, {CardRight, 18, 80, 20},
		{CardBackUp, 6, 430, 10}, {CardMove1, 18, 490, 10}, {CardMove2, 12, 670, 10}, {CardMove3, 6, 790, 10},
	}
	total := 0
	for _, w := range want {
		for k := 0; k < w.count; k++ {
			p := w.first + k*w.step
			if got := d.Kind(p); got != w.kind {
				t.Errorf("P%d is %v, want %v", p, got, w.kind)
			}
		}
		total += w.count
	}
	if total != 84 {
		t.Fatalf("table counts %d", total)
	}
	for _, p := range []int{0, 5, 65, 425, 850, 999, 1000, -1} {
		if d.Kind(p) != NoCard {
			t.Errorf("P%d should not be a card", p)
		}
	}
	cards := d.Cards()
	if !slices.IsSorted(cards) || len(slices.Compact(slices.Clone(cards))) != 84 {
		t.Errorf("cards not unique ascending")
	}
}

func TestParseDeckErrors(t *testing.T) {
	for _, text := range []string{"move1 2 490", "jump 1 10 10", "move1 2 490 0", "move1 x 490 10", "move1 1 2000 10"} {
		if _, err := ParseDeck(text); err == nil {
			t.Errorf("ParseDeck(%q): no error", text)
		}
	}
}

func TestLockedFor(t *testing.T) {
	for dmg, want := range []int{0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 5} {
		if got := LockedFor(dmg); got != want {
			t.Errorf("LockedFor(%d) = %d, want %d", dmg, got, want)
		}
	}
	r := Robot{Damage: 7}
	for reg := 1; reg <= Registers; reg++ {
		if r.IsLocked(reg) != (reg >= 3) {
			t.Errorf("7 damage: register %d locked = %v", reg, r.IsLocked(reg))
		}
	}
}

// testCourse is a two-board (24×12) course with belts, express belts, curves, pushers,
// gears, lasers, walls, pits, wrenches and three flags.
func testCourse(t testing.TB) *Course {
	t.Helper()
	half := []string{
		".    .    .    .    .    .    .    .    .    .    .    .",
		".    bE   bE   bE   bS:W .    .    lS1|N .   gR   .    .",
		".    .    .    .    bS   .    .    .    .    .    .    .",
		"lE2|W .   .    .    bS   .    X    .    .    .    w1   .",
		".    .    pN24 .    bS   .    .    .    .    .    .    .",
		".    .    .    .    BE   BE   BE   BS:W .    .    .    .",
		".    gL   .    .    .    .    .    BS   .|E  .    .    .",
		".    .    .    .    .    .    .    BS   .    .    .    .",
		".    .    .    X    .    .    .    BW:N BW   .    .    .",
		".    w2   .    .    .    .    .    .    .    .    lN3|S .",
		".    .    .    .    .    pE135 .   .    .    c2   .    .",
		".    .    .    .    .    .    .    .    .    .    .    .",
	}
	rows := make([]string, len(half))
	for i, r := range half {
		rows[i] = r + "   " + r
	}
	rows[1] = strings.Replace(rows[1], "gR   .    .   ", "gR   .    f1  ", 1)
	rows[9] = rows[9][:len(rows[9])-1] + "f2"
	rows[11] = rows[11][:len(rows[11])-1] + "f3"
	bf, err := ParseBoardRows("bench", 1, rows)
	if err != nil {
		t.Fatal(err)
	}
	c := bf.Course()
	c.Boards = 2
	c.Starts = []Start{{Pos: Pos{0, 11}, Facing: North}}
	c.MaxPlayers = 8
	return c
}

// benchGame places 8 real robots spread over the course with legal programs that move
// them into belts, lasers and each other.
func benchGame(t testing.TB) (*Setup, *State, []Orders) {
	t.Helper()
	s, err := NewSetup(testCourse(t), PostalRules(), 42, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := NewGame(s, []string{"A", "B", "C", "D", "E", "F", "G", "H"})
	if err != nil {
		t.Fatal(err)
	}
	spots := []Pos{{2, 1}, {4, 4}, {3, 5}, {7, 7}, {14, 1}, {16, 4}, {19, 6}, {10, 10}}
	orders := make([]Orders, len(st.Robots))
	for i := range st.Robots {
		r := &st.Robots[i]
		r.Pos, r.Archive, r.Virtual, r.Facing = spots[i], spots[i], false, Dir(i%4)
		// Moves first in the hand, then turns: a busy program.
		h := slices.Clone(r.Hand)
		slices.SortFunc(h, func(a, b int) int { return b - a })
		copy(orders[i].Program[:], h[:Registers])
	}
	return s, st, orders
}

func TestDealDeterministic(t *testing.T) {
	s, st, orders := benchGame(t)
	a, _, err := Resolve(s, st, orders)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := Resolve(s, st, orders)
	if err != nil {
		t.Fatal(err)
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Fatal("same seed, state and orders: different results")
	}
	// Every card dealt at most once, none of them locked in a register.
	seen := map[int]bool{}
	for _, r := range a.Robots {
		if r.Power == PowerOn && !r.Out && len(r.Hand) != max(0, 9-r.Damage) {
			t.Errorf("%s: %d cards with %d damage", r.Name, len(r.Hand), r.Damage)
		}
		for _, c := range slices.Concat(r.Hand, r.Registers[:]) {
			if c != 0 && seen[c] {
				t.Errorf("P%d dealt twice", c)
			}
			seen[c] = true
		}
	}
	// Another seed deals other hands.
	s2, _ := NewSetup(s.Course, PostalRules(), 43, nil)
	c, _, _ := Resolve(s2, st, orders)
	if slices.Equal(c.Robots[0].Hand, a.Robots[0].Hand) && slices.Equal(c.Robots[1].Hand, a.Robots[1].Hand) {
		t.Error("seed 43 dealt the same hands as seed 42")
	}
}

func TestLockedCardsNotDealt(t *testing.T) {
	s, st, orders := benchGame(t)
	r := &st.Robots[0]
	r.Damage = 6
	r.Registers[3], r.Registers[4] = 490, 500
	r.Hand = slices.DeleteFunc(r.Hand, func(c int) bool { return c == 490 || c == 500 })
	for i := range st.Robots[1:] {
		h := &st.Robots[i+1].Hand
		*h = slices.DeleteFunc(*h, func(c int) bool { return c == 490 || c == 500 })
	}
	// Keep the sample programs legal after the edit.
	for i := range st.Robots {
		var p [Registers]int
		cand := slices.Clone(st.Robots[i].Hand)
		slices.SortFunc(cand, func(a, b int) int { return b - a })
		n := Registers - st.Robots[i].Locked()
		copy(p[:n], cand[:n])
		orders[i].Program = p
	}
	if errs := s.CheckProgram(st, 0, orders[0].Program); len(errs) > 0 {
		t.Fatal(errs)
	}
	next, _, err := Resolve(s, st, orders)
	if err != nil {
		t.Fatal(err)
	}
	var locked []int
	for _, rb := range next.Robots {
		for _, c := range rb.Registers {
			if c != 0 {
				locked = append(locked, c)
			}
		}
	}
	if next.Robots[0].Damage >= 6 && !slices.Contains(locked, 490) {
		t.Fatalf("A has %d damage but P490 left register 4: %v", next.Robots[0].Damage, next.Robots[0].Registers)
	}
	for _, rb := range next.Robots {
		for _, c := range rb.Hand {
			if slices.Contains(locked, c) {
				t.Errorf("%s was dealt P%d, which is locked in a register", rb.Name, c)
			}
		}
	}
}

func TestCheckProgram(t *testing.T) {
	s, st, _ := benchGame(t)
	r := &st.Robots[0]
	r.Hand = []int{70, 490, 500, 670, 790}
	r.Damage = 5
	r.Registers[4] = 20
	tests := []struct {
		prog [Registers]int
		want string
	}{
		{[Registers]int{70, 490, 500, 670, 0}, ""},
		{[Registers]int{70, 490, 500, 670, 20}, ""},
		{[Registers]int{70, 490, 500, 670, 790}, "locked"},
		{[Registers]int{70, 490, 490, 670, 0}, "already in register 2"},
		{[Registers]int{70, 491, 500, 670, 0}, "not a card"},
		{[Registers]int{70, 480, 500, 670, 0}, "not in your hand"},
		{[Registers]int{0, 490, 500, 670, 0}, "no card"},
	}
	for _, tc := range tests {
		errs := s.CheckProgram(st, 0, tc.prog)
		got := ""
		if len(errs) > 0 {
			got = errs[0].Error()
		}
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%v: got %q, want %q", tc.prog, got, tc.want)
		}
	}
}

// The Simulator agrees with Simulate and Resolve-free forecasts, and does not change the
// state it forecasts.
func TestSimulatorMatchesSimulate(t *testing.T) {
	s, st, orders := benchGame(t)
	before, _ := json.Marshal(st)
	sim := NewSimulator(s, st)
	for i := range st.Robots {
		want, _, err := Simulate(s, st, i, orders[i])
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 2; k++ {
			got, err := sim.Run(i, orders[i].Program, nil)
			if err != nil {
				t.Fatal(err)
			}
			jw, _ := json.Marshal(want)
			jg, _ := json.Marshal(got)
			if string(jw) != string(jg) {
				t.Errorf("robot %d run %d: Simulator %s, Simulate %s", i, k, jg, jw)
			}
		}
	}
	after, _ := json.Marshal(st)
	if string(before) != string(after) {
		t.Error("forecasts changed the state")
	}
}

// A Simulator Reset to a position forecasts as a new one made for it, whatever it ran
// before (orders.Validate keeps Simulators in a pool).
func TestSimulatorReset(t *testing.T) {
	s, st, orders := benchGame(t)
	next, _, err := Resolve(s, st, orders)
	if err != nil {
		t.Fatal(err)
	}
	used := NewSimulator(s, next)
	for _, pos := range []*State{st, next, st} {
		fresh := NewSimulator(s, pos)
		used.Reset(s, pos)
		for i := range pos.Robots {
			want, err := fresh.Run(i, orders[i].Program, nil)
			got, err2 := used.Run(i, orders[i].Program, nil)
			if (err == nil) != (err2 == nil) {
				t.Fatalf("robot %d: fresh error %v, reset error %v", i, err, err2)
			}
			jw, _ := json.Marshal(want)
			jg, _ := json.Marshal(got)
			if string(jw) != string(jg) {
				t.Errorf("turn %d robot %d: reset Simulator %s, new one %s", pos.Turn, i, jg, jw)
			}
		}
	}
	used.Reset(nil, nil)
	if used.base != nil || used.setup != nil || len(used.st.Robots) != 0 {
		t.Error("Reset(nil, nil) kept the last position")
	}
}

// BenchmarkTurn8Robots is a busy postal turn of 8 robots played through a Resolver
// reused turn after turn, as a judge or a replay plays a game (issue 9: 6 µs or less,
// at most 4 allocations). BenchmarkResolve8Robots is the same turn through Resolve,
// which gives the caller a state and a log of its own.
func BenchmarkTurn8Robots(b *testing.B) {
	s, st, orders := benchGame(b)
	var rv Resolver
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := rv.Resolve(s, st, orders); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkResolve8Robots(b *testing.B) {
	s, st, orders := benchGame(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Resolve(s, st, orders); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSimulate(b *testing.B) {
	s, st, orders := benchGame(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Simulate(s, st, 3, orders[3]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSimulator(b *testing.B) {
	s, st, orders := benchGame(b)
	sim := NewSimulator(s, st)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sim.Run(3, orders[3].Program, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSimulator2023 is a forecast under the 2023 rules on docking-run, 4 robots,
// the first robot playing the first five cards of its hand through one Simulator, as
// the autopilot's search does: Run copies the robot out (its mat an allocation),
// Forecast reads it in the Simulator's memory (none).
func BenchmarkSimulator2023(b *testing.B) {
	c, err := LoadCourse("docking-run")
	if err != nil {
		b.Fatal(err)
	}
	s, err := NewSetup(c, Rules2023(), 7, nil)
	if err != nil {
		b.Fatal(err)
	}
	st, _, err := NewGame(s, []string{"A", "B", "C", "D"})
	if err != nil {
		b.Fatal(err)
	}
	var prog [Registers]int
	copy(prog[:], st.Robots[0].Hand)
	for _, mode := range []string{"Run", "Forecast"} {
		b.Run(mode, func(b *testing.B) {
			sim := NewSimulator(s, st)
			b.ReportAllocs()
			for b.Loop() {
				var err error
				if mode == "Run" {
					_, err = sim.Run(0, prog, nil)
				} else {
					_, err = sim.Forecast(0, prog, nil)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// The allocation-free shuffle of the deal gives the library's order, so games and
// archives dealt before it keep their cards.
func TestShuffleIntsMatchesRand(t *testing.T) {
	for seed := uint64(0); seed < 50; seed++ {
		for _, n := range []int{0, 1, 2, 7, 64, 84} {
			a := make([]int, n)
			for i := range a {
				a[i] = i
			}
			b := slices.Clone(a)
			shuffleInts(seed*7919, int(seed)%9, streamDeal, a)
			turnRNG(seed*7919, int(seed)%9, streamDeal).Shuffle(n, func(i, j int) { b[i], b[j] = b[j], b[i] })
			if !slices.Equal(a, b) {
				t.Fatalf("seed %d n %d: %v, library %v", seed, n, a, b)
			}
		}
	}
}

// Every robot holds three Crash & Burn options (each robot a different three), with no
// orders for them: the cost of asking the effects at every hook (issue 9: 10 µs or less).
func BenchmarkTurn8RobotsOptions(b *testing.B) {
	s, st, orders := benchGame(b)
	cards := DealtOptions(DeckCrashBurn)
	for i := range st.Robots {
		for k := 0; k < 3; k++ {
			st.Robots[i].Options = append(st.Robots[i].Options, cards[(3*i+k)%len(cards)])
		}
	}
	var rv Resolver
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := rv.Resolve(s, st, orders); err != nil {
			b.Fatal(err)
		}
	}
}

// armedBenchGame is benchGame with every robot holding a Homing Device tagged on the
// next robot and an Option Damping Field, and saying yes to both: homing and damping ask
// for blast distances (BlastDistances) many times a register.
func armedBenchGame(tb testing.TB) (*Setup, *State, []Orders) {
	s, st, orders := benchGame(tb)
	for i := range st.Robots {
		r := &st.Robots[i]
		r.Options = []string{"Homing Device", "Option Damping Field"}
		r.Tokens = []int{(i+1)%len(st.Robots) + 1, 0}
		orders[i].Decider = alwaysUse{}
	}
	return s, st, orders
}

// BenchmarkTurn8RobotsArmed is armedBenchGame's turn through a reused Resolver; it
// reports how many homing moves the turn played.
func BenchmarkTurn8RobotsArmed(b *testing.B) {
	s, st, orders := armedBenchGame(b)
	var rv Resolver
	homed := 0
	b.ReportAllocs()
	for b.Loop() {
		_, events, err := rv.Resolve(s, st, orders)
		if err != nil {
			b.Fatal(err)
		}
		homed = 0
		for _, e := range events {
			if e.Option == "Homing Device" {
				homed++
			}
		}
	}
	b.ReportMetric(float64(homed), "homing-events")
}

// Under the 2023 rules too the Simulator agrees with Simulate run after run, leaves the
// state it forecasts as it was (the mats it reuses are copies: energy, damage cards,
// discards, upgrades used), and a robot it returned (Run, or Forecast and Keep) keeps its
// mat through later runs.
func TestSimulatorMatchesSimulate2023(t *testing.T) {
	c, err := LoadCourse("docking-run")
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSetup(c, Rules2023(), 9, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := NewGame(s, []string{"A", "B", "C", "D"})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 9))
	random := func(r *Robot) [Registers]int {
		var prog [Registers]int
		hand := slices.Clone(r.Hand)
		rng.Shuffle(len(hand), func(a, b int) { hand[a], hand[b] = hand[b], hand[a] })
		for reg := range prog {
			if r.Mat.Haywire[reg] == 0 && len(hand) > 0 {
				prog[reg], hand = hand[0], hand[1:]
			}
		}
		return prog
	}
	checked := 0
	for round := 1; round <= 6 && !st.Over; round++ {
		for i := range st.Robots {
			// Upgrades that act on the others and pay energy.
			st.Robots[i].Options = []string{"Ramming Gear", "Mini Howitzer", "Deflector Shield", "Rear Laser"}
			st.Robots[i].Mat.Energy = 6
		}
		before, _ := json.Marshal(st)
		sim := NewSimulator(s, st)
		for i := range st.Robots {
			var kept []Robot
			var keptJSON []string
			for k := 0; k < 8; k++ {
				prog := random(&st.Robots[i])
				want, _, err := Simulate(s, st, i, Orders{Program: prog, Decider: alwaysUse{}})
				if err != nil {
					t.Fatal(err)
				}
				got, err := sim.Run(i, prog, alwaysUse{})
				if err != nil {
					t.Fatal(err)
				}
				jw, _ := json.Marshal(want)
				jg, _ := json.Marshal(got)
				if string(jw) != string(jg) {
					t.Fatalf("round %d robot %d: Simulator %s, Simulate %s", round, i, jg, jw)
				}
				kept, keptJSON = append(kept, got), append(keptJSON, string(jg))
				// Forecast reads the same robot in the Simulator's memory, and Keep
				// copies it out as Run does.
				in, err := sim.Forecast(i, prog, alwaysUse{})
				if err != nil {
					t.Fatal(err)
				}
				if j, _ := json.Marshal(in); string(j) != string(jw) {
					t.Fatalf("round %d robot %d: Forecast %s, Simulate %s", round, i, j, jw)
				}
				got = sim.Keep(i, in)
				jg, _ = json.Marshal(got)
				kept, keptJSON = append(kept, got), append(keptJSON, string(jg))
				checked++
			}
			for k := range kept {
				if j, _ := json.Marshal(kept[k]); string(j) != keptJSON[k] {
					t.Errorf("round %d robot %d: run %d's robot changed under later runs", round, i, k)
				}
			}
		}
		if after, _ := json.Marshal(st); string(before) != string(after) {
			t.Fatalf("round %d: forecasts changed the state", round)
		}
		orders := make([]Orders, len(st.Robots))
		for i := range st.Robots {
			orders[i] = Orders{Program: random(&st.Robots[i]), Decider: alwaysUse{}}
		}
		if st, _, err = Resolve(s, st, orders); err != nil {
			t.Fatal(err)
		}
	}
	if checked == 0 {
		t.Fatal("nothing checked")
	}
}

// alwaysUse answers yes to every upgrade's question.
type alwaysUse struct{ Defaults }

func (alwaysUse) Option(View, string, string) string { return "yes" }
