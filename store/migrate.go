package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strconv"
)

//go:embed migrations
var migrationFS embed.FS

// applicationID marks a SQLite file as a rallyjudge database (PRAGMA
// application_id; "RJDG" in ASCII). A file with another non-zero id is refused.
const applicationID = 0x524a4447

// ErrSchemaTooNew is returned by Open when the database was written by a newer
// rallyjudge than this one.
var ErrSchemaTooNew = errors.New("database schema is newer than this rallyjudge")

// migration is one numbered file under migrations/: NNN_name.sql.
type migration struct {
	version int
	name    string
	sql     string
}

var migrationName = regexp.MustCompile(`^([0-9]{3})_([a-z0-9_]+)\.sql$`)

// loadMigrations reads every migration in fsys (a directory of NNN_name.sql
// files) and checks that they are numbered 1, 2, 3 … without gaps or doubles.
func loadMigrations(fsys fs.FS) ([]migration, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("store: migrations: %w", err)
	}
	var ms []migration
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		m := migrationName.FindStringSubmatch(e.Name())
		if m == nil {
			return nil, fmt.Errorf("store: migrations/%s: name must be NNN_name.sql (three digits, lower-case name)", e.Name())
		}
		v, _ := strconv.Atoi(m[1])
		body, err := fs.ReadFile(fsys, e.Name())
		if err != nil {
			return nil, fmt.Errorf("store: migrations/%s: %w", e.Name(), err)
		}
		ms = append(ms, migration{version: v, name: e.Name(), sql: string(body)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i, m := range ms {
		if m.version != i+1 {
			return nil, fmt.Errorf("store: migrations/%s: expected version %03d here (versions must run 001, 002, … without gaps or doubles)", m.name, i+1)
		}
	}
	return ms, nil
}

// embeddedMigrations is the schema this build knows.
func embeddedMigrations() ([]migration, error) {
	sub, err := fs.Sub(migrationFS, "migrations")
	if err != nil {
		return nil, fmt.Errorf("store: migrations: %w", err)
	}
	return loadMigrations(sub)
}

// migrate brings the database at db up to the last of ms, one transaction per
// migration; PRAGMA user_version records the version and changes in the same
// transaction, so a failed migration leaves the previous version intact.
func migrate(ctx context.Context, db *sql.DB, path string, ms []migration) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("store: %s: %w", path, err)
	}
	defer conn.Close()

	var appID int64
	if err := conn.QueryRowContext(ctx, "PRAGMA application_id").Scan(&appID); err != nil {
		return fmt.Errorf("store: %s: reading application_id: %w", path, err)
	}
	if appID != 0 && appID != applicationID {
		return fmt.Errorf("store: %s: not a rallyjudge database (application_id %#x)", path, appID)
	}

	current, err := userVersion(ctx, conn)
	if err != nil {
		return fmt.Errorf("store: %s: %w", path, err)
	}
	known := len(ms)
	if current > known {
		return fmt.Errorf("store: database schema version %d is newer than this rallyjudge knows (%d); upgrade rallyjudge (file %s): %w",
			current, known, path, ErrSchemaTooNew)
	}
	for _, m := range ms[current:] {
		if err := applyMigration(ctx, conn, m); err != nil {
			return fmt.Errorf("store: %s: migration %s: %w", path, m.name, err)
		}
	}
	return nil
}

func userVersion(ctx context.Context, conn *sql.Conn) (int, error) {
	var v int
	if err := conn.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return 0, fmt.Errorf("reading user_version: %w", err)
	}
	return v, nil
}

func applyMigration(ctx context.Context, conn *sql.Conn, m migration) error {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return err
	}
	// PRAGMA takes no bound parameters; both values are integers we control.
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", m.version)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id = %d", applicationID)); err != nil {
		return err
	}
	return tx.Commit()
}
