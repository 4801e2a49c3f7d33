package adjudicator

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// Every tile token reads, writes back the same, and turns with the board.
func TestTileTokensRoundTrip(t *testing.T) {
	text := "board tiles 4x3\n" +
		"o     t1    h1+rW  qNE\n" +
		"dE24  $     m135   k\n" +
		"k24   t1    h2     .|S\n"
	bf, err := ParseBoard("tiles.board", text)
	if err != nil {
		t.Fatal(err)
	}
	b := bf.Board
	checks := []struct {
		p    Pos
		ok   bool
		what string
	}{
		{Pos{0, 0}, b.At(Pos{0, 0}).Oil, "oil"},
		{Pos{1, 0}, b.At(Pos{1, 0}).Portal == 1, "portal 1"},
		{Pos{2, 0}, b.At(Pos{2, 0}).Level == 1 && b.HasRamp(Pos{1, 0}, East), "level 1 with a ramp west"},
		{Pos{3, 0}, b.repulsorAt(Pos{3, 0}, North) && b.repulsorAt(Pos{3, 1}, North.Back()) == false && b.repulsorAt(Pos{3, 0}, East), "repulsors N and E"},
		{Pos{0, 1}, b.doorClosed(Pos{1, 1}, West, 1) && !b.doorClosed(Pos{1, 1}, West, 2), "door east of 0,1 open in 2"},
		{Pos{1, 1}, b.At(Pos{1, 1}).ChopShop, "chop shop"},
		{Pos{2, 1}, b.At(Pos{2, 1}).Flamer == RegisterSet(0).With(1).With(3).With(5), "flamer 135"},
		{Pos{3, 1}, b.At(Pos{3, 1}).Stomper == allRegisters, "stomper always"},
		{Pos{0, 2}, b.At(Pos{0, 2}).Stomper == RegisterSet(0).With(2).With(4), "stomper 24"},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%v: want %s", c.p, c.what)
		}
	}
	again, err := ParseBoard("again", FormatBoard(bf))
	if err != nil {
		t.Fatalf("%v\n%s", err, FormatBoard(bf))
	}
	if FormatBoard(again) != FormatBoard(bf) {
		t.Errorf("round trip differs:\n%s\n%s", FormatBoard(bf), FormatBoard(again))
	}
	// Four quarter turns give the board back; one turns the edge tiles.
	r := b.Rotated(1)
	if !r.At(Pos{1, 0}).Door.Has(South) || !r.At(Pos{2, 3}).Repulsors.Has(East) || !r.At(Pos{2, 2}).Ramps.Has(North) {
		t.Errorf("a quarter turn did not turn the door, repulsors and ramp:\n%s", FormatBoard(&BoardFile{Board: r}))
	}
	if got := FormatBoard(&BoardFile{Name: "tiles", Board: b.Rotated(4)}); got != FormatBoard(bf) {
		t.Errorf("four quarter turns:\n%s", got)
	}
}

func TestTileTokenErrors(t *testing.T) {
	for _, tc := range []struct{ tok, want string }{
		{"o1", "oil slick"},
		{"t0", "portal's colour"},
		{"t12", "portal's colour"},
		{"h4", "level h1 to h3"},
		{"rX", "ramp's sides"},
		{"qNN", "side N twice"},
		{"d", "swing door's side"},
		{"dE", "registers 1-5 the swing door"},
		{"dE6", "registers 1-5 the swing door"},
		{"$x", "$ alone"},
		{"m", "flamer's registers"},
		{"k9", "stomper's registers"},
		{"o+o", "second oil slick"},
		{"X+o", "a pit or drain holds nothing else"},
	} {
		_, err := ParseBoard("bad.board", "board bad 1x1\n"+tc.tok+"\n")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want an error with %q", tc.tok, err, tc.want)
		}
	}
}

// The course validator refuses tiles that cannot work.
func TestFloorCheck(t *testing.T) {
	for _, tc := range []struct {
		rows []string
		want string
	}{
		{[]string{"t1 . f1"}, "portal colour 1: 1 squares"},
		{[]string{"t1 t1 t1 f1"}, "portal colour 1: 3 squares"},
		{[]string{"rE h2 f1"}, "joins levels 0 and 2"},
		{[]string{"rE|E h1 f1"}, "where a wall stands"},
		{[]string{"rN . f1"}, "leads off the floor"},
		{[]string{"dE1|E . f1"}, "where a wall stands"},
		{[]string{"dW1 . f1"}, "opens off the floor"},
		{[]string{"dE1 dW2 f1"}, "two swing doors on one edge"},
		{[]string{"t1 f1+t1"}, "flag 1 at 1,0 is on a portal"},
	} {
		bf, err := ParseBoardRows("check", 1, tc.rows)
		if err != nil {
			t.Fatalf("%v: %v", tc.rows, err)
		}
		c := bf.Course()
		c.Starts = []Start{{Pos: Pos{0, 0}}}
		err = c.Check()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: got %v, want %q", tc.rows, err, tc.want)
		}
	}
}

