package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestLaterRows: sheets and audit entries queued (AddOrdersLater, AuditLater) are
// stored as AddOrders and Audit store them, with the IDs they returned, however many
// (every chunk size) and mixed with rows inserted at once; every other statement of
// the transaction sees them; the inbox insert between them leaves them queued.
func TestLaterRows(t *testing.T) { bothBackends(t, testLaterRows) }

func testLaterRows(t *testing.T) {
	for _, n := range []int{1, 2, 5, 17, 64, 70, 150} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			st := openTest(t)
			g := newGame(t, st, "spring-open")
			var ids, auditIDs []int64
			mustTx(t, st, func(tx *Tx) error {
				for i := range n {
					if _, _, err := tx.InboxInsert(InboxMessage{UIDValidity: 1, UID: uint32(i + 1), Raw: []byte("x"), Received: t0}); err != nil {
						return err
					}
					add, audit := tx.AddOrdersLater, tx.AuditLater
					if i%7 == 3 { // now and then, at once: the queue is inserted first
						add, audit = tx.AddOrders, tx.Audit
					}
					id, err := add(OrderSheet{GameID: g, Turn: 1, Robot: "Twonky", InboxID: int64(i + 1), Raw: fmt.Sprint("sheet ", i), Valid: true, Received: t0})
					if err != nil {
						return err
					}
					ids = append(ids, id)
					aid, err := audit(AuditEntry{At: t0, GameID: g, Actor: "Twonky", Action: "orders", Detail: fmt.Sprint("entry ", i)})
					if err != nil {
						return err
					}
					auditIDs = append(auditIDs, aid)
				}
				// a read in the same transaction sees every row
				vs, err := tx.OrderVersions(g, 1, "Twonky")
				if err != nil {
					return err
				}
				if len(vs) != n {
					t.Errorf("the transaction reads %d versions, want %d", len(vs), n)
				}
				return nil
			})
			mustView(t, st, func(tx *Tx) error {
				vs, err := tx.OrderVersions(g, 1, "Twonky")
				if err != nil {
					return err
				}
				if len(vs) != n {
					t.Fatalf("%d versions stored, want %d", len(vs), n)
				}
				for i, v := range vs {
					if v.ID != ids[i] || v.Raw != fmt.Sprint("sheet ", i) || v.InboxID != int64(i+1) || !v.Valid || !v.Received.Equal(t0) {
						t.Errorf("version %d stored as %+v, want ID %d", i, v, ids[i])
					}
				}
				log, err := tx.AuditLog(g, 1000)
				if err != nil {
					return err
				}
				var mine []AuditEntry
				for _, e := range log {
					if e.Action == "orders" {
						mine = append(mine, e)
					}
				}
				if len(mine) != n {
					t.Fatalf("%d audit entries stored, want %d", len(mine), n)
				}
				for i, e := range mine {
					if e.ID != auditIDs[i] || e.Detail != fmt.Sprint("entry ", i) || e.GameID != g {
						t.Errorf("audit entry %d stored as %+v, want ID %d", i, e, auditIDs[i])
					}
				}
				return nil
			})
		})
	}
}

// TestLaterRowsSavepoint: rows queued in a savepoint that is rolled back are not
// stored, nor are their IDs taken; those of one that is released are.
func TestLaterRowsSavepoint(t *testing.T) { bothBackends(t, testLaterRowsSavepoint) }

func testLaterRowsSavepoint(t *testing.T) {
	st := openTest(t)
	g := newGame(t, st, "spring-open")
	sheet := func(raw string) OrderSheet {
		return OrderSheet{GameID: g, Turn: 1, Robot: "Twonky", Raw: raw, Valid: true, Received: t0}
	}
	var kept, after int64
	mustTx(t, st, func(tx *Tx) error {
		failed := errors.New("the mail failed")
		if err := tx.Savepoint(func() error {
			if _, err := tx.AddOrdersLater(sheet("rolled back")); err != nil {
				return err
			}
			return failed
		}); !errors.Is(err, failed) {
			return fmt.Errorf("savepoint: %v, want its function's error", err)
		}
		if err := tx.Savepoint(func() error {
			var err error
			kept, err = tx.AddOrdersLater(sheet("kept"))
			return err
		}); err != nil {
			return err
		}
		var err error
		after, err = tx.AddOrdersLater(sheet("after"))
		return err
	})
	mustView(t, st, func(tx *Tx) error {
		vs, err := tx.OrderVersions(g, 1, "Twonky")
		if err != nil {
			return err
		}
		if len(vs) != 2 || vs[0].Raw != "kept" || vs[0].ID != kept || vs[1].Raw != "after" || vs[1].ID != after || after != kept+1 {
			t.Errorf("stored %+v, want kept (ID %d) and after (ID %d)", vs, kept, after)
		}
		return nil
	})
}

