package orders

import (
	"slices"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// The forecast of a 2023 sheet gives the energy the round leaves the robot with, the
// same as the engine's round: the upgrade phase's draw, Power Up, and what the board does.
func TestForecast2023Energy(t *testing.T) {
	for _, tc := range []struct {
		name, orders string
	}{
		{"power up", "Robot: A\nTurn: 1\nPower Up, Move 1, Rotate Left, Move 1, U-Turn\n"},
		{"draw upgrade", "Robot: A\nTurn: 1\nPower Up, Move 1, Rotate Left, Move 1, U-Turn\ndraw upgrade\n"},
		{"no power up", "Robot: A\nTurn: 1\nMove 1, Move 1, Rotate Left, U-Turn, Power Up\ndraw upgrade\nshut down\n"},
		{"shut down, no program", "Robot: A\nTurn: 1\ndraw upgrade\nshut down\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, st := game2023(t, adjudicator.CardPowerUp, adjudicator.CardMove1, adjudicator.CardMove1, adjudicator.CardLeft, adjudicator.CardUTurn)
			sheet := mustParse(t, tc.orders)
			if rep := Validate(s, st, "A", sheet); !rep.OK() {
				t.Fatal(rep)
			}
			f, err := Forecast(s, st, "A", sheet)
			if err != nil {
				t.Fatal(err)
			}
			if f.Own == nil {
				t.Fatal("no 2023 forecast")
			}
			next, _, err := adjudicator.Resolve(s, st, []adjudicator.Orders{sheet.OwnOrders(&st.Robots[0]), {Shutdown: true}})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := f.Own.EnergyAfter, next.Robots[0].Mat.Energy; got != want {
				t.Errorf("forecast energy %d, the round leaves %d", got, want)
			}
			if f.Own.EnergyBefore != st.Robots[0].Mat.Energy {
				t.Errorf("energy before %d, the robot has %d", f.Own.EnergyBefore, st.Robots[0].Mat.Energy)
			}
			if len(f.Steps) > 0 && f.Steps[len(f.Steps)-1].Energy != f.Own.EnergyAfter {
				t.Errorf("the last register shows energy %d, the forecast ends with %d", f.Steps[len(f.Steps)-1].Energy, f.Own.EnergyAfter)
			}
			if strings.Contains(tc.orders, "draw upgrade") != (len(f.Own.Upgrades) == 1) {
				t.Errorf("upgrade phase %v for orders %q", f.Own.Upgrades, tc.orders)
			}
			if strings.Contains(tc.orders, "shut down") != f.Own.Shutdown {
				t.Errorf("shutdown %v for orders %q", f.Own.Shutdown, tc.orders)
			}
			if text := f.String(); !strings.Contains(text, "Energy: ") || !strings.Contains(text, "SPAM risk") {
				t.Errorf("the mail text lacks energy or SPAM risk:\n%s", text)
			}
		})
	}
}

