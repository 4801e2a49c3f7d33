package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
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

// TestClaims: on PostgreSQL a claim is one judge's at a time and ends with its claims
// session; a game's lock is one transaction's, and a writing transaction that reads the
// game waits for it; on SQLite (one daemon) everything is granted.
func TestClaims(t *testing.T) {
	bothBackends(t, func(t *testing.T) {
		ctx := context.Background()
		where := testDB(t)
		a := openTestWith(t, where, Options{Lease: 2 * time.Second})
		if !a.IsPostgres() {
			if ok, err := a.Claim(ctx, ClaimIntake, 0); !ok || err != nil {
				t.Fatalf("SQLite: claim: %v %v", ok, err)
			}
			mustTx(t, a, func(tx *Tx) error {
				ok, err := tx.LockGame(1)
				if !ok {
					t.Error("SQLite: LockGame refused")
				}
				return err
			})
			return
		}
		b := openTestWith(t, where, Options{Lease: 2 * time.Second})
		// the server drops a vanished judge's sessions within the lease: keepalives and
		// the TCP user timeout set from it on every session (the claims session's here)
		if ok, err := a.Claim(ctx, ClaimIntake, 99); !ok || err != nil {
			t.Fatalf("claim: %v %v", ok, err)
		}
		a.claims.mu.Lock()
		for setting, want := range map[string]string{"tcp_user_timeout": "2000", "tcp_keepalives_idle": "1", "tcp_keepalives_interval": "1", "tcp_keepalives_count": "1"} {
			var got string
			if err := a.claims.conn.QueryRowContext(ctx, `SELECT current_setting($1)`, setting).Scan(&got); err != nil || got != want {
				t.Errorf("%s on the claims session: %q (%v), want %q", setting, got, err, want)
			}
		}
		a.claims.mu.Unlock()
		claim := func(s *Store, kind ClaimKind, id int64) bool {
			t.Helper()
			ok, err := s.Claim(ctx, kind, id)
			if err != nil {
				t.Fatal(err)
			}
			return ok
		}
		if !claim(a, ClaimIntake, 0) || claim(b, ClaimIntake, 0) {
			t.Fatal("intake: want a's, refused to b")
		}
		if !claim(b, ClaimOutbox, 7) || claim(a, ClaimOutbox, 7) || !claim(a, ClaimOutbox, 8) {
			t.Fatal("outbox rows: want 7 b's, 8 a's")
		}
		if err := a.ClaimHeld(ctx, ClaimIntake, 0); err != nil {
			t.Fatalf("a's intake: %v", err)
		}
		if err := b.ClaimHeld(ctx, ClaimIntake, 0); !errors.Is(err, ErrClaimLost) {
			t.Fatalf("b's intake it never had: %v", err)
		}
		if err := b.Unclaim(ctx, ClaimOutbox, 7); err != nil || !claim(a, ClaimOutbox, 7) {
			t.Fatalf("outbox 7 given back by b, taken by a: %v", err)
		}

		// a's claims session ends (as when its process is killed): its claims go with it
		var pid int
		a.claims.mu.Lock()
		err := a.claims.conn.QueryRowContext(ctx, `SELECT pg_backend_pid()`).Scan(&pid)
		a.claims.mu.Unlock()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := pgAdminDB(t).Exec(`SELECT pg_terminate_backend($1, 10000)`, pid); err != nil {
			t.Fatal(err)
		}
		if !claim(b, ClaimIntake, 0) { // pg_terminate_backend with a timeout waits for the end
			t.Fatal("b could not take intake once a's session ended")
		}
		if err := a.ClaimHeld(ctx, ClaimIntake, 0); !errors.Is(err, ErrClaimLost) {
			t.Errorf("a's intake after its session ended: %v, want ErrClaimLost", err)
		}
		if claim(a, ClaimIntake, 0) {
			t.Error("a took intake back from b")
		}

		// a game's lock: b skips it while a holds it, and b's read of the game for
		// writing waits for a's commit and sees what a wrote
		var id int64
		mustTx(t, a, func(tx *Tx) error {
			var err error
			id, err = tx.CreateGame(testGame("locked"))
			return err
		})
		locked, release, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
		go func() {
			done <- a.Tx(ctx, func(tx *Tx) error {
				if ok, err := tx.LockGame(id); !ok || err != nil {
					return fmt.Errorf("a: LockGame %v %v", ok, err)
				}
				if ok, err := tx.TryLock(ClaimLifecycle, 0); !ok || err != nil {
					return fmt.Errorf("a: TryLock %v %v", ok, err)
				}
				close(locked)
				<-release
				return tx.SetGameStatus(id, GameOver)
			})
		}()
		<-locked
		mustTx(t, b, func(tx *Tx) error {
			ok, err := tx.LockGame(id)
			if ok {
				t.Error("b locked the game a holds")
			}
			if got, _ := tx.TryLock(ClaimLifecycle, 0); got {
				t.Error("b took the lifecycle lock a holds")
			}
			return err
		})
		close(release)
		mustTx(t, b, func(tx *Tx) error {
			g, err := tx.Game(id) // waits for a's commit
			if err == nil && g.Status != GameOver {
				t.Errorf("b read status %s, want a's %s", g.Status, GameOver)
			}
			return err
		})
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	})
}
