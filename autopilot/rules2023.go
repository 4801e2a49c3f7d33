package autopilot

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// The autopilot under the 2023 rules (seed 004; docs/rules-2023.md). A round's plan is
// more than a program:
//
//  1. the upgrade phase (seed 004, Phase 1): install the best uninstalled upgrade it can
//     pay for (uninstalling the weakest of its kind when 3 are installed already), then
//     draw one for 1 energy while energy is left over (upgradeRank, planUpgrades);
//  2. shutdown (seed 004, Shutdown) when it holds many damage cards, can stand still
//     safely and would reach no checkpoint this round anyway (wantsShutdown);
//  3. the reboot facing (ruling R-REBOOT-FACING) of a robot re-entering this round: each
//     of the four is tried with the program search;
//  4. the program: the search of choose.go, every forecast starting after the upgrade
//     phase (Setup.WithUpgradePhase), so an upgrade installed now works in it; its best
//     programs are played against the nearest rival's likely programs (rival.go);
//  5. upgrade uses (ruling R-TEMPORARY-WHEN): Zoop, Boink and Brakes where a forecast
//     shows they gain enough, Deflector Shield in the registers where it keeps damage
//     off (against any laser with 5 energy or more), Recharge and Memory Swap when
//     installed, Mini Howitzer when a shot would push a robot off the floor or energy
//     is plentiful.
//
// The plan is orders (Plan.Orders2023, for the engine) and sheet lines in the order
// language (Plan.Orders; SheetLines writes a whole sheet), and the two say the same.
// Like the postal autopilot it never depends on the order of the robot's deck (ruling
// R-FORECAST-HIDDEN) and uses no chance (the rival's hands rival.go imagines come from a
// generator seeded by the position).

// 2023 values, in the units of score.go. A 2023 race is short (docking-run: 4 to 6
// rounds between two robots), so what helps a later round counts for less than in a
// postal race, and a register spent turning for more. Measured against the one-turn
// greedy player (TestAutopilotBeatsGreedy, docking-run, 100 games): energy 40 and damage
// cards 120, a quarter turn 25 won 68; with energy 10, damage cards 40, a quarter turn 60
// and checkpoints valued by their register, 71 (each alone 1 to 2 more); these values
// were measured before the programs were played against the rival (rival.go: 84).
const (
	energyValue     = 10 // a point of energy at the end of the round
	damageCardValue = 40 // a damage card more in the robot's cards (SPAM, Haywire)
	// rebootValue is a reboot, besides what the forecast shows of it: the registers it
	// spends off the floor, its re-entry square (valued by the cost to go, facing the
	// best way) and its 2 damage cards.
	rebootValue = 500
	// checkpointValue is a checkpoint reached, besides the cost to go of the race that
	// it takes off (Guide.Race): more than the earlyFlagValue of five registers, so
	// that a checkpoint reached in register 5 still beats stopping a square short.
	checkpointValue = 2_000
	// turn2023Value is a quarter turn still needed to face the way to go (turnValue
	// under the postal rules).
	turn2023Value = 60
	// earlyWinValue is taken from a win for each register it waits: the first robot to
	// end a register on the last checkpoint wins (seed 004, Winning the Game), so a
	// rival arriving in an earlier register of the round wins instead.
	earlyWinValue = 1_000
	// earlyFlagValue is taken from a checkpoint reached for each register it waits: on
	// it later, the more time a rival has to push the robot off it first or stand on
	// it (the robot moving later in a register pushes the other off, and only the
	// robot on it at the register's end reaches it).
	earlyFlagValue = 300
	// useWorth is how much a forecast must gain for the plan to spend a single-use
	// upgrade (Zoop, Boink) on it.
	useWorth = 150
	// shutdownAt is the damage cards held (hand and face-down Haywire cards) from which
	// a robot that can stand still safely shuts down: with 4 of 9 cards damage the hand
	// can hardly program five registers, and shutdown discards them all (seed 004,
	// Shutdown 3).
	shutdownAt = 4
	// howitzerFreely is the energy from which Mini Howitzer is fired at whatever is in
	// line, not only at a robot it would push off the floor.
	howitzerFreely = 6
	// deflectFreely is the energy from which Deflector Shield is raised against any
	// laser hit, not only where the forecast shows a board laser's.
	deflectFreely = 5
)

