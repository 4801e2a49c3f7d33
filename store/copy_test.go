package store

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// fillCommunity puts a little of everything in st: two games with players, a game
// master, turns, sheets, received mail with a proof, mail to send, the audit log, an
// auth failure, an observer, press, a pending join and the mailbox's position. It
// returns a player's plain secret, stored as st's keyed hash.
func fillCommunity(t *testing.T, st *Store) string {
	t.Helper()
	g1 := newGame(t, st, "spring-open")
	g2 := newGame(t, st, "Autumn")
	secret, _ := NewSecret()
	hash, err := st.HashSecret(secret)
	if err != nil {
		t.Fatal(err)
	}
	mustTx(t, st, func(tx *Tx) error {
		p, err := tx.PlayerByRobot(g1, "Twonky")
		if err != nil {
			return err
		}
		if err := tx.SetPlayerSecret(p.ID, hash); err != nil {
			return err
		}
		if _, err := tx.AddGM(GM{GameID: g2, Email: "gm@example.org", SecretHash: hash, Created: t0}); err != nil {
			return err
		}
		if _, err := tx.SaveTurn(Turn{GameID: g1, Number: 0, After: json.RawMessage(`{"t":0}`), Resolved: t0}); err != nil {
			return err
		}
		if _, err := tx.SaveTurn(Turn{GameID: g1, Number: 1, Before: json.RawMessage(`{"t":0}`), After: json.RawMessage(`{"t":1}`),
			Events: json.RawMessage(`[{"e":"moved"}]`), Orders: json.RawMessage(`[]`), Resolved: t0}); err != nil {
			return err
		}
		in, _, err := tx.InboxInsert(InboxMessage{UIDValidity: 7, UID: 1, MessageID: "<a@x>", From: "twonky@example.org",
			Subject: "[RR spring-open] orders", Raw: []byte("Subject: orders\r\n\r\nP490 (secret-1)\r\n\x00\xff"), Received: t0})
		if err != nil {
			return err
		}
		if err := tx.SetInboxProofs(in.ID, map[string]string{"(secret-1)": hash}); err != nil {
			return err
		}
		if _, err := tx.AddOrders(OrderSheet{GameID: g1, Turn: 2, Robot: "Twonky", InboxID: in.ID, Raw: "P490",
			Parsed: json.RawMessage(`{"p":[490]}`), Valid: true, Received: t0}); err != nil {
			return err
		}
		if _, err := tx.AddOrders(OrderSheet{GameID: g1, Turn: 2, Robot: "Zoom Bot", Raw: "nonsense", Valid: false,
			Errors: []string{"line 1: what?"}, Received: t0}); err != nil {
			return err
		}
		for i, id := range []string{"<r1@judge>", "<r2@judge>"} {
			m := testMail(id, g1, 1)
			if i == 1 {
				m.GameID = 0
			}
			if _, _, err := tx.Enqueue(m); err != nil {
				return err
			}
		}
		if _, err := tx.Audit(AuditEntry{At: t0, GameID: g1, Actor: "judge", Action: "resolve", Detail: "turn 1"}); err != nil {
			return err
		}
		if err := tx.RecordAuthFailure("mallory@example.org", t0); err != nil {
			return err
		}
		if _, err := tx.AddObserver(g1, "Watcher@example.org", t0); err != nil {
			return err
		}
		if _, err := tx.AddPress(Press{GameID: g1, Turn: 1, From: "Twonky", To: []string{"Zoom Bot"}, Signed: true, Body: "hello", Sent: t0}); err != nil {
			return err
		}
		if _, err := tx.AddPendingJoin(PendingJoin{GameID: g2, Email: "new@example.org", Robot: "Hammer", CodeHash: hash, Created: t0}); err != nil {
			return err
		}
		return tx.SetMailboxState(MailboxState{Mailbox: "INBOX", UIDValidity: 7, LastUID: 1, Updated: t0})
	})
	return secret
}

// TestCopyBetweenBackends moves a community from SQLite to PostgreSQL and back: every
// row arrives (Compare finds no difference at each step), a secret stored before the
// move still checks after it (the server key moves too), new rows get new IDs, and a
// copy into a database that holds anything is refused.
func TestCopyBetweenBackends(t *testing.T) {
	ctx := context.Background()
	src := openTestWith(t, filepath.Join(t.TempDir(), "judge.db"), Options{Sync: SyncNormal})
	secret := fillCommunity(t, src)

	copyAndCompare := func(t *testing.T, from *Store, to string) *Store {
		t.Helper()
		dst := openTestWith(t, to, Options{Sync: SyncNormal})
		rep, err := from.CopyTo(ctx, dst)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Rows["games"] < 2 || rep.Rows["players"] != 4 || rep.Rows["server_keys"] != 1 || rep.Rows["inbox_proofs"] != 1 {
			t.Errorf("copied %v", rep.Rows)
		}
		dst.Close()
		dst = openTestWith(t, to, Options{Sync: SyncNormal}) // with the key copied
		diffs, err := Compare(ctx, from, dst)
		if err != nil {
			t.Fatal(err)
		}
		if len(diffs) > 0 {
			t.Fatalf("after the copy:\n%s", strings.Join(diffs, "\n"))
		}
		mustTx(t, dst, func(tx *Tx) error {
			p, err := tx.PlayerByRobot(1, "twonky")
			if err != nil {
				return err
			}
			if !dst.CheckSecret(p.SecretHash, secret) {
				t.Error("a secret stored before the copy does not check after it")
			}
			return nil
		})
		// a copy into a database that holds anything is refused
		if _, err := from.CopyTo(ctx, dst); err == nil || !strings.Contains(err.Error(), "not empty") {
			t.Errorf("a copy into a full database: %v", err)
		}
		return dst
	}

	t.Run("sqlite to sqlite", func(t *testing.T) {
		copyAndCompare(t, src, filepath.Join(t.TempDir(), "copy.db"))
	})
	t.Run("sqlite to postgres and back", func(t *testing.T) {
		needPostgres(t)
		pg := copyAndCompare(t, src, pgTestSchema(t))
		// new rows go on after the IDs copied
		mustTx(t, pg, func(tx *Tx) error {
			id, err := tx.CreateGame(testGame("winter"))
			if err != nil {
				return err
			}
			if id != 3 {
				t.Errorf("a new game after the copy got id %d, want 3", id)
			}
			return nil
		})
		back := copyAndCompare(t, pg, filepath.Join(t.TempDir(), "back.db"))
		// and a changed row is found by Compare
		mustTx(t, back, func(tx *Tx) error { return tx.SetMissed(1, 5) })
		diffs, err := Compare(ctx, pg, back)
		if err != nil {
			t.Fatal(err)
		}
		if len(diffs) != 1 || !strings.Contains(diffs[0], "table players") || !strings.Contains(diffs[0], "1 rows only in the first, 1 only in the second") {
			t.Errorf("one row changed: %q", diffs)
		}
	})
}
