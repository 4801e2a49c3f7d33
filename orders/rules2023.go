package orders

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// Order sheets for the 2023 rules (seed 004; docs/rules-2023.md). A 2023 card has no
// priority: the program names cards by kind ("Move 1, Again, Rotate Left, SPAM, U-Turn"),
// and a register holding a face-down Haywire is written "-" (or left out: the cards then
// fill the other registers in order).

// checkOwnProgram is checkProgram for the 2023 rules: the cards by kind, as many of a
// kind as the hand holds, none in a register holding a face-down Haywire.
func checkOwnProgram(rep *Report, setup *adjudicator.Setup, st *adjudicator.State, idx int, s *Sheet) {
	r := &st.Robots[idx]
	progAt := s.At.Program
	if !s.HasProgram() {
		if !s.ShutsDown() { // a shutdown needs no program (ruling R-SHUTDOWN-WHEN)
			rep.warn(Pos{}, "no program on this sheet: its orders are merged into your current orders (docs/orders.md)")
		}
		return
	}
	if r.Mat == nil {
		rep.err(progAt, "%s has no player mat: the game's state is damaged", r.Name)
		return
	}
	haywire := 0
	for _, hw := range r.Mat.Haywire {
		if hw != 0 {
			haywire++
		}
	}
	free := adjudicator.Registers - haywire
	n := len(s.Program)
	if n != adjudicator.Registers && n != free {
		rep.err(progAt, "expected %d cards (or 5, writing \"-\" for the registers holding a face-down Haywire: %s), found %d", free, haywireList(r), n)
		return
	}
	prog := ownProgramOf(s, r)
	for i, c := range s.Program {
		reg := i + 1
		if n == free {
			reg = 0 // the cards fill the free registers; positions are checked below
		}
		switch {
		case c.Locked && (n == free || r.Mat.Haywire[i] == 0):
			rep.err(c.At, "register %d holds no face-down Haywire: write a card there (%s)", i+1, ownHand(r))
		case !c.Locked && c.Priority != 0:
			rep.err(c.At, "P%d: 2023 cards have no priority numbers; name the card (%s)", c.Priority, ownHand(r))
		case reg > 0 && !c.Locked && r.Mat.Haywire[i] != 0:
			rep.err(c.At, "register %d holds a face-down %s and takes no card this round; write \"-\" there", reg, adjudicator.CardKind(r.Mat.Haywire[i]).Title())
		}
	}
	if !rep.OK() {
		return
	}
	for _, e := range setup.CheckProgram(st, idx, prog) {
		at := progAt
		if e.Register > 0 && e.Register <= len(s.Program) && n == adjudicator.Registers {
			at = s.Program[e.Register-1].At
		}
		rep.err(at, "%s (%s)", e.Error(), ownHand(r))
	}
}

// ownProgramOf is a 2023 sheet's program as the engine takes it: by kind, the cards of
// a short program filling the registers without a face-down Haywire in order.
func ownProgramOf(s *Sheet, r *adjudicator.Robot) [adjudicator.Registers]int {
	var prog [adjudicator.Registers]int
	if len(s.Program) == adjudicator.Registers || r.Mat == nil {
		for i, c := range s.Program {
			if i < adjudicator.Registers && !c.Locked {
				prog[i] = c.value()
			}
		}
		return prog
	}
	k := 0
	for reg := 0; reg < adjudicator.Registers && k < len(s.Program); reg++ {
		if r.Mat.Haywire[reg] != 0 {
			continue
		}
		if !s.Program[k].Locked {
			prog[reg] = s.Program[k].value()
		}
		k++
	}
	return prog
}

// OwnOrders are a checked 2023 sheet as the engine takes it (Sheet.Orders, with a short
// program placed around the robot's face-down Haywire cards, and Orders.Shutdown for a
// plain shutdown order: ShutsDown).
func (s *Sheet) OwnOrders(r *adjudicator.Robot) adjudicator.Orders {
	o := s.Orders()
	o.Program = ownProgramOf(s, r)
	o.Shutdown = s.ShutsDown()
	return o
}

