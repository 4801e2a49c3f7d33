package adjudicator

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// The Armed and Dangerous floor (seed 001): board tokens, their checks, and the parts of
// the engine a scenario cannot show (forecasts, determinism, refusals).

func TestParseArmedFloorTokens(t *testing.T) {
	bf, err := ParseBoard("a.board", "board a 4x2\n~ ~E T ?\nD ~W|S . f1\n")
	if err != nil {
		t.Fatal(err)
	}
	at := func(x, y int) Square { return *bf.Board.At(Pos{x, y}) }
	checks := []struct {
		name      string
		got, want any
	}{
		{"water", at(0, 0).Water, true},
		{"still water has no current", at(0, 0).Current, uint8(0)},
		{"current is water", at(1, 0).Water, true},
		{"current east", at(1, 0).Current, uint8(East) + 1},
		{"teleporter", at(2, 0).Teleporter, true},
		{"randomizer", at(3, 0).Randomizer, true},
		{"drain is a pit", at(0, 1).Floor, FloorPit},
		{"drain", at(0, 1).Drain, true},
		{"current west with a wall", at(1, 1).Current, uint8(West) + 1},
		{"wall", at(1, 1).Walls, Edges(0).With(South)},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
	out := FormatBoard(bf)
	again, err := ParseBoard("a.board", out)
	if err != nil || !reflect.DeepEqual(bf, again) {
		t.Errorf("round trip: %v\n%s", err, out)
	}
	if !strings.Contains(out, "D ") || !strings.Contains(out, "~E") || !strings.Contains(out, "?") {
		t.Errorf("formatted board lost a token:\n%s", out)
	}
}

func TestParseArmedFloorErrors(t *testing.T) {
	cases := []struct{ name, row, want string }{
		{"current with a bad side", "~Q", "~N, ~E, ~S, ~W"},
		{"current twice", "~NE", "~N, ~E, ~S, ~W"},
		{"teleporter with a suffix", "T1", "T alone"},
		{"randomizer with a suffix", "?x", "? alone"},
		{"drain with a suffix", "D2", "D alone"},
		{"drain holds nothing else", "D+w1", "a pit or drain holds nothing else"},
		{"drain and pit", "D+X", "second pit"},
		{"water on a belt", "~+bE", "a water and a belt"},
		{"teleporter in water", "T+~", "a teleporter and a water"},
		{"randomizer on a gear", "?+gL", "a randomizer and a gear"},
		{"teleporter on oil", "T+o", "a teleporter and a oil slick"},
		{"water with a portal", "~+t1", "a water and a portal"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseBoard("a.board", "board a 1x1\n"+c.row+"\n")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%q: got %v, want an error with %q", c.row, err, c.want)
			}
			if err != nil && !strings.Contains(err.Error(), "a.board:2:") {
				t.Errorf("%q: error %v does not say where", c.row, err)
			}
		})
	}
	// Water may share a square with a pusher, a laser, a repair site, a flag or a start.
	for _, ok := range []string{"~+pE1|W", "~N+lS1|N", "~+w1", "~+f1", "~+s1"} {
		if _, err := ParseBoard("a.board", "board a 1x1\n"+ok+"\n"); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
}

func TestRotatedCurrent(t *testing.T) {
	bf, err := ParseBoard("r", "board r 2x1\n~N .\n")
	if err != nil {
		t.Fatal(err)
	}
	for q, want := range []Dir{North, East, South, West} {
		r := bf.Board.Rotated(q)
		found := false
		for _, s := range r.Squares {
			if s.Current != 0 {
				found = true
				if got := Dir(s.Current - 1); got != want {
					t.Errorf("rotate %d: current flows %v, want %v", q, got, want)
				}
			}
		}
		if !found {
			t.Errorf("rotate %d: the current is gone", q)
		}
	}
}

