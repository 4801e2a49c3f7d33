package store

import (
	"encoding/json"
	"fmt"
	"time"
)

// RepliesSince counts the outbox mails of the given kinds created at or after since, to
// the one address to ("" for any address).
func (t *Tx) RepliesSince(kinds []string, to string, since time.Time) (int, error) {
	if len(kinds) == 0 {
		return 0, nil
	}
	q := `SELECT count(*) FROM outbox WHERE created_at >= ? AND kind IN (?` + repeatMarks(len(kinds)-1) + `)`
	args := []any{fmtTime(since)}
	for _, k := range kinds {
		args = append(args, k)
	}
	if to != "" {
		b, _ := json.Marshal([]string{to})
		q += ` AND to_addrs = ?`
		args = append(args, string(b))
	}
	var n int
	if err := t.queryRow(q, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: replies since %s: %w", fmtTime(since), err)
	}
	return n, nil
}

// MailFromSince counts the inbox mails from one address received at or after since, and
// of those the ones whose subject is one of subjects.
func (t *Tx) MailFromSince(from string, subjects [2]string, since time.Time) (all, sameSubject int, err error) {
	err = t.queryRow(`SELECT count(*), coalesce(sum(CASE WHEN subject IN (?, ?) THEN 1 ELSE 0 END), 0) FROM inbox
		WHERE from_addr = ? COLLATE NOCASE AND received_at >= ?`,
		subjects[0], subjects[1], from, fmtTime(since)).Scan(&all, &sameSubject)
	if err != nil {
		return 0, 0, fmt.Errorf("store: mail from %s: %w", from, err)
	}
	return all, sameSubject, nil
}

// KnownAddress reports whether addr is a player's or a game master's address in any game.
func (t *Tx) KnownAddress(addr string) (bool, error) {
	var known bool
	err := t.queryRow(`SELECT EXISTS (SELECT 1 FROM players WHERE lower(email) = lower(?))
		OR EXISTS (SELECT 1 FROM gms WHERE lower(email) = lower(?))`, addr, addr).Scan(&known)
	if err != nil {
		return false, fmt.Errorf("store: known address: %w", err)
	}
	return known, nil
}

func repeatMarks(n int) string {
	b := make([]byte, 0, 2*n)
	for i := 0; i < n; i++ {
		b = append(b, ",?"...)
	}
	return string(b)
}