func ownHand(r *adjudicator.Robot) string {
	if len(r.Hand) == 0 {
		return "your hand is empty"
	}
	parts := make([]string, len(r.Hand))
	for i, c := range r.Hand {
		parts[i] = adjudicator.CardKind(c).Title()
	}
	return "you hold " + strings.Join(parts, ", ")
}

func haywireList(r *adjudicator.Robot) string {
	var regs []string
	for i, hw := range r.Mat.Haywire {
		if hw != 0 {
			regs = append(regs, fmt.Sprint(i+1))
		}
	}
	if len(regs) == 0 {
		return "none"
	}
	return strings.Join(regs, ", ")
}

// firstOfKind is a card of kind k in the hand (for a hint), else the deck's first.
func firstOfKind(setup *adjudicator.Setup, hand []int, k adjudicator.CardKind) int {
	for _, c := range hand {
		if setup.Deck.Kind(c) == k {
			return c
		}
	}
	for _, c := range setup.Deck.Cards() {
		if setup.Deck.Kind(c) == k {
			return c
		}
	}
	return 0
}

// upgradeOrders is the sheet's upgrade phase (seed 004, Phase 1): its plain (not
// conditional) draw, install and uninstall orders. An upgrade named by an alias the
// order language reads as another card ("Mini Howitzer" reads as Turbo Blaster) is taken
// back to the upgrade's name.
func (s *Sheet) upgradeOrders() adjudicator.UpgradeOrders {
	var u adjudicator.UpgradeOrders
	for _, r := range s.Rules {
		if r.If != nil {
			continue
		}
		switch a := r.Then; a.Do {
		case DoDrawUpgrade:
			u.Draw = true
		case DoInstallDrawn:
			u.Draw, u.InstallDrawn = true, true
		case DoInstall:
			u.Install = upgradeName(a.Option)
		case DoUninstall:
			u.Uninstall = append(u.Uninstall, upgradeName(a.Option))
		}
	}
	return u
}

func upgradeName(option string) string {
	for _, n := range adjudicator.UpgradeNames() {
		if squash(canonicalOption(n)) == squash(canonicalOption(option)) {
			return n
		}
	}
	return option
}

// checkUpgradeOrders checks a sheet's upgrade phase: only the 2023 rules have one, its
// orders are plain (they act as the round begins, before any condition could be
// judged), and the engine must accept them (energy, the limits, the cards held).
func checkUpgradeOrders(rep *Report, setup *adjudicator.Setup, st *adjudicator.State, idx int, s *Sheet) {
	for _, r := range s.Rules {
		for _, a := range []*Action{&r.Then, r.Else} {
			if a == nil || !roundOrder(*a) {
				continue
			}
			switch {
			case !setup.Rules.Own():
				rep.err(r.At, "upgrades belong to the 2023 rules; this game plays the %s rules", setup.Rules.Name)
				return
			case r.If != nil:
				rep.err(r.At, "upgrade orders act as the round begins and cannot be conditional: write them plainly (\"install Zoop\")")
				return
			}
		}
	}
	if !setup.Rules.Own() {
		return
	}
	// seed 004, Phase 1: one draw and one install a phase. A second is refused, never
	// kept in place of the first: the sheet would do less than it says.
	var draw, install, drawn *Rule
	for k := range s.Rules {
		r := &s.Rules[k]
		if r.If != nil {
			continue
		}
		switch r.Then.Do {
		case DoDrawUpgrade:
			if draw != nil {
				rep.err(r.At, "a second \"draw upgrade\": seed 004 allows one draw an upgrade phase (the first is at %v)", draw.At)
			}
			draw = r
		case DoInstallDrawn:
			if drawn != nil {
				rep.err(r.At, "a second \"install the card I draw\": one draw and one install an upgrade phase (the first is at %v)", drawn.At)
			}
			drawn = r
		case DoInstall:
			if install != nil {
				rep.err(r.At, "a second install (%s after %s at %v): seed 004 allows one install an upgrade phase; to install a card drawn now, or else one you hold, write \"install the card I draw, else install %s\"",
					upgradeName(r.Then.Option), upgradeName(install.Then.Option), install.At, upgradeName(install.Then.Option))
			}
			install = r
		}
	}
	u := s.upgradeOrders()
	if u.Empty() {
		return
	}
	for _, e := range setup.CheckOrders(st, idx, adjudicator.Orders{Upgrade: u, Shutdown: true}) {
		rep.err(Pos{}, "%s", e.Error())
	}
}

