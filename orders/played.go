package orders

import (
	"encoding/json"
	"fmt"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// Played is one robot's orders as the engine played them in a turn: the judge keeps
// one per robot with every resolved turn, and archives carry them, so that the turn
// replays bit for bit from the state before it. Sheet holds the standing and
// conditional orders that answered the robot's decisions (never a program or a
// secret). Missed names the missed-orders policy applied, if any: "powerdown" (the
// robot was powered down for the turn in the state given to the engine), "random" or
// "autopilot" (the program was chosen for it).
type Played struct {
	Robot   string                     `json:"robot"`
	Program [adjudicator.Registers]int `json:"program"`
	Sheet   *Sheet                     `json:"sheet,omitempty"`
	Missed  string                     `json:"missed,omitempty"`
	// Shutdown: the robot was shut down for the round outright (2023 rules: a plain
	// "shut down" order, or the missed-orders policy powerdown), Orders.Shutdown.
	Shutdown bool `json:"shutdown,omitempty"`
}

// Orders are the engine orders the record stands for: the program as played, and what
// the sheet's orders say (Sheet.Orders): the decider and, under the 2023 rules, the
// upgrade phase (a conditional shutdown and the reboot facing are the decider's
// answers); Shutdown, a shutdown outright.
func (p Played) Orders() adjudicator.Orders {
	o := adjudicator.Orders{Program: p.Program}
	if p.Sheet != nil {
		o = p.Sheet.Orders()
		o.Program = p.Program
	}
	o.Shutdown = p.Shutdown
	return o
}

// Check refuses a record no judge writes (a saved turn or an archive is read from
// outside): a missed-orders policy it does not know, or an order the order language
// cannot say, such as an unknown action or test. Every rule must read back from its
// own text as itself (Rule.String, ParseRule).
func (p Played) Check() error {
	switch p.Missed {
	case "", "powerdown", "random", "autopilot":
	default:
		return fmt.Errorf("unknown missed-orders policy %q (want powerdown, random or autopilot)", p.Missed)
	}
	if p.Sheet == nil {
		return nil
	}
	if len(p.Sheet.Rules) > MaxRules {
		return fmt.Errorf("%d orders, at most %d", len(p.Sheet.Rules), MaxRules)
	}
	for i, r := range p.Sheet.Rules {
		text := r.String()
		back, err := ParseRule(text, 0)
		if err != nil {
			return fmt.Errorf("order %d (%q) is no order: %v", i+1, text, err)
		}
		a, _ := json.Marshal(r)
		b, _ := json.Marshal(back)
		if string(a) != string(b) {
			return fmt.Errorf("order %d (%q) is no order the sheets can say: %s", i+1, text, a)
		}
	}
	return nil
}