// TestLaterRowsFailing: a queued row that cannot be inserted (a game that does not
// exist) fails the transaction when it is inserted, and nothing is kept; in a savepoint
// it fails the savepoint alone.
func TestLaterRowsFailing(t *testing.T) { bothBackends(t, testLaterRowsFailing) }

func testLaterRowsFailing(t *testing.T) {
	st := openTest(t)
	g := newGame(t, st, "spring-open")
	ctx := context.Background()
	err := st.Tx(ctx, func(tx *Tx) error {
		if _, err := tx.AddOrdersLater(OrderSheet{GameID: g, Turn: 1, Robot: "Twonky", Raw: "good", Valid: true, Received: t0}); err != nil {
			return err
		}
		_, err := tx.AddOrdersLater(OrderSheet{GameID: g + 100, Turn: 1, Robot: "Twonky", Raw: "no such game", Valid: true, Received: t0})
		return err
	})
	if err == nil || !strings.Contains(strings.ToLower(err.Error()), "foreign key") {
		t.Errorf("a queued row for no game: %v, want a foreign key error", err)
	}
	mustTx(t, st, func(tx *Tx) error {
		if err := tx.Savepoint(func() error {
			_, err := tx.AuditLater(AuditEntry{At: t0, GameID: g + 100, Actor: "x", Action: "orders"})
			return err
		}); err == nil {
			t.Errorf("a savepoint whose queued row fails: no error")
		}
		_, err := tx.AuditLater(AuditEntry{At: t0, GameID: g, Actor: "x", Action: "kept"})
		return err
	})
	mustView(t, st, func(tx *Tx) error {
		vs, err := tx.OrderVersions(g, 1, "Twonky")
		if err != nil {
			return err
		}
		if len(vs) != 0 {
			t.Errorf("a failed transaction kept %d versions", len(vs))
		}
		log, err := tx.AuditLog(0, 100)
		if err != nil {
			return err
		}
		var actions []string
		for _, e := range log {
			actions = append(actions, e.Action)
		}
		if strings.Contains(strings.Join(actions, " "), "orders") || !strings.Contains(strings.Join(actions, " "), "kept") {
			t.Errorf("audit log %v: want the entry after the failed savepoint and not the failed one", actions)
		}
		return nil
	})
}

// TestBlind: only a SELECT that names none of the tables rows are queued for, nor a
// word containing one, leaves the queued rows queued; any other statement inserts them
// first.
func TestBlind(t *testing.T) {
	for _, c := range []struct {
		query string
		want  bool
	}{
		{`SELECT EXISTS (SELECT 1 FROM observers WHERE game_id = ? AND email = ? COLLATE NOCASE)`, true},
		{"\n\t\tselect id, tag FROM games WHERE tag = ?", true},
		{`SELECT id FROM players WHERE game_id = ?`, true},
		{`SELECT id, raw FROM orders WHERE game_id = ?`, false},
		{`SELECT uid FROM inbox WHERE uidvalidity = ?`, false},
		{`SELECT count(*) FROM AUDIT`, false},
		{`SELECT id, number, orders FROM turns WHERE game_id = ?`, false}, // a column named like a table
		{`SELECT marker FROM inbox_proofs WHERE inbox_id = ?`, false},
		{`WITH g AS (SELECT id FROM games) SELECT id FROM g`, false},
		{`DELETE FROM games WHERE id = ?`, false}, // checks the orders' foreign key
		{`UPDATE players SET seat = ? WHERE id = ?`, false},
		{`INSERT INTO outbox (message_id) VALUES (?)`, false},
		{`PRAGMA quick_check`, false},
		{`SEL`, false},
	} {
		if got := blind(c.query); got != c.want {
			t.Errorf("blind(%q) = %v, want %v", c.query, got, c.want)
		}
	}
}

