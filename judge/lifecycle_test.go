package judge

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/store"
)

func (f *fixture) setOptions(o Options) {
	f.t.Helper()
	err := f.j.Store.Tx(context.Background(), func(tx *store.Tx) error {
		g, err := tx.GameByTag("spring")
		if err != nil {
			return err
		}
		if err := setOptions(tx, g.ID, o); err != nil {
			return err
		}
		// behind the seam the missed-orders policy is one of the game's own settings,
		// which SET missed changes (setGameKey): the same here
		k, err := f.j.hostedKind(g)
		if err != nil || k == nil || o.Missed == "" {
			return err
		}
		cfg, err := k.LoadConfig(g.Rules)
		if err != nil {
			return err
		}
		st, ok := cfg.(game.Settable)
		if !ok {
			return nil
		}
		if cfg, _, err = st.Set("missed", o.Missed); err != nil {
			return err
		}
		raw, err := cfg.Encode()
		if err != nil {
			return err
		}
		return tx.SetGameRules(g.ID, raw)
	})
	if err != nil {
		f.t.Fatal(err)
	}
}

// Reminders go once per lead time, only to players whose orders are missing.
func TestRemindersOnlyToMissingOnce(t *testing.T) {
	f := newFixture(t) // deadline 24h after the start
	f.deliver(rawMail("twonky@example.test", "[RR spring] orders", f.sheet("Twonky", "")))
	tests := []struct {
		after time.Duration // since the start
		want  int           // reminders to each missing player so far
	}{
		{1 * time.Hour, 0},  // the 24h lead is the whole turn: the report said the deadline
		{10 * time.Hour, 0}, // 14h left
		{22 * time.Hour, 1}, // 2h left: the 2h reminder
		{22*time.Hour + time.Minute, 1},
		{23 * time.Hour, 1},
	}
	start := f.now
	for _, tt := range tests {
		f.now = start.Add(tt.after)
		if _, err := f.j.Tick(context.Background()); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"zoombot", "hulk"} {
			if n := len(f.mailsTo(p+"@example.test", "reminder")); n != tt.want {
				t.Errorf("after %v: %s has %d reminders, want %d", tt.after, p, n, tt.want)
			}
		}
		if n := len(f.mailsTo("twonky@example.test", "reminder")); n != 0 {
			t.Errorf("after %v: Twonky, whose orders are in, got %d reminders", tt.after, n)
		}
	}
	m := f.mailsTo("hulk@example.test", "reminder")[0]
	if txt := textOf(t, m); !strings.Contains(txt, "Hulk, turn 1") || !strings.Contains(txt, "powered down") {
		t.Errorf("reminder text:\n%s", txt)
	}
	// A moved deadline arms the reminders again; "none" switches them off.
	f.setOptions(Options{Reminders: []int64{3 * 3600}})
	err := f.j.Store.Tx(context.Background(), func(tx *store.Tx) error {
		g, _ := tx.GameByTag("spring")
		return tx.SetDeadline(g.ID, f.now.Add(2*time.Hour))
	})
	if err != nil {
		t.Fatal(err)
	}
	f.j.Tick(context.Background())
	if n := len(f.mailsTo("hulk@example.test", "reminder")); n != 2 {
		t.Errorf("after the deadline moved: %d reminders, want 2", n)
	}
	f.setOptions(Options{Reminders: []int64{}})
	f.now = f.now.Add(90 * time.Minute)
	f.j.Tick(context.Background())
	if n := len(f.mailsTo("hulk@example.test", "reminder")); n != 2 {
		t.Errorf("with reminders off: %d reminders, want 2", n)
	}
}

// After N missed turns the GM is asked to replace the player, or the player is
// withdrawn and the robot leaves the race; the player is told what was played.
func TestMissedLimit(t *testing.T) {
	for _, action := range []string{"ask", "remove"} {
		t.Run(action, func(t *testing.T) {
			f := newFixture(t)
			f.setOptions(Options{MissedLimit: 2, OnMissedLimit: action, Missed: MissedAutopilot, Reminders: []int64{}})
			for turn := 1; turn <= 3; turn++ {
				for _, p := range []string{"Twonky", "Zoombot"} {
					f.deliver(rawMail(strings.ToLower(p)+"@example.test", "[RR spring] orders", f.sheet(p, "")))
				}
				g, _ := f.state()
				if g.Status == store.GameOver {
					break
				}
				if _, err := f.j.ResolveNow(context.Background(), g.ID); err != nil {
					t.Fatal(err)
				}
			}
			notes := f.mailsTo("hulk@example.test", "missed")
			if len(notes) < 2 || !strings.Contains(textOf(t, notes[0]), "the autopilot played") || !strings.Contains(textOf(t, notes[0]), "Why: ") {
				t.Fatalf("Hulk's missed-turn notices: %d", len(notes))
			}
			var gm []store.OutboxMail // the missed-limit notice (the per-turn summaries aside)
			for _, m := range f.mailsTo("gm@example.test", "gm-notice") {
				if strings.Contains(m.Subject, "missed") {
					gm = append(gm, m)
				}
			}
			if len(gm) != 1 || !strings.Contains(textOf(t, gm[0]), "Hulk") {
				t.Fatalf("%d notices to the GM", len(gm))
			}
			p := f.player("spring", "Hulk")
			_, st := f.state()
			hulk := st.Robots[st.Robot("Hulk")]
			switch action {
			case "ask":
				if p.Withdrawn || hulk.Out || !strings.Contains(textOf(t, gm[0]), "REPLACE Hulk") {
					t.Errorf("ask: withdrawn %v, out %v", p.Withdrawn, hulk.Out)
				}
			case "remove":
				if !p.Withdrawn || !hulk.Out {
					t.Errorf("remove: withdrawn %v, out %v", p.Withdrawn, hulk.Out)
				}
			}
		})
	}
}

// When the game is over everyone gets one final summary, however often Tick runs.
func TestGameOverSummaryOnce(t *testing.T) {
	f := newFixture(t, "Solo", "Duo")
	for _, p := range []string{"Solo", "Duo"} {
		pl := f.player("spring", p)
		err := f.j.Store.Tx(context.Background(), func(tx *store.Tx) error { return tx.SetWithdrawn(pl.ID, true) })
		if err != nil {
			t.Fatal(err)
		}
	}
	g, _ := f.state()
	if _, err := f.j.ResolveNow(context.Background(), g.ID); err != nil {
		t.Fatal(err)
	}
	if g, _ = f.state(); g.Status != store.GameOver {
		t.Fatalf("all robots withdrawn: game %s", g.Status)
	}
	for i := 0; i < 3; i++ {
		if _, err := f.j.Tick(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	for _, a := range []string{"solo@example.test", "duo@example.test", "gm@example.test"} {
		ms := f.mailsTo(a, "final")
		if len(ms) != 1 {
			t.Fatalf("%s: %d final mails", a, len(ms))
		}
		txt := textOf(t, ms[0])
		for _, w := range []string{"is over after 1 turn", "Standings", "1. Solo", "2. Duo", "out of the race (withdrew)", "Turn 1: "} {
			if !strings.Contains(txt, w) {
				t.Errorf("%s: final mail lacks %q:\n%s", a, w, txt)
			}
		}
	}
}
