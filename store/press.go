package store

import (
	"fmt"
	"strings"
	"time"
)

// Press (migration 005): messages between a game's players, relayed by the judge and
// kept for the game's history and archive.

// Press is one message.
type Press struct {
	ID     int64
	GameID int64
	Turn   int
	From   string   // the sender's robot (kept even when the message was anonymous)
	To     []string // the robots written to; nil for everyone
	Signed bool
	Body   string
	Sent   time.Time
}

// AddPress stores a message and returns its ID.
func (t *Tx) AddPress(p Press) (int64, error) {
	what := fmt.Sprintf("add press from %q in game %d", p.From, p.GameID)
	if err := needTime(what, "sent", p.Sent); err != nil {
		return 0, err
	}
	if p.From == "" || strings.TrimSpace(p.Body) == "" {
		return 0, fmt.Errorf("store: %s: sender and text are needed", what)
	}
	to := "*"
	if len(p.To) > 0 {
		to = strings.Join(p.To, ",")
	}
	id, err := t.insertID(`INSERT INTO press (game_id, turn, from_robot, to_robots, signed, body, sent_at) VALUES (?,?,?,?,?,?,?)`,
		p.GameID, p.Turn, p.From, to, boolInt(p.Signed), p.Body, fmtTime(p.Sent))
	if err != nil {
		return 0, fmt.Errorf("store: %s: %w", what, err)
	}
	return id, nil
}

// PressCount counts the messages one robot sent in one turn of a game.
func (t *Tx) PressCount(gameID int64, turn int, from string) (int, error) {
	var n int
	if err := t.queryRow(`SELECT count(*) FROM press WHERE game_id = ? AND turn = ? AND from_robot = ?`, gameID, turn, from).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: press of %q in game %d turn %d: %w", from, gameID, turn, err)
	}
	return n, nil
}

// PressOf lists a game's messages in the order they were sent.
func (t *Tx) PressOf(gameID int64) ([]Press, error) {
	return queryAll(t, fmt.Sprintf("press of game %d", gameID), func(r scanner) (Press, error) {
		var (
			p        Press
			to, sent string
			signed   int
		)
		if err := r.Scan(&p.ID, &p.GameID, &p.Turn, &p.From, &to, &signed, &p.Body, &sent); err != nil {
			return p, err
		}
		if to != "*" {
			p.To = strings.Split(to, ",")
		}
		p.Signed = signed != 0
		var err error
		p.Sent, err = parseTime(sent)
		return p, err
	}, `SELECT id, game_id, turn, from_robot, to_robots, signed, body, sent_at FROM press WHERE game_id = ? ORDER BY id`, gameID)
}
