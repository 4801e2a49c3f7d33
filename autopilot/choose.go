package autopilot

import (
	"slices"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// Plan is the autopilot's choice for one robot and one turn.
type Plan struct {
	// Program is the card for each register, 0 in locked registers, as
	// adjudicator.Orders expects. All zero when the robot plays no program (powered
	// down, out of the race).
	Program [adjudicator.Registers]int
	// Score is the chosen program's value (higher is better; see score.go).
	Score int
	// Why says in a line what the program does, for the player.
	Why string
	// Orders are suggested standing orders in the order language (docs/orders.md), one
	// rule a line, matching what Decider does.
	Orders []string
	// End is the forecast robot after the five registers (before the end of turn).
	End adjudicator.Robot
	// Tried is the number of programs simulated.
	Tried int

	// The 2023 rules (rules2023.go): the upgrade phase, shutdown, the reboot facing of a
	// robot re-entering this round (HasFacing), and the upgrade uses. Orders2023 gives
	// the plan as the engine takes it; Orders writes the same in the order language.
	Upgrade   adjudicator.UpgradeOrders
	Shutdown  bool
	Facing    adjudicator.Dir
	HasFacing bool
	Uses      []Use
}

// Pilot chooses programs on one setup. It holds the setup's Guide, so a caller
// choosing for many robots or turns makes one Pilot. It is read-only once made and
// safe for concurrent use.
type Pilot struct {
	setup *adjudicator.Setup
	guide *Guide
	// alone: the 2023 search's best program is played, not the best against the
	// nearest rival (rival.go): what tests compare the choice with.
	alone bool
}

// New prepares a Pilot for setup s.
func New(s *adjudicator.Setup) *Pilot {
	return &Pilot{setup: s, guide: NewGuide(s)}
}

// Guide is the pilot's knowledge of the course.
func (p *Pilot) Guide() *Guide { return p.guide }

// Choose is New(s).Choose(st, robot): the best program for one robot.
func Choose(s *adjudicator.Setup, st *adjudicator.State, robot int) Plan {
	return New(s).Choose(st, robot)
}

// group is the cards of one kind in a hand, highest priority first. Alone on the
// floor (the forecast's other robots stand still), two cards of a kind move the robot
// the same way, so the search tries each sequence of kinds once; the cards are dealt
// out highest priority first, so the robot acts early against the others in play.
type group struct {
	kind  adjudicator.CardKind
	cards []int
}

// search is one Choose's working state.
type search struct {
	p      *Pilot
	sim    *adjudicator.Simulator
	robot  int
	before adjudicator.Robot
	free   []int // register indexes (0-based) the program fills
	groups []group
	seq    [adjudicator.Registers]int // group index per free register
	used   [adjudicator.Registers + 4]int

	tried    int
	best     outcome
	bestProg [adjudicator.Registers]int
	bestEnd  adjudicator.Robot
	found    bool
	// The most progress among programs that destroy the robot, and among those that
	// damage it: what Why says the choice avoids.
	lost, hurt         outcome
	lostProg, hurtProg [adjudicator.Registers]int

	// keep: the robot holds a card whose uses are forecast (armed.go); top is then the
	// search's best programs, best first, and topLost the furthest of those that
	// destroy the robot.
	keep         bool
	top, topLost []ranked

	// 2023 (rules2023.go): the forecasts start after the upgrade phase (sim is made on
	// the state after it) and answer through the plan's decider; facing is the reboot
	// facing searched.
	own     bool
	upgrade adjudicator.UpgradeOrders
	decider adjudicator.Decider
	facing  adjudicator.Dir
	// rivals: the search keeps its rivalTop best programs ending apart in rtop (2023
	// rules; keepApart), to be weighed for a card the forecast cannot know (unknown.go)
	// and played against the rival's likely programs (rival.go).
	rivals bool
	rtop   []ranked
	// turnless: no program turns in its first register (2023 rules, a rebooting robot:
	// rules2023.go). Every facing is searched for it, and a program turning first is,
	// a register later, one of the facing it turns to.
	turnless bool
}

// Choose tries every legal program of the robot's hand (all ordered choices of cards
// for its unlocked registers; cards of one kind are interchangeable on its own path)
// and returns the best, ties to the lowest program read register by register. st is
// not changed.
func (p *Pilot) Choose(st *adjudicator.State, robot int) Plan {
	if robot < 0 || robot >= len(st.Robots) {
		return Plan{Why: "no such robot"}
	}
	if p.setup.Rules.Own() {
		return p.choose2023(st, robot)
	}
	r := &st.Robots[robot]
	switch {
	case r.Out:
		return Plan{Why: "out of the race"}
	case r.Power == adjudicator.PowerDown:
		return Plan{Why: "powered down this turn: no program", Orders: p.suggest(st, robot, nil), End: *r}
	}
	s := &search{p: p, robot: robot, before: *r}
	for reg := 1; reg <= adjudicator.Registers; reg++ {
		// A locked register (postal) or one holding a face-down Haywire (2023) takes no
		// card.
		if !r.IsLocked(reg) && (r.Mat == nil || r.Mat.Haywire[reg-1] == 0) {
			s.free = append(s.free, reg-1)
		}
	}
	if len(r.Hand) < len(s.free) {
		return Plan{Why: "too few cards for the unlocked registers"}
	}
	for _, c := range r.Hand {
		k := p.setup.Deck.Kind(c)
		gi := -1
		for i := range s.groups {
			if s.groups[i].kind == k {
				gi = i
			}
		}
		if gi < 0 {
			s.groups = append(s.groups, group{kind: k})
			gi = len(s.groups) - 1
		}
		// Hands are ascending; keep each group highest first.
		s.groups[gi].cards = append([]int{c}, s.groups[gi].cards...)
	}
	s.sim = adjudicator.NewSimulator(p.setup, st)
	s.keep = holdsForecastCard(r)
	s.walk(0)
	if !s.found {
		return Plan{Why: "no legal program"}
	}
	var uses []cardUse
	if s.keep {
		uses = p.playCards(s, st) // armed.go
	}
	if u, ok := p.bombUse(st, robot, s.bestProg, uses); ok {
		uses = append(uses, u)
	}
	plan := Plan{Program: s.bestProg, Score: s.best.Score, End: s.bestEnd, Tried: s.tried}
	plan.Why = p.explain(st, robot, s)
	if len(uses) > 0 {
		var names []string
		for _, u := range uses {
			if !slices.Contains(names, u.Card) {
				names = append(names, u.Card)
			}
		}
		plan.Why += "; uses " + strings.Join(names, ", ")
	}
	plan.Orders = p.suggest(st, robot, &s.bestEnd)
	for _, u := range uses {
		plan.Orders = append(plan.Orders, u.Line())
	}
	plan.Orders = append(plan.Orders, p.optionOrders(st, robot, plan.Program, &plan.End, uses)...)
	return plan
}

// walk chooses a kind for free register number depth, then the rest.
func (s *search) walk(depth int) {
	if depth == len(s.free) {
		s.leaf()
		return
	}
	for gi := range s.groups {
		if s.used[gi] == len(s.groups[gi].cards) {
			continue
		}
		if depth == 0 && s.turnless && s.groups[gi].kind.Rotation() != adjudicator.NoRotation {
			continue
		}
		s.seq[depth] = gi
		s.used[gi]++
		s.walk(depth + 1)
		s.used[gi]--
	}
}

func (s *search) leaf() {
	var prog [adjudicator.Registers]int
	var next [adjudicator.Registers + 4]int
	for i, reg := range s.free {
		g := s.seq[i]
		prog[reg] = s.groups[g].cards[next[g]]
		next[g]++
	}
	// The forecast robot is read where the Simulator leaves it and copied (Keep) only
	// when the search keeps it: most programs are not, and a copy of a 2023 robot's mat
	// was an allocation each.
	end, err := s.sim.Forecast(s.robot, prog, s.decider)
	if err != nil {
		return // cannot happen: the program is built from the hand
	}
	s.tried++
	var o outcome
	if s.own {
		o = s.value2023(end)
	} else {
		o = s.p.evaluate(&s.before, end)
	}
	if s.keep {
		s.keepTops(prog, o, end)
	}
	if s.rivals {
		if _, ok := apart(s.rtop, rivalTop, o.Score, prog, end); ok {
			keepApart(&s.rtop, rivalTop, ranked{prog: prog, o: o, end: s.sim.Keep(s.robot, end), key: o.Score, facing: s.facing})
		}
	}
	if !s.found || o.Score > s.best.Score || (o.Score == s.best.Score && less(prog, s.bestProg)) {
		s.best, s.bestProg, s.bestEnd, s.found = o, prog, s.sim.Keep(s.robot, end), true
	}
	switch {
	case o.Destroyed:
		keepMost(&s.lost, &s.lostProg, o, prog)
	case o.Taken > 0:
		keepMost(&s.hurt, &s.hurtProg, o, prog)
	}
}

// keepMost keeps in *o the outcome of most progress (ties to the lower program); a
// zero outcome (Score 0, no program) is empty.
func keepMost(o *outcome, prog *[adjudicator.Registers]int, c outcome, cp [adjudicator.Registers]int) {
	if *prog == ([adjudicator.Registers]int{}) || c.progress() > o.progress() || (c.progress() == o.progress() && less(cp, *prog)) {
		*o, *prog = c, cp
	}
}

// less orders programs register by register, lower priorities first.
func less(a, b [adjudicator.Registers]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}
