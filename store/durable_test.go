package store

import (
	"context"
	"errors"
	"testing"
)

// TestTxSyncLater: a commit that does not wait for the disk is seen at once; Sync puts it
// there with one fsync, and none when nothing is waiting (after a Sync); the writer's
// connection is back at synchronous=FULL after it; and a Sync that failed fails for good.
func TestTxSyncLater(t *testing.T) {
	ctx := context.Background()
	fsyncs := 0
	var fail error
	st := openTestWith(t, testDB(t), Options{SyncLog: func(path string) error {
		fsyncs++
		if fail != nil {
			return fail
		}
		return syncLog(path)
	}})
	if st.pg {
		// PostgreSQL's commits are on disk when they return: TxSyncLater is Tx
		g := newGame(t, st, "later")
		if err := st.TxSyncLater(ctx, func(tx *Tx) error {
			_, err := tx.Audit(AuditEntry{At: t0, GameID: g, Actor: "x", Action: "a"})
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if err := st.Sync(); err != nil {
			t.Fatal(err)
		}
		return
	}
	g := newGame(t, st, "later") // a synchronous=FULL commit
	audit := func(tx *Tx) error {
		_, err := tx.Audit(AuditEntry{At: t0, GameID: g, Actor: "x", Action: "later"})
		return err
	}
	if err := st.Sync(); err != nil || fsyncs != 0 {
		t.Fatalf("Sync with nothing waiting: %v, %d fsyncs (want none)", err, fsyncs)
	}
	if err := st.TxSyncLater(ctx, audit); err != nil {
		t.Fatal(err)
	}
	var seen int
	mustView(t, st, func(tx *Tx) error {
		return tx.tx.QueryRowContext(tx.ctx, `SELECT count(*) FROM audit WHERE action = 'later'`).Scan(&seen)
	})
	if seen != 1 {
		t.Fatalf("the commit made with TxSyncLater: %d rows seen, want 1", seen)
	}
	var sync int
	mustTx(t, st, func(tx *Tx) error { // the writer's connection, set back
		return tx.tx.QueryRowContext(tx.ctx, `PRAGMA synchronous`).Scan(&sync)
	})
	if sync != 2 {
		t.Fatalf("the writer's connection after TxSyncLater: synchronous=%d, want 2 (FULL)", sync)
	}
	// that FULL transaction wrote nothing: the later commit still waits
	if err := st.Sync(); err != nil || fsyncs != 1 {
		t.Fatalf("Sync after a later commit: %v, %d fsyncs (want 1)", err, fsyncs)
	}
	if err := st.Sync(); err != nil || fsyncs != 1 {
		t.Fatalf("a second Sync: %v, %d fsyncs (want still 1)", err, fsyncs)
	}
	mustTx(t, st, audit) // synchronous=FULL: on disk as it returns
	if err := st.Sync(); err != nil || fsyncs != 1 {
		t.Fatalf("Sync after a FULL commit: %v, %d fsyncs (want still 1)", err, fsyncs)
	}
	// a rolled-back transaction leaves nothing waiting, and the connection set back
	boom := errors.New("boom")
	if err := st.TxSyncLater(ctx, func(tx *Tx) error { _ = audit(tx); return boom }); !errors.Is(err, boom) {
		t.Fatalf("a failing TxSyncLater: %v, want boom", err)
	}
	if err := st.Sync(); err != nil || fsyncs != 1 {
		t.Fatalf("Sync after a rollback: %v, %d fsyncs (want still 1)", err, fsyncs)
	}
	// a failed fsync: this Sync and every later one fail, though the next fsync would succeed
	if err := st.TxSyncLater(ctx, audit); err != nil {
		t.Fatal(err)
	}
	fail = errors.New("EIO")
	if err := st.Sync(); !errors.Is(err, fail) {
		t.Fatalf("Sync with a failing fsync: %v, want EIO", err)
	}
	fail = nil
	mustTx(t, st, audit)
	if err := st.Sync(); err == nil {
		t.Fatal("Sync after a failed one succeeded; want it to fail for good")
	}
}