// Use is an upgrade use a plan orders: "use NAME [DIR] [in register N] [if target would
// fall]" (docs/orders.md).
type Use struct {
	Upgrade  string
	Dir      adjudicator.Dir
	HasDir   bool
	Register int  // 0: whenever the upgrade asks
	IfFalls  bool // only when the target would fall (Mini Howitzer)
}

// Line is the use in the order language.
func (u Use) Line() string {
	var b strings.Builder
	b.WriteString("use " + u.Upgrade)
	if u.HasDir {
		b.WriteString(" " + u.Dir.String())
	}
	if u.Register > 0 {
		fmt.Fprintf(&b, " in register %d", u.Register)
	}
	if u.IfFalls {
		b.WriteString(" if target would fall")
	}
	return b.String()
}

// upgradeRank is how much the autopilot wants an upgrade installed, 0 not at all. Abort
// Switch replaces a card by the unknown top of the deck, which a bot that cannot see its
// deck has no reason to want.
func upgradeRank(name string) int {
	switch name {
	case "Recharge": // free, and 3 energy at once
		return 10
	case "Hover Unit":
		return 9
	case "Deflector Shield":
		return 8
	case "Zoop":
		return 7
	case "Boink":
		return 6
	case "Double-Barrel Laser", "Rear Laser":
		return 5
	case "Ramming Gear", "Mini Howitzer":
		return 4
	case "Brakes", "Memory Swap":
		return 3
	}
	return 0
}

// energyReserve is the energy the upgrade phase leaves for the registers: 1 when an
// installed upgrade is paid in energy.
func energyReserve(installed []string) int {
	if slices.Contains(installed, "Deflector Shield") || slices.Contains(installed, "Mini Howitzer") {
		return 1
	}
	return 0
}

// planUpgrades is the robot's upgrade phase: install the best-ranked uninstalled upgrade
// it can pay for, making room by uninstalling a weaker one of its kind; then draw one
// while the energy left keeps the reserve and it holds fewer than two uninstalled cards
// it would install.
func (p *Pilot) planUpgrades(st *adjudicator.State, r *adjudicator.Robot) adjudicator.UpgradeOrders {
	var u adjudicator.UpgradeOrders
	if r.Mat == nil || p.setup.Rules.Lighter {
		return u
	}
	energy := r.Mat.Energy
	installed := slices.Clone(r.Options)
	best, bestRank, drop := adjudicator.Upgrade{}, 0, ""
	for _, name := range r.Mat.Collection {
		up, ok := adjudicator.UpgradeByName(name)
		rank := upgradeRank(up.Name)
		if !ok || rank <= bestRank || up.Cost > energy || slices.Contains(installed, up.Name) {
			continue
		}
		n, weakest, weakRank := 0, "", 0
		for _, o := range installed {
			if x, ok := adjudicator.UpgradeByName(o); ok && x.Temporary == up.Temporary {
				n++
				if weakest == "" || upgradeRank(o) < weakRank {
					weakest, weakRank = o, upgradeRank(o)
				}
			}
		}
		limit := adjudicator.MaxPermanent
		if up.Temporary {
			limit = adjudicator.MaxTemporary
		}
		out := ""
		if n >= limit {
			if weakRank+2 > rank {
				continue // not worth the energy already paid for the weaker one
			}
			out = weakest
		}
		best, bestRank, drop = up, rank, out
	}
	if bestRank > 0 {
		if drop != "" {
			u.Uninstall = []string{drop}
			installed = slices.DeleteFunc(installed, func(o string) bool { return o == drop })
		}
		u.Install = best.Name
		installed = append(installed, best.Name)
		energy -= best.Cost
	}
	// The uninstalled cards it would still install one day: not Abort Switch, not a
	// second copy of one installed. Cards it will never install do not stop it drawing.
	wanted, taken := 0, false
	for _, name := range r.Mat.Collection {
		if name == u.Install && !taken {
			taken = true
			continue
		}
		if upgradeRank(name) > 0 && !slices.Contains(installed, name) {
			wanted++
		}
	}
	cards := len(st.OptionDeck) + len(st.OptionDiscard)
	if cards > 0 && wanted < 2 && energy-1 >= energyReserve(installed) && energy >= 1 {
		u.Draw = true
	}
	return u
}

