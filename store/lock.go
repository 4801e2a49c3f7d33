package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"
)

// ErrLocked is returned by LockDaemon when another process serves the database.
var ErrLocked = errors.New("another rallyjudge serve holds this database")

// DaemonLock is the lock one serving daemon holds on its database (LockDaemon).
type DaemonLock struct{ f *os.File }

// LockDaemon takes the lock that makes one daemon per database: an exclusive flock on
// path+".lock", which the kernel releases when the process ends however it ends (no
// stale lock after a crash). The file says who holds it; a second daemon is refused with
// that in the message. Command-line tools (game, export) do not take it: SQLite's own
// locking keeps their short transactions safe beside the daemon.
func LockDaemon(path string) (*DaemonLock, error) {
	name := path + ".lock"
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("store: lock %s: %w", name, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder := make([]byte, 200)
		n, _ := f.ReadAt(holder, 0)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("store: %s: %w (%s); stop it first, or give this one another database",
				path, ErrLocked, strings.TrimSpace(string(holder[:n])))
		}
		return nil, fmt.Errorf("store: lock %s: %w", name, err)
	}
	host, _ := os.Hostname()
	_ = f.Truncate(0)
	_, _ = f.WriteAt(fmt.Appendf(nil, "pid %d on %s since %s\n", os.Getpid(), host, time.Now().UTC().Format(time.RFC3339)), 0)
	return &DaemonLock{f: f}, nil
}

// Release gives the lock up.
func (l *DaemonLock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	_ = syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	err := l.f.Close()
	l.f = nil
	return err
}

// CheckServing is what a daemon checks before it serves: that the database's pages are
// sound (PRAGMA quick_check) and that it can be written (a start entry in the audit log).
// A database that fails either is refused with an error that says which; a daemon that
// started on it would read mail it could not record.
func (s *Store) CheckServing(ctx context.Context, now time.Time, who string) error {
	res, err := []string{"ok"}, error(nil)
	if !s.pg { // PostgreSQL checks its own pages (and has no quick_check)
		res, err = s.quickCheck(ctx)
	}
	if IsCorrupt(err) {
		res, err = []string{err.Error()}, nil
	}
	if err != nil {
		return fmt.Errorf("store: %s: integrity check: %w", s.path, err)
	}
	if len(res) != 1 || res[0] != "ok" {
		if len(res) > 5 {
			res = append(res[:5], "…")
		}
		return fmt.Errorf("store: %s: the integrity check failed (%s): %w; restore the last backup (docs/gamemasters.md, Backups)",
			s.path, strings.Join(res, "; "), ErrCorrupt)
	}
	if err := s.Tx(ctx, func(tx *Tx) error {
		_, err := tx.Audit(AuditEntry{At: now, Actor: "judge", Action: "start", Detail: who})
		return err
	}); err != nil {
		return fmt.Errorf("store: %s cannot be written (%w); a judge that cannot record what it reads would answer mail twice: free the disk or fix the permissions", s.path, err)
	}
	return nil
}

func (s *Store) quickCheck(ctx context.Context) ([]string, error) {
	rows, err := s.writer.QueryContext(ctx, "PRAGMA quick_check")
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

// ErrCorrupt marks a database whose pages are damaged (SQLITE_CORRUPT, SQLITE_NOTADB).
var ErrCorrupt = errors.New("database disk image is malformed")

// IsCorrupt reports whether err says the database's pages are damaged.
func IsCorrupt(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrCorrupt) {
		return true
	}
	var coded interface{ Code() int }
	if errors.As(err, &coded) {
		switch coded.Code() & 0xff {
		case 11, 26: // SQLITE_CORRUPT, SQLITE_NOTADB
			return true
		}
	}
	msg := err.Error()
	return strings.Contains(msg, "malformed") || strings.Contains(msg, "not a database")
}
