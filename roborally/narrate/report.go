package narrate

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// Which part of a turn report a mail carries. A player of an ordinary game gets the
// whole report; in a mailing-list game the public part goes once to the list and each
// player gets the private part by direct mail.
const (
	PartFull    = ""        // public and private: one player's whole report
	PartPublic  = "public"  // the board, the events, every robot's status: for the list
	PartPrivate = "private" // the hand, the standing orders, the sheet: for one player
)

// Report is everything a turn report shows.
type Report struct {
	Game     string // the game's tag, e.g. spring-open
	Course   string
	Turn     int // the turn just played
	NextTurn int
	Part     string // PartFull, PartPublic or PartPrivate
	List     string // the list address the public part went to (mailing-list games)
	Player   string // the robot this report is for; "" for the public part
	// PlayerOut: the player's robot has left the race (no hand, no sheet).
	PlayerOut bool
	Board     string // the floor at the end of the turn, as text
	Legend    string
	Sections  []Section
	Robots    []RobotStatus
	Piles     []string // the Scavenger Hunt piles left (PileLines)
	Deadline  string   // the next deadline, written for people
	Replay    string   // how to get the game's replay page ("" to say nothing)
	Winner    string
	Over      bool
	Standings []Standing // when the game is over
	Hand      []Card     // the player's new hand (private)
	// NewOptions explains the option cards the player's robot drew this turn and still
	// holds (private): what each does and an order for it (docs/options.md).
	NewOptions []OptionHelp
	Locked     []Card   // the player's locked registers (private)
	Down       bool     // the player's robot is powered down next turn: no program
	Standing   []string // the standing orders in force, in the order language
	Sheet      string   // a ready-to-edit order sheet for the next turn
	// Mat is the player's mat under the 2023 rules (private; report2023.go); nil in a
	// postal game.
	Mat *Mat
	// Pictures, when not nil, are shown in the HTML part (cid: references to inline
	// parts of the same mail).
	Pictures *Pictures
}

// Pictures names the inline pictures of a report's HTML part.
type Pictures struct {
	BoardCID string // the floor at the end of the turn (PNG)
	TurnCID  string // the turn, step by step (animated GIF); "" when there is none
	Width    int    // the board picture's size in pixels
	Height   int
	// Stills are the floor as each register left it (PNG), so a reader can step through
	// the turn at their own pace beside the animation.
	Stills []Still
}

// Still is one still picture of a turn.
type Still struct {
	CID     string
	Caption string
}

// Public reports whether the report carries the public part.
func (r Report) Public() bool { return r.Part != PartPrivate }

// Private reports whether the report carries a player's private part.
func (r Report) Private() bool { return r.Part != PartPublic && r.Player != "" }

// RobotStatus is one robot's public status.
type RobotStatus struct {
	Name, Square, Facing, Power string
	Damage, Lives, Flags        int
	Locked                      string
	Options                     string
	Virtual, Out, Destroyed     bool
	// The 2023 rules (report2023.go): Own, the robot's energy, whether it holds the
	// priority token, and the lighter game (no energy).
	Own, Priority, Lighter bool
	Energy                 int
}

