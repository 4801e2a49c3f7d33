package picture

import (
	"fmt"
	"math/rand/v2"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// demoNames are the robots of a demo game, in seating order.
func demoNames() []string {
	return []string{"Zoom", "Blue", "Hammer", "Twitch", "Spin", "Kid", "Trundle", "Squash"}
}

// Demo is a turn of a seeded game for pictures: the robots before the turn and the
// turn's event log.
type Demo struct {
	Setup  *adjudicator.Setup
	Turn   int                 // the turn shown
	Before []adjudicator.Robot // the robots as the turn began
	Events []adjudicator.Event
	After  *adjudicator.State
}

// DemoTurn plays a seeded game of n robots on the course, each robot playing five
// cards drawn at random from its dealt hand (seeded too), and returns its turn-th turn.
// Robots start real, one to a start square, when the course has enough of them, so
// the picture shows robots spread over the floor; otherwise they share start 1 as the
// postal rules have it. The same arguments give the same turn.
func DemoTurn(c *adjudicator.Course, n int, seed uint64, turn int) (*Demo, error) {
	names := demoNames()
	if n < 1 || n > len(names) {
		return nil, fmt.Errorf("demo turn: %d robots (want 1 to %d)", n, len(names))
	}
	if turn < 1 {
		turn = 1
	}
	rules := adjudicator.PostalRules()
	rules.SharedStart = len(c.Starts) < n
	if c.Rules == "2023" {
		rules = adjudicator.Rules2023()
		if len(c.Starts) < n {
			return nil, fmt.Errorf("demo turn: %d robots, but the 2023 rules give each a start square of its own and course %q has %d", n, c.Name, len(c.Starts))
		}
	}
	setup, err := adjudicator.NewSetup(c, rules, seed, nil)
	if err != nil {
		return nil, fmt.Errorf("demo turn: %w", err)
	}
	st, _, err := adjudicator.NewGame(setup, names[:n])
	if err != nil {
		return nil, fmt.Errorf("demo turn: %w", err)
	}
	rng := rand.New(rand.NewPCG(seed, 0x7069637475726521))
	for t := 1; ; t++ {
		orders := make([]adjudicator.Orders, len(st.Robots))
		for i := range st.Robots {
			orders[i].Program = randomProgram(&st.Robots[i], rng)
			orders[i].Upgrade = demoUpgrades(&st.Robots[i])
		}
		before := append([]adjudicator.Robot(nil), st.Robots...)
		next, events, err := adjudicator.Resolve(setup, st, orders)
		if err != nil {
			return nil, fmt.Errorf("demo turn %d: %w", t, err)
		}
		if t == turn || next.Over {
			return &Demo{Setup: setup, Turn: t, Before: before, Events: events, After: next}, nil
		}
		st = next
	}
}

// randomProgram fills the robot's unlocked registers with cards from its hand in a
// random order; locked registers and powered-down robots get 0.
func randomProgram(r *adjudicator.Robot, rng *rand.Rand) [adjudicator.Registers]int {
	var prog [adjudicator.Registers]int
	if r.Out || r.Power == adjudicator.PowerDown {
		return prog
	}
	hand := append([]int(nil), r.Hand...)
	rng.Shuffle(len(hand), func(i, j int) { hand[i], hand[j] = hand[j], hand[i] })
	k := 0
	for reg := 1; reg <= adjudicator.Registers; reg++ {
		if r.IsLocked(reg) || k >= len(hand) || (r.Mat != nil && r.Mat.Haywire[reg-1] != 0) {
			continue
		}
		prog[reg-1] = hand[k]
		k++
	}
	return prog
}

// demoUpgrades is a 2023 robot's upgrade phase in a demo: install the first upgrade it
// holds that it can pay for and has room for, then draw one while 2 energy are left.
func demoUpgrades(r *adjudicator.Robot) adjudicator.UpgradeOrders {
	var u adjudicator.UpgradeOrders
	if r.Mat == nil {
		return u
	}
	energy := r.Mat.Energy
	for _, name := range r.Mat.Collection {
		up, ok := adjudicator.UpgradeByName(name)
		if !ok || up.Cost > energy {
			continue
		}
		n := 0
		for _, o := range r.Options {
			if x, _ := adjudicator.UpgradeByName(o); x.Temporary == up.Temporary {
				n++
			}
		}
		if n < adjudicator.MaxTemporary && n < adjudicator.MaxPermanent {
			u.Install, energy = up.Name, energy-up.Cost
			break
		}
	}
	u.Draw = energy >= 2
	return u
}
