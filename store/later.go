package store

import (
	"database/sql"
	"fmt"
	"slices"
	"strings"
)

// Rows written later: within a transaction, sheets and audit entries may be queued
// (AddOrdersLater, AuditLater) and inserted several to a statement, just before the
// next statement of the transaction that is not one of them, or its commit. A batch of
// mail stores so the sheet and audit entry of each accepted mail: a statement a row
// cost the writer more than the row itself (opening a cursor on the table and each of
// its indexes, binding, stepping, resetting; issue 14, item 10). The mails themselves
// are queued too, once the batch has looked up which of them the inbox holds already
// (InboxExpect; issue 24 item 7: the inbox insert was the writer's largest statement).
//
// Nothing can tell the difference: a queued row gets, and returns, the ID SQLite would
// have given it (one more than the largest in its table: the tables have no
// AUTOINCREMENT), read once and counted on while only queued inserts and the inbox
// insert (which reads neither the orders nor the audit table) run; every other
// statement sees the rows, as it runs after them, but InboxExpect's look-up, which
// reads the queued inbox rows from the queue (inbox.go). A queued row that cannot be
// inserted fails the statement that flushed it, or the commit; Savepoint flushes
// before it begins and when its function returns, and drops what was queued inside
// when it rolls back.

// laterTable is one table rows may be queued for: its name, the columns given (the ID
// first), and the rows queued, their values one row after the other, each in the order
// of the columns (so that a statement's arguments are a stretch of them, not copied).
type laterTable struct {
	*laterSpec
	vals   []any
	nextID int64 // the ID the next queued row gets; 0: read it first
}

// laterSpec is what a laterTable's statements are, made once: a transaction's
// queue made them anew cost intake more than all the rest of queueing did.
type laterSpec struct {
	name    string
	columns []string
	insert  [len(laterChunks)]string
	single  string // one row without its ID, inserted at once (PostgreSQL)
	maxID   string // the query of the largest ID stored
}

// laterChunks are the numbers of rows one insert takes, largest first: a few fixed
// sizes, so that a few prepared statements serve any count. Powers of two, so that a
// count below 64 takes one statement per bit set (28 rows: 16, 8, 4), as a statement
// costs the writer more than a row.
var laterChunks = [...]int{64, 32, 16, 8, 4, 2, 1}

// The queued rows go in with INSERT OR FAIL: a constraint a row breaks stops the
// statement there, with the rows before it left in, where INSERT (OR ABORT) takes them
// out again. To take them out SQLite copies every page the statement changes, before
// it changes it, into a statement journal, as a statement of several rows may abort
// midway (a profile of intake: some 7 µs a mail; issue 24 item 7); a statement that can
// only fail needs none. Nothing keeps the rows left in: a queued row that fails leaves
// its error on the transaction (laterErr), which fails every statement after it that
// would insert the queue and the commit, so that the transaction rolls back; or, in a
// savepoint, fails it, which rolls back to its beginning (Savepoint). A table with a
// foreign key (orders, audit) still gets its statement journal: an immediate foreign
// key is checked at the end of a statement of several rows, which may then abort.
func newLaterSpec(name string, columns ...string) *laterSpec {
	lt := &laterSpec{name: name, columns: columns, maxID: `SELECT coalesce(max(id), 0) FROM ` + name}
	row := "(" + strings.TrimSuffix(strings.Repeat("?,", len(columns)), ",") + ")"
	lt.single = "INSERT INTO " + name + " (" + strings.Join(columns[1:], ", ") + ") VALUES (" +
		strings.TrimSuffix(strings.Repeat("?,", len(columns)-1), ",") + ")"
	for i, n := range laterChunks {
		lt.insert[i] = "INSERT OR FAIL INTO " + name + " (" + strings.Join(columns, ", ") + ") VALUES " +
			strings.TrimSuffix(strings.Repeat(row+",", n), ",")
	}
	return lt
}

// queued is the number of rows queued.
func (lt *laterTable) queued() int { return len(lt.vals) / len(lt.columns) }

// later is a transaction's queued rows.
type later struct {
	inbox, orders, audit *laterTable
}

// tables are the queues in the order they are inserted: the inbox first, whose rows
// the orders name (inbox_id, a foreign key).
func (l *later) tables() []*laterTable { return []*laterTable{l.inbox, l.orders, l.audit} }

