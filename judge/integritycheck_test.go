package judge

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/store"
)

// TestIntakeCheckDue: intake checks the pages before a batch unless the last sound
// check ended less than intakeCheckShare times its duration ago (at most
// intakeCheckMaxGap); always before any check found them sound, and always once one
// found them damaged.
func TestIntakeCheckDue(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name    string
		ago     time.Duration // since the last sound check ended; <0: none yet
		cost    time.Duration
		damaged bool
		want    bool
	}{
		{"no check yet", -1, 0, false, true},
		{"just checked", 0, 5 * time.Millisecond, false, false},
		{"inside the window", 99 * time.Millisecond, 5 * time.Millisecond, false, false},
		{"at the window's end", 100 * time.Millisecond, 5 * time.Millisecond, false, true},
		{"a slow check waits longer", 2 * time.Second, 108 * time.Millisecond, false, false},
		{"a slow check's window ends", 2160 * time.Millisecond, 108 * time.Millisecond, false, true},
		{"capped at a minute", time.Minute, time.Hour, false, true},
		{"under the cap", time.Minute - time.Second, time.Hour, false, false},
		{"damage found: always", 0, time.Hour, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := &Judge{}
			if tc.ago >= 0 {
				j.soundAt.Store(now.Add(-tc.ago).UnixNano())
				j.soundCost.Store(int64(tc.cost))
			}
			j.damaged.Store(tc.damaged)
			if got := j.intakeCheckDue(now); got != tc.want {
				t.Errorf("intakeCheckDue = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestIntakeCheckFindsDamageAfterItsWindow: pages damaged just after a sound check are
// not checked again at once (the check is not due), but the first check due finds
// them, and from then on intake checks before every batch.
func TestIntakeCheckFindsDamageAfterItsWindow(t *testing.T) {
	ctx := context.Background()
	j, st, path := checkedJudge(t)
	if err := j.intakePagesSound(ctx); err != nil {
		t.Fatalf("sound pages: %v", err)
	}
	if j.soundAt.Load() == 0 || j.soundCost.Load() <= 0 {
		t.Fatal("a sound check was not recorded")
	}
	j.soundCost.Store(int64(time.Hour)) // a window of a minute (intakeCheckMaxGap)
	damagePages(t, st, path)

	if j.intakeCheckDue(time.Now()) {
		t.Fatal("the check is due inside its window")
	}
	if err := j.intakePagesSound(ctx); err != nil {
		t.Fatalf("a check not due ran: %v", err)
	}
	// the window passes
	j.soundAt.Store(time.Now().Add(-intakeCheckMaxGap).UnixNano())
	if err := j.intakePagesSound(ctx); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("the check due after the window returned %v, want ErrCorrupt", err)
	}
	if !j.intakeCheckDue(time.Now()) {
		t.Error("after damage was found, the check is not due before every batch")
	}
}

// checkedJudge is a judge with one game on a database file of its own at path.
func checkedJudge(t *testing.T) (*Judge, *store.Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "j.db")
	st, err := store.OpenWith(path, store.Options{Sync: store.SyncNormal})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	j, err := New(st, "judge@example.test", testLog(t))
	if err != nil {
		t.Fatal(err)
	}
	spec := GameSpec{Tag: "live", Settings: map[string]string{"course": "sprint"}, Seed: 3, Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24},
		Players: []PlayerSpec{{Robot: "Alice", Email: "alice@example.test"}, {Robot: "Bob", Email: "bob@example.test"}}}
	if _, err := j.CreateGame(context.Background(), spec); err != nil {
		t.Fatal(err)
	}
	return j, st, path
}

// damagePages overwrites every page of the database file at path but the first, once
// the log is checkpointed into it.
func damagePages(t *testing.T, st *store.Store, path string) {
	t.Helper()
	if err := st.Scrub(context.Background()); err != nil { // every page in the file, none in the log
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	if _, err := f.WriteAt([]byte(strings.Repeat("\xde\xad\xbe\xef", int(fi.Size()-4096)/4)), 4096); err != nil {
		t.Fatal(err)
	}
}

// TestIntakeCheckAhead: a check due before a batch starts when the fetcher has the batch
// (checkAhead, from prepareBatch), and the batch waits for it instead of running one of
// its own; damage the check found ahead stops the batch as the batch's own check would.
func TestIntakeCheckAhead(t *testing.T) {
	ctx := context.Background()
	t.Run("sound", func(t *testing.T) {
		j, _, _ := checkedJudge(t)
		if !j.intakeCheckDue(time.Now()) {
			t.Fatal("no check has run, yet none is due")
		}
		j.checkAhead(0)
		j.aheadMu.Lock()
		started := j.aheadCheck != nil || j.soundAt.Load() != 0
		j.aheadMu.Unlock()
		if !started {
			t.Fatal("checkAhead started no check though one was due")
		}
		j.checkAhead(0) // one runs, or ran: no second
		// the batch waits for the check under way instead of running one of its own
		if err := j.intakePagesSound(ctx); err != nil {
			t.Fatal(err)
		}
		if j.soundAt.Load() == 0 {
			t.Fatal("the check ahead did not record the pages sound")
		}
		if n := j.checksRun.Load(); n != 1 {
			t.Errorf("%d checks ran for one batch, want the one started ahead", n)
		}
		j.checkAhead(0) // not due: nothing starts
		j.aheadMu.Lock()
		defer j.aheadMu.Unlock()
		if j.aheadCheck != nil {
			t.Error("a check started ahead though none was due")
		}
	})
	t.Run("due while the batch is written", func(t *testing.T) {
		j, _, _ := checkedJudge(t)
		if err := j.intakePagesSound(ctx); err != nil {
			t.Fatal(err)
		}
		// the window ends in about a second
		j.soundCost.Store(int64(time.Second / intakeCheckShare))
		j.soundAt.Store(time.Now().UnixNano())
		before := j.checksRun.Load()
		j.checkAhead(0) // not due now
		j.awaitAheadCheck()
		if n := j.checksRun.Load() - before; n != 0 {
			t.Fatalf("%d checks started though none is due", n)
		}
		j.checkAhead(time.Minute) // due before a batch of a minute is written
		j.awaitAheadCheck()
		if n := j.checksRun.Load() - before; n != 1 {
			t.Fatalf("%d checks started for one falling due within the batch, want 1", n)
		}
	})
	t.Run("damaged", func(t *testing.T) {
		j, st, path := checkedJudge(t)
		damagePages(t, st, path)
		j.checkAhead(0)
		j.awaitAheadCheck()
		if !j.damaged.Load() {
			t.Fatal("the check ahead did not find the damage")
		}
		if err := j.intakePagesSound(ctx); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("the batch after a check ahead found damage: %v, want ErrCorrupt", err)
		}
	})
}
