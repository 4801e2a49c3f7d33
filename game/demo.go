package game

// Demo is what a game brings of its own to the judge's demo (`rallyjudge demo`, judge.RunDemo):
// its bots' orders and what the demo prints of the game. Its methods see the game
// only through the seam (Position, a turn's stored events).
type Demo interface {
	// Setup is the game to create and what to print before it starts; an error says
	// what is wrong with the demo's options ("demo: ...").
	Setup() (DemoSetup, error)
	// Orders is the text a bot mails for seat in turn (the game's order lines, inside
	// the judge's envelope); ok false: the seat mails nothing (it is out of the game).
	// seed is the demo's seed: the same seed writes the same orders.
	Orders(pos Position, seat, turn int, seed int64) (text string, ok bool)
	// TurnLine is the line printed after a turn: the position after it and the turn's
	// stored events.
	TurnLine(pos Position, events []byte) string
	// End is what is printed when the demo ends, after the last turn played (turns):
	// the final table and who won, each line ending in a newline.
	End(pos Position, turns int) string
}

// DemoSetup is a demo's game as Demo.Setup gives it.
type DemoSetup struct {
	Game     string            // the game's name (Kind.Name)
	Title    string            // the game's name in LIST ("Demo race")
	Settings map[string]string // its CREATE settings (the game's Configure reads them)
	Players  []string          // the seats' names; in --play the last is left for the person
	Note     string            // printed first ("" for none), a line ending in a newline
	// Headline is what the demo's first line says of the game and the bots' names:
	// "on course sprint, robots Twonky, Zoombot, Hulk".
	Headline func(bots []string) string
}
