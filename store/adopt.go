package store

import (
	"encoding/json"
	"fmt"
)

// The writes that hand a game stored before the game seam (games.game = '') to the
// game that takes it over (judge/legacy.go): the row's game and settings, its turns'
// columns and its order versions' readings, re-encoded by the game (game.Legacy). The
// judge makes them in one transaction per game; the store does not read the bytes.

// AdoptGame names the game a row stored before the seam plays and sets its settings;
// ErrNotFound when the row names a game already (another judge adopted it).
func (t *Tx) AdoptGame(gameID int64, kind string, rules json.RawMessage) error {
	if kind == "" {
		return fmt.Errorf("store: adopt game %d: no game named", gameID)
	}
	if !json.Valid(rules) {
		return fmt.Errorf("store: adopt game %d: settings are not JSON", gameID)
	}
	return t.updateOne(fmt.Sprintf("adopt game %d", gameID),
		`UPDATE games SET game = ?, rules_json = ? WHERE id = ? AND game = ''`, kind, string(rules), gameID)
}

// RewriteTurn replaces a stored turn's states, events and orders (turn ID tn.ID); the
// number, times and void mark stay.
func (t *Tx) RewriteTurn(tn Turn) error {
	for what, b := range map[string]json.RawMessage{"state after": tn.After, "events": tn.Events} {
		if !json.Valid(b) {
			return fmt.Errorf("store: rewrite turn %d of game %d: %s are not JSON", tn.Number, tn.GameID, what)
		}
	}
	played := tn.Orders
	if len(played) == 0 {
		played = json.RawMessage("[]")
	}
	return t.updateOne(fmt.Sprintf("rewrite turn %d of game %d", tn.Number, tn.GameID),
		`UPDATE turns SET state_before = ?, state_after = ?, events = ?, orders = ? WHERE id = ? AND game_id = ?`,
		nullJSON(tn.Before), string(tn.After), string(tn.Events), string(played), tn.ID, tn.GameID)
}

// SetOrderParsed replaces a stored order version's reading.
func (t *Tx) SetOrderParsed(id int64, parsed json.RawMessage) error {
	if !json.Valid(parsed) {
		return fmt.Errorf("store: order version %d: reading is not JSON", id)
	}
	return t.updateOne(fmt.Sprintf("set the reading of order version %d", id),
		`UPDATE orders SET parsed = ? WHERE id = ?`, string(parsed), id)
}
