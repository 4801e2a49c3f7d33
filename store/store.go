package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// ErrNotFound is returned (wrapped) when a looked-up row does not exist.
var ErrNotFound = errors.New("not found")

// Options tune a Store. The zero value means the defaults.
type Options struct {
	// BusyTimeout is how long a connection waits for a lock held by another
	// process (for example a CLI command next to the daemon). Default 5s.
	BusyTimeout time.Duration
	// Readers is the size of the read-only connection pool. Default
	// max(2, GOMAXPROCS).
	Readers int
	// Retry is the outbox retry policy. Zero fields take DefaultRetry()'s.
	Retry RetryPolicy
	// Password is the PostgreSQL role's password, when the DSN does not carry it (it
	// should not: the config names an environment variable or a file). Unused by SQLite.
	Password string
	// Lease (PostgreSQL only) is how soon the server ends the sessions of a judge that
	// is gone (its machine, or the network to it), and with them its claims and locks
	// (claims.go): TCP keepalives and tcp_user_timeout on every session. Zero: the
	// server's defaults (hours). A judge killed on a machine that stays loses them at
	// once: its sockets close.
	Lease time.Duration
	// Sync is PRAGMA synchronous. The default, SyncFull, puts every commit on
	// disk before Tx returns, and TxSyncLater's once Sync returns (the mail
	// reader relies on it: it flags a message on the server once it is on disk). SyncNormal is for tests and
	// throw-away databases (the demo): a power cut may lose the last commits,
	// a killed process loses nothing, and the file is never corrupted.
	Sync SyncMode
	// SyncLog, when set, replaces the fsync of the log that Sync runs (durable.go):
	// tests make the disk fail there.
	SyncLog func(path string) error
}

// SyncMode is a PRAGMA synchronous setting.
type SyncMode string

// The sync modes.
const (
	SyncFull   SyncMode = "FULL"
	SyncNormal SyncMode = "NORMAL"
)

// Store is rallyjudge's state: one SQLite file in WAL mode. Writes go through a
// single connection (SQLite has one writer at a time; queueing in Go is kinder
// than SQLITE_BUSY), reads through a pool that WAL lets run beside the writer.
type Store struct {
	path   string // the SQLite file, or the PostgreSQL DSN without its password
	pg     bool   // PostgreSQL (postgres.go)
	pgcfg  *pgx.ConnConfig
	writer *sql.DB
	reader *sql.DB
	claims *claims // PostgreSQL: the claims session (claims.go)
	retry  RetryPolicy
	opts   Options
	key    []byte // the server key of keyed secret hashes (secret.go)
	// prepared statements of each pool (stmtcache.go)
	wstmts, rstmts *stmtCache
	// scrubber is Scrub's own connection, opened on first use: it waits for no lock
	scrubMu  sync.Mutex
	scrubber *sql.DB
	// ckpt runs the write-ahead log's checkpoints beside the writer (checkpoint.go)
	ckpt *checkpointer
	// dur counts the commits not yet known to be on disk (durable.go)
	dur durability
}

// Open opens (creating it if needed) the database at path with the default
// Options and brings its schema up to date.
func Open(path string) (*Store, error) {
	return OpenWith(path, Options{})
}

