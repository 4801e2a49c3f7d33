package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// ErrTurnConflict is returned (wrapped) by SaveTurn when the turn is not the
// game's current one: it was resolved already, or an earlier one was not.
var ErrTurnConflict = errors.New("turn is not the game's current turn")

// Turn is one resolved turn of a game: the state before and after, and what
// happened. Turn 0 is the set-up: Before is nil and After is the starting state.
type Turn struct {
	ID     int64
	GameID int64
	Number int
	Before json.RawMessage // nil for turn 0
	After  json.RawMessage
	Events json.RawMessage
	// Orders are the orders the engine played, as JSON (the judge's record): with
	// Before they reproduce After.
	Orders   json.RawMessage
	Resolved time.Time
	Void     bool // rolled back; kept for the record
	Voided   time.Time
}

const turnColumns = `id, game_id, number, state_before, state_after, events, orders, resolved_at, void, voided_at`

// SaveTurn records a resolved turn and moves the game on to the next turn
// (current_turn = Number+1). The turn must be the game's current turn, so a
// turn can never be saved twice: a second attempt fails with ErrTurnConflict.
// Commit it in the same Tx as the turn's mail (Enqueue).
func (t *Tx) SaveTurn(tn Turn) (int64, error) {
	what := fmt.Sprintf("save turn %d of game %d", tn.Number, tn.GameID)
	if err := needTime(what, "resolved", tn.Resolved); err != nil {
		return 0, err
	}
	var current int
	if err := t.queryRow(`SELECT current_turn FROM games WHERE id = ?`, tn.GameID).Scan(&current); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			err = ErrNotFound
		}
		return 0, fmt.Errorf("store: %s: %w", what, err)
	}
	if tn.Number != current {
		return 0, fmt.Errorf("store: %s: the game is at turn %d: %w", what, current, ErrTurnConflict)
	}
	if len(tn.After) == 0 {
		return 0, fmt.Errorf("store: %s: no state after the turn", what)
	}
	events := tn.Events
	if len(events) == 0 {
		events = json.RawMessage("[]")
	}
	played := tn.Orders
	if len(played) == 0 {
		played = json.RawMessage("[]")
	}
	id, err := t.insertID(`INSERT INTO turns (game_id, number, state_before, state_after, events, orders, resolved_at)
		VALUES (?,?,?,?,?,?,?)`,
		tn.GameID, tn.Number, nullJSON(tn.Before), string(tn.After), string(events), string(played), fmtTime(tn.Resolved))
	if err != nil {
		return 0, fmt.Errorf("store: %s: %w", what, err)
	}
	if _, err := t.exec(`UPDATE games SET current_turn = ? WHERE id = ?`, tn.Number+1, tn.GameID); err != nil {
		return 0, fmt.Errorf("store: %s: %w", what, err)
	}
	return id, nil
}

// LatestTurn returns the game's last live (not void) turn.
func (t *Tx) LatestTurn(gameID int64) (Turn, error) {
	tn, err := scanTurn(t.queryRow(`SELECT `+turnColumns+` FROM turns
		WHERE game_id = ? AND void = 0 ORDER BY number DESC LIMIT 1`, gameID))
	if err != nil {
		return Turn{}, fmt.Errorf("store: latest turn of game %d: %w", gameID, err)
	}
	return tn, nil
}

// Turn returns live turn n of the game.
func (t *Tx) Turn(gameID int64, n int) (Turn, error) {
	tn, err := scanTurn(t.queryRow(`SELECT `+turnColumns+` FROM turns
		WHERE game_id = ? AND number = ? AND void = 0`, gameID, n))
	if err != nil {
		return Turn{}, fmt.Errorf("store: turn %d of game %d: %w", n, gameID, err)
	}
	return tn, nil
}

// VoidTurnsFrom rolls a game back to the state before turn n: turns n and later
// are marked void (kept, never deleted) and turn n is current again. Orders
// already received for those turns stay, and count again if still valid.
func (t *Tx) VoidTurnsFrom(gameID int64, n int, now time.Time) (int, error) {
	what := fmt.Sprintf("void turns of game %d from %d", gameID, n)
	if n < 1 {
		return 0, fmt.Errorf("store: %s: turn 0 (the set-up) cannot be voided", what)
	}
	res, err := t.exec(`UPDATE turns SET void = 1, voided_at = ? WHERE game_id = ? AND number >= ? AND void = 0`,
		fmtTime(now), gameID, n)
	if err != nil {
		return 0, fmt.Errorf("store: %s: %w", what, err)
	}
	k, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("store: %s: %w", what, err)
	}
	if k == 0 {
		return 0, fmt.Errorf("store: %s: no live turn %d: %w", what, n, ErrNotFound)
	}
	if err := t.updateOne(what, `UPDATE games SET current_turn = ? WHERE id = ?`, n, gameID); err != nil {
		return 0, err
	}
	return int(k), nil
}

func scanTurn(r scanner) (Turn, error) {
	var (
		tn            Turn
		before        sql.NullString
		after, events string
		played        string
		resolved      string
		void          int
		voided        sql.NullString
	)
	err := r.Scan(&tn.ID, &tn.GameID, &tn.Number, &before, &after, &events, &played, &resolved, &void, &voided)
	if errors.Is(err, sql.ErrNoRows) {
		return Turn{}, ErrNotFound
	}
	if err != nil {
		return Turn{}, err
	}
	if before.Valid {
		tn.Before = json.RawMessage(before.String)
	}
	tn.After = json.RawMessage(after)
	tn.Events = json.RawMessage(events)
	tn.Orders = json.RawMessage(played)
	tn.Void = void != 0
	if tn.Resolved, err = parseTime(resolved); err != nil {
		return Turn{}, err
	}
	if tn.Voided, err = parseNullTime(voided); err != nil {
		return Turn{}, err
	}
	return tn, nil
}

// LiveTurns lists the game's live (not void) turns, turn 0 first.
func (t *Tx) LiveTurns(gameID int64) ([]Turn, error) {
	return queryAll(t, fmt.Sprintf("turns of game %d", gameID), scanTurn,
		`SELECT `+turnColumns+` FROM turns WHERE game_id = ? AND void = 0 ORDER BY number`, gameID)
}

// VoidTurns counts a game's void (rolled-back) versions of turn number n: the
// generation of the live one, which report Message-IDs carry so a re-resolved turn's
// reports are new mails.
func (t *Tx) VoidTurns(gameID int64, n int) (int, error) {
	var c int
	if err := t.queryRow(`SELECT count(*) FROM turns WHERE game_id = ? AND number = ? AND void = 1`, gameID, n).Scan(&c); err != nil {
		return 0, fmt.Errorf("store: void turns %d of game %d: %w", n, gameID, err)
	}
	return c, nil
}
