package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// GameStatus is where a game is in its life.
type GameStatus string

// The game statuses.
const (
	GameOpen    GameStatus = "open"    // set up, taking players
	GameRunning GameStatus = "running" // turns being played
	GamePaused  GameStatus = "paused"  // no deadlines run; orders still accepted
	GameOver    GameStatus = "over"    // finished; nothing more happens
)

// MissedPolicy is what a robot does in a turn its player sent no valid orders for.
type MissedPolicy string

// The missed-orders policies.
const (
	MissedPowerDown MissedPolicy = "powerdown" // the robot powers down for the turn
	MissedRandom    MissedPolicy = "random"    // a random legal program is played
)

// DeadlineKind says how a turn's deadline is set.
type DeadlineKind string

// The deadline kinds.
const (
	DeadlineFixed       DeadlineKind = "fixed"        // every day at Clock (UTC)
	DeadlineAfterReport DeadlineKind = "after_report" // Hours after the last report went out
)

// DeadlineRule is a game's deadline rule.
type DeadlineRule struct {
	Kind  DeadlineKind
	Hours int    // DeadlineAfterReport: hours after the last report
	Clock string // DeadlineFixed: "HH:MM", UTC
}

// Next is the deadline of a turn whose report went out at lastReport.
func (r DeadlineRule) Next(lastReport time.Time) (time.Time, error) {
	switch r.Kind {
	case DeadlineAfterReport:
		if r.Hours <= 0 {
			return time.Time{}, fmt.Errorf("store: deadline: after_report needs hours > 0, got %d", r.Hours)
		}
		return lastReport.Add(time.Duration(r.Hours) * time.Hour), nil
	case DeadlineFixed:
		c, err := time.Parse("15:04", r.Clock)
		if err != nil {
			return time.Time{}, fmt.Errorf("store: deadline: fixed clock %q: want HH:MM (UTC)", r.Clock)
		}
		u := lastReport.UTC()
		d := time.Date(u.Year(), u.Month(), u.Day(), c.Hour(), c.Minute(), 0, 0, time.UTC)
		if !d.After(u) {
			d = d.AddDate(0, 0, 1)
		}
		return d, nil
	}
	return time.Time{}, fmt.Errorf("store: deadline: unknown kind %q", r.Kind)
}

// Game is one game: its course, rules and timetable.
type Game struct {
	ID          int64
	Tag         string // unique; the subject tag names it: [RR spring-open]
	Name        string
	Course      string
	Rules       json.RawMessage // the rules options, as the engine wrote them
	Seed        int64
	Deadline    DeadlineRule
	DeadlineAt  time.Time // the current turn's deadline; zero when none is set
	Grace       time.Duration
	Missed      MissedPolicy
	Status      GameStatus
	CurrentTurn int // the turn whose orders are being collected
	ListAddress string
	Created     time.Time
	// Kind is the game played, by the name its package gives it behind the game seam
	// (package game); "" for RoboRally as the judge played it before the seam.
	Kind string
}

const gameColumns = `id, tag, name, course, rules_json, seed, deadline_kind, deadline_hours,
	deadline_clock, deadline_at, grace_seconds, missed_policy, status, current_turn, list_address, created_at, game`

