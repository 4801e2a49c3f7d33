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
}

// decider answers from Decisions. It counts prevented points, so a fresh one is made
// for every run.
type decider struct {
	d         Decisions
	prevented int
}

func (x *decider) PowerDown(adjudicator.View) bool { return x.d.PowerDown }
func (x *decider) StayDown(adjudicator.View) bool  { return x.d.StayDown }
func (x *decider) DoubleWrench(adjudicator.View) adjudicator.WrenchChoice {
	return x.d.Wrench
}
func (x *decider) ReentryFacing(v adjudicator.View) adjudicator.Dir {
	if x.d.Facing != nil {
		return *x.d.Facing
	}
	return adjudicator.Defaults{}.ReentryFacing(v)
}
func (x *decider) PreventDamage(adjudicator.View, string) int {
	if x.prevented < x.d.Prevent {
		x.prevented++
		return 0
	}
	return -1
}
func (x *decider) LoseOption(adjudicator.View, adjudicator.Loss) int { return x.d.Lose }
func (x *decider) Option(v adjudicator.View, option, question string) string {
	if len(x.d.rules) == 0 {
		return ""
	}
	return orders.Compile(&orders.Sheet{Rules: x.d.rules}).Option(v, option, question)
}

func (x *decider) MoveArchive(adjudicator.View) bool { return !x.d.KeepArchive }

func (x *decider) ChopShop(_ adjudicator.View, endOfTurn bool) adjudicator.ChopChoice {
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
