package adjudicator

import (
	_ "embed"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Upgrades (seed 004, Phase 1: Upgrade Phase; Upgrade Cards), the 2023 rules' option
// cards. They use the option-effect design (effects.go): an installed upgrade is held in
// Robot.Options and its effect is asked at the hook points like any option's; what a
// player decides is asked of the Decider (orders "use NAME ..."), and what the orders
// leave unsaid is declined. The twelve cards are in data/upgrades2023.txt and below, one
// type each, citing seed 004.
//
// The upgrade phase by mail (ruling R-UPGRADE-WHEN): a round's orders carry its upgrade
// phase (Orders.Upgrade), carried out as the round's activation begins, before shutdown:
// first the uninstalls (to the upgrade discard pile: ruling R-UPGRADE-DISCARD), then one
// install from the robot's uninstalled upgrades paying its cost, then a draw for 1
// energy. A player writing orders cannot see the card a draw will bring, so by default a
// card drawn can be installed from the next round's orders on; the order "install the
// card I draw" (UpgradeOrders.InstallDrawn, issue 23) keeps seed 004's own rule, the
// phase's actions in any order: it installs the card drawn in the same phase when it can
// be paid for, else the fallback install. At most 3 permanent and 3 temporary
// upgrades are installed at a time (seed 004, Upgrade Limits); uninstalled ones are kept
// without limit (Mat.Collection). A temporary upgrade is discarded once used.
//
// The upgrade deck is Setup.Options (the twelve, twice each: ruling R-UPGRADE-DECK),
// shuffled into State.OptionDeck; State.OptionDiscard is its discard pile.

//go:embed data/upgrades2023.txt
var upgradesText string

// Upgrade is one upgrade card of data/upgrades2023.txt.
type Upgrade struct {
	Name      string
	Temporary bool
	Cost      int
	Copies    int
	Text      string
}

// MaxPermanent and MaxTemporary are the installed upgrades a robot may have (seed 004,
// Upgrade Limits).
const (
	MaxPermanent = 3
	MaxTemporary = 3
)

// ParseUpgrades reads an upgrade table: "name | permanent|temporary | cost | copies | text".
func ParseUpgrades(text string) ([]Upgrade, error) {
	var out []Upgrade
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "|")
		if len(f) != 5 {
			return nil, fmt.Errorf("upgrades: line %d: want \"name | permanent|temporary | cost | copies | text\"", i+1)
		}
		for k := range f {
			f[k] = strings.TrimSpace(f[k])
		}
		u := Upgrade{Name: f[0], Text: f[4]}
		switch f[1] {
		case "permanent":
		case "temporary":
			u.Temporary = true
		default:
			return nil, fmt.Errorf("upgrades: line %d: %q is neither permanent nor temporary", i+1, f[1])
		}
		var err1, err2 error
		u.Cost, err1 = strconv.Atoi(f[2])
		u.Copies, err2 = strconv.Atoi(f[3])
		if err1 != nil || err2 != nil || u.Cost < 0 || u.Cost > 10 || u.Copies < 1 || u.Copies > 10 || u.Name == "" {
			return nil, fmt.Errorf("upgrades: line %d: want a name, a cost 0-10 and 1-10 copies", i+1)
		}
		if slices.ContainsFunc(out, func(o Upgrade) bool { return strings.EqualFold(o.Name, u.Name) }) {
			return nil, fmt.Errorf("upgrades: line %d: %s twice", i+1, u.Name)
		}
		out = append(out, u)
	}
	return out, nil
}

// upgrades2023 is data/upgrades2023.txt read once: the engine looks cards up in every
// upgrade phase and every check of an order, and a forecast search does both thousands
// of times. It is never changed once read (Upgrades2023 hands out copies).
var upgrades2023 = sync.OnceValue(func() []Upgrade {
	us, err := ParseUpgrades(upgradesText)
	if err != nil {
		panic("adjudicator: embedded upgrades: " + err.Error()) // the embedded data is tested
	}
	return us
})

// Upgrades2023 is the upgrade cards of data/upgrades2023.txt.
func Upgrades2023() []Upgrade { return slices.Clone(upgrades2023()) }

