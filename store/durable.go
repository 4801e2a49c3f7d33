package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"os"
	"sync"
)

// Commits put on disk later: intake commits each batch of mail with TxSyncLater, which
// returns once the commit is in SQLite's log but before the log is on disk, and the
// writer goes on to the next batch while the disk catches up. Before anything outside
// the database counts on the batch (its mails flagged done on the IMAP server, its
// replies sent), Sync puts the log on disk. A synchronous=FULL commit waited for the
// disk inside the writer: some 5 ms a batch, in which the writer, the one thing intake
// cannot run two of, did nothing (issue 24 item 7).
//
// What a crash can do: a killed process loses nothing (the commit is in the operating
// system's cache, and SQLite's log is read back from there). A power cut or an
// operating system crash may lose the commits since the last Sync — the whole of them
// or the last few, never a part of one, nor a damaged file (the log's frames are
// checksummed in a chain: SQLite reads it back up to the first frame that did not reach
// the disk) — but nothing flagged done or answered: those mails are fetched again and
// judged as new.
//
// A Sync that fails leaves every later one failing (sticky): after a failed fsync the
// operating system may have dropped the pages it could not write and report the next
// fsync as a success, so nothing since can be known to be on disk. The judge then stops
// taking mail; once it is started again, SQLite reads the log from the disk.

// durability counts the commits made with TxSyncLater and how many of them are known to
// be on disk.
type durability struct {
	mu     sync.Mutex
	later  uint64 // commits made with TxSyncLater
	synced uint64 // of them, the ones a Sync put on disk
	err    error  // a failed Sync: every later one fails
}

// TxSyncLater is Tx whose commit does not wait for the disk (see above): the commit is
// on disk once a Sync returns nil after it. On PostgreSQL, and on a store opened with
// SyncNormal, it is Tx.
func (s *Store) TxSyncLater(ctx context.Context, fn func(tx *Tx) error) error {
	if s.pg || s.opts.Sync != SyncFull {
		return s.Tx(ctx, fn)
	}
	return s.runWith(ctx, s.wstmts, nil, true, fn)
}

// Sync puts every commit made so far on disk: at once when every TxSyncLater commit
// has been put there by another Sync (a synchronous=FULL commit puts the log on disk
// too, but Sync does not count on it: one that wrote nothing syncs nothing). Once it
// has failed it fails for good (see above).
func (s *Store) Sync() error {
	if s.pg || s.opts.Sync != SyncFull {
		return nil
	}
	d := &s.dur
	d.mu.Lock()
	target, err := d.later, d.err
	done := d.synced >= target
	d.mu.Unlock()
	if err != nil || done {
		return err
	}
	if s.opts.SyncLog != nil {
		err = s.opts.SyncLog(s.path)
	} else {
		err = syncLog(s.path)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if err != nil {
		if d.err == nil {
			d.err = fmt.Errorf("store: putting the log on disk: %w", err)
		}
		return d.err
	}
	d.synced = max(d.synced, target)
	return d.err
}

// syncLog fsyncs SQLite's log file (an fsync puts every page of the file on disk,
// whichever descriptor wrote it); with no log file, the database file.
func syncLog(path string) error {
	f, err := os.Open(path + "-wal")
	if errors.Is(err, os.ErrNotExist) {
		f, err = os.Open(path)
	}
	if err != nil {
		return err
	}
	err = f.Sync()
	return errors.Join(err, f.Close())
}

// syncLater sets the writer's connection to commit without waiting for the disk, and
// returns what sets it back, which runs once the transaction has ended. A connection
// that cannot be set back is dropped from the pool (a new one opens with the store's
// setting).
func (s *Store) syncLater(ctx context.Context, conn *sql.Conn) (restore func(committed bool), err error) {
	if _, err := conn.ExecContext(ctx, "PRAGMA synchronous=NORMAL"); err != nil {
		return nil, fmt.Errorf("store: begin: %w", err)
	}
	return func(committed bool) {
		if committed {
			s.dur.mu.Lock()
			s.dur.later++
			s.dur.mu.Unlock()
		}
		if _, err := conn.ExecContext(ctx, "PRAGMA synchronous="+string(s.opts.Sync)); err != nil {
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		}
	}, nil
}
