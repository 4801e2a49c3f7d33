package orders

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/internal/near"
)

// Report is everything Validate found: errors (the sheet is refused) and warnings
// (legal, but probably not what the player meant), in sheet order.
type Report struct {
	Problems []Problem `json:"problems"`
}

// simulators keep the forecast's Simulators between sheets: a Simulator's buffers
// (robots, mats, the laser scratch) are most of what a check of one sheet allocated. A
// Simulator put back keeps the game it last forecast until the next sheet's ResetBlind
// writes another over it, or the pool lets it go at a collection: letting go of it at
// once (Reset(nil, nil)) zeroed some kB of pointers a sheet, each a write barrier while
// the collector marks.
var simulators = sync.Pool{New: func() any { return adjudicator.NewSimulator(nil, &adjudicator.State{}) }}

// OK reports whether the sheet has no errors (warnings allowed).
func (r Report) OK() bool {
	for _, p := range r.Problems {
		if !p.Warning {
			return false
		}
	}
	return true
}

// Errors and Warnings split the problems.
func (r Report) Errors() []Problem   { return r.filter(false) }
func (r Report) Warnings() []Problem { return r.filter(true) }

func (r Report) filter(w bool) []Problem {
	var out []Problem
	for _, p := range r.Problems {
		if p.Warning == w {
			out = append(out, p)
		}
	}
	return out
}

// String is the report for a mail: one problem a line.
func (r Report) String() string {
	if len(r.Problems) == 0 {
		return "orders accepted: no problems found\n"
	}
	var b strings.Builder
	for _, p := range r.Problems {
		b.WriteString(p.String())
		b.WriteByte('\n')
	}
	return b.String()
}

func (r *Report) err(at Pos, format string, args ...any) {
	r.Problems = append(r.Problems, Problem{At: at, Msg: fmt.Sprintf(format, args...)})
}

func (r *Report) warn(at Pos, format string, args ...any) {
	r.Problems = append(r.Problems, Problem{At: at, Msg: fmt.Sprintf(format, args...), Warning: true})
}

// Validate checks a parsed sheet against the game as it stands before the turn: the
// robot is the sender's (robotName), the turn is the one to be played, every card is in
// the hand dealt or locked in place, no card twice, five registers; and warns about
// what is legal but probably a mistake (a power down announced with no damage, a program
// that gets the robot destroyed, orders for options not held). Every problem is in the
// one report. The game is not changed.
func Validate(setup *adjudicator.Setup, st *adjudicator.State, robotName string, s *Sheet) Report {
	var rep Report
	idx := robotIndex(st, robotName)
	if idx < 0 {
		names := make([]string, len(st.Robots))
		for i := range st.Robots {
			names[i] = st.Robots[i].Name
		}
		// issue 22: the near names, as for cards ("did you mean Twonky?").
		hint := near.Hint(robotName, names, "robots are")
		if hint != "" {
			hint = "; " + hint
		}
		rep.err(Pos{}, "there is no robot %q in this game%s", robotName, hint)
		return rep
	}
	r := &st.Robots[idx]
	robotName = r.Name
	if s.Robot != "" && s.Robot != robotName {
		if strings.EqualFold(s.Robot, robotName) {
			rep.warn(s.At.Robot, "robot %q: your robot is spelt %q", s.Robot, robotName)
		} else {
			rep.err(s.At.Robot, "this sheet is for robot %q, but you command %q", s.Robot, robotName)
			return rep // the rest would be checked against the wrong robot
		}
	}
	switch {
	case st.Over:
		rep.err(Pos{}, "the game is over")
	case s.Turn == 0:
		rep.warn(Pos{}, "no turn number; taken as turn %d", st.Turn)
	case s.Turn != st.Turn:
		rep.err(s.At.Turn, "this sheet is for turn %d, but the turn to play is %d", s.Turn, st.Turn)
	}
	if r.Out {
		rep.err(Pos{}, "%s is out of the race", r.Name)
		return rep
	}
	checkProgram(&rep, setup, st, idx, s)
	checkRules(&rep, setup, r, s)
	checkOptionOrders(&rep, setup, st, idx, s)
	checkFloorOrders(&rep, setup, r, s)
	checkUpgradeOrders(&rep, setup, st, idx, s) // the 2023 upgrade phase: rules2023.go
	// The forecast warns about what a legal program would do: the engine's Simulator
	// (no events, no allocations) says whether the robot is destroyed; only then is the
	// full forecast run, for the register and the cause.
	if rep.OK() && s.HasProgram() && r.Power != adjudicator.PowerDown {
		// As the forecast: the game as the player knows it (R-FORECAST-HIDDEN).
		sim := simulators.Get().(*adjudicator.Simulator)
		sim.ResetBlind(setup, st, idx)
		final, err := sim.Forecast(idx, programOf(s, r), Compile(s))
		destroyed := err == nil && final.Destroyed
		simulators.Put(sim)
		if destroyed {
			if f, err := Forecast(setup, st, robotName, s); err == nil {
				for _, w := range f.Warnings {
					if w.Destroyed {
						rep.warn(s.At.Program, "%s", w.Msg)
					}
				}
			}
		}
	}
	return rep
}

