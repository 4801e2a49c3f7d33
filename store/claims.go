package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Several judges on one PostgreSQL database share the work (issue 25 item 3). What one
// of them does, no other does at the same time:
//
//   - a claim (Claim, Unclaim, ClaimHeld) is a session advisory lock taken on a
//     connection of the store's own, the claims session: the mailbox's intake (one judge
//     reads it at a time) and each outbox row being sent (one sender). The server drops
//     every claim of a session when it ends: at once when the judge's process dies on
//     the same machine (its socket closes), within Options.Lease when its machine or the
//     network goes (TCP keepalives and tcp_user_timeout, set from the lease, on every
//     session of the store);
//   - a lock of a transaction (Tx.LockGame, Tx.TryLock) ends with the transaction: each
//     game's turn is resolved under its row's lock (SELECT … FOR UPDATE SKIP LOCKED: a
//     judge that finds it taken leaves the game to the one holding it), and every other
//     writing transaction that reads a game row (Game, GameByTag) waits for that lock,
//     so mail about a game and its resolution follow one another as on SQLite;
//     reminders and final summaries run under a transaction lock of their own (one judge
//     at a time).
//
// On SQLite one daemon serves the file (LockDaemon): every claim and lock is granted.

// ClaimKind is what a claim is on; its ID says which one (a row's ID, or 0).
type ClaimKind int32

// The kinds of claim.
const (
	ClaimIntake    ClaimKind = 1 // the mailbox: one judge reads it at a time
	ClaimOutbox    ClaimKind = 2 // one outbox row, while it is being sent
	ClaimLifecycle ClaimKind = 3 // reminders and final summaries (a transaction lock)
)

// ErrClaimLost is returned by ClaimHeld when the claim is no longer this judge's: its
// claims session ended (the server or the network dropped it), or it was never taken.
var ErrClaimLost = errors.New("the claim was lost (the claims session ended)")

// claimKey is the advisory lock key of a claim: one bigint, a hash of the schema, the
// kind and the ID, so that judges on other schemas of the same database (the tests')
// never meet.
const claimKey = `hashtextextended(current_schema() || ':' || $1::int::text || ':' || $2::bigint::text, 0)`

type claimID struct {
	kind ClaimKind
	id   int64
}

// claims is a PostgreSQL store's claims session: one connection, pinned, so that a claim
// lives exactly as long as the session that took it. When the session is found ended,
// every claim is gone with it (gen changes) and the next Claim opens a new one.
type claims struct {
	mu   sync.Mutex
	db   *sql.DB
	conn *sql.Conn
	gen  uint64
	held map[claimID]uint64 // claim → the session (gen) that took it
}

// Claim takes the claim (kind, id) for this judge if no other judge holds it, and
// reports whether it did. On SQLite it always does (one daemon per file). A claim held
// already by this judge is taken again (and must be given back once more).
func (s *Store) Claim(ctx context.Context, kind ClaimKind, id int64) (bool, error) {
	if !s.pg {
		return true, nil
	}
	c := s.claims
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn == nil {
		conn, err := c.db.Conn(ctx)
		if err != nil {
			return false, fmt.Errorf("store: %s: claims session: %w", s.path, err)
		}
		c.conn, c.gen, c.held = conn, c.gen+1, map[claimID]uint64{}
	}
	var got bool
	if err := c.conn.QueryRowContext(ctx, `SELECT pg_try_advisory_lock(`+claimKey+`)`, int32(kind), id).Scan(&got); err != nil {
		c.drop()
		return false, fmt.Errorf("store: %s: claim %d/%d: %w", s.path, kind, id, err)
	}
	if got {
		c.held[claimID{kind, id}] = c.gen
	}
	return got, nil
}

// Unclaim gives the claim back. A claim lost with its session needs none.
func (s *Store) Unclaim(ctx context.Context, kind ClaimKind, id int64) error {
	if !s.pg {
		return nil
	}
	c := s.claims
	c.mu.Lock()
	defer c.mu.Unlock()
	k := claimID{kind, id}
	if g, ok := c.held[k]; !ok || g != c.gen || c.conn == nil {
		return nil
	}
	delete(c.held, k)
	if _, err := c.conn.ExecContext(ctx, `SELECT pg_advisory_unlock(`+claimKey+`)`, int32(kind), id); err != nil {
		c.drop()
		return fmt.Errorf("store: %s: unclaim %d/%d: %w", s.path, kind, id, err)
	}
	return nil
}

