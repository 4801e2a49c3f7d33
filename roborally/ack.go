package roborally

import (
	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/orders"
	"github.com/rallyjudge/rallyjudge/templates"
)

// Acknowledge fills what an accepted sheet's acknowledgement says of the orders: the
// program as the engine will take it register by register (the postal rules: a locked
// register's card stays; the 2023 rules: cards by kind, a register holding a face-down
// Haywire card plays it), a shutdown, the player mat, the sheet's standing orders, the
// warnings Validate gave (rep) and the program's forecast as the player knows the game.
func Acknowledge(ack *templates.Ack, setup *adjudicator.Setup, st *adjudicator.State, robot string, sheet *orders.Sheet, rep *orders.Report) {
	o := sheet.Orders()
	seat := st.Robot(robot)
	own := setup.Rules.Own() && seat >= 0
	if own { // the 2023 rules: cards by kind around face-down Haywire cards
		r := st.Robots[seat]
		o = sheet.OwnOrders(&r)
		ack.Shutdown = o.Shutdown
		ack.Mat = templates.MatOf(st, r, setup.Rules.Lighter)
	}
	for i, p := range o.Program {
		if p == 0 && seat >= 0 && !own {
			p = st.Robots[seat].Registers[i]
		}
		if p != 0 {
			ack.Program = append(ack.Program, templates.Card{Register: i + 1, P: p, Title: setup.Deck.Kind(p).Title(), Own: own})
		} else if own && sheet.HasProgram() && !o.Shutdown && st.Robots[seat].Mat != nil {
			ack.Program = append(ack.Program, templates.Card{Register: i + 1, Title: "- (its face-down " + adjudicator.CardKind(st.Robots[seat].Mat.Haywire[i]).Title() + " is played)", Own: true})
		}
	}
	ack.Standing = nil
	for _, r := range sheet.Rules {
		ack.Standing = append(ack.Standing, r.String())
	}
	if rep != nil {
		for _, w := range rep.Warnings() {
			ack.Warnings = append(ack.Warnings, w.String())
		}
	}
	if sheet.HasProgram() {
		if f, err := orders.Forecast(setup, st, robot, sheet); err == nil {
			ack.Forecast = f.String()
		}
	}
}