// OpenWith is Open with explicit Options.
//
// A path starting postgres:// or postgresql:// is a PostgreSQL DSN (postgres.go);
// anything else is a SQLite file.
func OpenWith(path string, o Options) (*Store, error) {
	if IsPostgres(path) {
		return openPostgres(path, o)
	}
	if path == "" || path == ":memory:" {
		return nil, fmt.Errorf("store: open %q: a file path is needed (WAL and the reader pool need a file)", path)
	}
	if o.BusyTimeout <= 0 {
		o.BusyTimeout = 5 * time.Second
	}
	switch o.Sync {
	case "":
		o.Sync = SyncFull
	case SyncFull, SyncNormal:
	default:
		return nil, fmt.Errorf("store: open %s: unknown sync mode %q (want FULL or NORMAL)", path, o.Sync)
	}
	if o.Readers <= 0 {
		o.Readers = max(2, runtime.GOMAXPROCS(0))
	}
	ms, err := embeddedMigrations()
	if err != nil {
		return nil, err
	}

	writer, err := sql.Open("sqlite", dsn(path, o, false))
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	writer.SetMaxOpenConns(1)
	writer.SetMaxIdleConns(1)
	writer.SetConnMaxLifetime(0)
	writer.SetConnMaxIdleTime(0)
	ctx := context.Background()
	if err := writer.PingContext(ctx); err != nil {
		writer.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	if err := migrate(ctx, writer, path, ms); err != nil {
		writer.Close()
		return nil, err
	}
	key, err := loadKey(ctx, writer, false)
	if err != nil {
		writer.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}

	reader, err := sql.Open("sqlite", dsn(path, o, true))
	if err != nil {
		writer.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	reader.SetMaxOpenConns(o.Readers)
	reader.SetMaxIdleConns(o.Readers)
	if err := reader.PingContext(ctx); err != nil {
		writer.Close()
		reader.Close()
		return nil, fmt.Errorf("store: open %s (reader): %w", path, err)
	}
	s := &Store{path: path, writer: writer, reader: reader, retry: o.Retry.withDefaults(), opts: o, key: key,
		wstmts: newStmtCache(writer), rstmts: newStmtCache(reader)}
	if err := s.startCheckpointer(); err != nil {
		writer.Close()
		reader.Close()
		return nil, fmt.Errorf("store: open %s (checkpointer): %w", path, err)
	}
	return s, nil
}

// dsn builds the modernc.org/sqlite data source name. The writer begins its
// transactions IMMEDIATE so that a transaction never has to upgrade a read lock
// to a write lock (which fails at once with SQLITE_BUSY instead of waiting).
func dsn(path string, o Options, readOnly bool) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", o.BusyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous("+string(o.Sync)+")")
	// Statement and savepoint journals in memory, not in a temporary file: each mail of
	// a batch is judged in a savepoint, and writing its journal to a file was a tenth of
	// intake's CPU (issue 14). They only serve to undo inside a transaction, so nothing
	// durable is lost; the WAL still makes every commit durable.
	q.Add("_pragma", "temp_store(2)")
	if readOnly {
		q.Add("_pragma", "query_only(1)")
	} else {
		q.Set("_txlock", "immediate")
		// checkpoints are the checkpointer's (checkpoint.go); this is the backstop
		q.Add("_pragma", fmt.Sprintf("wal_autocheckpoint(%d)", walBackstopPages))
		// Deleted and overwritten content is zeroed, not left in free pages: a received
		// mail's secret, removed once the mail is processed, leaves no copy in the file
		// (issue 14 item 8; the WAL is emptied by Scrub).
		q.Add("_pragma", "secure_delete(1)")
	}
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
}

// Scrub checkpoints the write-ahead log into the database and truncates it to nothing,
// so that the older versions of rows it holds (a received mail before its secret was
// removed) are not kept on disk. The judge runs it at every tick; a reader in the way
// in the way leaves it to the next one.
func (s *Store) Scrub(ctx context.Context) error {
	if s.pg { // no WAL file of ours: PostgreSQL's VACUUM reclaims old row versions
		return nil
	}
	s.scrubMu.Lock()
	defer s.scrubMu.Unlock()
	if s.scrubber == nil {
		// a connection of its own that waits for no lock: a checkpoint that finds a reader
		// or a writer in the way gives up at once (and is tried again later) rather than
		// hold the caller (intake, the clock) for the busy timeout
		o := s.opts
		o.BusyTimeout = time.Millisecond
		db, err := sql.Open("sqlite", dsn(s.path, o, false))
		if err != nil {
			return fmt.Errorf("store: scrub: %w", err)
		}
		db.SetMaxOpenConns(1)
		s.scrubber = db
	}
	var busy, logged, moved int
	if err := s.scrubber.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logged, &moved); err != nil {
		return fmt.Errorf("store: scrub: %w", err)
	}
	if busy != 0 {
		return fmt.Errorf("store: scrub: the log is in use (%d of %d pages moved); tried again later", moved, logged)
	}
	return nil
}

// Path is the database file's path, or the PostgreSQL DSN without a password.
func (s *Store) Path() string { return s.path }

