// Package autopilot plays a robot: it chooses a program from the robot's hand by
// trying every legal one through the engine's forecast ([adjudicator.Simulator]) and
// scoring where each leaves the robot, and answers the run-time decisions a bot makes
// ([Decider]: power down, double wrench, re-entry facing, options).
//
// It serves the missed-orders policy "autopilot" (the player is told what was played,
// from [Plan.Why]) and the demo's bot players.
//
//	guide.go    per-setup static knowledge: path distance to every flag, laser beams
//	choose.go   the search over every legal program
//	score.go    how a forecast outcome is valued
//	options.go  the orders a bot writes for its option cards (one policy a card)
//	armed.go    the Armed and Dangerous cards the forecast plays (Big Jet, Crab Legs,
//	            Buzz Bomb ...): uses tried on the search's best programs
//	explain.go  the player-facing reason and suggested standing orders
//	decider.go  a Decider for bots
//	rules2023.go  the 2023 rules: upgrade phase, shutdown, reboot facing, upgrade uses,
//	            and the plan as order-sheet lines (Plan.SheetLines)
//	rival.go    the 2023 search's best programs played against the nearest rival's
//	            likely programs
//	unknown.go  a SPAM's (or a first Again's) replacement from the hidden deck, weighed
//	            over the cards the deck holds
//
// It imports only the adjudicator. It must not decide any rule (movement, damage and
// legality come from the engine), do I/O, keep package-level mutable state, or use
// chance: the same game gives the same plan every run, so an archive replays (the
// rival's hands rival.go imagines come from a generator seeded by the position).
package autopilot
