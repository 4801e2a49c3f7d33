package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// PagesSound checks, while the judge runs, that the database's pages on disk are sound
// (PRAGMA quick_check) and returns an error marked ErrCorrupt when they are not (nil on
// PostgreSQL, which checks its own pages). The check runs on a connection opened for it
// and closed after: the writer's and the readers' page caches keep the pages they read
// before the damage, so a check through them (or a query that reads only cached pages)
// finds nothing wrong while SQLite goes on writing from its cache onto a damaged file
// (issue 21 item 3). On a database of 1,000 games it costs a few milliseconds
// (BenchmarkPagesSound).
func (s *Store) PagesSound(ctx context.Context) error {
	if s.pg {
		return nil
	}
	db, err := sql.Open("sqlite", dsn(s.path, s.opts, true))
	if err != nil {
		return fmt.Errorf("store: %s: integrity check: %w", s.path, err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	res, err := quickCheckOn(ctx, db)
	if IsCorrupt(err) {
		res, err = []string{err.Error()}, nil
	}
	if err != nil {
		return fmt.Errorf("store: %s: integrity check: %w", s.path, err)
	}
	return checkResult(s.path, res)
}

// checkResult turns quick_check's rows into nil ("ok") or an error marked ErrCorrupt.
func checkResult(path string, res []string) error {
	if len(res) == 1 && res[0] == "ok" {
		return nil
	}
	if len(res) > 5 {
		res = append(res[:5], "…")
	}
	return fmt.Errorf("store: %s: the integrity check failed (%s): %w; restore the last backup (docs/gamemasters.md, Backups)",
		path, strings.Join(res, "; "), ErrCorrupt)
}

func quickCheckOn(ctx context.Context, db *sql.DB) ([]string, error) {
	rows, err := db.QueryContext(ctx, "PRAGMA quick_check")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var res []string
	for rows.Next() {
		var r string
		if err := rows.Scan(&r); err != nil {
			return nil, err
		}
		res = append(res, r)
	}
	return res, rows.Err()
}
