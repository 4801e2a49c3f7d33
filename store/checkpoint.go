package store

import (
	"context"
	"database/sql"
	"os"
	"sync"
	"time"
)

// Checkpoints: SQLite's write-ahead log is copied back into the database file by a
// checkpoint. Left to SQLite, the connection whose commit takes the log past 1,000 pages
// runs it there and then, inside the commit: the writer, that is, and with it intake.
// Measured with a timeline of intake (1,000 sheets from Dovecot, issue 24 item 7), such
// a commit took 20–25 ms where the others took 3–8, once or twice a thousand mails: the
// checkpoint copies the pages and waits for the database file's fsync.
//
// So the writer leaves checkpoints to a goroutine of the store's own (checkpointer): a
// write commit that finds the log file at walCheckpointBytes or more wakes it, and it
// runs a PASSIVE checkpoint on a connection of its own — one that takes no lock a
// reader or the writer holds and waits for none — while the writer goes on. The log
// starts again from its beginning once a checkpoint has copied all of it (SQLite does
// that at the next write), so between bursts it stays near that size; in a burst it may
// grow past it.
//
// A smaller log is left alone, as SQLite leaves one under 1,000 pages: each commit then
// adds to the log file, so a disk that filled up fails the very next commit and intake
// stops at once (TestDiskFaultsWhileServing). A log started again writes over its own
// pages and needs no new space: a full disk is then noticed once the log must grow, or
// by the checkpoint that cannot grow the database file (it fails, and is tried again
// after the next commit; Scrub's checkpoint at the clock's tick reports it). walBackstopPages is the writer's own automatic
// checkpoint, kept as a backstop should the checkpointer fall behind (a reader that
// holds an old snapshot for long keeps any checkpoint from finishing): the log never
// grows past it. Durability is not touched: a commit is on disk in the log (synchronous
// FULL) before Tx returns, whether or not a checkpoint has copied it since. Scrub, at
// the clock's tick, still truncates the log to nothing.

// walBackstopPages is the writer's automatic checkpoint (PRAGMA wal_autocheckpoint): a
// log of this many pages (64 MiB at 4 KiB a page) is checkpointed by the commit that
// reaches it, as SQLite does by default at 1,000.
const walBackstopPages = 16384

// walCheckpointBytes is the size of the log file from which a write commit wakes the
// checkpointer: about SQLite's own 1,000 pages.
const walCheckpointBytes = 4 << 20

// checkpointer runs the write-ahead log's checkpoints beside the writer.
type checkpointer struct {
	wal  string // the log file
	kick chan struct{}
	stop chan struct{}
	done chan struct{}
	once sync.Once

	mu            sync.Mutex
	runs          int   // checkpoints run
	err           error // the last one's error, if it failed
	logged, moved int   // the last one's pages in the log, and copied of them
}

// startCheckpointer starts s's checkpointer on a connection of its own.
func (s *Store) startCheckpointer() error {
	o := s.opts
	o.BusyTimeout = time.Millisecond // a checkpoint waits for nothing: the next one is soon
	db, err := sql.Open("sqlite", dsn(s.path, o, false))
	if err != nil {
		return err
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	c := &checkpointer{wal: s.path + "-wal", kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	s.ckpt = c
	go c.loop(db)
	return nil
}

// committed wakes the checkpointer when the log file is walCheckpointBytes or more. The
// writer calls it after each commit.
func (c *checkpointer) committed() {
	if c == nil {
		return
	}
	if fi, err := os.Stat(c.wal); err == nil && fi.Size() >= walCheckpointBytes {
		c.wake()
	}
}

// wake asks for a checkpoint soon; a request already waiting covers this one.
func (c *checkpointer) wake() {
	if c == nil {
		return
	}
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

func (c *checkpointer) loop(db *sql.DB) {
	defer close(c.done)
	defer db.Close()
	for {
		select {
		case <-c.stop:
			return
		case <-c.kick:
		}
		// PASSIVE: copies what no reader still needs, and never waits for a lock
		var busy, logged, moved int
		err := db.QueryRowContext(context.Background(), `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &logged, &moved)
		c.mu.Lock()
		c.runs++
		c.err, c.logged, c.moved = err, logged, moved
		c.mu.Unlock()
	}
}

// close stops the checkpointer and waits for the checkpoint under way, if any.
func (c *checkpointer) close() {
	if c == nil {
		return
	}
	c.once.Do(func() { close(c.stop) })
	<-c.done
}

// Checkpoints reports how many checkpoints the store's checkpointer ran, and the last
// one's error (nil when it succeeded): for tests and the operator's diagnostics.
func (s *Store) Checkpoints() (int, error) {
	if s.ckpt == nil {
		return 0, nil
	}
	s.ckpt.mu.Lock()
	defer s.ckpt.mu.Unlock()
	return s.ckpt.runs, s.ckpt.err
}
