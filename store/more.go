package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// What the mail commands and the turn lifecycle need beyond the first schema
// (migration 003): a game's options as JSON, changing a game's settings, removing a
// player from a game that has not started, renumbering seats, void mail.

// GameOptions returns the game's options JSON ("{}" when none were set).
func (t *Tx) GameOptions(gameID int64) (json.RawMessage, error) {
	var s string
	if err := t.queryRow(`SELECT options_json FROM games WHERE id = ?`, gameID).Scan(&s); err != nil {
		return nil, fmt.Errorf("store: options of game %d: %w", gameID, noRows(err))
	}
	return json.RawMessage(s), nil
}

// SetGameOptions replaces the game's options JSON.
func (t *Tx) SetGameOptions(gameID int64, opts json.RawMessage) error {
	if len(opts) == 0 {
		opts = json.RawMessage("{}")
	}
	if !json.Valid(opts) {
		return fmt.Errorf("store: set options of game %d: not JSON", gameID)
	}
	return t.updateOne(fmt.Sprintf("set options of game %d", gameID), `UPDATE games SET options_json = ? WHERE id = ?`, string(opts), gameID)
}

// GameSettings are the columns of a game a game master may change while it runs.
type GameSettings struct {
	Name        string
	Deadline    DeadlineRule
	Grace       time.Duration
	Missed      MissedPolicy
	ListAddress string
}

// SetGameSettings changes a game's name, deadline rule, grace, missed-orders policy and
// list address.
func (t *Tx) SetGameSettings(gameID int64, s GameSettings) error {
	return t.updateOne(fmt.Sprintf("set settings of game %d", gameID),
		`UPDATE games SET name = ?, deadline_kind = ?, deadline_hours = ?, deadline_clock = ?, grace_seconds = ?,
		missed_policy = ?, list_address = ? WHERE id = ?`,
		s.Name, string(s.Deadline.Kind), s.Deadline.Hours, s.Deadline.Clock, int64(s.Grace/time.Second),
		string(s.Missed), s.ListAddress, gameID)
}

// DeletePlayer removes a player from a game that has no turns yet (a game still
// taking players). Once turn 0 exists the seat is part of the record and the
// player can only be withdrawn.
func (t *Tx) DeletePlayer(playerID int64) error {
	var n int
	if err := t.queryRow(`SELECT count(*) FROM turns WHERE game_id = (SELECT game_id FROM players WHERE id = ?)`, playerID).Scan(&n); err != nil {
		return fmt.Errorf("store: delete player %d: %w", playerID, err)
	}
	if n > 0 {
		return fmt.Errorf("store: delete player %d: the game has started; withdraw the player instead", playerID)
	}
	return t.updateOne(fmt.Sprintf("delete player %d", playerID), `DELETE FROM players WHERE id = ?`, playerID)
}

// RenumberSeats gives a game's players the seats 0, 1, 2 … in their present seat order
// (after players left a game that had not started).
func (t *Tx) RenumberSeats(gameID int64) error {
	ps, err := t.Players(gameID)
	if err != nil {
		return err
	}
	for i, p := range ps { // two passes: (game, seat) is unique
		if _, err := t.exec(`UPDATE players SET seat = ? WHERE id = ?`, -1-i, p.ID); err != nil {
			return fmt.Errorf("store: renumber seats of game %d: %w", gameID, err)
		}
	}
	for i, p := range ps {
		if _, err := t.exec(`UPDATE players SET seat = ? WHERE id = ?`, i, p.ID); err != nil {
			return fmt.Errorf("store: renumber seats of game %d: %w", gameID, err)
		}
	}
	return nil
}

// GMByEmail lists the game masters registered with the address: of the game, and
// server-wide ones (GameID 0).
func (t *Tx) GMByEmail(gameID int64, email string) ([]GM, error) {
	all, err := t.GMs(gameID)
	if err != nil {
		return nil, err
	}
	var out []GM
	for _, g := range all {
		if strings.EqualFold(g.Email, email) {
			out = append(out, g)
		}
	}
	return out, nil
}

