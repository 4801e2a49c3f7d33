package roborally

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/orders"
	"github.com/rallyjudge/rallyjudge/roborally/narrate"
)

// Acknowledge fills what an accepted sheet's acknowledgement says of the orders: the
// program as the engine will take it register by register (the postal rules: a locked
// register's card stays; the 2023 rules: cards by kind, a register holding a face-down
// Haywire card plays it), a shutdown, the player mat, the sheet's standing orders, the
// warnings Validate gave (rep) and the program's forecast as the player knows the game.
func Acknowledge(ack *narrate.Ack, setup *adjudicator.Setup, st *adjudicator.State, robot string, sheet *orders.Sheet, rep *orders.Report) {
	o := sheet.Orders()
	seat := st.Robot(robot)
	own := setup.Rules.Own() && seat >= 0
	if own { // the 2023 rules: cards by kind around face-down Haywire cards
		r := st.Robots[seat]
		o = sheet.OwnOrders(&r)
		ack.Shutdown = o.Shutdown
		ack.Mat = narrate.MatOf(st, r, setup.Rules.Lighter)
	}
	for i, p := range o.Program {
		if p == 0 && seat >= 0 && !own {
			p = st.Robots[seat].Registers[i]
		}
		if p != 0 {
			ack.Program = append(ack.Program, narrate.Card{Register: i + 1, P: p, Title: setup.Deck.Kind(p).Title(), Own: own})
		} else if own && sheet.HasProgram() && !o.Shutdown && st.Robots[seat].Mat != nil {
			ack.Program = append(ack.Program, narrate.Card{Register: i + 1, Title: "- (its face-down " + adjudicator.CardKind(st.Robots[seat].Mat.Haywire[i]).Title() + " is played)", Own: true})
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

var _ game.Acknowledger = (*position)(nil)

// Acknowledge is the reply to an accepted sheet, as on the judge's own path: the
// acknowledgement template (ack.txt.tmpl) with the program register by register, the
// 2023 player mat, the standing orders in force with this turn's sheets merged over
// them (t.Fold), the warnings, the forecast, and how many robots' orders are still
// missing or why the turn waits.
func (p *position) Acknowledge(seat int, text string, t game.AckTurn) (string, error) {
	if seat < 0 || seat >= len(p.State.Robots) {
		return "", nil
	}
	// what Check made of the sheet when it accepted it (movememo.go), else the sheet
	// read again as Check read it: the warnings' lines
	ack, ok := p.acknowledged(seat, text, t.File)
	if !ok {
		return "", nil
	}
	ack.Game, ack.Robot, ack.Turn, ack.Deadline = t.Game, t.Player, t.Turn, t.Deadline
	fold, _ := p.decode(t.Fold.Data) // as far as it reads
	// the orders in force, not only this sheet's: earlier turns' standing orders carry
	// over, and this turn's answer a decision anew (orders.Merge; docs/players.md)
	if eff := Effective(p.Standing[seat], fold.Sheet); eff != nil {
		ack.Standing = nil
		for _, r := range eff.Rules {
			ack.Standing = append(ack.Standing, r.String())
		}
	}
	switch {
	case t.Paused:
		ack.Deadline = "none while the game is paused"
		ack.Waiting = "The game is paused: the turn is resolved when the game master resumes it and every program is in, or at the deadline."
	case t.Missing == 0 && len(t.Holds) > 0:
		ack.Waiting = "Every program is in, but the turn waits for its deadline: " + strings.Join(t.Holds, "; ") + "."
	case t.Missing == 0:
		ack.Waiting = "Every program is in: the turn will be resolved now."
	default:
		ack.Waiting = fmt.Sprintf("Still waiting for orders from %d robot(s).", t.Missing)
	}
	render := t.Render
	if render == nil {
		render = ownTemplates
	}
	return render("ack.txt.tmpl", ack)
}

// acknowledged is what Acknowledge (the function) fills of an accepted sheet's
// acknowledgement: as Check made it, when the position keeps it; else read and
// validated again. ok is false when the sheet does not read.
func (p *position) acknowledged(seat int, text, file string) (ack narrate.Ack, ok bool) {
	if ack, ok := p.checked(seat, file, text); ok {
		return ack, true
	}
	sheet, err := parseSheet(text, file)
	if err != nil || sheet == nil {
		return ack, false
	}
	if sheet.Turn == 0 {
		sheet.Turn = p.State.Turn
	}
	name := p.State.Robots[seat].Name
	rep := orders.Validate(p.setup, p.State, name, sheet)
	Acknowledge(&ack, p.setup, p.State, name, sheet, &rep)
	return ack, true
}

// ownTemplates renders the templates built in, for a caller without the judge's.
func ownTemplates(name string, data any) (string, error) {
	set, err := narrate.BuiltIn()
	if err != nil {
		return "", err
	}
	return set.Text(name, data)
}

var _ game.Refuser = (*position)(nil)

// Refusal is the reply to a refused sheet as on the judge's own path: every problem
// at once, the syntax's and the validation's, in the order of the lines, each with its
// severity, and the marker hint (orders.HintOf) above the advice.
func (p *position) Refusal(seat int, text string, t game.AckTurn) (string, []game.Problem, string, bool) {
	if seat < 0 || seat >= len(p.State.Robots) {
		return "", nil, "", false
	}
	sheet, syntax := parseSheet(text, t.File)
	var ps []orders.Problem
	var out []game.Problem
	var se *orders.SyntaxError
	switch {
	case errors.As(syntax, &se):
		ps = append(ps, se.Problems...)
	case syntax != nil:
		out = append(out, game.Problem{Msg: syntax.Error()})
	}
	if sheet != nil { // validated as far as it was read: every error in one reply
		if sheet.Turn == 0 {
			sheet.Turn = p.State.Turn
		}
		rep := orders.Validate(p.setup, p.State, p.State.Robots[seat].Name, sheet)
		ps = append(ps, rep.Errors()...)
	}
	slices.SortStableFunc(ps, func(a, b orders.Problem) int {
		if a.At.Line != b.At.Line {
			return a.At.Line - b.At.Line
		}
		return a.At.Col - b.At.Col
	})
	for _, pr := range ps {
		// with its severity, as orders.Problem says it ("line 4, column 1: error: ...")
		gp := game.Problem{Line: pr.At.Line, Col: pr.At.Col, Msg: "error: " + pr.Msg}
		if pr.Warning {
			gp.Msg = "warning: " + pr.Msg
		}
		if pr.At.Line == 0 {
			gp.Msg = pr.String() // "sheet: error: ..."
		}
		out = append(out, gp)
	}
	hint := "Correct them and send the whole sheet again; until then your earlier valid orders, if any, stand."
	if h := orders.HintOf(syntax); h != "" {
		hint = h + "\n\n" + hint
	}
	return fmt.Sprintf("Your orders for %s, turn %d of game %s, were NOT accepted:", t.Player, t.Turn, t.Game), out, hint, true
}