// queue queues one row for table lt (values without the ID) and returns its ID.
func (t *Tx) queue(lt *laterTable, values ...any) (int64, error) {
	if t.pg {
		// PostgreSQL: judges beside this one insert too, so an ID cannot be counted on
		// ahead; the row goes in now and its sequence gives the ID
		if err := t.flushLater(); err != nil {
			return 0, err
		}
		return t.insertID(lt.single, slices.Clone(values)...) // values stay on the caller's stack
	}
	if lt.nextID == 0 {
		var max int64
		// run on the transaction itself, not through queryRow: not a statement that
		// flushes. Prepared once it is cached (stmtcache.go): it runs after every flush,
		// and parsing it anew each time cost more than running it (issue 24 item 7).
		var row *sql.Row
		if s := t.stmt(lt.maxID); s != nil {
			row = s.QueryRowContext(t.stmtCtx())
		} else {
			row = t.tx.QueryRowContext(t.stmtCtx(), lt.maxID)
		}
		if err := row.Scan(&max); err != nil {
			return 0, fmt.Errorf("store: %s: next id: %w", lt.name, err)
		}
		lt.nextID = max + 1
	}
	id := lt.nextID
	lt.nextID++
	lt.vals = append(append(lt.vals, id), values...)
	t.noteWriteTo(lt.name)
	return id, nil
}

// The tables rows may be queued for, and their statements.
var (
	laterInbox = newLaterSpec("inbox", "id", "uidvalidity", "uid", "message_id", "from_addr", "subject", "raw", "size",
		"received_at", "status", "note", "updated_at")
	laterOrders = newLaterSpec("orders", "id", "game_id", "turn", "robot", "inbox_id", "raw", "parsed", "valid", "errors", "received_at")
	laterAudit  = newLaterSpec("audit", "id", "at", "game_id", "actor", "action", "detail")
)

// laterFor is the transaction's queue, made on first use.
func (t *Tx) laterFor() *later {
	if t.later == nil {
		t.later = &later{inbox: &laterTable{laterSpec: laterInbox}, orders: &laterTable{laterSpec: laterOrders},
			audit: &laterTable{laterSpec: laterAudit}}
	}
	return t.later
}

// before is called before every statement the transaction runs but the queued inserts:
// the rows queued are inserted first. Two kinds of statement leave them queued and the
// IDs counted: the inbox insert, which reads neither the orders nor the audit table,
// unless inbox rows are queued too (it must see them); and a query that names none of
// the tables rows are queued for (blind). A batch's first mails read the game, its
// players and its observers so, and inserting their rows before each of those queries
// made a statement of each row (issue 24 item 7).
func (t *Tx) before(query string) error {
	t.noteWrite(query) // every statement but the queued inserts comes here (memo.go)
	if t.later == nil || query == inboxInsertNew && t.later.inbox.queued() == 0 || blind(query) {
		return nil
	}
	return t.flushLater()
}

// blind reports whether query cannot see the rows queued (later.go): a SELECT that
// names none of the tables rows are queued for, nor any word that contains one of their
// names (a column such as turns.orders, the table inbox_proofs), so that the test errs
// towards inserting them. A query reads only the tables it names: the schema has no
// views, and a SELECT fires no trigger and checks no foreign key. Anything but a SELECT
// inserts them first: a write may check a foreign key against their tables (deleting a
// game checks its orders) or insert rows of its own.
func blind(query string) bool {
	q := strings.TrimLeft(query, " \t\r\n")
	if len(q) < 6 || !strings.EqualFold(q[:6], "SELECT") {
		return false
	}
	q = strings.ToLower(q)
	for _, name := range laterNames {
		if strings.Contains(q, name) {
			return false
		}
	}
	return true
}

// laterNames are the tables rows may be queued for (Tx.laterFor).
var laterNames = [...]string{"inbox", "orders", "audit"}

// Flush inserts the rows queued now (they are inserted before the next statement of
// another kind, or the commit, anyway): a caller that wants to know which step failed.
func (t *Tx) Flush() error { return t.flushLater() }

// flushLater inserts the rows queued, several to a statement, and forgets the IDs
// counted (the next statement may insert rows of its own).
func (t *Tx) flushLater() error {
	if t.later == nil {
		return nil
	}
	if t.laterErr != nil {
		return t.laterErr
	}
	for _, lt := range t.later.tables() {
		lt.nextID = 0
		w := len(lt.columns)
		for off := 0; off < len(lt.vals); {
			i, n := len(laterChunks)-1, 1
			for k, c := range laterChunks {
				if c <= (len(lt.vals)-off)/w {
					i, n = k, c
					break
				}
			}
			args := lt.vals[off : off+n*w]
			q := lt.insert[i]
			var err error
			if s := t.stmt(q); s != nil {
				_, err = s.ExecContext(t.stmtCtx(), args...)
			} else {
				_, err = t.tx.ExecContext(t.stmtCtx(), q, args...)
			}
			if err != nil {
				t.laterErr = fmt.Errorf("store: insert %d queued %s rows: %w", n, lt.name, err)
				lt.vals = lt.vals[off:]
				return t.laterErr
			}
			off += n * w
		}
		clear(lt.vals) // the space is kept for the next rows, not what it held
		lt.vals = lt.vals[:0]
	}
	return nil
}

// dropLater forgets the rows queued and the IDs counted (a savepoint rolled back).
func (t *Tx) dropLater() {
	if t.later == nil {
		return
	}
	for _, lt := range t.later.tables() {
		lt.vals, lt.nextID = nil, 0
	}
	t.laterErr = nil
}
