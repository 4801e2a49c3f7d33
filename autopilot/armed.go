package autopilot

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// The Armed and Dangerous cards that move the robot off its program's own path (seed
// 001, Complete Listing of Option Cards): Portable Teleporter, Big Jet, Retro-Rockets,
// Crab Legs, Dual Processor, Overload Override, Frog Legs, Robo-Copter and Homing
// Device's homing; and Buzz Bomb, whose five cards fly a bomb. The autopilot plays them
// in its forecasts: a use is an order of the order language (docs/options.md), and the
// forecast is the engine's, run with a Decider answering as that order does
// (usesDecider, the same answers orders.Compile gives the line). A use is written only
// where the forecast shows it pays.
//
//   - The program search (choose.go) values programs without these cards and keeps its
//     topPrograms best, and the topLost that go furthest among those that destroy the
//     robot (a jump, a flight or a teleport may save them). On each of them the uses are added greedily: every use the hand
//     and the card's payload allow is forecast, the one that gains most is kept, and
//     again, up to maxUses uses. The best program with its uses wins; ties go to the
//     program without uses. So a card is tried on the search's best programs, not on
//     every program of the hand (the whole search again for each use would not fit the
//     100 ms a robot).
//   - Cards with a payload spent for good (Big Jet's fuel counter, the Portable
//     Teleporter, Retro-Rockets' three counters) must gain spendWorth; the others any
//     gain at all. Overload Override's point of damage, Big Jet's landing damage and the
//     like are in the forecast's score already.
//   - What the forecast cannot value, the autopilot decides by a fixed rule: the
//     teleporter left on the board for later turns (not valued: it is laid only when
//     this turn gains enough); Homing Device's tag, worth something only in later turns
//     (optionCtx.homingTags: a robot nearer the bot's next flag than the bot, while its
//     token is on no robot in the race); a buzz bomb's flight after this turn (not
//     valued: a bomb is launched only when this turn's forecast shows it hurting another
//     robot more than the bot).
//   - Buzz Bomb: every order of the bomb hand's five cards (one per sequence of kinds)
//     is forecast with adjudicator.Simulate; its explosions, at the squares the other
//     robots stand on, give the damage the bomb deals them (adjudicator.BlastDamage,
//     hitValue a point). A bomb already in play flies anyway: it gets the best order,
//     never the default.
const (
	// topPrograms is how many of the search's best programs the uses are tried on, and
	// topLost how many of those that destroy the robot, furthest first.
	topPrograms = 16
	topLost     = 8
	// maxUses is the most uses added to one program.
	maxUses = 3
	// spendWorth is the least a use spending a payload for good must gain: two squares.
	spendWorth = 2 * stepValue
	// hitValue is a point of damage the bot's buzz bomb deals another robot.
	hitValue = 80
	// bombPower is a buzz bomb's explosion (seed 001, Buzz Bomb: "explodes for 4 points
	// of damage").
	bombPower = 4
)

// forecastCards are the cards whose uses the search forecasts (Buzz Bomb apart).
var forecastCards = []string{"Portable Teleporter", "Big Jet", "Retro-Rockets", "Crab Legs", "Dual Processor",
	"Overload Override", "Frog Legs", "Robo-Copter", "Homing Device"}

// cardUse is one "use" order of a card the forecast plays.
type cardUse struct {
	Card     string
	Register int   // phase programmed and Frog Legs: the register; 0 none
	Cards    []int // the cards the order names, in order
	Primary  int   // Overload Override's primary card, when the order names it
	Fuel     int   // Retro-Rockets' fuel counters (1 is not written)
	Mode     string
	Target   string
}

// phaseKind is the card's kind of phase program: 'm' movement, 'g' gadget, 0 neither
// (seed 001, Types of Phase-Programmed Options: one of each a register).
func (u cardUse) phaseKind() byte {
	switch u.Card {
	case "Big Jet", "Retro-Rockets", "Crab Legs", "Dual Processor", "Overload Override":
		return 'm'
	case "Portable Teleporter":
		return 'g'
	}
	return 0
}

// spends reports whether the use spends a payload for good.
func (u cardUse) spends() bool {
	return u.Card == "Big Jet" || u.Card == "Portable Teleporter" || u.Card == "Retro-Rockets"
}

