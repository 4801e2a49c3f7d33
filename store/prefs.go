package store

import (
	"database/sql"
	"errors"
	"fmt"
)

// A player's preferences: whether turn reports carry pictures (migration 004); the time
// zone deadlines are shown in, a WAIT for the turn, an announced absence (migration 005).

// SetPlayerPictures sets whether the player's turn reports show the board picture and
// the turn's animation in their HTML part (true, the default) or not.
func (t *Tx) SetPlayerPictures(playerID int64, on bool) error {
	return t.updateOne(fmt.Sprintf("set pictures of player %d", playerID),
		`UPDATE players SET pictures = ? WHERE id = ?`, boolInt(on), playerID)
}

// PlayerPictures reports whether the player's turn reports carry pictures.
func (t *Tx) PlayerPictures(playerID int64) (bool, error) {
	var on int
	err := t.queryRow(`SELECT pictures FROM players WHERE id = ?`, playerID).Scan(&on)
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	if err != nil {
		return false, fmt.Errorf("store: pictures of player %d: %w", playerID, err)
	}
	return on != 0, nil
}

// PicturesOff is the set of a game's players (by player ID) who switched pictures off.
func (t *Tx) PicturesOff(gameID int64) (map[int64]bool, error) {
	rows, err := t.query(`SELECT id FROM players WHERE game_id = ? AND pictures = 0`, gameID)
	if err != nil {
		return nil, fmt.Errorf("store: pictures of game %d: %w", gameID, err)
	}
	defer rows.Close()
	off := map[int64]bool{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("store: pictures of game %d: %w", gameID, err)
		}
		off[id] = true
	}
	return off, rows.Err()
}

// SetPlayerTimezone sets the zone a player's deadlines are shown in ("" for UTC only).
// The judge checks the name; the store keeps what it is given.
func (t *Tx) SetPlayerTimezone(playerID int64, zone string) error {
	return t.updateOne(fmt.Sprintf("set timezone of player %d", playerID),
		`UPDATE players SET timezone = ? WHERE id = ?`, zone, playerID)
}

// SetPlayerWait sets the turn the player asked to WAIT in (0: no wait).
func (t *Tx) SetPlayerWait(playerID int64, turn int) error {
	return t.updateOne(fmt.Sprintf("set wait of player %d", playerID),
		`UPDATE players SET wait_turn = ? WHERE id = ?`, turn, playerID)
}

// SetPlayerAbsence records an announced absence, dates "YYYY-MM-DD" ("" and "" to
// clear it).
func (t *Tx) SetPlayerAbsence(playerID int64, from, until string) error {
	return t.updateOne(fmt.Sprintf("set absence of player %d", playerID),
		`UPDATE players SET absent_from = ?, absent_until = ? WHERE id = ?`, from, until, playerID)
}
