package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSecondDaemonIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "one.db")
	first, err := LockDaemon(path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = LockDaemon(path)
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("second daemon: %v, want ErrLocked", err)
	}
	if !strings.Contains(err.Error(), "pid ") || !strings.Contains(err.Error(), "stop it first") {
		t.Errorf("the refusal does not say who holds the lock and what to do: %v", err)
	}
	if err := first.Release(); err != nil {
		t.Fatal(err)
	}
	again, err := LockDaemon(path)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	again.Release()
}

// TestSecondDaemonIsRefusedWhateverThePath: the lock is the database file's, so a second
// daemon is refused through a symbolic link, a hard link, a symbolic link to the
// directory or another spelling of the path, and is told the pid that holds it (issue 21
// item 4: each of these started beside the first).
func TestSecondDaemonIsRefusedWhateverThePath(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "db", "one.db")
	if err := os.Mkdir(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	st, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	sym, hard, dirlink := filepath.Join(dir, "sym.db"), filepath.Join(dir, "hard.db"), filepath.Join(dir, "dirlink")
	if err := os.Symlink(path, sym); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(path, hard); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(path), dirlink); err != nil {
		t.Fatal(err)
	}
	first, err := LockDaemon(path)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Release()
	for _, other := range []string{path, sym, hard, filepath.Join(dirlink, "one.db"), filepath.Join(dir, "db", "..", "db", ".", "one.db")} {
		second, err := LockDaemon(other)
		if !errors.Is(err, ErrLocked) {
			second.Release()
			t.Errorf("a second daemon through %s: %v, want ErrLocked", other, err)
			continue
		}
		if want := fmt.Sprintf("pid %d", os.Getpid()); !strings.Contains(err.Error(), want) {
			t.Errorf("through %s the refusal does not name the holder (%s): %v", other, want, err)
		}
	}
	// and the database the lock sits on stays a database SQLite reads and writes
	st, err = Open(sym)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CheckServing(context.Background(), time.Now(), "test"); err != nil {
		t.Errorf("the locked database: %v", err)
	}
	st.Close()
}

// holdWriteLock takes SQLite's write lock on path from another connection, as another
// process would, until the returned function is called.
func holdWriteLock(t *testing.T, path string) func() {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	return func() {
		_, _ = conn.ExecContext(context.Background(), "ROLLBACK")
		conn.Close()
		db.Close()
	}
}

func TestCheckServingRefusesAnUnwritableDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ro.db")
	st, err := OpenWith(path, Options{BusyTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.CheckServing(context.Background(), time.Now(), "test"); err != nil {
		t.Fatalf("a sound, writable database refused: %v", err)
	}
	release := holdWriteLock(t, path)
	err = st.CheckServing(context.Background(), time.Now(), "test")
	release()
	if err == nil || !strings.Contains(err.Error(), "cannot be written") {
		t.Fatalf("CheckServing on a database it cannot write: %v", err)
	}
}

func TestCheckServingRefusesDamagedPages(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.db")
	st, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	now := time.Now()
	if err := st.Tx(ctx, func(tx *Tx) error {
		for i := 0; i < 2000; i++ {
			if _, err := tx.Audit(AuditEntry{At: now, Actor: "judge", Action: "fill", Detail: strings.Repeat("x", 200)}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	// damage a run of pages in the middle of the file (the audit table's b-tree)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := f.Stat()
	junk := []byte(strings.Repeat("\xde\xad\xbe\xef", 4096))
	if _, err := f.WriteAt(junk, fi.Size()/2&^4095); err != nil {
		t.Fatal(err)
	}
	f.Close()
	st, err = Open(path)
	if err != nil {
		if !IsCorrupt(err) {
			t.Fatalf("open of a damaged database failed, but not as damaged: %v", err)
		}
		return
	}
	defer st.Close()
	err = st.CheckServing(ctx, now, "test")
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "integrity check failed") {
		t.Fatalf("CheckServing on damaged pages: %v", err)
	}
}

func TestSavepointUndoesOnlyItsOwnWork(t *testing.T) {
	bothBackends(t, testSavepointUndoesOnlyItsOwnWork)
}

func testSavepointUndoesOnlyItsOwnWork(t *testing.T) {
	st := openTestWith(t, testDB(t), Options{})
	ctx := context.Background()
	now := time.Now()
	boom := errors.New("boom")
	err := st.Tx(ctx, func(tx *Tx) error {
		for i, fail := range []bool{false, true, false} {
			err := tx.Savepoint(func() error {
				if _, err := tx.Audit(AuditEntry{At: now, Actor: "t", Action: "sp", Detail: string(rune('a' + i))}); err != nil {
					return err
				}
				if fail {
					return boom
				}
				return nil
			})
			if (err != nil) != fail {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	_ = st.View(ctx, func(tx *Tx) error {
		es, err := tx.AuditLog(0, 10)
		for _, e := range es {
			if e.Action == "sp" {
				got = append(got, e.Detail)
			}
		}
		return err
	})
	if strings.Join(got, "") != "ac" {
		t.Errorf("kept %q, want a and c (b's savepoint rolled back)", got)
	}
}
