package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/store"
)

func TestGameFlagsToCommand(t *testing.T) {
	tests := []struct {
		op, args string
		verb     string
		cargs    string
		err      string
	}{
		{"create", "--game g1 --course sprint --players 4 --missed autopilot --rules max_options=2", "CREATE", `g1 course=sprint missed=autopilot players=4 rules.max_options=2`, ""},
		{"create", "--course sprint", "", "", "needs --game"},
		{"create", "--game g1 --course high-water --options armed --variants deluxe-package,bio-bots", "CREATE", `g1 course=high-water options=armed variants=deluxe-package,bio-bots`, ""},
		{"create", "--game g1 --course sprint --set press=none --set gm-copies=on", "CREATE", `g1 course=sprint press=none gm-copies=on`, ""},
		// --seed 0 is the seed 0, as seed=0 by mail; left out, the judge picks one.
		{"create", "--game g1 --course sprint --seed 0", "CREATE", `g1 course=sprint seed=0`, ""},
		{"create", "--game g1 --course sprint --seed -7", "CREATE", `g1 course=sprint seed=-7`, ""},
		{"create", "--game g1 --course sprint", "CREATE", `g1 course=sprint`, ""},
		{"deadline", "--game g1 --at 2026-03-04T18:00:00Z", "DEADLINE", "2026-03-04T18:00:00Z", ""},
		{"extend", "--game g1 --by 24h", "EXTEND", "24h", ""},
		{"replace", "--game g1 --robot Hulk --email h@x", "REPLACE", "Hulk h@x", ""},
		{"replace", "--game g1 --robot Hulk", "", "", "needs --email"},
		{"set", "--game g1 --key deadline --value daily@18:00", "SET", "deadline daily@18:00", ""},
		{"process", "", "", "", "needs --game"},
	}
	for _, tt := range tests {
		var stderr bytes.Buffer
		f, err := parseGameFlags(tt.op, strings.Fields(tt.args), &stderr)
		if err != nil {
			t.Fatalf("%s %s: %v", tt.op, tt.args, err)
		}
		c, err := f.command(tt.op)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s %s: error %v, want %q", tt.op, tt.args, err, tt.err)
			}
			continue
		}
		words := append([]string(nil), c.Args...)
		for _, p := range c.KV { // CREATE's settings, as pairs
			words = append(words, p[0]+"="+p[1])
		}
		if err != nil || c.Verb != tt.verb || strings.Join(words, " ") != tt.cargs {
			t.Errorf("%s %s: %s %q (%v), want %s %q", tt.op, tt.args, c.Verb, strings.Join(words, " "), err, tt.verb, tt.cargs)
		}
	}
}

