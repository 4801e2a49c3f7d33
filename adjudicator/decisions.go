package adjudicator

// Decisions a face-to-face player makes at the table (rules README, "Decisions a
// face-to-face player makes at run time"). By mail they are written in advance as
// standing or conditional orders; the engine asks them through a Decider at the moment
// they arise, with a View of the game as it is then, so a condition is judged on the
// state at the decision point, not as it was when the sheet was written.
//
// Every method has a documented default, which is what Defaults returns and what the
// orders package falls back to when a sheet says nothing.

// WrenchChoice is what a robot ending its turn on a double-wrench site takes.
type WrenchChoice uint8

const (
	// Repair2 repairs up to two points of damage (the default).
	Repair2 WrenchChoice = iota
	// TakeOption draws an option card instead (seed 003, Repair Sites).
	TakeOption
)

// Loss says why an option card must go.
type Loss uint8

const (
	LossDestroyed   Loss = iota // the robot was destroyed (rules README, Option cards)
	LossFourth                  // a fourth option arrived; at most MaxOptions are held
	LossTurboWrench             // Turbo Wrenches: of the two cards drawn on a double wrench, one goes (variants.go)
)

// Decider answers a robot's run-time decisions. Implementations must not keep the View
// beyond the call.
type Decider interface {
	// PowerDown: announce at the end of this turn a power down for the next turn.
	// Default: no.
	PowerDown(v View) bool
	// StayDown: a powered-down robot stays down for the next turn too. Default: no.
	StayDown(v View) bool
	// DoubleWrench: repair 2 or take an option card. Default: Repair2.
	DoubleWrench(v View) WrenchChoice
	// ReentryFacing: the facing a destroyed robot re-enters with. Default: towards the
	// next flag (View.TowardNextFlag).
	ReentryFacing(v View) Dir
	// PreventDamage: discard one held option (index into View.Robot().Options) to
	// prevent one point of damage as it arrives, or -1 not to. Asked once per point while
	// options remain; View.PendingDamage and View.Predict(Self, WouldBeDestroyed) say
	// what the rest of the hit would do. Default: -1, never.
	PreventDamage(v View, source string) int
	// LoseOption: which held option to discard (index) when one must go. Default: the
	// oldest, 0.
	LoseOption(v View, why Loss) int
	// Option: a run-time choice an option card asks for ("may" cards, targets,
	// directions). The question names the option and what it asks; the answer is the
	// chosen parameter, "" to decline. A question about another robot carries it
	// (View.Target) and what the option would do to it (View.Predict(TheTarget, ...)).
	// Default: "". Option effects arrive with their own issue and ask through
	// View.AskOption; the base game asks nothing here.
	Option(v View, option, question string) string
}

// ArchiveDecider is asked, with Rules.ArchiveChoice, whether a robot reaching a flag
// moves its archive marker there (seed 000, Reaching a Checkpoint: the player "may"
// place the Safety Copy). An optional interface: a Decider without it, and the default,
// say yes. The chop shop's choice is ChopShopDecider (chopshop.go).
type ArchiveDecider interface {
	MoveArchive(v View) bool
}

// Pick says why a robot (or its neighbour) chooses one option card of several (seed 001,
// Option Variants; variants.go).
type Pick uint8

const (
	// PickDeluxe: the Deluxe Option Package, one of the three cards drawn before the
	// game is kept (at the start of turn 1). Order: "keep NAME".
	PickDeluxe Pick = iota
	// PickScavenger: Scavenger Hunt I, the robot reaching a flag takes one card of the
	// flag's pile. Order: "keep NAME".
	PickScavenger
	// PickScavengerFor: Scavenger Hunt II, the player to the left of the robot reaching
	// a flag chooses the card it receives; View.Target is that robot. Order: "give NAME".
	PickScavengerFor
)

// PickDecider is asked which of the cards offered is taken (an index into cards). An
// optional interface: a Decider without it, and the default, take the first card
// offered, which is the first drawn (the piles and packages come from the shuffled
// deck, so the default is a random card).
type PickDecider interface {
	PickOption(v View, why Pick, cards []string) int
}

// Defaults is the Decider used where the orders say nothing.
type Defaults struct{}

func (Defaults) PowerDown(View) bool                { return false }
func (Defaults) StayDown(View) bool                 { return false }
func (Defaults) DoubleWrench(View) WrenchChoice     { return Repair2 }
func (Defaults) ReentryFacing(v View) Dir           { return v.TowardNextFlag() }
func (Defaults) PreventDamage(View, string) int     { return -1 }
func (Defaults) LoseOption(View, Loss) int          { return 0 }
func (Defaults) Option(View, string, string) string { return "" }

