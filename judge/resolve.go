package judge

import (
	"context"
	"errors"
	"time"

	"github.com/rallyjudge/rallyjudge/store"
)

// A turn resolves when every due seat's orders are in (and nothing else holds it), or
// when the deadline (plus grace) passes (Tick). Resolving commits the new position and
// every report in one transaction (the outbox pattern): a crash leaves either the old
// turn with no reports, or the new turn with all of them. The game plays the turn
// (resolveHostedIn, hosted.go).

func playerAt(players []store.Player, seat int) *store.Player {
	for i := range players {
		if players[i].Seat == seat {
			return &players[i]
		}
	}
	return nil
}

// ResolveIfReady resolves the game's current turn when every program is in.
func (j *Judge) ResolveIfReady(ctx context.Context, gameID int64) (bool, error) {
	return j.resolve(ctx, gameID, false, false)
}

// ResolveNow resolves the game's current turn whatever is missing (the deadline passed,
// or a game master said so): missing programs follow the missed-orders policy.
func (j *Judge) ResolveNow(ctx context.Context, gameID int64) (bool, error) {
	return j.resolve(ctx, gameID, true, false)
}

// resolveDue is ResolveNow for the clock: only when the game's deadline (plus grace)
// has passed as the game stands under its lock. Another judge may have resolved the
// turn since the clock read it, opening the next one, whose deadline has not.
func (j *Judge) resolveDue(ctx context.Context, gameID int64) (bool, error) {
	return j.resolve(ctx, gameID, true, true)
}

func (j *Judge) resolve(ctx context.Context, gameID int64, force, due bool) (bool, error) {
	resolved := false
	var tag string
	err := j.Store.Tx(ctx, func(tx *store.Tx) error {
		// One judge resolves a game at a time (store/claims.go): another judge holding
		// the game's lock is resolving it, or judging its mail, and this one leaves it.
		if ok, err := tx.LockGame(gameID); err != nil || !ok {
			if err == nil {
				err = errGameBusy
			}
			return err
		}
		if due {
			g, err := tx.Game(gameID)
			if err != nil {
				return err
			}
			if g.Status != store.GameRunning || g.DeadlineAt.IsZero() || g.DeadlineAt.Add(g.Grace).After(j.now()) {
				return nil
			}
		}
		if force { // the deadline: an absent player may move it (absence.go)
			if deferred, err := j.deferForAbsence(tx, gameID); err != nil || deferred {
				return err
			}
		}
		var err error
		resolved, tag, err = j.resolveIn(tx, gameID, force)
		return err
	})
	if err == nil && resolved {
		if j.stopAt("after-turn-commit") {
			return resolved, nil
		}
		j.Log.Info("turn resolved", "game", tag)
	}
	return resolved, err
}

// resolveIn resolves the game's current turn inside tx (see resolve); a game master's
// PROCESS runs it in the transaction of the command mail.
func (j *Judge) resolveIn(tx *store.Tx, gameID int64, force bool) (resolved bool, tag string, err error) {
	g, err := tx.Game(gameID)
	if err != nil {
		return false, "", err
	}
	if g.Status != store.GameRunning {
		return false, g.Tag, nil
	}
	k, err := j.hostedKind(g)
	if err != nil {
		return false, g.Tag, err
	}
	resolved, err = j.resolveHostedIn(tx, g, k, force)
	return resolved, g.Tag, err
}

func deadlineText(t time.Time) string {
	if t.IsZero() {
		return "(no deadline)"
	}
	return t.UTC().Format("Mon 2 Jan 2006 15:04 UTC")
}

var errNoGame = errors.New("no such game")

// errGameBusy: another judge holds the game's lock (it resolves the game, or judges a
// mail about it); the game is left to it, and looked at again at the next tick.
var errGameBusy = errors.New("another judge holds the game")
