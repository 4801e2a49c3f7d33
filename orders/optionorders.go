package orders

import (
	"slices"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// What each option card's "use" order may say (docs/options.md). Every card may name
// the register it is for ("in register 3"); the rest is per card. A parameter a card
// does not take is an error: it would be ignored, and the player would not know.
type optionParams struct {
	dir, target, card, steps, lock, targetOption bool
	needCard                                     bool // the order names a card (Flywheel, Conditional Command)
	fromHand                                     bool // the card must be in the hand and not programmed
	always                                       bool // the card always works: "use" orders nothing
}

// cardParams is the order grammar of the cards the engine plays: the Crash & Burn cards
// (seed 000) and the Armed and Dangerous cards implemented so far (seed 001). Cards not
// here are not dealt and are not checked beyond the general rules.
var cardParams = map[string]optionParams{
	"Protective Coating":      {always: true},
	"Emergency Switch":        {},
	"Brakes":                  {},
	"Circuit Breaker":         {always: true},
	"Conditional Command":     {card: true, needCard: true, fromHand: true},
	"Double Laser":            {always: true},
	"Extra Memory":            {always: true},
	"Target Control":          {target: true, lock: true, targetOption: true},
	"Flywheel":                {card: true, needCard: true, fromHand: true},
	"Fourth Gear":             {},
	"Gyroscopic Stabilisator": {},
	"Power Laser":             {always: true},
	"Mechanical Arm":          {always: true},
	"Turbo Blaster":           {target: true},
	"Protection Shields":      {always: true},
	"High Pressor Beam":       {target: true},
	"Remote Control":          {target: true},
	"Ramming Device":          {always: true},
	"Rear Laser":              {always: true},
	"Recompile":               {},
	"Reverse Gear":            {steps: true},
	"Randomizer":              {target: true},
	"Protection Shield":       {dir: true},
	"De Luxe Safety Copy":     {},
	"Tractor Beam":            {target: true},
	"Turret":                  {dir: true},
	// Armed and Dangerous (seed 001; adjudicator/cards_armed.go).
	"Big Gun":            {target: true},
	"Interceptor":        {target: true},
	"Reengineering Unit": {target: true, targetOption: true},
	"Reflector":          {dir: true},
	// Armed and Dangerous devices (adjudicator/cards_devices.go).
	"Drone Launcher":   {target: true},
	"Missile Launcher": {target: true},
}

// checkOptionOrders checks every "use OPTION" order of a sheet against the robot and the
// game: the option is held, its parameters are ones the card takes, a target is another
// robot of the game, a card is a card (from the hand and not programmed, where the card
// says so), an option named on the target is a card. Errors carry the order's line and
// column.
func checkOptionOrders(rep *Report, setup *adjudicator.Setup, st *adjudicator.State, idx int, s *Sheet) {
	r := &st.Robots[idx]
	prog := programOf(s, r)
	for _, rule := range s.Rules {
		for _, a := range []*Action{&rule.Then, rule.Else} {
			if a == nil || a.Do != DoUse || a.Option == "" {
				continue
			}
			at := rule.At
			if !holdsOption(setup, r, s, a.Option) {
				rep.err(at, "you do not hold %s (you hold %s): write the order once you have the card", a.Option, optionList(r.Options))
				continue
			}
			cp, known := cardParams[a.Option]
			if !known {
				continue
			}
			if cp.always {
				rep.warn(at, "%s always works: there is nothing to order", a.Option)
			}
			bad := func(what string) { rep.err(at, "%s takes no %s", a.Option, what) }
			if a.Dir != "" && !cp.dir {
				bad("direction")
			}
			if a.Target != "" && !cp.target {
				bad("target")
			}
			if a.Card != 0 && !cp.card {
				bad("card")
			}
			if a.Steps != 0 && !cp.steps {
				bad("distance")
			}
			if a.Lock != 0 && !cp.lock {
				bad("register to lock")
			}
			if a.TargetOption != "" && !cp.targetOption {
				bad("option to destroy")
			}
			if a.Lock != 0 && a.TargetOption != "" {
				rep.err(at, "%s locks a register or destroys an option, not both", a.Option)
			}
			if a.Target != "" {
				j := robotIndex(st, a.Target)
				switch {
				case j < 0:
					rep.err(at, "there is no robot %q in this game (the robots: %s)", a.Target, robotNames(st, idx))
				case j == idx:
					rep.err(at, "%s cannot target your own robot", a.Option)
				case st.Robots[j].Out:
					rep.err(at, "%s is out of the race", st.Robots[j].Name)
				}
			}
			if a.Card != 0 {
				switch {
				case setup.Deck.Kind(a.Card) == adjudicator.NoCard:
					rep.err(at, "P%d is not a card", a.Card)
				case cp.fromHand && !slices.Contains(r.Hand, a.Card):
					rep.err(at, "P%d is not in your hand (%s)", a.Card, handList(r.Hand))
				case cp.fromHand && slices.Contains(prog[:], a.Card):
					reg := slices.Index(prog[:], a.Card) + 1
					rep.err(at, "P%d is already in register %d; %s takes a card you did not program", a.Card, reg, a.Option)
				}
			} else if cp.needCard {
				rep.err(at, "%s needs the card: write \"use %s P490\"", a.Option, a.Option)
			}
			if a.Steps != 0 && cp.steps && (a.Steps < 1 || a.Steps > 2) {
				rep.err(at, "%s backs up 1 or 2 squares, not %d", a.Option, a.Steps)
			}
		}
	}
}

func robotNames(st *adjudicator.State, not int) string {
	var names []string
	for i, o := range st.Robots {
		if i != not && !o.Out {
			names = append(names, o.Name)
		}
	}
	if len(names) == 0 {
		return "none but yours"
	}
	return strings.Join(names, ", ")
}