// UpgradeNames is the names of the 2023 upgrades, in file order.
func UpgradeNames() []string {
	var out []string
	for _, u := range Upgrades2023() {
		out = append(out, u.Name)
	}
	return out
}

// UpgradeByName is the upgrade called name (any case).
func UpgradeByName(name string) (Upgrade, bool) {
	for _, u := range upgrades2023() {
		if strings.EqualFold(u.Name, name) {
			return u, true
		}
	}
	return Upgrade{}, false
}

// upgradeDeck is the 2023 upgrade deck: every card as many times as it has copies.
func upgradeDeck() []string {
	var out []string
	for _, u := range Upgrades2023() {
		for range u.Copies {
			out = append(out, u.Name)
		}
	}
	return out
}

func checkUpgradeDeck(deck []string) error {
	for _, n := range deck {
		if _, ok := UpgradeByName(n); !ok {
			return fmt.Errorf("upgrade deck: %q is not a 2023 upgrade (want %s)", n, strings.Join(UpgradeNames(), ", "))
		}
	}
	return nil
}

// UpgradeOrders are a robot's upgrade phase (seed 004, Phase 1), as its orders give it.
type UpgradeOrders struct {
	Uninstall []string // installed upgrades to discard
	Install   string   // an uninstalled upgrade to install, paying its cost; "" none
	Draw      bool     // draw one upgrade for 1 energy
	// InstallDrawn installs the card the draw brings in the same phase, when the energy
	// left pays its cost and the limits leave room (seed 004, Phase 1: the phase's
	// actions in any order, one draw and one install); Draw is then true too. Install is
	// then the fallback, installed only when the drawn card is not. Without it the
	// default holds (ruling R-UPGRADE-WHEN): a drawn card waits in the collection.
	InstallDrawn bool
}

// Empty reports whether the orders do nothing.
func (u UpgradeOrders) Empty() bool {
	return len(u.Uninstall) == 0 && u.Install == "" && !u.Draw && !u.InstallDrawn
}

// roomFor reports whether installed (upgrade names) leaves room for up under the limits
// (seed 004, Upgrade Limits: 3 permanent, 3 temporary).
func roomFor(installed []string, up Upgrade) bool {
	n := 0
	for _, o := range installed {
		if x, _ := UpgradeByName(o); x.Temporary == up.Temporary {
			n++
		}
	}
	return n < map[bool]int{false: MaxPermanent, true: MaxTemporary}[up.Temporary]
}

// checkUpgradeOrders lists what is wrong with robot r's upgrade phase.
func checkUpgradeOrders(r *Robot, u UpgradeOrders) []ProgramError {
	var errs []ProgramError
	bad := func(format string, args ...any) {
		errs = append(errs, ProgramError{Msg: "upgrade phase: " + fmt.Sprintf(format, args...)})
	}
	installed := slices.Clone(r.Options)
	for _, n := range u.Uninstall {
		k := slices.IndexFunc(installed, func(o string) bool { return strings.EqualFold(o, n) })
		if k < 0 {
			bad("%s is not installed (installed: %s)", n, listOrNone(r.Options))
			continue
		}
		installed = slices.Delete(installed, k, k+1)
	}
	cost := 0
	if u.Install != "" {
		up, ok := UpgradeByName(u.Install)
		switch {
		case !ok:
			bad("%q is not an upgrade", u.Install)
		case !slices.ContainsFunc(r.Mat.Collection, func(o string) bool { return strings.EqualFold(o, up.Name) }):
			bad("%s is not among your uninstalled upgrades (%s); to install a card drawn now, order \"install the card I draw\"", up.Name, listOrNone(r.Mat.Collection))
		default:
			cost = up.Cost
			if !roomFor(installed, up) {
				kind := map[bool]string{false: "permanent", true: "temporary"}[up.Temporary]
				limit := map[bool]int{false: MaxPermanent, true: MaxTemporary}[up.Temporary]
				bad("%d %s upgrades are installed already, the most there may be: uninstall one first", limit, kind)
			}
		}
	}
	if u.InstallDrawn && !u.Draw {
		bad("to install the card drawn, draw one")
	}
	need := cost
	if u.Draw {
		need++
	}
	if need > r.Mat.Energy {
		bad("it costs %d energy and the robot has %d", need, r.Mat.Energy)
	}
	return errs
}

