package store

import (
	"context"
	"database/sql"
	"errors"
	"sync"
)

// Prepared statements, kept per connection pool by query text. Parsing and planning a
// statement cost SQLite more than running most of the judge's queries: an accepted
// sheet runs some thirty statements, and preparing each anew took more CPU than all
// the rest of intake (issue 14, item 10). The driver keeps a prepared statement's
// SQLite handle for reuse, so a statement prepared once on a connection runs there
// without being parsed again.
//
// A query is run unprepared the first time a transaction meets it, and prepared just
// before the next transaction of the pool begins: database/sql prepares a pool-level
// statement on a free connection, and inside a transaction the writer's only
// connection is taken. Within a transaction each statement is bound once
// (Tx.StmtContext); the binding ends with the transaction.

// maxStmts bounds the statements kept per pool; the store's queries are a fixed set
// (a few vary with the number of arguments), so the bound is never reached in use.
const maxStmts = 500

type stmtCache struct {
	db     *sql.DB
	mu     sync.Mutex
	m      map[string]*sql.Stmt
	failed map[string]bool // would not prepare (not a single statement): always run as text
	want   []string        // met in a transaction, to be prepared before the next
	closed bool
}

func newStmtCache(db *sql.DB) *stmtCache {
	return &stmtCache{db: db, m: map[string]*sql.Stmt{}, failed: map[string]bool{}}
}

// get is the prepared statement for q, or nil (q is then noted, to be prepared before
// the next transaction).
func (c *stmtCache) get(q string) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.m[q]; ok {
		return s
	}
	if !c.closed && !c.failed[q] && len(c.m) < maxStmts {
		c.m[q] = nil // noted once
		c.want = append(c.want, q)
	}
	return nil
}

// prepareWanted prepares the queries met since the last call. A query that does not
// prepare is run as text from then on; a context that ends leaves the rest for later.
func (c *stmtCache) prepareWanted(ctx context.Context) {
	c.mu.Lock()
	want := c.want
	c.want = nil
	c.mu.Unlock()
	for i, q := range want {
		s, err := c.db.PrepareContext(ctx, q)
		c.mu.Lock()
		switch {
		case err == nil && !c.closed:
			c.m[q] = s
		case err == nil:
			s.Close()
		case ctx.Err() != nil || errors.Is(err, sql.ErrConnDone):
			c.want = append(c.want, want[i:]...) // try again before a later transaction
			c.mu.Unlock()
			return
		default:
			delete(c.m, q)
			c.failed[q] = true
		}
		c.mu.Unlock()
	}
}

// close closes every prepared statement (before the pool closes).
func (c *stmtCache) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	var errs []error
	for q, s := range c.m {
		if s != nil {
			errs = append(errs, s.Close())
		}
		delete(c.m, q)
	}
	c.want = nil
	return errors.Join(errs...)
}

// stmt is q prepared and bound to the transaction, or nil (run q as text). A statement
// whose rows are still open in this transaction is not bound again: re-running it
// would reset the rows being read.
func (t *Tx) stmt(q string) *sql.Stmt {
	if t.stmts == nil {
		return nil
	}
	s := t.stmts.get(q)
	if s == nil {
		return nil
	}
	if t.bound == nil {
		t.bound = map[*sql.Stmt]*sql.Stmt{}
	}
	b, ok := t.bound[s]
	if !ok {
		b = t.tx.StmtContext(t.ctx, s)
		t.bound[s] = b
	}
	if r := t.open[b]; r != nil {
		if _, err := r.Columns(); err == nil { // still open
			return nil
		}
		delete(t.open, b)
	}
	return b
}

// stmtCtx is the context to run a statement with: the transaction's, which cannot be
// cancelled, while the caller's has not ended; once it has, the caller's, with which
// database/sql refuses to run the statement (run, in store.go).
func (t *Tx) stmtCtx() context.Context {
	if t.caller != nil && t.caller.Err() != nil {
		return t.caller
	}
	return t.ctx
}

func (t *Tx) exec(query string, args ...any) (sql.Result, error) {
	if err := t.before(query); err != nil {
		return nil, err
	}
	ctx := t.stmtCtx()
	if s := t.stmt(query); s != nil {
		return s.ExecContext(ctx, args...)
	}
	return t.tx.ExecContext(ctx, t.sqlText(query), args...)
}

func (t *Tx) query(query string, args ...any) (*sql.Rows, error) {
	if err := t.before(query); err != nil {
		return nil, err
	}
	ctx := t.stmtCtx()
	s := t.stmt(query)
	if s == nil {
		return t.tx.QueryContext(ctx, t.sqlText(query), args...)
	}
	rows, err := s.QueryContext(ctx, args...)
	if err == nil {
		if t.open == nil {
			t.open = map[*sql.Stmt]*sql.Rows{}
		}
		t.open[s] = rows
	}
	return rows, err
}

// queryRow is for a query whose row is scanned at once (the rows are closed by Scan).
func (t *Tx) queryRow(query string, args ...any) *sql.Row {
	// rows queued that cannot be inserted leave the error on the transaction (laterErr):
	// it fails the next statement and the commit
	_ = t.before(query)
	ctx := t.stmtCtx()
	if s := t.stmt(query); s != nil {
		return s.QueryRowContext(ctx, args...)
	}
	return t.tx.QueryRowContext(ctx, t.sqlText(query), args...)
}
