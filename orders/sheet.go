package orders

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// Sheet is one order sheet as written, in structured form. Plain text and YAML compile
// to the same Sheet; positions (At) are kept for messages but are not part of the JSON,
// so a sheet and its YAML twin marshal to the same bytes.
type Sheet struct {
	Game   string `json:"game,omitempty"`
	Robot  string `json:"robot,omitempty"`
	Turn   int    `json:"turn,omitempty"`
	Secret string `json:"secret,omitempty"` // the robot's password; never printed (see Redacted)
	// Program is the cards in register order, register 1 first. Empty when the sheet
	// carries only standing orders (see Merge). A locked register may be written as a
	// Locked card.
	Program []Card `json:"program,omitempty"`
	// Rules are the standing and conditional orders, in the order written.
	Rules []Rule `json:"orders,omitempty"`

	// Where the header fields and the last card line were written, for messages.
	At Places `json:"-"`
}

// Places are where a sheet's header fields were written, and the line of its last
// line of cards; the zero Pos for what was not written. A struct, not a map keyed by
// field: every sheet has some, and a map was two allocations and a hash a field.
type Places struct {
	Game, Robot, Turn, Secret, Program Pos
}

// Card is one register of a program.
type Card struct {
	Priority int    `json:"p,omitempty"`      // the card's priority: its identity (P490)
	Kind     string `json:"kind,omitempty"`   // the kind written with it (move1, left, ...), "" when only the priority was given
	Locked   bool   `json:"locked,omitempty"` // written as "locked" or "-": keep the locked card
	At       Pos    `json:"-"`
}

func (c Card) String() string {
	switch {
	case c.Locked:
		return "locked"
	case c.Kind != "":
		if k, ok := adjudicator.ParseCardKind(c.Kind); ok {
			if c.Priority == 0 {
				return k.Title() // a 2023 card, named by kind
			}
			return fmt.Sprintf("%s P%d", k.Title(), c.Priority)
		}
	}
	return fmt.Sprintf("P%d", c.Priority)
}

// Rule is one standing or conditional order: if If holds (or there is no If), Then;
// otherwise Else, if any.
type Rule struct {
	If   *Cond   `json:"if,omitempty"`
	Then Action  `json:"then"`
	Else *Action `json:"else,omitempty"`
	At   Pos     `json:"-"`
}

// Cond is a condition: a test (Test with Op and N, or Arg), or All / Any of others.
// Not negates a test.
type Cond struct {
	All  []Cond `json:"all,omitempty"`
	Any  []Cond `json:"any,omitempty"`
	Not  bool   `json:"not,omitempty"`
	Test string `json:"test,omitempty"` // see the Test* constants
	Op   string `json:"op,omitempty"`   // =, !=, <, <=, >, >= for number tests
	N    int    `json:"n,omitempty"`
	Arg  string `json:"arg,omitempty"` // direction (N, E, S, W), square kind or option name
}

// Condition tests. Number tests compare with Op and N.
const (
	TestDamage   = "damage"   // number: damage points now
	TestLives    = "lives"    // number: lives left
	TestRegister = "register" // number: register being played, 0 outside the registers
	TestFlags    = "flags"    // number: flags touched
	TestOptions  = "options"  // number: option cards held
	TestFacing   = "facing"   // Arg: N, E, S or W
	TestOn       = "on"       // Arg: a square kind (see squareKinds)
	TestNextPit  = "next-to-pit"
	TestOnLaser  = "on-laser" // a board laser reaches the robot's square now
	TestHolds    = "holds"    // Arg: an option card name
	TestDown     = "powered-down"
	TestDead     = "destroyed" // destroyed this turn (asked at re-entry and when losing an option)
	// Predictions: outcomes the engine would have to predict at the decision point.
	TestTargetDestroyed = "target-would-be-destroyed"
	TestTargetFalls     = "target-would-fall"
	TestIDestroyed      = "i-would-be-destroyed"
	TestIFall           = "i-would-fall"
	TestIEndOnLaser     = "i-would-end-on-laser"

	// TestDamageWould is the damage the robot would have once the hit being dealt lands,
	// if nothing more of it is prevented ("damage would reach 9"): its damage plus
	// adjudicator.View.PendingDamage. Outside a damage-prevention decision no hit is
	// pending and it is the damage now.
	TestDamageWould = "damage-would"
	// The 2023 rules (seed 004): TestEnergy is the robot's energy (0 under the postal
	// rules); TestSpam the SPAM cards it holds (hand and registers). Under the 2023 rules
	// TestDamage counts the damage cards it holds, SPAM and Haywire, face-down Haywire
	// under its registers included: what a shutdown discards (seed 004, Shutdown).
	TestEnergy = "energy"
	TestSpam   = "spam"
)

// Action is what an order does. Do names it (see the Do* constants); Option names an
// option card; the other fields are the parameter of "use OPTION ...".
type Action struct {
	Do       string `json:"do"`
	Option   string `json:"option,omitempty"`
	Dir      string `json:"dir,omitempty"`      // N, E, S, W, or a side: front, back, left, right; "next-flag" for Face
	Register int    `json:"register,omitempty"` // 1–5
	Target   string `json:"target,omitempty"`   // a robot's name
	Card     int    `json:"card,omitempty"`     // a program card's priority
	// More are the further cards of an order naming several, after Card, in the order
	// written, 0 past the last (Buzz Bomb's five: seed 001). An array, so that an
	// Action stays comparable.
	More  [maxOrderCards - 1]int `json:"more_cards,omitzero"`
	Steps int                    `json:"steps,omitempty"` // how far (Reverse Gear: "back 2")
	Lock  int                    `json:"lock,omitempty"`  // the target's register to lock (Target Control: "lock register 3")
	// TargetOption is one of the target's options (Target Control: "destroy Brakes").
	TargetOption string `json:"target_option,omitempty"`
	// Card2 is a second card (Overload Override names a register's two cards: "P670
	// P490"); Primary says which of a register's two cards is its primary card ("primary
	// P490", seed 001, Primary Card).
	Card2   int `json:"card2,omitempty"`
	Primary int `json:"primary,omitempty"`
	// Mode is a card's way of being used: "empty" (Overload Override leaves the register
	// unprogrammed), "tag" or "home" (Homing Device).
	Mode string `json:"mode,omitempty"`
}