func listOrNone(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, ", ")
}

// upgradePhase carries out robot i's upgrade orders (checked already by CheckOrders):
// the uninstalls, then the install and the draw. By default (ruling R-UPGRADE-WHEN) the
// install is of a card already in the collection, and the draw comes after it; with
// InstallDrawn the draw comes first and its card is installed if the energy left pays
// for it and the limits leave room, else the fallback (Install) is.
func (t *turn) upgradePhase(i int) {
	r := &t.st.Robots[i]
	u := t.orders[i].Upgrade
	if r.Mat == nil || u.Empty() {
		return
	}
	t.phase = "upgrade"
	for _, n := range u.Uninstall {
		if k := slices.IndexFunc(r.Options, func(o string) bool { return strings.EqualFold(o, n) }); k >= 0 {
			name := t.removeOption(i, k)
			t.emit(Event{Kind: EvUpgrade, Robot: r.Name, Option: name, Cause: "uninstall"})
		}
	}
	if !u.InstallDrawn {
		t.installUpgrade(i, u.Install)
		if u.Draw {
			t.drawUpgrade(i)
		}
		t.phase = ""
		return
	}
	// seed 004, Phase 1: the actions "in any order", one install a phase: the card
	// drawn, when it can be paid for and has room, else the fallback.
	card, ok := t.drawUpgrade(i)
	if ok && t.single >= 0 {
		// Ruling R-FORECAST-HIDDEN: a forecast cannot know the card drawn, so nor
		// whether it is installed or the fallback is: it says so (Cause "install-drawn",
		// Option the fallback) and installs neither.
		t.emit(Event{Kind: EvUpgrade, Robot: r.Name, Option: u.Install, Cause: "install-drawn"})
		t.phase = ""
		return
	}
	if !ok || !t.installUpgrade(i, card) {
		t.installUpgrade(i, u.Install)
	}
	t.phase = ""
}

// installUpgrade installs the upgrade name from robot i's collection, paying its cost,
// when it is there, the robot can pay and the limits leave room; it reports whether it
// did.
func (t *turn) installUpgrade(i int, name string) bool {
	r := &t.st.Robots[i]
	up, ok := UpgradeByName(name)
	if !ok || r.Mat.Energy < up.Cost || !roomFor(r.Options, up) {
		return false
	}
	k := slices.IndexFunc(r.Mat.Collection, func(o string) bool { return strings.EqualFold(o, up.Name) })
	if k < 0 {
		return false
	}
	r.Mat.Collection = slices.Delete(slices.Clone(r.Mat.Collection), k, k+1)
	r.Mat.Energy -= up.Cost
	r.Options = append(slices.Clip(r.Options), up.Name)
	t.fxOK[i] = false
	t.emit(Event{Kind: EvUpgrade, Robot: r.Name, Option: up.Name, Amount: up.Cost, Cause: "install"})
	return true
}

// drawUpgrade draws the top upgrade for robot i into its collection, paying 1 energy;
// it returns the card, or false when the robot cannot pay or the deck and its discard
// pile are empty.
func (t *turn) drawUpgrade(i int) (string, bool) {
	r := &t.st.Robots[i]
	st := t.st
	if r.Mat.Energy < 1 {
		return "", false
	}
	if len(st.OptionDeck) == 0 && len(st.OptionDiscard) > 0 {
		// Ruling R-UPGRADE-DISCARD: the discarded upgrades are shuffled into a new
		// deck when it runs out.
		st.OptionDeck, st.OptionDiscard = st.OptionDiscard, nil
		rng := turnRNG(t.setup.Seed, st.Turn, streamOptions)
		rng.Shuffle(len(st.OptionDeck), func(a, b int) {
			st.OptionDeck[a], st.OptionDeck[b] = st.OptionDeck[b], st.OptionDeck[a]
		})
	}
	if len(st.OptionDeck) == 0 {
		return "", false
	}
	card := st.OptionDeck[0]
	st.OptionDeck = st.OptionDeck[1:]
	r.Mat.Energy--
	r.Mat.Collection = append(slices.Clip(r.Mat.Collection), card)
	t.emit(Event{Kind: EvUpgrade, Robot: r.Name, Option: card, Amount: 1, Cause: "draw"})
	return card, true
}

