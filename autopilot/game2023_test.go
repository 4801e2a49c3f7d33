package autopilot_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/autopilot"
	"github.com/rallyjudge/rallyjudge/orders"
)

// counts2023 is what bots did in 2023 games, from the events.
type counts2023 struct {
	games, won, rounds          int
	draws, installs, uninstalls int
	uses                        map[string]int // upgrade uses by name
	shutdowns, reboots          int
	facings                     int // plans with a reboot facing
}

func (c counts2023) usesTotal() int {
	n := 0
	for _, v := range c.uses {
		n += v
	}
	return n
}

// play2023 plays one 2023 game bot against bot to a winner or maxRounds. Every robot's
// plan is written as an order sheet (Plan.SheetLines), read and checked as a mailed sheet
// is (orders.Parse, orders.Validate), and played as the judge plays it (Sheet.OwnOrders);
// the plan's own orders (Plan.Orders2023) must play the round identically.
func play2023(t *testing.T, course string, seed uint64, robots, maxRounds int, c *counts2023) {
	t.Helper()
	playRules(t, course, adjudicator.Rules2023(), seed, robots, maxRounds, c)
}

func playRules(t *testing.T, course string, rules adjudicator.Rules, seed uint64, robots, maxRounds int, c *counts2023) {
	t.Helper()
	s, st := newGameRules(t, course, rules, seed, robots)
	p := autopilot.New(s)
	c.games++
	for round := 0; round < maxRounds && !st.Over; round++ {
		fromSheets := make([]adjudicator.Orders, len(st.Robots))
		fromPlans := make([]adjudicator.Orders, len(st.Robots))
		for i := range st.Robots {
			r := &st.Robots[i]
			plan := p.Choose(st, i)
			text := fmt.Sprintf("Robot: %s\nTurn: %d\n%s\n", r.Name, st.Turn, strings.Join(plan.SheetLines(s, r), "\n"))
			sheet, err := orders.Parse([]byte(text))
			if err != nil {
				t.Fatalf("seed %d round %d: the bot's sheet does not read: %v\n%s", seed, st.Turn, err, text)
			}
			if rep := orders.Validate(s, st, r.Name, sheet); !rep.OK() {
				t.Fatalf("seed %d round %d: the bot's sheet is refused: %v\n%s", seed, st.Turn, rep, text)
			}
			o := sheet.OwnOrders(r)
			if errs := s.CheckOrders(st, i, o); len(errs) > 0 {
				t.Fatalf("seed %d round %d: the engine refuses %s's orders: %v\n%s", seed, st.Turn, r.Name, errs, text)
			}
			if o.Program != plan.Program || !reflect.DeepEqual(o.Upgrade, plan.Upgrade) {
				t.Fatalf("seed %d round %d: the sheet reads as %v %+v, the plan is %v %+v\n%s", seed, st.Turn, o.Program, o.Upgrade, plan.Program, plan.Upgrade, text)
			}
			if plan.HasFacing {
				c.facings++
			}
			fromSheets[i], fromPlans[i] = o, plan.Orders2023()
		}
		next, events, err := adjudicator.Resolve(s, st, fromSheets)
		if err != nil {
			t.Fatalf("seed %d round %d: %v", seed, st.Turn, err)
		}
		again, _, err := adjudicator.Resolve(s, st, fromPlans)
		if err != nil {
			t.Fatalf("seed %d round %d: plan orders: %v", seed, st.Turn, err)
		}
		a, _ := json.Marshal(next)
		b, _ := json.Marshal(again)
		if string(a) != string(b) {
			t.Fatalf("seed %d round %d: the sheets and the plans play differently", seed, st.Turn)
		}
		c.rounds++
		for _, e := range events {
			switch e.Kind {
			case adjudicator.EvUpgrade:
				switch e.Cause {
				case "draw":
					c.draws++
				case "install":
					c.installs++
				case "uninstall":
					c.uninstalls++
				}
			case adjudicator.EvUse:
				if _, ok := adjudicator.UpgradeByName(e.Option); ok {
					c.uses[e.Option]++
				}
			case adjudicator.EvShutdown:
				c.shutdowns++
			case adjudicator.EvReboot:
				c.reboots++
			}
		}
		st = next
	}
	if st.Winner != "" {
		c.won++
	}
	t.Logf("docking-run seed %d: %d rounds, winner %q", seed, st.Turn-1, st.Winner)
}

