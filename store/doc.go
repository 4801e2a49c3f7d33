// Package store is rallyjudge's memory: one SQLite file (modernc.org/sqlite, no
// cgo), or a PostgreSQL database (see PostgreSQL below), holding games, players, resolved turns, every version of every order
// sheet, every received mail, every outgoing mail, an audit log and the auth
// failures used for rate limiting.
//
// # What it must not do
//
// It knows nothing of RoboRally, IMAP or SMTP: states, events and parsed orders
// are JSON bytes it stores and returns untouched. It never reads the clock
// (every time is a parameter, so tests are deterministic), never sends mail,
// never logs, and never stores a plain secret: players' and game masters'
// secrets go in as keyed hashes (Store.HashSecret: HMAC-SHA-256 under a server key;
// older bcrypt hashes are still read), and the schema refuses anything else.
//
// # Opening
//
// Open applies the numbered migrations embedded from migrations/NNN_name.sql,
// one transaction each, and keeps the version in PRAGMA user_version. A file
// written by a newer rallyjudge is refused with ErrSchemaTooNew rather than
// guessed at. The database runs in WAL mode with a busy timeout, foreign
// keys on and synchronous=FULL: when Tx returns, the commit is on disk. Intake's
// batches commit with TxSyncLater, which returns before the disk has the commit,
// and the mail reader calls Sync before it flags the batch's mail on the server,
// as the sender does before it sends a reply (durable.go) (Options.Sync NORMAL
// trades all of that for speed in tests and the demo). Writes go through a single connection (Store.Tx; SQLite has one
// writer at a time), reads through a pool (Store.View) that runs beside the
// writer and sees a consistent snapshot. Every method that records something
// takes its time as a parameter and refuses a zero one.
//
// # The outbox pattern
//
// Nothing in rallyjudge sends mail directly. Whatever produces mail writes it
// to the outbox table in the same transaction as the change it reports:
//
//	st.Tx(ctx, func(tx *store.Tx) error {
//		if _, err := tx.SaveTurn(turn); err != nil { // the new state …
//			return err
//		}
//		for _, m := range reports {
//			if _, _, err := tx.Enqueue(m); err != nil { // … and every report, or neither
//				return err
//			}
//		}
//		return nil
//	})
//
// and so do an accepted sheet (AddOrders) and its acknowledgement. A crash
// before the commit leaves neither; after it, both. A separate sender drains the
// outbox: DuePending, then for each mail MarkSent on success, MarkRetry on a
// temporary failure (exponential backoff per RetryPolicy, failed after
// MaxAttempts) or MarkFailed on a permanent (5xx) one.
//
// Delivery is at least once: if the process dies after the SMTP server took a
// mail but before MarkSent committed, the mail goes again after the restart.
// It goes with the same bytes and the same Message-ID (stored with it, and
// unique in the table), so the duplicate is recognisable; the window is the
// few milliseconds between the server's 250 and the commit. Give mails
// deterministic Message-IDs (say, game, turn, robot and kind) and Enqueue is
// idempotent too: enqueuing the same Message-ID again changes nothing.
//
// Incoming mail is idempotent the same way: InboxInsert stores a message once
// per (UIDVALIDITY, UID) and once per Message-ID, and reports a repeat as dup.
// SaveTurn only saves the game's current turn and moves the game on, so a turn
// cannot be resolved twice.
//
// # Backing up a running database
//
// Do not copy the .db file while rallyjudge runs: in WAL mode recent commits
// live in the -wal file, and a copy of one without the other can be torn. Use
// Store.Backup (VACUUM INTO), which writes a consistent, compact snapshot to a
// new file without stopping the daemon, or from a shell:
//
//	sqlite3 judge.db "VACUUM INTO '/backups/judge-2025-01-01.db'"
//
// (the sqlite3 shell's .backup command, which uses the online backup API, works
// too). A backup file is a complete database: open it with Open to restore.
//
// # PostgreSQL
//
// A database that is a postgres:// DSN rather than a path opens on PostgreSQL (pgx/v5's
// database/sql driver; postgres.go), with the same tables, the same guarantees and the
// same methods: the SQL is written once in what both share, and dialect.go numbers the
// placeholders and reads new IDs back (RETURNING) for PostgreSQL. The migrations are
// read by both, PostgreSQL through a change of words (INTEGER is BIGINT, BLOB is BYTEA)
// or a text of its own in migrations/postgres/. Two differences a caller sees: a
// statement that fails ends a PostgreSQL transaction, so a caller that goes on after a
// refused write runs it in Savepoint (the judge runs each mail in one anyway); and
// Backup refuses (pg_dump backs PostgreSQL up). One judge serves a SQLite file
// (LockDaemon); several share a PostgreSQL database, each piece of work taken by one of
// them at a time: claims held by a session of the store's own (the mailbox's intake, an
// outbox row being sent) and the lock of a game's row while a transaction reads or
// resolves it (claims.go). The
// tests run on both (backend_test.go; RALLYJUDGE_POSTGRES_DSN).
//
// Files, one concept each: store.go (opening, transactions, backup),
// migrate.go, games.go, players.go (players and game masters), turns.go,
// orders.go, inbox.go (received mail and mailbox state), outbox.go, audit.go
// (audit log and auth failures), secret.go.
package store
