package crashbycrash

// seed 002, Game Contents and Game Setup: what is on the table. A State is a plain value
// (fixed arrays, no pointers), so copying it is cheap and encoding it is deterministic.

import (
	"encoding/json"
	"fmt"
)

// Piece is what stands on a cell: nothing, or a standard or magnetic car of a side.
type Piece uint8

// Pieces. A side's standard car is 1+side, its magnet 3+side.
const (
	Empty Piece = iota
	CarA
	CarB
	MagnetA
	MagnetB
)

// IsCar says whether the piece is a car (standard or magnetic).
func (p Piece) IsCar() bool { return p != Empty }

// IsMagnet says whether the piece is a magnetic car.
func (p Piece) IsMagnet() bool { return p >= MagnetA }

// Side is the side the car belongs to (0 or 1).
func (p Piece) Side() int { return int(p-1) & 1 }

func carOf(side int, magnet bool) Piece {
	if magnet {
		return MagnetA + Piece(side)
	}
	return CarA + Piece(side)
}

// Phase of the game.
type Phase uint8

// Phases: placing the starting cars, playing turns, over.
const (
	PhaseSetup Phase = iota
	PhasePlay
	PhaseOver
)

// Counts from seed 002, Game Contents.
const (
	StandardCars = 10
	Accumulators = 4
	NumBells     = 10
	ChartSize    = 7  // scoring events in a game
	StartScore   = 10 // Game Setup: score tokens on 10
	HandSize     = 3
	FaceUpCards  = 3
	SetupCars    = 4 // Game Setup: each player places four cars (a team places four: ruling)
)

// Settings are what a game master chooses when a game is created.
type Settings struct {
	// Players is 2, or 4 for the team game (seats 0 and 2 against 1 and 3).
	Players int `json:"players"`
	// FirstEventTurn is the first game turn in which a bell may ring; 0 means 6, the
	// third turn of the player who did not start (ruling "The earliest scoring event").
	FirstEventTurn int `json:"first_event_turn,omitempty"`
}

// State is a whole game. Seats are 0..Players-1; a seat plays for side seat%2 (in the team
// game partners share a side's cars, accumulators and score). Hidden information (hands,
// the deck's order) is in here too: a judge shows each player only their part.
type State struct {
	Players        int    `json:"players"`
	FirstEventTurn int    `json:"first_event_turn"`
	Seed           uint64 `json:"seed"`
	Draws          uint64 `json:"draws"` // the random stream's position

	Tiles    [NumTiles]int8  `json:"tiles"`    // design index (Designs) in each slot
	Holes    uint32          `json:"holes"`    // bit per slot: the tile was removed
	Board    BoardCells      `json:"board"`    // pieces by cell
	Bells    [NumBells]Cell  `json:"bells"`    // each bell's cell; NoCell once scored
	Chart    [ChartSize]int8 `json:"chart"`    // bell number in each chart space; -1 free
	Events   int             `json:"events"`   // scoring events so far
	Operator Cell            `json:"operator"` // NoCell while in a hole
	OpHole   Slot            `json:"op_hole"`  // the hole the operator stands in, or NoSlot

	Stock   [2]int8 `json:"stock"`  // standard cars off the board, per side
	Magnet  [2]bool `json:"magnet"` // the magnetic car is in stock
	Acc     [2]int8 `json:"acc"`    // accumulators left
	Score   [2]int  `json:"score"`
	DeadAcc [2]bool `json:"dead_acc"` // Dead Accumulator: no accumulators in the side's next turn

	Deck     [maxDeck]Card     `json:"deck"` // Deck[:DeckN], top last
	DeckN    int               `json:"deck_n"`
	Discard  [maxDeck]Card     `json:"discard"`
	DiscardN int               `json:"discard_n"`
	FaceUp   [FaceUpCards]Card `json:"face_up"` // unused in the team game
	Hands    [4][HandSize]Card `json:"hands"`

	Phase   Phase `json:"phase"`
	Turn    int   `json:"turn"`    // game turn, from 1; 0 during set-up
	ToMove  int   `json:"to_move"` // seat
	Placed  int   `json:"placed"`  // set-up cars placed so far
	Starter int   `json:"starter"` // seat that played game turn 1
}

// BoardCells is the pieces by cell; in JSON a string of 195 characters, column by column
// ('.' empty, 'a'/'b' standard cars of sides 0/1, 'A'/'B' their magnets).
type BoardCells [MaxCell + 1]Piece