func checkProgram(rep *Report, setup *adjudicator.Setup, st *adjudicator.State, idx int, s *Sheet) {
	r := &st.Robots[idx]
	progAt := s.At.Program
	if setup.Rules.Own() {
		checkOwnProgram(rep, setup, st, idx, s) // the 2023 rules: rules2023.go
		return
	}
	if r.Power == adjudicator.PowerDown {
		for _, c := range s.Program {
			if !c.Locked {
				rep.err(c.At, "%s is powered down this turn and runs no program; leave the program out", r.Name)
				return
			}
		}
		return
	}
	if !s.HasProgram() {
		rep.warn(Pos{}, "no program on this sheet: its orders are merged into your current orders (docs/orders.md)")
		return
	}
	locked := r.Locked()
	free := adjudicator.Registers - locked
	n := len(s.Program)
	if n != adjudicator.Registers && n != free {
		if locked > 0 {
			rep.err(progAt, "expected %d cards (or 5, writing \"locked\" for registers %s), found %d", free, lockedList(r), n)
		} else {
			rep.err(progAt, "expected 5 registers, found %d", n)
		}
	}
	hand := r.Hand
	// The cards placed so far and their registers: at most five, looked through.
	var usedCard, usedReg [adjudicator.Registers]int
	nUsed := 0
	for i, c := range s.Program {
		reg := i + 1
		if reg > adjudicator.Registers {
			break
		}
		if r.IsLocked(reg) {
			lc := r.Registers[reg-1]
			switch {
			case lc == 0 && !c.Locked && c.Priority != 0:
				// A register locked while the robot was powered down holds no card.
				rep.err(c.At, "register %d is locked and holds no card (it runs nothing); write \"locked\" there", reg)
			case lc != 0 && !c.Locked && c.Priority != lc:
				rep.err(c.At, "register %d is locked with %s; write %s or \"locked\" there", reg, cardName(setup, lc), cardName(setup, lc))
			}
			continue
		}
		if c.Locked {
			rep.err(c.At, "register %d is not locked; expected a card from your hand (%s)", reg, handList(hand))
			continue
		}
		kind := setup.Deck.Kind(c.Priority)
		switch {
		case c.Priority == 0 && c.Kind != "":
			k, _ := adjudicator.ParseCardKind(c.Kind)
			rep.err(c.At, "register %d: %s needs its priority, as in \"%s P%d\" (%s)", reg, k.Title(), k.Title(), firstOfKind(setup, hand, k), handList(hand))
			continue
		case kind == adjudicator.NoCard:
			// The wording for every card not in the hand, then why.
			rep.err(c.At, "P%d is not in your hand%s (P%d is not a card)", c.Priority, didYouMean(c.Priority, hand), c.Priority)
			continue
		case !slices.Contains(hand, c.Priority):
			if held := lockedIn(st, c.Priority); held != "" {
				rep.err(c.At, "P%d is not in your hand%s (it is locked in %s)", c.Priority, didYouMean(c.Priority, hand), held)
			} else {
				rep.err(c.At, "P%d is not in your hand%s", c.Priority, didYouMean(c.Priority, hand))
			}
			continue
		}
		if c.Kind != "" && c.Kind != kind.String() {
			want, _ := adjudicator.ParseCardKind(c.Kind)
			rep.err(c.At, "P%d is %s, not %s", c.Priority, kind.Title(), want.Title())
			continue
		}
		if k := slices.Index(usedCard[:nUsed], c.Priority); k >= 0 {
			rep.err(c.At, "P%d is already in register %d", c.Priority, usedReg[k])
			continue
		}
		usedCard[nUsed], usedReg[nUsed] = c.Priority, reg
		nUsed++
	}
	// The engine has the last word on legality: anything it finds that the checks above
	// did not is reported too.
	if rep.OK() && (n == adjudicator.Registers || n == free) {
		prog := programOf(s, r)
		for _, e := range setup.CheckProgram(st, idx, prog) {
			rep.err(progAt, "%s", e.Error())
		}
	}
}