// TestGameCLI creates and runs a game from the command line: the operations change the
// database and leave their mails in the outbox.
func TestGameCLI(t *testing.T) {
	db := filepath.Join(t.TempDir(), "g.db")
	base := []string{"--db", db, "--address", "judge@example.test"}
	run := func(want int, op string, args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		code := cmdGame(append(append([]string{op}, base...), args...), &out, &errb)
		if code != want {
			t.Fatalf("game %s %v: exit %d, want %d\nstdout: %s\nstderr: %s", op, args, code, want, out.String(), errb.String())
		}
		return out.String() + errb.String()
	}
	if out := run(0, "create", "--game", "cli", "--course", "sprint", "--players", "3", "--gm", "gm@example.test", "--seed", "5"); !strings.Contains(out, "Game cli is created") {
		t.Fatalf("create: %s", out)
	}
	if out := run(0, "list"); !strings.Contains(out, "cli") || !strings.Contains(out, "open") {
		t.Errorf("list: %s", out)
	}
	if out := run(1, "start", "--game", "cli"); !strings.Contains(out, "nobody has joined") {
		t.Errorf("start with no players: %s", out)
	}
	// Two players join (by mail in real life): add them to the open game directly.
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	err = st.Tx(context.Background(), func(tx *store.Tx) error {
		g, err := tx.GameByTag("cli")
		if err != nil {
			return err
		}
		h, _ := store.HashSecret("s3cret-s3cret")
		for i, r := range []string{"Ann", "Ben"} {
			if _, err := tx.AddPlayer(store.Player{GameID: g.ID, Robot: r, Seat: i, Email: strings.ToLower(r) + "@example.test", SecretHash: h, Created: g.Created}); err != nil {
				return err
			}
		}
		return nil
	})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	// a deadline some months ahead: DEADLINE takes at most five years (the test runs on
	// the real clock)
	at := time.Now().UTC().AddDate(0, 3, 0).Truncate(time.Hour)
	steps := []struct {
		op   string
		args []string
		want string
	}{
		{"start", []string{"--game", "cli"}, "has started with 2 robots"},
		{"status", []string{"--game", "cli"}, "Ann          waiting for orders"},
		{"extend", []string{"--game", "cli", "--by", "2d"}, "The deadline of turn 1 is now"},
		{"pause", []string{"--game", "cli"}, "is paused"},
		{"resume", []string{"--game", "cli"}, "goes on"},
		{"set", []string{"--game", "cli", "--key", "missed", "--value", "random"}, "missed orders:   random"},
		{"broadcast", []string{"--game", "cli", "--text", "Good luck!"}, "went to 2 player(s)"},
		{"process", []string{"--game", "cli"}, "Turn 1 is resolved"},
		{"history", []string{"--game", "cli"}, "Turn 1 ("},
		{"rollback", []string{"--game", "cli"}, "Turn 1 is rolled back"},
		{"replace", []string{"--game", "cli", "--robot", "Ben", "--email", "bea@example.test"}, "Ben is now played from bea@example.test"},
		{"kick", []string{"--game", "cli", "--robot", "Ann"}, "Ann was removed"},
		{"deadline", []string{"--game", "cli", "--at", at.Format("2006-01-02 15:04")}, at.Format("Mon 2 Jan 2006 15:04 UTC")},
	}
	for _, s := range steps {
		if out := run(0, s.op, s.args...); !strings.Contains(out, s.want) {
			t.Errorf("%s: %q lacks %q", s.op, out, s.want)
		}
	}
	run(0, "add-gm", "--email", "boss@example.test")
	// The mails wait in the outbox: welcomes, the GM's secret, notices, reports.
	st, err = store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	kinds := map[string]int{}
	_ = st.View(context.Background(), func(tx *store.Tx) error {
		g, _ := tx.GameByTag("cli")
		ms, err := tx.OutboxByGame(g.ID, -1)
		for _, m := range ms {
			kinds[m.Kind]++
		}
		return err
	})
	for _, k := range []string{"welcome", "gm-notice", "notice", "report", "broadcast"} {
		if kinds[k] == 0 {
			t.Errorf("no %s mail in the outbox: %v", k, kinds)
		}
	}
}

// TestGameCreateSeed: --seed 0 makes a game of seed 0, as CREATE seed=0 does by mail;
// two games made in the same second without a seed get seeds of their own, neither of
// them the clock's.
func TestGameCreateSeed(t *testing.T) {
	db := filepath.Join(t.TempDir(), "g.db")
	base := []string{"--db", db, "--address", "judge@example.test"}
	for _, args := range [][]string{{"--game", "zero", "--seed", "0"}, {"--game", "one"}, {"--game", "two"}} {
		var out, errb bytes.Buffer
		if code := cmdGame(append(append([]string{"create"}, base...), append(args, "--course", "sprint")...), &out, &errb); code != 0 {
			t.Fatalf("create %v: exit %d: %s%s", args, code, out.String(), errb.String())
		}
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	seeds := map[string]int64{}
	err = st.Tx(context.Background(), func(tx *store.Tx) error {
		for _, tag := range []string{"zero", "one", "two"} {
			g, err := tx.GameByTag(tag)
			if err != nil {
				return err
			}
			seeds[tag] = g.Seed
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seeds["zero"] != 0 {
		t.Errorf("--seed 0 made a game of seed %d", seeds["zero"])
	}
	now := time.Now().Unix()
	for _, tag := range []string{"one", "two"} {
		if d := seeds[tag] - now; d > -60 && d < 60 {
			t.Errorf("game %s: seed %d is the clock's", tag, seeds[tag])
		}
	}
	if seeds["one"] == seeds["two"] {
		t.Errorf("two games without a seed share the seed %d", seeds["one"])
	}
}
