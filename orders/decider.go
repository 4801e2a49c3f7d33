package orders

import (
	"strconv"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// How a sheet answers the engine's run-time decisions (adjudicator.Decider).
//
// For each decision the rules are tried in the order written. A rule whose condition
// holds (or that has none) offers its "then" action; a rule whose condition fails offers
// its "else" action, if any. The first offered action that answers this decision wins;
// actions that answer other decisions are passed over. When no rule answers, the
// engine's documented default applies (adjudicator.Defaults).
//
// Conditions are judged through the View at the moment of the decision, never on the
// state when the sheet was written. Predicted outcomes come from View.Predict: "I would
// be destroyed" at a damage-prevention decision (the damage plus the rest of the hit
// reach the limit), "target would be destroyed" and "target would fall" at an option
// question about a target; where the engine cannot tell (any other decision, "I would
// fall" always) they are false, so an order that depends on them is not carried out and
// its "else" is. "I would end on a laser" is exact at the end of the turn and judged as
// "a board laser reaches my square now" during the registers.

// Compile makes the Decider for a sheet. The sheet must not change afterwards.
func Compile(s *Sheet) adjudicator.Decider {
	return &decider{rules: s.Rules}
}

type decider struct {
	rules []Rule
}

// decide returns the first action offered for a decision that answers it.
func (d *decider) decide(v adjudicator.View, answers func(Action) bool) (Action, bool) {
	var env *evalEnv
	for i := range d.rules {
		r := &d.rules[i]
		a := &r.Then
		if r.If != nil {
			// Skip the evaluation when neither branch could answer.
			if !answers(r.Then) && (r.Else == nil || !answers(*r.Else)) {
				continue
			}
			if env == nil {
				env = newEnv(v)
			}
			if !env.eval(r.If) {
				if r.Else == nil {
					continue
				}
				a = r.Else
			}
		}
		if answers(*a) {
			return *a, true
		}
	}
	return Action{}, false
}

func (d *decider) PowerDown(v adjudicator.View) bool {
	a, ok := d.decide(v, func(a Action) bool { return a.Do == DoPowerDown || a.Do == DoPowerUp })
	return ok && a.Do == DoPowerDown
}

func (d *decider) StayDown(v adjudicator.View) bool {
	a, ok := d.decide(v, func(a Action) bool {
		return a.Do == DoStayDown || a.Do == DoPowerUp || a.Do == DoPowerDown
	})
	return ok && a.Do != DoPowerUp
}

func (d *decider) DoubleWrench(v adjudicator.View) adjudicator.WrenchChoice {
	a, ok := d.decide(v, func(a Action) bool { return a.Do == DoRepair || a.Do == DoTakeOption })
	if ok && a.Do == DoTakeOption {
		return adjudicator.TakeOption
	}
	return adjudicator.Repair2
}

func (d *decider) ReentryFacing(v adjudicator.View) adjudicator.Dir {
	a, ok := d.decide(v, func(a Action) bool { return a.Do == DoFace })
	if ok {
		if dir, ok := adjudicator.ParseDir(a.Dir); ok {
			return dir
		}
	}
	return v.TowardNextFlag()
}

func (d *decider) PreventDamage(v adjudicator.View, source string) int {
	held := v.Robot().Options
	a, ok := d.decide(v, func(a Action) bool {
		switch a.Do {
		case DoKeepOptions:
			return true
		case DoPreventDamage:
			return a.Option == "" || optionIndex(held, a.Option) >= 0
		}
		return false
	})
	if !ok || a.Do == DoKeepOptions || len(held) == 0 {
		return -1
	}
	if a.Option == "" {
		return 0 // any: the oldest
	}
	return optionIndex(held, a.Option)
}

func (d *decider) LoseOption(v adjudicator.View, why adjudicator.Loss) int {
	held := v.Robot().Options
	a, ok := d.decide(v, func(a Action) bool {
		return a.Do == DoLoseOption && (a.Option == "" || optionIndex(held, a.Option) >= 0)
	})
	if !ok || a.Option == "" {
		return 0
	}
	return optionIndex(held, a.Option)
}

// MoveArchive answers, with the rules setting archive_choice, whether a robot reaching a
// flag moves its archive there ("keep archive" / "move archive"; default: move).
func (d *decider) MoveArchive(v adjudicator.View) bool {
	a, ok := d.decide(v, func(a Action) bool { return a.Do == DoKeepArchive || a.Do == DoMoveArchive })
	return !ok || a.Do == DoMoveArchive
}

// ChopShop answers at a chop shop (seed 003, CHOP SHOP): "swap OPTION" scraps that held
// option and draws a new one; "recharge OPTION" restores what it has used up; "take
// option" draws one more at the end of the turn.
// Default: nothing.
func (d *decider) ChopShop(v adjudicator.View, endOfTurn bool) adjudicator.ChopChoice {
	held := v.Robot().Options
	a, ok := d.decide(v, func(a Action) bool {
		return ((a.Do == DoSwapOption || a.Do == DoRecharge) && optionIndex(held, a.Option) >= 0) || (a.Do == DoTakeOption && endOfTurn)
	})
	switch {
	case !ok:
		return adjudicator.ChopChoice{}
	case a.Do == DoTakeOption:
		return adjudicator.ChopChoice{Act: adjudicator.ChopDraw}
	case a.Do == DoRecharge:
		return adjudicator.ChopChoice{Act: adjudicator.ChopRecharge, Option: optionIndex(held, a.Option)}
	}
	return adjudicator.ChopChoice{Act: adjudicator.ChopScrap, Option: optionIndex(held, a.Option)}
}

// Option answers an option card's run-time question with the parameter of the first
// "use OPTION ..." that applies: its direction, "register N", the target robot, "PNNN",
// or "yes" when it has none; "" to decline. When the question is about a target robot
// (View.Target), a "use" naming another target does not apply.
func (d *decider) Option(v adjudicator.View, option, question string) string {
	target, hasTarget := v.Target()
	mode, modeDefault := v.Mode()
	a, ok := d.decide(v, func(a Action) bool {
		return (a.Do == DoUse || a.Do == DoDecline) && squash(canonicalOption(a.Option)) == squash(canonicalOption(option)) &&
			(a.Register == 0 || a.Register == v.Register() || v.Register() == 0) &&
			(a.Target == "" || !hasTarget || strings.EqualFold(a.Target, target.Name)) &&
			// A card used in several ways (Homing Device) asks about one way at a time: an
			// order naming a way answers that way; one naming none, the default way.
			(mode == "" || a.Do == DoDecline || a.Mode == mode || (a.Mode == "" && modeDefault))
	})
	if !ok {
		return ""
	}
	if a.Do == DoDecline {
		return "no"
	}
	return a.Param()
}

// Param is the parameter of a "use" action as the engine is given it: "yes", or
// key=value pairs joined by ";" (adjudicator.Answer).
func (a Action) Param() string {
	var parts []string
	switch a.Dir {
	case "":
	case "front", "back", "left", "right":
		parts = append(parts, "side="+a.Dir)
	default:
		parts = append(parts, "dir="+a.Dir)
	}
	if a.Register != 0 {
		parts = append(parts, "register="+strconv.Itoa(a.Register))
	}
	if a.Target != "" {
		parts = append(parts, "target="+a.Target)
	}
	if a.Card != 0 {
		parts = append(parts, "card="+strconv.Itoa(a.Card))
	}
	if cards := a.Cards(); len(cards) > 1 {
		var all []string
		for _, c := range cards {
			all = append(all, strconv.Itoa(c))
		}
		parts = append(parts, "cards="+strings.Join(all, ","))
	}
	if a.Steps != 0 {
		parts = append(parts, "steps="+strconv.Itoa(a.Steps))
	}
	if a.Lock != 0 {
		parts = append(parts, "lock="+strconv.Itoa(a.Lock))
	}
	if a.TargetOption != "" {
		parts = append(parts, "option="+a.TargetOption)
	}
	if a.Card2 != 0 {
		parts = append(parts, "card2="+strconv.Itoa(a.Card2))
	}
	if a.Primary != 0 {
		parts = append(parts, "primary="+strconv.Itoa(a.Primary))
	}
	if a.Mode != "" {
		parts = append(parts, "mode="+a.Mode)
	}
	if len(parts) == 0 {
		return "yes"
	}
	return strings.Join(parts, ";")
}

func optionIndex(held []string, name string) int {
	for i, h := range held {
		if strings.EqualFold(h, name) {
			return i
		}
	}
	return -1
}

// evalEnv caches what a condition may ask of the View during one decision.
type evalEnv struct {
	v    adjudicator.View
	r    adjudicator.Robot
	sq   adjudicator.Square
	sqOK bool
}

func newEnv(v adjudicator.View) *evalEnv {
	return &evalEnv{v: v, r: v.Robot()}
}

func (e *evalEnv) square() adjudicator.Square {
	if !e.sqOK {
		e.sq, e.sqOK = e.v.Square(), true
	}
	return e.sq
}

func (e *evalEnv) eval(c *Cond) bool {
	var ok bool
	switch {
	case c.All != nil:
		ok = true
		for i := range c.All {
			if !e.eval(&c.All[i]) {
				ok = false
				break
			}
		}
	case c.Any != nil:
		for i := range c.Any {
			if e.eval(&c.Any[i]) {
				ok = true
				break
			}
		}
	default:
		ok = e.test(c)
	}
	return ok != c.Not
}

func (e *evalEnv) test(c *Cond) bool {
	switch c.Test {
	case TestDamage:
		return compare(damageOf(&e.r), c.Op, c.N)
	case TestDamageWould:
		return compare(damageOf(&e.r)+e.v.PendingDamage(), c.Op, c.N)
	case TestEnergy:
		if e.r.Mat == nil {
			return compare(0, c.Op, c.N)
		}
		return compare(e.r.Mat.Energy, c.Op, c.N)
	case TestSpam:
		return compare(cardsHeld(&e.r, func(k adjudicator.CardKind) bool { return k == adjudicator.CardSpam }), c.Op, c.N)
	case TestLives:
		return compare(e.r.Lives, c.Op, c.N)
	case TestRegister:
		return compare(e.v.Register(), c.Op, c.N)
	case TestFlags:
		return compare(e.r.Flags, c.Op, c.N)
	case TestOptions:
		return compare(len(e.r.Options), c.Op, c.N)
	case TestFacing:
		d, ok := adjudicator.ParseDir(c.Arg)
		return ok && e.r.Facing == d
	case TestOn:
		return squareIs(e.square(), c.Arg)
	case TestNextPit:
		return e.v.NextToPit()
	case TestOnLaser:
		return e.r.Active() && e.v.OnLaser()
	case TestIEndOnLaser:
		if yes, known := e.v.Predict(adjudicator.Self, adjudicator.WouldEndOnLaser); known {
			return yes
		}
		// During the registers the engine cannot see the end of the turn: judged as
		// "a board laser reaches my square now".
		return e.r.Active() && e.v.OnLaser()
	case TestIDestroyed:
		return e.predict(adjudicator.Self, adjudicator.WouldBeDestroyed)
	case TestIFall:
		return e.predict(adjudicator.Self, adjudicator.WouldFall)
	case TestTargetDestroyed:
		return e.predict(adjudicator.TheTarget, adjudicator.WouldBeDestroyed)
	case TestTargetFalls:
		return e.predict(adjudicator.TheTarget, adjudicator.WouldFall)
	case TestHolds:
		return optionIndex(e.r.Options, c.Arg) >= 0
	case TestDown:
		return e.r.Power == adjudicator.PowerDown
	case TestDead:
		return e.r.Destroyed
	}
	return false
}

// damageOf is a robot's damage as a condition counts it: its damage points under the
// postal rules; under the 2023 rules (seed 004), where damage is cards, the damage cards
// it holds (SPAM and Haywire, in its hand and registers, and the Haywire lying face down
// under its registers): what a shutdown would discard.
func damageOf(r *adjudicator.Robot) int {
	if r.Mat == nil {
		return r.Damage
	}
	n := cardsHeld(r, adjudicator.CardKind.Damage)
	for _, hw := range r.Mat.Haywire {
		if hw != 0 {
			n++
		}
	}
	return n
}

// cardsHeld counts the cards of a 2023 robot's hand and registers that are of a kind.
func cardsHeld(r *adjudicator.Robot, is func(adjudicator.CardKind) bool) int {
	if r.Mat == nil {
		return 0
	}
	n := 0
	for _, c := range r.Hand {
		if is(adjudicator.CardKind(c)) {
			n++
		}
	}
	for _, c := range r.Registers {
		if c != 0 && is(adjudicator.CardKind(c)) {
			n++
		}
	}
	return n
}

// predict is a prediction the engine makes at this decision (adjudicator.View.Predict);
// what it cannot tell is false (docs/orders.md, "Predicted outcomes").
func (e *evalEnv) predict(who adjudicator.Subject, what adjudicator.Outcome) bool {
	yes, known := e.v.Predict(who, what)
	return known && yes
}

func compare(x int, op string, n int) bool {
	switch op {
	case "<":
		return x < n
	case "<=":
		return x <= n
	case ">":
		return x > n
	case ">=":
		return x >= n
	case "!=":
		return x != n
	}
	return x == n
}

// squareIs reports whether a square is of a kind named in a condition.
func squareIs(sq adjudicator.Square, kind string) bool {
	switch kind {
	case "flag":
		return sq.Flag > 0
	case "repair":
		return sq.Repair > 0
	case "double-repair":
		return sq.Repair >= 2
	case "single-repair":
		return sq.Repair == 1
	case "belt":
		return sq.Belt.Kind != adjudicator.NoBelt
	case "express-belt":
		return sq.Belt.Kind == adjudicator.BeltExpress
	case "chop-shop":
		return sq.ChopShop
	case "oil":
		return sq.Oil
	case "gear":
		return sq.Gear != adjudicator.NoRotation
	case "pusher":
		return sq.Pusher.Registers != 0
	case "crusher":
		return sq.Crusher != 0
	case "start":
		return sq.Start > 0
	}
	return false
}

// PickOption answers which card of several to take (adjudicator.PickDecider): the first
// "keep NAME" order (for the robot's own Deluxe Option Package or Scavenger Hunt I card)
// or "give NAME [to ROBOT]" order (Scavenger Hunt II, for the robot on the right) whose
// card is offered. The default, with no such order, is the first card offered.
func (d *decider) PickOption(v adjudicator.View, why adjudicator.Pick, cards []string) int {
	target := ""
	if t, ok := v.Target(); ok {
		target = t.Name
	}
	a, ok := d.decide(v, func(a Action) bool {
		switch {
		case why == adjudicator.PickScavengerFor && a.Do == DoGiveOption:
			return optionIndex(cards, a.Option) >= 0 && (a.Target == "" || strings.EqualFold(a.Target, target))
		case why != adjudicator.PickScavengerFor && a.Do == DoKeepOption:
			return optionIndex(cards, a.Option) >= 0
		}
		return false
	})
	if !ok {
		return 0
	}
	return optionIndex(cards, a.Option)
}
