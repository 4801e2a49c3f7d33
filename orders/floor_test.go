package orders

import (
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// The chop shop (seed 003, CHOP SHOP) and the archive choice (seed 000, Reaching a
// Checkpoint) as orders: they parse, print canonically and read back.
func TestFloorOrdersParse(t *testing.T) {
	tests := []struct {
		in   string
		want Action
	}{
		{"swap Brakes", Action{Do: DoSwapOption, Option: "Brakes"}},
		{"swap fourth gear for a new option", Action{Do: DoSwapOption, Option: "Fourth Gear"}},
		// A square written first is the condition (orders/decisions_test.go).
		{"at the chop shop replace Turret", Action{Do: DoSwapOption, Option: "Turret"}},
		{"at the chop shop", Action{}}, // no order: an error
		{"recharge Turbo Blaster", Action{Do: DoRecharge, Option: "Turbo Blaster"}},
		{"keep archive", Action{Do: DoKeepArchive}},
		{"don't move my archive", Action{Do: DoKeepArchive}},
		{"keep my safety copy where it is", Action{Do: DoKeepArchive}},
		{"move archive", Action{Do: DoMoveArchive}},
		{"place my safety copy here", Action{Do: DoMoveArchive}},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			r, err := ParseRule(tc.in, 1)
			if tc.want.Do == "" {
				if err == nil {
					t.Fatalf("parsed as %+v, want an error", r)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Then != tc.want {
				t.Fatalf("got %+v, want %+v", r.Then, tc.want)
			}
			back, err := ParseRule(r.String(), 1)
			if err != nil || back.Then != r.Then {
				t.Fatalf("canonical %q reads back as %+v (%v)", r.String(), back.Then, err)
			}
		})
	}
	if r, err := ParseRule("if on a chop shop and damage > 2 then swap Brakes else take option", 1); err != nil {
		t.Fatal(err)
	} else if r.If == nil || r.If.All[0].Arg != "chop-shop" {
		t.Fatalf("condition %+v, want on chop-shop first", r.If)
	}
}

// floorGame is one robot on a chop shop beside a flag, under rules.
func floorGame(t *testing.T, rules adjudicator.Rules, rows ...string) (*adjudicator.Setup, *adjudicator.State) {
	t.Helper()
	bf, err := adjudicator.ParseBoardRows("floor", 1, rows)
	if err != nil {
		t.Fatal(err)
	}
	c := bf.Course()
	c.Starts = []adjudicator.Start{{Pos: adjudicator.Pos{X: 0, Y: 1}}}
	s, err := adjudicator.NewSetup(c, rules, 1, []string{"Brakes", "Turret"})
	if err != nil {
		t.Fatal(err)
	}
	st := &adjudicator.State{Turn: 1, OptionDeck: []string{"Brakes", "Turret"}, Robots: []adjudicator.Robot{{
		Name: "Fred", Pos: adjudicator.Pos{X: 1, Y: 1}, Facing: adjudicator.North, Lives: 3,
		Archive: adjudicator.Pos{X: 1, Y: 1}, Hand: []int{70, 90, 110, 130, 150}, Options: []string{"Fourth Gear"},
	}}}
	return s, st
}

func sheetOrders(t *testing.T, text string) adjudicator.Orders {
	t.Helper()
	s, err := Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return s.Orders()
}

// A sheet's "swap" and "take option" steer the chop shop in the engine.
func TestChopShopOrders(t *testing.T) {
	tests := []struct {
		sheet string
		want  []string
	}{
		{"P70 P90 P110 P130 P150\n", []string{"Fourth Gear"}},
		{"P70 P90 P110 P130 P150\nswap Fourth Gear\n", []string{"Brakes"}},
		{"P70 P90 P110 P130 P150\nif register 0 take option\n", []string{"Fourth Gear", "Brakes"}},
		{"P70 P90 P110 P130 P150\nswap Turret\n", []string{"Fourth Gear"}}, // not held: nothing
	}
	for _, tc := range tests {
		s, st := floorGame(t, adjudicator.PostalRules(), ". f1 .", ". $ .")
		next, _, err := adjudicator.Resolve(s, st, []adjudicator.Orders{sheetOrders(t, tc.sheet)})
		if err != nil {
			t.Fatal(err)
		}
		got := next.Robots[0].Options
		if len(got) != len(tc.want) || (len(got) > 0 && got[0] != tc.want[0]) || (len(got) > 1 && got[1] != tc.want[1]) {
			t.Errorf("%q: options %v, want %v", tc.sheet, got, tc.want)
		}
	}
}

// "keep archive" keeps the archive off a flag only with the rules setting archive_choice.
func TestKeepArchiveOrder(t *testing.T) {
	for _, choice := range []bool{false, true} {
		rules := adjudicator.PostalRules()
		rules.ArchiveChoice = choice
		s, st := floorGame(t, rules, ". f1 .", ". . .", ". f2 .")
		st.Robots[0].Hand = []int{490, 90, 110, 130, 150}
		next, _, err := adjudicator.Resolve(s, st, []adjudicator.Orders{sheetOrders(t, "P490 P90 P110 P130 P150\nkeep archive\n")})
		if err != nil {
			t.Fatal(err)
		}
		r := next.Robots[0]
		want := adjudicator.Pos{X: 1, Y: 0}
		if choice {
			want = adjudicator.Pos{X: 1, Y: 1}
		}
		if r.Flags != 1 || r.Archive != want {
			t.Errorf("archive_choice %v: flags %d archive %v, want 1 and %v", choice, r.Flags, r.Archive, want)
		}
	}
}

// "recharge OPTION" restores what the option has used up, at a chop shop.
func TestRechargeOrder(t *testing.T) {
	s, st := floorGame(t, adjudicator.PostalRules(), ". f1 .", ". $ .")
	st.Robots[0].Options, st.Robots[0].Tokens = []string{"Protective Coating"}, []int{2}
	next, _, err := adjudicator.Resolve(s, st, []adjudicator.Orders{sheetOrders(t, "P70 P90 P110 P130 P150\nrecharge Protective Coating\n")})
	if err != nil {
		t.Fatal(err)
	}
	if r := next.Robots[0]; len(r.Options) != 1 || (len(r.Tokens) > 0 && r.Tokens[0] != 0) {
		t.Errorf("after recharging: options %v tokens %v, want the coating with 0 used", r.Options, r.Tokens)
	}
	next, _, err = adjudicator.Resolve(s, st, []adjudicator.Orders{sheetOrders(t, "P70 P90 P110 P130 P150\n")})
	if err != nil {
		t.Fatal(err)
	}
	if r := next.Robots[0]; len(r.Tokens) == 0 || r.Tokens[0] != 2 {
		t.Errorf("without the order: tokens %v, want 2 used still", r.Tokens)
	}
}
