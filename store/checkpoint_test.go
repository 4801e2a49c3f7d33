package store

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"
)

// The writer's commits leave checkpoints to the checkpointer, which copies the log into
// the database file beside them: a second burst of writes after the first was copied
// reuses the log from its beginning instead of growing it, though both bursts together
// stay far below the writer's own backstop.
func TestCheckpointsBesideTheWriter(t *testing.T) {
	st := openTestWith(t, t.TempDir()+"/ckpt.db", Options{Sync: SyncNormal})
	if st.pg {
		t.Skip("PostgreSQL keeps no log of ours")
	}
	var auto int
	if err := st.writer.QueryRowContext(context.Background(), "PRAGMA wal_autocheckpoint").Scan(&auto); err != nil {
		t.Fatal(err)
	}
	if auto != walBackstopPages {
		t.Fatalf("the writer checkpoints at %d pages, want the backstop %d", auto, walBackstopPages)
	}
	raw := bytes.Repeat([]byte("x"), 64<<10) // 16 pages and more a row
	uid := uint32(0)
	burst := func() {
		for range 100 { // about 1,700 pages: past walCheckpointPages, below the backstop
			uid++
			mustTx(t, st, func(tx *Tx) error {
				_, _, err := tx.InboxInsert(InboxMessage{UIDValidity: 1, UID: uid, Raw: raw, Received: time.Unix(0, 0)})
				return err
			})
		}
	}
	// caughtUp waits for a checkpoint begun after the last commit to copy the whole log
	caughtUp := func() {
		t.Helper()
		st.ckpt.mu.Lock()
		from := st.ckpt.runs
		st.ckpt.mu.Unlock()
		for end := time.Now().Add(time.Minute); ; {
			st.ckpt.wake()
			st.ckpt.mu.Lock()
			runs, err, logged, moved := st.ckpt.runs, st.ckpt.err, st.ckpt.logged, st.ckpt.moved
			st.ckpt.mu.Unlock()
			if err != nil {
				t.Fatalf("checkpoint: %v", err)
			}
			if runs >= from+2 && logged > 0 && moved == logged {
				return
			}
			if time.Now().After(end) {
				t.Fatalf("the checkpointer never caught up with the log: %d runs, %d of %d pages copied", runs-from, moved, logged)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	walSize := func() int64 {
		fi, err := os.Stat(st.path + "-wal")
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	burst()
	// the commits woke the checkpointer: nothing else has
	for end := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if n, _ := st.Checkpoints(); n > 0 {
			break
		}
		if time.Now().After(end) {
			t.Fatal("100 commits and no checkpoint: the writer's commits do not wake the checkpointer")
		}
	}
	caughtUp()
	first := walSize()
	burst()
	caughtUp()
	if second := walSize(); second > first+first/2 {
		t.Fatalf("the log grew from %d to %d bytes over a second burst: it was not started again after a checkpoint", first, second)
	}
	if n, err := st.Checkpoints(); n == 0 || err != nil {
		t.Fatalf("Checkpoints() = %d, %v", n, err)
	}
}