// programOf is the sheet's program as the engine takes it, a short program filling the
// unlocked registers first.
func programOf(s *Sheet, r *adjudicator.Robot) [adjudicator.Registers]int {
	var prog [adjudicator.Registers]int
	for i, c := range s.Program {
		if i < adjudicator.Registers && !c.Locked {
			prog[i] = c.Priority
		}
	}
	return prog
}

// checkFloorOrders warns about orders for the chop shop and the archive that cannot act:
// an archive order under rules without archive_choice, a swap of an option not held, a
// swap on a course without a chop shop.
func checkFloorOrders(rep *Report, setup *adjudicator.Setup, r *adjudicator.Robot, s *Sheet) {
	for _, rule := range s.Rules {
		for _, a := range []*Action{&rule.Then, rule.Else} {
			switch {
			case a == nil:
			case (a.Do == DoKeepArchive || a.Do == DoMoveArchive) && !setup.Rules.ArchiveChoice:
				rep.warn(rule.At, "this game's rules move the archive to every flag reached (seed 003): the order does nothing unless the rules setting archive_choice is on")
			case (a.Do == DoSwapOption || a.Do == DoRecharge) && !setup.HasChopShop():
				rep.warn(rule.At, "the course has no chop shop: the order does nothing")
			case (a.Do == DoSwapOption || a.Do == DoRecharge) && optionIndex(r.Options, a.Option) < 0:
				rep.warn(rule.At, "you do not hold %s (you hold %s); the order applies only if you get it", a.Option, optionList(r.Options))
			}
		}
	}
}

func checkRules(rep *Report, setup *adjudicator.Setup, r *adjudicator.Robot, s *Sheet) {
	for _, rule := range s.Rules {
		for _, a := range []*Action{&rule.Then, rule.Else} {
			if a == nil {
				continue
			}
			if a.Do == DoPowerDown && rule.If == nil && r.Damage == 0 && r.Power != adjudicator.PowerDown && !setup.Rules.Own() {
				rep.warn(rule.At, "power down announced with no damage to repair")
			}
			if a.Option != "" && !holdsOption(setup, r, s, a.Option) && (a.Do == DoPreventDamage || a.Do == DoLoseOption) {
				rep.warn(rule.At, "you do not hold %s (you hold %s); the order applies only if you get it", a.Option, optionList(r.Options))
			}
			checkPickOrder(rep, setup, r, s, rule.At, a)
		}
	}
}

func didYouMean(p int, hand []int) string {
	if n, ok := adjudicator.Nearest(p, hand); ok {
		return fmt.Sprintf("; did you mean P%d?", n)
	}
	return ""
}

func cardName(setup *adjudicator.Setup, p int) string {
	if setup.Deck.Kind(p) == adjudicator.NoCard {
		return fmt.Sprintf("P%d", p)
	}
	return setup.Deck.CardName(p)
}

func handList(hand []int) string {
	if len(hand) == 0 {
		return "your hand is empty"
	}
	parts := make([]string, len(hand))
	for i, c := range hand {
		parts[i] = fmt.Sprintf("P%d", c)
	}
	return "you hold " + strings.Join(parts, " ")
}

func lockedList(r *adjudicator.Robot) string {
	var regs []string
	for reg := 1; reg <= adjudicator.Registers; reg++ {
		if r.IsLocked(reg) {
			regs = append(regs, fmt.Sprint(reg))
		}
	}
	return strings.Join(regs, ", ")
}

func lockedIn(st *adjudicator.State, p int) string {
	for _, o := range st.Robots {
		for reg, c := range o.Registers {
			if c == p {
				return fmt.Sprintf("%s's register %d", o.Name, reg+1)
			}
		}
	}
	return ""
}

func optionList(held []string) string {
	if len(held) == 0 {
		return "none"
	}
	return strings.Join(held, ", ")
}

// Merge is what stands after a new sheet arrives for the same turn (docs/orders.md,
// "A later sheet"):
//
//   - a sheet with a program replaces the current sheet whole: program and orders;
//   - a sheet without a program (standing orders only) keeps the current program and
//     merges its orders over the current ones: every current order that answers a
//     decision the new sheet answers is dropped, the new orders come first, the rest
//     of the current orders follow in their order. Header fields given by the new sheet
//     replace the current ones.
//
// Neither sheet is changed. current may be nil.
func Merge(current, next *Sheet) *Sheet {
	if current == nil || next.HasProgram() {
		c := *next
		c.Rules = slices.Clone(next.Rules)
		c.Program = slices.Clone(next.Program)
		return &c
	}
	m := *current
	m.Program = slices.Clone(current.Program)
	if next.Game != "" {
		m.Game = next.Game
	}
	if next.Robot != "" {
		m.Robot = next.Robot
	}
	if next.Turn != 0 {
		m.Turn = next.Turn
	}
	if next.Secret != "" {
		m.Secret = next.Secret
	}
	answered := map[string]bool{}
	for _, r := range next.Rules {
		for _, d := range r.Decisions() {
			answered[d] = true
		}
	}
	m.Rules = slices.Clone(next.Rules)
	for _, r := range current.Rules {
		keep := true
		for _, d := range r.Decisions() {
			if answered[d] {
				keep = false
			}
		}
		if keep {
			m.Rules = append(m.Rules, r)
		}
	}
	return &m
}

