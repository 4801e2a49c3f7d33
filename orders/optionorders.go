package orders

import (
	"fmt"
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
	bomb                                         bool // the order names the five cards of the robot's bomb hand, or none (Buzz Bomb)
	fuel                                         bool // the order may say how many fuel counters ("fuel 2": Retro-Rockets)
	moveCard                                     bool // the card named is a movement card (Robo-Copter)
	fromHand                                     bool // the card must be in the hand and not programmed
	always                                       bool // the card always works: "use" orders nothing
	// Armed and Dangerous (seed 001): twoCards: the order may name a register's two cards
	// (Overload Override); primary: it may say which is the primary card; modes: the
	// words naming its ways of use it takes ("empty", "tag", "home").
	twoCards, primary bool
	modes             []string
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
	"Buzz Bomb":   {card: true, bomb: true}, // five cards of the bomb hand, or none
	"Robo-Copter": {card: true, needCard: true, fromHand: true, moveCard: true},
	// Phase programmed: the order names its register (Retro-Rockets: and its fuel).
	"Big Jet":             {},
	"Retro-Rockets":       {fuel: true},
	"Mine Layer":          {},
	"Goo Dropper":         {},
	"Proximity Mine":      {},
	"Bridge Layer":        {},
	"Portable Teleporter": {},
	"The Big One":         {},
	"Drone Launcher":      {target: true},
	"Missile Launcher":    {target: true},
	// Phase programmed (adjudicator/phases.go): the order names its register.
	"Crab Legs":            {card: true},
	"Dual Processor":       {card: true},
	"Overload Override":    {card: true, twoCards: true, primary: true, modes: []string{"empty"}},
	"Option Damping Field": {},
	"Self-Destruct":        {},
	"Converter":            {always: true},
	"Frog Legs":            {},
	"Homing Device":        {target: true, modes: []string{"tag", "home"}},
	"Scrambler Bomb":       {},
	"Bio Option":           {always: true},
}

