package main

import "github.com/rallyjudge/rallyjudge/adjudicator"

// demoBot is how the demo's bot players choose their programs. nil: random legal
// programs (judge.RandomProgram).
var demoBot func(setup *adjudicator.Setup, st *adjudicator.State, robot int) ([adjudicator.Registers]int, []string)