// Line is the use in the order language (docs/options.md).
func (u cardUse) Line() string {
	var b strings.Builder
	b.WriteString("use " + u.Card)
	if u.Mode == "tag" || u.Mode == "home" {
		b.WriteString(" " + u.Mode)
	}
	if u.Target != "" {
		b.WriteString(" on " + u.Target)
	}
	if u.Register > 0 {
		fmt.Fprintf(&b, " in register %d", u.Register)
	}
	for _, c := range u.Cards {
		fmt.Fprintf(&b, " P%d", c)
	}
	if u.Primary != 0 {
		fmt.Fprintf(&b, " primary P%d", u.Primary)
	}
	if u.Fuel > 1 {
		fmt.Fprintf(&b, " fuel %d", u.Fuel)
	}
	if u.Mode == "empty" {
		b.WriteString(" empty")
	}
	return b.String()
}

// param is the engine's answer the order gives (adjudicator.Answer), as the orders
// package writes it (orders.Action.Param).
func (u cardUse) param() string {
	var parts []string
	if u.Register != 0 {
		parts = append(parts, "register="+strconv.Itoa(u.Register))
	}
	if u.Target != "" {
		parts = append(parts, "target="+u.Target)
	}
	bomb := u.Card == "Buzz Bomb"
	if len(u.Cards) > 0 {
		parts = append(parts, "card="+strconv.Itoa(u.Cards[0]))
	}
	if bomb && len(u.Cards) > 1 {
		all := make([]string, len(u.Cards))
		for k, c := range u.Cards {
			all[k] = strconv.Itoa(c)
		}
		parts = append(parts, "cards="+strings.Join(all, ","))
	}
	if u.Fuel > 1 {
		parts = append(parts, "steps="+strconv.Itoa(u.Fuel))
	}
	if !bomb && len(u.Cards) > 1 {
		parts = append(parts, "card2="+strconv.Itoa(u.Cards[1]))
	}
	if u.Primary != 0 {
		parts = append(parts, "primary="+strconv.Itoa(u.Primary))
	}
	if u.Mode != "" {
		parts = append(parts, "mode="+u.Mode)
	}
	if len(parts) == 0 {
		return "yes"
	}
	return strings.Join(parts, ";")
}

// usesDecider answers the engine's option questions as the uses' order lines do (the
// first that applies, as orders.Compile reads a sheet), and discards an option to
// prevent damage as the bot's sheet says (Pilot.suggest, Decider.PreventDamage): a
// card used at high damage (Overload Override's point) may go that way. Every other
// decision is the engine's default, as in the program search; none of them comes
// before the end of the registers the forecast stops at.
type usesDecider struct {
	adjudicator.Defaults
	uses []cardUse
}

func (d *usesDecider) PreventDamage(v adjudicator.View, source string) int {
	return Decider{}.PreventDamage(v, source)
}

func (d *usesDecider) Option(v adjudicator.View, option, _ string) string {
	mode, modeDefault := v.Mode()
	for _, u := range d.uses {
		if !strings.EqualFold(u.Card, option) || (u.Register != 0 && v.Register() != 0 && u.Register != v.Register()) {
			continue
		}
		if mode != "" && u.Mode != mode && (u.Mode != "" || !modeDefault) {
			continue
		}
		if u.Target != "" {
			if t, ok := v.Target(); ok && !strings.EqualFold(t.Name, u.Target) {
				continue
			}
		}
		return u.param()
	}
	return ""
}

// holdsForecastCard reports whether r holds a card whose uses the search forecasts.
func holdsForecastCard(r *adjudicator.Robot) bool {
	for _, o := range r.Options {
		if slices.Contains(forecastCards, o) {
			return true
		}
	}
	return false
}

// ranked is one program of the search's best, with its forecast.
type ranked struct {
	prog [adjudicator.Registers]int
	o    outcome
	end  adjudicator.Robot
	key  int // what the list is ranked by
	// facing is the reboot facing the program was searched with (2023 rules).
	facing adjudicator.Dir
}

// keepTop keeps the program in list (best first by key, ties to the lower program) if
// it is among the n best.
func keepTop(list *[]ranked, n int, c ranked) {
	l := *list
	if !admits(l, n, c.key, c.prog) {
		return
	}
	if len(l) == n {
		l = l[:n-1]
	}
	k := len(l)
	for k > 0 && (c.key > l[k-1].key || (c.key == l[k-1].key && less(c.prog, l[k-1].prog))) {
		k--
	}
	*list = slices.Insert(l, k, c)
}

