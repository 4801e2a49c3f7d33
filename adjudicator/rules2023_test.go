package adjudicator

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestRulesCheck(t *testing.T) {
	bad := func(f func(*Rules)) Rules { r := Rules2023(); f(&r); return r }
	postal := func(f func(*Rules)) Rules { r := PostalRules(); f(&r); return r }
	tests := []struct {
		name  string
		rules Rules
		want  string
	}{
		{"postal", PostalRules(), ""},
		{"2023", Rules2023(), ""},
		{"2023 less deadly", bad(func(r *Rules) { r.EdgeWalls = true }), ""},
		{"stored postal rules without a name", postal(func(r *Rules) { r.Name = "" }), ""},
		{"unknown name", postal(func(r *Rules) { r.Name = "2016" }), `unknown ruleset "2016"`},
		{"postal named 2023", postal(func(r *Rules) { r.Name = "2023" }), "another ruleset's"},
		{"own decks alone", postal(func(r *Rules) { r.Cards = "own" }), "another ruleset's"},
		{"own decks alone, no name", postal(func(r *Rules) { r.Cards, r.Name = "own", "" }), "come together"},
		{"2023 without reboot", bad(func(r *Rules) { r.Fall = "" }), "come together"},
		{"unknown part value", bad(func(r *Rules) { r.Order = "random" }), `order "random"`},
		{"energy start above max", bad(func(r *Rules) { r.EnergyStart = 11 }), "energy starts at 11"},
		{"negative energy", bad(func(r *Rules) { r.EnergyMax = -1 }), "energy"},
		{"hand too small", bad(func(r *Rules) { r.HandSize = 4 }), "hand size 4"},
		{"energy in postal", postal(func(r *Rules) { r.EnergyMax = 10 }), "belong to the 2023 rules"},
		{"options in 2023", bad(func(r *Rules) { r.MaxOptions = 3 }), "no option cards"},
		// impossible postal games (an archive's or a scenario's rules are outside input)
		{"destroyed before any hit", postal(func(r *Rules) { r.DestroyAt = 0 }), "destroy_at 0"},
		{"never destroyed", postal(func(r *Rules) { r.DestroyAt = 1 << 40 }), "destroy_at"},
		{"no lives", postal(func(r *Rules) { r.BaseLives = 0 }), "base_lives 0"},
		{"a life per 99999999999 lives", postal(func(r *Rules) { r.BaseLives = 99999999999 }), "base_lives"},
		{"negative bonus", postal(func(r *Rules) { r.LifePerPlayers = -1 }), "life_per_players"},
		{"bonus out of reach", postal(func(r *Rules) { r.LifePerBoards = 1000 }), "life_per_boards"},
		{"option hand", postal(func(r *Rules) { r.MaxOptions = 1000 }), "max_options"},
		{"no bonus lives", postal(func(r *Rules) { r.LifePerBoards, r.LifePerPlayers = 0, 0 }), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.rules.Check()
			got := ""
			if err != nil {
				got = err.Error()
			}
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// The postal rules' JSON carries none of the 2023 parts: stored postal games and their
// archive sums do not change with them.
func TestPostalRulesJSONUnchanged(t *testing.T) {
	b, err := json.Marshal(PostalRules())
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"cards", "order", "damage", "fall", "energy_start", "energy_max", "checkpoint_covers", "edge_walls", "discard_spam"} {
		if _, ok := m[k]; ok {
			t.Errorf("postal rules JSON has the 2023 part %q: %s", k, b)
		}
	}
	var back Rules
	if err := json.Unmarshal([]byte(`{"name":"2023","cards":"own","order":"token","damage":"cards","fall":"reboot","hand_size":9,"energy_max":10,"energy_start":3,"elements":["blue"]}`), &back); err != nil || back.Check() != nil || !back.Own() {
		t.Errorf("2023 rules from JSON: %+v %v", back, back.Check())
	}
}

func TestRulesByName(t *testing.T) {
	for _, n := range []string{"", "postal", "2023"} {
		if _, err := RulesByName(n); err != nil {
			t.Errorf("%q: %v", n, err)
		}
	}
	if _, err := RulesByName("Postal"); err == nil || !strings.Contains(err.Error(), "postal or 2023") {
		t.Errorf("Postal: %v", err)
	}
}

func TestCards2023(t *testing.T) {
	cs := Cards2023()
	if len(cs.Program) != 20 || len(cs.Damage) != 40 {
		t.Fatalf("program %d, damage %d cards; seed 004 says 20 and 40", len(cs.Program), len(cs.Damage))
	}
	count := func(xs []int, k CardKind) int {
		return len(slices.DeleteFunc(slices.Clone(xs), func(c int) bool { return CardKind(c) != k }))
	}
	for k, n := range map[CardKind]int{CardMove1: 4, CardMove2: 3, CardMove3: 1, CardBackUp: 1, CardLeft: 4, CardRight: 4, CardUTurn: 1, CardPowerUp: 1, CardAgain: 1} {
		if got := count(cs.Program, k); got != n {
			t.Errorf("%s: %d copies, seed 004 says %d", k.Title(), got, n)
		}
	}
	if got := count(cs.Damage, CardSpam); got != 32 {
		t.Errorf("%d SPAM", got)
	}
	for _, bad := range []struct{ text, want string }{
		{"program spam 2", "is a damage card"},
		{"damage move1 2", "not a damage card"},
		{"program move1", "want"},
		{"program move9 2", "unknown card kind"},
		{"program move1 0", "not 1-100"},
		{"hand move1 2", "section"},
		{"program move1 4", "at least 10 program cards"},
	} {
		if _, err := ParseCardSet(bad.text); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: %v, want %q", bad.text, err, bad.want)
		}
	}
}

func TestParseCardName(t *testing.T) {
	for in, want := range map[string]CardKind{
		"move1": CardMove1, "Move 2": CardMove2, "MOVE-3": CardMove3, "back": CardBackUp, "Move Back": CardBackUp,
		"Back Up": CardBackUp, "left": CardLeft, "Rotate Right": CardRight, "U-Turn": CardUTurn, "uturn": CardUTurn,
		"Power Up": CardPowerUp, "again": CardAgain, "SPAM": CardSpam, "lurch": CardHaywire1, "Haywire Surge": CardHaywire4,
	} {
		if got, ok := ParseCardName(in); !ok || got != want {
			t.Errorf("%q: got %v %v, want %v", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "P490", "move4", "none", "turn"} {
		if k, ok := ParseCardName(in); ok {
			t.Errorf("%q read as %v", in, k)
		}
	}
}

// game2023 is a 2023 game on the bench floor with its repair sites and crusher taken
// out (the 2023 rules refuse them), batteries in their place and a reboot token in each
// half.
func game2023(t testing.TB, robots int) (*Setup, *State, []Orders) {
	t.Helper()
	c := testCourse(t)
	b := c.Board.Clone()
	for k := range b.Squares {
		sq := &b.Squares[k]
		if sq.Repair > 0 {
			sq.Repair, sq.Battery = 0, true
		}
		sq.Crusher = 0
	}
	b.At(Pos{0, 11}).Reboot = RebootToken{On: true, Dir: North}
	b.At(Pos{23, 11}).Reboot = RebootToken{On: true, Dir: North}
	c.Board = b
	c.Starts = nil
	for i := 0; i < robots; i++ {
		c.Starts = append(c.Starts, Start{Pos: Pos{2 + 3*i, 11}, Facing: North})
	}
	s, err := NewSetup(c, Rules2023(), 42, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"A", "B", "C", "D", "E", "F", "G", "H"}[:robots]
	st, _, err := NewGame(s, names)
	if err != nil {
		t.Fatal(err)
	}
	spots := []Pos{{2, 1}, {4, 4}, {3, 5}, {7, 7}, {14, 1}, {16, 4}, {19, 6}, {10, 10}}
	orders := make([]Orders, robots)
	for i := range st.Robots {
		r := &st.Robots[i]
		r.Pos, r.Facing = spots[i], Dir(i%4)
		// Moves first in the hand, then the rest: a busy program.
		h := slices.Clone(r.Hand)
		slices.SortFunc(h, func(a, b int) int { return CardKind(b).Steps() - CardKind(a).Steps() })
		copy(orders[i].Program[:], h[:Registers])
	}
	return s, st, orders
}

func TestNewSetup2023RefusesPostalElements(t *testing.T) {
	c := testCourse(t)
	if _, err := NewSetup(c, Rules2023(), 1, nil); err == nil || !strings.Contains(err.Error(), "holds a repair site, which the 2023 rules do not play") {
		t.Errorf("got %v", err)
	}
	// The engine's floor loses the elements under checkpoints; the course does not.
	s, _, _ := game2023(t, 2)
	for _, f := range s.Course.Flags {
		if sq := s.Course.Board.At(f); sq.Belt.Kind != NoBelt || sq.Gear != NoRotation || sq.Battery {
			t.Errorf("checkpoint %v still has elements: %+v", f, sq)
		}
	}
}

func TestCheckOwnProgram(t *testing.T) {
	s, st, _ := game2023(t, 2)
	r := &st.Robots[0]
	r.Hand = []int{int(CardMove1), int(CardMove1), int(CardLeft), int(CardSpam), int(CardAgain), int(CardUTurn)}
	r.Mat.Haywire[3] = int(CardHaywire3)
	k := func(ks ...CardKind) (p [Registers]int) {
		for i, x := range ks {
			p[i] = int(x)
		}
		return p
	}
	tests := []struct {
		prog [Registers]int
		want string
	}{
		{k(CardMove1, CardMove1, CardSpam, NoCard, CardAgain), ""},
		{k(CardAgain, CardMove1, CardLeft, NoCard, CardUTurn), ""},
		{k(CardMove1, CardMove1, CardMove1, NoCard, CardLeft), "you hold 2 Move 1"},
		{k(CardMove1, CardMove2, CardLeft, NoCard, CardUTurn), "Move 2 is not in your hand"},
		{k(CardMove1, CardMove1, CardLeft, CardSpam, CardUTurn), "face-down Haywire Stall"},
		{k(CardMove1, CardMove1, CardLeft, NoCard, NoCard), "no card"},
		{k(CardHaywire1, CardMove1, CardLeft, NoCard, CardUTurn), "not a card you can program"},
		{[Registers]int{490, 5, 5, 0, 2}, "not a card you can program"},
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
	// A shutdown needs no program; under the postal rules there is no shutdown.
	if errs := s.CheckOrders(st, 0, Orders{Shutdown: true}); len(errs) > 0 {
		t.Errorf("shutdown: %v", errs)
	}
	ps, pst, porders := benchGame(t)
	porders[0].Shutdown = true
	if _, _, err := Resolve(ps, pst, porders); err == nil || !strings.Contains(err.Error(), "shutdown belongs to the 2023 rules") {
		t.Errorf("postal shutdown: %v", err)
	}
}

// A 2023 turn is a function of (state, orders, seed): the same bytes twice; the piles and
// hands keep every robot's 20 cards, and damage cards are neither made nor lost.
func TestTurn2023Deterministic(t *testing.T) {
	s, st, orders := game2023(t, 6)
	next, ev, err := Resolve(s, st, orders)
	if err != nil {
		t.Fatal(err)
	}
	again, _, _ := Resolve(s, st, orders)
	ja, _ := json.Marshal(next)
	jb, _ := json.Marshal(again)
	if string(ja) != string(jb) {
		t.Fatal("same seed, state and orders: different results")
	}
	if len(ev) == 0 {
		t.Fatal("no events")
	}
	state := next
	for turn := 0; turn < 6 && !state.Over; turn++ {
		damage := len(state.DamageDeck) + len(state.DamageDiscard)
		for _, r := range state.Robots {
			program := 0
			for _, c := range append(append(append(slices.Clone(r.Hand), r.Mat.Deck...), r.Mat.Discard...), r.Registers[:]...) {
				switch {
				case c == 0:
				case CardKind(c).Damage():
					damage++
				default:
					program++
				}
			}
			for _, hw := range r.Mat.Haywire {
				if hw != 0 {
					damage++
				}
			}
			if program != 20 {
				t.Fatalf("turn %d: %s has %d programming cards, want its 20", state.Turn, r.Name, program)
			}
			if len(r.Hand) != 9 && !r.Destroyed {
				t.Errorf("turn %d: %s holds %d cards", state.Turn, r.Name, len(r.Hand))
			}
		}
		if damage != 40 {
			t.Fatalf("turn %d: %d damage cards in play, want 40", state.Turn, damage)
		}
		os := make([]Orders, len(state.Robots))
		for i := range state.Robots {
			r := &state.Robots[i]
			h := slices.Clone(r.Hand)
			n := 0
			for reg := 0; reg < Registers; reg++ {
				if r.Mat.Haywire[reg] != 0 {
					continue
				}
				os[i].Program[reg] = h[n]
				n++
			}
		}
		if state, _, err = Resolve(s, state, os); err != nil {
			t.Fatal(err)
		}
	}
}

func Test2023BoardTokens(t *testing.T) {
	bf, err := ParseBoard("t.board", "board t 3x1\ne @E e+@S|N\n")
	if err != nil {
		t.Fatal(err)
	}
	b := bf.Board
	if !b.At(Pos{0, 0}).Battery || b.At(Pos{1, 0}).Reboot != (RebootToken{On: true, Dir: East}) || !b.At(Pos{2, 0}).Battery {
		t.Errorf("squares %+v", b.Squares)
	}
	if out := FormatBoard(bf); !strings.Contains(out, "e+@S|N") {
		t.Errorf("format:\n%s", out)
	}
	if r := b.Rotated(1).At(Pos{0, 1}).Reboot; r != (RebootToken{On: true, Dir: South}) {
		t.Errorf("rotated token %+v", r)
	}
	for _, bad := range []string{"@", "@X", "@NE", "e2", "X+e"} {
		if _, err := ParseBoard("t.board", "board t 1x1\n"+bad+"\n"); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// R-REBOOT-BOARD: on a course of two boards, a robot reboots on the token of the board
// it fell from, not the nearest one.
func TestRebootTokenOfTheBoardFallenFrom(t *testing.T) {
	boards := map[string]string{
		"left":  "board left 3x3\n.  .  @E\n.  .  X\n.  .  .\n",
		"right": "board right 3x3\n@W .  .\n.  .  f1\n.  .  .\n",
	}
	c, err := ParseCourse("t.course", "course t\nplayers 1-2\nplace left at 0,0\nplace right at 3,0\nstart 1 at 0,2\nstart 2 at 1,2\n", func(n string) (*BoardFile, error) {
		return ParseBoard(n+".board", boards[n])
	})
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSetup(c, Rules2023(), 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := NewGame(s, []string{"A"})
	if err != nil {
		t.Fatal(err)
	}
	tr := &turn{setup: s, st: st, single: -1}
	for _, tc := range []struct {
		fell, want Pos
	}{
		{Pos{2, 1}, Pos{2, 0}}, // the pit on the left board: its own token, though 3,0 is as near
		{Pos{6, 1}, Pos{3, 0}}, // off the right board's east edge
		{Pos{-1, 2}, Pos{2, 0}},
	} {
		st.Robots[0].Pos = tc.fell
		if got, _ := tr.rebootSquare(0); got != tc.want {
			t.Errorf("fell at %v: reboots at %v, want %v", tc.fell, got, tc.want)
		}
	}
}

func BenchmarkTurn6Robots2023(b *testing.B) {
	s, st, orders := game2023(b, 6)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Resolve(s, st, orders); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTurn6RobotsPostal is the postal turn on the same floor with the same number of
// robots, to compare with BenchmarkTurn6Robots2023.
func BenchmarkTurn6RobotsPostal(b *testing.B) {
	s, st, orders := benchGame(b)
	st.Robots = st.Robots[:6]
	orders = orders[:6]
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Resolve(s, st, orders); err != nil {
			b.Fatal(err)
		}
	}
}

func TestUpgrades2023(t *testing.T) {
	want := map[string]int{"Brakes": 2, "Deflector Shield": 2, "Double-Barrel Laser": 2, "Hover Unit": 1, "Mini Howitzer": 3,
		"Ramming Gear": 2, "Rear Laser": 2, "Abort Switch": 1, "Boink": 1, "Recharge": 0, "Zoop": 1, "Memory Swap": 2}
	us := Upgrades2023()
	if len(us) != len(want) {
		t.Fatalf("%d upgrades, seed 004 names %d", len(us), len(want))
	}
	effects := map[string]bool{}
	for _, e := range upgradeEffects() {
		effects[e.Option()] = true
	}
	for _, u := range us {
		if cost, ok := want[u.Name]; !ok || cost != u.Cost {
			t.Errorf("%s costs %d (seed 004: %d, listed %v)", u.Name, u.Cost, cost, ok)
		}
		temporary := slices.Contains([]string{"Abort Switch", "Boink", "Recharge", "Zoop", "Memory Swap"}, u.Name)
		if u.Temporary != temporary {
			t.Errorf("%s temporary %v", u.Name, u.Temporary)
		}
		if !effects[u.Name] {
			t.Errorf("%s has no effect", u.Name)
		}
	}
	for _, bad := range []struct{ text, want string }{
		{"Zoop | temporary | 1 | 2", "want"},
		{"Zoop | red | 1 | 2 | x", "neither permanent nor temporary"},
		{"Zoop | temporary | -1 | 2 | x", "cost 0-10"},
		{"Zoop | temporary | 1 | 2 | x\nzoop | temporary | 1 | 2 | x", "twice"},
	} {
		if _, err := ParseUpgrades(bad.text); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: %v, want %q", bad.text, err, bad.want)
		}
	}
	if _, err := NewSetup(testCourseFor2023(t), Rules2023(), 1, []string{"Turbo Blaster"}); err == nil || !strings.Contains(err.Error(), "not a 2023 upgrade") {
		t.Errorf("a postal option in a 2023 upgrade deck: %v", err)
	}
}

func testCourseFor2023(t *testing.T) *Course {
	s, _, _ := game2023(t, 1)
	return s.Course
}

func TestCheckUpgradeOrders(t *testing.T) {
	s, st, orders := game2023(t, 2)
	r := &st.Robots[0]
	r.Mat.Energy = 3
	r.Options = []string{"Brakes", "Rear Laser", "Ramming Gear", "Zoop"}
	r.Mat.Collection = []string{"Hover Unit", "Mini Howitzer", "Boink"}
	tests := []struct {
		u    UpgradeOrders
		want string
	}{
		{UpgradeOrders{Draw: true}, ""},
		{UpgradeOrders{Install: "Boink", Draw: true}, ""},
		{UpgradeOrders{Uninstall: []string{"Brakes"}, Install: "hover unit"}, ""},
		{UpgradeOrders{Install: "Hover Unit"}, "3 permanent upgrades are installed already"},
		{UpgradeOrders{Install: "Recharge"}, "not among your uninstalled upgrades"},
		{UpgradeOrders{Install: "Warp Drive"}, `"Warp Drive" is not an upgrade`},
		{UpgradeOrders{Uninstall: []string{"Boink"}}, "Boink is not installed"},
		{UpgradeOrders{Uninstall: []string{"Brakes"}, Install: "Mini Howitzer", Draw: true}, "costs 4 energy and the robot has 3"},
	}
	for _, tc := range tests {
		o := orders[0]
		o.Upgrade = tc.u
		errs := s.CheckOrders(st, 0, o)
		got := ""
		if len(errs) > 0 {
			got = errs[0].Error()
		}
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%+v: got %q, want %q", tc.u, got, tc.want)
		}
	}
	// seed 004, Upgrade Limits: "Maximum 3 temporary upgrades installed at a time", apart
	// from the permanent ones.
	r.Options = []string{"Brakes", "Zoop", "Abort Switch", "Recharge"}
	for _, tc := range []struct {
		u    UpgradeOrders
		want string
	}{
		{UpgradeOrders{Install: "Boink"}, "3 temporary upgrades are installed already"},
		{UpgradeOrders{Uninstall: []string{"Zoop"}, Install: "Boink"}, ""},
		{UpgradeOrders{Uninstall: []string{"Brakes"}, Install: "Boink"}, "3 temporary upgrades are installed already"},
		{UpgradeOrders{Install: "Hover Unit"}, ""},
	} {
		o := orders[0]
		o.Upgrade = tc.u
		got := ""
		if errs := s.CheckOrders(st, 0, o); len(errs) > 0 {
			got = errs[0].Error()
		}
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("temporary limit %+v: got %q, want %q", tc.u, got, tc.want)
		}
	}
	ps, pst, porders := benchGame(t)
	porders[0].Upgrade = UpgradeOrders{Draw: true}
	if _, _, err := Resolve(ps, pst, porders); err == nil || !strings.Contains(err.Error(), "upgrade phase belongs to the 2023 rules") {
		t.Errorf("postal upgrade orders: %v", err)
	}
}

// The shipped 2023 course plays: six robots for twenty rounds of plain programs, every
// card kept, every robot on the floor or rebooting.
func TestDockingRunPlays(t *testing.T) {
	c, err := LoadCourse("docking-run")
	if err != nil {
		t.Fatal(err)
	}
	rules, err := RulesByName(c.Rules)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSetup(c, rules, 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewSetup(c, PostalRules(), 7, nil); err == nil || !strings.Contains(err.Error(), "made for the 2023 rules") {
		t.Errorf("postal rules on docking-run: %v", err)
	}
	st, _, err := NewGame(s, []string{"A", "B", "C", "D", "E", "F"})
	if err != nil {
		t.Fatal(err)
	}
	rebooted := 0
	for round := 0; round < 20 && !st.Over; round++ {
		os := make([]Orders, len(st.Robots))
		for i := range st.Robots {
			r := &st.Robots[i]
			h := slices.Clone(r.Hand)
			// Moves first: robots go somewhere.
			slices.SortFunc(h, func(a, b int) int { return CardKind(b).Steps() - CardKind(a).Steps() })
			n := 0
			for reg := 0; reg < Registers; reg++ {
				if r.Mat.Haywire[reg] == 0 {
					os[i].Program[reg] = h[n]
					n++
				}
			}
			os[i].Upgrade.Draw = r.Mat.Energy >= 4
		}
		var ev []Event
		if st, ev, err = Resolve(s, st, os); err != nil {
			t.Fatalf("round %d: %v", round+1, err)
		}
		for _, e := range ev {
			if e.Kind == EvReboot {
				rebooted++
			}
		}
	}
	if rebooted == 0 {
		t.Error("twenty rounds of moves first and nobody ever fell: the test plays nothing")
	}
}

func TestLighterGame(t *testing.T) {
	c := testCourseFor2023(t)
	r := Rules2023()
	r.Lighter = true
	if err := r.Check(); err == nil || !strings.Contains(err.Error(), "no energy") {
		t.Errorf("lighter with energy: %v", err)
	}
	r.EnergyStart, r.EnergyMax = 0, 0
	if _, err := NewSetup(c, r, 1, []string{"Zoop"}); err == nil || !strings.Contains(err.Error(), "no upgrades") {
		t.Errorf("lighter with an upgrade deck: %v", err)
	}
	s, err := NewSetup(c, r, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k := range s.Course.Board.Squares {
		if s.Course.Board.Squares[k].Battery {
			t.Fatalf("a battery left on the lighter game's floor at %d", k)
		}
	}
	st, _, err := NewGame(s, []string{"A"})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.OptionDeck) != 0 || st.Robots[0].Mat.Energy != 0 {
		t.Errorf("upgrade deck %v, energy %d", st.OptionDeck, st.Robots[0].Mat.Energy)
	}
	if errs := s.CheckOrders(st, 0, Orders{Shutdown: true, Upgrade: UpgradeOrders{Draw: true}}); len(errs) == 0 || !strings.Contains(errs[0].Msg, "no upgrades") {
		t.Errorf("upgrade orders in the lighter game: %v", errs)
	}
}

// The 2023 rules deal the upgrade deck, as NewSetup does without options; the lighter
// game deals none.
func TestDealt2023(t *testing.T) {
	c, err := LoadCourse("docking-run")
	if err != nil {
		t.Fatal(err)
	}
	r := Rules2023()
	s, err := NewSetup(c, r, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Dealt(); !slices.Equal(got, s.Options) || len(got) != 24 {
		t.Errorf("Dealt %v, NewSetup deals %v", got, s.Options)
	}
	if _, err := NewSetup(c, r, 1, r.Dealt()); err != nil {
		t.Errorf("the dealt deck is refused: %v", err)
	}
	r.Lighter, r.EnergyStart, r.EnergyMax = true, 0, 0
	if got := r.Dealt(); len(got) != 0 {
		t.Errorf("the lighter game deals %v", got)
	}
	if _, err := NewSetup(c, r, 1, r.Dealt()); err != nil {
		t.Errorf("the lighter game's dealt deck is refused: %v", err)
	}
}