// Close closes both connection pools.
func (s *Store) Close() error {
	s.ckpt.close()
	s.scrubMu.Lock()
	var scrub error
	if s.scrubber != nil {
		scrub = s.scrubber.Close()
	}
	s.scrubMu.Unlock()
	if s.pg {
		return errors.Join(s.claims.close(), s.reader.Close(), s.writer.Close())
	}
	return errors.Join(s.rstmts.close(), s.wstmts.close(), s.reader.Close(), s.writer.Close(), scrub)
}

// SchemaVersion is the database's schema version (PRAGMA user_version).
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	if s.pg {
		return pgSchemaVersion(ctx, s.reader)
	}
	var v int
	err := s.reader.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
	return v, err
}

// Tx runs fn in one write transaction and commits it when fn returns nil; on an
// error (or a panic) nothing fn did is kept. This is how callers keep "the
// resolved turn's new state AND every mail it produces" together.
//
// Writes are serialised: Tx waits for any other Tx of this Store. Do not call
// s.Tx from inside fn (it would wait for itself); use the tx you were given.
func (s *Store) Tx(ctx context.Context, fn func(tx *Tx) error) error {
	return s.run(ctx, s.wstmts, nil, fn)
}

// View runs fn in a read-only transaction: a consistent snapshot that does not
// wait for, or hold up, the writer. Write methods called on its tx fail.
func (s *Store) View(ctx context.Context, fn func(tx *Tx) error) error {
	if s.pg { // one snapshot for the whole transaction, as SQLite's read transactions
		return s.run(ctx, s.rstmts, &sql.TxOptions{ReadOnly: true, Isolation: sql.LevelRepeatableRead}, fn)
	}
	return s.run(ctx, s.rstmts, &sql.TxOptions{ReadOnly: true}, fn)
}

func (s *Store) run(ctx context.Context, stmts *stmtCache, opts *sql.TxOptions, fn func(tx *Tx) error) (err error) {
	return s.runWith(ctx, stmts, opts, false, fn)
}

// runWith is run; with syncLater, a write transaction whose commit does not wait for the
// disk (TxSyncLater).
func (s *Store) runWith(ctx context.Context, stmts *stmtCache, opts *sql.TxOptions, syncLater bool, fn func(tx *Tx) error) (err error) {
	if stmts != nil {
		stmts.prepareWanted(ctx)
	}
	// The connection is waited for with ctx: a caller that gives up does not wait for
	// another's transaction. The transaction itself runs on a context that cannot be
	// cancelled (quiet), and ctx is checked before every statement and before the
	// commit instead: on a context that can be, the driver starts a goroutine to watch
	// it for every statement run, and database/sql one for every query's rows, which
	// cost intake some thirty goroutines a mail (issue 14, item 10). A statement already
	// running when ctx ends runs to its end (they are short; BEGIN IMMEDIATE waits for
	// another process's lock at most the busy timeout).
	db := s.writer
	if opts != nil && opts.ReadOnly {
		db = s.reader
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("store: begin: %w", err)
	}
	defer conn.Close() // after the deferred rollback below: back to the pool
	quiet := context.WithoutCancel(ctx)
	write := opts == nil || !opts.ReadOnly
	committed := false
	if syncLater && write {
		restore, err := s.syncLater(quiet, conn)
		if err != nil {
			return err
		}
		defer func() { restore(committed) }() // after the deferred rollback below
	}
	sqlTx, err := conn.BeginTx(quiet, opts)
	if err != nil {
		return fmt.Errorf("store: begin: %w", err)
	}
	tx := &Tx{ctx: quiet, caller: ctx, tx: sqlTx, retry: s.retry, stmts: stmts, pg: s.pg, write: write}
	defer func() {
		if p := recover(); p != nil {
			sqlTx.Rollback() //nolint:errcheck // re-panicking anyway
			panic(p)
		}
		if err != nil {
			sqlTx.Rollback() //nolint:errcheck // the first error is the one to report
		}
	}()
	if err = fn(tx); err != nil {
		return err
	}
	if err = ctx.Err(); err != nil { // given up: nothing is kept, as before the commit
		return fmt.Errorf("store: commit: %w", err)
	}
	if err = tx.flushLater(); err != nil {
		return err
	}
	if err = sqlTx.Commit(); err != nil {
		return fmt.Errorf("store: commit: %w", err)
	}
	committed = true
	if tx.write {
		s.ckpt.committed(conn) // the log's pages go to the database file beside the writer
	}
	return nil
}

