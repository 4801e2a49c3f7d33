package judge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/orders"
	"github.com/rallyjudge/rallyjudge/roborally"
	"github.com/rallyjudge/rallyjudge/roborally/rja"
	"github.com/rallyjudge/rallyjudge/store"
)

// ImportSpec is a game to make from an archive (ImportGame).
type ImportSpec struct {
	Tag  string // the new game's tag
	Name string
	// From is the last turn of the archive kept (a fork: "what if" from there); a
	// negative From keeps every turn (to continue the game).
	From int
	// Emails gives robots' player addresses, by robot name. A robot without one gets a
	// placeholder (seatN@unassigned.invalid) and no welcome mail: a game master sets
	// its address and secret later.
	Emails   map[string]string
	Deadline store.DeadlineRule
	Grace    time.Duration
	Missed   store.MissedPolicy
	List     string
}

// PlaceholderDomain is the domain of the addresses given to imported robots nobody
// plays yet (RFC 2606: .invalid never delivers).
const PlaceholderDomain = "unassigned.invalid"

// ImportGame makes a new game from an archive: it replays the archive through turn
// spec.From (every hash checked: an archive that does not replay exactly is refused
// with the turn that differs), stores the game, its players with fresh secrets
// (returned by robot), and turns 0 to From with their states, events and played
// orders, so the game goes on at turn From+1 (running, or over if the game ended
// there). Each robot's standing orders in force at turn From carry over, stored as an
// order sheet of turn From. The archive's press comes back (a fork's only up to turn
// From; anonymous press with the sender "anonymous", as the archive never knew it). Players with an address are mailed their secret and hand
// (the welcome mail). The course must be the judge's course of that name, exactly
// (the judge looks courses up by name).
func (j *Judge) ImportGame(ctx context.Context, a *rja.Archive, spec ImportSpec) (map[string]string, error) {
	if !tagRE.MatchString(spec.Tag) {
		return nil, fmt.Errorf("import: game tag %q: use 1–40 lower-case letters, digits and dashes", spec.Tag)
	}
	// names reach players' mail and the operator's terminal: an archive is outside input
	if err := checkName("game name", spec.Name); err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	for i, r := range a.Robots {
		if err := checkName(fmt.Sprintf("the archive's robot %d's name", i+1), r); err != nil {
			return nil, fmt.Errorf("import: %w", err)
		}
	}
	last := len(a.Turns) - 1
	if spec.From < 0 {
		spec.From = last
	}
	if spec.From > last {
		return nil, fmt.Errorf("import: turn %d: the archive ends at turn %d", spec.From, last)
	}
	for robot := range spec.Emails {
		if !slices.Contains(a.Robots, robot) {
			return nil, fmt.Errorf("import: no robot %q in the archive (it has %s)", robot, strings.Join(a.Robots, ", "))
		}
	}
	if spec.Missed == "" {
		spec.Missed = store.MissedPowerDown
	}
	if spec.Deadline.Kind == "" {
		spec.Deadline = store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 48}
	}
	// The judge will rebuild the setup from the course name: it must be this course.
	inline, err := a.Course.Build()
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	ours, err := j.Course(a.Course.Name)
	if err != nil {
		return nil, fmt.Errorf("import: course %q: %w (the judge plays only courses it has)", a.Course.Name, err)
	}
	if d := rja.SameCourse(inline, ours); d != "" {
		return nil, fmt.Errorf("import: course %q: the archive's differs from the judge's in %s", a.Course.Name, d)
	}
	setup, err := a.Setup()
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	// option cards must be ones this judge plays (roborally.CheckDeck)
	if err := roborally.CheckDeck(setup.Rules, a.Options); err != nil {
		return nil, fmt.Errorf("import: the archive's %w", err)
	}
	var steps []rja.Step
	if err := rja.Replay(a, setup, spec.From, func(s rja.Step) error {
		steps = append(steps, s.Kept())
		return nil
	}); err != nil {
		return nil, fmt.Errorf("import: the archive does not replay: %w", err)
	}
	final := steps[len(steps)-1].After
	now := j.now()
	rulesJSON, _ := json.Marshal(setup.Rules)
	g := store.Game{
		Tag: spec.Tag, Name: spec.Name, Course: a.Course.Name, Rules: rulesJSON, Seed: a.Seed,
		Deadline: spec.Deadline, Grace: spec.Grace, Missed: spec.Missed, Status: store.GameRunning,
		ListAddress: spec.List, Created: now,
	}
	if final.Over {
		g.Status = store.GameOver
	} else if g.DeadlineAt, err = spec.Deadline.Next(now); err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	secrets := map[string]string{}
	err = j.Store.Tx(ctx, func(tx *store.Tx) error {
		if _, err := tx.GameByTag(g.Tag); err == nil {
			return fmt.Errorf("import: there is a game %s already; choose another tag (--tag NEW)", g.Tag)
		} else if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		id, err := tx.CreateGame(g)
		if err != nil {
			return err
		}
		g.ID = id
		// The seats are the course's, as CREATE sets them (createGameIn): LIST and
		// REPLACE count them.
		var o Options
		if seats := courseSeats(setup.Course); seats < adjudicator.MaxRobots {
			o.MaxPlayers = seats
		}
		if err := setOptions(tx, id, o); err != nil {
			return err
		}
		for _, s := range steps {
			tn := store.Turn{GameID: id, Number: s.Turn, Resolved: now}
			tn.After, _ = json.Marshal(s.After)
			tn.Events, _ = json.Marshal(s.Events)
			if s.Turn > 0 {
				tn.Before, _ = json.Marshal(s.Before)
				tn.Orders, _ = json.Marshal(s.Played)
			}
			if s.Turn == 0 {
				tn.Events = []byte("[]") // as CreateGame stores it
			}
			if _, err := tx.SaveTurn(tn); err != nil {
				return err
			}
		}
		// Press: the messages sent before turn From resolved (on the lines 0 to
		// From-1), and, when the game goes on where the archive ends, those sent
		// since (on line From). A fork leaves out the press of the original's future.
		// Anonymous press comes back anonymous: the archive never knew its sender.
		for n := 0; n <= spec.From; n++ {
			if n == spec.From && spec.From != last {
				break
			}
			for _, p := range a.Turns[n].Press {
				sp := store.Press{GameID: id, Turn: n + 1, From: p.From, To: p.To, Signed: p.From != rja.Anonymous, Body: p.Text, Sent: now}
				if _, err := tx.AddPress(sp); err != nil {
					return err
				}
			}
		}
		// Standing orders in force: what answered each robot's decisions in the last
		// turn kept, stored as that turn's sheet, so the judge folds them in.
		if spec.From > 0 {
			for _, p := range steps[len(steps)-1].Played {
				if p.Sheet == nil || len(p.Sheet.Rules) == 0 {
					continue
				}
				sheet := orders.Sheet{Game: spec.Tag, Robot: p.Robot, Turn: spec.From, Rules: p.Sheet.Rules}
				parsed, _ := json.Marshal(&sheet)
				if _, err := tx.AddOrders(store.OrderSheet{GameID: id, Turn: spec.From, Robot: p.Robot,
					Raw: "(standing orders imported from archive " + a.Game + ")", Parsed: parsed, Valid: true, Received: now}); err != nil {
					return err
				}
			}
		}
		// Players with an address first: the welcome mail goes to the players stored
		// so far; placeholders are added after it.
		add := func(seat int, robot, email string) error {
			sec, hash, err := j.newSecret()
			if err != nil {
				return err
			}
			if _, err := tx.AddPlayer(store.Player{GameID: id, Robot: robot, Seat: seat, Email: email, SecretHash: hash, Created: now}); err != nil {
				return err
			}
			secrets[robot] = sec
			return nil
		}
		for seat, robot := range a.Robots {
			if e := spec.Emails[robot]; e != "" {
				if err := add(seat, robot, e); err != nil {
					return err
				}
			}
		}
		if g.Status == store.GameRunning {
			if err := tx.SetDeadline(id, g.DeadlineAt); err != nil {
				return err
			}
			if err := j.enqueueWelcome(tx, g, setup, final, secrets); err != nil {
				return err
			}
		}
		for seat, robot := range a.Robots {
			if spec.Emails[robot] == "" {
				if err := add(seat, robot, fmt.Sprintf("seat%d@%s", seat+1, PlaceholderDomain)); err != nil {
					return err
				}
			}
		}
		_, err = tx.Audit(store.AuditEntry{At: now, GameID: id, Actor: "gm", Action: "import",
			Detail: fmt.Sprintf("from archive of %s, turns 0-%d, course %s, %d players", a.Game, spec.From, g.Course, len(a.Robots))})
		if err != nil {
			return err
		}
		// RoboRally behind the seam: the game imported as stored before it, adopted
		// at once (legacy.go)
		if k, l := j.legacyKind(); l != nil {
			if _, err := j.adoptIn(tx, id, k, l, false); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	j.Log.Info("game imported", "game", g.Tag, "from", a.Game, "turn", spec.From)
	return secrets, nil
}
