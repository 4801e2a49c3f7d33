package autopilot

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// The orders a bot writes for the option cards it holds (docs/options.md): simple, safe
// uses of each card, in the order language, so that a bot's sheet steers its options as
// a careful player's would. Cards that always work, or that the bot leaves at their
// defaults, get none.
//
// Each card's policy is one entry of cardPolicies; a new card is one entry there (and,
// for a card worth keeping, a place in keepRank). Policies see the robot, the other
// robots and the plan (optionCtx); they never change the program. The cards that move
// the robot off its program's path (Crab Legs, Dual Processor, Overload Override, Frog
// Legs, Homing Device's homing, Portable Teleporter, Big Jet, Retro-Rockets,
// Robo-Copter) and Buzz Bomb are not policies: the program search plays them in its
// forecasts and writes a use where it pays (armed.go); Homing Device's tag, which only
// pays in later turns, is a policy here. Goo Dropper, Bridge Layer, Self-Destruct,
// Scrambler Bomb and The Big One have narrow, safe uses (below). Cards that always work
// (Converter) need no order.

// optionCtx is what a card's policy may look at.
type optionCtx struct {
	setup *adjudicator.Setup
	st    *adjudicator.State
	idx   int
	r     *adjudicator.Robot
	prog  [adjudicator.Registers]int
	end   *adjudicator.Robot // the forecast robot after the registers; nil when unknown
	guide *Guide             // nil when unknown
	named []int              // hand cards the plan's card uses name (armed.go)
	using []string           // the cards the plan's card uses use (armed.go)
	// gadgets marks the registers already given a Phase Programmed—Gadget card: one a
	// register (seed 001, Types of Phase-Programmed Options).
	gadgets [adjudicator.Registers + 1]bool
}

// gadgetCards are the gadget cards whose orders policies write.
var gadgetCards = []string{"Mine Layer", "Proximity Mine", "Goo Dropper", "Bridge Layer", "The Big One", "Scrambler Bomb"}

// payloads are the gadget cards' payloads (seed 001, Complete Listing of Option Cards:
// "Payload/capacity"); Robot.Tokens counts what each has spent.
var payloads = map[string]int{"Mine Layer": 3, "Proximity Mine": 3, "Goo Dropper": 3, "Bridge Layer": 2, "The Big One": 1, "Scrambler Bomb": 1}

// registerOf is the register an order names ("in register 3"), 0 none.
func registerOf(order string) int {
	_, rest, ok := strings.Cut(order, " in register ")
	if !ok || rest == "" || rest[0] < '1' || rest[0] > '0'+adjudicator.Registers {
		return 0
	}
	return int(rest[0] - '0')
}

// others are the names of the other robots in the race.
func (c *optionCtx) others() []string {
	var out []string
	for i, o := range c.st.Robots {
		if i != c.idx && !o.Out {
			out = append(out, o.Name)
		}
	}
	return out
}

// atEachRobot is a policy for a card fired "instead of your laser": one order a robot,
// so the card is used only when a robot is in the line of fire (a "use ... on NAME"
// order does not apply with no robot in line), with cond after it ("unless next to a
// pit").
func atEachRobot(card, cond string) func(*optionCtx) []string {
	return func(c *optionCtx) []string {
		var out []string
		for _, n := range c.others() {
			o := "use " + card + " on " + n
			if cond != "" {
				o += " " + cond
			}
			out = append(out, o)
		}
		return out
	}
}

// always is a policy of fixed orders.
func always(orders ...string) func(*optionCtx) []string {
	return func(*optionCtx) []string { return orders }
}

