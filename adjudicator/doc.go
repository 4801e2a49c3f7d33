// Package adjudicator is rallyjudge's rules engine: the classic RoboRally turn as the
// 1997 postal rules play it (seed 003 in ../shared/rules), with the gaps filled by the
// rules README.
//
// It is pure: no I/O, no clocks, no package-level mutable state. Resolving a turn is a
// function of (setup, state, orders, seed) that returns the new state and an event log;
// the same inputs give the same bytes. Everything a player decides at the table is asked
// of a [Decider], which the orders package implements from written (conditional) orders.
//
// Where the rules live, one concept a file:
//
//	geom.go       squares, directions, rotation
//	card.go       the 84-card program deck (data/deck.txt) and dealing
//	board.go      the factory floor: squares, walls, board elements
//	course.go     boards placed into a course, flags, start squares
//	boardtext.go  the text board format (docs/boards.md)
//	state.go      robots and game state
//	decisions.go  the Decider interface and its documented defaults
//	turn.go       a whole turn: deal, five registers, end of turn
//	move.go       phase b: program cards, movement, pushing
//	belts.go      phase c: express and normal conveyor belts
//	elements.go   phase c: pushers, gears, crushers
//	lasers.go     phase d: board and robot lasers
//	flags.go      phase e: flags and archive markers
//	endturn.go    end of turn: repairs, re-entry, virtual robots, power down
//	options.go    option cards: the list (data/options.txt), drawing, discarding
//	optiondeck.go which cards a game deals: the implemented and scenario-tested ones
//	effects.go    the option-effect design: hook interfaces and where the turn asks them
//	cards_crashburn.go  the 26 Crash & Burn cards, one type a card (seed 000)
//	answer.go     reading a Decider's answer to an option question
//	simulate.go   forecasts: Simulate, and the allocation-free Simulator for autopilots
//	resolver.go   Resolver: turn after turn in reused memory (Resolve is a one-use one)
//	events.go     the event log
package adjudicator
