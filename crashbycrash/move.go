package crashbycrash

// seed 002, Player's turn: two actions of four kinds (placing a car, playing a card, the
// operator, exchanging two cards), then drawing back to three cards. A Move is what one
// player sends: during set-up a single placement, in play two actions and the draw.

// ActionKind says which of the four actions (or a set-up placement, or a pass) it is.
type ActionKind uint8

// Action kinds.
const (
	ActPlace    ActionKind = iota // place a standard car (set-up or play)
	ActMagnet                     // place the magnetic car
	ActCard                       // play a card
	ActOperator                   // agreement with the operator
	ActExchange                   // exchange two cards
	ActPass                       // only when no action is legal (ruling "No legal action")
)

// Source is where a drawn card comes from: the deck (0) or a face-up slot (1..3).
type Source int8

// Deck is the draw pile as a Source.
const Deck Source = 0

// Action is one action. Fields that do not apply to its Kind are zero.
type Action struct {
	Kind ActionKind
	// Cell is where a car is placed (ActPlace, ActMagnet).
	Cell Cell
	// Push lists the neighbouring cars' directions the placed car pushes: empty to let the
	// judge take the only one; two only with Double Hit. NoPush (Expansion Unlimited)
	// places without pushing.
	Push   []Dir
	NoPush bool
	// Acc is the accumulators used on a standard car's push (0-2).
	Acc int
	// Card is the card played (ActCard); Cells its arguments, or the operator's path
	// (ActOperator: the cells entered, in order; a hole is named by any of its cells).
	Card  Card
	Cells []Cell
	// Give and From are an exchange's two discarded cards and two draw sources.
	Give [2]Card
	From [2]Source
}

// Move is one player's move.
type Move struct {
	Actions []Action
	// Draw lists where the end-of-turn draw comes from, one source a card; missing ones
	// come from the deck.
	Draw []Source
	// Keep is the team game's preference when two cards are drawn and one kept: the first
	// kind in this list that was drawn is kept, else the first drawn (ruling "Draw two
	// keep one by mail").
	Keep []Card
}
