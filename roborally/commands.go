package roborally

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/game"
)

// RoboRally's answers to the judge's commands (game/commands.go), in the words its
// players by mail have always read: STATUS's robots, HISTORY's turns, what KICK and
// WITHDRAW do to a robot, the missed-orders policy a game master may SET, the
// settings shown back and LIST's line.

var (
	_ game.Describer   = Config{}
	_ game.Settable    = Config{}
	_ game.Wording     = Config{}
	_ game.Chronicle   = Kind{}
	_ game.SheetReader = Kind{}
	_ game.Roster      = (*position)(nil)
	_ game.Departures  = (*position)(nil)
	_ game.OffTurn     = (*position)(nil)
	_ game.Rollcall    = (*position)(nil)
)

// Rollcall: a robot out of the race is gone; one without orders has the policy played
// for it (orders.Played), one powered down needed none.
func (p *position) Rollcall(seat int, events []byte) (bool, string) {
	if seat < 0 || seat >= len(p.State.Robots) {
		return true, ""
	}
	r := p.State.Robots[seat]
	if r.Out {
		return true, ""
	}
	var oc outcome
	_ = json.Unmarshal(events, &oc)
	for _, pl := range oc.Played {
		if pl.Robot == r.Name && pl.Missed != "" {
			return false, pl.Missed
		}
	}
	if !NeedsProgram(r) {
		return false, "powered down"
	}
	return false, ""
}

// MaySend: a robot in the race that runs no program this turn (powered down) may send
// orders all the same: whether it stays down, its standing orders (absence.go's
// ruling: the turn waits for them).
func (p *position) MaySend(seat int) bool {
	return seat >= 0 && seat < len(p.State.Robots) && !p.State.Robots[seat].Out && !p.Over()
}

// Words: a player plays a robot, gets a hand, writes an order sheet, sends a program.
func (Config) Words() game.Words {
	return game.Words{Seat: "robot", First: "first hand", Orders: "order sheet", Move: "program"}
}

// Tagline is RoboRally in HELP's list of games, with its main settings.
func (Kind) Tagline() string {
	return "RoboRally: programs of five cards, everyone at once\n" +
		strings.Repeat(" ", 31) + "(course=NAME, options=DECK, rules=postal|2023, rules.KEY=VALUE)"
}

// Label is the course: "sprint".
func (c Config) Label() string { return c.CourseName }

// Describe is the course: "course sprint".
func (c Config) Describe() string { return "course " + c.CourseName }

// MissedLine is the missed-orders policy in the ruleset's words.
func (c Config) MissedLine() string { return MissedText(c.Rules, c.policy()) }

// RulesLine is the ruleset with its option deck or its variants.
func (c Config) RulesLine() string { return RulesText(c.Rules, c.policy()) }

// ListLine is the policy, the option deck and the ruleset, as LIST has them.
func (c Config) ListLine() string {
	raw, _ := json.Marshal(c.Rules)
	return fmt.Sprintf("without orders: %s; %s", c.MissedLine(), ListText(raw, c.policy()))
}

// Set changes the missed-orders policy (missed=powerdown|random|autopilot), the one
// RoboRally setting that may change after CREATE; the ruleset and its variants may
// not (docs/rules-2023.md).
func (c Config) Set(key, value string) (game.Config, bool, error) {
	switch {
	case key == "missed":
		switch v := strings.ToLower(strings.TrimSpace(value)); v {
		case MissedPowerDown, MissedRandom, MissedAutopilot:
			c.Missed = v
			return c, true, nil
		}
		return nil, true, fmt.Errorf("missed %q: want powerdown, random or autopilot", value)
	case key == "course" || NewSettingsReader().Takes(key):
		return nil, true, fmt.Errorf("the ruleset and its variants are chosen when the game is created (CREATE ... rules=2023 less-deadly=yes) and do not change")
	}
	return nil, false, nil
}

// Players: how many robots race is the game master's limit, up to the course's seats.
func (c Config) Players() (int, bool) {
	_, hi := c.Seats()
	return hi, true
}

// ReadsOrderSheets: RoboRally's moves are the order sheets package orders reads.
func (Kind) ReadsOrderSheets() bool { return true }

// SetUp is HISTORY's turn 0.
func (Kind) SetUp() string { return "the robots were placed" }

// TurnLine is a turn in one line (TurnLine): flags, losses, missed orders.
func (Kind) TurnLine(events []byte) string {
	var oc struct {
		Events json.RawMessage `json:"events"`
		Played json.RawMessage `json:"played"`
	}
	_ = json.Unmarshal(events, &oc)
	return TurnLine(oc.Events, oc.Played)
}

// SeatLine is a robot's state for STATUS.
func (p *position) SeatLine(seat int, in bool) string {
	if seat < 0 || seat >= len(p.State.Robots) {
		return "no robot"
	}
	r := p.State.Robots[seat]
	switch {
	case r.Out:
		return "out of the race"
	case p.Over():
		if r.Mat != nil {
			return count(r.Flags, "checkpoint", "checkpoints")
		}
		return count(r.Flags, "flag", "flags")
	case !NeedsProgram(r):
		return "powered down: no program needed"
	case in:
		return "orders in"
	}
	return "waiting for orders"
}

// Gone says a robot out of the race is.
func (p *position) Gone(seat int) string {
	if seat >= 0 && seat < len(p.State.Robots) && p.State.Robots[seat].Out {
		return "out of the race"
	}
	return ""
}

// Departure: a withdrawn player's robot leaves the race as the next turn is played
// (Leave).
func (p *position) Departure(seat, turn int) string {
	return "the robot leaves the race when turn " + strconv.Itoa(turn) + " is resolved"
}

// Notice is what the withdrawn player is told.
func (p *position) Notice(seat int) string {
	name := "robot"
	if seat >= 0 && seat < len(p.State.Robots) {
		name = p.State.Robots[seat].Name
	}
	return "your robot " + name + " leaves the race"
}

// seatsOf is how many robots a course seats: its players' range's top, never more
// than its start squares nor the engine's robots.
func seatsOf(c *adjudicator.Course) int {
	n := adjudicator.MaxRobots
	if c.MaxPlayers > 0 && c.MaxPlayers < n {
		n = c.MaxPlayers
	}
	if len(c.Starts) > 0 && len(c.Starts) < n {
		n = len(c.Starts)
	}
	return n
}

// Announce is the reply to CREATE: the course, the judge's settings, then every rules
// setting one a line, those the game changed from its ruleset's marked with * (as
// CREATE has always answered a RoboRally game).
func (c Config) Announce(tag, settings string) string {
	var b strings.Builder
	for _, s := range c.Rules.Settings() {
		mark := " "
		if s.Changed {
			mark = "*"
		}
		fmt.Fprintf(&b, " %s %s: %s\n", mark, s, s.Text)
	}
	return fmt.Sprintf("Game %s is created and open for players (course %s):\n%s\nThe rules (* changed from the %s rules):\n%s\nPlayers join with \"JOIN %s ROBOT\"; START it when they have.\n",
		tag, c.CourseName, settings, c.Rules.Name, b.String(), tag)
}
