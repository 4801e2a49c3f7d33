package autopilot_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/autopilot"
)

var long = flag.Bool("long", false, "play the long autopilot-versus-random comparison")

// policy gives one robot's orders for the turn about to be played.
type policy func(st *adjudicator.State, i int) adjudicator.Orders

func autopilotPolicy(s *adjudicator.Setup) policy {
	p := autopilot.New(s)
	d := p.Decider()
	return func(st *adjudicator.State, i int) adjudicator.Orders {
		return adjudicator.Orders{Program: p.Choose(st, i).Program, Decider: d}
	}
}

// randomPolicy shuffles the hand (seeded) and plays its first cards in the unlocked
// registers, with the engine's default decisions.
func randomPolicy(seed uint64) policy {
	return func(st *adjudicator.State, i int) adjudicator.Orders {
		r := &st.Robots[i]
		var o adjudicator.Orders
		if r.Out || r.Power == adjudicator.PowerDown {
			return o
		}
		rng := rand.New(rand.NewPCG(seed, uint64(st.Turn)*16+uint64(i)))
		hand := slices.Clone(r.Hand)
		rng.Shuffle(len(hand), func(a, b int) { hand[a], hand[b] = hand[b], hand[a] })
		for reg := 1; reg <= adjudicator.Registers; reg++ {
			if !r.IsLocked(reg) && len(hand) > 0 {
				o.Program[reg-1], hand = hand[0], hand[1:]
			}
		}
		return o
	}
}

// gameStats is what one game shows.
type gameStats struct {
	turns     int   // turns played
	firstFlag []int // per robot: the turn it touched flag 1, 0 if never
	flags     int   // flags touched by all robots
	winner    string
}

// play runs up to maxTurns turns of a game, every robot on policy pol.
func play(t testing.TB, s *adjudicator.Setup, st *adjudicator.State, maxTurns int, pol policy) gameStats {
	t.Helper()
	g := gameStats{firstFlag: make([]int, len(st.Robots))}
	for !st.Over && g.turns < maxTurns {
		orders := make([]adjudicator.Orders, len(st.Robots))
		for i := range st.Robots {
			orders[i] = pol(st, i)
		}
		next, _, err := adjudicator.Resolve(s, st, orders)
		if err != nil {
			t.Fatalf("turn %d: %v", st.Turn, err)
		}
		g.turns++
		for i := range next.Robots {
			if g.firstFlag[i] == 0 && next.Robots[i].Flags > 0 {
				g.firstFlag[i] = st.Turn
			}
		}
		st = next
	}
	for i := range st.Robots {
		g.flags += st.Robots[i].Flags
	}
	g.winner = st.Winner
	return g
}

// summary is a policy's figures over many games.
type summary struct {
	games, robots     int
	flags             int // flags touched in all
	reached, turnsSum int // robots that touched flag 1, and the turns they took
	wins              int
	firstSum          int // per game: the turn the first robot touched flag 1 (maxTurns+1 if none)
}

func (m *summary) add(g gameStats, maxTurns int) {
	m.games++
	m.flags += g.flags
	first := maxTurns + 1
	for _, f := range g.firstFlag {
		if f > 0 {
			first = min(first, f)
		}
	}
	m.firstSum += first
	for _, f := range g.firstFlag {
		m.robots++
		if f > 0 {
			m.reached++
			m.turnsSum += f
		}
	}
	if g.winner != "" {
		m.wins++
	}
}

func (m summary) flagsPerGame() float64 { return float64(m.flags) / float64(max(m.games, 1)) }

// firstInGame averages the turn flag 1 was first touched in a game.
func (m summary) firstInGame() float64 { return float64(m.firstSum) / float64(max(m.games, 1)) }

func (m summary) String() string {
	return fmt.Sprintf("%.2f flags/game; flag 1 first touched at turn %.1f per game; %d/%d robots touched flag 1 (at turn %.1f on average); %d wins",
		m.flagsPerGame(), m.firstInGame(), m.reached, m.robots, float64(m.turnsSum)/float64(max(m.reached, 1)), m.wins)
}

// The autopilot reaches flags far sooner than random programs (issue 6, Autopilot).
func TestAutopilotBeatsRandom(t *testing.T) {
	games, turns := 30, 20
	courses := []string{"sprint", "long-haul"}
	if *long {
		games = 100
		courses = append(courses, "stampede")
	}
	for _, course := range courses {
		t.Run(course, func(t *testing.T) {
			var ap, rnd summary
			robots := 4
			if course == "stampede" {
				robots = 8
			}
			for g := range games {
				seed := uint64(1000 + g)
				s, st := newGame(t, course, seed, robots)
				ap.add(play(t, s, st, turns, autopilotPolicy(s)), turns)
				s, st = newGame(t, course, seed, robots)
				rnd.add(play(t, s, st, turns, randomPolicy(seed)), turns)
			}
			t.Logf("%s, %d games x %d robots, at most %d turns:", course, games, robots, turns)
			t.Logf("  autopilot: %v", ap)
			t.Logf("  random:    %v", rnd)
			if ap.flags < 2*rnd.flags || ap.flags == 0 {
				t.Errorf("autopilot touched %d flags, random %d: want at least twice as many", ap.flags, rnd.flags)
			}
			if ap.firstInGame() >= rnd.firstInGame()/2 {
				t.Errorf("flag 1 first touched at turn %.1f by the autopilot, %.1f at random: want under half", ap.firstInGame(), rnd.firstInGame())
			}
		})
	}
}

// Four autopilot bots on "sprint" finish the race within 60 turns for most seeds.
func TestAutopilotGamesEnd(t *testing.T) {
	seeds := 20
	if *long {
		seeds = 100
	}
	won, total := 0, 0
	for seed := range seeds {
		s, st := newGame(t, "sprint", uint64(seed+1), 4)
		g := play(t, s, st, 60, autopilotPolicy(s))
		total += g.turns
		if g.winner != "" {
			won++
		}
		t.Logf("seed %d: %d turns, winner %q", seed+1, g.turns, g.winner)
	}
	t.Logf("sprint: %d of %d games won within 60 turns, %.1f turns on average", won, seeds, float64(total)/float64(seeds))
	if won*4 < seeds*3 {
		t.Errorf("only %d of %d games had a winner within 60 turns", won, seeds)
	}
}
