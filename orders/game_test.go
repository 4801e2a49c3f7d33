package orders

import (
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// testGame is a small game for validation and forecasts, built by hand so that the
// tests do not depend on the shipped courses:
//
//	8×8 floor; pit at 4,5; flag 1 at 2,1 and flag 2 at 6,6; a double-wrench site at
//	0,7; a one-beam laser mounted at 7,3 firing west along row 3.
//	Fred  at 2,5 facing N, no damage, hand P10 P70 P80 P100 P430 P490 P500 P670 P790.
//	Zoë   at 6,2 facing W, 6 damage (registers 4, 5 locked with P110 and P440),
//	      hand P130 P520 P680, holds Brakes and Turret.
//	Twonky at 5,5, powered down this turn.
//	Ådne  at 0,2 facing W (one step from the west edge), hand P20 P90 P150 P540 P550
//	      P690 P700 P800 P810.
func testGame(t testing.TB) (*adjudicator.Setup, *adjudicator.State) {
	t.Helper()
	b := adjudicator.NewBoard(8, 8)
	b.At(adjudicator.Pos{X: 4, Y: 5}).Floor = adjudicator.FloorPit
	b.At(adjudicator.Pos{X: 0, Y: 7}).Repair = 2
	b.At(adjudicator.Pos{X: 7, Y: 3}).Laser = adjudicator.Laser{Dir: adjudicator.West, Beams: 1}
	b.At(adjudicator.Pos{X: 2, Y: 1}).Flag = 1
	b.At(adjudicator.Pos{X: 6, Y: 6}).Flag = 2
	c := &adjudicator.Course{
		Name: "orders-test", Board: b,
		Flags:      []adjudicator.Pos{{X: 2, Y: 1}, {X: 6, Y: 6}},
		Starts:     []adjudicator.Start{{Pos: adjudicator.Pos{X: 2, Y: 5}, Facing: adjudicator.North}},
		MinPlayers: 1, MaxPlayers: 8, Boards: 1,
	}
	setup, err := adjudicator.NewSetup(c, adjudicator.PostalRules(), 7, adjudicator.DealtOptions(adjudicator.DeckBoth))
	if err != nil {
		t.Fatal(err)
	}
	st := &adjudicator.State{Turn: 3, Robots: []adjudicator.Robot{
		{Name: "Fred", Pos: adjudicator.Pos{X: 2, Y: 5}, Facing: adjudicator.North, Lives: 3,
			Archive: adjudicator.Pos{X: 2, Y: 5}, Hand: []int{10, 70, 80, 100, 430, 490, 500, 670, 790}},
		{Name: "Zoë", Pos: adjudicator.Pos{X: 6, Y: 2}, Facing: adjudicator.West, Lives: 3, Damage: 6,
			Archive: adjudicator.Pos{X: 6, Y: 2}, Registers: [5]int{0, 0, 0, 110, 440},
			Hand: []int{130, 520, 680}, Options: []string{"Brakes", "Turret"}},
		{Name: "Twonky", Pos: adjudicator.Pos{X: 5, Y: 5}, Facing: adjudicator.South, Lives: 2,
			Archive: adjudicator.Pos{X: 5, Y: 5}, Power: adjudicator.PowerDown},
		{Name: "Ådne", Pos: adjudicator.Pos{X: 0, Y: 2}, Facing: adjudicator.West, Lives: 3,
			Archive: adjudicator.Pos{X: 0, Y: 2}, Hand: []int{20, 90, 150, 540, 550, 690, 700, 800, 810}},
	}}
	return setup, st
}