// holdsOption reports whether the robot holds the option card name, or, under the 2023
// rules, will have the upgrade installed when the round is played (this sheet's upgrade
// phase comes first); 2023 names are compared through the order language's aliases.
func holdsOption(setup *adjudicator.Setup, r *adjudicator.Robot, s *Sheet, name string) bool {
	if !setup.Rules.Own() {
		// A Deluxe Option Package's cards may be ordered before one is kept (turn 1):
		// the order works if the sheet keeps that card (adjudicator/variants.go).
		return optionIndex(r.Options, name) >= 0 || optionIndex(r.Offered, name) >= 0
	}
	u := s.upgradeOrders()
	same := func(a, b string) bool { return squash(canonicalOption(a)) == squash(canonicalOption(b)) }
	if u.Install != "" && same(u.Install, name) {
		return true
	}
	for _, o := range r.Options {
		if same(o, name) && !slices.ContainsFunc(u.Uninstall, func(x string) bool { return same(x, o) }) {
			return true
		}
	}
	return false
}

// ShutsDown reports whether the sheet shuts its robot down for the round outright: a
// plain (not conditional) "shut down" order (seed 004, Shutdown; ruling
// R-SHUTDOWN-WHEN). Such a sheet needs no program, and the judge gives the engine
// Orders.Shutdown for it. Only the 2023 rules read it so: in a postal game the same
// words announce a power down for the next turn, and the program is still due.
func (s *Sheet) ShutsDown() bool {
	for _, r := range s.Rules {
		if r.If == nil && r.Then.Do == DoPowerDown {
			return true
		}
	}
	return false
}

// roundOrder reports whether an action belongs to the round its sheet is for alone: the
// upgrade phase (draw, install, uninstall).
func roundOrder(a Action) bool {
	return a.Do == DoDrawUpgrade || a.Do == DoInstall || a.Do == DoUninstall || a.Do == DoInstallDrawn
}

// WithoutUpgradePhase is a copy of the sheet without its upgrade-phase orders (draw
// upgrade, install, uninstall). The judge plays a program whose upgrade phase can no
// longer be paid for (two sheets of one round, each affordable alone) without them.
func (s *Sheet) WithoutUpgradePhase() *Sheet {
	c := *s
	c.Rules = nil
	for _, r := range s.Rules {
		if !roundOrder(r.Then) {
			c.Rules = append(c.Rules, r)
		}
	}
	return &c
}

// Standing2023 is what of a 2023 sheet stands in later rounds: every order but those of
// its own round, the upgrade phase and a plain shutdown. Ruling R-ROUND-ORDERS
// (docs/rules-2023.md): "install Zoop" or "shut down" written for round 4 acts in round
// 4 only; a conditional shutdown ("if damage > 3 shut down") and the answers to
// decisions ("use Deflector Shield", "face E") stand until replaced, as postal standing
// orders do.
func (s *Sheet) Standing2023() *Sheet {
	c := *s.WithoutUpgradePhase()
	rules := c.Rules
	c.Rules = nil
	for _, r := range rules {
		if r.If == nil && r.Then.Do == DoPowerDown {
			continue
		}
		c.Rules = append(c.Rules, r)
	}
	return &c
}
