// Package scenario reads, runs and checks rules scenarios: small rulebook examples
// written as text (docs/scenarios.md), each a board, robots, their programs and
// decisions, a seed, and the state and events the rules say must follow. They are the
// adjudicator's test suite, like the DATC cases of Diplomacy adjudicators, and the input
// of `rallyjudge resolve`.
//
// The package only turns text into adjudicator values and compares results; it must not
// decide any rule itself (the adjudicator does) and does no I/O except Load reading the
// one file it is given.
package scenario