// damageHeld is the damage cards robot r holds in hand and face down under its
// registers: what a shutdown discards (ruling R-SHUTDOWN-REACH).
func damageHeld(r *adjudicator.Robot) int {
	n := 0
	for _, c := range r.Hand {
		if adjudicator.CardKind(c).Damage() {
			n++
		}
	}
	if r.Mat != nil {
		for _, hw := range r.Mat.Haywire {
			if hw != 0 {
				n++
			}
		}
	}
	return n
}

// damageOwned is every damage card that is robot r's: held, in its registers and in its
// own piles. A forecast that adds to it took damage; one that takes from it burnt a SPAM.
func damageOwned(r *adjudicator.Robot) int {
	n := damageHeld(r)
	count := func(cs []int) {
		for _, c := range cs {
			if adjudicator.CardKind(c).Damage() {
				n++
			}
		}
	}
	count(r.Registers[:])
	if r.Mat != nil {
		count(r.Mat.Deck)
		count(r.Mat.Discard)
	}
	return n
}

// wantsShutdown: shut down when holding shutdownAt damage cards or more, on the board,
// and standing where a round still is safe: no board laser, belt or push panel (seed 004,
// Shutdown 6: the board still acts on a shut-down robot).
func (p *Pilot) wantsShutdown(r *adjudicator.Robot) bool {
	if !r.Active() || damageHeld(r) < shutdownAt {
		return false
	}
	sq := p.setup.Course.Board.At(r.Pos)
	return p.guide.Beams(r.Pos) == 0 && sq.Belt.Kind == adjudicator.NoBelt && sq.Pusher.Registers == 0
}

// planDecider answers the engine's questions as a 2023 plan's orders do: the reboot
// facing, shutdown, and the upgrade uses; nothing else (the engine's defaults).
type planDecider struct {
	adjudicator.Defaults
	facing    adjudicator.Dir
	hasFacing bool
	shutdown  bool
	uses      []Use
}

func (d *planDecider) PowerDown(adjudicator.View) bool { return d.shutdown }

func (d *planDecider) ReentryFacing(v adjudicator.View) adjudicator.Dir {
	if d.hasFacing {
		return d.facing
	}
	return v.TowardNextFlag()
}

func (d *planDecider) Option(v adjudicator.View, option, _ string) string {
	for _, u := range d.uses {
		if !strings.EqualFold(u.Upgrade, option) || (u.Register != 0 && v.Register() != 0 && u.Register != v.Register()) {
			continue
		}
		if u.IfFalls {
			if falls, known := v.Predict(adjudicator.TheTarget, adjudicator.WouldFall); !known || !falls {
				continue
			}
		}
		var parts []string
		if u.HasDir {
			parts = append(parts, "dir="+u.Dir.String())
		}
		if u.Register != 0 {
			parts = append(parts, fmt.Sprintf("register=%d", u.Register))
		}
		if len(parts) == 0 {
			return "yes"
		}
		return strings.Join(parts, ";")
	}
	return ""
}

