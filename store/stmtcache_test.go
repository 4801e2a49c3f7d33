package store

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestPreparedStatements: queries run the same through the statement cache as unprepared
// (the first transaction meets them, the next runs them prepared), a query run again
// while its own rows are still being read gets rows of its own instead of resetting
// those, and a closed store runs nothing.
func TestPreparedStatements(t *testing.T) {
	st := openTest(t)
	now := time.Now().UTC()
	mustTx(t, st, func(tx *Tx) error {
		for i := range 3 {
			if _, err := tx.Audit(AuditEntry{At: now, Actor: fmt.Sprintf("a%d", i), Action: "test"}); err != nil {
				return err
			}
		}
		return nil
	})
	const q = `SELECT actor FROM audit WHERE action = ? ORDER BY id`
	for round := range 3 {
		var pairs []string
		mustView(t, st, func(tx *Tx) error {
			rows, err := tx.query(q, "test")
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				var a string
				if err := rows.Scan(&a); err != nil {
					return err
				}
				inner, err := tx.query(q, "test") // the same statement, its rows still open
				if err != nil {
					return err
				}
				for inner.Next() {
					var b string
					if err := inner.Scan(&b); err != nil {
						return err
					}
					pairs = append(pairs, a+b)
				}
				if err := inner.Close(); err != nil {
					return err
				}
			}
			return rows.Err()
		})
		if got := strings.Join(pairs, " "); got != "a0a0 a0a1 a0a2 a1a0 a1a1 a1a2 a2a0 a2a1 a2a2" {
			t.Errorf("round %d: nested reads of one statement gave %q", round, got)
		}
		var n int
		mustTx(t, st, func(tx *Tx) error {
			if _, err := tx.exec(`UPDATE audit SET detail = ? WHERE action = ?`, fmt.Sprint(round), "test"); err != nil {
				return err
			}
			return tx.queryRow(`SELECT count(*) FROM audit WHERE detail = ?`, fmt.Sprint(round)).Scan(&n)
		})
		if n != 3 {
			t.Errorf("round %d: %d rows updated, want 3", round, n)
		}
	}
	st.wstmts.mu.Lock()
	prepared := st.wstmts.m[`SELECT count(*) FROM audit WHERE detail = ?`] != nil
	st.wstmts.mu.Unlock()
	if !prepared {
		t.Error("a query run in three transactions was never prepared")
	}
	st.Close()
	if err := st.View(context.Background(), func(tx *Tx) error { return nil }); err == nil {
		t.Error("a closed store began a transaction")
	}
}

// TestHotQueriesUseIndexes: the queries every received mail runs find their rows by an
// index, not by reading a table whose size grows with the mail ever received.
func TestHotQueriesUseIndexes(t *testing.T) {
	st := openTest(t)
	for _, c := range []struct {
		q, index string
		args     []any
		// the plan of an INSERT … SELECT into inbox shows the foreign-key scan of orders
		// that SQLite runs only when violations are pending (its bytecode skips it with
		// FkIfZero; foreign keys are immediate here, so none ever is)
		fkScan string
	}{
		{inboxByMessageID, "inbox_message_id", []any{"<1@x>"}, ""},
		{inboxInsertNew, "inbox_message_id", []any{1, 1, "<1@x>", "a@x", "s", []byte("raw"), 3, "t", "new", "", "t", "<1@x>", "<1@x>"}, "SCAN orders"},
		{validOrdersAfter, "orders_fold", []any{1, 1, "Twonky", 10}, ""},
	} {
		var plan []string
		mustView(t, st, func(tx *Tx) error {
			rows, err := tx.query(`EXPLAIN QUERY PLAN `+c.q, c.args...)
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				var id, parent, unused int
				var detail string
				if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
					return err
				}
				plan = append(plan, detail)
			}
			return rows.Err()
		})
		p := strings.Join(plan, "; ")
		if c.fkScan != "" {
			p = strings.ReplaceAll(p, c.fkScan, "")
		}
		if !strings.Contains(p, "INDEX "+c.index) || strings.Contains(p, "SCAN inbox") || strings.Contains(p, "SCAN orders") || strings.Contains(p, "TEMP B-TREE") {
			t.Errorf("%s\nplan: %s; want a search by index %s", c.q, p, c.index)
		}
	}
}