// CreateGame inserts g (its ID is ignored) and returns its new ID. Status
// defaults to open, Rules to {}.
func (t *Tx) CreateGame(g Game) (int64, error) {
	if strings.TrimSpace(g.Tag) == "" {
		return 0, errors.New("store: create game: empty tag")
	}
	if err := needTime(fmt.Sprintf("create game %q", g.Tag), "created", g.Created); err != nil {
		return 0, err
	}
	if g.Status == "" {
		g.Status = GameOpen
	}
	if len(g.Rules) == 0 {
		g.Rules = json.RawMessage("{}")
	}
	id, err := t.insertID(`INSERT INTO games (tag, name, course, rules_json, seed, deadline_kind, deadline_hours,
		deadline_clock, deadline_at, grace_seconds, missed_policy, status, current_turn, list_address, created_at, game)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		g.Tag, g.Name, g.Course, string(g.Rules), g.Seed, string(g.Deadline.Kind), g.Deadline.Hours,
		g.Deadline.Clock, nullTime(g.DeadlineAt), int64(g.Grace/time.Second), string(g.Missed), string(g.Status),
		g.CurrentTurn, g.ListAddress, fmtTime(g.Created), g.Kind)
	if err != nil {
		return 0, fmt.Errorf("store: create game %q: %w", g.Tag, err)
	}
	return id, nil
}

// Game returns the game with the given ID.
func (t *Tx) Game(id int64) (Game, error) {
	g, err := scanGame(t.queryRow(`SELECT `+gameColumns+` FROM games WHERE id = ?`+t.gameLock(), id))
	if err != nil {
		return Game{}, fmt.Errorf("store: game %d: %w", id, err)
	}
	return g, nil
}

// GameByTag returns the game with the given tag (case-insensitive).
func (t *Tx) GameByTag(tag string) (Game, error) {
	g, err := scanGame(t.queryRow(`SELECT `+gameColumns+` FROM games WHERE tag = ?`+t.gameLock(), tag))
	if err != nil {
		return Game{}, fmt.Errorf("store: game %q: %w", tag, err)
	}
	return g, nil
}

// Games lists the games with any of the given statuses (all games when none
// is given), oldest first.
func (t *Tx) Games(statuses ...GameStatus) ([]Game, error) {
	q := `SELECT ` + gameColumns + ` FROM games`
	var args []any
	if len(statuses) > 0 {
		q += ` WHERE status IN (?` + strings.Repeat(",?", len(statuses)-1) + `)`
		for _, s := range statuses {
			args = append(args, string(s))
		}
	}
	q += ` ORDER BY id`
	return t.games(q, args...)
}

// GamesDue lists the running games whose deadline plus grace is at or before
// now: the turns to resolve by deadline.
//
// One indexed query (migration 013) reads only the games whose deadline is at or
// before now (times are stored so that string order is time order); the grace, 0 or
// more, is applied after.
func (t *Tx) GamesDue(now time.Time) ([]Game, error) {
	gs, err := t.games(`SELECT `+gameColumns+` FROM games WHERE status = ? AND deadline_at IS NOT NULL AND deadline_at <= ? ORDER BY id`,
		string(GameRunning), fmtTime(now))
	if err != nil {
		return nil, err
	}
	var due []Game
	for _, g := range gs {
		if !g.DeadlineAt.IsZero() && !g.DeadlineAt.Add(g.Grace).After(now) {
			due = append(due, g)
		}
	}
	return due, nil
}

func (t *Tx) games(q string, args ...any) ([]Game, error) {
	return queryAll(t, "games", scanGame, q, args...)
}

// SetGameStatus changes a game's status.
func (t *Tx) SetGameStatus(id int64, s GameStatus) error {
	return t.updateOne(fmt.Sprintf("set status of game %d", id), `UPDATE games SET status = ? WHERE id = ?`, string(s), id)
}

// SetDeadline sets the current turn's deadline (the zero time clears it).
func (t *Tx) SetDeadline(id int64, at time.Time) error {
	if !at.IsZero() && (at.Year() < 1 || at.Year() > 9999) { // timeLayout reads four-digit years only
		return fmt.Errorf("store: set deadline of game %d: the year %d cannot be stored", id, at.Year())
	}
	return t.updateOne(fmt.Sprintf("set deadline of game %d", id), `UPDATE games SET deadline_at = ? WHERE id = ?`, nullTime(at), id)
}

// updateOne runs an UPDATE that must touch exactly one row.
func (t *Tx) updateOne(what, q string, args ...any) error {
	res, err := t.exec(q, args...)
	if err != nil {
		return fmt.Errorf("store: %s: %w", what, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("store: %s: %w", what, err)
	}
	if n == 0 {
		return fmt.Errorf("store: %s: %w", what, ErrNotFound)
	}
	return nil
}

type scanner interface{ Scan(dest ...any) error }

func scanGame(r scanner) (Game, error) {
	var (
		g                          Game
		rules, kind, missed, state string
		deadlineAt                 sql.NullString
		grace                      int64
		created                    string
	)
	err := r.Scan(&g.ID, &g.Tag, &g.Name, &g.Course, &rules, &g.Seed, &kind, &g.Deadline.Hours,
		&g.Deadline.Clock, &deadlineAt, &grace, &missed, &state, &g.CurrentTurn, &g.ListAddress, &created, &g.Kind)
	if errors.Is(err, sql.ErrNoRows) {
		return Game{}, ErrNotFound
	}
	if err != nil {
		return Game{}, err
	}
	g.Rules = json.RawMessage(rules)
	g.Deadline.Kind = DeadlineKind(kind)
	g.Missed = MissedPolicy(missed)
	g.Status = GameStatus(state)
	g.Grace = time.Duration(grace) * time.Second
	if g.DeadlineAt, err = parseNullTime(deadlineAt); err != nil {
		return Game{}, err
	}
	if g.Created, err = parseTime(created); err != nil {
		return Game{}, err
	}
	return g, nil
}

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

// SetGameRules replaces the game's rules JSON: a game behind the seam's settings as
// its game encoded them, when a game master changes one of them (SET).
func (t *Tx) SetGameRules(gameID int64, rules json.RawMessage) error {
	if !json.Valid(rules) {
		return fmt.Errorf("store: set rules of game %d: not JSON", gameID)
	}
	return t.updateOne(fmt.Sprintf("set rules of game %d", gameID), `UPDATE games SET rules_json = ? WHERE id = ?`, string(rules), gameID)
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

// LastGameChange is the number of the last change to any game's row (the feed of
// migration 013), 0 when there has been none.
func (t *Tx) LastGameChange() (int64, error) {
	var last int64
	if err := t.queryRow(`SELECT coalesce(max(seq), 0) FROM game_changes`).Scan(&last); err != nil {
		return 0, fmt.Errorf("store: last game change: %w", err)
	}
	return last, nil
}

// GameChangesAfter lists the games whose row changed after change number after, each
// once, oldest change first, and the number of the last change. ok is false when the
// feed no longer holds every change after it (pruned): the caller reads every game.
//
// On PostgreSQL, where several judges write, a sequence numbers changes in the order
// transactions ask, not the order they commit: a change numbered below one read may
// commit after it. So the changes of the last minute (of the last thousand) are read
// again each time, whatever after says: a transaction that lags its number by more than
// a minute is not met (locks are waited for at most the busy timeout), and the judge
// reads every game again each hour anyway.
func (t *Tx) GameChangesAfter(after int64) (ids []int64, last int64, ok bool, err error) {
	if t.pg {
		var lo sql.NullInt64
		if err := t.queryRow(`SELECT min(seq) FROM (SELECT seq, at FROM game_changes ORDER BY seq DESC LIMIT 1000) AS recent WHERE at >= ?`,
			fmtTime(time.Now().Add(-time.Minute))).Scan(&lo); err != nil {
			return nil, 0, false, fmt.Errorf("store: game changes: %w", err)
		}
		if lo.Valid && lo.Int64 <= after {
			after = lo.Int64 - 1
		}
	}
	var first int64
	// two subqueries, not min and max in one SELECT: SQLite reads the end of the key for
	// a lone min() or max() only, and scanned the whole feed (2 ms a tick at 10,000 games)
	if err := t.queryRow(`SELECT (SELECT coalesce(min(seq), 0) FROM game_changes), (SELECT coalesce(max(seq), 0) FROM game_changes)`).Scan(&first, &last); err != nil {
		return nil, 0, false, fmt.Errorf("store: game changes: %w", err)
	}
	switch {
	case last == 0: // no change kept: none since after, unless after's were pruned
		return nil, after, after == 0, nil
	case last < after: // numbers are never reused: a database restored from a copy
		return nil, last, false, nil
	case last == after:
		return nil, last, true, nil
	}
	if first > after+1 {
		return nil, last, false, nil
	}
	rows, err := t.query(`SELECT seq, game_id FROM game_changes WHERE seq > ? AND seq <= ? ORDER BY seq`, after, last)
	if err != nil {
		return nil, 0, false, fmt.Errorf("store: game changes: %w", err)
	}
	defer rows.Close()
	seen := map[int64]bool{}
	for rows.Next() {
		var seq, id int64
		if err := rows.Scan(&seq, &id); err != nil {
			return nil, 0, false, fmt.Errorf("store: game changes: %w", err)
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, 0, false, fmt.Errorf("store: game changes: %w", err)
	}
	return ids, last, true, nil
}