// installed reports whether robot i has the upgrade installed and is playing it now.
func (t *turn) installed(i int, name string) bool {
	return t.setup.Rules.Own() && slices.Contains(t.st.Robots[i].Options, name)
}

// pay takes n energy from robot i for upgrade name; false when it has too little.
func (t *turn) pay(i, n int, name string) bool {
	m := t.st.Robots[i].Mat
	if m == nil || m.Energy < n {
		return false
	}
	m.Energy -= n
	t.emit(Event{Kind: EvEnergy, Robot: t.st.Robots[i].Name, Amount: m.Energy, Cause: name})
	return true
}

// upgradeEffects is the effects of the twelve 2023 upgrades, in the order hooks are asked.
func upgradeEffects() []Effect {
	return []Effect{deflectorShield{}, brakes{}, hoverUnit{}, rammingGear{}, doubleBarrel{}, miniHowitzer{},
		rearLaser{}, abortSwitch{}, boink{}, zoop{}, recharge{}, memorySwap{}}
}

// ---- Brakes (seed 004, Permanent Upgrades: "Move 1 cards may be treated as Move 0") ----
// The Crash & Burn card of the same name does the same (cards_crashburn.go, brakes): with
// a Move 1 the robot may stay where it is; "use Brakes [in register N]". Default: it moves.

// ---- Rear Laser (seed 004: "Fire laser backwards in addition to main laser") ----
// The Crash & Burn card of the same name does the same (cards_crashburn.go, rearLaser).

// ---- Deflector Shield (seed 004: "Pay 1 Energy to ignore laser damage this register") --
// Asked when laser damage (a board or robot laser) arrives: "use Deflector Shield [in
// register N] [if ...]"; once paid, no laser damage reaches the robot for the rest of the
// register. Default: not used.
type deflectorShield struct{}

func (deflectorShield) Option() string { return "Deflector Shield" }

func (deflectorShield) Damage(v View, h *Harm) {
	t, i := v.t, v.robot
	if h.Cause != "laser" && h.Cause != "robot-laser" {
		return
	}
	rs := t.round()
	if rs.deflected[i] != t.register {
		if !t.ask(i, "Deflector Shield", "pay 1 energy to take no laser damage this register?").Use() || !t.pay(i, 1, "Deflector Shield") {
			return
		}
		rs.deflected[i] = t.register
		t.useEvent(i, "Deflector Shield", -1, 0, 1)
	}
	t.absorb(i, "Deflector Shield", h.Amount, h)
}

// ---- Double-Barrel Laser (seed 004: "Main laser deals +1 damage") ----
type doubleBarrel struct{}

func (doubleBarrel) Option() string { return "Double-Barrel Laser" }

func (doubleBarrel) Gun(v View, g *Gun) { g.Beams++ }

// ---- Hover Unit (seed 004: "Pass over pits (still fall if ending on one)") ----
// Ruling R-HOVER: the robot passes over pits while its own card (or Haywire) moves it;
// it falls if the move ends on a pit, and it falls into a pit it is pushed or carried
// onto. Board edges are not pits: off the board it falls as any robot.
type hoverUnit struct{}

func (hoverUnit) Option() string { return "Hover Unit" }

// Hovers is asked by playKind (move.go).
func (hoverUnit) Hovers(View) bool { return true }

// Hoverer lets a robot pass over pits during its own moves.
type Hoverer interface {
	Hovers(v View) bool
}

func (t *turn) effectHovers(i int) bool {
	if !t.has(i, hkHover) {
		return false
	}
	for x, e := range t.fxOf(i) {
		if !t.actsAt(i, x, hkHover) {
			continue
		}
		if h, ok := e.(Hoverer); ok && h.Hovers(t.view(i)) {
			return true
		}
	}
	return false
}

// ---- Mini Howitzer (seed 004: "Pay 1 Energy for 2 damage + push instead of main laser") -
// "use Mini Howitzer [on ROBOT] [in register N]": instead of the main laser, the first
// robot in the laser's line takes 2 damage and is pushed one square the way the shot
// travels (ruling R-HOWITZER-PUSH: as a push panel pushes, walls stopping it), after
// every laser's damage. Default: not used.
type miniHowitzer struct{}

