package adjudicator

// The chop shop (seed 003, "Extra Tiles For Grand Prix", CHOP SHOP).
//
//   - A robot that ends a register on a chop shop may scrap one of its options and draw a
//     new one in its place, or recharge one option. One that ends the turn there may do
//     either, or draw one more option card (a fourth makes it discard one, as at a double
//     wrench). All of these are orders (Decider: ChopShopDecider; the default is to do
//     nothing).
//   - "In the postal game, newly obtained options cannot be exchanged in the turn in
//     which they are drawn": an option drawn this turn (at a chop shop or anywhere) is
//     not scrapped; an order to scrap it is passed over.
//   - Ruling: "ends a REGISTER phase" is the end of phase e of registers 1–4; at the end
//     of register 5 the end-of-turn choice is made instead (it includes the register's),
//     with the repairs (endturn.go), so a robot chooses once there, not twice.
//   - Ruling: a destroyed robot is on no square and does not visit the chop shop.
//   - Recharging gives an option that runs down its full use again: the count an
//     option keeps of what it has used (Robot.Tokens: the points on a Protective
//     Coating, the shots a Turbo Blaster fired) goes back to 0. Ruling: an option with
//     nothing used cannot be recharged (the choice does nothing); recharging is not an
//     exchange, so an option drawn this turn may be recharged.

// ChopAct is what a robot does at a chop shop.
type ChopAct uint8

const (
	ChopNothing  ChopAct = iota
	ChopScrap            // scrap Option and draw a new option card
	ChopDraw             // end of turn only: draw one more option card
	ChopRecharge         // recharge Option: what it has used up is restored
)

// ChopChoice is a robot's choice at a chop shop; Option indexes View.Robot().Options.
type ChopChoice struct {
	Act    ChopAct
	Option int
}

// ChopShopDecider is the Decider's answer at a chop shop (an optional interface: a
// Decider without it does nothing there). endOfTurn says whether drawing is allowed.
type ChopShopDecider interface {
	ChopShop(v View, endOfTurn bool) ChopChoice
}

// drawnOption is an option drawn this turn, which cannot be scrapped this turn.
type drawnOption struct {
	robot int
	name  string
}

// runChopShops asks every robot on a chop shop for its choice and carries it out.
func (t *turn) runChopShops(endOfTurn bool) {
	b := t.board()
	for i, hi := t.actors(); i < hi; i++ {
		r := &t.st.Robots[i]
		if !r.Active() || !b.In(r.Pos) || !b.At(r.Pos).ChopShop {
			continue
		}
		cd, ok := t.decider(i).(ChopShopDecider)
		if !ok {
			continue
		}
		c := cd.ChopShop(t.view(i), endOfTurn)
		switch c.Act {
		case ChopScrap:
			if c.Option < 0 || c.Option >= len(r.Options) || t.drawnThisTurn(i, r.Options[c.Option]) {
				continue
			}
			opt := t.removeOption(i, c.Option)
			t.emit(Event{Kind: EvOptionLose, Robot: r.Name, Option: opt, Cause: "chop-shop"})
			t.drawTracked(i)
		case ChopDraw:
			if endOfTurn {
				t.drawTracked(i)
			}
		case ChopRecharge:
			if c.Option < 0 || c.Option >= len(r.Options) {
				continue
			}
			name := r.Options[c.Option]
			if used := t.token(i, name); used > 0 {
				t.setToken(i, name, 0)
				t.emit(Event{Kind: EvRecharged, Robot: r.Name, Option: name, Amount: used, Cause: "chop-shop"})
			}
		}
	}
}

// drawTracked draws an option for robot i and remembers it as drawn this turn.
func (t *turn) drawTracked(i int) {
	held := append([]string(nil), t.st.Robots[i].Options...)
	t.drawOption(i)
	for _, o := range t.st.Robots[i].Options {
		if !containsString(held, o) {
			t.drawn = append(t.drawn, drawnOption{i, o})
		}
	}
}

func (t *turn) drawnThisTurn(i int, name string) bool {
	for _, d := range t.drawn {
		if d.robot == i && d.name == name {
			return true
		}
	}
	return false
}

func containsString(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// HasChopShop reports whether the course has a chop shop.
func (s *Setup) HasChopShop() bool { return s.fx&fxChop != 0 }
