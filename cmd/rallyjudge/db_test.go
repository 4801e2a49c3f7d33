package main

import (
	"bytes"
	"context"
	"database/sql"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver, to make and drop the schema

	"github.com/rallyjudge/rallyjudge/store"
)

// dbWithGame is a new SQLite database holding one game with a player.
func dbWithGame(t *testing.T, tag string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), tag+".db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	hash, err := st.HashSecret("ABCD-EFGH-JKLM-NPQR")
	if err != nil {
		t.Fatal(err)
	}
	err = st.Tx(context.Background(), func(tx *store.Tx) error {
		g, err := tx.CreateGame(store.Game{Tag: tag, Name: tag, Course: "risky-exchange", Seed: 1,
			Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}, Missed: store.MissedPowerDown, Created: now})
		if err != nil {
			return err
		}
		_, err = tx.AddPlayer(store.Player{GameID: g, Robot: "Twonky", Email: "t@example.org", SecretHash: hash, Created: now})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return path
}

func TestDBCopyAndCompare(t *testing.T) {
	src := dbWithGame(t, "spring")
	targets := []string{filepath.Join(t.TempDir(), "copy.db")}
	if dsn := os.Getenv("RALLYJUDGE_POSTGRES_DSN"); dsn != "" {
		// a database of its own for the copy: a schema made here (the role may)
		u, _ := url.Parse(dsn)
		schema := "cli_" + strings.ReplaceAll(time.Now().Format("150405.000000"), ".", "")
		if f := os.Getenv("RALLYJUDGE_POSTGRES_PASSWORD_FILE"); f != "" {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			t.Setenv("PGPASSWORD", strings.TrimSpace(string(b)))
		}
		q := u.Query()
		q.Set("search_path", schema)
		u.RawQuery = q.Encode()
		if err := createSchema(dsn, schema); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { dropSchema(dsn, schema) })
		targets = append(targets, u.String())
	} else {
		t.Log("PostgreSQL target skipped: no RALLYJUDGE_POSTGRES_DSN (scripts/postgres.sh, .ci/run)")
	}
	for _, to := range targets {
		var out, errb bytes.Buffer
		if code := run([]string{"db", "copy", "--from", src, "--to", to}, &out, &errb); code != 0 {
			t.Fatalf("db copy to %s: exit %d\n%s%s", to, code, out.String(), errb.String())
		}
		if !strings.Contains(out.String(), "games 1, players 1") || !strings.Contains(out.String(), "hold the same rows") {
			t.Errorf("db copy said:\n%s", out.String())
		}
		// a second copy into it is refused: it is not empty
		out.Reset()
		errb.Reset()
		if code := run([]string{"db", "copy", "--from", src, "--to", to}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "not empty") {
			t.Errorf("a copy into a full database: exit %d\n%s", code, errb.String())
		}
	}
	other := dbWithGame(t, "autumn")
	var out, errb bytes.Buffer
	if code := run([]string{"db", "compare", src, other}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "table games") {
		t.Errorf("compare of two communities: exit %d\n%s", code, errb.String())
	}
}

func createSchema(dsn, schema string) error {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.Exec(`CREATE SCHEMA ` + schema)
	return err
}

func dropSchema(dsn, schema string) {
	if db, err := sql.Open("pgx", dsn); err == nil {
		db.Exec(`DROP SCHEMA ` + schema + ` CASCADE`)
		db.Close()
	}
}
