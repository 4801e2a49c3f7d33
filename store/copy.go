package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Moving house: CopyTo copies a whole community from one store to another (SQLite to
// PostgreSQL or back, or between two of a kind), every row of every table with its ID,
// the server key of the keyed secret hashes included (without it no stored secret would
// check); Compare reads both and says where they differ. Rows are copied as values, not
// as SQL: what one backend returns the other takes (integers, text, bytes, NULL).

// copyOrder is the order tables are filled in, each after those its rows refer to.
// A table not named here (one a later migration adds) is copied after these, by name.
var copyOrder = []string{
	"games", "players", "gms", "turns", "inbox", "inbox_proofs", "mailbox_state", "orders",
	"outbox", "audit", "auth_failures", "observers", "standbys", "press", "address_changes",
	"pending_joins", "server_keys",
}

// CopyReport counts the rows copied, per table.
type CopyReport struct {
	Tables []string
	Rows   map[string]int64
}

// notCopied are tables that hold no data of their own: game_changes is a feed of the
// game rows written (migration 013), which the copy's own inserts fill; a judge that
// starts on the copy reads every game anyway. rallyjudge_intake (PostgreSQL's only,
// claims.go) says when intake last caught up: a judge that starts on the copy reads its
// mailbox anew.
var notCopied = []string{"game_changes", "rallyjudge_intake"}

// tables lists the store's tables, in copyOrder.
func (s *Store) tables(ctx context.Context) ([]string, error) {
	q := `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`
	if s.pg {
		q = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()
			AND table_type = 'BASE TABLE' AND table_name <> 'rallyjudge_schema'`
	}
	rows, err := s.reader.QueryContext(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("store: %s: list tables: %w", s.path, err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		if !slices.Contains(notCopied, n) {
			names = append(names, n)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rank := func(n string) int {
		if i := slices.Index(copyOrder, n); i >= 0 {
			return i
		}
		return len(copyOrder)
	}
	slices.SortFunc(names, func(a, b string) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		return strings.Compare(a, b)
	})
	return names, nil
}

// columns are a table's columns, by name.
func (t *Tx) columns(table string) ([]string, error) {
	rows, err := t.query(`SELECT * FROM ` + table + ` WHERE 1 = 0`)
	if err != nil {
		return nil, fmt.Errorf("store: columns of %s: %w", table, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	slices.Sort(cols)
	return cols, nil
}

// CopyTo copies every row of s into dst. dst must hold nothing yet (a database just
// opened: its schema made, no game, no mail) and be at s's schema version. It copies
// in one read transaction of s and one write transaction of dst: a judge may run on s
// meanwhile, and the copy is the community as of one moment; dst has it all or
// nothing. Close dst after: its server key is s's now, which dst read before the copy.
func (s *Store) CopyTo(ctx context.Context, dst *Store) (CopyReport, error) {
	rep := CopyReport{Rows: map[string]int64{}}
	vs, err := s.SchemaVersion(ctx)
	if err != nil {
		return rep, fmt.Errorf("store: copy from %s: %w", s.path, err)
	}
	vd, err := dst.SchemaVersion(ctx)
	if err != nil {
		return rep, fmt.Errorf("store: copy to %s: %w", dst.path, err)
	}
	if vs != vd {
		return rep, fmt.Errorf("store: copy from %s (schema %d) to %s (schema %d): open both with the same rallyjudge", s.path, vs, dst.path, vd)
	}
	tables, err := s.tables(ctx)
	if err != nil {
		return rep, err
	}
	dtables, err := dst.tables(ctx)
	if err != nil {
		return rep, err
	}
	if !slices.Equal(tables, dtables) {
		return rep, fmt.Errorf("store: copy from %s to %s: the tables differ (%v and %v)", s.path, dst.path, tables, dtables)
	}
	rep.Tables = tables
	err = s.View(ctx, func(src *Tx) error {
		return dst.Tx(ctx, func(out *Tx) error {
			for _, table := range tables {
				var n int64
				if err := out.queryRow(`SELECT count(*) FROM ` + table).Scan(&n); err != nil {
					return fmt.Errorf("store: copy to %s: %s: %w", dst.path, table, err)
				}
				// a new database holds its own server key and nothing else
				if table == "server_keys" {
					if _, err := out.exec(`DELETE FROM server_keys`); err != nil {
						return fmt.Errorf("store: copy to %s: %w", dst.path, err)
					}
				} else if n > 0 {
					return fmt.Errorf("store: copy to %s: it is not empty (%s holds %d rows); copy into a new database", dst.path, table, n)
				}
				c, err := copyTable(src, out, table)
				if err != nil {
					return fmt.Errorf("store: copy %s from %s to %s: %w", table, s.path, dst.path, err)
				}
				rep.Rows[table] = c
			}
			if out.pg { // the identity columns go on after the IDs copied
				for _, table := range tables {
					if err := out.restartIdentity(table); err != nil {
						return fmt.Errorf("store: copy to %s: %s: %w", dst.path, table, err)
					}
				}
			}
			return nil
		})
	})
	return rep, err
}

// copyTable copies the rows of table from src to out, in batches of one statement.
func copyTable(src, out *Tx, table string) (int64, error) {
	cols, err := src.columns(table)
	if err != nil {
		return 0, err
	}
	rows, err := src.query(`SELECT ` + strings.Join(cols, ", ") + ` FROM ` + table)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	const batch = 50
	row := "(" + strings.TrimSuffix(strings.Repeat("?,", len(cols)), ",") + ")"
	insert := func(k int) string {
		return `INSERT INTO ` + table + ` (` + strings.Join(cols, ", ") + `) VALUES ` +
			strings.TrimSuffix(strings.Repeat(row+",", k), ",")
	}
	var n int64
	var args []any
	flush := func(k int) error {
		if k == 0 {
			return nil
		}
		if _, err := out.exec(insert(k), args...); err != nil {
			return err
		}
		args = args[:0]
		return nil
	}
	k := 0
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return n, err
		}
		args = append(args, vals...)
		k++
		n++
		if k == batch {
			if err := flush(k); err != nil {
				return n, err
			}
			k = 0
		}
	}
	if err := rows.Err(); err != nil {
		return n, err
	}
	return n, flush(k)
}

// restartIdentity sets the table's identity column, if it has one, to go on after the
// largest ID in it.
func (t *Tx) restartIdentity(table string) error {
	cols, err := t.columns(table)
	if err != nil {
		return err
	}
	if !slices.Contains(cols, "id") {
		return nil
	}
	var seq sql.NullString
	if err := t.queryRow(`SELECT pg_get_serial_sequence(?, 'id')`, table).Scan(&seq); err != nil || !seq.Valid {
		return err // no sequence (an id that is not an identity column): nothing to do
	}
	_, err = t.exec(`SELECT setval(CAST(? AS text)::regclass, (SELECT coalesce(max(id), 0) + 1 FROM `+table+`), false)`, seq.String)
	return err
}

// Compare reads every table of a and b and lists how they differ: a table one has and
// the other has not, and per table the rows of each that the other lacks (counted; rows
// are compared by value, text and bytes alike, in no order). Nothing listed: the same.
func Compare(ctx context.Context, a, b *Store) ([]string, error) {
	ta, err := a.tables(ctx)
	if err != nil {
		return nil, err
	}
	tb, err := b.tables(ctx)
	if err != nil {
		return nil, err
	}
	var diffs []string
	for _, t := range ta {
		if !slices.Contains(tb, t) {
			diffs = append(diffs, fmt.Sprintf("table %s: only in %s", t, a.path))
		}
	}
	for _, t := range tb {
		if !slices.Contains(ta, t) {
			diffs = append(diffs, fmt.Sprintf("table %s: only in %s", t, b.path))
		}
	}
	for _, t := range ta {
		if !slices.Contains(tb, t) {
			continue
		}
		ha, na, err := tableDigest(ctx, a, t)
		if err != nil {
			return nil, err
		}
		hb, nb, err := tableDigest(ctx, b, t)
		if err != nil {
			return nil, err
		}
		onlyA, onlyB := 0, 0
		for h, c := range ha {
			if d := c - hb[h]; d > 0 {
				onlyA += d
			}
		}
		for h, c := range hb {
			if d := c - ha[h]; d > 0 {
				onlyB += d
			}
		}
		if onlyA > 0 || onlyB > 0 {
			diffs = append(diffs, fmt.Sprintf("table %s: %d rows in %s, %d in %s; %d rows only in the first, %d only in the second",
				t, na, a.path, nb, b.path, onlyA, onlyB))
		}
	}
	return diffs, nil
}

// tableDigest is a count of each row's hash in table, and the number of rows.
func tableDigest(ctx context.Context, s *Store, table string) (map[[32]byte]int, int, error) {
	m := map[[32]byte]int{}
	n := 0
	err := s.View(ctx, func(tx *Tx) error {
		cols, err := tx.columns(table)
		if err != nil {
			return err
		}
		rows, err := tx.query(`SELECT ` + strings.Join(cols, ", ") + ` FROM ` + table)
		if err != nil {
			return err
		}
		defer rows.Close()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		var buf []byte
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				return err
			}
			buf = buf[:0]
			for i, v := range vals {
				buf = append(buf, cols[i]...)
				buf = appendValue(append(buf, '='), v)
				buf = append(buf, 0)
			}
			m[sha256.Sum256(buf)]++
			n++
		}
		return rows.Err()
	})
	if err != nil {
		return nil, 0, fmt.Errorf("store: compare %s in %s: %w", table, s.path, err)
	}
	return m, n, nil
}

// appendValue writes v so that the same value read from either backend writes the same
// bytes: NULL, an integer, or text and bytes alike.
func appendValue(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "\x00NULL"...)
	case int64:
		return strconv.AppendInt(append(b, 'i'), x, 10)
	case int32:
		return strconv.AppendInt(append(b, 'i'), int64(x), 10)
	case bool: // never stored as such; read as an integer would be
		if x {
			return append(b, "i1"...)
		}
		return append(b, "i0"...)
	case float64:
		return strconv.AppendFloat(append(b, 'f'), x, 'g', -1, 64)
	case string:
		return append(append(b, 's'), x...)
	case []byte:
		return append(append(b, 's'), x...)
	default:
		return fmt.Appendf(append(b, '?'), "%v", x)
	}
}