// Summary is the status in one line: "at 2,5 facing north, damage 0, lives 3, flags 0".
func (s RobotStatus) Summary() string {
	if s.Out {
		return fmt.Sprintf("out of the race (%s touched)", plural(s.Flags, "flag"))
	}
	if s.Own {
		return s.ownSummary()
	}
	parts := []string{fmt.Sprintf("at %s facing %s", s.Square, s.Facing),
		fmt.Sprintf("damage %d", s.Damage), fmt.Sprintf("lives %d", s.Lives), fmt.Sprintf("flags %d", s.Flags)}
	if s.Locked != "" {
		parts = append(parts, "locked "+s.Locked)
	}
	if s.Options != "" {
		parts = append(parts, "options: "+s.Options)
	}
	switch s.Power {
	case "down":
		parts = append(parts, "POWERED DOWN")
	case "announced":
		parts = append(parts, "powers down next turn")
	}
	if s.Virtual {
		parts = append(parts, "virtual")
	}
	return strings.Join(parts, ", ")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// Standing is one robot's place when the game is over.
type Standing struct {
	Place  int
	Name   string
	Flags  int
	Lives  int
	Damage int
	Out    bool
	Winner bool
	// Own: the 2023 rules (Flags counts checkpoints; no lives or damage points).
	Own    bool
	Energy int
}

// Card is a program card as players read it.
type Card struct {
	Register int
	P        int
	Title    string
	// Own: a 2023 card, named by kind without a priority; Count is how many of the
	// kind the hand holds.
	Own   bool
	Count int
}

// Name is the card as a player names it: "P490 Move 2", or a 2023 card by kind
// ("Move 2", "Move 2 (2 cards)").
func (c Card) Name() string {
	switch {
	case !c.Own:
		return fmt.Sprintf("P%d %s", c.P, c.Title)
	case c.Count > 1:
		return fmt.Sprintf("%s (%d cards)", c.Title, c.Count)
	}
	return c.Title
}

// StatusOf lists every robot's public status.
func StatusOf(deck *adjudicator.Deck, st *adjudicator.State) []RobotStatus {
	var out []RobotStatus
	for _, r := range st.Robots {
		var locked []string
		for reg := 1; reg <= adjudicator.Registers; reg++ {
			if p := r.Registers[reg-1]; p != 0 && r.IsLocked(reg) {
				locked = append(locked, fmt.Sprintf("R%d=P%d", reg, p))
			}
		}
		opts := slices.Clone(r.Options)
		for k, o := range opts {
			if o == r.Bio && r.Bio != "" {
				opts[k] = o + " (on its Bio Option)" // seed 001, Bio-Bots
			}
		}
		rs := RobotStatus{
			Name: r.Name, Square: r.Pos.String(), Facing: dirName(&r.Facing), Power: r.Power.String(),
			Damage: r.Damage, Lives: r.Lives, Flags: r.Flags,
			Locked: strings.Join(locked, " "), Options: strings.Join(opts, ", "),
			Virtual: r.Virtual, Out: r.Out, Destroyed: r.Destroyed,
		}
		if r.Mat != nil {
			rs.Own, rs.Energy = true, r.Mat.Energy // Lighter: set by the caller, who knows the rules
			rs.Priority = st.Robot(r.Name) == st.Priority
		}
		out = append(out, rs)
	}
	return out
}

// StandingsOf ranks the robots: the winner first, then by flags touched, lives left and
// damage (fewer is better); robots out of the race after those still in it with as
// many flags.
func StandingsOf(st *adjudicator.State) []Standing {
	rs := append([]adjudicator.Robot(nil), st.Robots...)
	sort.SliceStable(rs, func(a, b int) bool {
		x, y := rs[a], rs[b]
		switch {
		case (x.Name == st.Winner) != (y.Name == st.Winner):
			return x.Name == st.Winner
		case x.Flags != y.Flags:
			return x.Flags > y.Flags
		case x.Out != y.Out:
			return !x.Out
		case x.Lives != y.Lives:
			return x.Lives > y.Lives
		}
		return x.Damage < y.Damage
	})
	out := make([]Standing, len(rs))
	for i, r := range rs {
		out[i] = Standing{Place: i + 1, Name: r.Name, Flags: r.Flags, Lives: r.Lives, Damage: r.Damage,
			Out: r.Out, Winner: r.Name == st.Winner && st.Winner != ""}
		if r.Mat != nil {
			out[i].Own, out[i].Energy = true, r.Mat.Energy
		}
	}
	return out
}

// OptionHelp is what a report tells a player about an option card just drawn.
type OptionHelp struct {
	Name    string
	Text    string // what it does, in this project's words (data/options.txt)
	Example string // an order for it; "" when the card always works and takes none
}

// NewOptionsOf lists the option cards robot r drew in a turn's events and still holds,
// with what each does and how to order it.
func NewOptionsOf(events []adjudicator.Event, r adjudicator.Robot) []OptionHelp {
	var out []OptionHelp
	for _, e := range events {
		if e.Kind != adjudicator.EvOptionGain || e.Robot != r.Name || !slices.Contains(r.Options, e.Option) {
			continue
		}
		h := OptionHelp{Name: e.Option}
		if c, ok := adjudicator.OptionCardNamed(e.Option); ok {
			h.Text = c.Text
			if c.Example != "-" {
				h.Example = c.Example
			}
		}
		out = append(out, h)
	}
	return out
}

// HandOf is a robot's hand and locked registers.
func HandOf(deck *adjudicator.Deck, r adjudicator.Robot) (hand, locked []Card) {
	if r.Mat != nil {
		return ownHand(r), nil // the 2023 rules: by kind, nothing locked (report2023.go)
	}
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
// header, one line a register ("1: " to fill in with a card; locked registers filled in
// with their card), and the standing orders in force as comments. Once a card is
// written after each free register's number, orders.Parse accepts it as it is (a test
// checks it). Comments stand on lines of their own: a card line holds only cards.
func SheetFor(game string, r adjudicator.Robot, turn int, standing []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#orders\ngame %s\nrobot %s\nturn %d\nsecret YOUR-SECRET\n", game, r.Name, turn)
	if r.Mat != nil {
		ownSheet(&b, r) // the 2023 rules: report2023.go
	} else if r.Power == adjudicator.PowerDown {
		b.WriteString("# Powered down this turn: no program. Standing orders may follow.\n")
	} else {
		free := 0
		for reg := 1; reg <= adjudicator.Registers; reg++ {
			if !r.IsLocked(reg) {
				free++
			}
		}
		fmt.Fprintf(&b, "# After each free register's number, a card of your hand: \"1: P490\".\n")
		if free < adjudicator.Registers {
			b.WriteString("# Locked registers keep their card: leave them as they are.\n")
		}
		for reg := 1; reg <= adjudicator.Registers; reg++ {
			if p := r.Registers[reg-1]; p != 0 && r.IsLocked(reg) {
				fmt.Fprintf(&b, "%d: P%d\n", reg, p)
			} else if r.IsLocked(reg) {
				// Locked while powered down: it holds no card and runs nothing.
				fmt.Fprintf(&b, "%d: locked\n", reg)
			} else {
				fmt.Fprintf(&b, "%d: \n", reg)
			}
		}
	}
	if len(r.BombHand) > 0 {
		// seed 001, Buzz Bomb: five cards dealt apart for the bomb.
		var cards []string
		for _, p := range r.BombHand {
			cards = append(cards, fmt.Sprintf("P%d", p))
		}
		fmt.Fprintf(&b, "# Your buzz bomb's five cards: %s. To launch or program it, in the order it\n# plays them: use Buzz Bomb %s\n", strings.Join(cards, " "), strings.Join(cards, " "))
	}
	if len(standing) > 0 {
		b.WriteString("# Standing orders in force (they stay until you send new ones):\n")
		for _, s := range standing {
			b.WriteString("#   " + s + "\n")
		}
	} else {
		b.WriteString("# Standing orders, one a line, e.g.: power down if damage > 5\n")
	}
	b.WriteString("#end\n")
	return b.String()
}

// Ack is the acknowledgement of an accepted order sheet.
type Ack struct {
	Game, Robot string
	Turn        int
	Program     []Card
	Shutdown    bool // the 2023 rules: the sheet shuts the robot down for the round
	Mat         *Mat // the 2023 rules: the mat as the round begins; nil in a postal game
	Standing    []string
	Warnings    []string
	Forecast    string
	Deadline    string
	Waiting     string // e.g. "2 of 3 robots have orders in."
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
	Turn                int    // the turn the hand is for (1 at the start)
	Variants            string // the 2023 rules: the ruleset and its variants in words ("" to say nothing)
	Mat                 *Mat   // the 2023 rules: the starting mat; nil in a postal game
	TakeOver            bool   // a new player takes over a robot in a running game (REPLACE)
	// RulesName and Rules are the game's rules settings, each with what it means; those
	// the game changed from its ruleset are marked (adjudicator.Rules.Settings).
	RulesName string
	Rules     []adjudicator.RuleSetting
	// Options are the option cards the robot holds (a Standard Option Package, a
	// Bio-Bot's Bio Option: Bio names that one); Offered a Deluxe Option Package's cards
	// to keep one of; Piles the Scavenger Hunt piles, one line a flag (seed 001,
	// Option Variants: OptionsWelcome fills them in).
	Options, Offered []OptionHelp
	Bio              string
	Piles            []string
}

// OptionsWelcome fills in w's option cards from robot r and the state's Scavenger Hunt
// piles.
func (w *Welcome) OptionsWelcome(st *adjudicator.State, r adjudicator.Robot) {
	w.Options, w.Offered, w.Bio, w.Piles = optionHelps(r.Options), optionHelps(r.Offered), r.Bio, PileLines(st)
}

// PileLines are the Scavenger Hunt piles, "flag 1: Brakes, Turret", shown to every
// player: by mail a robot's orders name the card to take before it reaches the flag, so
// the piles lie open (ruling, docs/options.md).
func PileLines(st *adjudicator.State) []string {
	var out []string
	for k, p := range st.Piles {
		cards := "empty"
		if len(p) > 0 {
			cards = strings.Join(p, ", ")
		}
		out = append(out, fmt.Sprintf("flag %d: %s", k+1, cards))
	}
	return out
}

func optionHelps(names []string) []OptionHelp {
	var out []OptionHelp
	for _, n := range names {
		h := OptionHelp{Name: n}
		if c, ok := adjudicator.OptionCardNamed(n); ok {
			h.Text = c.Text
			if c.Example != "-" {
				h.Example = c.Example
			}
		}
		out = append(out, h)
	}
	return out
}