// armedSetup is a one-board setup for the tests below.
func armedSetup(t *testing.T, rows string, rules Rules, seed uint64) *Setup {
	t.Helper()
	bf, err := ParseBoardRows("t", 1, strings.Split(rows, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSetup(bf.Course(), rules, seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestCurrentsNeedTheirStep(t *testing.T) {
	bf, err := ParseBoardRows("t", 1, []string{"~E . f1 s1"})
	if err != nil {
		t.Fatal(err)
	}
	rules := PostalRules()
	rules.Elements = slices.DeleteFunc(rules.Elements, func(s string) bool { return s == "currents" })
	if _, err := NewSetup(bf.Course(), rules, 1, nil); err == nil || !strings.Contains(err.Error(), "currents") {
		t.Errorf("a course with currents and no currents step: got %v", err)
	}
	if _, err := NewSetup(bf.Course(), PostalRules(), 1, nil); err != nil {
		t.Errorf("postal rules: %v", err)
	}
}

func TestRandomizersRefusedIn2023(t *testing.T) {
	bf, err := ParseBoardRows("t", 1, []string{"? . f1 s1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewSetup(bf.Course(), Rules2023(), 1, nil); err == nil || !strings.Contains(err.Error(), "Armed and Dangerous") {
		t.Errorf("2023 rules with a randomizer: got %v", err)
	}
}

// randomizerTurn plays one register for two robots, A on a randomizer, and returns the
// card A drew (0 if none).
func randomizerTurn(t *testing.T, seed uint64) (drawn int, dealt []int) {
	t.Helper()
	s := armedSetup(t, ". . . f1\n. ? . .\n. . . s1", PostalRules(), seed)
	st := &State{Turn: 3, Robots: []Robot{
		{Name: "A", Pos: Pos{1, 1}, Facing: North, Lives: 3, Hand: []int{490, 500, 510, 520, 530, 540, 550, 560, 570}},
		{Name: "B", Pos: Pos{3, 2}, Facing: North, Lives: 3, Hand: []int{70, 80, 90, 100, 110, 120, 130, 140, 150}},
	}}
	orders := []Orders{
		{Program: [Registers]int{490, 500, 510, 520, 530}},
		{Program: [Registers]int{70, 80, 90, 100, 110}},
	}
	_, events, err := ResolveUntil(s, st, orders, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		if e.Kind == EvRandomized && e.Robot == "A" {
			if e.Amount != 490 {
				t.Errorf("randomized: replaced %d, want 490", e.Amount)
			}
			drawn = e.Card
		}
	}
	return drawn, append(slices.Clone(st.Robots[0].Hand), st.Robots[1].Hand...)
}

func TestRandomizerDrawsAnUndealtCardBySeed(t *testing.T) {
	seen := map[int]bool{}
	for seed := uint64(1); seed <= 20; seed++ {
		c, dealt := randomizerTurn(t, seed)
		if c == 0 {
			t.Fatalf("seed %d: no card drawn", seed)
		}
		if slices.Contains(dealt, c) {
			t.Errorf("seed %d: drew P%d, a card dealt this turn", seed, c)
		}
		if StandardDeck().Kind(c) == NoCard {
			t.Errorf("seed %d: drew P%d, not a card", seed, c)
		}
		if again, _ := randomizerTurn(t, seed); again != c {
			t.Errorf("seed %d: drew P%d, then P%d: not deterministic", seed, c, again)
		}
		seen[c] = true
	}
	if len(seen) < 5 {
		t.Errorf("20 seeds drew only %d different cards: %v", len(seen), seen)
	}
}

func TestRandomizerForecastKnowsNoCard(t *testing.T) {
	s := armedSetup(t, ". . . f1\n. ? . .\n. . . s1", PostalRules(), 9)
	st := &State{Turn: 1, Robots: []Robot{
		{Name: "A", Pos: Pos{1, 1}, Facing: North, Lives: 3, Hand: []int{490, 70, 90, 110, 130}},
	}}
	r, events, err := Simulate(s, st, 0, Orders{Program: [Registers]int{490, 70, 90, 110, 130}})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range events {
		if e.Kind == EvRandomized {
			n++
			if e.Card != 0 || e.Amount != 490 {
				t.Errorf("forecast randomized event %+v: want no card, amount 490", e)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d randomized events in the forecast, want 1 (register 1 only: the robot leaves)", n)
	}
	if r.Pos != (Pos{1, 0}) {
		t.Errorf("forecast plays the robot's own cards: at %v, want 1,0 after its Move 1", r.Pos)
	}
}

// seed 001's option variants as rules settings (variants.go): the playable ones are
// accepted, the others refused by name rather than played as nothing.
func TestOptionVariantSettings(t *testing.T) {
	r := PostalRules()
	if err := r.Set("option_package", "standard"); err != nil {
		t.Fatal(err)
	}
	if err := r.Set("turbo_wrenches", "true"); err != nil {
		t.Fatal(err)
	}
	if err := r.Check(); err != nil {
		t.Errorf("standard package with turbo wrenches: %v", err)
	}
	for _, bad := range []string{"super-deluxe", "scavenger", "STANDARD"} {
		r := PostalRules()
		r.OptionPackage = bad
		if err := r.Check(); err == nil {
			t.Errorf("option package %q accepted", bad)
		}
	}
	r2 := Rules2023()
	r2.TurboWrenches = true
	if err := r2.Check(); err == nil {
		t.Error("Turbo Wrenches accepted in the 2023 rules")
	}
}

// useAll answers yes to every option question (the test's standing "use" order), but
// no to an exchange of hands when noSwap.
type useAll struct {
	Defaults
	noSwap bool
}

func (u useAll) Option(_ View, _ string, q string) string {
	if u.noSwap && strings.Contains(q, "exchange") {
		return "no"
	}
	return "yes"
}

// seed 001, Interceptor: the exchange keeps every card and both hand sizes; the robot
// with fewer cards gives its whole hand away.
func TestInterceptorExchangeKeepsCards(t *testing.T) {
	s := armedSetup(t, ". . . . .\n. . . . f1\ns1 . . . .", PostalRules(), 741)
	s.Effects = effectList()
	st := &State{Turn: 1, Robots: []Robot{
		{Name: "A", Pos: Pos{1, 0}, Facing: North, Lives: 3, Options: []string{"Interceptor"}, Hand: []int{80, 70, 100, 90, 120}},
		{Name: "B", Pos: Pos{3, 0}, Facing: North, Lives: 3, Damage: 3, Hand: []int{10, 20, 30, 40, 50}},
	}}
	play := func(d Decider) *State {
		orders := []Orders{{Program: [Registers]int{80, 70, 100, 90, 120}, Decider: d}, {Program: [Registers]int{10, 20, 30, 40, 50}}}
		next, _, err := Resolve(s, st, orders)
		if err != nil {
			t.Fatal(err)
		}
		return next
	}
	plain, swapped := play(useAll{noSwap: true}), play(useAll{})
	ha, hb := plain.Robots[0].Hand, plain.Robots[1].Hand
	a, b := swapped.Robots[0].Hand, swapped.Robots[1].Hand
	if len(a) != len(ha) || len(b) != len(hb) || len(hb) >= len(ha) {
		t.Fatalf("hand sizes %d, %d after; %d, %d dealt", len(a), len(b), len(ha), len(hb))
	}
	for _, c := range hb {
		if !slices.Contains(a, c) {
			t.Errorf("B's dealt card P%d is not in A's hand %v: B (fewer cards) gives its whole hand", c, a)
		}
	}
	for _, c := range b {
		if !slices.Contains(ha, c) {
			t.Errorf("B's new card P%d was not in A's dealt hand %v", c, ha)
		}
	}
	all := append(slices.Clone(a), b...)
	slices.Sort(all)
	want := append(slices.Clone(ha), hb...)
	slices.Sort(want)
	if !slices.Equal(all, want) {
		t.Errorf("cards after %v, before %v", all, want)
	}
	if tok := swapped.Robots[0].Tokens; len(tok) > 0 && tok[0] != 0 {
		t.Errorf("the intercept token is still out: %v", tok)
	}
}
