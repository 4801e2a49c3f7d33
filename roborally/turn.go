package roborally

import (
	"fmt"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/autopilot"
	"github.com/rallyjudge/rallyjudge/orders"
)

// The missed-orders policies: what is played for a robot that must run a program and
// has no valid one at the deadline. The names are those the judge stores
// (store.MissedPolicy, and "autopilot").
const (
	MissedPowerDown = "powerdown"
	MissedRandom    = "random"
	MissedAutopilot = "autopilot"
)

// Turn is one turn's orders put together for the engine (Prepare).
type Turn struct {
	// Orders are each robot's engine orders, in seat order.
	Orders []adjudicator.Orders
	// Played is the record of what was played, in seat order (the sheets hold the
	// standing orders only, never the secret): with the state before the turn it
	// replays the turn.
	Played []orders.Played
	// Missed are the robots (by name) played by the missed-orders policy.
	Missed map[string]bool
	// Notes are what every player is told of missed orders; Private, by robot, what its
	// player alone is told of what was played for it.
	Notes   []string
	Private map[string]string
	// Refused are the robots whose orders the engine refused after every check here
	// (played as Act Fast would): a check is missing, the caller logs it.
	Refused []Refused
}

// Refused is one robot's orders the engine refused after Prepare's checks.
type Refused struct {
	Robot string
	Err   error
}

