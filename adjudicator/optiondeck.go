package adjudicator

import (
	"fmt"
	"slices"
	"strings"
)

// Which option cards a game deals (seed 003 plays with the option cards of the
// expansions; seed 001, "the cards are interchangeable", lets a game mix both decks).
//
// A game chooses its deck with Rules.OptionDeck. Whatever it chooses, only the cards
// whose effects the engine implements are dealt (Implemented): a card that would do
// nothing is never put in a deck. NewSetup refuses a deck that holds any other card.

// OptionDeck names a game's option deck.
type OptionDeck string

const (
	DeckNone           OptionDeck = "none"
	DeckCrashBurn      OptionDeck = "crash-burn"      // seed 000, cards 21–46
	DeckArmedDangerous OptionDeck = "armed-dangerous" // seed 001, cards 47–72
	DeckBoth           OptionDeck = "both"
)

// OptionDecks lists the decks a game may choose, in the order the guides list them.
var OptionDecks = []OptionDeck{DeckNone, DeckCrashBurn, DeckArmedDangerous, DeckBoth}

// ParseOptionDeck reads a deck name (any case; "c&b", "a&d", "off" accepted).
func ParseOptionDeck(s string) (OptionDeck, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "none", "no", "off", "false":
		return DeckNone, true
	case "crash-burn", "crash&burn", "crash-and-burn", "c&b", "cb":
		return DeckCrashBurn, true
	case "armed-dangerous", "armed&dangerous", "armed-and-dangerous", "a&d", "ad", "armed":
		return DeckArmedDangerous, true
	case "both", "all":
		return DeckBoth, true
	}
	return "", false
}

func (d OptionDeck) MarshalText() ([]byte, error) { return []byte(d), nil }

func (d *OptionDeck) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*d = DeckNone
		return nil
	}
	v, ok := ParseOptionDeck(string(b))
	if !ok {
		return fmt.Errorf("option deck %q: want none, crash-burn, armed-dangerous or both", b)
	}
	*d = v
	return nil
}

// has reports whether the deck takes cards from source ("C&B", "A&D").
func (d OptionDeck) has(source string) bool {
	switch d {
	case DeckCrashBurn:
		return source == "C&B"
	case DeckArmedDangerous:
		return source == "A&D"
	case DeckBoth:
		return true
	}
	return false
}

// DealtOptions is the option deck a game with this choice deals, before shuffling: the
// cards of the chosen expansions whose effects are implemented, in data/options.txt
// order. Cards listed but not implemented are left out (ImplementedOf says which).
func DealtOptions(d OptionDeck) []string {
	var out []string
	cards, err := OptionCards()
	if err != nil {
		panic("adjudicator: embedded options: " + err.Error()) // the embedded data is tested
	}
	for _, c := range cards {
		if d.has(c.Source) && Implemented(c.Name) {
			out = append(out, c.Name)
		}
	}
	return out
}

// Implemented reports whether the option card's effect is in the engine and covered by
// its scenarios (scenarioTested), so that a game may deal it.
func Implemented(name string) bool {
	return effectFor(name) != nil && slices.Contains(scenarioTested, name)
}

// scenarioTested lists the cards whose effects the scenario suite covers (at least three
// scenarios each citing the card's seed; TestTestedCardsHaveScenarios checks it). A card
// joins the dealt decks only once it is here.
var scenarioTested = []string{
	"Protective Coating", "Brakes", "Circuit Breaker", "Double Laser", "Extra Memory",
	"Fourth Gear", "Gyroscopic Stabilisator", "Power Laser", "Mechanical Arm", "Turbo Blaster",
	"Protection Shields", "High Pressor Beam", "Ramming Device", "Rear Laser", "Reverse Gear",
	"Protection Shield", "De Luxe Safety Copy", "Tractor Beam", "Turret",
	"Emergency Switch", "Conditional Command", "Flywheel", "Recompile", "Target Control",
	"Randomizer", "Remote Control",
	// Armed and Dangerous (cards_armed.go).
	"Big Gun", "Interceptor", "Reengineering Unit", "Reflector",
	// Armed and Dangerous devices (cards_devices.go).
	"The Big One", "Bridge Layer", "Buzz Bomb", "Drone Launcher", "Mine Layer", "Missile Launcher",
	"Portable Teleporter", "Proximity Mine", "Big Jet", "Retro-Rockets", "Robo-Copter",
	"Goo Dropper",
	// Phase programmed (cards_armed.go, phases.go).
	"Crab Legs", "Dual Processor", "Overload Override", "Option Damping Field", "Self-Destruct",
	"Converter", "Frog Legs", "Homing Device", "Scrambler Bomb", "Bio Option",
}

// checkDeck refuses a deck with an unknown card or a card whose effect is missing. (Games
// deal only DealtOptions, the tested cards; scenarios may deal any card with an effect.)
func checkDeck(options []string) error {
	known := map[string]bool{}
	for _, n := range OptionNames() {
		known[n] = true
	}
	for _, o := range options {
		if !known[o] {
			return fmt.Errorf("option deck: %q is not an option card", o)
		}
		if effectFor(o) == nil {
			return fmt.Errorf("option deck: %s does nothing in this engine yet and cannot be dealt", o)
		}
	}
	return nil
}
