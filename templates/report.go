package templates

import (
	"fmt"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// Report is everything one player's turn report shows.
type Report struct {
	Game     string // the game's tag, e.g. spring-open
	Course   string
	Turn     int // the turn just played
	NextTurn int
	Player   string // the robot this report is for
	// PlayerOut: the player's robot has left the race (no hand, no sheet).
	PlayerOut bool
	Board     string // the floor at the end of the turn, as text
	Legend    string
	Sections  []Section
	Robots    []RobotStatus
	Deadline  string // the next deadline, written for people ("" when the game is over)
	Winner    string
	Over      bool
	Hand      []Card // the player's new hand (private)
	Locked    []Card // the player's locked registers (private)
	Standing  []string
	Sheet     string // a ready-to-edit order sheet for the next turn
}

// RobotStatus is one robot's public status.
type RobotStatus struct {
	Name, Square, Facing, Power string
	Damage, Lives, Flags        int
	Locked                      string
	Options                     string
	Virtual, Out                bool
}

// Card is a program card as players read it.
type Card struct {
	Register int
	P        int
	Title    string
}

// StatusOf lists every robot's public status.
func StatusOf(deck *adjudicator.Deck, st *adjudicator.State) []RobotStatus {
	var out []RobotStatus
	for _, r := range st.Robots {
		var locked []string
		for reg := 1; reg <= adjudicator.Registers; reg++ {
			if r.Registers[reg-1] != 0 {
				locked = append(locked, fmt.Sprintf("R%d=P%d", reg, r.Registers[reg-1]))
			}
		}
		out = append(out, RobotStatus{
			Name: r.Name, Square: r.Pos.String(), Facing: dirName(&r.Facing), Power: r.Power.String(),
			Damage: r.Damage, Lives: r.Lives, Flags: r.Flags,
			Locked: strings.Join(locked, " "), Options: strings.Join(r.Options, ", "),
			Virtual: r.Virtual, Out: r.Out,
		})
	}
	return out
}

// HandOf is a robot's hand and locked registers.
func HandOf(deck *adjudicator.Deck, r adjudicator.Robot) (hand, locked []Card) {
	for _, p := range r.Hand {
		hand = append(hand, Card{P: p, Title: deck.Kind(p).Title()})
	}
	for reg := 1; reg <= adjudicator.Registers; reg++ {
		if p := r.Registers[reg-1]; p != 0 && r.IsLocked(reg) {
			locked = append(locked, Card{Register: reg, P: p, Title: deck.Kind(p).Title()})
		}
	}
	return hand, locked
}

// SheetFor is a ready-to-edit plain-text order sheet for a robot's next turn: the
// header, five register lines (locked ones filled in), and the standing orders.
func SheetFor(game string, r adjudicator.Robot, turn int, standing []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#orders\ngame %s\nrobot %s\nturn %d\nsecret YOUR-SECRET\n", game, r.Name, turn)
	if r.Power == adjudicator.PowerDown {
		b.WriteString("# powered down this turn: no program\n")
	} else {
		for reg := 1; reg <= adjudicator.Registers; reg++ {
			if p := r.Registers[reg-1]; p != 0 && r.IsLocked(reg) {
				fmt.Fprintf(&b, "P%d   # register %d is locked\n", p, reg)
			} else {
				fmt.Fprintf(&b, "P     # register %d: a card from your hand\n", reg)
			}
		}
	}
	for _, s := range standing {
		b.WriteString(s + "\n")
	}
	b.WriteString("#end\n")
	return b.String()
}

// Ack is the acknowledgement of an accepted order sheet.
type Ack struct {
	Game, Robot string
	Turn        int
	Program     []Card
	Standing    []string
	Warnings    []string
	Forecast    string
	Deadline    string
	Waiting     string // e.g. "2 of 3 robots have orders in."
}

// Rejected is the reply to a sheet or command that was not accepted. It must never
// quote a secret or, for authentication failures, anything of the sheet.
type Rejected struct {
	Summary string
	Errors  []string
	Hint    string
}

// Welcome is the first mail a player gets: the secret, the robot, the first hand.
type Welcome struct {
	Game, Course, Robot string
	Secret              string // the player's new secret: the one mail that carries it
	Board, Legend       string
	Hand, Locked        []Card
	Deadline            string
	Sheet               string
	Judge               string // the address to mail orders to
}
