package game

// The optional parts of the seam that the judge's mail commands ask for (STATUS,
// HISTORY, KICK and WITHDRAW, REPLACE, SET, LIST and the acknowledgement of a move).
// Each is a small interface; the judge asks for it by type assertion and, for a game
// without it, answers in its own general words. A game implements the ones whose
// answers it can say better: RoboRally (package roborally) says its robots, programs
// and missed-orders policies as the players of RoboRally by mail have always read them.

// OffTurn is a Position some of whose seats that are not due may still send a move
// for the turn (RoboRally: a powered-down robot's player says whether it stays down,
// and the turn waits for it: game.Holder). MaySend says whether seat may; such a
// move is checked as a due seat's, and the judge plays the seat's latest (folded,
// game.Folder) with the due seats' moves. It is never missed: the autopilot plays
// nothing for it.
type OffTurn interface {
	MaySend(seat int) bool
}

// SheetReader is a Kind whose moves are order sheets the judge's own reader reads
// whole (package orders, which reads every mail's envelope lines): what that reader
// finds wrong counts from the start, as it always has for RoboRally (a sheet without
// its secret but with errors is answered that it has errors, the errors withheld).
// For a Kind that is not one, the judge leaves the move's lines to Check.
type SheetReader interface {
	ReadsOrderSheets() bool
}

// Describer is a Config that says in its own words what a game of it plays and how
// its settings stand, where the judge's replies say it (what a missing move becomes,
// for STATUS and the reminder, is game.MissedRuler's).
type Describer interface {
	// Describe is what the game plays in a few words, for the replies' first lines
	// ("Game spring, course sprint: running."); without it the Kind's Title.
	Describe() string
	// MissedLine and RulesLine are the settings shown back to a game master (CREATE,
	// SET): the missed-move policy and the rules, each in a line.
	MissedLine() string
	RulesLine() string
	// ListLine is the game's settings after the deadline and the grace in LIST's line.
	ListLine() string
}

// Tagline is a Kind that says in a line what it is and its main settings, for HELP's
// list of games (RoboRally: "RoboRally: programs of five cards, everyone at once
// (course=NAME, options=DECK, rules.KEY=VALUE)"); without it HELP gives its Title.
type Tagline interface {
	Tagline() string
}

// Labeler is a Config that names what a game of it plays in a word, for LIST's column
// (RoboRally: the course, "sprint"); without it LIST shows the game's name.
type Labeler interface {
	Label() string
}

// Announcer is a Config whose game words the reply to CREATE itself (RoboRally: the
// course, then the judge's settings, then its rules settings one a line), given the
// new game's tag and the judge's settings as it shows them (a line each).
type Announcer interface {
	Announce(tag, settings string) string
}

// Wording is a Config whose game names its things in the judge's replies to START,
// a JOIN's CONFIRM and RESUME (RoboRally: each player plays a robot and gets a hand).
// Without it the judge says players, moves and reports.
type Wording interface {
	Words() Words
}

// Words are a game's names for the judge's things, each as it reads after "the".
type Words struct {
	Seat   string // what a player plays: "robot" (plural: with an s)
	First  string // what a player gets as the game starts: "first hand"
	Orders string // what a player's orders are written on: "order sheet"
	Move   string // what a seat sends for a turn: "program"
}

// Settable is a Config some of whose settings a game master may change after CREATE,
// with SET KEY VALUE, as the judge's own (RoboRally: missed=). Set is the settings
// with key changed; ok false when key is none of the game's (the judge reads it as its
// own, if it is); an error refuses the value and changes nothing. A Config that is not
// Settable refuses every key of its own after CREATE.
//
// Players is the game's answer for the judge's player limit (SET players N): ok
// false when how many play is the game's rule, set at CREATE, and not a limit a game
// master moves; max is the most seats the game takes.
type Settable interface {
	Set(key, value string) (c Config, ok bool, err error)
	Players() (max int, ok bool)
}