// choose2023 is Choose under the 2023 rules.
func (p *Pilot) choose2023(st *adjudicator.State, robot int) Plan {
	r := &st.Robots[robot]
	if r.Out || r.Mat == nil {
		return Plan{Why: "out of the race"}
	}
	plan := Plan{Upgrade: p.planUpgrades(st, r)}
	s := &search{p: p, robot: robot, before: *r}
	for reg := 1; reg <= adjudicator.Registers; reg++ {
		if r.Mat.Haywire[reg-1] == 0 {
			s.free = append(s.free, reg-1) // a face-down Haywire takes the register (R-HAYWIRE-SLOT)
		}
	}
	if len(r.Hand) < len(s.free) {
		return Plan{Why: "too few cards for the free registers"}
	}
	for _, c := range r.Hand {
		k := adjudicator.CardKind(c)
		gi := slices.IndexFunc(s.groups, func(g group) bool { return g.kind == k })
		if gi < 0 {
			s.groups = append(s.groups, group{kind: k})
			gi = len(s.groups) - 1
		}
		s.groups[gi].cards = append(s.groups[gi].cards, c)
	}
	after, err := p.setup.WithUpgradePhase(st, robot, plan.Upgrade)
	if err != nil {
		// Cannot happen: planUpgrades orders only what the robot can do. Plan without.
		plan.Upgrade = adjudicator.UpgradeOrders{}
		after = st
	}
	s.sim = adjudicator.NewSimulator(p.setup, after)
	s.own, s.upgrade = true, plan.Upgrade
	d := &planDecider{}
	s.decider = d
	// A robot re-entering this round chooses its facing (R-REBOOT-FACING): every facing
	// is searched, the way to its next checkpoint first so that it wins ties. A program
	// turning in the register it re-enters in is not searched (search.turnless): it
	// spends a register for what the facing it turns to gives at once, and searching
	// it made the four searches of a rebooting robot twice as long (BenchmarkChoose2023,
	// reboot-upgraded: 9,000 programs, 4,288 without). The register it re-enters in
	// must take the program's first card for that (no face-down Haywire there), and the
	// hand must hold a card that is no turn.
	facings := []adjudicator.Dir{adjudicator.North}
	if r.Destroyed {
		s.turnless = len(s.free) > 0 && s.free[0] == 0 && slices.ContainsFunc(s.groups, func(g group) bool { return g.kind.Rotation() == adjudicator.NoRotation })
		d.hasFacing = true
		first, ok := p.guide.Downhill(r.Flags+1, r.Archive)
		if !ok {
			first = adjudicator.North
		}
		facings = []adjudicator.Dir{first}
		for f := adjudicator.North; f <= adjudicator.West; f++ {
			if f != first {
				facings = append(facings, f)
			}
		}
	}
	// A rebooting robot searches four times the programs: each facing is searched on a
	// Simulator and a decider of its own, at once (BenchmarkChoose2023, reboot-upgraded:
	// the 100 ms per choice of issue 24 item 6). The choice is the one a search facing
	// after facing makes: the best score, ties to the earlier facing.
	var wg sync.WaitGroup
	var rg *rivalGame
	if rival := nearestRival(st, robot); rival >= 0 && !p.alone {
		// The rival's likely programs are searched meanwhile (rival.go).
		rg = p.imagineRival(st, after, robot, rival, &wg)
	}
	// The search keeps its best programs ending apart (rtop, keepApart): a card the
	// forecast cannot know is weighed for them (unknown.go), and they are played against
	// the rival.
	s.rivals = true
	searches := make([]search, len(facings))
	for k, f := range facings {
		fs := &searches[k]
		*fs = *s
		fs.facing = f
		if fs.rivals {
			fs.rtop = make([]ranked, 0, rivalTop)
		}
		fd := *d
		fd.facing = f
		fs.decider = &fd
		if k == 0 {
			if len(facings) == 1 {
				fs.walk(0)
				break
			}
		} else {
			fs.sim = adjudicator.NewSimulator(p.setup, after)
		}
		wg.Go(func() { fs.walk(0) })
	}
	wg.Wait()
	var best *search
	tried := 0
	for k := range searches {
		fs := &searches[k]
		tried += fs.tried
		if fs.found && (best == nil || fs.best.Score > best.best.Score) {
			best = fs
		}
	}
	if best == nil {
		return Plan{Why: "no legal program"}
	}
	s = best
	// The search's best over every facing, a card the forecast cannot know weighed
	// (unknown.go), then, unless the best wins the race for sure, played against the
	// rival (rival.go).
	var cands []ranked
	for k := range searches {
		for _, c := range searches[k].rtop {
			keepApart(&cands, rivalTop, c)
		}
	}
	weighed := p.weighUnknown(after, robot, cands)
	pick := -1
	switch {
	case len(cands) == 0:
	case rg != nil && !cands[0].o.Won:
		pick = rg.best(p, robot, &s.before, cands)
	case weighed:
		pick = 0
	}
	if pick >= 0 {
		c := &cands[pick]
		k := slices.IndexFunc(facings, func(f adjudicator.Dir) bool { return f == c.facing })
		s = &searches[k]
		s.bestProg, s.best, s.bestEnd = c.prog, c.o, c.end
	}
	d.facing = s.facing
	s.decider = d
	plan.Program, plan.Score, plan.End, plan.Tried = s.bestProg, s.best.Score, s.bestEnd, tried
	plan.Facing, plan.HasFacing = s.facing, r.Destroyed
	if p.wantsShutdown(r) && s.best.Flags == 0 {
		plan.Shutdown = true
		d.shutdown = true
		plan.Why = fmt.Sprintf("shuts down to discard the %d damage cards it holds (seed 004, Shutdown)", damageHeld(r))
	} else {
		plan.Uses = p.planUses(s, r, d)
		plan.End, plan.Score = s.bestEnd, s.best.Score
		plan.Why = p.explain2023(s, len(plan.Uses))
	}
	plan.Orders = plan.lines2023()
	return plan
}

