package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// RepliesSince counts the outbox mails of the given kinds created at or after since, to
// the one address to ("" for any address).
func (t *Tx) RepliesSince(kinds []string, to string, since time.Time) (int, error) {
	if len(kinds) == 0 {
		return 0, nil
	}
	q, args := repliesWhere(kinds, to, "", since)
	var n int
	if err := t.queryRow(`SELECT count(*) FROM outbox WHERE `+q, args...).Scan(&n); err != nil {
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

// RepliesToDomainSince counts the outbox mails of the given kinds created at or after
// since to any address of one domain (the part after "@", lower case).
func (t *Tx) RepliesToDomainSince(kinds []string, domain string, since time.Time) (int, error) {
	if len(kinds) == 0 || domain == "" {
		return 0, nil
	}
	q, args := repliesWhere(kinds, "", domain, since)
	var n int
	if err := t.queryRow(`SELECT count(*) FROM outbox WHERE `+q, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: replies to %s since %s: %w", domain, fmtTime(since), err)
	}
	return n, nil
}

// NthReplySince is when the n-th (from 0) oldest outbox mail of the given kinds, created
// at or after since to the one address to (or, to "", to any address of domain), was
// created; the zero time when there are not that many.
func (t *Tx) NthReplySince(kinds []string, to, domain string, since time.Time, n int) (time.Time, error) {
	if len(kinds) == 0 {
		return time.Time{}, nil
	}
	q, args := repliesWhere(kinds, to, domain, since)
	return t.nthTime(`SELECT created_at FROM outbox WHERE `+q+` ORDER BY created_at LIMIT 1 OFFSET ?`, append(args, n)...)
}

// NthMailFromSince is when the n-th (from 0) oldest inbox mail from one address received
// at or after since (with one of subjects, when any are given) was received; the zero
// time when there are not that many.
func (t *Tx) NthMailFromSince(from string, subjects []string, since time.Time, n int) (time.Time, error) {
	q := `SELECT received_at FROM inbox WHERE from_addr = ? COLLATE NOCASE AND received_at >= ?`
	args := []any{from, fmtTime(since)}
	if len(subjects) > 0 {
		q += ` AND subject IN (?` + repeatMarks(len(subjects)-1) + `)`
		for _, s := range subjects {
			args = append(args, s)
		}
	}
	return t.nthTime(q+` ORDER BY received_at LIMIT 1 OFFSET ?`, append(args, n)...)
}

func (t *Tx) nthTime(q string, args ...any) (time.Time, error) {
	var s string
	err := t.queryRow(q, args...).Scan(&s)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("store: nth time: %w", err)
	}
	return parseTime(s)
}

// repliesWhere is the WHERE clause (and its arguments) of the outbox mails of kinds
// created at or after since, to the one address to, or (to "") to an address of domain,
// or (both "") to anyone.
func repliesWhere(kinds []string, to, domain string, since time.Time) (string, []any) {
	q := `created_at >= ? AND kind IN (?` + repeatMarks(len(kinds)-1) + `)`
	args := []any{fmtTime(since)}
	for _, k := range kinds {
		args = append(args, k)
	}
	switch {
	case to != "":
		b, _ := json.Marshal([]string{to})
		q += ` AND to_addrs = ?`
		args = append(args, string(b))
	case domain != "":
		// to_addrs holds one address as JSON, ["name@domain"]; the domain's own % and _
		// are escaped, so they match only themselves
		d := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(strings.ToLower(domain))
		q += ` AND lower(to_addrs) LIKE ? ESCAPE '\'`
		args = append(args, `%@`+d+`"]`)
	}
	return q, args
}

// Observes reports whether addr observes game gameID.
func (t *Tx) Observes(gameID int64, addr string) (bool, error) {
	var yes bool
	if err := t.queryRow(`SELECT EXISTS (SELECT 1 FROM observers WHERE game_id = ? AND email = ? COLLATE NOCASE)`, gameID, addr).Scan(&yes); err != nil {
		return false, fmt.Errorf("store: observer %s of game %d: %w", addr, gameID, err)
	}
	return yes, nil
}

// IsObserver reports whether addr observes any game.
func (t *Tx) IsObserver(addr string) (bool, error) {
	var yes bool
	if err := t.queryRow(`SELECT EXISTS (SELECT 1 FROM observers WHERE email = ? COLLATE NOCASE)`, addr).Scan(&yes); err != nil {
		return false, fmt.Errorf("store: observer %s: %w", addr, err)
	}
	return yes, nil
}
