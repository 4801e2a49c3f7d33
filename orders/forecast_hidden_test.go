package orders

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// Ruling R-FORECAST-HIDDEN (docs/orders.md, "The forecast"): the forecast a player gets
// for a sheet knows what the player knows. Each case below is a game and a sheet whose
// turn draws a hidden card, and two ways the hidden part of the game could be (the
// decks' order, the seed, the other players' hands): the two forecasts must read the
// same, word for word, and name no card the player has not seen.

type hiddenCase struct {
	name  string
	game  func(t *testing.T) (*adjudicator.Setup, *adjudicator.State)
	robot string
	sheet string
	// other changes only what the player cannot see.
	other func(s *adjudicator.Setup, st *adjudicator.State)
	// says is what the forecast must say of the hidden draw.
	says string
}

// chopShopGame is testGame with a chop shop at 2,4, Fred holding Brakes, and an option
// deck with Protective Coating on top: a card that would soak up the laser damage Fred
// takes at 2,3 in registers 2 to 5, were the forecast to know it comes.
func chopShopGame(t *testing.T) (*adjudicator.Setup, *adjudicator.State) {
	s, st := testGame(t)
	s.Course.Board.At(adjudicator.Pos{X: 2, Y: 4}).ChopShop = true
	s, err := adjudicator.NewSetup(s.Course, s.Rules, s.Seed, s.Options)
	if err != nil {
		t.Fatal(err)
	}
	st.Robots[0].Options = []string{"Brakes"}
	st.OptionDeck = []string{"Protective Coating", "Ramming Gear", "Fourth Gear", "Mechanical Arm", "Double Laser"}
	return s, st
}

func hiddenCases() []hiddenCase {
	return []hiddenCase{
		{
			name: "chop shop draws from the option deck", game: chopShopGame, robot: "Fred",
			sheet: "Robot: Fred\nTurn: 3\nP490 P500 P10 P70 P80\nswap Brakes\n",
			other: func(_ *adjudicator.Setup, st *adjudicator.State) {
				slices.Reverse(st.OptionDeck) // Double Laser on top
			},
			says: "draws an option card (unknown to the forecast",
		},
		{
			name: "emergency switch draws from the draw pile",
			game: func(t *testing.T) (*adjudicator.Setup, *adjudicator.State) {
				s, st := testGame(t)
				st.Robots[0].Options = []string{"Emergency Switch"}
				return s, st
			},
			robot: "Fred", sheet: "Robot: Fred\nTurn: 3\nP490 P790 P670 P500 P10\nuse Emergency Switch in register 2\n",
			other: func(s *adjudicator.Setup, st *adjudicator.State) {
				s.Seed++                                 // another shuffle of the draw pile
				st.Robots[1].Hand = []int{140, 530, 690} // Zoë holds other cards
			},
			says: "Emergency Switch replaces the card by one from the draw pile (unknown to the forecast",
		},
		{
			name: "randomizer square",
			game: func(t *testing.T) (*adjudicator.Setup, *adjudicator.State) {
				s, st := testGame(t)
				s.Course.Board.At(adjudicator.Pos{X: 2, Y: 4}).Randomizer = true
				s, err := adjudicator.NewSetup(s.Course, s.Rules, s.Seed, s.Options)
				if err != nil {
					t.Fatal(err)
				}
				return s, st
			},
			robot: "Fred", sheet: "Robot: Fred\nTurn: 3\nP490 P100 P670 P500 P10\n",
			other: func(s *adjudicator.Setup, _ *adjudicator.State) { s.Seed += 1000 },
			says:  "a randomizer replaces the card by one from the draw pile (unknown to the forecast",
		},
		{
			name: "2023 reboot draws from the damage deck",
			game: func(t *testing.T) (*adjudicator.Setup, *adjudicator.State) {
				s, st := game2023(t, adjudicator.CardMove1, adjudicator.CardMove1, adjudicator.CardLeft, adjudicator.CardUTurn, adjudicator.CardMove2)
				st.Robots[0].Pos, st.Robots[0].Facing = adjudicator.Pos{X: 0, Y: 14}, adjudicator.West
				slices.Sort(st.DamageDeck) // SPAM on top
				return s, st
			},
			robot: "A", sheet: "Robot: A\nTurn: 1\nMove 1, Move 1, Rotate Left, U-Turn, Move 2\n",
			other: func(s *adjudicator.Setup, st *adjudicator.State) {
				slices.Reverse(st.DamageDeck) // Haywire on top
				s.Seed++
			},
		},
		{
			name: "2023 upgrade draw and own deck",
			game: func(t *testing.T) (*adjudicator.Setup, *adjudicator.State) {
				s, st := game2023(t, adjudicator.CardSpam, adjudicator.CardMove1, adjudicator.CardLeft, adjudicator.CardUTurn, adjudicator.CardPowerUp)
				return s, st
			},
			robot: "A", sheet: "Robot: A\nTurn: 1\nSPAM, Move 1, Rotate Left, U-Turn, Power Up\ndraw upgrade\n",
			other: func(s *adjudicator.Setup, st *adjudicator.State) {
				slices.Reverse(st.OptionDeck)
				slices.Reverse(st.Robots[0].Mat.Deck)
				st.Robots[1].Hand = slices.Clone(st.Robots[1].Mat.Deck[:5])
				s.Seed++
			},
			says: "draws an upgrade",
		},
	}
}

