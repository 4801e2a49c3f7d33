package judge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/store"
)

// The games stored before the judge played RoboRally behind the game seam are rows
// that name no game (store.Game.Kind ""), played on the judge's older path. When a game
// the judge hosts takes them over (game.Legacy: roborally.Kind, once it is in
// j.Games), AdoptLegacy hands each to it at start, as stored, and writes back what it
// gives: the row's game and settings, every live turn's positions, events and moves,
// and every valid order version's move. One transaction a game, under the game's lock:
// a game the Kind cannot read (hostile or damaged bytes) is left as it was, on the
// older path, and its error names the game and the turn.

// legacyKind is the game of j.Games that adopts the games stored before the seam; nil
// when none does.
func (j *Judge) legacyKind() (game.Kind, game.Legacy) {
	for _, k := range j.Games {
		if l, ok := k.(game.Legacy); ok {
			return k, l
		}
	}
	return nil, nil
}

// AdoptLegacy adopts every game stored before the seam (see above): how many it
// adopted, and an error joining those of the games it could not (each left as it
// was). It does nothing when no game of j.Games is a game.Legacy.
func (j *Judge) AdoptLegacy(ctx context.Context) (int, error) {
	k, l := j.legacyKind()
	if l == nil {
		return 0, nil
	}
	var ids []int64
	if err := j.Store.View(ctx, func(tx *store.Tx) error {
		gs, err := tx.Games()
		if err != nil {
			return err
		}
		for _, g := range gs {
			if g.Kind == "" {
				ids = append(ids, g.ID)
			}
		}
		return nil
	}); err != nil {
		return 0, err
	}
	n := 0
	var errs []error
	for _, id := range ids {
		adopted := false
		err := j.Store.Tx(ctx, func(tx *store.Tx) error {
			if ok, err := tx.LockGame(id); err != nil || !ok {
				if err == nil {
					err = errGameBusy
				}
				return err
			}
			var err error
			adopted, err = j.adoptIn(tx, id, k, l, true)
			return err
		})
		switch {
		case err != nil:
			j.Log.Error("a game stored before the seam could not be adopted: it stays on the older path", "kind", k.Name(), "err", err)
			errs = append(errs, err)
		case adopted:
			n++
		}
	}
	j.seatFolds.reset() // the versions' readings were rewritten
	j.positions.reset()
	if n > 0 {
		j.Log.Info("games stored before the seam adopted", "kind", k.Name(), "games", n)
	}
	return n, errors.Join(errs...)
}

// adoptIn adopts game id inside tx; false when the row names a game already. audit:
// the audit log says so (not for a game created or imported in the same transaction).
func (j *Judge) adoptIn(tx *store.Tx, id int64, k game.Kind, l game.Legacy, audit bool) (bool, error) {
	g, err := tx.Game(id)
	if err != nil {
		return false, err
	}
	if g.Kind != "" {
		return false, nil
	}
	opts, err := j.optionsOf(tx, g)
	if err != nil {
		return false, err
	}
	players, err := tx.Players(g.ID)
	if err != nil {
		return false, fmt.Errorf("game %s: %w", g.Tag, err)
	}
	old := game.LegacyGame{Tag: g.Tag, Course: g.Course, Rules: g.Rules, Missed: opts.Missed, Seed: g.Seed}
	if old.Missed == "" {
		old.Missed = string(g.Missed)
	}
	seatOf := map[string]int{}
	for _, p := range players {
		if p.Seat < 0 || p.Seat >= len(players) || (len(old.Seats) > p.Seat && old.Seats[p.Seat] != "") {
			return false, fmt.Errorf("game %s: player %s has seat %d of %d", g.Tag, p.Robot, p.Seat+1, len(players))
		}
		for len(old.Seats) <= p.Seat {
			old.Seats = append(old.Seats, "")
		}
		old.Seats[p.Seat] = p.Robot
		seatOf[strings.ToLower(p.Robot)] = p.Seat
	}
	turns, err := tx.LiveTurns(g.ID)
	if err != nil {
		return false, fmt.Errorf("game %s: %w", g.Tag, err)
	}
	for _, tn := range turns {
		old.Turns = append(old.Turns, game.LegacyTurn{Number: tn.Number, Before: tn.Before, After: tn.After, Events: tn.Events, Orders: tn.Orders})
	}
	var versions []store.OrderSheet
	for turn := 1; turn <= g.CurrentTurn && len(turns) > 0; turn++ {
		for _, p := range players {
			vs, err := tx.ValidOrderVersionsAfter(g.ID, turn, p.Robot, 0)
			if err != nil {
				return false, fmt.Errorf("game %s turn %d: %w", g.Tag, turn, err)
			}
			for _, v := range vs {
				versions = append(versions, v)
				old.Versions = append(old.Versions, game.LegacyVersion{Turn: turn, Seat: seatOf[strings.ToLower(v.Robot)], Parsed: v.Parsed})
			}
		}
	}
	got, err := l.Adopt(old)
	if err != nil {
		return false, fmt.Errorf("game %s: %w", g.Tag, err)
	}
	if len(got.Turns) != len(turns) || len(got.Versions) != len(versions) {
		return false, fmt.Errorf("game %s: %s gave %d turns and %d order versions for %d and %d", g.Tag, k.Title(),
			len(got.Turns), len(got.Versions), len(turns), len(versions))
	}
	if _, err := k.LoadConfig(got.Config); err != nil {
		return false, fmt.Errorf("game %s: settings adopted: %w", g.Tag, err)
	}
	if err := tx.AdoptGame(g.ID, k.Name(), got.Config); err != nil {
		return false, err
	}
	for i, tn := range turns {
		at := got.Turns[i]
		var played []hostedPlayed
		for _, m := range at.Played {
			hp := hostedPlayed{Seat: m.Seat, Move: m.Move, Missed: m.Missed}
			if p := playerAt(players, m.Seat); p != nil {
				hp.Player = p.Robot
			}
			played = append(played, hp)
		}
		tn.Before, tn.After, tn.Events = at.Before, at.After, at.Events
		if tn.Orders, err = json.Marshal(played); err != nil {
			return false, err
		}
		if tn.Number == 0 {
			tn.Orders = nil
		}
		if err := tx.RewriteTurn(tn); err != nil {
			return false, fmt.Errorf("game %s turn %d: %w", g.Tag, tn.Number, err)
		}
	}
	for i, v := range versions {
		if err := tx.SetOrderParsed(v.ID, got.Versions[i]); err != nil {
			return false, fmt.Errorf("game %s turn %d: %w", g.Tag, v.Turn, err)
		}
	}
	if !audit {
		return true, nil
	}
	_, err = tx.Audit(store.AuditEntry{At: j.now(), GameID: g.ID, Actor: "judge", Action: "adopt",
		Detail: fmt.Sprintf("stored before the game seam: now played as %s (%d turns, %d order versions)", k.Name(), len(turns), len(versions))})
	return err == nil, err
}