const pieceChars = ".abAB"

// MarshalJSON writes the board as its string.
func (b BoardCells) MarshalJSON() ([]byte, error) {
	s := make([]byte, NumCells)
	for i, p := range b[1:] {
		if int(p) >= len(pieceChars) {
			return nil, fmt.Errorf("cell %s holds piece %d", Cell(i+1), p)
		}
		s[i] = pieceChars[p]
	}
	return json.Marshal(string(s))
}

// UnmarshalJSON reads the board's string.
func (b *BoardCells) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("board: %v", err)
	}
	if len(s) != NumCells {
		return fmt.Errorf("board: %d characters, want %d", len(s), NumCells)
	}
	for i := 0; i < NumCells; i++ {
		k := -1
		for j := 0; j < len(pieceChars); j++ {
			if s[i] == pieceChars[j] {
				k = j
			}
		}
		if k < 0 {
			return fmt.Errorf("board: cell %s: %q is not one of %q", Cell(i+1), s[i], pieceChars)
		}
		b[i+1] = Piece(k)
	}
	return nil
}

// SideOf is the side a seat plays for.
func (s *State) SideOf(seat int) int { return seat % 2 }

// ToMoveSeat is the seat whose move is due (meaningless once Over).
func (s *State) ToMoveSeat() int { return s.ToMove }

// Over says whether the game has ended.
func (s *State) Over() bool { return s.Phase == PhaseOver }

// Standings is each seat's score (partners share theirs).
func (s *State) Standings() []int {
	out := make([]int, s.Players)
	for i := range out {
		out[i] = s.Score[s.SideOf(i)]
	}
	return out
}

// Winners are the seats with the highest score once the game is over (a tie is a shared
// win, ruling "Game end"); nil before.
func (s *State) Winners() []int {
	if !s.Over() {
		return nil
	}
	var w []int
	best := max(s.Score[0], s.Score[1])
	for seat := 0; seat < s.Players; seat++ {
		if s.Score[s.SideOf(seat)] == best {
			w = append(w, seat)
		}
	}
	return w
}

// Hand is a seat's cards.
func (s *State) Hand(seat int) []Card {
	var h []Card
	for _, c := range s.Hands[seat] {
		if c != NoCard {
			h = append(h, c)
		}
	}
	return h
}

func (s *State) isHole(slot Slot) bool { return s.Holes&(1<<uint(slot)) != 0 }

// Present says whether c is a cell of a tile still on the board (not a hole, not outside).
func (s *State) Present(c Cell) bool {
	return c > 0 && c <= MaxCell && geo.slotOf[c] != NoSlot && !s.isHole(geo.slotOf[c])
}

// Shade is the value of cell c (0-3) from its tile's design; -1 if c is not on the board.
func (s *State) Shade(c Cell) int {
	sl := SlotOf(c)
	if sl == NoSlot {
		return -1
	}
	return int(designs[s.Tiles[sl]].Shades[cellIndex[c]])
}

// cellIndex is each cell's index in its slot's cell list.
var cellIndex = func() (ix [MaxCell + 1]int8) {
	for sl := 0; sl < NumTiles; sl++ {
		for i, c := range geo.slotCells[sl] {
			ix[c] = int8(i)
		}
	}
	return ix
}()

// BellAt is the bell number on c, or -1.
func (s *State) BellAt(c Cell) int {
	if c == NoCell {
		return -1
	}
	for i, b := range s.Bells {
		if b == c {
			return i
		}
	}
	return -1
}

// vacant: a cell of the board with no car, no operator and no bell.
func (s *State) vacant(c Cell) bool {
	return s.Present(c) && s.Board[c] == Empty && s.Operator != c && s.BellAt(c) < 0
}

// OnBoardCars counts a side's cars on the board.
func (s *State) OnBoardCars(side int) int {
	n := 0
	for _, p := range s.Board {
		if p != Empty && p.Side() == side {
			n++
		}
	}
	return n
}

// Encode is the state's JSON (deterministic: fixed field order, no maps).
func (s *State) Encode() ([]byte, error) { return json.Marshal(s) }

// Decode reads a state's JSON and checks it (Check).
func Decode(b []byte) (*State, error) {
	var s State
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("crashbycrash: state: %v", err)
	}
	if err := s.Check(); err != nil {
		return nil, err
	}
	return &s, nil
}