func forecastText(t *testing.T, s *adjudicator.Setup, st *adjudicator.State, robot, text string) string {
	t.Helper()
	sheet := mustParse(t, text)
	if rep := Validate(s, st, robot, sheet); !rep.OK() {
		t.Fatal(rep)
	}
	f, err := Forecast(s, st, robot, sheet)
	if err != nil {
		t.Fatal(err)
	}
	return f.String()
}

func TestForecastHiddenDrawsReadTheSame(t *testing.T) {
	for _, tc := range hiddenCases() {
		t.Run(tc.name, func(t *testing.T) {
			s, st := tc.game(t)
			one := forecastText(t, s, st, tc.robot, tc.sheet)
			s2, st2 := tc.game(t)
			tc.other(s2, st2)
			two := forecastText(t, s2, st2, tc.robot, tc.sheet)
			if one != two {
				t.Errorf("the hidden part of the game changed the forecast:\n%s\n---\n%s", one, two)
			}
			if tc.says != "" && !strings.Contains(one, tc.says) {
				t.Errorf("the forecast does not say %q:\n%s", tc.says, one)
			}
		})
	}
}

// A forecast never names an option card the player has not seen (held, or on the
// discard pile), nor a program card outside the robot's hand and registers.
func TestForecastNamesNoHiddenCard(t *testing.T) {
	priority := regexp.MustCompile(`\bP(\d+)\b`)
	for _, tc := range hiddenCases() {
		t.Run(tc.name, func(t *testing.T) {
			s, st := tc.game(t)
			text := forecastText(t, s, st, tc.robot, tc.sheet)
			r := st.Robots[st.Robot(tc.robot)]
			seen := append(slices.Clone(r.Options), st.OptionDiscard...)
			for _, o := range append(slices.Clone(s.Options), st.OptionDeck...) {
				if !slices.Contains(seen, o) && strings.Contains(text, o) {
					t.Errorf("the forecast names %s, which the player has not seen:\n%s", o, text)
				}
			}
			for _, m := range priority.FindAllStringSubmatch(text, -1) {
				p, _ := strconv.Atoi(m[1])
				if !slices.Contains(r.Hand, p) && !slices.Contains(r.Registers[:], p) {
					t.Errorf("the forecast names P%d, which is not in %s's hand:\n%s", p, tc.robot, text)
				}
			}
		})
	}
}

// The forecast changes nothing, and the turn itself still draws the real cards: the
// chop shop gives Fred the option deck's real top card, whichever it is.
func TestForecastLeavesTheRealDraws(t *testing.T) {
	for _, reverse := range []bool{false, true} {
		s, st := chopShopGame(t)
		if reverse {
			slices.Reverse(st.OptionDeck)
		}
		top := st.OptionDeck[0]
		before, _ := json.Marshal(st)
		seed := s.Seed
		text := "Robot: Fred\nTurn: 3\nP490 P500 P10 P70 P80\nswap Brakes\n"
		forecastText(t, s, st, "Fred", text)
		if after, _ := json.Marshal(st); string(after) != string(before) || s.Seed != seed {
			t.Fatal("the forecast changed the game")
		}
		sheet := mustParse(t, text)
		o := sheet.Orders()
		o.Program = programOf(sheet, &st.Robots[0])
		ords := make([]adjudicator.Orders, len(st.Robots))
		ords[0] = o
		ords[1].Program = [adjudicator.Registers]int{130, 520, 680, 110, 440} // Zoë (4, 5 locked)
		ords[3].Program = [adjudicator.Registers]int{20, 90, 150, 540, 550}   // Ådne
		_, events, err := adjudicator.Resolve(s, st, ords)
		if err != nil {
			t.Fatal(err)
		}
		drawn := ""
		for _, e := range events {
			if e.Robot == "Fred" && e.Kind == adjudicator.EvOptionGain && e.Phase == "chop-shop" {
				drawn = e.Option
			}
		}
		if drawn != top {
			t.Errorf("deck top %s: the turn's chop shop gave Fred %q, want the real top card", top, drawn)
		}
	}
}

// Blind hides the seed, the decks' order and the other robots' cards, and keeps the
// forecast robot's own.
func TestBlindHidesWhatThePlayerCannotSee(t *testing.T) {
	s, st := testGame(t)
	st.OptionDeck = []string{"Ramming Gear", "Brakes", "Fourth Gear"}
	bs, bst := s.Blind(st, 0)
	if bs.Seed == s.Seed {
		t.Error("the blind setup keeps the game's seed")
	}
	if !slices.IsSorted(bst.OptionDeck) || len(bst.OptionDeck) != 3 {
		t.Errorf("option deck %v: want the same cards in a fixed order", bst.OptionDeck)
	}
	if st.OptionDeck[0] != "Ramming Gear" {
		t.Error("Blind changed the game's deck")
	}
	if !slices.Equal(bst.Robots[0].Hand, st.Robots[0].Hand) {
		t.Error("Blind took the forecast robot's own hand")
	}
	if bst.Robots[1].Hand != nil || st.Robots[1].Hand == nil {
		t.Error("Blind keeps Zoë's hand, or took it from the game")
	}
	if bst.Robots[1].Registers != st.Robots[1].Registers {
		t.Error("Blind hid Zoë's locked registers, which lie face up")
	}
}