// Decisions names the decisions a rule can answer: "power", "wrench", "reentry",
// "prevent", "lose", or "option:NAME".
func (r Rule) Decisions() []string {
	var out []string
	for _, a := range []*Action{&r.Then, r.Else} {
		if a == nil {
			continue
		}
		var d string
		switch a.Do {
		case DoPowerDown, DoStayDown, DoPowerUp:
			d = "power"
		case DoRepair, DoTakeOption:
			d = "wrench"
		case DoFace:
			d = "reentry"
		case DoPreventDamage, DoKeepOptions:
			d = "prevent"
		case DoLoseOption:
			d = "lose"
		case DoUse, DoDecline:
			d = "option:" + strings.ToLower(a.Option)
		case DoSwapOption, DoRecharge:
			d = "chop"
		case DoKeepArchive, DoMoveArchive:
			d = "archive"
		case DoKeepOption:
			d = "keep"
		case DoGiveOption:
			d = "give"
		default:
			continue
		}
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	sort.Strings(out)
	return out
}

// robotIndex finds a robot by name, exactly or else in another case ("fred" for Fred).
func robotIndex(st *adjudicator.State, name string) int {
	if i := st.Robot(name); i >= 0 {
		return i
	}
	for i := range st.Robots {
		if strings.EqualFold(st.Robots[i].Name, name) {
			return i
		}
	}
	// A name written with other accents is the robot, when one robot alone is that
	// name folded (internal/near: Zoë is Zoe).
	names := make([]string, len(st.Robots))
	for i := range st.Robots {
		names[i] = st.Robots[i].Name
	}
	if m, ok := near.Match(name, names); ok {
		return st.Robot(m)
	}
	return -1
}

// RobotIndex is the robot a player's name for it means: the name itself, else the one
// written in other case or accents (Zoë is Zoe); -1 for none.
func RobotIndex(st *adjudicator.State, name string) int { return robotIndex(st, name) }

// checkPickOrder warns about "keep NAME" and "give NAME" orders this game never asks
// (seed 001's option variants, adjudicator/variants.go), and about a "use" of a Deluxe
// Option Package card the sheet does not keep.
func checkPickOrder(rep *Report, setup *adjudicator.Setup, r *adjudicator.Robot, s *Sheet, at Pos, a *Action) {
	rules := setup.Rules
	switch {
	case a.Do == DoUse && optionIndex(r.Options, a.Option) < 0 && optionIndex(r.Offered, a.Option) >= 0:
		if kept := keptOf(s, r.Offered); !strings.EqualFold(kept, a.Option) {
			rep.warn(at, "use %s: your orders keep %s of your Deluxe Option Package (the first keep order naming one of its cards, else the first drawn): this order applies only if you keep %s", a.Option, kept, a.Option)
		}
	case a.Do == DoKeepOption && rules.OptionPackage != "deluxe" && rules.ScavengerHunt != 1:
		rep.warn(at, "keep %s: this game has no Deluxe Option Package nor Scavenger Hunt I, so no card is offered to keep: the order does nothing", a.Option)
	case a.Do == DoKeepOption && len(r.Offered) > 0 && optionIndex(r.Offered, a.Option) < 0 && rules.ScavengerHunt != 1:
		rep.warn(at, "keep %s: it is not among your Deluxe Option Package's cards (%s)", a.Option, optionList(r.Offered))
	case a.Do == DoGiveOption && rules.ScavengerHunt != 2:
		rep.warn(at, "give %s: only Scavenger Hunt II has you choose a card for another robot; this game does not play it: the order does nothing", a.Option)
	}
}

// keptOf is the Deluxe Option Package card a sheet keeps, conditions aside: the first
// "keep" order naming a card offered, else the first card drawn (adjudicator/variants.go).
func keptOf(s *Sheet, offered []string) string {
	for _, r := range s.Rules {
		for _, a := range []*Action{&r.Then, r.Else} {
			if a != nil && a.Do == DoKeepOption {
				if k := optionIndex(offered, a.Option); k >= 0 {
					return offered[k]
				}
			}
		}
	}
	return offered[0]
}
