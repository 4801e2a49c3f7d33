package roborally

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/orders"
	"github.com/rallyjudge/rallyjudge/roborally/narrate"
)

// ackText writes into one buffer (issue 24 item 7): it says what it said, kept here as
// it was.

// ackTextBefore is ackText as it was.
func (p *position) ackTextBefore(seat int, sheet *orders.Sheet, ack narrate.Ack) string {
	var b strings.Builder
	if len(ack.Program) > 0 {
		b.WriteString("Program:\n")
		for _, c := range ack.Program {
			fmt.Fprintf(&b, "  register %d: %s\n", c.Register, c.Name())
		}
	}
	if ack.Shutdown {
		b.WriteString("The robot shuts down for the round.\n")
	}
	if eff := Effective(p.Standing[seat], sheet); eff != nil && len(eff.Rules) > 0 {
		b.WriteString("Standing orders in force:\n")
		for _, r := range eff.Rules {
			b.WriteString(game.Wrap("  "+r.String(), "  ") + "\n")
		}
	}
	for _, w := range ack.Warnings {
		b.WriteString(game.Wrap("Warning: "+w, "  ") + "\n")
	}
	if ack.Forecast != "" {
		b.WriteString(strings.TrimRight(ack.Forecast, "\n") + "\n")
	}
	return b.String()
}

func TestAckTextAsBefore(t *testing.T) {
	long := strings.Repeat("if damage > 4 and lives > 1 then power down else move 1 ", 3)
	n, seen := 0, ""
	for _, p := range readMovePositions(t) {
		for seat := range p.State.Robots {
			prog := programLine(p.setup, p.State, seat, int64(seat+3))
			for _, text := range []string{
				prog + "\n", prog + "\nif damage > 4 then power down\n", "if damage > 4 then power down\n",
				prog + "\n" + long + "\n", "power down\n", prog + "\nshutdown\n", "P1 P2 P3 P4 P5\n",
			} {
				sheet, err := parseSheet(text, "")
				if err != nil || sheet == nil {
					continue
				}
				if sheet.Turn == 0 {
					sheet.Turn = p.State.Turn
				}
				r := p.State.Robots[seat]
				rep := orders.Validate(p.setup, p.State, r.Name, sheet)
				var ack narrate.Ack
				Acknowledge(&ack, p.setup, p.State, r.Name, sheet, &rep)
				ack.Warnings = append(ack.Warnings, "a warning long enough to be wrapped: "+long, "")
				ack.Forecast = fmt.Sprintf("Forecast for %s:\n  it moves.\n\n", r.Name)
				ack.Shutdown = seat == 1
				got, want := p.ackText(seat, sheet, ack), p.ackTextBefore(seat, sheet, ack)
				if got != want {
					t.Errorf("seat %d, %q:\n%s\nwas\n%s", seat, text, got, want)
				}
				seen += got
				n++
			}
		}
	}
	for _, part := range []string{"  register 1: ", "Standing orders in force:\n", "The robot shuts down", "Warning: a warning long enough"} {
		if n < 10 || !strings.Contains(seen, part) {
			t.Fatalf("%d sheets read, none saying %q", n, part)
		}
	}
}
