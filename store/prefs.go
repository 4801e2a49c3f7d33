package store

import (
	"database/sql"
	"errors"
	"fmt"
)

// A player's preferences (migration 004): whether turn reports carry pictures.

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
