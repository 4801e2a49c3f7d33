package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// The store's tests run on both backends: bothBackends runs a test as the subtests
// sqlite and postgres, and openTest (store_test.go) opens the backend its test's name
// says. PostgreSQL is the server RALLYJUDGE_POSTGRES_DSN names (scripts/postgres.sh
// prints one, .ci/run sets it), its password from RALLYJUDGE_POSTGRES_PASSWORD_FILE or
// PGPASSWORD; each test gets a schema of its own, dropped when it ends. Without a DSN
// the postgres subtests skip, saying so.

// bothBackends runs fn once on SQLite and once on PostgreSQL.
func bothBackends(t *testing.T, fn func(t *testing.T)) {
	t.Run("sqlite", fn)
	t.Run("postgres", func(t *testing.T) {
		needPostgres(t)
		fn(t)
	})
}

// onPostgres reports whether t (or a test it runs under) is a postgres subtest.
func onPostgres(t testing.TB) bool {
	return strings.Contains(t.Name()+"/", "/postgres/")
}

// pgTestDSN is the DSN of the PostgreSQL the tests use, "" when none is configured.
func pgTestDSN() string {
	return os.Getenv("RALLYJUDGE_POSTGRES_DSN")
}

func needPostgres(t testing.TB) {
	t.Helper()
	if pgTestDSN() == "" {
		t.Skip("no PostgreSQL configured: set RALLYJUDGE_POSTGRES_DSN (and RALLYJUDGE_POSTGRES_PASSWORD_FILE); " +
			"scripts/postgres.sh start prints both, .ci/run sets them with RALLYJUDGE_POSTGRES=1")
	}
}

// pgTestPassword is the password of the tests' role, "" to leave it to pgx (PGPASSWORD).
func pgTestPassword(t testing.TB) string {
	f := os.Getenv("RALLYJUDGE_POSTGRES_PASSWORD_FILE")
	if f == "" {
		return ""
	}
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatalf("RALLYJUDGE_POSTGRES_PASSWORD_FILE: %v", err)
	}
	return strings.TrimSpace(string(b))
}

var (
	pgAdminOnce sync.Once
	pgAdmin     *sql.DB
	pgAdminErr  error
)

// pgAdminDB is a pool on the tests' database that makes and drops their schemas.
func pgAdminDB(t testing.TB) *sql.DB {
	pgAdminOnce.Do(func() {
		cfg, err := pgx.ParseConfig(pgTestDSN())
		if err != nil {
			pgAdminErr = err
			return
		}
		if pw := pgTestPassword(t); pw != "" {
			cfg.Password = pw
		}
		pgAdmin = stdlib.OpenDB(*cfg)
		pgAdmin.SetMaxOpenConns(2)
		pgAdminErr = pgAdmin.Ping()
	})
	if pgAdminErr != nil {
		t.Fatalf("PostgreSQL for the tests (%s): %v", RedactDSN(pgTestDSN()), pgAdminErr)
	}
	return pgAdmin
}