// admits reports whether keepTop would keep a program prog of that key in list.
func admits(list []ranked, n, key int, prog [adjudicator.Registers]int) bool {
	if len(list) < n {
		return true
	}
	w := &list[n-1]
	return key > w.key || (key == w.key && less(prog, w.prog))
}

// keepTops keeps the program among the search's topPrograms best by score, and, when it
// destroys the robot, among the topLost that go furthest (a use may save them: a jump
// over the pit that ends them).
func (s *search) keepTops(prog [adjudicator.Registers]int, o outcome, end *adjudicator.Robot) {
	if admits(s.top, topPrograms, o.Score, prog) {
		keepTop(&s.top, topPrograms, ranked{prog: prog, o: o, end: s.sim.Keep(s.robot, end), key: o.Score})
	}
	if o.Destroyed && admits(s.topLost, topLost, o.progress(), prog) {
		keepTop(&s.topLost, topLost, ranked{prog: prog, o: o, end: s.sim.Keep(s.robot, end), key: o.progress()})
	}
}

// playCards tries the forecast cards' uses on the search's best programs and keeps the
// best program with its uses in s (bestProg, best, bestEnd); it returns the uses.
func (p *Pilot) playCards(s *search, st *adjudicator.State) []cardUse {
	d := &usesDecider{}
	var bestUses []cardUse
	if s.best.Won {
		return nil // nothing beats the race won
	}
	for k, top := range append(slices.Clip(s.top), s.topLost...) {
		if k >= len(s.top) && slices.ContainsFunc(s.top, func(r ranked) bool { return r.prog == top.prog }) {
			continue // in both lists
		}
		uses, o, end := p.addUses(s, st, d, top)
		if len(uses) == 0 {
			continue
		}
		if o.Score > s.best.Score || (o.Score == s.best.Score && k == 0) {
			s.best, s.bestProg, s.bestEnd, bestUses = o, top.prog, end, uses
		}
	}
	return bestUses
}

// addUses adds uses greedily to one program: the use gaining most, while one gains
// enough, up to maxUses.
func (p *Pilot) addUses(s *search, st *adjudicator.State, d *usesDecider, top ranked) ([]cardUse, outcome, adjudicator.Robot) {
	var uses []cardUse
	// The program as the sheet plays it with no use: the search's forecast but for
	// the options discarded against damage.
	d.uses = nil
	o, end := top.o, top.end
	if e, err := s.sim.Run(s.robot, top.prog, d); err == nil {
		o, end = p.evaluate(&s.before, &e), e
	}
	for len(uses) < maxUses {
		found := false
		var bu cardUse
		var bo outcome
		var bend adjudicator.Robot
		for _, u := range p.candidates(st, s.robot, top.prog, uses) {
			d.uses = append(uses, u)
			e, err := s.sim.Run(s.robot, top.prog, d)
			if err != nil {
				continue
			}
			s.tried++
			c := p.evaluate(&s.before, &e)
			need := o.Score + 1
			if u.spends() {
				need = o.Score + spendWorth
			}
			if c.Score >= need && (!found || c.Score > bo.Score) {
				bu, bo, bend, found = u, c, e, true
			}
		}
		d.uses = nil
		if !found {
			break
		}
		uses = append(slices.Clip(uses), bu)
		o, end = bo, bend
	}
	return uses, o, end
}

// tokenOf is what robot r's option card has used up (adjudicator.Robot.Tokens).
func tokenOf(r *adjudicator.Robot, card string) int {
	if k := slices.Index(r.Options, card); k >= 0 && k < len(r.Tokens) {
		return r.Tokens[k]
	}
	return 0
}