// Backup writes a consistent copy of the whole database to path (which must
// not exist yet) with VACUUM INTO, while the Store keeps running: it reads one
// snapshot and does not block the writer. The copy is
// a compact, standalone database file (no -wal file needed).
func (s *Store) Backup(ctx context.Context, path string) error {
	if s.pg {
		return fmt.Errorf("store: backup to %s: the database is PostgreSQL: back it up with pg_dump (docs/gamemasters.md, Running several judges)", path)
	}
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("store: backup to %s: file exists; VACUUM INTO will not overwrite it", path)
	}
	// VACUUM INTO is refused on a query_only connection and would hold up
	// every write if it ran on the writer's single connection, so it gets a
	// connection of its own. It only reads the source: in WAL mode it sees the
	// last commit and neither waits for nor blocks the writer.
	db, err := sql.Open("sqlite", dsn(s.path, s.opts, false))
	if err != nil {
		return fmt.Errorf("store: backup to %s: %w", path, err)
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("store: backup to %s: %w", path, err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "VACUUM INTO ?", path); err != nil {
		return fmt.Errorf("store: backup to %s: %w", path, err)
	}
	return nil
}

// Tx is one transaction. Its methods use the context given to Store.Tx or
// Store.View. A Tx must not be used after fn returns.
type Tx struct {
	// ctx runs the statements: the caller's, without its cancellation; caller is the
	// caller's, checked before each statement (run)
	ctx, caller context.Context
	tx          *sql.Tx
	pg          bool // PostgreSQL: queries rebound (dialect.go)
	write       bool // a writing transaction (Tx, not View)
	retry       RetryPolicy
	// prepared statements (stmtcache.go): the pool's, those bound to this transaction,
	// and the rows last opened on each bound one
	stmts *stmtCache
	bound map[*sql.Stmt]*sql.Stmt
	open  map[*sql.Stmt]*sql.Rows
	// rows queued to be inserted later (later.go), and the error that inserting them
	// met, which fails the transaction
	later    *later
	laterErr error
	// the mails a batch looked up (InboxExpect): those InboxInsert may queue
	expect *inboxExpect
	// what callers worked out from the rows this transaction read (Memo), and the
	// writes that may have changed them, by table (Writes)
	memo   map[any]any
	writes map[string]int
}

// queryAll runs a query and scans every row it returns with scan; what names the rows
// in errors ("games", "outbox").
func queryAll[T any](t *Tx, what string, scan func(scanner) (T, error), q string, args ...any) ([]T, error) {
	rows, err := t.query(q, args...)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", what, err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("store: %s: %w", what, err)
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// noRows turns sql.ErrNoRows into ErrNotFound.
func noRows(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	return err
}

// Savepoint runs fn inside a SAVEPOINT of the transaction: when fn fails, what it did is
// undone and the transaction goes on (a batch of mails commits in one transaction, and
// one mail that fails must not take the others with it).
func (t *Tx) Savepoint(fn func() error) error {
	if _, err := t.exec("SAVEPOINT one"); err != nil {
		return fmt.Errorf("store: savepoint: %w", err)
	}
	err := fn()
	if err == nil {
		err = t.flushLater() // the rows it queued are its own: inserted inside it
	}
	if err != nil {
		t.dropLater() // rolled back with it
		clear(t.memo) // it may count rows the rollback undoes
		if _, rerr := t.exec("ROLLBACK TO one"); rerr != nil {
			return errors.Join(err, fmt.Errorf("store: rollback to savepoint: %w", rerr))
		}
		if _, rerr := t.exec("RELEASE one"); rerr != nil {
			return errors.Join(err, fmt.Errorf("store: release savepoint: %w", rerr))
		}
		return err
	}
	if _, err := t.exec("RELEASE one"); err != nil {
		return fmt.Errorf("store: release savepoint: %w", err)
	}
	return nil
}
