package judge

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/store"
)

// cloneGame copies game 1 of the database at path n times, rows of every table that
// belongs to a game but the mail ones (outbox, inbox, audit, press), with tags made
// unique: many idle running games without a bcrypt hash each (CreateGame hashes every
// player's secret, 50 ms apiece). The store must be closed.
func cloneGame(tb testing.TB, path string, n int) {
	tb.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	columns := func(table string) []string {
		rows, err := db.Query(`SELECT name FROM pragma_table_info(?)`, table)
		if err != nil {
			tb.Fatal(err)
		}
		defer rows.Close()
		var cols []string
		for rows.Next() {
			var c string
			if err := rows.Scan(&c); err != nil {
				tb.Fatal(err)
			}
			cols = append(cols, c)
		}
		return cols
	}
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('games', 'outbox', 'inbox', 'audit', 'press', 'game_changes')`)
	if err != nil {
		tb.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			tb.Fatal(err)
		}
		tables = append(tables, name)
	}
	rows.Close()
	var stmts []string // each takes the new game's id and the source's
	gcols := columns("games")
	var sel []string
	for _, c := range gcols {
		switch c {
		case "id":
			sel = append(sel, "?1")
		case "tag":
			sel = append(sel, "tag || '-' || ?1")
		default:
			sel = append(sel, c)
		}
	}
	// The source rows are copied to small tables first: the tables grow as the copies
	// go in, and most have no index on game_id.
	var setup []string
	setup = append(setup, `CREATE TEMP TABLE src_games AS SELECT * FROM games WHERE id = 1`)
	stmts = append(stmts, fmt.Sprintf(`INSERT INTO games (%s) SELECT %s FROM src_games`, strings.Join(gcols, ", "), strings.Join(sel, ", ")))
	for _, t := range tables {
		cols := columns(t)
		hasGame := false
		var keep, sel []string
		for _, c := range cols {
			switch c {
			case "id":
				continue // a new one
			case "game_id":
				hasGame = true
				sel = append(sel, "?1")
			default:
				sel = append(sel, c)
			}
			keep = append(keep, c)
		}
		if hasGame {
			setup = append(setup, fmt.Sprintf(`CREATE TEMP TABLE src_%s AS SELECT * FROM %s WHERE game_id = 1`, t, t))
			stmts = append(stmts, fmt.Sprintf(`INSERT INTO %s (%s) SELECT %s FROM src_%s`, t, strings.Join(keep, ", "), strings.Join(sel, ", "), t))
		}
	}
	tx, err := db.Begin()
	if err != nil {
		tb.Fatal(err)
	}
	for _, s := range setup {
		if _, err := tx.Exec(s); err != nil {
			tb.Fatalf("%s: %v", s, err)
		}
	}
	for k := 2; k <= n+1; k++ {
		for _, s := range stmts {
			if _, err := tx.Exec(s, k); err != nil {
				tb.Fatalf("%s: %v", s, err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkTick is one Judge.Tick with 1,000 and 10,000 idle running games (every
// deadline a day ahead, no orders in): issue 24's goal is 5 ms at 1,000, and the same
// at 10,000 (a tick costs what there is to do, not what there is).
func BenchmarkTick(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("games=%d", n), func(b *testing.B) {
			ctx := context.Background()
			path := filepath.Join(b.TempDir(), "j.db")
			now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
			open := func() *Judge {
				st, err := store.OpenWith(path, store.Options{Sync: store.SyncNormal})
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(func() { st.Close() })
				j, err := New(st, "judge@example.test", nil)
				if err != nil {
					b.Fatal(err)
				}
				j.Now = func() time.Time { return now }
				j.NewSeed = func() int64 { return 42 }
				return j
			}
			j := open()
			spec := GameSpec{Tag: "idle", Settings: map[string]string{"course": "sprint"}, Seed: 42, GMEmail: "gm@example.test",
				Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}}
			for _, p := range []string{"Twonky", "Zoombot", "Hulk"} {
				spec.Players = append(spec.Players, PlayerSpec{Robot: p, Email: strings.ToLower(p) + "@example.test"})
			}
			if _, err := j.CreateGame(ctx, spec); err != nil {
				b.Fatal(err)
			}
			j.Store.Close()
			cloneGame(b, path, n-1)
			j = open()
			st := j.Store
			if _, err := j.Tick(ctx); err != nil { // the first tick after a start looks at every game
				b.Fatal(err)
			}
			var running int
			if err := st.View(ctx, func(tx *store.Tx) error {
				gs, err := tx.Games(store.GameRunning)
				running = len(gs)
				return err
			}); err != nil {
				b.Fatal(err)
			}
			if running != n {
				b.Fatalf("%d running games, want %d", running, n)
			}
			b.ResetTimer()
			for b.Loop() {
				if _, err := j.Tick(ctx); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(5, "goal-ms")
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/tick")
		})
	}
}
