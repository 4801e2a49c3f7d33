package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
	"unicode/utf8"
)

// AuditEntry is one line of the audit log: who did what, when. Detail is for
// people; it must never hold a secret or a whole mail.
type AuditEntry struct {
	ID     int64
	At     time.Time
	GameID int64 // 0 when not about one game
	Actor  string
	Action string
	Detail string
}

// Audit appends an entry to the audit log and returns its ID.
func (t *Tx) Audit(e AuditEntry) (int64, error) {
	id, err := t.insertID(`INSERT INTO audit (at, game_id, actor, action, detail) VALUES (?,?,?,?,?)`,
		fmtTime(e.At), nullID(e.GameID), e.Actor, e.Action, e.Detail)
	if err != nil {
		return 0, fmt.Errorf("store: audit %s: %w", e.Action, err)
	}
	return id, nil
}

// AuditLater is Audit, the entry inserted with others just before the transaction's
// next statement of another kind (later.go). The ID is the one the entry gets.
func (t *Tx) AuditLater(e AuditEntry) (int64, error) {
	return t.queue(t.laterFor().audit, fmtTime(e.At), nullID(e.GameID), e.Actor, e.Action, e.Detail)
}

// AuditCount counts the entries of one action since the given time: those in one game
// whose detail starts with prefix, and those in any game whose detail ends with suffix.
func (t *Tx) AuditCount(action string, gameID int64, prefix, suffix string, since time.Time) (byPrefix, bySuffix int, err error) {
	// CASE, not sum() over a comparison, which PostgreSQL's booleans do not take; the
	// lengths are counted in Go, as PostgreSQL cannot tell length(?)'s type
	err = t.queryRow(`SELECT coalesce(sum(CASE WHEN game_id = ? AND substr(detail, 1, ?) = ? THEN 1 ELSE 0 END), 0),
		coalesce(sum(CASE WHEN length(detail) >= ? AND substr(detail, length(detail) - ? + 1) = ? THEN 1 ELSE 0 END), 0)
		FROM audit WHERE action = ? AND at >= ?`,
		gameID, utf8.RuneCountInString(prefix), prefix, utf8.RuneCountInString(suffix), utf8.RuneCountInString(suffix), suffix, action, fmtTime(since)).Scan(&byPrefix, &bySuffix)
	if err != nil {
		return 0, 0, fmt.Errorf("store: audit count %s: %w", action, err)
	}
	return byPrefix, bySuffix, nil
}

// AuditLog lists the last limit entries about a game (all entries when gameID
// is 0), oldest first.
func (t *Tx) AuditLog(gameID int64, limit int) ([]AuditEntry, error) {
	q := `SELECT id, at, game_id, actor, action, detail FROM audit WHERE ? = 0 OR game_id = ? ORDER BY id DESC LIMIT ?`
	rows, err := t.query(q, gameID, gameID, limit)
	if err != nil {
		return nil, fmt.Errorf("store: audit log: %w", err)
	}
	defer rows.Close()
	var es []AuditEntry
	for rows.Next() {
		var (
			e    AuditEntry
			at   string
			game sql.NullInt64
		)
		if err := rows.Scan(&e.ID, &at, &game, &e.Actor, &e.Action, &e.Detail); err != nil {
			return nil, fmt.Errorf("store: audit log: %w", err)
		}
		e.GameID = game.Int64
		if e.At, err = parseTime(at); err != nil {
			return nil, err
		}
		es = append(es, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: audit log: %w", err)
	}
	for i, j := 0, len(es)-1; i < j; i, j = i+1, j-1 {
		es[i], es[j] = es[j], es[i]
	}
	return es, nil
}

// RecordAuthFailure notes a failed secret or identity check from addr (a mail
// address or an IP), for rate limiting.
func (t *Tx) RecordAuthFailure(addr string, at time.Time) error {
	if _, err := t.exec(`INSERT INTO auth_failures (address, at) VALUES (?, ?)`, addr, fmtTime(at)); err != nil {
		return fmt.Errorf("store: record auth failure: %w", err)
	}
	return nil
}

// AuthFailures counts the failures from addr at or after since.
func (t *Tx) AuthFailures(addr string, since time.Time) (int, error) {
	var n int
	if err := t.queryRow(`SELECT count(*) FROM auth_failures WHERE address = ? AND at >= ?`, addr, fmtTime(since)).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: auth failures: %w", err)
	}
	return n, nil
}

// PruneAuthFailures deletes failures older than before and returns how many.
func (t *Tx) PruneAuthFailures(before time.Time) (int64, error) {
	res, err := t.exec(`DELETE FROM auth_failures WHERE at < ?`, fmtTime(before))
	if err != nil {
		return 0, fmt.Errorf("store: prune auth failures: %w", err)
	}
	return res.RowsAffected()
}

// RecordAuthFailure is Tx.RecordAuthFailure in its own transaction.
func (s *Store) RecordAuthFailure(ctx context.Context, addr string, at time.Time) error {
	return s.Tx(ctx, func(tx *Tx) error { return tx.RecordAuthFailure(addr, at) })
}

// AuthFailures is Tx.AuthFailures in a read-only snapshot.
func (s *Store) AuthFailures(ctx context.Context, addr string, since time.Time) (n int, err error) {
	err = s.View(ctx, func(tx *Tx) error { n, err = tx.AuthFailures(addr, since); return err })
	return n, err
}

// Counts is how many inbox and outbox rows there are in each status: a cheap
// health check for logs, the demo's progress line and tests ("every report
// sent once").
type Counts struct {
	Inbox  map[InboxStatus]int
	Outbox map[OutboxStatus]int
}

// Counts counts the inbox and outbox rows by status.
func (t *Tx) Counts() (Counts, error) {
	c := Counts{Inbox: map[InboxStatus]int{}, Outbox: map[OutboxStatus]int{}}
	for _, table := range []string{"inbox", "outbox"} {
		rows, err := t.query(`SELECT status, count(*) FROM ` + table + ` GROUP BY status`)
		if err != nil {
			return Counts{}, fmt.Errorf("store: counts: %w", err)
		}
		for rows.Next() {
			var (
				s string
				n int
			)
			if err := rows.Scan(&s, &n); err != nil {
				rows.Close()
				return Counts{}, fmt.Errorf("store: counts: %w", err)
			}
			if table == "inbox" {
				c.Inbox[InboxStatus(s)] = n
			} else {
				c.Outbox[OutboxStatus(s)] = n
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return Counts{}, fmt.Errorf("store: counts: %w", err)
		}
	}
	return c, nil
}
