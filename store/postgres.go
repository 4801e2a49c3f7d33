package store

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// PostgreSQL as the store's database, beside SQLite: the same tables, the same
// migrations (read through pgMigrationText), the same guarantees. What differs:
//
//   - the schema version is a row of rallyjudge_schema, not PRAGMA user_version, and the
//     migrations run under an advisory lock, so judges started together migrate once;
//   - new rows take their IDs from identity columns, and queued rows (later.go) go in at
//     once: other judges insert beside this one;
//   - read transactions (View) are REPEATABLE READ READ ONLY: one snapshot, as SQLite's;
//   - Scrub does nothing and Backup refuses (pg_dump backs PostgreSQL up);
//   - prepared statements are pgx's own cache per connection (stmtcache.go is SQLite's).

// IsPostgres reports whether a config's database names a PostgreSQL DSN rather than a
// SQLite file.
func IsPostgres(database string) bool {
	return strings.HasPrefix(database, "postgres://") || strings.HasPrefix(database, "postgresql://")
}

// RedactDSN is dsn without its password, fit for logs and errors.
func RedactDSN(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return "postgres://(a DSN that does not parse)"
	}
	if u.User != nil {
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
		}
	}
	q := u.Query()
	if q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// schemaLock is the advisory lock key the migrations run under ("RJDG").
const schemaLock = applicationID

func openPostgres(dsn string, o Options) (*Store, error) {
	name := RedactDSN(dsn)
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		// pgx's message may quote the DSN: say only where
		return nil, fmt.Errorf("store: open %s: the DSN does not parse (postgres://user@host:port/database?sslmode=...)", name)
	}
	if o.Password != "" {
		cfg.Password = o.Password
	}
	if o.BusyTimeout <= 0 {
		o.BusyTimeout = 5 * time.Second
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = 10 * time.Second
	}
	if o.Readers <= 0 {
		o.Readers = 4
	}
	// lock_timeout: a row lock held by another judge is waited for at most the busy
	// timeout, as SQLite's busy_timeout
	cfg.RuntimeParams["lock_timeout"] = fmt.Sprint(o.BusyTimeout.Milliseconds())
	cfg.RuntimeParams["application_name"] = "rallyjudge"
	ms, err := embeddedMigrations()
	if err != nil {
		return nil, err
	}
	if o.Lease > 0 {
		// a judge that is gone (its machine, the network) loses its sessions, and their
		// claims and locks, within the lease (claims.go)
		secs := max(1, int(o.Lease.Round(time.Second)/time.Second))
		cfg.RuntimeParams["tcp_keepalives_idle"] = fmt.Sprint(max(1, secs/2))
		cfg.RuntimeParams["tcp_keepalives_interval"] = "1"
		cfg.RuntimeParams["tcp_keepalives_count"] = fmt.Sprint(max(1, secs-max(1, secs/2)))
		cfg.RuntimeParams["tcp_user_timeout"] = fmt.Sprint(o.Lease.Milliseconds())
	}
	ctx := context.Background()
	writer := stdlib.OpenDB(*cfg)
	// One writing connection, as with SQLite: within one judge transactions follow one
	// another; judges beside it are kept apart by the database's locks (claims.go).
	writer.SetMaxOpenConns(1)
	writer.SetMaxIdleConns(1)
	if err := writer.PingContext(ctx); err != nil {
		writer.Close()
		return nil, fmt.Errorf("store: open %s: %w", name, err)
	}
	if err := pgMigrate(ctx, writer, name, ms); err != nil {
		writer.Close()
		return nil, err
	}
	key, err := loadKey(ctx, writer, true)
	if err != nil {
		writer.Close()
		return nil, fmt.Errorf("store: open %s: %w", name, err)
	}
	reader := stdlib.OpenDB(*cfg)
	reader.SetMaxOpenConns(o.Readers)
	reader.SetMaxIdleConns(o.Readers)
	cl := stdlib.OpenDB(*cfg)
	cl.SetMaxOpenConns(1)
	return &Store{path: name, pg: true, pgcfg: cfg, writer: writer, reader: reader, claims: &claims{db: cl},
		retry: o.Retry.withDefaults(), opts: o, key: key}, nil
}

