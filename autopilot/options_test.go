package autopilot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/autopilot"
	"github.com/rallyjudge/rallyjudge/orders"
)

// A bot holding Crash & Burn options writes orders for them, and its whole sheet (the
// program and the orders) is valid: what the demo's bots mail when they hold cards.
func TestBotOrdersOptions(t *testing.T) {
	s, st := newGame(t, "sprint", 5, 4)
	cards := adjudicator.DealtOptions(adjudicator.DeckCrashBurn)
	for i := range st.Robots {
		st.Robots[i].Virtual = false
		st.Robots[i].Options = []string{cards[(4*i)%len(cards)], "Flywheel", "Brakes"}
	}
	p := autopilot.New(s)
	for i, r := range st.Robots {
		start := time.Now()
		plan := p.Choose(st, i)
		if d := time.Since(start); d > 2*time.Second {
			t.Logf("%s: Choose took %v (a loaded machine?)", r.Name, d)
		}
		var b strings.Builder
		b.WriteString(r.Name + " Turn 1\n")
		for _, c := range plan.Program {
			if c != 0 {
				b.WriteString("P" + itoa(c) + " ")
			}
		}
		b.WriteString("\n" + strings.Join(plan.Orders, "\n") + "\n")
		sheet, err := orders.Parse([]byte(b.String()))
		if err != nil {
			t.Fatalf("%s: the bot's sheet does not parse: %v\n%s", r.Name, err, b.String())
		}
		for _, pr := range orders.Validate(s, st, r.Name, sheet).Problems {
			if !pr.Warning {
				t.Errorf("%s: %v\n%s", r.Name, pr.Error(), b.String())
			}
		}
		text := b.String()
		for _, want := range []string{"use Flywheel P", "use Brakes if next to a pit"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: no %q in the bot's orders:\n%s", r.Name, want, text)
			}
		}
	}
}

func itoa(n int) string {
	var b [8]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
