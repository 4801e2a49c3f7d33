package store

import (
	"errors"
	"testing"
)

func TestWrittenTable(t *testing.T) {
	for _, c := range []struct {
		q     string
		table string
		write bool
	}{
		{"SELECT id FROM orders WHERE game_id = ?", "", false},
		{"SELECT id FROM games WHERE id = ? FOR UPDATE SKIP LOCKED", "", false},
		{"SAVEPOINT one", "", false},
		{"ROLLBACK TO one", "", false},
		{"RELEASE one", "", false},
		{"INSERT INTO orders (game_id, turn) VALUES (?,?)", "orders", true},
		{"\n\t\tINSERT INTO audit(at) VALUES (?)", "audit", true},
		{"INSERT OR IGNORE INTO observers (game_id) VALUES (?)", "observers", true},
		{"REPLACE INTO mailbox_state (mailbox) VALUES (?)", "mailbox_state", true},
		{"UPDATE turns SET void = 1 WHERE game_id = ?", "turns", true},
		{"UPDATE OR IGNORE games SET status = ?", "games", true},
		{"DELETE FROM players WHERE id = ?", "players", true},
		{`INSERT INTO "Orders" (id) VALUES (?)`, "orders", true},
		// what it cannot tell counts for every table
		{"WITH x AS (SELECT 1) UPDATE games SET status = ?", anyTable, true},
		{"PRAGMA wal_checkpoint(TRUNCATE)", anyTable, true},
		{"INSERT", anyTable, true},
		{"DELETE orders", anyTable, true},
	} {
		table, write := writtenTable(c.q)
		if table != c.table || write != c.write {
			t.Errorf("writtenTable(%q) = %q, %v; want %q, %v", c.q, table, write, c.table, c.write)
		}
	}
}

// Writes counts a transaction's writes by table, queued rows too, and a savepoint
// rolled back empties the memo.
func TestMemoAndWrites(t *testing.T) {
	st := openTest(t)
	mustTx(t, st, func(tx *Tx) error {
		gid, err := tx.CreateGame(testGame("memo"))
		if err != nil {
			return err
		}
		orders, games := tx.Writes("orders"), tx.Writes("games")
		tx.Memo()["kept"] = 1
		if _, err := tx.AddOrdersLater(OrderSheet{GameID: gid, Turn: 1, Robot: "Twonky", Raw: "x", Received: t0}); err != nil {
			return err
		}
		if _, err := tx.Audit(AuditEntry{At: t0, GameID: gid, Actor: "t", Action: "a"}); err != nil {
			return err
		}
		if got := tx.Writes("orders"); got != orders+1 {
			t.Errorf("Writes(orders) = %d after a queued version; want %d", got, orders+1)
		}
		if got := tx.Writes("games"); got != games {
			t.Errorf("Writes(games) = %d after writing orders and audit; want %d", got, games)
		}
		if got := tx.Writes("orders", "games"); got != orders+games+1 {
			t.Errorf("Writes(orders, games) = %d; want %d", got, orders+games+1)
		}
		if err := tx.Flush(); err != nil { // the queued row inserted: not counted again
			return err
		}
		if got := tx.Writes("orders"); got != orders+1 {
			t.Errorf("Writes(orders) = %d after the flush; want %d", got, orders+1)
		}
		if _, err := tx.exec("PRAGMA foreign_keys"); err != nil { // cannot tell: every table
			return err
		}
		if got := tx.Writes("games"); got != games+1 {
			t.Errorf("Writes(games) = %d after a statement of no known table; want %d", got, games+1)
		}
		if err := tx.Savepoint(func() error { return nil }); err != nil {
			return err
		}
		if tx.Memo()["kept"] != 1 {
			t.Error("a savepoint released emptied the memo")
		}
		boom := errors.New("boom")
		if err := tx.Savepoint(func() error { return boom }); !errors.Is(err, boom) {
			return err
		}
		if _, ok := tx.Memo()["kept"]; ok {
			t.Error("a savepoint rolled back left the memo as it was")
		}
		return nil
	})
}