// Rules.Tiles lays Crash & Burn's tiles on empty squares only, within the box's supply.
func TestTilesOverlay(t *testing.T) {
	bf, err := ParseBoardRows("overlay", 1, []string{". . . . . .", ". w1 . bE . f1", ". . . . . s1"})
	if err != nil {
		t.Fatal(err)
	}
	c := bf.Course()
	good, err := c.WithTiles("0,0:t1 5,0:t1;2,1:m24 0,2:dE13 1,2:k")
	if err != nil {
		t.Fatal(err)
	}
	if good.Board.At(Pos{0, 0}).Portal != 1 || good.Board.At(Pos{2, 1}).Flamer == 0 || c.Board.At(Pos{0, 0}).Portal != 0 {
		t.Error("the tiles are not laid on a copy")
	}
	for _, tc := range []struct{ spec, want string }{
		{"1,1:m1", "not empty"},
		{"3,1:m1", "not empty"},
		{"5,1:m1", "not empty"},
		{"5,2:m1", "not empty"},
		{"9,9:m1", "not a square"},
		{"0,0", "want X,Y:TOKEN"},
		{"0,0:o", "not one of Crash & Burn's tiles"},
		{"0,0:w2", "not one of Crash & Burn's tiles"},
		{"0,0:m1 1,0:m2 2,0:m3", "more than 2 flamer tiles"},
		{"0,0:t1", "portal colour 1: 1 squares"},
		{"0,0:dN1", "opens off the floor"},
		{"0,0:zz", "unknown token"},
	} {
		_, err := c.WithTiles(tc.spec)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.spec, err, tc.want)
		}
	}
	rules := PostalRules()
	rules.Tiles = "0,0:m1 1,0:m2 2,0:m3"
	if _, err := NewSetup(c, rules, 1, nil); err == nil {
		t.Error("NewSetup took too many flamer tiles")
	}
}

// Rules.Set sets each kind of setting by its JSON name and refuses the unknown.
func TestRulesSet(t *testing.T) {
	r := PostalRules()
	for _, kv := range [][2]string{{"pass_touches", "true"}, {"archive_choice", "true"}, {"tiles", "1,1:t1;2,2:t1"}, {"max_options", "2"}, {"after_lasers", "flamers"}} {
		if err := r.Set(kv[0], kv[1]); err != nil {
			t.Fatalf("%v: %v", kv, err)
		}
	}
	if !r.PassTouches || !r.ArchiveChoice || r.Tiles != "1,1:t1;2,2:t1" || r.MaxOptions != 2 || len(r.AfterLasers) != 1 {
		t.Errorf("got %+v", r)
	}
	for _, kv := range [][2]string{{"pass_touch", "true"}, {"pass_touches", "maybe"}, {"max_options", "x"}, {"name", "2023"}} {
		if err := r.Set(kv[0], kv[1]); err == nil {
			t.Errorf("%v: no error", kv)
		}
	}
}

// On a floor without tiles, the tile-aware step (stepFloor) plays exactly as the plain
// step: random games on the shipped plain courses, both ways, give the same bytes.
func TestStepFloorMatchesStep(t *testing.T) {
	for _, name := range []string{"sprint", "long-haul", "stampede"} {
		c, err := LoadCourse(name)
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(1); seed <= 6; seed++ {
			fast, err := NewSetup(c, PostalRules(), seed, nil)
			if err != nil {
				t.Fatal(err)
			}
			if fast.slow {
				t.Fatalf("%s has no tiles but plays the slow step", name)
			}
			slow := *fast
			slow.slow = true
			names := []string{"A", "B", "C", "D", "E"}
			st, _, err := NewGame(fast, names)
			if err != nil {
				t.Fatal(err)
			}
			rng := turnRNG(seed, 99, 7)
			for turn := 0; turn < 12 && !st.Over; turn++ {
				orders := make([]Orders, len(st.Robots))
				for i := range st.Robots {
					r := &st.Robots[i]
					h := slices.Clone(r.Hand)
					rng.Shuffle(len(h), func(a, b int) { h[a], h[b] = h[b], h[a] })
					k := 0
					for reg := 1; reg <= Registers; reg++ {
						if !r.IsLocked(reg) && k < len(h) {
							orders[i].Program[reg-1] = h[k]
							k++
						}
					}
				}
				a, ea, err := Resolve(fast, st, orders)
				if err != nil {
					t.Fatal(err)
				}
				b, eb, err := Resolve(&slow, st, orders)
				if err != nil {
					t.Fatal(err)
				}
				ja, _ := json.Marshal(struct {
					S *State
					E []Event
				}{a, ea})
				jb, _ := json.Marshal(struct {
					S *State
					E []Event
				}{b, eb})
				if string(ja) != string(jb) {
					t.Fatalf("%s seed %d turn %d: the two steps differ:\n%s\n%s", name, seed, st.Turn, ja, jb)
				}
				st = a
			}
		}
	}
}