// TestLaterNames: every table rows may be queued for is one blind looks for.
func TestLaterNames(t *testing.T) {
	for _, lt := range (&Tx{}).laterFor().tables() {
		if !slices.Contains(laterNames[:], lt.name) {
			t.Errorf("rows are queued for %s, which blind does not look for", lt.name)
		}
	}
}

// TestLaterRowsBlind: rows queued stay queued through a query that cannot see them, and
// every statement that can sees them: the IDs they got are the ones they are stored
// with, and a query of their table after the blind one reads them.
func TestLaterRowsBlind(t *testing.T) {
	st := openTest(t)
	g := newGame(t, st, "spring-open")
	mustTx(t, st, func(tx *Tx) error {
		var ids []int64
		for i := range 3 {
			id, err := tx.AddOrdersLater(OrderSheet{GameID: g, Turn: 1, Robot: "Twonky", Raw: fmt.Sprint("sheet ", i), Valid: true, Received: t0})
			if err != nil {
				return err
			}
			ids = append(ids, id)
			if _, err := tx.GameByTag("spring-open"); err != nil { // blind
				return err
			}
			if n := tx.later.orders.queued(); n != i+1 {
				t.Errorf("after a blind query: %d rows queued, want %d", n, i+1)
			}
		}
		vs, err := tx.OrderVersions(g, 1, "Twonky")
		if err != nil {
			return err
		}
		var got []int64
		for _, v := range vs {
			got = append(got, v.ID)
		}
		if !slices.Equal(got, ids) {
			t.Errorf("stored with IDs %v, want %v (the IDs they were given)", got, ids)
		}
		return nil
	})
}

// TestLaterRowsFailMidway: a statement of queued rows stops at the row that breaks a
// constraint and leaves the rows before it in (INSERT OR FAIL, later.go); nothing keeps
// them. The transaction fails, even when its function goes on past the error; in a
// savepoint the rows go with the savepoint and the rest of the transaction is kept.
func TestLaterRowsFailMidway(t *testing.T) {
	st := openTest(t)
	ctx := context.Background()
	mail := func(uid uint32, status InboxStatus) InboxMessage {
		return InboxMessage{UIDValidity: 1, UID: uid, MessageID: fmt.Sprintf("<%d@x>", uid), Raw: []byte("x"), Received: t0, Status: status}
	}
	// the inbox rows are queued (looked up first), the second with a status its CHECK refuses
	queueThree := func(tx *Tx, first uint32) error {
		if err := tx.InboxExpect(1, []uint32{first, first + 1, first + 2}, []string{fmt.Sprintf("<%d@x>", first), fmt.Sprintf("<%d@x>", first+1), fmt.Sprintf("<%d@x>", first+2)}); err != nil {
			return err
		}
		for i, s := range []InboxStatus{InboxProcessed, "bogus", InboxProcessed} {
			if _, _, err := tx.InboxInsert(mail(first+uint32(i), s)); err != nil {
				return err
			}
		}
		return nil
	}
	stored := func() []uint32 {
		var uids []uint32
		mustView(t, st, func(tx *Tx) error {
			return tx.scanEach(`SELECT uid FROM inbox ORDER BY uid`, func(r *sql.Rows) error {
				var u uint32
				err := r.Scan(&u)
				uids = append(uids, u)
				return err
			})
		})
		return uids
	}
	if !st.pg {
		err := st.Tx(ctx, func(tx *Tx) error {
			if err := queueThree(tx, 1); err != nil {
				return err
			}
			if err := tx.Flush(); err == nil {
				t.Errorf("a queued row its CHECK refuses: no error")
			}
			return nil // goes on as if nothing had failed
		})
		if err == nil || !strings.Contains(err.Error(), "CHECK") {
			t.Errorf("the commit after a failed queued row: %v, want the CHECK error", err)
		}
		if got := stored(); len(got) != 0 {
			t.Errorf("a failed transaction kept the inbox rows %v", got)
		}
	}
	mustTx(t, st, func(tx *Tx) error {
		if err := tx.Savepoint(func() error { return queueThree(tx, 11) }); err == nil {
			t.Errorf("a savepoint whose queued row fails: no error")
		}
		_, _, err := tx.InboxInsert(mail(21, InboxProcessed))
		return err
	})
	if got := stored(); !slices.Equal(got, []uint32{21}) {
		t.Errorf("inbox rows %v after a failed savepoint, want [21]", got)
	}
}