// ClaimHeld checks that this judge still holds the claim: its claims session is alive
// (asked of the server) and took it. ErrClaimLost when not.
func (s *Store) ClaimHeld(ctx context.Context, kind ClaimKind, id int64) error {
	if !s.pg {
		return nil
	}
	c := s.claims
	c.mu.Lock()
	defer c.mu.Unlock()
	if g, ok := c.held[claimID{kind, id}]; !ok || c.conn == nil || g != c.gen {
		return ErrClaimLost
	}
	if err := c.conn.PingContext(ctx); err != nil {
		c.drop()
		return fmt.Errorf("%w: %v", ErrClaimLost, err)
	}
	return nil
}

// drop forgets the claims session and every claim it held (c.mu held).
func (c *claims) drop() {
	if c.conn != nil {
		_ = c.conn.Raw(func(any) error { return driver.ErrBadConn }) // not back to the pool
		_ = c.conn.Close()
	}
	c.conn, c.held = nil, map[claimID]uint64{}
}

func (c *claims) close() error {
	c.mu.Lock()
	if c.conn != nil {
		_ = c.conn.Close()
		c.conn = nil
	}
	c.mu.Unlock()
	return c.db.Close()
}

// LockGame takes the lock of game id's row for the rest of the transaction, unless
// another transaction (another judge's) holds it: then it reports false at once, and
// the caller leaves the game to that one (SELECT … FOR UPDATE SKIP LOCKED). Also false
// for a game that does not exist. Always true on SQLite, whose writer is alone.
func (t *Tx) LockGame(id int64) (bool, error) {
	if !t.pg {
		return true, nil
	}
	var got int64
	err := t.queryRow(`SELECT id FROM games WHERE id = ? FOR UPDATE SKIP LOCKED`, id).Scan(&got)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: lock game %d: %w", id, err)
	}
	return true, nil
}

// TryLock takes the lock (kind, id) for the rest of the transaction if no other
// transaction holds it, and reports whether it did (an advisory transaction lock on
// PostgreSQL; always true on SQLite).
func (t *Tx) TryLock(kind ClaimKind, id int64) (bool, error) {
	if !t.pg {
		return true, nil
	}
	var got bool
	if err := t.queryRow(`SELECT pg_try_advisory_xact_lock(`+claimKey+`)`, int32(kind), id).Scan(&got); err != nil {
		return false, fmt.Errorf("store: lock %d/%d: %w", kind, id, err)
	}
	return got, nil
}

// gameLock is what a writing transaction on PostgreSQL adds to a read of one game row:
// it waits for the row's lock (another judge resolving the game, or judging its mail)
// and reads the row as that one left it.
func (t *Tx) gameLock() string {
	if t.pg && t.write {
		return ` FOR UPDATE`
	}
	return ``
}

// IntakeCaughtUp is when the judge reading mailbox (the one holding its intake claim)
// last found it read to the end, as it recorded (SetIntakeCaughtUp); zero when never.
// The other judges wait for it before resolving a deadline (judge.intakePast). SQLite
// keeps none (the one daemon knows).
func (t *Tx) IntakeCaughtUp(mailbox string) (time.Time, error) {
	if !t.pg {
		return time.Time{}, nil
	}
	var at string
	err := t.queryRow(`SELECT caught_up_at FROM rallyjudge_intake WHERE mailbox = ?`, mailbox).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("store: intake of %s: %w", mailbox, err)
	}
	return parseTime(at)
}

// SetIntakeCaughtUp records when intake last found mailbox read to the end (never
// moving it back). Nothing on SQLite.
func (t *Tx) SetIntakeCaughtUp(mailbox string, at time.Time) error {
	if !t.pg {
		return nil
	}
	_, err := t.exec(`INSERT INTO rallyjudge_intake (mailbox, caught_up_at) VALUES (?, ?)
		ON CONFLICT (mailbox) DO UPDATE SET caught_up_at = excluded.caught_up_at
		WHERE rallyjudge_intake.caught_up_at < excluded.caught_up_at`, mailbox, fmtTime(at))
	if err != nil {
		return fmt.Errorf("store: intake of %s: %w", mailbox, err)
	}
	return nil
}

// pgIntakeTable is the table of SetIntakeCaughtUp, PostgreSQL's only (SQLite's one daemon
// keeps the moment in memory): made when the store opens, outside the numbered
// migrations, and neither copied nor compared (copy.go).
const pgIntakeTable = `CREATE TABLE IF NOT EXISTS rallyjudge_intake (
	mailbox      TEXT PRIMARY KEY,
	caught_up_at TEXT NOT NULL)`
