// Package crashbycrash is the rules engine of Crash by Crash (seed 002 in
// ../shared/rules, a bumper-car game for 2 players, or 4 in two teams), with the gaps
// filled by the rules README and the rulings written beside the code and in
// docs/crash-by-crash.md.
//
// It is pure: no I/O, no clocks, no package-level mutable state, and it imports nothing
// of rallyjudge. A game is a State (a plain value; its JSON is deterministic); a move is
// applied by Apply, a function of (state, seat, move) whose randomness comes from the
// seed and the stream position kept in the state. Players move in turn: State.ToMove
// says whose move is due.
//
// The API:
//
//	NewGame(settings, seed)        deal a game (Settings: 2 or 4 players)
//	Apply(state, seat, move)       play a move: new state, events, or the reason it is refused
//	ParseMove(text), Format(move)  the notation players write (plain text or YAML)
//	State.LegalActions, LegalSeconds  every legal action (set-up placement, first, second)
//	State.Over, Standings, Winners, Hand, Check, Encode; Decode
//	BoardText(state), BoardLegend  the board as text for mail (33 columns)
//	BotMove(state)                 the autopilot's move
//	CellCentre(cell)               where a cell is drawn in a picture (SlotCells, State.Shade,
//	                               State.Present, State.BellAt for what is drawn there)
//	RunScenario(text)              a scenario file's result as JSON (testdata/scenarios)
//	Narrate(events), Event.String  the last move told step by step
//
// Where the rules live, one concept a file:
//
//	hex.go       cells, directions, the tiling of the 5×5 pattern (a ruling)
//	tiles.go     the 25 tile designs (data/tiles.yaml)
//	deck.go      the card kinds and the deck's make-up (data/cards.yaml)
//	state.go     the State; check.go refuses impossible states
//	newgame.go   Game Setup: tiles, bells, operator, cards, stocks
//	setup.go     Game Setup: placing the starting cars, who begins
//	move.go      Move and Action; notation.go the text form
//	turn.go      Player's turn: two actions, bindings, costs, the end-of-turn draw
//	place.go     Placing a standard car: pushes, lines, accumulators, falling off
//	magnet.go    Placing a magnetic car, and every magnet's pull after each action
//	operator.go  Agreement with operator
//	cards.go     Cards overview: all twelve cards
//	exchange.go  Exchanging two cards
//	scoring.go   Scoring event
//	legal.go     every legal action
//	events.go    the event log
//	boardtext.go the board as text
//	bot.go       the autopilot
//	scenario.go  scenario files
package crashbycrash
