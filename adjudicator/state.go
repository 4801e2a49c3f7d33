package adjudicator

import (
	"fmt"
	"slices"
)

// Registers is the number of program registers (rules README, A turn 2).
const Registers = 5

// Power is a robot's power state.
type Power uint8

const (
	PowerOn   Power = iota
	PowerDown       // powered down this turn: no cards, no moving, no firing (rules README, A turn 3)
)

var powerNames = [...]string{"on", "down"}

func (p Power) String() string {
	if int(p) < len(powerNames) {
		return powerNames[p]
	}
	return "power?"
}

func (p Power) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

func (p *Power) UnmarshalText(b []byte) error {
	for i, n := range powerNames {
		if n == string(b) {
			*p = Power(i)
			return nil
		}
	}
	return fmt.Errorf("bad power state %q (want on or down)", b)
}

// Robot is one robot's public and private state between turns.
type Robot struct {
	Name      string `json:"name"`
	Pos       Pos    `json:"pos"`
	Facing    Dir    `json:"facing"`
	Damage    int    `json:"damage"`
	Lives     int    `json:"lives"`
	Flags     int    `json:"flags"` // flags touched so far; the next is Flags+1
	Archive   Pos    `json:"archive"`
	Virtual   bool   `json:"virtual,omitempty"`
	Power     Power  `json:"power"`
	Destroyed bool   `json:"destroyed,omitempty"` // destroyed this turn, re-enters at end of turn
	Out       bool   `json:"out,omitempty"`       // no lives left: out of the race

	// Registers holds the card (priority) in each register; 0 when empty. Between turns
	// only locked registers hold cards (rules README, A turn 2).
	Registers [Registers]int `json:"registers"`
	// Hand is the cards dealt for the coming turn, ascending.
	Hand []int `json:"hand"`
	// Options held, oldest first (at most MaxOptions).
	Options []string `json:"options,omitempty"`
}

// Active reports whether the robot is on the board this moment.
func (r *Robot) Active() bool { return !r.Out && !r.Destroyed }

// Locked is the number of locked registers for the robot's damage: 5 damage locks
// register 5, 6 locks 4–5, ... 9 locks all (rules README, A turn 2).
func (r *Robot) Locked() int { return LockedFor(r.Damage) }

// LockedFor is the number of registers locked by dmg points of damage.
func LockedFor(dmg int) int {
	n := dmg - 4
	if n < 0 {
		return 0
	}
	if n > Registers {
		return Registers
	}
	return n
}

// IsLocked reports whether register reg (1–5) is locked.
func (r *Robot) IsLocked(reg int) bool { return reg > Registers-r.Locked() }

// State is a game between turns: everything that changes.
type State struct {
	Turn   int     `json:"turn"` // the turn about to be played, from 1
	Robots []Robot `json:"robots"`
	// OptionDeck is the option cards still to draw, top first; OptionDiscard the played.
	OptionDeck    []string `json:"option_deck,omitempty"`
	OptionDiscard []string `json:"option_discard,omitempty"`
	Winner        string   `json:"winner,omitempty"`
	Over          bool     `json:"over,omitempty"`
}

// Clone returns a deep copy.
func (s *State) Clone() *State {
	c := *s
	c.Robots = slices.Clone(s.Robots)
	for i := range c.Robots {
		c.Robots[i].Hand = slices.Clone(s.Robots[i].Hand)
		c.Robots[i].Options = slices.Clone(s.Robots[i].Options)
	}
	c.OptionDeck = slices.Clone(s.OptionDeck)
	c.OptionDiscard = slices.Clone(s.OptionDiscard)
	return &c
}

// Robot returns the index of the robot with that name (case-sensitive), or -1.
func (s *State) Robot(name string) int {
	for i := range s.Robots {
		if s.Robots[i].Name == name {
			return i
		}
	}
	return -1
}

// InRace lists the indexes of robots still in the race.
func (s *State) InRace() []int {
	var out []int
	for i := range s.Robots {
		if !s.Robots[i].Out {
			out = append(out, i)
		}
	}
	return out
}
