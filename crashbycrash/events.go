package crashbycrash

import (
	"fmt"
	"strings"
)

// Event is one thing that happened in a move, in order: reports tell the last move step
// by step from these, and scenarios compare them. Fields that do not apply are zero.
type Event struct {
	Kind   string `json:"kind"` // see the Ev* constants
	Seat   int    `json:"seat"`
	Side   int    `json:"side"`             // the side it concerns (owner of the car, scorer)
	Magnet bool   `json:"magnet,omitempty"` // the car is the magnetic one
	From   Cell   `json:"from"`
	To     Cell   `json:"to"`
	Dir    Dir    `json:"dir"`         // push, blocked, operator; otherwise none
	N      int    `json:"n,omitempty"` // points, accumulators, a count, a chart space
	Card   Card   `json:"card,omitempty"`
	Slot   Slot   `json:"slot"` // removed, op-hole, operator into a hole; otherwise -1
}

// Event kinds.
const (
	EvSetup    = "setup"     // Side placed a car on To during set-up
	EvStarter  = "starter"   // set-up over: Seat begins; N is the difference of totals
	EvPlace    = "place"     // a standard car (or the magnet) placed on To; N accumulators
	EvPush     = "push"      // a car pushed From→To in Dir
	EvFall     = "fall"      // a car pushed off the board or into a hole From, back to stock
	EvPoints   = "points"    // Side scores N (a car of the opponent pushed off)
	EvBlocked  = "blocked"   // the push stopped at the operator on To
	EvPull     = "pull"      // a magnet (on To's far side) pulled a car From→To
	EvRing     = "ring"      // a car on To rang the bell
	EvScore    = "score"     // scoring event: Side adds N (one event per side)
	EvRemoved  = "removed"   // the tile in Slot is removed (its cars back to stock)
	EvReturned = "returned"  // a car on a removed tile From goes back to its owner
	EvOpHole   = "op-hole"   // the operator was on the tile: now in its hole
	EvChart    = "chart"     // the bell goes to chart space N (1-7)
	EvOperator = "operator"  // the operator moved From→To (To NoCell: into the hole Slot)
	EvCost     = "cost"      // Side pays N points
	EvCard     = "card"      // Seat plays Card
	EvSwap     = "swap"      // Lambada: the cars on From and To swap
	EvMoveCar  = "move"      // Free Ride: a car From→To
	EvSabotage = "sabotage"  // Saboteur: the car on From goes back to stock
	EvBell     = "bell"      // Bell Charms: the bell From→To
	EvFly      = "fly"       // Flying Dutchman: the operator From→To
	EvDeadAcc  = "dead-acc"  // Side loses an accumulator (N left) and may use none next turn
	EvExchange = "exchange"  // Seat discards two cards and draws two
	EvDraw     = "draw"      // Seat draws a card (N 0 deck, 1-3 face-up slot)
	EvPass     = "pass"      // Seat has no legal action
	EvGameOver = "game-over" // N: 1 the 7th event, 2 a side has no car on the board
	EvIgnored  = "ignored"   // the rest of the move was not played: the game is over
	EvNextMove = "next"      // Seat moves next, game turn N
)

var sideNames = [2]string{"A", "B"}

// SideName is how reports name a side: A (seat 0, and 2 in the team game) or B.
func SideName(side int) string { return sideNames[side&1] }

func (e Event) car() string {
	if e.Magnet {
		return SideName(e.Side) + "'s magnet"
	}
	return SideName(e.Side) + "'s car"
}

