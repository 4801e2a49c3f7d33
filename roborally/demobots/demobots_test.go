package demobots

import (
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// A demo whose bots used no option card says so, and what they held (the bug: demo
// --options crash-burn printed what demo prints).
func TestHeldOptionsSaysWhatTheBotsHeld(t *testing.T) {
	st := &adjudicator.State{Robots: []adjudicator.Robot{{Name: "Hulk", Options: []string{"Brakes", "Turret"}}, {Name: "Zoe"}}}
	if got := heldOptions(st); got != "Held at the end: Hulk Brakes, Turret." {
		t.Errorf("heldOptions = %q", got)
	}
	if got := heldOptions(&adjudicator.State{Robots: []adjudicator.Robot{{Name: "Zoe"}}}); !strings.HasPrefix(got, "No robot drew one") {
		t.Errorf("heldOptions with none held = %q", got)
	}
}
