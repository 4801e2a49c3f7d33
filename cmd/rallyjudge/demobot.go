package main

import (
	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/autopilot"
)

// demoBot is how the demo's bot players choose their programs: the autopilot's best
// program for the hand, with its suggested standing orders.
func demoBot(setup *adjudicator.Setup, st *adjudicator.State, robot int) ([adjudicator.Registers]int, []string) {
	p := autopilot.Choose(setup, st, robot)
	return p.Program, p.Orders
}
