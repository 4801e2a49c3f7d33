package game

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Kind is one game the judge can host. Its methods are safe to call concurrently.
type Kind interface {
	// Name is the game's name in CREATE game=NAME and `game create --game NAME`:
	// lower case, letters, digits and dashes.
	Name() string
	// Title is the name for people ("Crash by Crash").
	Title() string
	// Configure reads the game's own settings from CREATE's key=value pairs (keys the
	// judge itself reads — game, gm, seed, deadline, ... — are not passed). An unknown
	// key or a bad value is an error that names it.
	Configure(kv map[string]string) (Config, error)
	// LoadConfig reads settings Configure made and the store kept (hostile bytes: an
	// error, never a panic).
	LoadConfig(raw []byte) (Config, error)
	// Start sets up the first position for the seats (players' names, seat order) with
	// the seed.
	Start(c Config, seats []string, seed int64) (Position, error)
	// Load reads a position a Position encoded (hostile bytes: an error; an impossible
	// state is refused, not played).
	Load(c Config, state []byte) (Position, error)
	// Guide is how to write orders, for HELP and the foot of every report.
	Guide() string
}

// Config is a game's settings.
type Config interface {
	// Seats is how many players the game takes: a game starts with Min..Max seated.
	Seats() (min, max int)
	// Text is the settings in words, for LIST and the welcome mail.
	Text() string
	// Encode is the settings as stored.
	Encode() ([]byte, error)
}

// Position is the state of a game between two moves. A Position is never changed:
// Play returns a new one. Its methods are safe to call concurrently: the judge keeps a
// game's position across transactions, and checks sheets with it beside the writer
// (ReadChecker).
type Position interface {
	// Encode is the position as stored: deterministic bytes.
	Encode() ([]byte, error)
	// Due is the seats whose orders the position waits for, in seat order: every seat
	// still playing in a simultaneous game, one seat in a game played in turn. Empty
	// when the game is over.
	Due() []int
	// Over says whether the game has ended.
	Over() bool
	// Standings are the seats best first (Rank 1 the winner; equal ranks share).
	Standings() []Standing
	// Check reads one seat's orders, written in text (line n of text is line n of the
	// player's mail; lines the judge read as the envelope — game, player, secret, turn —
	// are blank) and says whether they can be played from this position.
	Check(seat int, text string) Checked
	// Play plays the due seats' moves (every due seat has one: a missed one is the
	// Autopilot's) with the turn's seed.
	Play(moves map[int]Move, seed int64) (Result, error)
	// Autopilot is the move the judge plays for a due seat that sent none in time.
	Autopilot(seat int, seed int64) Move
	// Report is what one seat is told of the position after the move whose events are
	// given (nil: the start); seat -1 is the public report (observers, the list).
	Report(seat int, events []byte) Report
}

// Move is one seat's orders as read: Data is what Play takes (the game's own
// encoding), Text the orders in the game's words, for echoes and reports.
type Move struct {
	Data json.RawMessage `json:"data"`
	Text string          `json:"text"`
}

// Checked is a seat's orders read against a position. Orders with problems may give
// Move.Data as read, which the judge keeps with the refused version and never plays.
type Checked struct {
	Move     Move
	Problems []Problem
	// Forecast is what the move would do, in words (the board after it, where the game
	// can show it without revealing what the player may not know).
	Forecast string
}

// OK says whether the orders can be played.
func (c Checked) OK() bool { return len(c.Problems) == 0 }

// Problem is one thing wrong with a player's orders: where (line and column of the
// text, 0 when it is about the whole) and what, in words the player can act on.
type Problem struct {
	Line, Col int
	Msg       string
}

func (p Problem) String() string {
	switch {
	case p.Line > 0 && p.Col > 0:
		return fmt.Sprintf("line %d, column %d: %s", p.Line, p.Col, p.Msg)
	case p.Line > 0:
		return fmt.Sprintf("line %d: %s", p.Line, p.Msg)
	}
	return p.Msg
}

// Result is a move played.
type Result struct {
	Next Position
	// Events are what happened, in the game's own encoding (stored with the turn and
	// handed back to Report).
	Events json.RawMessage
	// Story is what happened in words, line by line, for the game master's summary.
	Story []string
}

// Standing is one seat's place.
type Standing struct {
	Seat  int
	Rank  int
	Score int
	// Line is the seat's standing in words ("12 points, 3 cars on the board").
	Line string
}

// Catalog is the games a judge hosts, in the order HELP lists them. The first is the
// default for CREATE without game=.
type Catalog []Kind