func (miniHowitzer) Option() string { return "Mini Howitzer" }

func (miniHowitzer) Replace(v View, g Gun) bool {
	t, i := v.t, v.robot
	j := t.firstInLine(i, g.Dir)
	if j < 0 || t.st.Robots[i].Mat == nil || t.st.Robots[i].Mat.Energy < 1 ||
		!t.askAbout(i, "Mini Howitzer", "fire the Mini Howitzer instead of your laser for 1 energy?", j, Impact{Damage: 2, Move: g.Dir, Steps: 1}).Use() {
		return false
	}
	t.pay(i, 1, "Mini Howitzer")
	t.useEvent(i, "Mini Howitzer", j, 0, 2)
	t.hits = append(t.hits, hit{target: j, amount: 2, shooter: i, from: g.Dir.Back(), cause: "mini-howitzer"})
	v.Later(func() { t.shove(j, g.Dir, "mini-howitzer") })
	return true
}

// ---- Ramming Gear (seed 004: "Pushing deals 1 damage") ----
// Ruling R-RAM-CHAIN: only the robot the holder pushes directly (the first of a chain)
// takes the point, once a register, and only when the push moves it; a robot shoved by a
// board element or weapon rams nobody.
type rammingGear struct{}

func (rammingGear) Option() string { return "Ramming Gear" }

func (rammingGear) Rams(v View, j int, d Dir, moved bool) {
	t, i := v.t, v.robot
	rs := t.round()
	if !moved || rs.rammed[i]&(1<<j) != 0 || !t.st.Robots[j].Active() {
		return
	}
	rs.rammed[i] |= 1 << j
	t.useEvent(i, "Ramming Gear", j, 0, 1)
	t.hurt(j, Harm{Amount: 1, Cause: "ram", From: d.Back(), Sided: true, By: i}, t.st.Robots[i].Name)
}

// ---- Abort Switch (seed 004, Temporary: "Replace just-revealed register card with top
// of deck") ----
// "use Abort Switch in register N": the card just revealed in that register (a
// programming card or a SPAM; ruling R-ABORT: not a Haywire, which is not revealed as a
// programmed card) is discarded (a SPAM to the damage discard pile) and the top card of
// the deck played instead, itself replaced if it is a SPAM. Default: not used.
type abortSwitch struct{}

func (abortSwitch) Option() string { return "Abort Switch" }

// Aborts is asked by activate (round.go) as robot v's card c is revealed.
func (abortSwitch) Aborts(v View, c int) bool {
	t, i := v.t, v.robot
	if !t.ask(i, "Abort Switch", fmt.Sprintf("replace the %s just revealed by the top card of your deck?", CardKind(c).Title())).Use() {
		return false
	}
	t.useEvent(i, "Abort Switch", -1, c, 0)
	t.discardOption(i, "Abort Switch", "used")
	return true
}

// Aborter may replace the card just revealed in the robot's register.
type Aborter interface {
	Aborts(v View, card int) bool
}

func (t *turn) effectAborts(i, c int) bool {
	if !t.has(i, hkAbort) {
		return false
	}
	for x, e := range t.fxOf(i) {
		if !t.actsAt(i, x, hkAbort) {
			continue
		}
		if a, ok := e.(Aborter); ok && a.Aborts(t.view(i), c) {
			return true
		}
	}
	return false
}

// AfterCarder acts after the robot has played its register, in its turn (Boink, Zoop,
// Recharge: ruling R-TEMPORARY-WHEN).
type AfterCarder interface {
	AfterCard(v View)
}

// Ruling R-TEMPORARY-WHEN: Boink, Zoop and Recharge are used in the register the orders
// name ("use Zoop S in register 2"), right after the robot's own card in its turn; an
// order naming no register is used in register 1.
func (t *turn) afterCard(i int) {
	t.eachFx(i, hkAfterCard, func(e Effect) {
		if a, ok := e.(AfterCarder); ok && t.st.Robots[i].Active() {
			a.AfterCard(t.view(i))
		}
	})
}

// ---- Boink (seed 004, Temporary: "Move to adjacent unoccupied space") ----
// "use Boink E in register N". Ruling R-BOINK: Boink does not move through a wall, onto a
// robot, off the board or into a pit: ordered so, it is not used (and kept).
type boink struct{}