// View is a read-only look at the game at a decision point, from one robot's side.
// Some decisions carry more: the damage on its way (PreventDamage, PendingDamage) and
// the robot an option question is about (Option, Target); Predict answers from them.
type View struct {
	t     *turn
	robot int
	// taken and left describe the hit being dealt at a PreventDamage decision: points of
	// it already taken (they land together when the hit is done) and points still to
	// come, counting the one being decided. Both 0 elsewhere.
	taken, left int
	// target is the robot an option question is about, index+1 (0: none), and impact
	// what the option would do to it (View.AskOption).
	target int
	impact Impact
	// mode is the way of using the card an option question asks about, for cards used
	// in more than one way (Homing Device: "tag" or "home"); modeDefault says it is the
	// card's default way, which an order naming no way asks for (View.Mode).
	mode        string
	modeDefault bool
}

// Mode is the way of using its card an option question asks about ("" for a card used
// in one way only), and whether it is the card's default way: an order that names no
// way of use answers the default way's question only.
func (v View) Mode() (mode string, isDefault bool) { return v.mode, v.modeDefault }

// Robot is a copy of the deciding robot.
func (v View) Robot() Robot {
	r := v.t.st.Robots[v.robot]
	r.Hand = append([]int(nil), r.Hand...)
	r.Options = append([]string(nil), r.Options...)
	return r
}

// Register is the register being played (1–5), or 0 outside the registers.
func (v View) Register() int { return v.t.register }

// Turn is the turn number.
func (v View) Turn() int { return v.t.st.Turn }

// Square is a copy of the square the robot is on (the zero Square when it is off the
// board). For a destroyed robot about to re-enter, its archive square.
func (v View) Square() Square {
	r := &v.t.st.Robots[v.robot]
	p := r.Pos
	if r.Destroyed {
		p = r.Archive
	}
	if !v.t.board().In(p) {
		return Square{}
	}
	return *v.t.board().At(p)
}

// NextToPit reports whether a square next to the robot (no diagonals, no wall between)
// is a pit or off the board.
func (v View) NextToPit() bool {
	r := &v.t.st.Robots[v.robot]
	for d := North; d <= West; d++ {
		if !v.t.board().Blocked(r.Pos, d) && v.t.board().Deadly(r.Pos.Step(d)) {
			return true
		}
	}
	return false
}

// OnLaser reports whether a board laser's beam reaches the robot's square as the board
// stands now (other robots may shield it).
func (v View) OnLaser() bool {
	r := &v.t.st.Robots[v.robot]
	return v.t.boardBeamsAt(r.Pos, v.robot) > 0
}

// TowardNextFlag is the direction from the robot (or its archive, when destroyed)
// towards its next flag: along the longer axis, ties north/south first. Facing when all
// flags are touched.
func (v View) TowardNextFlag() Dir {
	r := &v.t.st.Robots[v.robot]
	p := r.Pos
	if r.Destroyed {
		p = r.Archive
	}
	if r.Flags >= len(v.t.setup.Course.Flags) {
		return r.Facing
	}
	return toward(p, v.t.setup.Course.Flags[r.Flags], r.Facing)
}

// NextFlag is the position of the robot's next flag and its number; ok is false when it
// has touched them all.
func (v View) NextFlag() (p Pos, n int, ok bool) {
	r := &v.t.st.Robots[v.robot]
	if r.Flags >= len(v.t.setup.Course.Flags) {
		return Pos{}, 0, false
	}
	return v.t.setup.Course.Flags[r.Flags], r.Flags + 1, true
}

// Flags is the number of flags on the course.
func (v View) Flags() int { return len(v.t.setup.Course.Flags) }

// Others lists copies of the other robots still in the race.
func (v View) Others() []Robot {
	var out []Robot
	for i, r := range v.t.st.Robots {
		if i != v.robot && !r.Out {
			r.Hand = nil
			out = append(out, r)
		}
	}
	return out
}

func toward(from, to Pos, otherwise Dir) Dir {
	dx, dy := to.X-from.X, to.Y-from.Y
	switch {
	case dx == 0 && dy == 0:
		return otherwise
	case abs(dy) >= abs(dx) && dy < 0:
		return North
	case abs(dy) >= abs(dx):
		return South
	case dx > 0:
		return East
	default:
		return West
	}
}