// The SPAM risk is shown for each register that draws the top card of the deck (a SPAM,
// an Again in register 1), from the piles' contents and never their order: the draw
// pile's share while it lasts, then the discard pile's.
func TestForecast2023SpamRisk(t *testing.T) {
	spam, m1, m2 := int(adjudicator.CardSpam), int(adjudicator.CardMove1), int(adjudicator.CardMove2)
	s, st := game2023(t, adjudicator.CardAgain, adjudicator.CardSpam, adjudicator.CardMove1, adjudicator.CardSpam, adjudicator.CardLeft)
	m := st.Robots[0].Mat
	m.Deck = []int{spam, m1, m1, m2}  // 1 damage card in 4
	m.Discard = []int{spam, spam, m1} // 2 in 3
	sheet := mustParse(t, "Robot: A\nTurn: 1\nAgain, SPAM, Move 1, SPAM, Rotate Left\n")
	if rep := Validate(s, st, "A", sheet); !rep.OK() {
		t.Fatal(rep)
	}
	f, err := Forecast(s, st, "A", sheet)
	if err != nil {
		t.Fatal(err)
	}
	o := f.Own
	type want struct {
		reg           int
		why           string
		damage, cards int
	}
	wants := []want{{1, "Again in register 1", 1, 4}, {2, "SPAM", 1, 4}, {4, "SPAM", 1, 4}}
	if len(o.Risks) != len(wants) {
		t.Fatalf("risks %+v, want registers 1, 2, 4", o.Risks)
	}
	for k, w := range wants {
		got := o.Risks[k]
		if got.Register != w.reg || got.Why != w.why || got.Damage != w.damage || got.Cards != w.cards || got.Draw != k+1 {
			t.Errorf("risk %d: %+v, want %+v", k, got, w)
		}
	}
	if o.Risks[0].Percent != 25 || o.Top.Percent != 25 {
		t.Errorf("percent %d, top %d: want 25", o.Risks[0].Percent, o.Top.Percent)
	}
	// Past the end of the draw pile the discard pile's share counts.
	if k := o.risk(5); k.Damage != 2 || k.Cards != 3 || k.Percent != 67 {
		t.Errorf("fifth draw: %+v", k)
	}
	// The order of the deck changes nothing.
	before := f.String()
	slices.Reverse(m.Deck)
	g, err := Forecast(s, st, "A", sheet)
	if err != nil {
		t.Fatal(err)
	}
	if g.String() != before {
		t.Errorf("the deck's order changed the forecast:\n%s\n---\n%s", before, g.String())
	}
	for _, line := range []string{"register 2 (SPAM): the card drawn in its place is a damage card with chance 25% (1 damage of 4 cards)",
		"register 1 (Again in register 1)"} {
		if !strings.Contains(before, line) {
			t.Errorf("the mail text lacks %q:\n%s", line, before)
		}
	}
}

// With both piles empty the SPAM risk says no card is left to draw: it read "the top
// card is a damage card with chance no card left to draw".
func TestForecast2023SpamRiskWithNothingToDraw(t *testing.T) {
	for _, tc := range []struct{ program, want string }{
		{"Move 1, Move 1, Rotate Left, U-Turn, Move 2", "  no register draws a card from your deck, and no card is left to draw\n"},
		{"Move 1, SPAM, Rotate Left, U-Turn, Move 1", "  register 2 (SPAM): no card is left to draw in its place\n"},
	} {
		s, st := game2023(t, adjudicator.CardMove1, adjudicator.CardMove1, adjudicator.CardSpam, adjudicator.CardLeft, adjudicator.CardUTurn, adjudicator.CardMove2)
		st.Robots[0].Mat.Deck, st.Robots[0].Mat.Discard = nil, nil
		sheet := mustParse(t, "Robot: A\nTurn: 1\n"+tc.program+"\n")
		if rep := Validate(s, st, "A", sheet); !rep.OK() {
			t.Fatal(rep)
		}
		f, err := Forecast(s, st, "A", sheet)
		if err != nil {
			t.Fatal(err)
		}
		if text := f.String(); !strings.Contains(text, tc.want) || strings.Contains(text, "with chance no card") {
			t.Errorf("%s: the forecast lacks %q:\n%s", tc.program, tc.want, text)
		}
	}
}

// "install the card I draw" (issue 23): the forecast cannot know the card drawn
// (R-FORECAST-HIDDEN), so it names none, installs none and says so, with the fallback.
func TestForecast2023InstallDrawnHidden(t *testing.T) {
	s, st := game2023(t, adjudicator.CardPowerUp, adjudicator.CardMove1, adjudicator.CardMove1, adjudicator.CardLeft, adjudicator.CardUTurn)
	st.Robots[0].Mat.Energy = 5
	st.Robots[0].Mat.Collection = []string{"Zoop"}
	sheet := mustParse(t, "Robot: A\nTurn: 1\nPower Up, Move 1, Rotate Left, Move 1, U-Turn\ninstall the card I draw, else install Zoop\n")
	if rep := Validate(s, st, "A", sheet); !rep.OK() {
		t.Fatal(rep)
	}
	f, err := Forecast(s, st, "A", sheet)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"draws an upgrade for 1 energy", "installs the card drawn if the energy left pays for it (the card is not known now), else Zoop"}
	if !slices.Equal(f.Own.Upgrades, want) {
		t.Errorf("upgrade phase %q, want %q", f.Own.Upgrades, want)
	}
	for _, u := range adjudicator.UpgradeNames() {
		if u != "Zoop" && strings.Contains(f.String(), u) {
			t.Errorf("the forecast names %s, a card the player cannot know:\n%s", u, f.String())
		}
	}
}