// Actions.
const (
	DoPowerDown     = "power-down"     // announce a power down for next turn
	DoStayDown      = "stay-down"      // a powered-down robot stays down next turn
	DoPowerUp       = "power-up"       // come back up / do not power down
	DoRepair        = "repair"         // double-wrench site: repair 2
	DoTakeOption    = "take-option"    // double-wrench site: draw an option card
	DoFace          = "face"           // re-entry facing: Dir
	DoPreventDamage = "prevent-damage" // discard Option ("" = any) to prevent a point of damage
	DoKeepOptions   = "keep-options"   // never discard options to prevent damage
	DoLoseOption    = "lose-option"    // the option to lose when one must go
	DoUse           = "use"            // use Option, with a parameter
	DoDecline       = "decline"        // do not use Option
	DoNothing       = "nothing"        // answers nothing (an explicit empty else)
	// The floor tiles and Crash & Burn's settings (adjudicator: chopshop.go, flags.go).
	DoSwapOption  = "swap-option"  // chop shop: scrap Option and draw a new one
	DoRecharge    = "recharge"     // chop shop: recharge Option (what it used up is restored)
	DoKeepArchive = "keep-archive" // reaching a flag: keep the archive where it is (rules archive_choice)
	DoMoveArchive = "move-archive" // reaching a flag: move the archive there (the default)
	// Seed 001's option variants (adjudicator/variants.go): which card of several is
	// taken. Several such orders are a preference list, the first naming a card offered
	// wins.
	DoKeepOption = "keep-option" // Deluxe Option Package, Scavenger Hunt I: keep Option
	DoGiveOption = "give-option" // Scavenger Hunt II: give Option to the robot on your right (Target: only to it)
	// The 2023 upgrade phase (adjudicator: upgrades.go): plain orders of the round.
	DoDrawUpgrade = "draw-upgrade" // draw an upgrade for 1 energy
	DoInstall     = "install"      // install Option, paying its cost
	DoUninstall   = "uninstall"    // uninstall Option
	// DoInstallDrawn draws an upgrade and installs it in the same phase when the energy
	// left pays for it and the limits leave room; a plain install on the same sheet is
	// the fallback, installed when the drawn card is not (seed 004, Phase 1).
	DoInstallDrawn = "install-drawn"
)

// Pos is a place in a sheet: 1-based line and column (in characters, a tab counting as
// one). Zero when not known.
type Pos struct {
	Line int `json:"line"`
	Col  int `json:"col"`
}

func (p Pos) String() string {
	switch {
	case p.Line == 0:
		return "sheet"
	case p.Col == 0:
		return fmt.Sprintf("line %d", p.Line)
	}
	return fmt.Sprintf("line %d, column %d", p.Line, p.Col)
}

// value is the card as the engine numbers it: its priority, or for a card named by kind
// alone (the 2023 rules) its kind.
func (c Card) value() int {
	if c.Priority == 0 && c.Kind != "" {
		if k, ok := adjudicator.ParseCardKind(c.Kind); ok {
			return int(k)
		}
	}
	return c.Priority
}

// HasProgram reports whether the sheet carries a program.
func (s *Sheet) HasProgram() bool { return len(s.Program) > 0 }

// setAt records where a field ("game", "robot", "turn", "secret" or "program") was
// written.
func (s *Sheet) setAt(field string, at Pos) {
	switch field {
	case "game":
		s.At.Game = at
	case "robot":
		s.At.Robot = at
	case "turn":
		s.At.Turn = at
	case "secret":
		s.At.Secret = at
	case "program":
		s.At.Program = at
	}
}

// Redacted is a copy with the secret replaced, for printing and logging.
func (s *Sheet) Redacted() *Sheet {
	c := *s
	if c.Secret != "" {
		c.Secret = "(hidden)"
	}
	return &c
}

// JSON is the sheet as indented JSON, secret hidden.
func (s *Sheet) JSON() []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s.Redacted()); err != nil {
		return []byte(fmt.Sprintf("{\"error\": %q}\n", err.Error()))
	}
	return buf.Bytes()
}

// Orders are the sheet as the engine takes them: the program (locked registers 0) and
// a Decider for the run-time decisions.
func (s *Sheet) Orders() adjudicator.Orders {
	var o adjudicator.Orders
	for i, c := range s.Program {
		if i >= adjudicator.Registers {
			break
		}
		if !c.Locked {
			o.Program[i] = c.value()
		}
	}
	o.Upgrade = s.upgradeOrders()
	o.Decider = Compile(s)
	return o
}

// Cards is every card the action names, Card first, in the order written.
func (a Action) Cards() []int {
	if a.Card == 0 {
		return nil
	}
	out := []int{a.Card}
	for _, c := range a.More {
		if c != 0 {
			out = append(out, c)
		}
	}
	return out
}