// Prepare puts a turn's orders together: each robot's sheet as the engine takes it
// (sheets[i] is robot i's effective sheet — its standing orders with this turn's sheet
// merged over them — or nil), and for a robot that must run a program and has none the
// missed-orders policy policy(i) names. st is changed where a policy says so (a robot
// powered down by the postal policy powerdown). seed and turn fix the random policy's
// draw.
//
// Under the 2023 rules the policy powerdown shuts the robot down for the round, and an
// upgrade phase the robot cannot pay for as the round begins is dropped
// (docs/rules-2023.md).
func Prepare(setup *adjudicator.Setup, st *adjudicator.State, sheets []*orders.Sheet, policy func(robot int) string, seed int64, turn int) Turn {
	t := Turn{Orders: make([]adjudicator.Orders, len(st.Robots)), Played: make([]orders.Played, len(st.Robots)),
		Missed: map[string]bool{}, Private: map[string]string{}}
	ords, played := t.Orders, t.Played
	own := setup.Rules.Own()
	for i := range st.Robots {
		r := &st.Robots[i]
		var sheet *orders.Sheet
		if i < len(sheets) {
			sheet = sheets[i]
		}
		played[i] = orders.Played{Robot: r.Name}
		if sheet != nil {
			ords[i] = EngineOrders(setup, r, sheet)
			rulesOnly := *sheet
			rulesOnly.Program, rulesOnly.Secret = nil, ""
			played[i].Sheet = &rulesOnly
			played[i].Shutdown = ords[i].Shutdown
		}
		if !NeedsProgram(*r) || (HasOrders(*r, sheet) && ValidProgram(setup, st, i, withoutUpgrades(ords[i]))) {
			continue
		}
		t.Missed[r.Name] = true
		switch p := policy(i); {
		case p == MissedAutopilot:
			plan := autopilot.Choose(setup, st, i)
			ords[i].Program = plan.Program
			played[i].Missed = MissedAutopilot
			// With no orders of its own at all, the robot's decisions follow the
			// autopilot's suggested standing orders too (kept in the record, so the
			// turn replays); under the 2023 rules its upgrade phase too, when the
			// engine takes it.
			if sheet == nil || len(sheet.Rules) == 0 {
				if auto := AutopilotSheet(plan.Orders); auto != nil {
					o := ords[i]
					o.Decider = orders.Compile(auto)
					if own {
						o.Upgrade, o.Shutdown = auto.OwnOrders(r).Upgrade, plan.Shutdown
						if !ValidProgram(setup, st, i, o) {
							auto = auto.WithoutUpgradePhase()
							o.Decider, o.Upgrade = orders.Compile(auto), adjudicator.UpgradeOrders{}
						}
					}
					ords[i] = o
					played[i].Sheet = auto
				}
			}
			if own && plan.Shutdown { // the autopilot shuts the robot down (autopilot/rules2023.go)
				ords[i].Shutdown = true
			}
			played[i].Shutdown = ords[i].Shutdown
			t.Notes = append(t.Notes, fmt.Sprintf("%s sent no orders: the autopilot played %s.", r.Name, ProgramWords(setup, ords[i].Program)))
			t.Private[r.Name] = fmt.Sprintf("the autopilot played %s for you.\nWhy: %s", ProgramWords(setup, ords[i].Program), plan.Why)
		case p == MissedRandom:
			ords[i].Program = RandomProgram(setup, st, i, seed, turn)
			played[i].Missed = MissedRandom
			what := "a random program was played"
			if own {
				what = "Act Fast filled its registers at random from its hand"
			}
			t.Notes = append(t.Notes, fmt.Sprintf("%s sent no orders: %s (%s).", r.Name, what, ProgramWords(setup, ords[i].Program)))
			t.Private[r.Name] = fmt.Sprintf("%s for you: %s.", what, ProgramWords(setup, ords[i].Program))
		case own:
			// Ruling R-MISSED-SHUTDOWN (docs/rules-2023.md): under the 2023 rules a
			// robot without orders shuts down for the round, with seed 004's
			// consequences, exactly as if its orders had said "shut down": a
			// shutdown is declared for the round it is played in, so it gives
			// nothing an order could not.
			ords[i].Program, ords[i].Shutdown = [adjudicator.Registers]int{}, true
			played[i].Missed, played[i].Shutdown = MissedPowerDown, true
			t.Notes = append(t.Notes, fmt.Sprintf("%s sent no orders: it is shut down this round.", r.Name))
			t.Private[r.Name] = "your robot was shut down for the round (no orders): its damage cards in hand were discarded, it played nothing."
		default:
			// Ruling (missed orders, power down): the robot sits the turn out powered
			// down, as if it had announced it; unlike an announced power down it is
			// not repaired (a missed turn is no free repair).
			r.Power = adjudicator.PowerDown
			ords[i].Program = [adjudicator.Registers]int{}
			played[i].Missed = MissedPowerDown
			t.Notes = append(t.Notes, fmt.Sprintf("%s sent no orders: it is powered down this turn.", r.Name))
			t.Private[r.Name] = "your robot was powered down for the turn (no program, no repair)."
		}
	}
	if own {
		for i := range st.Robots {
			// An upgrade phase the robot cannot pay for as the round begins (two
			// sheets of the round, each checked alone, or a missed program's
			// filling) is dropped, and the program played.
			if !st.Robots[i].Out && !ords[i].Upgrade.Empty() && !ValidProgram(setup, st, i, ords[i]) {
				ords[i].Upgrade = adjudicator.UpgradeOrders{}
				if played[i].Sheet != nil {
					played[i].Sheet = played[i].Sheet.WithoutUpgradePhase()
					ords[i].Decider = orders.Compile(played[i].Sheet)
				}
				t.Private[st.Robots[i].Name] = strings.TrimSpace(t.Private[st.Robots[i].Name] + "\n" +
					"your upgrade orders could not be carried out together (each sheet was checked alone, or energy ran short): none was.")
			}
			// Never a turn held up by orders the engine refuses: what is left is
			// played as Act Fast would (reported: it means a check above is missing).
			if errs := setup.CheckOrders(st, i, ords[i]); !st.Robots[i].Out && len(errs) > 0 {
				t.Refused = append(t.Refused, Refused{Robot: st.Robots[i].Name, Err: errs[0]})
				ords[i] = adjudicator.Orders{Program: randomOwnProgram(st, i, seed, turn)}
				played[i].Sheet, played[i].Shutdown, played[i].Missed = nil, false, MissedRandom
			}
		}
	}
	for i := range played {
		played[i].Program = ords[i].Program
	}
	return t
}

// Standing is what of a robot's sheet stands in the turns after the one it was played
// for: its orders without the program, and under the 2023 rules without the round's
// own orders either (the upgrade phase, a plain shutdown: orders.Sheet.Standing2023).
func Standing(rules adjudicator.Rules, s *orders.Sheet) *orders.Sheet {
	if s == nil {
		return nil
	}
	c := *s
	c.Program = nil
	if rules.Own() {
		return c.Standing2023()
	}
	return &c
}