func (boink) Option() string { return "Boink" }

func (boink) AfterCard(v View) {
	t, i := v.t, v.robot
	a := t.ask(i, "Boink", "move to a free square next to you? (which way)")
	if !a.Use() || !a.HasDir {
		return
	}
	r := &t.st.Robots[i]
	to := r.Pos.Step(a.Dir)
	if t.board().Blocked(r.Pos, a.Dir) || t.board().Deadly(to) || t.anyRobotAt(to, i) {
		return
	}
	from := r.Pos
	r.Pos = to
	t.useEvent(i, "Boink", -1, 0, 0)
	t.emit(Event{Kind: EvMove, Robot: r.Name, From: t.pos(from), To: t.pos(to), Cause: "Boink"})
	t.discardOption(i, "Boink", "used")
}

// ---- Zoop (seed 004, Temporary: "Rotate to face any direction") ----
// "use Zoop S in register N".
type zoop struct{}

func (zoop) Option() string { return "Zoop" }

func (zoop) AfterCard(v View) {
	t, i := v.t, v.robot
	a := t.ask(i, "Zoop", "turn to face which way?")
	if !a.Use() || !a.HasDir {
		return
	}
	r := &t.st.Robots[i]
	r.Facing = a.Dir
	t.useEvent(i, "Zoop", -1, 0, 0)
	t.emit(Event{Kind: EvRotated, Robot: r.Name, Facing: t.dir(a.Dir), Cause: "Zoop"})
	t.discardOption(i, "Zoop", "used")
}

// ---- Recharge (seed 004, Temporary: "Gain 3 Energy") ----
// "use Recharge [in register N]".
type recharge struct{}

func (recharge) Option() string { return "Recharge" }

func (recharge) AfterCard(v View) {
	t, i := v.t, v.robot
	if !t.ask(i, "Recharge", "gain 3 energy now?").Use() {
		return
	}
	t.useEvent(i, "Recharge", -1, 0, 3)
	t.gainEnergy(i, 3, "Recharge")
	t.discardOption(i, "Recharge", "used")
}

// ---- Memory Swap (seed 004, Temporary: "Draw 3, put 3 from hand on top of deck") ----
// By mail (ruling R-MEMORY-SWAP): "use Memory Swap" in a round's orders acts at the end
// of that round, right after the new hand is drawn: the robot draws 3 more cards, then
// puts 3 back on top of its deck. A mail player cannot pick them after seeing the cards,
// so the judge puts back, in this order of preference, SPAM, then Again, U-Turn, Back Up,
// Rotate Left, Rotate Right, Power Up, Move 1, Move 2, Move 3 (the cards least likely to
// be wanted first); the last one put back lies on top.
type memorySwap struct{}

func (memorySwap) Option() string { return "Memory Swap" }

var swapBackOrder = []CardKind{CardSpam, CardAgain, CardUTurn, CardBackUp, CardLeft, CardRight, CardPowerUp, CardMove1, CardMove2, CardMove3}

// AfterDraw is asked by endOfRound once the robot's new hand is drawn.
func (memorySwap) AfterDraw(v View) {
	t, i := v.t, v.robot
	r := &t.st.Robots[i]
	if !t.ask(i, "Memory Swap", "draw 3 cards and put 3 back?").Use() {
		return
	}
	drawn := 0
	for range 3 {
		c, ok := t.drawCard(i)
		if !ok {
			break
		}
		r.Hand = append(r.Hand, c)
		drawn++
	}
	var back []int
	for _, k := range swapBackOrder {
		for len(back) < drawn {
			at := slices.Index(r.Hand, int(k))
			if at < 0 {
				break
			}
			back = append(back, int(k))
			r.Hand = slices.Delete(r.Hand, at, at+1)
		}
	}
	slices.Reverse(back) // the last put back lies on top
	r.Mat.Deck = append(back, r.Mat.Deck...)
	slices.Sort(r.Hand)
	t.useEvent(i, "Memory Swap", -1, 0, drawn)
	t.discardOption(i, "Memory Swap", "used")
}

// AfterDrawer acts once the robot's hand for the next round is drawn (Memory Swap).
type AfterDrawer interface {
	AfterDraw(v View)
}