// Roster is a Position that says how each seat stands, for STATUS's list of the seats
// (without it: "to move", "waiting for the others", the standings below).
type Roster interface {
	// SeatLine is a seat's state in words ("orders in", "out of the race",
	// "3 flags" when the game is over); in says whether the seat's move for the turn
	// being collected is in.
	SeatLine(seat int, in bool) string
	// Gone says why a seat is no longer in the game ("out of the race"), "" while it
	// is: a seat that is gone is not given to a new player (REPLACE).
	Gone(seat int) string
}

// Departures is a Leaver that says in its words what becomes of a withdrawn seat:
// Departure is the end of the game master's reply to KICK and of a player's to
// WITHDRAW ("the robot leaves the race when turn 4 is resolved"), and Notice what the
// withdrawn player is told ("your robot Hulk leaves the race").
type Departures interface {
	Departure(seat, turn int) string
	Notice(seat int) string
}

// Chronicle is a Kind that says its game's turns in a line each, for HISTORY: SetUp
// is the line of turn 0 ("the robots were placed"), TurnLine a turn's from the
// events Play returned ("Zoombot touched flag 1.").
type Chronicle interface {
	SetUp() string
	TurnLine(events []byte) string
}

// Rollcall is a Position that says, for the game masters' summary of a turn played
// from it (events: what Play returned), how a seat came into the turn: gone (out of
// the game: listed as out), and a note after its name: what was played for it when
// its move was missing ("powerdown"), or why it had none to send ("powered down").
// Without it the judge mails the game masters no summary of the turn.
type Rollcall interface {
	Rollcall(seat int, events []byte) (gone bool, note string)
}

// Acknowledger is a Position that writes the whole reply to an accepted move in its
// own layout (RoboRally: the program register by register, the 2023 player mat, the
// standing orders in force, the warnings with their lines, the forecast, how many
// robots' orders are in). text is the orders as Check read and accepted them; t is
// what the judge knows of the turn. "": the judge's own reply. An error (t.Render's:
// an operator's template that breaks) fails the mail, kept to be taken up again.
type Acknowledger interface {
	Acknowledge(seat int, text string, t AckTurn) (string, error)
}

// Refuser is a Position that says in its own words why a move was refused (Check's
// problems, or a move sent for another turn than t.Turn): the line above the
// problems, the problems (each with its line and column: the judge quotes that line
// of the mail below it) and the advice below them. text is the mail's orders as the
// judge read them, the envelope's lines (game, player, secret, turn) kept; t's Game,
// Player and Turn are set. ok false: the judge's own words.
type Refuser interface {
	Refusal(seat int, text string, t AckTurn) (summary string, problems []Problem, hint string, ok bool)
}

// AckTurn is the turn a move was accepted for, as the judge knows it.
type AckTurn struct {
	Game   string // the game's tag
	Player string // the seat's player's name (a robot's)
	Turn   int
	// File is the name of the attached file the orders were read from ("": the mail's
	// text), as FileChecker takes it.
	File string
	// Deadline is when the turn's moves are due, in the player's time zone and
	// with the time left.
	Deadline string
	Paused   bool
	// Missing is how many due seats of players still in the game have no move in,
	// this one counted in.
	Missing int
	// Holds are why the turn waits for its deadline though every due move is in
	// (game.Holder, a player's WAIT).
	Holds []string
	// Fold is the seat's moves of the turn folded (game.Folder), this one last; the
	// move alone when it is the first or the game folds none.
	Fold Move
	// Render renders one of the judge's text templates (an operator's overrides
	// included), for a game whose reply is one of them; nil: the game's own. When the
	// reply is Render's text whole, the judge may render it later, on another goroutine
	// (a batch renders its replies beside the one that judges them): what data holds
	// must not change once Acknowledge returns.
	Render func(name string, data any) (string, error)
}

// FileChecker is a Position whose orders sent as an attached file are read as the file's
// name says (RoboRally: an attached .yaml is YAML whether or not it starts with "---",
// as `rallyjudge check` reads a .yaml file). The judge calls CheckFile, not Check, for
// orders it read from an attachment, and gives Acknowledger and Refuser the name in
// AckTurn.File.
type FileChecker interface {
	CheckFile(seat int, text, file string) Checked
}
