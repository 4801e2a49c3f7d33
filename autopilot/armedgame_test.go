package autopilot_test

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/autopilot"
	"github.com/rallyjudge/rallyjudge/orders"
)

// theTen are the Armed and Dangerous cards the autopilot's forecast plays (armed.go).
var theTen = []string{"Portable Teleporter", "Buzz Bomb", "Robo-Copter", "Big Jet", "Retro-Rockets",
	"Crab Legs", "Dual Processor", "Overload Override", "Frog Legs", "Homing Device"}

// armedGame is one bot game's figures.
type armedGame struct {
	turns, destroyed int
	// stale: uses of the ten cards in a turn whose sheet did not order them (an order
	// of an earlier turn still in force).
	stale  int
	winner string
	uses   map[string]int // by card: the turns a robot used it (EvUse)
	held   map[string]int // by card: the turns a robot held it
}

// playArmed plays a game of four bots on an Armed and Dangerous course, as the demo
// does (`demo --options armed --course high-water --variants deluxe-package,bio-bots`):
// each turn every bot's sheet is written from its plan, parsed and checked like a mailed
// sheet (any error fails the test), merged over the standing orders of the turns before
// as the judge merges them, and compiled to the engine's orders. keep filters the
// sheet's lines (nil keeps them all).
func playArmed(t *testing.T, seed uint64, maxTurns int, keep func(line string) bool) armedGame {
	t.Helper()
	c, err := adjudicator.LoadCourse("high-water")
	if err != nil {
		t.Fatal(err)
	}
	rules := adjudicator.PostalRules()
	rules.OptionDeck = adjudicator.DeckArmedDangerous
	kvs, err := adjudicator.VariantSettings("deluxe-package,bio-bots")
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range kvs {
		if err := rules.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	s, err := adjudicator.NewSetup(c, rules, seed, rules.Dealt())
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := adjudicator.NewGame(s, []string{"Twonky", "Zoombot", "Hulk", "Spinbot"})
	if err != nil {
		t.Fatal(err)
	}
	p := autopilot.New(s)
	g := armedGame{uses: map[string]int{}, held: map[string]int{}}
	// The orders in force as the judge keeps them (judge/resolve.go, docs/orders.md, A
	// later sheet): each turn's sheet over the standing orders of the turns before.
	standing := make([]*orders.Sheet, len(st.Robots))
	for !st.Over && g.turns < maxTurns {
		ords := make([]adjudicator.Orders, len(st.Robots))
		ordered := map[string]bool{} // robot and card: this turn's sheet uses it
		for i := range st.Robots {
			r := &st.Robots[i]
			if r.Out {
				continue
			}
			for _, o := range r.Options {
				g.held[o]++
			}
			plan := p.Choose(st, i)
			var lines []string
			for _, l := range plan.SheetLines(s, r) {
				if keep == nil || keep(l) {
					lines = append(lines, l)
				}
			}
			text := fmt.Sprintf("%s Turn %d\n%s\n", r.Name, st.Turn, strings.Join(lines, "\n"))
			sheet, err := orders.Parse([]byte(text))
			if err != nil {
				t.Fatalf("seed %d turn %d: %s's sheet does not parse: %v\n%s", seed, st.Turn, r.Name, err, text)
			}
			for _, pr := range orders.Validate(s, st, r.Name, sheet).Problems {
				if !pr.Warning {
					t.Fatalf("seed %d turn %d: %s: %v\n%s", seed, st.Turn, r.Name, pr.Error(), text)
				}
			}
			for _, l := range lines {
				for _, c := range theTen {
					if strings.HasPrefix(l, "use "+c) {
						ordered[r.Name+"\x00"+c] = true
					}
				}
			}
			rulesOnly := *sheet
			rulesOnly.Program = nil
			eff := *sheet
			eff.Rules = orders.Merge(standing[i], &rulesOnly).Rules
			standing[i] = orders.Merge(standing[i], &rulesOnly)
			ords[i] = eff.Orders()
		}
		next, events, err := adjudicator.Resolve(s, st, ords)
		if err != nil {
			t.Fatalf("seed %d turn %d: %v", seed, st.Turn, err)
		}
		used := map[string]bool{} // robot and card: a card is counted once a turn a robot
		for _, e := range events {
			k := e.Robot + "\x00" + e.Option
			switch e.Kind {
			case adjudicator.EvUse, adjudicator.EvProgrammed, adjudicator.EvVoid:
				if slices.Contains(theTen, e.Option) && !ordered[k] {
					g.stale++
				}
			case adjudicator.EvDestroyed:
				g.destroyed++
			}
			// A device launched and a flight (Big Jet logs no use of its own) are
			// uses too, as the demo counts them (judge/demo.go).
			if e.Option != "" && !used[k] && (e.Kind == adjudicator.EvUse || e.Kind == adjudicator.EvLaunch || e.Kind == adjudicator.EvFlew) {
				used[k] = true
				g.uses[e.Option]++
			}
		}
		g.turns++
		st = next
	}
	g.winner = st.Winner
	return g
}

// Bot games on the Armed and Dangerous course, the ten cards the forecast plays used
// (their uses counted) and, for comparison, the same bots with those uses struck from
// their sheets. Every sheet is checked like a mailed one. -long plays more seeds.
func TestArmedBotGames(t *testing.T) {
	if testing.Short() {
		t.Skip("whole games")
	}
	seeds, turns := 2, 40
	if *long {
		seeds = 12
	}
	type tally struct {
		games, won, turns, destroyed, stale int
		uses, held                          map[string]int
	}
	withUses := tally{uses: map[string]int{}, held: map[string]int{}}
	without := tally{uses: map[string]int{}, held: map[string]int{}}
	struck := func(line string) bool {
		return !slices.ContainsFunc(theTen, func(c string) bool { return strings.HasPrefix(line, "use "+c) && !strings.Contains(line, " tag ") })
	}
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		for _, run := range []struct {
			tl   *tally
			keep func(string) bool
		}{{&withUses, nil}, {&without, struck}} {
			g := playArmed(t, seed, turns, run.keep)
			run.tl.games++
			run.tl.turns += g.turns
			run.tl.destroyed += g.destroyed
			run.tl.stale += g.stale
			if g.winner != "" {
				run.tl.won++
			}
			for c, n := range g.uses {
				run.tl.uses[c] += n
			}
			for c, n := range g.held {
				run.tl.held[c] += n
			}
		}
	}
	report := func(name string, tl tally) {
		var ten, other []string
		for _, c := range theTen {
			ten = append(ten, fmt.Sprintf("%s %d/%d", c, tl.uses[c], tl.held[c]))
		}
		for c, n := range tl.uses {
			if !slices.Contains(theTen, c) {
				other = append(other, fmt.Sprintf("%s %d", c, n))
			}
		}
		sort.Strings(ten)
		sort.Strings(other)
		t.Logf("%s: %d games, %d won, %.1f turns a game, %d robots destroyed, %d uses of the ten not ordered that turn", name, tl.games, tl.won, float64(tl.turns)/float64(tl.games), tl.destroyed, tl.stale)
		t.Logf("  the ten cards, robot-turns used/held: %s", strings.Join(ten, ", "))
		t.Logf("  other cards, robot-turns used:   %s", strings.Join(other, ", "))
	}
	report("high-water, the ten cards forecast and used", withUses)
	report("high-water, their uses struck", without)
	if withUses.won*2 < withUses.games {
		t.Errorf("%d of %d games won within %d turns", withUses.won, withUses.games, turns)
	}
	if withUses.stale > 0 {
		t.Errorf("%d uses of the ten cards by an order of an earlier turn still in force", withUses.stale)
	}
	for c := range without.uses {
		if slices.Contains(theTen, c) && c != "Homing Device" {
			t.Errorf("%s used with its orders struck", c)
		}
	}
}
