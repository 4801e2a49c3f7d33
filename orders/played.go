package orders

import "github.com/rallyjudge/rallyjudge/adjudicator"

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
}

// Orders are the engine orders the record stands for.
func (p Played) Orders() adjudicator.Orders {
	o := adjudicator.Orders{Program: p.Program}
	if p.Sheet != nil {
		o.Decider = Compile(p.Sheet)
	}
	return o
}
