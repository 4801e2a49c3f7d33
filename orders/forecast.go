package orders

import (
	"fmt"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// Prediction is a forecast of a robot's turn: where it ends each register, with what
// happened on the way, and warnings. It comes from adjudicator.Simulate: the robot's
// program alone on the current board, the other robots standing where they are and
// holding fire (they can still be pushed). The end of turn (repairs, power down) is not
// forecast.
type Prediction struct {
	Robot    string    `json:"robot"`
	Turn     int       `json:"turn"`
	Start    Step      `json:"start"`
	Steps    []Step    `json:"steps"`
	Warnings []Warning `json:"warnings,omitempty"`
	// Own is what a 2023 sheet's forecast adds (forecast2023.go): energy and the SPAM
	// risk; nil under the postal rules.
	Own *OwnForecast `json:"own,omitempty"`
}

// Step is the robot at the end of one register (Register 0: before the first).
type Step struct {
	Register  int             `json:"register"`
	Card      string          `json:"card,omitempty"` // "Move 2 P670"
	Pos       adjudicator.Pos `json:"pos"`
	Facing    adjudicator.Dir `json:"facing"`
	Damage    int             `json:"damage"`
	Energy    int             `json:"energy,omitempty"` // 2023 rules: energy at the end of the register
	Destroyed bool            `json:"destroyed,omitempty"`
	Notes     []string        `json:"notes,omitempty"`
}

// Warning is something a player should look at: the robot is destroyed, ends the turn
// in a laser, misses its flag by a square; or touches a flag (good news, same list).
type Warning struct {
	Register  int    `json:"register"`
	Msg       string `json:"msg"`
	Destroyed bool   `json:"destroyed,omitempty"`
}

// Forecast simulates the sheet's program for robotName on the game as it stands. The
// program must be legal (Validate first); a sheet without a program forecasts the
// program the robot would run with its locked registers only, which the engine refuses
// unless all are locked.
func Forecast(setup *adjudicator.Setup, st *adjudicator.State, robotName string, s *Sheet) (*Prediction, error) {
	idx := robotIndex(st, robotName)
	if idx < 0 {
		return nil, fmt.Errorf("forecast: there is no robot %q", robotName)
	}
	// Ruling R-FORECAST-HIDDEN (docs/orders.md, "The forecast"): the forecast plays the
	// game as the player knows it, never the hidden decks' order, the seed or the other
	// players' cards.
	setup, st = setup.Blind(st, idx)
	r := st.Robots[idx]
	o := s.Orders()
	o.Program = programOf(s, &r)
	own := setup.Rules.Own() && r.Mat != nil
	if own {
		o = s.OwnOrders(&r)
	}
	final, events, err := adjudicator.Simulate(setup, st, idx, o)
	if err != nil {
		return nil, fmt.Errorf("forecast: %w", err)
	}
	f := &Prediction{Robot: r.Name, Turn: st.Turn,
		Start: Step{Pos: r.Pos, Facing: r.Facing, Damage: r.Damage}}
	if own {
		f.Start.Energy = r.Mat.Energy
		f.Own = ownForecast(&r, &final, events)
	}
	cur := f.Start
	cur.Notes = nil
	reg := 0
	flush := func() {
		if reg > 0 {
			f.Steps = append(f.Steps, cur)
		}
		cur.Notes, cur.Card = nil, ""
	}
	cur.Energy = f.Start.Energy
	laserAtEnd := 0
	for _, e := range events {
		if e.Phase == "program" {
			continue // phase programs laid with the program (seed 001): not a register's step
		}
		if e.Register != reg {
			flush()
			reg = e.Register
			cur.Register = reg
		}
		if e.Device != "" || e.Kind == adjudicator.EvExplosion {
			// A device's event names its owner, and an explosion the robot it belongs to:
			// neither is where the robot is (seed 001, Devices).
			if e.Robot == r.Name && e.Kind == adjudicator.EvLaunch {
				cur.Notes = append(cur.Notes, "launches a "+e.Device)
			}
			continue
		}
		if e.Robot != r.Name {
			if e.Other == r.Name && e.Kind == adjudicator.EvPush {
				cur.Notes = appendOnce(cur.Notes, "pushes "+e.Robot)
			}
			continue
		}
		if e.To != nil && e.Kind != adjudicator.EvArchive {
			cur.Pos = *e.To
			if e.Kind == adjudicator.EvReenter {
				cur.Destroyed = false
			}
		}
		if e.Facing != nil {
			cur.Facing = *e.Facing
		}
		switch e.Kind {
		case adjudicator.EvCard:
			cur.Card = cardName(setup, e.Card)
		case adjudicator.EvPush:
			cur.Notes = append(cur.Notes, "pushed by "+e.Other)
		case adjudicator.EvConveyed:
			cur.Notes = appendOnce(cur.Notes, "carried by a belt")
		case adjudicator.EvPushed:
			cur.Notes = append(cur.Notes, "pushed by a pusher")
		case adjudicator.EvRotated:
			cur.Notes = append(cur.Notes, "turned to "+e.Facing.String())
		case adjudicator.EvBlocked:
			if !hasNote(cur.Notes, "blocked") {
				// A register that does not go where its card says is worth a look
				// (issue 22: three blocked registers ended "No warnings.").
				f.Warnings = append(f.Warnings, Warning{Register: reg, Msg: blockedMsg(e, reg)})
			}
			cur.Notes = appendOnce(cur.Notes, "blocked")
		case adjudicator.EvDamage:
			cur.Damage += e.Amount
			cur.Notes = append(cur.Notes, fmt.Sprintf("%d damage (%s)", e.Amount, e.Cause))
			if e.Cause == "laser" && e.Register == adjudicator.Registers {
				laserAtEnd += e.Amount
			}
		case adjudicator.EvPrevented:
			cur.Notes = append(cur.Notes, "discards "+e.Option+" to prevent a damage")
		case adjudicator.EvFlag:
			if own {
				cur.Notes = append(cur.Notes, fmt.Sprintf("reaches checkpoint %d", e.Amount))
				f.Warnings = append(f.Warnings, Warning{Register: reg, Msg: fmt.Sprintf("reaches checkpoint %d in register %d", e.Amount, reg)})
				break
			}
			cur.Notes = append(cur.Notes, fmt.Sprintf("touches flag %d", e.Amount))
			f.Warnings = append(f.Warnings, Warning{Register: reg, Msg: fmt.Sprintf("touches flag %d in register %d", e.Amount, reg)})
		case adjudicator.EvWin:
			if own {
				f.Warnings = append(f.Warnings, Warning{Register: reg, Msg: fmt.Sprintf("reaches the last checkpoint in register %d and wins", reg)})
				break
			}
			f.Warnings = append(f.Warnings, Warning{Register: reg, Msg: fmt.Sprintf("touches the last flag in register %d and wins", reg)})
		case adjudicator.EvEnergy:
			cur.Energy = e.Amount
			if e.Cause != "" {
				cur.Notes = append(cur.Notes, fmt.Sprintf("energy %d (%s)", e.Amount, e.Cause))
			}
		case adjudicator.EvUpgrade:
			if e.Cause == "draw" || e.Cause == "install" {
				cur.Energy -= e.Amount // the energy paid in the upgrade phase (Amount)
			}
		case adjudicator.EvUse:
			cur.Notes = append(cur.Notes, "uses "+e.Option)
		case adjudicator.EvOptionGain:
			// R-FORECAST-HIDDEN: a card drawn from the option deck is never named.
			if e.Option == "" {
				cur.Notes = append(cur.Notes, "draws an option card (unknown to the forecast, which plays on without it)")
			}
		case adjudicator.EvOptionLose:
			if e.Cause == "chop-shop" {
				cur.Notes = append(cur.Notes, "scraps "+e.Option+" at the chop shop")
			}
		case adjudicator.EvSwapped, adjudicator.EvRandomized:
			// R-FORECAST-HIDDEN: the card a randomizer, an Emergency Switch or a Scrambler
			// Bomb puts in the register comes from the draw pile, whose order is hidden.
			if e.Card == 0 {
				why := e.Option
				if why == "" {
					why = "a randomizer"
				}
				cur.Notes = append(cur.Notes, fmt.Sprintf("%s replaces the card by one from the draw pile (unknown to the forecast, which plays yours)", why))
			}
		case adjudicator.EvReplaced:
			cur.Notes = append(cur.Notes, fmt.Sprintf("%s replaced by the top card of the deck (unknown to the forecast)", adjudicator.CardKind(e.Card).Title()))
		case adjudicator.EvReenter:
			cur.Notes = append(cur.Notes, fmt.Sprintf("re-enters at %v facing %v", cur.Pos, cur.Facing))
		case adjudicator.EvReboot:
			cur.Destroyed = true
			if e.From != nil {
				cur.Pos = *e.From
			}
			cur.Notes = append(cur.Notes, "reboots ("+e.Cause+")")
			f.Warnings = append(f.Warnings, Warning{Register: reg, Destroyed: true, Msg: rebootMsg(e.Cause, reg, cur.Pos)})
		case adjudicator.EvDestroyed:
			cur.Destroyed = true
			if e.From != nil {
				cur.Pos = *e.From
			}
			cur.Notes = append(cur.Notes, "destroyed ("+e.Cause+")")
			f.Warnings = append(f.Warnings, Warning{Register: reg, Destroyed: true, Msg: destroyedMsg(e.Cause, reg, cur.Pos)})
		}
	}
	flush()
	if f.Own != nil {
		// Registers with no event still end somewhere: fill them in, so each register
		// shows its energy (the upgrade phase's events come before register 1).
		f.Steps = fillRegisters(f.Steps, f.Start)
	}
	if laserAtEnd > 0 && !final.Destroyed {
		f.Warnings = append(f.Warnings, Warning{Register: adjudicator.Registers,
			Msg: fmt.Sprintf("ends the turn in a laser beam at %v (%d damage in register 5)", cur.Pos, laserAtEnd)})
	}
	if !final.Destroyed && !final.Out && final.Flags < len(setup.Course.Flags) {
		next := setup.Course.Flags[final.Flags]
		if d := abs(next.X-final.Pos.X) + abs(next.Y-final.Pos.Y); d == 1 {
			f.Warnings = append(f.Warnings, Warning{Register: adjudicator.Registers,
				Msg: fmt.Sprintf("misses flag %d by one square (ends at %v, the flag is at %v)", final.Flags+1, final.Pos, next)})
		}
	}
	return f, nil
}

func appendOnce(xs []string, s string) []string {
	for _, x := range xs {
		if x == s {
			return xs
		}
	}
	return append(xs, s)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func hasNote(notes []string, n string) bool {
	for _, x := range notes {
		if x == n {
			return true
		}
	}
	return false
}

// blockedMsg says what stopped the robot in a register, and where.
func blockedMsg(e adjudicator.Event, reg int) string {
	at := ""
	if e.From != nil {
		at = fmt.Sprintf(" at %v", *e.From)
	}
	by := "something in the way"
	switch {
	case e.Cause == "robot" && e.Other != "":
		by = "robot " + e.Other
	case e.Other != "" && e.Cause != "goo" && e.Cause != "":
		// The robot ahead cannot be pushed: a wall (door, ledge, repulsor) behind it
		// stops the chain. The robot is what the mover meets (issue 22: "blocked by a
		// wall" when a robot stood in front).
		by = fmt.Sprintf("robot %s, which a %s behind it keeps from being pushed,", e.Other, e.Cause)
	case e.Cause == "goo" && e.Other != "":
		by = "goo around " + e.Other
	case e.Cause != "":
		by = "a " + e.Cause
	}
	return fmt.Sprintf("is blocked by %s%s in register %d: it does not move as far as its card says", by, at, reg)
}

func destroyedMsg(cause string, reg int, at adjudicator.Pos) string {
	switch cause {
	case "pit":
		return fmt.Sprintf("falls into a pit at %v in register %d", at, reg)
	case "off-board":
		return fmt.Sprintf("drives off the board at %v in register %d", at, reg)
	case "crusher":
		return fmt.Sprintf("is crushed at %v in register %d", at, reg)
	case "damage":
		return fmt.Sprintf("is destroyed by damage in register %d", reg)
	}
	return fmt.Sprintf("is destroyed (%s) in register %d", cause, reg)
}

// String is the forecast as it goes into a mail.
func (f *Prediction) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Forecast for %s, turn %d (the other robots stand still and hold fire):\n", f.Robot, f.Turn)
	if f.Own != nil {
		return f.string2023()
	}
	fmt.Fprintf(&b, "  %-11s %-18s at %-6v facing %v, %d damage\n", "start", "", f.Start.Pos, f.Start.Facing, f.Start.Damage)
	for _, s := range f.Steps {
		where := fmt.Sprintf("at %-6v facing %v, %d damage", s.Pos, s.Facing, s.Damage)
		if s.Destroyed {
			where = fmt.Sprintf("destroyed at %v", s.Pos)
		}
		fmt.Fprintf(&b, "  register %-2d %-18s %s", s.Register, s.Card, where)
		if len(s.Notes) > 0 {
			fmt.Fprintf(&b, "; %s", strings.Join(s.Notes, ", "))
		}
		b.WriteByte('\n')
	}
	if len(f.Warnings) == 0 {
		b.WriteString("No warnings.\n")
		return b.String()
	}
	b.WriteString("Warnings:\n")
	for _, w := range f.Warnings {
		fmt.Fprintf(&b, "  - %s\n", w.Msg)
	}
	return b.String()
}
