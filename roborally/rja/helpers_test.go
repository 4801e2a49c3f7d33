package rja

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/orders"
)

// playGame plays a seeded game of robots sending random legal programs on a shipped
// course for up to turns turns (fewer if someone wins) and records it as an archive.
// Every third robot misses every fifth turn (the powerdown policy); robot 0 keeps a
// standing order to power down when badly damaged. lives sets Rules.BaseLives.
func playGame(tb testing.TB, course string, robots, turns int, seed int64, lives int) Archive {
	tb.Helper()
	rules := adjudicator.PostalRules()
	if lives > 0 {
		rules.BaseLives = lives
	}
	standing := &orders.Sheet{Rules: []orders.Rule{{
		If:   &orders.Cond{Test: orders.TestDamage, Op: ">=", N: 5},
		Then: orders.Action{Do: orders.DoPowerDown},
	}}}
	return playGameWith(tb, course, robots, turns, seed, rules, testDeck, standing)
}

// playGameWith is playGame under these rules and option deck, robot 0 keeping the
// standing orders given.
func playGameWith(tb testing.TB, course string, robots, turns int, seed int64, rules adjudicator.Rules, deck []string, standing *orders.Sheet) Archive {
	tb.Helper()
	return playGameSheets(tb, course, robots, turns, seed, rules, deck, func(i int) *orders.Sheet {
		if i == 0 {
			return standing
		}
		return nil
	})
}

// playGameWithAll is playGameWith with every robot keeping the standing orders.
func playGameWithAll(tb testing.TB, course string, robots, turns int, seed int64, rules adjudicator.Rules, deck []string, standing *orders.Sheet) Archive {
	tb.Helper()
	return playGameSheets(tb, course, robots, turns, seed, rules, deck, func(int) *orders.Sheet { return standing })
}

func playGameSheets(tb testing.TB, course string, robots, turns int, seed int64, rules adjudicator.Rules, deck []string, sheet func(i int) *orders.Sheet) Archive {
	tb.Helper()
	c, err := adjudicator.LoadCourse(course)
	if err != nil {
		tb.Fatal(err)
	}
	inline, err := Inline(c, adjudicator.LoadBoard)
	if err != nil {
		tb.Fatal(err)
	}
	rulesJSON, _ := json.Marshal(rules)
	setup, err := adjudicator.NewSetup(c, rules, uint64(seed), deck)
	if err != nil {
		tb.Fatal(err)
	}
	names := []string{"Twonky", "Zoombot", "Hulk", "Spinbot", "Trundle", "Squash", "Hammer", "Klaxon"}[:robots]
	st, _, err := adjudicator.NewGame(setup, names)
	if err != nil {
		tb.Fatal(err)
	}
	a := Archive{Game: "test", Course: inline, Rules: rulesJSON, Options: deck, Seed: seed, Robots: names}
	a.Turns = append(a.Turns, Turn{Turn: 0, Hash: Hash(st)})
	rng := rand.New(rand.NewPCG(uint64(seed), 7))
	for n := 1; n <= turns && !st.Over; n++ {
		before := st.Clone()
		played := make([]Played, len(st.Robots))
		ords := make([]adjudicator.Orders, len(st.Robots))
		for i := range before.Robots {
			r := &before.Robots[i]
			played[i] = Played{Robot: r.Name}
			played[i].Sheet = sheet(i)
			if r.Out || r.Power == adjudicator.PowerDown {
				ords[i] = played[i].Orders()
				continue
			}
			if i%3 == 2 && n%5 == 0 {
				r.Power = adjudicator.PowerDown
				played[i].Missed = "powerdown"
				ords[i] = played[i].Orders()
				continue
			}
			hand := append([]int(nil), r.Hand...)
			rng.Shuffle(len(hand), func(x, y int) { hand[x], hand[y] = hand[y], hand[x] })
			k := 0
			for reg := 1; reg <= adjudicator.Registers; reg++ {
				if r.IsLocked(reg) || k >= len(hand) {
					continue
				}
				played[i].Program[reg-1] = hand[k]
				k++
			}
			ords[i] = played[i].Orders()
		}
		next, _, err := adjudicator.Resolve(setup, before, ords)
		if err != nil {
			tb.Fatalf("turn %d: %v", n, err)
		}
		a.Turns = append(a.Turns, Turn{Turn: n, Orders: played, Hash: Hash(next)})
		st = next
	}
	a.Count = len(a.Turns)
	return a
}

// testDeck is the option deck of the test games: cards with effects, fixed here so the
// golden archive does not change as more cards are dealt.
var testDeck = []string{"Double Laser", "Extra Memory", "Brakes", "Rear Laser"}
