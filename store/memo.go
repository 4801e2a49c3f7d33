package store

import "strings"

// Memo is the transaction's own memo: what a caller worked out from rows this
// transaction read (a player's moves of a turn folded, a position decoded from JSON),
// kept by the caller's key for the transaction's later statements, so that judging a
// batch of mails in one transaction does not read and decode the same rows again for
// every mail (issue 24 item 7). It lives as long as the transaction and is emptied when
// a savepoint rolls back. What a caller keeps stays true while Writes of the tables it
// was worked out from stays as it was then: in a writing transaction nobody else
// changes those rows meanwhile (SQLite: BEGIN IMMEDIATE; PostgreSQL: the game's row is
// locked by the first Game or GameByTag, claims.go).
func (t *Tx) Memo() map[any]any {
	if t.memo == nil {
		t.memo = map[any]any{}
	}
	return t.memo
}

// Writes counts the statements this transaction ran, or queued (later.go), that may
// have changed rows of the tables named; a statement whose table the store cannot tell
// counts for every table. Rows a trigger writes count for the statement's own table
// only: the schema's one trigger (migration 013) feeds game_changes, which no memo
// is worked out from.
func (t *Tx) Writes(tables ...string) int {
	n := t.writes[anyTable]
	for _, tb := range tables {
		n += t.writes[tb]
	}
	return n
}

// anyTable counts the statements that may have written any table.
const anyTable = "*"

// noteWrite counts statement q in Writes when it may write: an INSERT, UPDATE or DELETE
// for its table, anything but a plain read or a savepoint for every table.
func (t *Tx) noteWrite(q string) {
	tb, ok := writtenTable(q)
	if !ok {
		return
	}
	t.noteWriteTo(tb)
}

func (t *Tx) noteWriteTo(table string) {
	if t.writes == nil {
		t.writes = map[string]int{}
	}
	t.writes[table]++
}

// writtenTable is the table statement q writes ("*": cannot tell which); false for a
// statement that writes nothing.
func writtenTable(q string) (string, bool) {
	f := strings.Fields(q)
	if len(f) == 0 {
		return "", false
	}
	word := func(i int) string {
		if i < len(f) {
			return strings.ToUpper(f[i])
		}
		return ""
	}
	table := func(i int) (string, bool) {
		if i >= len(f) {
			return anyTable, true
		}
		name, _, _ := strings.Cut(f[i], "(")
		return strings.ToLower(strings.Trim(name, `"`)), true
	}
	switch word(0) {
	case "SELECT":
		return "", false // FOR UPDATE and advisory locks change no row
	case "SAVEPOINT", "RELEASE", "ROLLBACK":
		return "", false // a rollback to a savepoint empties the memo (Savepoint)
	case "INSERT", "REPLACE":
		for i := 1; i < len(f)-1; i++ {
			if word(i) == "INTO" {
				return table(i + 1)
			}
		}
	case "UPDATE":
		if word(1) == "OR" { // UPDATE OR IGNORE t
			return table(3)
		}
		return table(1)
	case "DELETE":
		if word(1) == "FROM" {
			return table(2)
		}
	}
	return anyTable, true
}