// String tells the event in a line of English for reports.
func (e Event) String() string {
	switch e.Kind {
	case EvSetup:
		return fmt.Sprintf("%s places a car on %s", SideName(e.Side), e.To)
	case EvStarter:
		return fmt.Sprintf("set-up done: seat %d (%s) begins", e.Seat+1, SideName(e.Side))
	case EvPlace:
		s := fmt.Sprintf("%s placed on %s", e.car(), e.To)
		if e.N > 0 {
			s += fmt.Sprintf(" with %d accumulator(s)", e.N)
		}
		return s
	case EvPush:
		return fmt.Sprintf("%s pushed %s from %s to %s", e.car(), e.Dir, e.From, e.To)
	case EvFall:
		return fmt.Sprintf("%s pushed off the board from %s, back to stock", e.car(), e.From)
	case EvPoints:
		return fmt.Sprintf("%s scores %d", SideName(e.Side), e.N)
	case EvBlocked:
		return fmt.Sprintf("the push stops at the operator on %s", e.To)
	case EvPull:
		return fmt.Sprintf("%s pulled by a magnet from %s to %s", e.car(), e.From, e.To)
	case EvRing:
		return fmt.Sprintf("the bell on %s rings", e.To)
	case EvScore:
		return fmt.Sprintf("scoring event: %s adds %d", SideName(e.Side), e.N)
	case EvRemoved:
		return fmt.Sprintf("%s is removed", e.Slot)
	case EvReturned:
		return fmt.Sprintf("%s on %s goes back to stock", e.car(), e.From)
	case EvOpHole:
		return "the operator stands in the hole"
	case EvChart:
		return fmt.Sprintf("the bell goes to chart space %d of 7", e.N)
	case EvOperator:
		if e.To == NoCell {
			return fmt.Sprintf("the operator moves from %s into the hole of %s", cellOrHole(e.From), e.Slot)
		}
		return fmt.Sprintf("the operator moves from %s to %s", cellOrHole(e.From), e.To)
	case EvCost:
		return fmt.Sprintf("%s pays %d points", SideName(e.Side), e.N)
	case EvCard:
		return fmt.Sprintf("seat %d plays %s", e.Seat+1, e.Card)
	case EvSwap:
		return fmt.Sprintf("the cars on %s and %s swap", e.From, e.To)
	case EvMoveCar:
		return fmt.Sprintf("%s rides from %s to %s", e.car(), e.From, e.To)
	case EvSabotage:
		return fmt.Sprintf("%s on %s goes back to stock", e.car(), e.From)
	case EvBell:
		return fmt.Sprintf("the bell moves from %s to %s", e.From, e.To)
	case EvFly:
		return fmt.Sprintf("the operator flies from %s to %s", cellOrHole(e.From), e.To)
	case EvDeadAcc:
		return fmt.Sprintf("%s loses an accumulator (%d left) and may use none next turn", SideName(e.Side), e.N)
	case EvExchange:
		return fmt.Sprintf("seat %d exchanges two cards", e.Seat+1)
	case EvDraw:
		if e.N == 0 {
			return fmt.Sprintf("seat %d draws from the deck", e.Seat+1)
		}
		return fmt.Sprintf("seat %d draws face-up card %d (%s)", e.Seat+1, e.N, e.Card)
	case EvPass:
		return fmt.Sprintf("seat %d has no legal action and passes", e.Seat+1)
	case EvGameOver:
		if e.N == 1 {
			return "the seventh scoring event ends the game"
		}
		return fmt.Sprintf("%s has no car on the board: the game ends", SideName(e.Side))
	case EvIgnored:
		return "the rest of the move is not played"
	case EvNextMove:
		return fmt.Sprintf("turn %d: seat %d to move", e.N, e.Seat+1)
	}
	return e.Kind
}

func cellOrHole(c Cell) string {
	if c == NoCell {
		return "a hole"
	}
	return c.String()
}

// Narrate is the events as numbered lines.
func Narrate(evs []Event) string {
	var b strings.Builder
	for i, e := range evs {
		fmt.Fprintf(&b, "%d. %s\n", i+1, e)
	}
	return b.String()
}

// MarshalText writes the cell's name ("C5", "none").
func (c Cell) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a cell's name or "none".
func (c *Cell) UnmarshalText(b []byte) error {
	if string(b) == "none" {
		*c = NoCell
		return nil
	}
	v, err := ParseCell(string(b))
	*c = v
	return err
}

// MarshalText writes the direction's name.
func (d Dir) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads a direction's name or "none".
func (d *Dir) UnmarshalText(b []byte) error {
	if string(b) == "none" {
		*d = NoDir
		return nil
	}
	v, err := ParseDir(string(b))
	*d = v
	return err
}