// Lookup is the game by name (case-insensitive).
func (c Catalog) Lookup(name string) (Kind, error) {
	for _, k := range c {
		if strings.EqualFold(k.Name(), name) {
			return k, nil
		}
	}
	return nil, fmt.Errorf("there is no game %q here (games: %s)", name, strings.Join(c.Names(), ", "))
}

// Names are the games' names.
func (c Catalog) Names() []string {
	var out []string
	for _, k := range c {
		out = append(out, k.Name())
	}
	return slices.Clip(out)
}

// TurnSeed is the seed a turn is played with: the game's seed mixed with the turn's
// number, so that each turn draws anew and the same game replays the same draws. The
// judge plays every turn with it and an archive replays with it.
func TurnSeed(seed int64, turn int) int64 {
	return int64(uint64(seed) ^ uint64(turn)*0x9E3779B97F4A7C15)
}

// Scenarios is a Kind that plays rules scenarios written as text, as `rallyjudge
// resolve --game NAME FILE` runs them: the result as JSON, and an error when the
// expectations do not hold (out is set) or the file cannot be read (out is nil).
type Scenarios interface {
	RunScenario(text string) (out []byte, err error)
}

// Folder is a Position whose seats may send one turn's orders in several mails, each
// adding to the ones before (RoboRally: a mail of standing orders alone merges over the
// program sent earlier). The judge folds a seat's valid moves of the turn in the order
// the mail server received them, and takes the seat's orders as in only when the fold
// is Complete. A Position that is not a Folder counts a seat's last valid move.
//
// At the deadline the judge folds the Autopilot's move over an incomplete fold (Fold
// of the fold and the autopilot's move), so what the seat did send still counts.
type Folder interface {
	Fold(seat int, earlier, later Move) Move
	Complete(seat int, m Move) bool
}

// Leaver is a Position in which a seat whose player withdrew leaves the game
// (RoboRally: the robot leaves the race) rather than being played by the autopilot.
// Before each turn the judge asks Leave for every withdrawn seat, due or not; ok false
// means the seat has left already. Leave's move is played and recorded as the seat's
// move, so an archive replays it. A Position that is not a Leaver has a withdrawn
// seat's moves played by its Autopilot.
type Leaver interface {
	Leave(seat int) (m Move, ok bool)
}

// Policies is a Position whose missed moves may be played by more than one policy
// (RoboRally: powerdown, random, autopilot). When the game's absence setting names a
// policy for an absent player's missing move ("autopilot", "powerdown"), the judge
// plays AutopilotAs's move instead of Autopilot's; ok false: the game has no such
// policy, and Autopilot plays.
type Policies interface {
	AutopilotAs(seat int, seed int64, policy string) (m Move, ok bool)
}

// Holder is a Position whose turn may wait for its deadline though every due move is
// in (RoboRally: a powered-down robot's player has not said whether it stays down).
// Holds says why the seat holds the turn ("" when it does not; sent: the seat sent a
// valid move for the turn) and whether the seat is still in the game. The players of
// a Holder may also WAIT: hold a turn to its deadline at their word.
type Holder interface {
	Holds(seat int, sent bool) (why string, in bool)
}

// Parts is a Position whose report splits in a game with a mailing list: the list has
// the public report (Report with seat -1), and each player is mailed PrivateReport
// alone — what is theirs only (a hand, their orders) — not the whole report again. A
// Position that is not a Parts mails each player its whole Report.
type Parts interface {
	PrivateReport(seat int, events []byte) Report
}

// ReportWidth is the widest line of a report's text (Report.Text), for a phone.
const ReportWidth = 72

// Wrap breaks a line of words at ReportWidth columns: continuation lines start as s
// does, then indent. Games and the judge wrap their lines with it.
func Wrap(s, indent string) string {
	if utf8.RuneCountInString(s) <= ReportWidth {
		return s
	}
	lead := s[:len(s)-len(strings.TrimLeft(s, " "))]
	nLead, nIndent := utf8.RuneCountInString(lead), utf8.RuneCountInString(indent)
	var b strings.Builder
	b.Grow(len(s) + 2*(len(lead)+len(indent)+1))
	n, first := 0, true
	for w := range strings.FieldsSeq(s) { // written piece by piece: no string made a word
		nw := utf8.RuneCountInString(w)
		switch {
		case first:
			b.WriteString(lead)
			b.WriteString(w)
			n, first = nLead+nw, false
		case n+1+nw > ReportWidth:
			b.WriteByte('\n')
			b.WriteString(lead)
			b.WriteString(indent)
			b.WriteString(w)
			n = nLead + nIndent + nw
		default:
			b.WriteByte(' ')
			b.WriteString(w)
			n += 1 + nw
		}
	}
	return b.String()
}
