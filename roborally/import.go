package roborally

import (
	"encoding/json"
	"fmt"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/orders"
	"github.com/rallyjudge/rallyjudge/roborally/rja"
)

var _ game.Importer = Kind{}

// Import makes a new game of an .rja archive (game.Importer): it replays the archive
// through turn as.From with every hash checked, and gives the game as stored behind the
// seam, made as adoption makes a game stored before it (Adopt) from the rows the judge
// kept on its older path: each turn's states, events and played orders, and each
// robot's standing orders in force at turn From as an order version of that turn, so
// the judge folds them in. The course must be the Kind's course of that name, exactly
// (a judge looks courses up by name), and the option cards ones it plays. Press up to
// turn From comes back (all of it when the game goes on where the archive ends).
func (k Kind) Import(ga game.Archive, as game.ImportAs) (game.Imported, error) {
	a, ok := ga.(*rja.Archive)
	if !ok {
		return game.Imported{}, fmt.Errorf("game %s: not an .rja archive", ga.Tag())
	}
	last := len(a.Turns) - 1
	if as.From < 0 || as.From > last {
		return game.Imported{}, fmt.Errorf("turn %d: the archive ends at turn %d", as.From, last)
	}
	// The judge will rebuild the setup from the course name: it must be this course.
	inline, err := a.Course.Build()
	if err != nil {
		return game.Imported{}, err
	}
	ours, err := k.course(a.Course.Name)
	if err != nil {
		return game.Imported{}, fmt.Errorf("course %q: %w (the judge plays only courses it has)", a.Course.Name, err)
	}
	if d := rja.SameCourse(inline, ours); d != "" {
		return game.Imported{}, fmt.Errorf("course %q: the archive's differs from the judge's in %s", a.Course.Name, d)
	}
	setup, err := a.Setup()
	if err != nil {
		return game.Imported{}, err
	}
	if err := CheckDeck(setup.Rules, a.Options); err != nil {
		return game.Imported{}, fmt.Errorf("the archive's %w", err)
	}
	var steps []rja.Step
	if err := rja.Replay(a, setup, as.From, func(s rja.Step) error {
		steps = append(steps, s.Kept())
		return nil
	}); err != nil {
		return game.Imported{}, fmt.Errorf("the archive does not replay: %w", err)
	}
	rules, err := json.Marshal(setup.Rules)
	if err != nil {
		return game.Imported{}, err
	}
	old := game.LegacyGame{Tag: as.Tag, Course: a.Course.Name, Rules: rules, Missed: as.Missed, Seed: a.Seed, Seats: a.Robots}
	for _, s := range steps {
		tn := game.LegacyTurn{Number: s.Turn}
		tn.After, _ = json.Marshal(s.After)
		tn.Events, _ = json.Marshal(s.Events)
		if s.Turn > 0 {
			tn.Before, _ = json.Marshal(s.Before)
			tn.Orders, _ = json.Marshal(s.Played)
		} else {
			tn.Events = []byte("[]") // as the judge stores a new game's
		}
		old.Turns = append(old.Turns, tn)
	}
	// Standing orders in force: what answered each robot's decisions in the last turn
	// kept, an order version of that turn.
	if as.From > 0 {
		for _, p := range steps[len(steps)-1].Played {
			if p.Sheet == nil || len(p.Sheet.Rules) == 0 {
				continue
			}
			seat := seatOf(a.Robots, p.Robot)
			sheet := orders.Sheet{Game: as.Tag, Robot: p.Robot, Turn: as.From, Rules: p.Sheet.Rules}
			parsed, err := json.Marshal(&sheet)
			if err != nil {
				return game.Imported{}, err
			}
			old.Versions = append(old.Versions, game.LegacyVersion{Turn: as.From, Seat: seat, Parsed: parsed})
		}
	}
	got, err := k.Adopt(old)
	if err != nil {
		return game.Imported{}, err
	}
	if len(got.Turns) != len(old.Turns) || len(got.Versions) != len(old.Versions) {
		return game.Imported{}, fmt.Errorf("game %s: adopted %d turns and %d order versions for %d and %d", as.Tag,
			len(got.Turns), len(got.Versions), len(old.Turns), len(old.Versions))
	}
	out := game.Imported{Config: got.Config, Seed: a.Seed, Seats: a.Robots, Turns: got.Turns,
		Over: steps[len(steps)-1].After.Over}
	for i, v := range old.Versions {
		out.Versions = append(out.Versions, game.ImportedVersion{Turn: v.Turn, Seat: v.Seat, Parsed: got.Versions[i]})
	}
	// Press: the messages sent before turn From resolved (on the lines 0 to From-1),
	// and, when the game goes on where the archive ends, those sent since (on line
	// From). A fork leaves out the press of the original's future. Anonymous press
	// comes back anonymous: the archive never knew its sender.
	for n := 0; n <= as.From; n++ {
		if n == as.From && as.From != last {
			break
		}
		for _, p := range a.Turns[n].Press {
			out.Press = append(out.Press, game.RecordPress{Turn: n + 1, From: p.From, To: p.To, Signed: p.From != rja.Anonymous, Body: p.Text})
		}
	}
	return out, nil
}

func seatOf(robots []string, name string) int {
	for i, r := range robots {
		if r == name {
			return i
		}
	}
	return -1
}