// pgTestSchema makes a schema of its own for t, dropped when t ends, and returns a DSN
// whose search_path is it.
func pgTestSchema(t testing.TB) string {
	t.Helper()
	needPostgres(t)
	db := pgAdminDB(t)
	b := make([]byte, 6)
	rand.Read(b)
	schema := "t_" + hex.EncodeToString(b)
	if _, err := db.Exec(`CREATE SCHEMA ` + schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if _, err := db.Exec(`DROP SCHEMA ` + schema + ` CASCADE`); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	u, err := url.Parse(pgTestDSN())
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// testDB is where a fresh database for t is: a new file, or a new PostgreSQL schema.
func testDB(t testing.TB) string {
	t.Helper()
	if onPostgres(t) {
		return pgTestSchema(t)
	}
	return filepath.Join(t.TempDir(), "judge.db")
}

// openTestWith opens the database at where (testDB) with o on t's backend; the password
// is the tests' own. It is closed when t ends.
func openTestWith(t testing.TB, where string, o Options) *Store {
	t.Helper()
	if IsPostgres(where) {
		o.Password = pgTestPassword(t)
	}
	st, err := OpenWith(where, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestRebind(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`SELECT ? , ?`, `SELECT $1 , $2`},
		{`SELECT '?', ?`, `SELECT '?', $1`},
		{`SELECT "a?b" FROM t WHERE x = ? AND y = 'it''s ?'`, `SELECT "a?b" FROM t WHERE x = $1 AND y = 'it''s ?'`},
		{`INSERT INTO t VALUES (?,?),(?,?)`, `INSERT INTO t VALUES ($1,$2),($3,$4)`},
	} {
		if got := rebind(c.in); got != c.want {
			t.Errorf("rebind(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestPostgresTwoJudgesMigrateOnce(t *testing.T) {
	where := pgTestSchema(t)
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st, err := OpenWith(where, Options{Password: pgTestPassword(t)})
			if err == nil {
				err = st.Close()
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("judge %d: %v", i, err)
		}
	}
	st := openTestWith(t, where, Options{})
	v, err := st.SchemaVersion(context.Background())
	ms, _ := embeddedMigrations()
	if err != nil || v != len(ms) {
		t.Fatalf("schema version %d (%v), want %d", v, err, len(ms))
	}
}

func TestRedactDSN(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"postgres://rj@127.0.0.1:5432/rj?sslmode=disable", "postgres://rj@127.0.0.1:5432/rj?sslmode=disable"},
		{"postgres://rj:hunter2@127.0.0.1/rj", "postgres://rj:xxxxx@127.0.0.1/rj"},
		{"postgres://rj@127.0.0.1/rj?password=hunter2", "postgres://rj@127.0.0.1/rj?password=xxxxx"},
	} {
		if got := RedactDSN(c.in); got != c.want || strings.Contains(got, "hunter2") {
			t.Errorf("RedactDSN(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestPostgresOneServingJudge: one serving judge at a time writes to a PostgreSQL
// database; a second stands by (ErrLocked); a tool that does not serve writes beside
// them; when the serving judge's session ends the next one takes over, and the first,
// its session gone, writes nothing more (fenced) until the lock is free again.
func TestPostgresOneServingJudge(t *testing.T) {
	where := pgTestSchema(t)
	ctx := context.Background()
	a := openTestWith(t, where, Options{Serving: true})
	if err := a.StillServing(ctx); err != nil {
		t.Fatalf("the first judge: %v", err)
	}
	if _, err := OpenWith(where, Options{Serving: true, Password: pgTestPassword(t)}); !errors.Is(err, ErrLocked) {
		t.Fatalf("a second serving judge: %v, want ErrLocked", err)
	}
	tool := openTestWith(t, where, Options{})
	mustTx(t, tool, func(tx *Tx) error { _, err := tx.CreateGame(testGame("by-the-tool")); return err })

	// the first judge's writing session ends (as when its process is killed)
	var pid int
	mustTx(t, a, func(tx *Tx) error { return tx.queryRow(`SELECT pg_backend_pid()`).Scan(&pid) })
	if _, err := pgAdminDB(t).Exec(`SELECT pg_terminate_backend($1)`, pid); err != nil {
		t.Fatal(err)
	}
	var b *Store
	for try := 0; ; try++ { // the server drops the lock as it ends the session: soon, not at once
		var err error
		if b, err = OpenWith(where, Options{Serving: true, Password: pgTestPassword(t)}); err == nil {
			break
		}
		if !errors.Is(err, ErrLocked) || try == 500 {
			t.Fatalf("taking over: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := a.StillServing(ctx); !errors.Is(err, ErrLocked) {
		t.Errorf("the first judge after the takeover: %v, want ErrLocked", err)
	}
	if err := a.Tx(ctx, func(tx *Tx) error { _, err := tx.CreateGame(testGame("fenced")); return err }); err == nil {
		t.Error("the first judge wrote after the takeover")
	}
	mustTx(t, b, func(tx *Tx) error { _, err := tx.CreateGame(testGame("by-the-second")); return err })
	b.Close()
	if err := a.StillServing(ctx); err != nil {
		t.Errorf("the first judge once the lock is free: %v", err)
	}
	mustView(t, tool, func(tx *Tx) error {
		gs, err := tx.Games()
		if len(gs) != 2 {
			t.Errorf("%d games, want 2 (the tool's and the second judge's): %+v", len(gs), gs)
		}
		return err
	})
}
