package store

import (
	"context"
	"database/sql"
	"sync"
	"time"

	"modernc.org/sqlite"
)

// Checkpoints: SQLite's write-ahead log is copied back into the database file by a
// checkpoint. Left to SQLite, the connection whose commit takes the log past 1,000 pages
// runs it there and then, inside the commit: the writer, that is, and with it intake.
// Measured with a timeline of intake (1,000 sheets from Dovecot, issue 24 item 7), such
// a commit took 20–25 ms where the others took 3–8, once or twice a thousand mails: the
// checkpoint copies the pages and waits for the database file's fsync.
//
// So the writer leaves checkpoints to a goroutine of the store's own (checkpointer): once
// the writer's commits have written walCheckpointPages pages to the log since it last
// woke it, it wakes it, and it runs a PASSIVE checkpoint on a connection of its own — one
// that takes no lock a reader or the writer holds and waits for none — while the writer
// goes on. The log starts again from its beginning once a checkpoint has copied all of
// it (SQLite does that at the next write), so between bursts it stays near that size; in
// a burst it may grow past it.
//
// The pages are counted, not the log file measured: the file keeps its size when the log
// starts again, so a file once past the size woke the checkpointer at every commit after
// (191 checkpoints for 200 commits of 100 mails), and a checkpoint a commit (two fsyncs,
// and the pages every commit writes again, the last leaves of each index, copied again
// each time) cost the process about as much CPU as the commits themselves (issue 24
// item 7).
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

// walCheckpointPages is the number of pages the writer's commits write to the log between
// two wakings of the checkpointer: SQLite's own 1,000.
const walCheckpointPages = 1000

// checkpointer runs the write-ahead log's checkpoints beside the writer.
type checkpointer struct {
	kick chan struct{}
	stop chan struct{}
	done chan struct{}
	once sync.Once

	mu            sync.Mutex
	written       int   // pages the writer's commits wrote to the log since it last woke it
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
	c := &checkpointer{kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	s.ckpt = c
	go c.loop(db)
	return nil
}

// committed counts the pages the writer's connection wrote to the log since the last
// call (SQLite's count of pages it wrote, read and started again), and wakes the
// checkpointer once they come to walCheckpointPages. The writer calls it after each
// commit, on the connection that committed.
func (c *checkpointer) committed(conn *sql.Conn) {
	if c == nil {
		return
	}
	var pages int
	conn.Raw(func(dc any) error { //nolint:errcheck // the function returns nil
		if st, ok := dc.(sqlite.DBStatus); ok {
			pages, _, _ = st.Status(sqlite.DBStatusCacheWrite, true)
		}
		return nil
	})
	c.mu.Lock()
	c.written += pages
	wake := c.written >= walCheckpointPages
	if wake {
		c.written = 0
	}
	c.mu.Unlock()
	if wake {
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
