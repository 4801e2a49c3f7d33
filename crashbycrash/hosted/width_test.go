package hosted

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rallyjudge/rallyjudge/game"
)

// Reports and the guide are read on a phone: game.Report says at most 72 columns. The
// guide's lines were up to 93, "Your cards (...): ..." up to 78, and the set-up line
// grew with the player's name past 72.
func TestReportsAndGuideFitAPhone(t *testing.T) {
	long := []string{"Bartholomew_Longname", "Maximilianus-Second", "Cassiopeia_Thirdname", "Dorotheanna-Fourthly"}
	check := func(what, text string) {
		t.Helper()
		for i, l := range strings.Split(text, "\n") {
			if n := utf8.RuneCountInString(l); n > 72 {
				t.Errorf("%s, line %d: %d columns: %q", what, i+1, n, l)
			}
		}
	}
	k := Kind{}
	check("the guide", k.Guide())
	for _, players := range []string{"2", "4"} {
		cfg, _ := k.Configure(map[string]string{"players": players})
		names := long[:map[string]int{"2": 2, "4": 4}[players]]
		pos, err := k.Start(cfg, names, 5)
		if err != nil {
			t.Fatal(err)
		}
		var events []byte
		for turn := 0; turn < 20 && !t.Failed(); turn++ { // the set-up and some turns of play
			for seat := -1; seat < len(names); seat++ {
				check("the report", pos.Report(seat, events).Text)
			}
			if pos.Over() {
				break
			}
			seat := pos.Due()[0]
			m := pos.Autopilot(seat, 0)
			check("the forecast", pos.Check(seat, m.Text).Forecast)
			res, err := pos.Play(map[int]game.Move{seat: m}, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range res.Story {
				check("the story", s)
			}
			pos, events = res.Next, res.Events
		}
	}
}