// cardPolicies is each card's policy.
var cardPolicies = map[string]func(*optionCtx) []string{
	// Crash & Burn (seed 000).
	"Brakes":                  always("use Brakes if next to a pit"),
	"Fourth Gear":             always("use Fourth Gear unless next to a pit"),
	"Reverse Gear":            always("use Reverse Gear back 2 unless next to a pit"),
	"Gyroscopic Stabilisator": always("use Gyroscopic Stabilisator"),
	"Tractor Beam":            always("use Tractor Beam if target would fall"),
	"High Pressor Beam":       always("use High Pressor Beam if target would fall"),
	"Turbo Blaster":           always("use Turbo Blaster"),
	"Target Control":          always("use Target Control lock register 5"),
	"Randomizer":              always("use Randomizer"),
	"Flywheel": func(c *optionCtx) []string {
		// Keep the best card left over: the highest priority not programmed.
		for k := len(c.r.Hand) - 1; k >= 0; k-- {
			if p := c.r.Hand[k]; !slices.Contains(c.prog[:], p) && !slices.Contains(c.named, p) {
				return []string{fmt.Sprintf("use Flywheel P%d", p)}
			}
		}
		return nil
	},
	// Protection Shield is off until an order sets its side (seed 000, Protection
	// Shield; docs/options.md, 43): the bot turns it to the nearest other robot, whose
	// laser is the likeliest to hit it, or to the front when none is near.
	"Protection Shield": func(c *optionCtx) []string {
		side := c.sideToNearest()
		if side == "" {
			side = "front"
		}
		return []string{"use Protection Shield " + side}
	},
	// Armed and Dangerous (seed 001). Big Gun pushes its holder back a square: not
	// next to a pit. Missiles and drones may come back at their launcher, so they are
	// launched only at a robot in line. The Interceptor's token goes on any robot in
	// line (in the registers); the exchange of hands after a deal (register 0) is taken
	// when the bot is badly damaged, its own hand short.
	"Big Gun":          atEachRobot("Big Gun", "unless next to a pit"),
	"Missile Launcher": atEachRobot("Missile Launcher", ""),
	"Drone Launcher":   atEachRobot("Drone Launcher", ""),
	"Interceptor": func(c *optionCtx) []string {
		out := atEachRobot("Interceptor", "if register > 0")(c)
		return append(out, "use Interceptor if register = 0 and damage > 4")
	},
	// Homing Device's tag: while its homing token is on no robot in the race, the bot
	// tags a robot in line that stands nearer the bot's next flag than the bot (one
	// order a robot): the robot homing would later pull it towards. The forecast cannot
	// value a tag (it pays in later turns); homing itself is forecast (armed.go).
	"Homing Device": func(c *optionCtx) []string { return c.homingTags() },
	// A push is a chance to trade the Reengineering Unit for the pushed robot's oldest
	// option.
	"Reengineering Unit": always("use Reengineering Unit"),
	// The Reflector faces the nearest other robot as the robot ends its registers.
	"Reflector": func(c *optionCtx) []string {
		if side := c.sideToNearest(); side != "" {
			return []string{"use Reflector facing " + side}
		}
		return nil
	},
	// The field damps the bot's own options too: on only when it holds nothing else.
	"Option Damping Field": always("use Option Damping Field if options < 2"),
	// Mines are laid in the last register whose card moves the robot on two or three
	// squares, so it is off the mine (two squares off a proximity mine) by the lasers,
	// as seed 001 asks, and mines not yet laid do not go off under it when it loses the
	// card.
	"Mine Layer":     layInMoveRegister("Mine Layer"),
	"Proximity Mine": layInMoveRegister("Proximity Mine"),
	// Goo is dropped behind the bot when a robot follows it: one standing 1 to 3
	// squares straight behind it (no wall between) and facing its way. Only in register
	// 1, when that card moves the bot forward (it is off the goo in its grace), and only
	// when no card of the program backs it up onto its own goo.
	"Goo Dropper": func(c *optionCtx) []string {
		if !c.forwardIn(1) || c.backsUp() || !c.followed() {
			return nil
		}
		return []string{"use Goo Dropper in register 1"}
	},
	// A bridge goes over a pit in front of the bot in the first register that moves it,
	// when that card moves it forward into the pit: the bot is where it stands now until
	// then (only turns before it), so the forecast of its square is sure enough; a
	// program found illegal keeps the bridge (seed 001).
	"Bridge Layer": func(c *optionCtx) []string {
		if reg := c.pitAhead(); reg > 0 {
			return []string{fmt.Sprintf("use Bridge Layer in register %d", reg)}
		}
		return nil
	},
	// Self-Destruct goes off in register 1 only when the forecast has the bot destroyed
	// this turn anyway, touching no flag first, and another robot stands within 2
	// squares now (the 16-point blast deals it 8 or 4).
	"Self-Destruct": func(c *optionCtx) []string {
		if c.end == nil || !c.end.Destroyed || c.end.Flags > c.r.Flags || c.nearest() > 2 {
			return nil
		}
		return []string{"use Self-Destruct in register 1"}
	},
	// The Big One and the Scrambler Bomb go off at the start of the next turn, as far as
	// 6 squares away: laid in register 1 (on the square the bot stands on now) only when
	// the forecast ends its turn at least 7 squares from there (squares across, never
	// more than as robots move, so out of reach) and at least one other robot stands
	// within 3 squares of it now.
	"The Big One":    layAndLeave("The Big One"),
	"Scrambler Bomb": layAndLeave("Scrambler Bomb"),
}