// candidates are the uses of robot i's forecast cards that may be added to uses with
// program prog: what the cards' orders allow (docs/options.md), one card of a kind
// standing for the others, at most one movement and one gadget program a register, no
// card of the hand named twice, payloads not overspent.
func (p *Pilot) candidates(st *adjudicator.State, i int, prog [adjudicator.Registers]int, uses []cardUse) []cardUse {
	r := &st.Robots[i]
	deck := p.setup.Deck
	var out []cardUse
	kindAt := func(reg int) adjudicator.CardKind {
		c := prog[reg-1]
		if c == 0 {
			c = r.Registers[reg-1] // a locked register keeps its card
		}
		if c == 0 {
			return adjudicator.NoCard
		}
		return deck.Kind(c)
	}
	taken := func(reg int, kind byte) bool {
		for _, u := range uses {
			if u.Register == reg && u.phaseKind() == kind {
				return true
			}
		}
		return false
	}
	has := func(card string) bool {
		for _, u := range uses {
			if u.Card == card {
				return true
			}
		}
		return false
	}
	// spare: the hand's cards neither programmed nor named by a use, on no Flywheel,
	// the highest of each kind.
	var spare []int
	for k := len(r.Hand) - 1; k >= 0; k-- {
		c := r.Hand[k]
		if slices.Contains(prog[:], c) || c == r.Flywheel {
			continue
		}
		named := false
		for _, u := range uses {
			named = named || slices.Contains(u.Cards, c)
		}
		if named || slices.ContainsFunc(spare, func(x int) bool { return deck.Kind(x) == deck.Kind(c) }) {
			continue
		}
		spare = append(spare, c)
	}
	spareOf := func(kinds ...adjudicator.CardKind) []int {
		var cs []int
		for _, c := range spare {
			if slices.Contains(kinds, deck.Kind(c)) {
				cs = append(cs, c)
			}
		}
		return cs
	}
	seen := map[string]bool{}
	for _, card := range r.Options {
		if seen[card] || !slices.Contains(forecastCards, card) {
			continue
		}
		seen[card] = true
		switch card {
		case "Portable Teleporter", "Big Jet":
			if tokenOf(r, card) >= 1 || has(card) {
				continue // one teleporter, one fuel counter (seed 001)
			}
			kind := cardUse{Card: card}.phaseKind()
			for reg := 1; reg <= adjudicator.Registers; reg++ {
				if kindAt(reg) != adjudicator.NoCard && !taken(reg, kind) {
					out = append(out, cardUse{Card: card, Register: reg})
				}
			}
		case "Retro-Rockets":
			left := 3 - tokenOf(r, card) // seed 001: three fuel counters
			for _, u := range uses {
				if u.Card == card {
					left -= max(1, u.Fuel)
				}
			}
			for reg := 1; reg <= adjudicator.Registers; reg++ {
				if kindAt(reg) == adjudicator.NoCard || taken(reg, 'm') {
					continue
				}
				for f := 1; f <= left; f++ {
					out = append(out, cardUse{Card: card, Register: reg, Fuel: f})
				}
			}
		case "Crab Legs", "Dual Processor", "Overload Override":
			for reg := 1; reg <= adjudicator.Registers; reg++ {
				c0 := prog[reg-1]
				if c0 == 0 || taken(reg, 'm') {
					continue // a locked register takes no second card (phases.go)
				}
				var with []int
				switch k := deck.Kind(c0); {
				case card == "Overload Override":
					out = append(out, cardUse{Card: card, Register: reg, Mode: "empty"})
					for _, x := range spare {
						out = append(out, cardUse{Card: card, Register: reg, Cards: []int{x}},
							cardUse{Card: card, Register: reg, Cards: []int{x, c0}})
					}
				case card == "Crab Legs" && k == adjudicator.CardMove1:
					with = spareOf(adjudicator.CardLeft, adjudicator.CardRight)
				case card == "Crab Legs" && (k == adjudicator.CardLeft || k == adjudicator.CardRight):
					with = spareOf(adjudicator.CardMove1)
				case card == "Dual Processor" && k == adjudicator.CardMove2:
					with = spareOf(adjudicator.CardLeft, adjudicator.CardRight)
				case card == "Dual Processor" && k == adjudicator.CardMove3:
					with = spareOf(adjudicator.CardLeft, adjudicator.CardRight, adjudicator.CardUTurn)
				case card == "Dual Processor" && (k == adjudicator.CardLeft || k == adjudicator.CardRight):
					with = spareOf(adjudicator.CardMove2, adjudicator.CardMove3)
				case card == "Dual Processor" && k == adjudicator.CardUTurn:
					with = spareOf(adjudicator.CardMove3)
				}
				for _, x := range with {
					out = append(out, cardUse{Card: card, Register: reg, Cards: []int{x}})
				}
			}
		case "Frog Legs":
			for reg := 1; reg <= adjudicator.Registers; reg++ {
				if k := kindAt(reg); (k == adjudicator.CardMove2 || k == adjudicator.CardMove3) && !slices.ContainsFunc(uses, func(u cardUse) bool { return u.Card == card && u.Register == reg }) {
					out = append(out, cardUse{Card: card, Register: reg})
				}
			}
		case "Robo-Copter":
			if has(card) {
				continue
			}
			for _, x := range spare {
				if deck.Kind(x).Steps() != 0 {
					out = append(out, cardUse{Card: card, Cards: []int{x}})
				}
			}
		case "Homing Device":
			j := tokenOf(r, card) - 1
			if has(card) || j < 0 || j >= len(st.Robots) || j == i || !st.Robots[j].Active() {
				continue
			}
			out = append(out, cardUse{Card: card, Mode: "home"})
		}
	}
	return out
}

