package judge

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/store"
)

// BenchmarkPagesSound is the running judge's integrity check (store.PagesSound: PRAGMA
// quick_check on a connection of its own) on a database of 1,000 and 10,000 running
// games, which intake runs before a batch (when due: intakeCheckDue) and the clock every
// integrity_check.
func BenchmarkPagesSound(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("games=%d", n), func(b *testing.B) {
			ctx := context.Background()
			path := filepath.Join(b.TempDir(), "j.db")
			st, err := store.OpenWith(path, store.Options{Sync: store.SyncNormal})
			if err != nil {
				b.Fatal(err)
			}
			j, err := New(st, "judge@example.test", nil)
			if err != nil {
				b.Fatal(err)
			}
			spec := GameSpec{Tag: "idle", Settings: map[string]string{"course": "sprint"}, Seed: 42, GMEmail: "gm@example.test",
				Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}}
			for _, p := range []string{"Twonky", "Zoombot", "Hulk"} {
				spec.Players = append(spec.Players, PlayerSpec{Robot: p, Email: strings.ToLower(p) + "@example.test"})
			}
			if _, err := j.CreateGame(ctx, spec); err != nil {
				b.Fatal(err)
			}
			st.Close()
			cloneGame(b, path, n-1)
			st, err = store.OpenWith(path, store.Options{Sync: store.SyncNormal})
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			fi, err := os.Stat(path)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				if err := st.PagesSound(ctx); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(fi.Size())/(1<<20), "db-MiB")
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/check")
		})
	}
}
