package store

import (
	"fmt"
	"strings"
	"time"
)

// People around a game who do not play a robot (migration 005): observers, who get the
// public report, and standby players, who offer to take over a robot whose player left.

// Watcher is an observer or a standby player of a game.
type Watcher struct {
	ID      int64
	GameID  int64
	Email   string
	Created time.Time
}

// AddObserver registers email as an observer of the game; false when it was already.
func (t *Tx) AddObserver(gameID int64, email string, now time.Time) (bool, error) {
	return t.addWatcher("observers", gameID, email, now)
}

// RemoveObserver removes an observer; false when email was none.
func (t *Tx) RemoveObserver(gameID int64, email string) (bool, error) {
	return t.removeWatcher("observers", gameID, email)
}

// Observers lists a game's observers in the order they came.
func (t *Tx) Observers(gameID int64) ([]Watcher, error) {
	return t.watchers("observers", gameID)
}

// AddStandby registers email as a standby player of the game; false when it was already.
func (t *Tx) AddStandby(gameID int64, email string, now time.Time) (bool, error) {
	return t.addWatcher("standbys", gameID, email, now)
}

// RemoveStandby removes a standby player; false when email was none.
func (t *Tx) RemoveStandby(gameID int64, email string) (bool, error) {
	return t.removeWatcher("standbys", gameID, email)
}

// Standbys lists a game's standby players, first come first.
func (t *Tx) Standbys(gameID int64) ([]Watcher, error) {
	return t.watchers("standbys", gameID)
}

// table is one of two constants above, never outside input.
func (t *Tx) addWatcher(table string, gameID int64, email string, now time.Time) (bool, error) {
	what := fmt.Sprintf("add %s %q to game %d", strings.TrimSuffix(table, "s"), email, gameID)
	if err := needTime(what, "now", now); err != nil {
		return false, err
	}
	if strings.TrimSpace(email) == "" {
		return false, fmt.Errorf("store: %s: no address", what)
	}
	res, err := t.exec(`INSERT INTO `+table+` (game_id, email, created_at) VALUES (?,?,?) ON CONFLICT DO NOTHING`, gameID, email, fmtTime(now))
	if err != nil {
		return false, fmt.Errorf("store: %s: %w", what, err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

func (t *Tx) removeWatcher(table string, gameID int64, email string) (bool, error) {
	res, err := t.exec(`DELETE FROM `+table+` WHERE game_id = ? AND email = ? COLLATE NOCASE`, gameID, email)
	if err != nil {
		return false, fmt.Errorf("store: remove %q from %s of game %d: %w", email, table, gameID, err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

func (t *Tx) watchers(table string, gameID int64) ([]Watcher, error) {
	return queryAll(t, fmt.Sprintf("%s of game %d", table, gameID), func(r scanner) (Watcher, error) {
		var w Watcher
		var created string
		if err := r.Scan(&w.ID, &w.GameID, &w.Email, &created); err != nil {
			return w, err
		}
		var err error
		w.Created, err = parseTime(created)
		return w, err
	}, `SELECT id, game_id, email, created_at FROM `+table+` WHERE game_id = ? ORDER BY id`, gameID)
}
