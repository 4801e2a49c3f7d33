package judge

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/store"
)

// A turn left complete but unresolved after the judge's first tick (which looks at
// every running game) is still resolved by the next tick: intake marked its game
// before the point where the process stopped (readywatch.go).
func TestTickResolvesMarkedGameAfterTheSweep(t *testing.T) {
	for _, restart := range []bool{false, true} {
		f := newFixture(t)
		ctx := context.Background()
		if _, err := f.j.Tick(ctx); err != nil { // the sweep of every running game
			t.Fatal(err)
		}
		f.j.crashAt = func(p string) bool { return p == "after-sheet-commit" }
		for _, p := range []string{"Twonky", "Zoombot", "Hulk"} {
			f.deliver(rawMail(strings.ToLower(p)+"@example.test", "[RR spring] orders", f.sheet(p, "")))
		}
		if g, _ := f.state(); g.CurrentTurn != 1 {
			t.Fatalf("the crash point did not stop the resolution: turn %d", g.CurrentTurn)
		}
		f.j.crashAt = nil
		j := f.j
		if restart { // a new process: it looks at every running game
			var err error
			if j, err = New(f.j.Store, "judge@example.test", nil); err != nil {
				t.Fatal(err)
			}
			j.Now, j.NewSeed = f.j.Now, f.j.NewSeed
		}
		if n, err := j.Tick(ctx); err != nil || n != 1 {
			t.Fatalf("restart %v: tick resolved %d turns (%v), want 1", restart, n, err)
		}
		if g, _ := f.state(); g.CurrentTurn != 2 {
			t.Fatalf("restart %v: game at turn %d, want 2", restart, g.CurrentTurn)
		}
		if n, err := j.Tick(ctx); err != nil || n != 0 {
			t.Fatalf("restart %v: second tick: %d, %v", restart, n, err)
		}
	}
}

// Lifecycle reads only the games that changed since its last look (lifewatch.go), but
// a change made behind the judge's back (another process: here the store directly)
// still re-arms the reminders; and an hour later every game is read again.
func TestLifecycleSeesChangesItDidNotMake(t *testing.T) {
	f := newFixture(t) // deadline 24h after the start; reminders 24h and 2h before
	ctx := context.Background()
	start := f.now
	f.now = start.Add(10 * time.Hour)
	if _, err := f.j.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if n := len(f.mailsTo("hulk@example.test", "reminder")); n != 0 {
		t.Fatalf("%d reminders 14h before the deadline", n)
	}
	// Behind the judge: the deadline moves to an hour from now.
	if err := f.j.Store.Tx(ctx, func(tx *store.Tx) error {
		g, err := tx.GameByTag("spring")
		if err != nil {
			return err
		}
		return tx.SetDeadline(g.ID, f.now.Add(time.Hour))
	}); err != nil {
		t.Fatal(err)
	}
	f.now = f.now.Add(time.Minute)
	if _, err := f.j.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if n := len(f.mailsTo("hulk@example.test", "reminder")); n != 1 {
		t.Fatalf("after the deadline moved to 1h ahead: %d reminders, want 1", n)
	}
	if !f.j.life.loaded || f.j.life.games[1] == nil || f.j.life.games[1].quiet.IsZero() && !f.j.life.games[1].never {
		t.Errorf("the watch did not keep what it learnt: %+v", f.j.life.games[1])
	}
}

// Between the hourly sweeps a tick with no change in the feed looks at no game until
// the earliest a game wants a visit (lifewatch.go's wake): the reminder whose lead time
// a later tick crosses is still sent then, once.
func TestLifecycleWakesAtTheNextReminder(t *testing.T) {
	f := newFixture(t) // deadline 24h after the start; reminders 24h and 2h before
	ctx := context.Background()
	start := f.now
	steps := []struct {
		after time.Duration // since the start
		want  int           // reminders to Hulk so far
	}{
		{21*time.Hour + 30*time.Minute, 0}, // the sweep: learns the 2h lead at 22h
		{21*time.Hour + 45*time.Minute, 0}, // before the wake: no game looked at
		{22*time.Hour + time.Minute, 1},    // past it, within the hour: reminded
		{22*time.Hour + 2*time.Minute, 1},  // and not twice
	}
	for i, s := range steps {
		f.now = start.Add(s.after)
		if _, err := f.j.Tick(ctx); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			if want := start.Add(22 * time.Hour); f.j.life.idle || !f.j.life.wake.Equal(want) {
				t.Fatalf("after the sweep the watch wakes at %v (idle %v), want %v", f.j.life.wake, f.j.life.idle, want)
			}
		}
		if n := len(f.mailsTo("hulk@example.test", "reminder")); n != s.want {
			t.Errorf("after %v: %d reminders, want %d", s.after, n, s.want)
		}
	}
	if f.j.life.loadedAt != start.Add(21*time.Hour+30*time.Minute) {
		t.Errorf("the games were read again at %v: the ticks after the sweep did not use the watch", f.j.life.loadedAt)
	}
}