// planUses improves the chosen program with the upgrades the robot will have installed
// this round (after its upgrade phase), keeping a use only where a forecast shows it
// pays; s.best and s.bestEnd follow.
func (p *Pilot) planUses(s *search, r *adjudicator.Robot, d *planDecider) []Use {
	have := slices.Clone(r.Options)
	if s.upgrade.Install != "" {
		have = append(have, s.upgrade.Install)
	}
	have = slices.DeleteFunc(have, func(o string) bool { return slices.Contains(s.upgrade.Uninstall, o) })
	try := func(u Use, worth int) bool {
		d.uses = append(d.uses, u)
		end, err := s.sim.Run(s.robot, s.bestProg, d)
		if err == nil {
			if o := s.value2023(&end); o.Score >= s.best.Score+worth {
				s.best, s.bestEnd = o, end
				return true
			}
		}
		d.uses = d.uses[:len(d.uses)-1]
		return false
	}
	energy := r.Mat.Energy
	if s.upgrade.Install != "" {
		up, _ := adjudicator.UpgradeByName(s.upgrade.Install)
		energy -= up.Cost
	}
	if s.upgrade.Draw {
		energy--
	}
	if slices.Contains(have, "Recharge") && energy <= p.setup.Rules.EnergyMax-3 {
		try(Use{Upgrade: "Recharge", Register: 1}, -1_000_000)
	}
	// Brakes (permanent): a Move 1 that had better stay put.
	if slices.Contains(have, "Brakes") {
		for reg := 1; reg <= adjudicator.Registers; reg++ {
			if adjudicator.CardKind(s.bestProg[reg-1]) == adjudicator.CardMove1 {
				try(Use{Upgrade: "Brakes", Register: reg}, 1)
			}
		}
	}
	// Zoop and Boink: the best register and direction, if it gains enough.
	for _, name := range []string{"Zoop", "Boink"} {
		if !slices.Contains(have, name) {
			continue
		}
		var bestUse Use
		var bestO outcome
		bestEnd := s.bestEnd
		found := false
		for reg := 1; reg <= adjudicator.Registers; reg++ {
			for dir := adjudicator.North; dir <= adjudicator.West; dir++ {
				u := Use{Upgrade: name, Dir: dir, HasDir: true, Register: reg}
				d.uses = append(d.uses, u)
				end, err := s.sim.Run(s.robot, s.bestProg, d)
				d.uses = d.uses[:len(d.uses)-1]
				if err != nil || slices.Contains(end.Options, name) {
					continue // not used after all (a Boink into a wall is kept)
				}
				if o := s.value2023(&end); !found || o.Score > bestO.Score {
					bestUse, bestO, bestEnd, found = u, o, end, true
				}
			}
		}
		if found && bestO.Score >= s.best.Score+useWorth {
			d.uses = append(d.uses, bestUse)
			s.best, s.bestEnd = bestO, bestEnd
		}
	}
	// Deflector Shield: with energy to spare, against any laser (the robots' lasers,
	// which the forecast does not fire, too); else in each register where the forecast
	// shows that paying keeps board laser damage off.
	if slices.Contains(have, "Deflector Shield") {
		if energy >= deflectFreely {
			d.uses = append(d.uses, Use{Upgrade: "Deflector Shield"})
			if end, err := s.sim.Run(s.robot, s.bestProg, d); err == nil {
				s.best, s.bestEnd = s.value2023(&end), end
			}
		} else {
			for reg := 1; reg <= adjudicator.Registers; reg++ {
				try(Use{Upgrade: "Deflector Shield", Register: reg}, 1)
			}
		}
	}
	if slices.Contains(have, "Mini Howitzer") {
		if energy >= howitzerFreely {
			d.uses = append(d.uses, Use{Upgrade: "Mini Howitzer"})
		} else if energy >= 1 {
			d.uses = append(d.uses, Use{Upgrade: "Mini Howitzer", IfFalls: true})
		}
	}
	if slices.Contains(have, "Memory Swap") {
		// At the end of the round it trades the 3 least wanted cards of the new hand
		// (SPAM first) for 3 more (ruling R-MEMORY-SWAP): a better hand, every time.
		d.uses = append(d.uses, Use{Upgrade: "Memory Swap"})
	}
	return slices.Clone(d.uses)
}

