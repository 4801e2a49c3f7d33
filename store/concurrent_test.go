package store

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestReadersWhileWriting: in WAL mode a reader is neither blocked by an open
// write transaction nor shown its uncommitted rows, and many readers run while
// a writer commits, each seeing a consistent, growing count.
func TestReadersWhileWriting(t *testing.T) { bothBackends(t, testReadersWhileWriting) }

func testReadersWhileWriting(t *testing.T) {
	st := openTest(t)
	ctx := context.Background()

	inTx, release, txDone := make(chan struct{}), make(chan struct{}), make(chan error)
	go func() {
		txDone <- st.Tx(ctx, func(tx *Tx) error {
			if _, _, err := tx.InboxInsert(InboxMessage{UIDValidity: 1, UID: 1, Raw: []byte("x"), Received: t0}); err != nil {
				return err
			}
			close(inTx)
			<-release
			return nil
		})
	}()
	<-inTx
	// A reader that waited for the writer would wait for ever (the writer holds until
	// release), so this deadline only bounds the failure; 2 s could run out on a loaded
	// machine while the reader was merely slow.
	readCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	err := st.View(readCtx, func(tx *Tx) error {
		n, err := tx.InboxMaxUID(1)
		if err != nil {
			return err
		}
		if n != 0 {
			t.Errorf("a reader saw an uncommitted row (max uid %d)", n)
		}
		return nil
	})
	cancel()
	if err != nil {
		t.Fatalf("read during an open write transaction: %v", err)
	}
	close(release)
	if err := <-txDone; err != nil {
		t.Fatal(err)
	}

	const writes, readers = 200, 4
	var wg sync.WaitGroup
	stop := make(chan struct{})
	errs := make(chan error, readers+1)
	// each reader says when it has read once: the writes go on until every one has,
	// however late a loaded machine starts them
	var firstReads sync.WaitGroup
	firstReads.Add(readers)
	for r := 0; r < readers; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			last := -1
			for reads := 0; ; reads++ {
				if reads == 1 {
					firstReads.Done()
				}
				select {
				case <-stop:
					return
				default:
				}
				err := st.View(ctx, func(tx *Tx) error {
					var n, maxUID int
					// Two reads in one snapshot must agree even while the writer commits.
					if err := tx.queryRow(`SELECT count(*) FROM inbox`).Scan(&n); err != nil {
						return err
					}
					time.Sleep(100 * time.Microsecond)
					if err := tx.queryRow(`SELECT coalesce(max(uid), 0) FROM inbox`).Scan(&maxUID); err != nil {
						return err
					}
					if n != maxUID {
						return fmt.Errorf("inconsistent snapshot: %d rows, max uid %d", n, maxUID)
					}
					if n < last {
						return fmt.Errorf("count went back from %d to %d", last, n)
					}
					last = n
					return nil
				})
				if err != nil {
					errs <- err
					if reads == 0 {
						firstReads.Done()
					}
					return
				}
			}
		}()
	}
	allRead := make(chan struct{})
	go func() { firstReads.Wait(); close(allRead) }()
	everyReaderRead := func() bool {
		select {
		case <-allRead:
			return true
		default:
			return false
		}
	}
	deadline := time.Now().Add(time.Minute)
	// at least writes commits, and more while a reader has not read yet
	for i := 2; i <= writes+1 || !everyReaderRead(); i++ {
		if time.Now().After(deadline) {
			t.Fatal("a reader never got to read in a minute of writes")
		}
		err := st.Tx(ctx, func(tx *Tx) error {
			_, _, err := tx.InboxInsert(InboxMessage{UIDValidity: 1, UID: uint32(i), Raw: []byte("x"), Received: t0})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestConcurrentWriters: Tx calls from many goroutines queue on the single
// writer instead of failing with SQLITE_BUSY.
func TestConcurrentWriters(t *testing.T) { bothBackends(t, testConcurrentWriters) }

func testConcurrentWriters(t *testing.T) {
	st := openTest(t)
	ctx := context.Background()
	const goroutines, each = 8, 25
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				err := st.Tx(ctx, func(tx *Tx) error {
					_, _, err := tx.InboxInsert(InboxMessage{UIDValidity: 1, UID: uint32(g*each + i + 1), Raw: []byte("x"), Received: t0})
					return err
				})
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	mustView(t, st, func(tx *Tx) error {
		n, err := tx.InboxMaxUID(1)
		if err != nil {
			return err
		}
		if n != goroutines*each {
			t.Errorf("max uid %d, want %d", n, goroutines*each)
		}
		return nil
	})
}

// BenchmarkInboxInsert1000 stores 1,000 inbox messages of 4 KiB, one per
// transaction (as the IMAP reader does one by one) and 50 per transaction (a
// fetched batch), with each sync mode. With FULL the cost is the fsync per
// commit, so batching is what pays.
func BenchmarkInboxInsert1000(b *testing.B) {
	for _, mode := range []SyncMode{SyncFull, SyncNormal} {
		for _, batch := range []int{1, 50} {
			b.Run(fmt.Sprintf("%s/batch=%d", mode, batch), func(b *testing.B) { benchInboxInsert(b, mode, batch) })
		}
	}
}

// benchInboxInsert inserts 1,000 messages, batch of them per transaction.
func benchInboxInsert(b *testing.B, mode SyncMode, batch int) {
	raw := make([]byte, 4096)
	for i := range raw {
		raw[i] = 'a' + byte(i%26)
	}
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		st, err := OpenWith(filepath.Join(b.TempDir(), "judge.db"), Options{Sync: mode})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		for i := 1; i <= 1000; i += batch {
			err := st.Tx(ctx, func(tx *Tx) error {
				for j := i; j < i+batch && j <= 1000; j++ {
					_, _, err := tx.InboxInsert(InboxMessage{UIDValidity: 1, UID: uint32(j), MessageID: fmt.Sprintf("<%d@bench>", j),
						From: "p@example.org", Subject: "[RR bench] orders", Raw: raw, Received: t0})
					if err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		st.Close()
		b.StartTimer()
	}
	b.ReportMetric(1000*float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}
