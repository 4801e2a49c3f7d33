package scenario

import (
	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/orders"
)

// Decisions are a robot's fixed answers, written on a scenario's decide line. Anything
// not written falls back to adjudicator.Defaults.
type Decisions struct {
	PowerDown bool                     `json:"power_down,omitempty"`
	StayDown  bool                     `json:"stay_down,omitempty"`
	Wrench    adjudicator.WrenchChoice `json:"wrench,omitempty"`   // 0 repair, 1 option
	Facing    *adjudicator.Dir         `json:"facing,omitempty"`   // re-entry facing
	Prevent   int                      `json:"prevent,omitempty"`  // points of damage to prevent, oldest option first
	Lose      int                      `json:"lose,omitempty"`     // index of the option to lose
	Shutdown  bool                     `json:"shutdown,omitempty"` // 2023: shut down this round
	// KeepArchive: on reaching a flag, keep the archive where it is (Rules.ArchiveChoice).
	KeepArchive bool `json:"keep_archive,omitempty"`
	// Chop is the answer at a chop shop ("chop scrap N" in registers and at the end of
	// the turn, "chop draw" at the end of the turn).
	Chop *adjudicator.ChopChoice `json:"chop,omitempty"`
	// Pick is the index of the card taken when one of several is offered (the option
	// variants: Deluxe Option Package, Scavenger Hunt); nil asks the orders, then 0.
	Pick *int `json:"pick,omitempty"`
	// Orders are order-sheet lines ("use Brakes in register 2"), as a player mails them;
	// they answer the option questions (Decider.Option) through the orders package.
	Orders []string `json:"orders,omitempty"`
	rules  []orders.Rule
	// said holds the decisions a decide line wrote. Every other decision is answered by
	// the orders lines, when there are any, as the judge answers a mailed sheet (power
	// down, the double wrench, re-entry facing, preventing damage, the option to lose,
	// the archive, the chop shop), and else by adjudicator.Defaults.
	said said
}

// said is a set of decide words.
type said uint16

const (
	saidPowerDown said = 1 << iota
	saidStayDown
	saidWrench
	saidFacing
	saidPrevent
	saidLose
	saidArchive
	saidChop
)

// decider answers from Decisions. It counts prevented points, so a fresh one is made
// for every run.
type decider struct {
	d         Decisions
	prevented int
}

// sheet is the robot's orders lines as the judge compiles a mailed sheet, when the
// decision w was not written on a decide line and there are orders lines; else nil.
func (x *decider) sheet(w said) adjudicator.Decider {
	if x.d.said&w != 0 || len(x.d.rules) == 0 {
		return nil
	}
	return orders.Compile(&orders.Sheet{Rules: x.d.rules})
}

func (x *decider) PowerDown(v adjudicator.View) bool {
	if s := x.sheet(saidPowerDown); s != nil {
		return s.PowerDown(v)
	}
	return x.d.PowerDown
}
func (x *decider) StayDown(v adjudicator.View) bool {
	if s := x.sheet(saidStayDown); s != nil {
		return s.StayDown(v)
	}
	return x.d.StayDown
}
func (x *decider) DoubleWrench(v adjudicator.View) adjudicator.WrenchChoice {
	if s := x.sheet(saidWrench); s != nil {
		return s.DoubleWrench(v)
	}
	return x.d.Wrench
}
func (x *decider) ReentryFacing(v adjudicator.View) adjudicator.Dir {
	if x.d.Facing != nil {
		return *x.d.Facing
	}
	if s := x.sheet(saidFacing); s != nil {
		return s.ReentryFacing(v)
	}
	return adjudicator.Defaults{}.ReentryFacing(v)
}
func (x *decider) PreventDamage(v adjudicator.View, source string) int {
	if s := x.sheet(saidPrevent); s != nil {
		return s.PreventDamage(v, source)
	}
	if x.prevented < x.d.Prevent {
		x.prevented++
		return 0
	}
	return -1
}
func (x *decider) LoseOption(v adjudicator.View, why adjudicator.Loss) int {
	if s := x.sheet(saidLose); s != nil {
		return s.LoseOption(v, why)
	}
	return x.d.Lose
}
func (x *decider) Option(v adjudicator.View, option, question string) string {
	if len(x.d.rules) == 0 {
		return ""
	}
	return orders.Compile(&orders.Sheet{Rules: x.d.rules}).Option(v, option, question)
}

func (x *decider) MoveArchive(v adjudicator.View) bool {
	if s, ok := x.sheet(saidArchive).(adjudicator.ArchiveDecider); ok {
		return s.MoveArchive(v)
	}
	return !x.d.KeepArchive
}

func (x *decider) ChopShop(v adjudicator.View, endOfTurn bool) adjudicator.ChopChoice {
	if s, ok := x.sheet(saidChop).(adjudicator.ChopShopDecider); ok {
		return s.ChopShop(v, endOfTurn)
	}
	if x.d.Chop == nil || (x.d.Chop.Act == adjudicator.ChopDraw && !endOfTurn) {
		return adjudicator.ChopChoice{}
	}
	return *x.d.Chop
}

func (x *decider) PickOption(v adjudicator.View, why adjudicator.Pick, cards []string) int {
	if x.d.Pick != nil {
		return *x.d.Pick
	}
	if pd, ok := orders.Compile(&orders.Sheet{Rules: x.d.rules}).(adjudicator.PickDecider); ok && len(x.d.rules) > 0 {
		return pd.PickOption(v, why, cards)
	}
	return 0
}