// homingTags are the Homing Device tag orders (cardPolicies).
func (c *optionCtx) homingTags() []string {
	if c.guide == nil {
		return nil
	}
	if j := tokenOf(c.r, "Homing Device") - 1; j >= 0 && j < len(c.st.Robots) && j != c.idx && !c.st.Robots[j].Out {
		return nil
	}
	next := c.r.Flags + 1
	mine := c.guide.Dist(next, c.r.Pos)
	var out []string
	for i, o := range c.st.Robots {
		if i != c.idx && o.Active() && !o.Virtual && c.guide.Dist(next, o.Pos) < mine {
			out = append(out, "use Homing Device tag on "+o.Name)
		}
	}
	return out
}

// layAndLeave is the policy of a bomb that goes off next turn within 6 squares.
func layAndLeave(card string) func(*optionCtx) []string {
	return func(c *optionCtx) []string {
		if c.end == nil || !c.end.Active() || c.nearest() > 3 {
			return nil
		}
		if abs(c.end.Pos.X-c.r.Pos.X)+abs(c.end.Pos.Y-c.r.Pos.Y) < 7 {
			return nil
		}
		return []string{"use " + card + " in register 1"}
	}
}

// forwardIn reports whether the card in register reg moves the robot forward.
func (c *optionCtx) forwardIn(reg int) bool {
	p := c.prog[reg-1]
	return p != 0 && c.setup.Deck.Kind(p).Steps() > 0
}

// backsUp reports whether a card of the program is a Back Up.
func (c *optionCtx) backsUp() bool {
	for _, p := range c.prog {
		if p != 0 && c.setup.Deck.Kind(p).Steps() < 0 {
			return true
		}
	}
	return false
}

// followed reports whether another robot stands 1 to 3 squares straight behind the
// robot, no wall between, facing the robot's way.
func (c *optionCtx) followed() bool {
	b := c.setup.Course.Board
	back := c.r.Facing.Back()
	p := c.r.Pos
	for k := 0; k < 3; k++ {
		if b.Blocked(p, back) {
			return false
		}
		if p = p.Step(back); !b.In(p) {
			return false
		}
		for i, o := range c.st.Robots {
			if i != c.idx && o.Active() && !o.Virtual && o.Pos == p {
				return o.Facing == c.r.Facing
			}
		}
	}
	return false
}

// pitAhead is the first register whose card moves the robot (the cards before it only
// turn it), when that card moves it forward and the square in front of it then is a
// pit with no wall between; 0 otherwise.
func (c *optionCtx) pitAhead() int {
	b := c.setup.Course.Board
	f := c.r.Facing
	for reg := 1; reg <= adjudicator.Registers; reg++ {
		p := c.prog[reg-1]
		if p == 0 {
			return 0
		}
		k := c.setup.Deck.Kind(p)
		if rot := k.Rotation(); rot != adjudicator.NoRotation {
			f = f.Rotate(int(rot))
			continue
		}
		if k.Steps() <= 0 {
			return 0
		}
		q := c.r.Pos.Step(f)
		if b.In(q) && b.At(q).Floor == adjudicator.FloorPit && !b.Blocked(c.r.Pos, f) {
			return reg
		}
		return 0
	}
	return 0
}

