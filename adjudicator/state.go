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
	// Tokens counts what each held option has used up, Tokens[k] for Options[k]: points
	// a Protective Coating absorbed, shots a Turbo Blaster fired (effects.go). Missing
	// entries are 0.
	Tokens []int `json:"option_tokens,omitempty"`
	// Flywheel is the program card kept on a Flywheel for the next hand (seed 000,
	// Flywheel); 0 for none.
	Flywheel int `json:"flywheel,omitempty"`
	// Jammed is the registers a Target Control shot locked this turn (bit r for
	// register r): they keep their cards through the next turn (seed 000, Target
	// Control).
	Jammed RegisterSet `json:"jammed,omitempty"`
	// Mat is the robot's player mat under the 2023 rules (energy, own deck, face-down
	// Haywire cards); nil under the postal rules.
	Mat *Mat `json:"mat,omitempty"`
	// Offered is the Deluxe Option Package's three cards drawn before the game; the
	// robot keeps one at the start of turn 1 (variants.go). Empty otherwise.
	Offered []string `json:"offered,omitempty"`
	// Bio is, with Rules.BioBots, the held option that rides on the robot's Bio Option
	// (one of Options; it does not count against Rules.MaxOptions); "" when it has none
	// (variants.go).
	Bio string `json:"bio,omitempty"`
	// BombHand is the five program cards dealt, apart from the hand, to a robot holding
	// a Buzz Bomb, to program its buzz bomb with this turn (seed 001, Buzz Bomb:
	// cards_devices.go); empty otherwise.
	BombHand []int `json:"bomb_hand,omitempty"`
}

// Mat is what a 2023 player mat holds (seed 004, Components and Phase 2): the robot's
// energy, its own draw and discard piles, and the Haywire cards lying face down under its
// registers. Cards are numbered by kind (CardKind). Under the 2023 rules Robot.Hand holds
// kinds too, damage cards kept from earlier rounds included, and Robot.Destroyed means
// "off the board, rebooting" until it re-enters in register 1 of the next round
// (reboot.go); Damage and Lives are not used.
type Mat struct {
	Energy int `json:"energy"`
	// Deck is the draw pile, top first; Discard the discard pile, oldest first.
	Deck    []int `json:"deck"`
	Discard []int `json:"discard"`
	// Haywire is the face-down Haywire card under each register, 0 none (seed 004,
	// Haywire Cards: at most one a register, played next round).
	Haywire [Registers]int `json:"haywire"`
	// Start is the start square the robot began on: where it reboots after falling from
	// a board with no reboot token (the docking bay; ruling R-REBOOT-START).
	Start Pos `json:"start"`
	// Collection is the robot's upgrades drawn and not installed (seed 004, Upgrade
	// Limits: "No limit on uninstalled upgrades"); installed ones are Robot.Options.
	Collection []string `json:"collection,omitempty"`
}