// IsPostgres reports whether s is on PostgreSQL.
func (s *Store) IsPostgres() bool { return s.pg }

// pgMigrate brings the schema up to the last of ms in one transaction, under an
// advisory lock: a second judge starting at the same time waits, then finds it done.
func pgMigrate(ctx context.Context, db *sql.DB, name string, ms []migration) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: %s: %w", name, err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, schemaLock); err != nil {
		return fmt.Errorf("store: %s: schema lock: %w", name, err)
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS rallyjudge_schema (
		version INTEGER NOT NULL, updated_at TEXT NOT NULL)`); err != nil {
		return fmt.Errorf("store: %s: %w", name, err)
	}
	var current int
	err = tx.QueryRowContext(ctx, `SELECT version FROM rallyjudge_schema`).Scan(&current)
	if err == sql.ErrNoRows {
		// a database with tables of its own and no version row is not ours
		var others int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM information_schema.tables
			WHERE table_schema = current_schema() AND table_name <> 'rallyjudge_schema'`).Scan(&others); err != nil {
			return fmt.Errorf("store: %s: %w", name, err)
		}
		if others > 0 {
			return fmt.Errorf("store: %s: not a rallyjudge database (schema %s holds %d other tables); give rallyjudge a database or schema of its own", name, "current", others)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO rallyjudge_schema (version, updated_at) VALUES (0, $1)`, fmtTime(time.Now()))
	}
	if err != nil {
		return fmt.Errorf("store: %s: reading the schema version: %w", name, err)
	}
	if current > len(ms) {
		return fmt.Errorf("store: database schema version %d is newer than this rallyjudge knows (%d); upgrade rallyjudge (%s): %w",
			current, len(ms), name, ErrSchemaTooNew)
	}
	if _, err := tx.ExecContext(ctx, pgIntakeTable); err != nil {
		return fmt.Errorf("store: %s: %w", name, err)
	}
	for _, m := range ms[current:] {
		text, err := pgMigrationText(m)
		if err != nil {
			return fmt.Errorf("store: %s: migration %s: %w", name, m.name, err)
		}
		if _, err := tx.ExecContext(ctx, text); err != nil {
			return fmt.Errorf("store: %s: migration %s: %w", name, m.name, err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE rallyjudge_schema SET version = $1, updated_at = $2`, m.version, fmtTime(time.Now())); err != nil {
			return fmt.Errorf("store: %s: migration %s: %w", name, m.name, err)
		}
	}
	return tx.Commit()
}

func pgSchemaVersion(ctx context.Context, db *sql.DB) (int, error) {
	var v int
	err := db.QueryRowContext(ctx, `SELECT version FROM rallyjudge_schema`).Scan(&v)
	return v, err
}

// PostgreSQL reads the migrations written for SQLite with these changes of words: an
// INTEGER PRIMARY KEY is an identity column, INTEGER is BIGINT (SQLite's integers are
// 64-bit), BLOB is BYTEA. A migration that needs more than that has its PostgreSQL
// text beside it, migrations/postgres/NNN_name.sql, read instead (001: the NOCASE
// collation, and a table constraint over an expression, which PostgreSQL writes as an
// index).
var pgWords = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`\bINTEGER PRIMARY KEY\b`), "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"},
	{regexp.MustCompile(`\bINTEGER\b`), "BIGINT"},
	{regexp.MustCompile(`\bBLOB\b`), "BYTEA"},
}

func pgMigrationText(m migration) (string, error) {
	if b, err := fs.ReadFile(migrationFS, "migrations/postgres/"+m.name); err == nil {
		return string(b), nil
	}
	s := m.sql
	for _, w := range pgWords {
		s = w.re.ReplaceAllString(s, w.with)
	}
	return s, nil
}