// evaluate2023 values a 2023 forecast: the cost to go of the rest of the race from the
// square and facing it ends on (togo.go: the cards it takes, the belts and gears
// helping; Guide.Race), checkpoints reached (checkpointValue), a reboot (the robot
// re-enters on its token or archive, facing the best way), damage cards taken or burnt,
// and energy.
func (p *Pilot) evaluate2023(before, after *adjudicator.Robot) outcome {
	g := p.guide
	o := outcome{Flags: after.Flags - before.Flags}
	if after.Flags >= len(g.flags) {
		o.Won, o.Score = true, winValue
		return o
	}
	next := after.Flags + 1
	o.Reach = g.Near(next, after.Pos)
	pos := after.Pos
	sc := o.Flags * checkpointValue
	if after.Destroyed {
		o.Destroyed = true
		sc -= rebootValue
		pos = after.Archive // where it re-enters (reboot.go sets it)
	} else {
		o.Beams = g.Beams(pos)
		sc -= o.Beams * laserValue
	}
	o.Taken = damageOwned(after) - damageOwned(before)
	sc -= o.Taken * damageCardValue
	if before.Mat != nil && after.Mat != nil {
		sc += (after.Mat.Energy - before.Mat.Energy) * energyValue
	}
	o.Dist = g.Dist(next, pos)
	if after.Destroyed {
		sc -= g.RaceBest(next, pos) // it chooses its facing (R-REBOOT-FACING)
	} else {
		sc -= g.Race(next, pos, after.Facing)
	}
	o.Score = sc
	return o
}

// value2023 is evaluate2023 of the forecast s.sim ran last, a checkpoint valued by the
// register it is reached in: the race goes to the first robot ending a register on the
// last checkpoint (seed 004, Winning the Game), so a win in register 2 beats one in
// register 5 against a rival who gets there in between; and a checkpoint reached early
// leaves a rival less time to take the square first.
func (s *search) value2023(end *adjudicator.Robot) outcome {
	return s.p.value2023On(s.sim, &s.before, end)
}

// value2023On is value2023 of the forecast sim ran last.
func (p *Pilot) value2023On(sim *adjudicator.Simulator, before, end *adjudicator.Robot) outcome {
	o := p.evaluate2023(before, end)
	if o.Won {
		o.Register = sim.Ended()
		o.Score -= o.Register * earlyWinValue
	} else if o.Flags > 0 {
		o.Score -= sim.FlagRegister() * earlyFlagValue
	}
	return o
}

