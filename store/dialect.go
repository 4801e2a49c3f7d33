package store

import (
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// The store's SQL is written once, in the subset SQLite and PostgreSQL share: '?'
// placeholders, ON CONFLICT … DO NOTHING, CASE rather than sum() over a comparison or
// two-argument max(), COLLATE NOCASE (a nondeterministic ICU collation named nocase on
// PostgreSQL, made by its first migration). What differs is done here, once per query
// text:
//
//   - placeholders: PostgreSQL numbers them ($1, $2, …); rebind rewrites '?' outside
//     quoted text, and remembers the result per query;
//   - new row IDs: SQLite reports the last one inserted (LastInsertId), PostgreSQL
//     returns it (RETURNING id): insertID and insertNew.

// rebound holds the PostgreSQL text of each query met (a fixed set, as stmtcache's).
var rebound sync.Map // string → string

// rebind is q with its '?' placeholders numbered for PostgreSQL.
func rebind(q string) string {
	if v, ok := rebound.Load(q); ok {
		return v.(string)
	}
	var b strings.Builder
	b.Grow(len(q) + 16)
	n := 0
	var quote byte // inside '…' or "…"
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '?':
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(c)
	}
	s := b.String()
	rebound.Store(q, s)
	return s
}

// sqlText is q as this transaction's database reads it.
func (t *Tx) sqlText(q string) string {
	if t.pg {
		return rebind(q)
	}
	return q
}

// insertID runs an INSERT of one row and returns the ID the row got.
func (t *Tx) insertID(q string, args ...any) (int64, error) {
	id, _, err := t.insertNew(q, args...)
	return id, err
}

// insertNew runs an INSERT of one row that may do nothing (ON CONFLICT … DO NOTHING):
// the row's new ID and true, or 0 and false when nothing was inserted.
func (t *Tx) insertNew(q string, args ...any) (int64, bool, error) {
	if t.pg {
		var id int64
		err := t.queryRow(q+` RETURNING id`, args...).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return 0, false, nil
		}
		if err != nil {
			return 0, false, err
		}
		return id, true, nil
	}
	res, err := t.exec(q, args...)
	if err != nil {
		return 0, false, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, false, err
	}
	if n == 0 {
		return 0, false, nil
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, false, fmt.Errorf("new row id: %w", err)
	}
	return id, true, nil
}