func (m *Mat) clone() *Mat {
	if m == nil {
		return nil
	}
	c := *m
	c.Deck = slices.Clone(m.Deck)
	// Room for a round's discards (a hand and five registers), so a turn grows it once.
	c.Discard = append(make([]int, 0, len(m.Discard)+2*Registers+10), m.Discard...)
	c.Collection = slices.Clone(m.Collection)
	return &c
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
// A register jammed by a Target Control shot is locked too.
func (r *Robot) IsLocked(reg int) bool { return reg > Registers-r.Locked() || r.Jammed.Has(reg) }

// State is a game between turns: everything that changes.
type State struct {
	Turn   int     `json:"turn"` // the turn about to be played, from 1
	Robots []Robot `json:"robots"`
	// OptionDeck is the option cards still to draw, top first; OptionDiscard the played.
	OptionDeck    []string `json:"option_deck,omitempty"`
	OptionDiscard []string `json:"option_discard,omitempty"`
	// DamageDeck is the shared damage deck of the 2023 rules, top first, and
	// DamageDiscard its discard pile (seed 004, Damage System).
	DamageDeck    []int `json:"damage_deck,omitempty"`
	DamageDiscard []int `json:"damage_discard,omitempty"`
	// Priority is the seat (index into Robots) holding the priority token (seed 004,
	// Priority System); the 2023 rules only.
	Priority int `json:"priority,omitempty"`
	// Piles are Scavenger Hunt's piles of option cards, Piles[k] at flag k+1, top first
	// (seed 001, Scavenger Hunt; variants.go); nil without it.
	Piles [][]string `json:"scavenger_piles,omitempty"`
	// Devices are the devices on the board, in the order launched (seed 001, Devices:
	// devices.go).
	Devices []Device `json:"devices,omitempty"`
	Winner  string   `json:"winner,omitempty"`
	Over    bool     `json:"over,omitempty"`
}

// Clone returns a deep copy.
func (s *State) Clone() *State {
	c := *s
	c.Robots = slices.Clone(s.Robots)
	for i := range c.Robots {
		c.Robots[i].Hand = slices.Clone(s.Robots[i].Hand)
		c.Robots[i].Options = slices.Clone(s.Robots[i].Options)
		c.Robots[i].Mat = s.Robots[i].Mat.clone()
		c.Robots[i].Tokens = slices.Clone(s.Robots[i].Tokens)
		c.Robots[i].Offered = slices.Clone(s.Robots[i].Offered)
		c.Robots[i].BombHand = slices.Clone(s.Robots[i].BombHand)
	}
	c.Piles = clonePiles(s.Piles)
	c.DamageDeck = slices.Clone(s.DamageDeck)
	c.DamageDiscard = slices.Clone(s.DamageDiscard)
	c.OptionDeck = slices.Clone(s.OptionDeck)
	c.OptionDiscard = slices.Clone(s.OptionDiscard)
	c.Devices = cloneDevices(s.Devices)
	return &c
}

// cloneDevices is a deep copy of devices (targets and programs too).
func cloneDevices(ds []Device) []Device {
	if ds == nil {
		return nil
	}
	out := slices.Clone(ds)
	for k := range out {
		if out[k].Target != nil {
			p := *out[k].Target
			out[k].Target = &p
		}
		out[k].Program = slices.Clone(out[k].Program)
	}
	return out
}

// cloneForTurn is Clone for a postal turn, into *into: the hands, options and tokens are
// shared with s, not copied, since a turn only reads them and replaces them (play sets
// each hand to nil, deal makes new ones). Everything the turn changes in place is copied.
//
// robots is where the robots are copied to when it has room (clipped, so an append to
// the new state's robots copies them out).
func (s *State) cloneForTurn(into *State, robots []Robot) *State {
	*into = *s
	c := into
	if s.Robots == nil {
		c.Robots = nil
	} else if len(s.Robots) <= cap(robots) {
		c.Robots = append(robots[:0:len(s.Robots)][:0], s.Robots...)
	} else {
		c.Robots = slices.Clone(s.Robots)
	}
	for i := range c.Robots {
		r := &c.Robots[i]
		// Options and Tokens are shared too, clipped: the engine never writes into them,
		// it makes new slices (removeOption, setToken) or appends past the clip (a copy).
		r.Hand = slices.Clip(r.Hand)
		r.Options = slices.Clip(r.Options)
		r.Tokens = slices.Clip(r.Tokens)
		r.Offered = slices.Clip(r.Offered)
		r.BombHand = slices.Clip(r.BombHand)
		r.Mat = r.Mat.clone()
	}
	c.Piles = clonePiles(s.Piles)
	c.DamageDeck = slices.Clone(s.DamageDeck)
	c.DamageDiscard = slices.Clone(s.DamageDiscard)
	c.OptionDeck = slices.Clone(s.OptionDeck)
	c.OptionDiscard = slices.Clone(s.OptionDiscard)
	c.Devices = cloneDevices(s.Devices)
	return c
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

// clonePiles copies Scavenger Hunt's piles (nil stays nil).
func clonePiles(p [][]string) [][]string {
	if p == nil {
		return nil
	}
	out := make([][]string, len(p))
	for k := range p {
		out[k] = slices.Clone(p[k])
	}
	return out
}