// explain2023 says what the plan does, in a line.
func (p *Pilot) explain2023(s *search, uses int) string {
	o, before := s.best, &s.before
	var parts []string
	switch {
	case o.Won:
		return fmt.Sprintf("reaches checkpoint %d and wins the race", len(p.guide.flags))
	case o.Flags == 1:
		parts = append(parts, fmt.Sprintf("reaches checkpoint %d", before.Flags+1))
	case o.Flags > 1:
		parts = append(parts, fmt.Sprintf("reaches checkpoints %d to %d", before.Flags+1, before.Flags+o.Flags))
	}
	next := before.Flags + o.Flags + 1
	switch {
	case o.Destroyed:
		parts = append(parts, fmt.Sprintf("cannot avoid a reboot; re-enters %s from checkpoint %d", squares(o.Dist), next))
	case before.Destroyed:
		parts = append(parts, fmt.Sprintf("re-enters facing %s and heads for checkpoint %d (%s to go)", s.facing, next, squares(o.Dist)))
	default:
		from := p.guide.Dist(next, before.Pos)
		switch {
		case o.Dist < from:
			parts = append(parts, fmt.Sprintf("heads for checkpoint %d (%s to go, from %d)", next, squares(o.Dist), from))
		case o.Dist == from:
			parts = append(parts, fmt.Sprintf("holds its ground %s from checkpoint %d", squares(o.Dist), next))
		default:
			parts = append(parts, fmt.Sprintf("falls back to %s from checkpoint %d (was %d)", squares(o.Dist), next, from))
		}
	}
	if o.Taken > 0 {
		parts = append(parts, fmt.Sprintf("takes %d damage cards", o.Taken))
	}
	if uses > 0 {
		parts = append(parts, fmt.Sprintf("uses %d upgrade orders", uses))
	}
	return strings.Join(parts, ", ")
}

// lines2023 is the plan's orders in the order language, the program apart: the upgrade
// phase, shutdown, the reboot facing, the upgrade uses.
func (p Plan) lines2023() []string {
	var out []string
	for _, n := range p.Upgrade.Uninstall {
		out = append(out, "uninstall "+n)
	}
	if p.Upgrade.Install != "" {
		out = append(out, "install "+p.Upgrade.Install)
	}
	if p.Upgrade.Draw {
		out = append(out, "draw upgrade")
	}
	if p.Shutdown {
		out = append(out, "shut down")
	}
	if p.HasFacing {
		out = append(out, "face "+p.Facing.String())
	}
	for _, u := range p.Uses {
		out = append(out, u.Line())
	}
	return out
}

// Orders2023 is the plan as the engine takes it (adjudicator.Orders): the program, the
// upgrade phase, shutdown, and a Decider answering as the plan's order lines do.
func (p Plan) Orders2023() adjudicator.Orders {
	return adjudicator.Orders{
		Program:  p.Program,
		Shutdown: p.Shutdown,
		Upgrade:  p.Upgrade,
		Decider:  &planDecider{facing: p.Facing, hasFacing: p.HasFacing, shutdown: p.Shutdown, uses: slices.Clone(p.Uses)},
	}
}

// ProgramLine writes a 2023 program by card kind, "-" for a register holding a
// face-down Haywire (docs/orders.md, The 2023 rules).
func ProgramLine(prog [adjudicator.Registers]int) string {
	parts := make([]string, len(prog))
	for i, c := range prog {
		if c == 0 {
			parts[i] = "-"
		} else {
			parts[i] = adjudicator.CardKind(c).Title()
		}
	}
	return strings.Join(parts, ", ")
}

// SheetLines is the plan as the body of an order sheet for robot r in the order
// language (docs/orders.md), for a bot to mail: the program, then the orders. Under the
// postal rules the program is one card a line by priority ("locked" for a locked
// register) and nothing for a powered-down robot; under the 2023 rules one line of
// cards by kind. The header lines (robot, turn, secret) are the caller's.
func (p Plan) SheetLines(s *adjudicator.Setup, r *adjudicator.Robot) []string {
	var out []string
	switch {
	case s.Rules.Own():
		if p.Program != ([adjudicator.Registers]int{}) {
			out = append(out, ProgramLine(p.Program))
		}
	case r.Power != adjudicator.PowerDown:
		for _, c := range p.Program {
			if c == 0 {
				out = append(out, "locked")
			} else {
				out = append(out, fmt.Sprintf("P%d", c))
			}
		}
	}
	return append(out, p.Orders...)
}
