package autopilot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/adjudicator"
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
	for i, r := range st.Robots {
		start := time.Now()
		text, _ := botSheet(t, s, st, i)
		if d := time.Since(start); d > 2*time.Second {
			t.Logf("%s: Choose took %v (a loaded machine?)", r.Name, d)
		}
		for _, want := range []string{"use Flywheel P", "use Brakes if next to a pit"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: no %q in the bot's orders:\n%s", r.Name, want, text)
			}
		}
	}
}

// A bot holding Protection Shield sets its side every turn: the shield is off until an
// order sets it (seed 000, Protection Shield), so a bot that wrote nothing went bare.
func TestBotOrdersProtectionShield(t *testing.T) {
	s, st := newGame(t, "sprint", 5, 4)
	for i := range st.Robots {
		st.Robots[i].Virtual = false
		st.Robots[i].Options = []string{"Protection Shield"}
	}
	for i, r := range st.Robots {
		text, _ := botSheet(t, s, st, i)
		ok := false
		for _, side := range []string{"front", "right", "back", "left"} {
			ok = ok || strings.Contains(text, "use Protection Shield "+side+"\n")
		}
		if !ok {
			t.Errorf("%s: no side set for its Protection Shield:\n%s", r.Name, text)
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