// checkOptionOrders checks every "use OPTION" order of a sheet against the robot and the
// game: the option is held, its parameters are ones the card takes, a target is another
// robot of the game, a card is a card (from the hand and not programmed, where the card
// says so), an option named on the target is a card. Errors carry the order's line and
// column.
func checkOptionOrders(rep *Report, setup *adjudicator.Setup, st *adjudicator.State, idx int, s *Sheet) {
	r := &st.Robots[idx]
	prog := programOf(s, r)
	for i := range s.Rules {
		rule := &s.Rules[i] // not a copy, which the pointers below would put on the heap
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
			if a.Steps != 0 && !cp.steps && !cp.fuel {
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
			if n := len(a.Cards()); n > 1 && !cp.bomb {
				rep.err(at, "%s takes one card, not %d", a.Option, n)
			}
			if cp.bomb && a.Card != 0 {
				checkBombCards(rep, at, r, a)
				continue
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
			if a.Card != 0 && cp.moveCard && setup.Deck.Kind(a.Card).Steps() == 0 && setup.Deck.Kind(a.Card) != adjudicator.NoCard {
				rep.err(at, "%s takes a movement card (Move or Back Up), not %s", a.Option, cardTitle(setup, a.Card))
			}
			if a.Steps != 0 && cp.fuel && (a.Steps < 1 || a.Steps > 3) {
				rep.err(at, "%s takes 1 to 3 fuel counters in a register, not %d", a.Option, a.Steps)
			}
			if a.Steps != 0 && cp.steps && (a.Steps < 1 || a.Steps > 2) {
				rep.err(at, "%s backs up 1 or 2 squares, not %d", a.Option, a.Steps)
			}
			if a.Primary != 0 && !cp.primary {
				bad("primary card")
			}
			if a.Mode != "" && !slices.Contains(cp.modes, a.Mode) {
				rep.err(at, "%s takes no %q", a.Option, a.Mode)
			}
		}
	}
	checkPhaseOrders(rep, setup, st, idx, s)
}

// checkPhaseOrders checks the orders of phase-programmed options (seed 001,
// Phase-Programmed Options; adjudicator/phases.go): each names its register; a card
// placer's register is not locked, its second card is in the hand and not programmed,
// the cards are a pair the card takes, a primary card named is one of them; a card is
// placed in one register only; at most one gadget and one movement option a register
// (counting the orders with no condition: those are programmed for certain).
func checkPhaseOrders(rep *Report, setup *adjudicator.Setup, st *adjudicator.State, idx int, s *Sheet) {
	r := &st.Robots[idx]
	prog := programOf(s, r)
	type slot struct {
		reg  int
		kind adjudicator.PhaseKind
	}
	kinds := map[slot]string{}
	placed := map[int]int{} // second card -> register
	defer func() {
		// A card placed by a phase program is in play: no Flywheel or Conditional
		// Command order may take it too.
		for _, rule := range s.Rules {
			for _, a := range []*Action{&rule.Then, rule.Else} {
				if a == nil || a.Do != DoUse || a.Card == 0 || !cardParams[a.Option].fromHand {
					continue
				}
				if reg, ok := placed[a.Card]; ok {
					rep.err(rule.At, "P%d is placed in register %d by a phase-programmed option; %s takes a card you do not play", a.Card, reg, a.Option)
				}
			}
		}
	}()
	for _, rule := range s.Rules {
		for _, a := range []*Action{&rule.Then, rule.Else} {
			if a == nil || a.Do != DoUse || !holdsOption(setup, r, s, a.Option) {
				continue
			}
			kind, placer, ok := adjudicator.PhaseCard(a.Option)
			if !ok {
				continue
			}
			at := rule.At
			if a.Register == 0 {
				rep.err(at, "%s is phase programmed: say which register (\"use %s in register 3 ...\"; seed 001)", a.Option, a.Option)
				continue
			}
			reg := a.Register
			if rule.If == nil && rule.Else == nil && kind != adjudicator.PhaseOther {
				k := slot{reg, kind}
				if other, dup := kinds[k]; dup && other != a.Option {
					what := "gadget"
					if kind == adjudicator.PhaseMovement {
						what = "movement"
					}
					rep.err(at, "register %d already has a %s option (%s): one gadget and one movement option a register (seed 001)", reg, what, other)
				}
				kinds[k] = a.Option
			}
			if !placer {
				continue
			}
			if r.IsLocked(reg) {
				rep.err(at, "register %d is locked: it keeps its card and takes no %s", reg, a.Option)
				continue
			}
			c0 := prog[reg-1]
			if a.Mode == "empty" {
				if a.Card2 != 0 || (a.Card != 0 && a.Card != c0) {
					rep.err(at, "an empty register names no card: its program card (P%d) is its primary card", c0)
				} else if !setup.PhaseCardsLegal(a.Option, []int{c0}, true) {
					rep.err(at, "%s cannot leave a register empty", a.Option)
				}
				continue
			}
			var cards []int
			switch {
			case a.Card == 0:
				rep.err(at, "%s needs the second card for register %d: \"use %s in register %d P490\"", a.Option, reg, a.Option, reg)
				continue
			case a.Card2 != 0 && a.Card != c0 && a.Card2 != c0:
				rep.err(at, "register %d holds P%d: name it and the second card", reg, c0)
				continue
			case a.Card2 != 0:
				cards = []int{a.Card, a.Card2}
			case a.Card == c0:
				rep.err(at, "P%d is already register %d's card: name the second card", c0, reg)
				continue
			default:
				cards = []int{c0, a.Card}
			}
			extra := cards[1]
			if extra == c0 {
				extra = cards[0]
			}
			if setup.Deck.Kind(extra) == adjudicator.NoCard {
				continue // reported above
			}
			switch {
			case !slices.Contains(r.Hand, extra):
				rep.err(at, "P%d is not in your hand (%s)", extra, handList(r.Hand))
				continue
			case slices.Contains(prog[:], extra):
				rep.err(at, "P%d is already in register %d; %s takes a card you did not program", extra, slices.Index(prog[:], extra)+1, a.Option)
				continue
			}
			if prev, dup := placed[extra]; dup && prev != reg {
				rep.err(at, "P%d is placed in register %d already: a card goes in one register", extra, prev)
			}
			placed[extra] = reg
			if a.Primary != 0 && !slices.Contains(cards, a.Primary) {
				rep.err(at, "primary P%d is not one of register %d's cards (P%d, P%d)", a.Primary, reg, cards[0], cards[1])
			}
			if c0 != 0 && !setup.PhaseCardsLegal(a.Option, cards, false) {
				rep.err(at, "%s cannot play %s and %s together (docs/options.md)", a.Option, cardTitle(setup, cards[0]), cardTitle(setup, cards[1]))
			}
		}
	}
}

func cardTitle(setup *adjudicator.Setup, c int) string {
	return fmt.Sprintf("%s P%d", setup.Deck.Kind(c).Title(), c)
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

// checkBombCards checks a Buzz Bomb order's cards: five, each once, all of the bomb hand
// the robot was dealt (seed 001, Buzz Bomb; adjudicator.Robot.BombHand).
func checkBombCards(rep *Report, at Pos, r *adjudicator.Robot, a *Action) {
	cards := a.Cards()
	if len(cards) != adjudicator.Registers {
		rep.err(at, "Buzz Bomb is programmed with 5 cards, not %d: write \"use Buzz Bomb\" and five cards of its hand (%s)", len(cards), handList(r.BombHand))
		return
	}
	seen := map[int]bool{}
	for _, c := range cards {
		switch {
		case seen[c]:
			rep.err(at, "P%d is written twice: the bomb's five cards are each played once", c)
		case !slices.Contains(r.BombHand, c):
			rep.err(at, "P%d is not one of your buzz bomb's cards (%s)", c, handList(r.BombHand))
		}
		seen[c] = true
	}
}