// nearest is the distance in squares (across, not around walls) to the nearest other
// active robot; a large number when there is none.
func (c *optionCtx) nearest() int {
	best := 1 << 30
	for i, o := range c.st.Robots {
		if i != c.idx && o.Active() && !o.Virtual {
			best = min(best, abs(o.Pos.X-c.r.Pos.X)+abs(o.Pos.Y-c.r.Pos.Y))
		}
	}
	return best
}

// layInMoveRegister is a policy for a card laid on the robot's square in one register
// (phase programmed): the last register whose card is a Move 2 or Move 3 and that has no
// gadget yet.
func layInMoveRegister(card string) func(*optionCtx) []string {
	return func(c *optionCtx) []string {
		for reg := adjudicator.Registers; reg >= 1; reg-- {
			p := c.prog[reg-1]
			if p == 0 || c.gadgets[reg] {
				continue
			}
			if k := c.setup.Deck.Kind(p); k == adjudicator.CardMove2 || k == adjudicator.CardMove3 {
				return []string{fmt.Sprintf("use %s in register %d", card, reg)}
			}
		}
		return nil
	}
}

// sideToNearest is the side of the robot (front, back, left, right), as it stands after
// its registers, that faces the nearest other robot on the board; "" when there is none.
func (c *optionCtx) sideToNearest() string {
	me := c.r
	if c.end != nil {
		me = c.end
	}
	best, bd := -1, 1<<30
	for i, o := range c.st.Robots {
		if i == c.idx || !o.Active() {
			continue
		}
		d := abs(o.Pos.X-me.Pos.X) + abs(o.Pos.Y-me.Pos.Y)
		if d < bd {
			best, bd = i, d
		}
	}
	if best < 0 || bd == 0 {
		return ""
	}
	o := c.st.Robots[best].Pos
	dx, dy := o.X-me.Pos.X, o.Y-me.Pos.Y
	var toward adjudicator.Dir
	switch {
	case abs(dy) >= abs(dx) && dy < 0:
		toward = adjudicator.North
	case abs(dy) >= abs(dx):
		toward = adjudicator.South
	case dx > 0:
		toward = adjudicator.East
	default:
		toward = adjudicator.West
	}
	return [...]string{"front", "right", "back", "left"}[(int(toward)-int(me.Facing)+4)%4]
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// keepRank is the bot's liking of option cards, best first, for the cards it chooses
// among (seed 001's Deluxe Option Package and Scavenger Hunt): cards that protect or
// steer it first, then the weapons it fires, then cards it holds without using. A card
// not listed ranks last.
var keepRank = []string{
	"Protection Shields", "Protective Coating", "Circuit Breaker", "Brakes", "Fourth Gear",
	"Gyroscopic Stabilisator", "Reverse Gear", "Mechanical Arm", "Extra Memory", "Flywheel",
	"Power Laser", "Double Laser", "Rear Laser", "Big Gun", "Missile Launcher", "Turbo Blaster",
	"Tractor Beam", "High Pressor Beam", "Drone Launcher", "Reflector", "Interceptor",
	"Target Control", "Ramming Device", "Reengineering Unit", "Turret", "Protection Shield",
	"De Luxe Safety Copy", "Randomizer", "Recompile", "Conditional Command", "Emergency Switch",
	"Remote Control", "Mine Layer", "Proximity Mine", "Option Damping Field", "Converter", "Crab Legs",
	"Dual Processor", "Overload Override", "Frog Legs", "Homing Device", "Bridge Layer",
	"Portable Teleporter", "Big Jet", "Retro-Rockets", "Robo-Copter", "Buzz Bomb", "The Big One",
	"Self-Destruct",
}

func rankOf(card string) int {
	if k := slices.Index(keepRank, card); k >= 0 {
		return k
	}
	return len(keepRank)
}

// byLiking is cards sorted best first (keepRank), ties in the order given.
func byLiking(cards []string) []string {
	out := slices.Clone(cards)
	slices.SortStableFunc(out, func(a, b string) int { return rankOf(a) - rankOf(b) })
	return out
}

// pickOrders are the "keep" and "give" orders of seed 001's option variants: the best
// card of a Deluxe Option Package, the best cards of the next flag's Scavenger Hunt pile
// (a preference list), and under Scavenger Hunt II the worst card of each pile for the
// robot on the bot's right.
func pickOrders(c *optionCtx) []string {
	var out []string
	if len(c.r.Offered) > 0 {
		out = append(out, "keep "+byLiking(c.r.Offered)[0])
	}
	if c.setup.Rules.ScavengerHunt == 0 {
		return out
	}
	if k := c.r.Flags; k < len(c.st.Piles) && len(c.st.Piles[k]) > 0 {
		for _, card := range byLiking(c.st.Piles[k])[:min(3, len(c.st.Piles[k]))] {
			out = append(out, "keep "+card)
		}
	}
	if c.setup.Rules.ScavengerHunt == 2 {
		seen := map[string]bool{}
		for _, p := range c.st.Piles {
			if len(p) == 0 {
				continue
			}
			worst := byLiking(p)[len(p)-1]
			if !seen[worst] {
				seen[worst] = true
				out = append(out, "give "+worst)
			}
		}
	}
	return out
}

// optionOrders are the orders a bot writes for its options and option choices this turn,
// besides the card uses its forecast plays (armed.go).
func optionOrders(setup *adjudicator.Setup, st *adjudicator.State, idx int, prog [adjudicator.Registers]int, end *adjudicator.Robot) []string {
	return optionCtxOrders(&optionCtx{setup: setup, st: st, idx: idx, r: &st.Robots[idx], prog: prog, end: end})
}

// optionOrders is the package function with the pilot's Guide and the plan's card uses.
func (p *Pilot) optionOrders(st *adjudicator.State, idx int, prog [adjudicator.Registers]int, end *adjudicator.Robot, uses []cardUse) []string {
	c := &optionCtx{setup: p.setup, st: st, idx: idx, r: &st.Robots[idx], prog: prog, end: end, guide: p.guide}
	for _, u := range uses {
		c.named = append(c.named, u.Cards...)
		c.using = append(c.using, u.Card)
		if u.phaseKind() == 'g' {
			c.gadgets[u.Register] = true
		}
	}
	return optionCtxOrders(c)
}

func optionCtxOrders(c *optionCtx) []string {
	var out []string
	policy := func(o string) {
		pol := cardPolicies[o]
		if pol == nil || (payloads[o] > 0 && tokenOf(c.r, o) >= payloads[o]) {
			return // a spent payload: the order would be void
		}
		for _, line := range pol(c) {
			if slices.Contains(gadgetCards, o) {
				// A second gadget in a register is refused by check: the first kept.
				reg := registerOf(line)
				if c.gadgets[reg] {
					continue
				}
				c.gadgets[reg] = true
			}
			out = append(out, line)
		}
	}
	for _, o := range c.r.Options {
		policy(o)
	}
	// A Deluxe card is held once kept, at the start of turn 1: its uses are written now.
	for _, o := range c.r.Offered {
		if o == byLiking(c.r.Offered)[0] {
			policy(o)
		}
	}
	// An order stands until a later sheet answers for its card (docs/orders.md, A later
	// sheet): a card the bot does not use this turn is declined, or last turn's use of
	// it (a jet, a self-destruct, homing) would still be in force. Only cards whose
	// default is not to be used are declined, so the decline changes nothing else.
	for _, o := range c.r.Options {
		if !slices.Contains(declinedUnused, o) || slices.Contains(c.using, o) ||
			slices.ContainsFunc(out, func(l string) bool { return strings.HasPrefix(l, "use "+o+" ") || l == "use "+o }) ||
			slices.Contains(out, "decline "+o) {
			continue
		}
		out = append(out, "decline "+o)
	}
	return append(out, pickOrders(c)...)
}

// declinedUnused are the cards a bot declines in a turn it does not use them: the
// phase- and turn-programmed Armed and Dangerous cards, whose default (seed 001 and
// docs/options.md: "Default: not used", "not laid", "not programmed") a decline
// restates.
var declinedUnused = []string{
	"Portable Teleporter", "Big Jet", "Retro-Rockets", "Crab Legs", "Dual Processor", "Overload Override",
	"Frog Legs", "Robo-Copter", "Homing Device", "Buzz Bomb", "Goo Dropper", "Bridge Layer", "Self-Destruct",
	"The Big One", "Scrambler Bomb", "Mine Layer", "Proximity Mine",
}