// BenchmarkTurnGrandPrix: a turn of four robots on the grand-prix course, whose floor has
// every tile (the tile-aware step and the tile steps).
func BenchmarkTurnGrandPrix(b *testing.B) {
	c, err := LoadCourse("grand-prix")
	if err != nil {
		b.Fatal(err)
	}
	s, err := NewSetup(c, PostalRules(), 7, nil)
	if err != nil {
		b.Fatal(err)
	}
	st, _, err := NewGame(s, []string{"A", "B", "C", "D"})
	if err != nil {
		b.Fatal(err)
	}
	spots := []Pos{{3, 2}, {6, 7}, {4, 17}, {2, 20}}
	orders := make([]Orders, len(st.Robots))
	for i := range st.Robots {
		r := &st.Robots[i]
		r.Pos, r.Archive, r.Virtual, r.Facing = spots[i], spots[i], false, Dir(i%4)
		h := slices.Clone(r.Hand)
		slices.SortFunc(h, func(a, b int) int { return b - a })
		copy(orders[i].Program[:], h[:Registers])
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Resolve(s, st, orders); err != nil {
			b.Fatal(err)
		}
	}
}

// Random games on the grand-prix course, whose floor has every tile, under the postal
// rules and under Crash & Burn's settings: nothing fails, and after every turn no two
// real robots share a square and every robot on the board stands on a square of it.
func TestGrandPrixRandomGames(t *testing.T) {
	c, err := LoadCourse("grand-prix")
	if err != nil {
		t.Fatal(err)
	}
	cb := PostalRules()
	cb.PassTouches, cb.ArchiveChoice = true, true
	kinds := map[string]int{}
	defer func() {
		t.Logf("%v", kinds)
		tiles := 0
		for _, k := range []string{EvSlid, EvTeleport, EvRepulsed, "blocked door move", "blocked ledge move", "damage flamer flamers", "destroyed stomper stompers"} {
			if kinds[k] > 0 {
				tiles++
			}
		}
		if tiles < 5 {
			t.Errorf("the random games met only %d kinds of tile events (%v): the test does not exercise the tiles", tiles, kinds)
		}
	}()
	for _, rules := range []Rules{PostalRules(), cb} {
		for seed := uint64(1); seed <= 8; seed++ {
			s, err := NewSetup(c, rules, seed, OptionNames()[:0])
			if err != nil {
				t.Fatal(err)
			}
			st, _, err := NewGame(s, []string{"A", "B", "C", "D"})
			if err != nil {
				t.Fatal(err)
			}
			rng := turnRNG(seed, 5, 9)
			for turn := 0; turn < 40 && !st.Over; turn++ {
				orders := make([]Orders, len(st.Robots))
				for i := range st.Robots {
					r := &st.Robots[i]
					h := slices.Clone(r.Hand)
					rng.Shuffle(len(h), func(a, b int) { h[a], h[b] = h[b], h[a] })
					k := 0
					for reg := 1; reg <= Registers; reg++ {
						if !r.IsLocked(reg) && k < len(h) {
							orders[i].Program[reg-1] = h[k]
							k++
						}
					}
				}
				next, events, err := Resolve(s, st, orders)
				if err != nil {
					t.Fatalf("seed %d turn %d: %v", seed, st.Turn, err)
				}
				for _, e := range events {
					switch e.Kind {
					case EvSlid, EvSlowed, EvTeleport, EvRepulsed, EvArchiveKept:
						kinds[e.Kind]++
					case EvDamage, EvBlocked, EvDestroyed, EvPushed, EvOptionGain:
						kinds[e.Kind+" "+e.Cause+" "+e.Phase]++
					}
				}
				seen := map[Pos]string{}
				for _, r := range next.Robots {
					if !r.Active() {
						continue
					}
					if !c.Board.In(r.Pos) {
						t.Fatalf("seed %d turn %d: %s at %v, off the floor", seed, st.Turn, r.Name, r.Pos)
					}
					if r.Virtual {
						continue
					}
					if o, ok := seen[r.Pos]; ok {
						t.Fatalf("seed %d turn %d: %s and %s, both real, share %v", seed, st.Turn, o, r.Name, r.Pos)
					}
					seen[r.Pos] = r.Name
				}
				st = next
			}
		}
	}
}

// FuzzWithTiles: a game's tiles setting is outside input (mail, the command line, an
// archive header): it never panics, and whatever it lays passes the course check and
// leaves the course it was laid on unchanged.
func FuzzWithTiles(f *testing.F) {
	for _, s := range []string{"3,5:t1 4,6:t1 6,4:m24", "0,0:k", "1,1:dE13;2,2:c24", "9,9:t1", "3,5:", ":t1", "3,5:t1 3,5:t1", "a,b:c"} {
		f.Add(s)
	}
	c, err := LoadCourse("sprint")
	if err != nil {
		f.Fatal(err)
	}
	before := FormatBoard(&BoardFile{Name: "sprint", Board: c.Board})
	f.Fuzz(func(t *testing.T, spec string) {
		out, err := c.WithTiles(spec)
		if err == nil {
			if err := out.Check(); err != nil {
				t.Fatalf("%q: laid but fails the check: %v", spec, err)
			}
		}
		if FormatBoard(&BoardFile{Name: "sprint", Board: c.Board}) != before {
			t.Fatalf("%q changed the course it was laid on", spec)
		}
	})
}