// ServerGMs lists the server-wide game masters (GameID 0) with the address.
func (t *Tx) ServerGMs(email string) ([]GM, error) {
	rows, err := t.query(`SELECT id, email, secret_hash, created_at FROM gms WHERE game_id IS NULL AND email = ? COLLATE NOCASE ORDER BY id`, email)
	if err != nil {
		return nil, fmt.Errorf("store: server game masters: %w", err)
	}
	defer rows.Close()
	var gs []GM
	for rows.Next() {
		var (
			g       GM
			created string
		)
		if err := rows.Scan(&g.ID, &g.Email, &g.SecretHash, &created); err != nil {
			return nil, fmt.Errorf("store: server game masters: %w", err)
		}
		if g.Created, err = parseTime(created); err != nil {
			return nil, err
		}
		gs = append(gs, g)
	}
	return gs, rows.Err()
}

// OutboxHas reports whether a mail with the Message-ID was ever enqueued.
func (t *Tx) OutboxHas(messageID string) (bool, error) {
	var n int
	if err := t.queryRow(`SELECT count(*) FROM outbox WHERE message_id = ?`, messageID).Scan(&n); err != nil {
		return false, fmt.Errorf("store: outbox has %s: %w", messageID, err)
	}
	return n > 0, nil
}

// LiveOutboxByGame lists the mails about one game and turn that are not void, in the
// order they were enqueued.
func (t *Tx) LiveOutboxByGame(gameID int64, turn int) ([]OutboxMail, error) {
	return t.outbox(`SELECT `+outboxColumns+` FROM outbox WHERE game_id = ? AND turn = ? AND void_at IS NULL ORDER BY id`, gameID, turn)
}

// VoidOutbox marks the mails of a game's turn of the given kinds void (a rolled-back
// turn's reports): pending ones are never sent (failed, "void"), sent ones are kept for
// the record but no longer re-sent, and the Message-ID is freed (see below). It returns how many mails it marked.
func (t *Tx) VoidOutbox(gameID int64, turn int, kinds []string, now time.Time) (int, error) {
	what := fmt.Sprintf("void mail of game %d turn %d", gameID, turn)
	if err := needTime(what, "now", now); err != nil {
		return 0, err
	}
	if len(kinds) == 0 {
		return 0, nil
	}
	args := []any{fmtTime(now), gameID, turn}
	for _, k := range kinds {
		args = append(args, k)
	}
	in := `(?` + strings.Repeat(",?", len(kinds)-1) + `)`
	// A void mail's message_id gets a "voidID." prefix (its raw keeps the header it was
	// sent with), so that the turn resolved again can enqueue its mails under the same
	// deterministic Message-IDs.
	res, err := t.exec(`UPDATE outbox SET void_at = ?, message_id = 'void' || id || '.' || message_id
		WHERE game_id = ? AND turn = ? AND void_at IS NULL AND kind IN `+in, args...)
	if err != nil {
		return 0, fmt.Errorf("store: %s: %w", what, err)
	}
	n, _ := res.RowsAffected()
	if _, err := t.exec(`UPDATE outbox SET status = 'failed', last_error = 'void: the turn was rolled back'
		WHERE game_id = ? AND turn = ? AND status = 'pending' AND void_at IS NOT NULL`, gameID, turn); err != nil {
		return 0, fmt.Errorf("store: %s: %w", what, err)
	}
	return int(n), nil
}

// LiveTurns lists the game's live (not void) turns, turn 0 first.
func (t *Tx) LiveTurns(gameID int64) ([]Turn, error) {
	return queryAll(t, fmt.Sprintf("turns of game %d", gameID), scanTurn,
		`SELECT `+turnColumns+` FROM turns WHERE game_id = ? AND void = 0 ORDER BY number`, gameID)
}

func noRows(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	return err
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