// bombUse is the Buzz Bomb order for robot i playing prog with uses: the order of the
// bomb hand's five cards whose forecast scores best, counting the damage the bomb deals
// the other robots; a bomb not yet in play is launched only when that beats keeping it
// by hitValue. ok is false when no order is written.
func (p *Pilot) bombUse(st *adjudicator.State, i int, prog [adjudicator.Registers]int, uses []cardUse) (cardUse, bool) {
	r := &st.Robots[i]
	if !slices.Contains(r.Options, "Buzz Bomb") || len(r.BombHand) != adjudicator.Registers || r.Power == adjudicator.PowerDown {
		return cardUse{}, false
	}
	inPlay := false
	for _, dev := range st.Devices {
		inPlay = inPlay || (dev.Kind == adjudicator.DevBuzzBomb && dev.Owner == r.Name)
	}
	if !inPlay {
		// A bomb launched now cannot reach a robot further (squares across) than its
		// cards fly it and its blast reaches: then it is kept, unforecast.
		reach := adjudicator.BlastReach(bombPower)
		for _, c := range r.BombHand {
			reach += abs(p.setup.Deck.Kind(c).Steps())
		}
		if nearestFrom(st, i, r.Pos) > reach {
			return cardUse{}, false
		}
	}
	d := &usesDecider{uses: uses}
	value := func(bomb *cardUse) (int, bool) {
		d.uses = uses
		if bomb != nil {
			d.uses = append(slices.Clip(uses), *bomb)
		}
		end, events, err := adjudicator.Simulate(p.setup, st, i, adjudicator.Orders{Program: prog, Decider: d})
		if err != nil {
			return 0, false
		}
		// The forecast's explosions hurt the forecast robot only (the others hold
		// still and take no part): the bomb's damage to them is read off the events with
		// the engine's explosion table, at the squares they stand on.
		v := p.evaluate(r, &end).Score
		b := p.setup.Course.Board
		for _, e := range events {
			if e.Kind != adjudicator.EvExplosion || e.Robot != r.Name || e.To == nil {
				continue
			}
			for j := range st.Robots {
				if o := &st.Robots[j]; j != i && o.Active() && !o.Virtual {
					v += hitValue * adjudicator.BlastDamage(b, *e.To, e.Amount, e.Register, o.Pos)
				}
			}
		}
		return v, true
	}
	base, ok := value(nil)
	if !ok {
		return cardUse{}, false
	}
	var best cardUse
	bestV, found := 0, false
	seen := map[[adjudicator.Registers]adjudicator.CardKind]bool{}
	hand := r.BombHand
	var perm [adjudicator.Registers]int
	var walk func(k int, used int)
	walk = func(k, used int) {
		if k == len(perm) {
			var key [adjudicator.Registers]adjudicator.CardKind
			cards := make([]int, len(perm))
			for n, x := range perm {
				cards[n] = hand[x]
				key[n] = p.setup.Deck.Kind(hand[x])
			}
			if seen[key] {
				return
			}
			seen[key] = true
			u := cardUse{Card: "Buzz Bomb", Cards: cards}
			if v, ok := value(&u); ok && (!found || v > bestV) {
				best, bestV, found = u, v, true
			}
			return
		}
		for x := range hand {
			if used&(1<<x) == 0 {
				perm[k] = x
				walk(k+1, used|1<<x)
			}
		}
	}
	walk(0, 0)
	if !found || (!inPlay && bestV < base+hitValue) {
		return cardUse{}, false
	}
	return best, true
}

// nearestFrom is the distance in squares (across) from p to the nearest other active
// robot of the race, not virtual; a large number when there is none.
func nearestFrom(st *adjudicator.State, i int, p adjudicator.Pos) int {
	best := 1 << 30
	for j := range st.Robots {
		if o := &st.Robots[j]; j != i && o.Active() && !o.Virtual {
			best = min(best, abs(o.Pos.X-p.X)+abs(o.Pos.Y-p.Y))
		}
	}
	return best
}
