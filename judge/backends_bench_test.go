package judge

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/roborally"
	"github.com/rallyjudge/rallyjudge/store"
)

// The judge's speed on both stores in one run (issue 25 item 6): intake (BenchmarkIntake)
// and the last sheet of a turn to its reports enqueued (BenchmarkLastOrderToReports), each
// as sqlite and postgres sub-benchmarks; postgres needs RALLYJUDGE_POSTGRES_DSN
// (scripts/postgres.sh). Both stores commit to disk (synchronous=FULL; PostgreSQL's fsync).

func benchStores(b *testing.B, fn func(b *testing.B, st *store.Store)) {
	b.Run("sqlite", func(b *testing.B) {
		st, err := store.Open(filepath.Join(b.TempDir(), "bench.db"))
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		fn(b, st)
	})
	b.Run("postgres", func(b *testing.B) {
		if os.Getenv("RALLYJUDGE_POSTGRES_DSN") == "" {
			b.Skip("no PostgreSQL: RALLYJUDGE_POSTGRES_DSN (scripts/postgres.sh)")
		}
		dsn, pw := failoverSchema(b)
		st, err := store.OpenWith(dsn, store.Options{Password: pw, Lease: 2 * time.Second})
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		fn(b, st)
	})
}

// benchGame makes a running game of three robots and returns its secrets.
// benchJudge is a judge on a database of its own, opened as the daemon opens it (every
// commit on disk), logging nothing, closed when b ends.
func benchJudge(b *testing.B) *Judge {
	b.Helper()
	st, err := store.Open(filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	j, err := New(st, "orders@example.test", slog.New(slog.DiscardHandler))
	if err != nil {
		b.Fatal(err)
	}
	return j
}

func benchGame(b *testing.B, j *Judge, tag string) map[string]string {
	spec := GameSpec{Tag: tag, Settings: map[string]string{"course": "sprint"}, Seed: 3, Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}}
	for _, u := range []string{"alice", "bob", "carol"} {
		spec.Players = append(spec.Players, PlayerSpec{Robot: strings.ToUpper(u[:1]) + u[1:], Email: u + "@example.test"})
	}
	secrets, err := j.CreateGame(context.Background(), spec)
	if err != nil {
		b.Fatal(err)
	}
	return secrets
}

// BenchmarkIntake is BenchmarkHandleBatch on both stores: standing-order sheets handed
// to HandleBatch in batches of 100, each batch one commit. One op is one mail.
func BenchmarkIntake(b *testing.B) {
	benchStores(b, func(b *testing.B, st *store.Store) {
		j, err := New(st, "orders@example.test", slog.New(slog.DiscardHandler))
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		secrets := benchGame(b, j, "tp")
		robots, users := []string{"Alice", "Bob", "Carol"}, []string{"alice", "bob", "carol"}
		msgs := make([]mail.Fetched, b.N)
		for i := range msgs {
			u := i % len(users)
			body := fmt.Sprintf("robot %s\nsecret %s\nif damage > 4 then power down\n", robots[u], secrets[robots[u]])
			msgs[i] = mail.Fetched{UID: uint32(i + 1), Received: time.Now(),
				Raw: rawMail(users[u]+"@example.test", fmt.Sprintf("[RR tp] standing orders %d", i), body)}
		}
		b.ReportAllocs()
		b.ResetTimer()
		start := time.Now()
		for i := 0; i < b.N; i += 100 {
			for _, err := range j.HandleBatch(ctx, 1, msgs[i:min(i+100, b.N)]) {
				if err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "mails/s")
	})
}

// BenchmarkLastOrderToReports: one op is the last sheet of a turn handed to HandleBatch,
// which stores it, resolves the turn and enqueues every report (the other sheets go in
// first, untimed). The game starts again when it ends.
func BenchmarkLastOrderToReports(b *testing.B) {
	benchStores(b, func(b *testing.B, st *store.Store) {
		j, err := New(st, "orders@example.test", slog.New(slog.DiscardHandler))
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		users := []string{"alice", "bob", "carol"}
		games, uid := 0, uint32(0)
		var tag string
		var secrets map[string]string
		newGame := func() {
			games++
			tag = fmt.Sprintf("lr%d", games)
			secrets = benchGame(b, j, tag)
		}
		newGame()
		b.ResetTimer()
		for n := 0; n < b.N; n++ {
			b.StopTimer()
			var g store.Game
			var s *adjudicator.State
			if err := st.View(ctx, func(tx *store.Tx) error {
				var err error
				if g, err = tx.GameByTag(tag); err != nil {
					return err
				}
				s, _, err = testStateOf(tx, g)
				return err
			}); err != nil {
				b.Fatal(err)
			}
			if g.Status != store.GameRunning {
				newGame()
				n--
				continue
			}
			setup, err := j.setupFor(g)
			if err != nil {
				b.Fatal(err)
			}
			var sheets []mail.Fetched
			for i, r := range s.Robots {
				var cards []string
				for _, p := range roborally.RandomProgram(setup, s, i, 77, g.CurrentTurn) {
					if p == 0 {
						cards = append(cards, "locked")
					} else {
						cards = append(cards, fmt.Sprintf("P%d", p))
					}
				}
				if r.Power == adjudicator.PowerDown || r.Out {
					cards = nil
				}
				uid++
				body := fmt.Sprintf("robot %s\nturn %d\nsecret %s\n%s\n", r.Name, g.CurrentTurn, secrets[r.Name], strings.Join(cards, " "))
				sheets = append(sheets, mail.Fetched{UID: uid, Received: time.Now(),
					Raw: rawMail(users[i]+"@example.test", fmt.Sprintf("[RR %s] turn %d", tag, g.CurrentTurn), body)})
			}
			last := len(sheets) - 1
			for _, err := range j.HandleBatch(ctx, 1, sheets[:last]) {
				if err != nil {
					b.Fatal(err)
				}
			}
			b.StartTimer()
			for _, err := range j.HandleBatch(ctx, 1, sheets[last:]) {
				if err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			var after store.Game
			if err := st.View(ctx, func(tx *store.Tx) error {
				var err error
				after, err = tx.Game(g.ID)
				return err
			}); err != nil {
				b.Fatal(err)
			}
			if after.CurrentTurn != g.CurrentTurn+1 && after.Status == store.GameRunning {
				b.Fatalf("turn %d of %s was not resolved by its last sheet", g.CurrentTurn, tag)
			}
			b.StartTimer()
		}
	})
}
