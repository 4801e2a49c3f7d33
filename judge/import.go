package judge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rallyjudge/rallyjudge/game"
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

// ImportGame makes a new game from an archive, through its game (game.Importer): the
// game replays the archive through turn spec.From (every hash checked: an archive that
// does not replay exactly is refused with the turn that differs) and gives the game as
// it stands there in its own encodings; the judge stores it as a game behind the seam,
// its players with fresh secrets (returned by name), and turns 0 to From with their
// positions, events and moves played, so the game goes on at turn From+1 (running, or
// over if the game ended there). The order versions the game keeps (RoboRally: each
// robot's standing orders in force at turn From) are stored as valid versions. The
// archive's press comes back (a fork's only up to turn From; anonymous press with the
// sender "anonymous", as the archive never knew it). Players with an address are
// mailed their secret and the position (the welcome mail). What the judge could not go
// on playing (RoboRally: a course that is not the judge's course of that name,
// exactly) the game refuses.
func (j *Judge) ImportGame(ctx context.Context, a game.Archive, spec ImportSpec) (map[string]string, error) {
	if !tagRE.MatchString(spec.Tag) {
		return nil, fmt.Errorf("import: game tag %q: use 1–40 lower-case letters, digits and dashes", spec.Tag)
	}
	// names reach players' mail and the operator's terminal: an archive is outside input
	if err := checkName("game name", spec.Name); err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	last := a.Last()
	if spec.From < 0 {
		spec.From = last
	}
	if spec.From > last {
		return nil, fmt.Errorf("import: turn %d: the archive ends at turn %d", spec.From, last)
	}
	if spec.Missed == "" {
		spec.Missed = store.MissedPowerDown
	}
	if spec.Deadline.Kind == "" {
		spec.Deadline = store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 48}
	}
	k, err := j.Games.Lookup(a.Kind())
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	imp, ok := k.(game.Importer)
	if !ok {
		return nil, fmt.Errorf("import: %s games cannot be made from an archive", k.Title())
	}
	got, err := imp.Import(a, game.ImportAs{Tag: spec.Tag, From: spec.From, Missed: string(spec.Missed)})
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	for i, r := range got.Seats {
		if err := checkName(fmt.Sprintf("the archive's robot %d's name", i+1), r); err != nil {
			return nil, fmt.Errorf("import: %w", err)
		}
	}
	for robot := range spec.Emails {
		if !slices.Contains(got.Seats, robot) {
			return nil, fmt.Errorf("import: no robot %q in the archive (it has %s)", robot, strings.Join(got.Seats, ", "))
		}
	}
	if len(got.Turns) != spec.From+1 {
		return nil, fmt.Errorf("import: %s gave %d turns for turns 0 to %d", k.Title(), len(got.Turns), spec.From)
	}
	cfg, err := k.LoadConfig(got.Config)
	if err != nil {
		return nil, fmt.Errorf("import: settings: %w", err)
	}
	final := got.Turns[len(got.Turns)-1]
	pos, err := k.Load(cfg, final.After)
	if err != nil {
		return nil, fmt.Errorf("import: turn %d: %w", spec.From, err)
	}
	now := j.now()
	g := store.Game{
		Tag: spec.Tag, Name: spec.Name, Kind: k.Name(), Rules: got.Config, Seed: got.Seed,
		Deadline: spec.Deadline, Grace: spec.Grace, Missed: spec.Missed, Status: store.GameRunning,
		ListAddress: spec.List, Created: now,
	}
	if u, ok := k.(game.Unadopter); ok {
		// a game of a Legacy kind keeps the course column its games made before the
		// seam have, as CREATE's do (LIST shows it)
		if g.Course, _, err = u.UnadoptConfig(got.Config); err != nil {
			return nil, fmt.Errorf("import: settings: %w", err)
		}
	}
	if got.Over {
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
		// The seats are the game's, as CREATE sets them: LIST and REPLACE count them.
		_, hi := cfg.Seats()
		if err := setOptions(tx, id, Options{MaxPlayers: hi}); err != nil {
			return err
		}
		for n, at := range got.Turns {
			tn := store.Turn{GameID: id, Number: n, Resolved: now, Before: at.Before, After: at.After, Events: at.Events}
			if n > 0 {
				var played []hostedPlayed
				for _, m := range at.Played {
					hp := hostedPlayed{Seat: m.Seat, Move: m.Move, Missed: m.Missed}
					if m.Seat >= 0 && m.Seat < len(got.Seats) {
						hp.Player = got.Seats[m.Seat]
					}
					played = append(played, hp)
				}
				if tn.Orders, err = json.Marshal(played); err != nil {
					return err
				}
			}
			if _, err := tx.SaveTurn(tn); err != nil {
				return err
			}
		}
		for _, p := range got.Press {
			sp := store.Press{GameID: id, Turn: p.Turn, From: p.From, To: p.To, Signed: p.Signed, Body: p.Body, Sent: now}
			if _, err := tx.AddPress(sp); err != nil {
				return err
			}
		}
		for _, v := range got.Versions {
			if v.Seat < 0 || v.Seat >= len(got.Seats) {
				return fmt.Errorf("import: %s kept orders of seat %d of %d", k.Title(), v.Seat+1, len(got.Seats))
			}
			if _, err := tx.AddOrders(store.OrderSheet{GameID: id, Turn: v.Turn, Robot: got.Seats[v.Seat],
				Raw: "(standing orders imported from archive " + a.Tag() + ")", Parsed: v.Parsed, Valid: true, Received: now}); err != nil {
				return err
			}
		}
		// Players with an address first: the welcome mail goes to the players stored
		// so far; placeholders are added after it.
		var welcomed []store.Player
		add := func(seat int, robot, email string) error {
			sec, hash, err := j.newSecret()
			if err != nil {
				return err
			}
			p := store.Player{GameID: id, Robot: robot, Seat: seat, Email: email, SecretHash: hash, Created: now}
			if p.ID, err = tx.AddPlayer(p); err != nil {
				return err
			}
			secrets[robot] = sec
			if email == spec.Emails[robot] {
				welcomed = append(welcomed, p)
			}
			return nil
		}
		for seat, robot := range got.Seats {
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
			g.CurrentTurn = spec.From + 1
			if err := j.welcomeHosted(tx, g, hosted{kind: k, cfg: cfg, pos: pos}, welcomed, secrets); err != nil {
				return err
			}
		}
		for seat, robot := range got.Seats {
			if spec.Emails[robot] == "" {
				if err := add(seat, robot, fmt.Sprintf("seat%d@%s", seat+1, PlaceholderDomain)); err != nil {
					return err
				}
			}
		}
		_, err = tx.Audit(store.AuditEntry{At: now, GameID: id, Actor: "gm", Action: "import",
			Detail: fmt.Sprintf("from archive of %s, turns 0-%d, %s, %d players", a.Tag(), spec.From, cfg.Text(), len(got.Seats))})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	j.Log.Info("game imported", "game", g.Tag, "from", a.Tag(), "turn", spec.From)
	return secrets, nil
}