// Bots play whole 2023 games on the docking run to a winner: they mail legal sheets,
// buy, install and use upgrades, and reboot with a chosen facing (issue 11).
func TestAutopilotGames2023(t *testing.T) {
	seeds := 6
	if *long {
		seeds = 30
	}
	const maxRounds = 40
	c := counts2023{uses: map[string]int{}}
	for seed := range seeds {
		play2023(t, "docking-run", uint64(seed+1), 4, maxRounds, &c)
	}
	t.Logf("%d games, %d won within %d rounds, %d rounds in all", c.games, c.won, maxRounds, c.rounds)
	t.Logf("upgrades: %d drawn, %d installed, %d uninstalled; uses %v (%d); %d shutdowns, %d reboots, %d reboot facings chosen",
		c.draws, c.installs, c.uninstalls, c.uses, c.usesTotal(), c.shutdowns, c.reboots, c.facings)
	if c.won*3 < c.games*2 {
		t.Errorf("only %d of %d games had a winner within %d rounds", c.won, c.games, maxRounds)
	}
	if c.draws == 0 || c.installs == 0 || c.usesTotal() == 0 {
		t.Errorf("the bots drew %d upgrades, installed %d and used %d: want all three", c.draws, c.installs, c.usesTotal())
	}
	if c.reboots > 0 && c.facings == 0 {
		t.Errorf("%d reboots but no plan chose a reboot facing", c.reboots)
	}
}

// The bots play the 2023 variants too (seed 004, Variant Rules): legal sheets, and a
// winner; no upgrade orders in the lighter game, which has none.
func TestAutopilotVariants2023(t *testing.T) {
	for _, v := range []struct {
		name string
		set  func(*adjudicator.Rules)
	}{
		{"lighter", func(r *adjudicator.Rules) { r.Lighter, r.EnergyStart, r.EnergyMax = true, 0, 0 }},
		{"less deadly", func(r *adjudicator.Rules) { r.EdgeWalls = true }},
		{"less spammy", func(r *adjudicator.Rules) { r.DiscardSpam = true }},
		{"dynamic archiving", func(r *adjudicator.Rules) { r.DynamicArchive = true }},
	} {
		t.Run(v.name, func(t *testing.T) {
			rules := adjudicator.Rules2023()
			v.set(&rules)
			c := counts2023{uses: map[string]int{}}
			for seed := uint64(1); seed <= 2; seed++ {
				playRules(t, "docking-run", rules, seed, 4, 40, &c)
			}
			if c.won < c.games {
				t.Errorf("%d of %d games won", c.won, c.games)
			}
			if rules.Lighter && c.draws+c.installs+c.usesTotal() > 0 {
				t.Errorf("the lighter game: %d draws, %d installs, %d uses", c.draws, c.installs, c.usesTotal())
			}
		})
	}
}

// The upgrade phase: the best upgrade it can pay for, room made by uninstalling a
// clearly weaker one of its kind, a draw while energy is left and it holds fewer than two
// cards it would install (an Abort Switch, or a second copy, does not count).
func TestPlanUpgrades2023(t *testing.T) {
	for _, tc := range []struct {
		name       string
		energy     int
		installed  []string
		collection []string
		want       adjudicator.UpgradeOrders
	}{
		{"draw with energy", 3, nil, nil, adjudicator.UpgradeOrders{Draw: true}},
		{"nothing without energy", 0, nil, []string{"Zoop"}, adjudicator.UpgradeOrders{}},
		{"Recharge is free", 0, nil, []string{"Recharge"}, adjudicator.UpgradeOrders{Install: "Recharge"}},
		{"the best it can pay", 2, nil, []string{"Brakes", "Mini Howitzer", "Hover Unit"}, adjudicator.UpgradeOrders{Install: "Hover Unit"}},
		{"keep energy for the shield", 3, []string{"Rear Laser"}, []string{"Deflector Shield"}, adjudicator.UpgradeOrders{Install: "Deflector Shield"}},
		{"room for a better one", 3, []string{"Brakes", "Rear Laser", "Ramming Gear"}, []string{"Hover Unit"},
			adjudicator.UpgradeOrders{Uninstall: []string{"Brakes"}, Install: "Hover Unit", Draw: true}},
		{"no room for a slightly better one", 3, []string{"Brakes", "Rear Laser", "Ramming Gear"}, []string{"Memory Swap", "Mini Howitzer"},
			adjudicator.UpgradeOrders{Install: "Memory Swap", Draw: true}},
		{"unwanted cards do not stop draws", 2, []string{"Zoop"}, []string{"Abort Switch", "Abort Switch", "Zoop"}, adjudicator.UpgradeOrders{Draw: true}},
		{"two wanted cards do", 1, nil, []string{"Mini Howitzer", "Brakes"}, adjudicator.UpgradeOrders{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, st := newGame2023(t, "docking-run", 3, 2)
			r := &st.Robots[0]
			r.Mat.Energy, r.Options, r.Mat.Collection = tc.energy, tc.installed, tc.collection
			plan := autopilot.Choose(s, st, 0)
			if fmt.Sprint(plan.Upgrade) != fmt.Sprint(tc.want) {
				t.Errorf("upgrade phase %+v, want %+v", plan.Upgrade, tc.want)
			}
			if errs := s.CheckOrders(st, 0, plan.Orders2023()); len(errs) > 0 {
				t.Errorf("the engine refuses the plan: %v", errs)
			}
		})
	}
}
