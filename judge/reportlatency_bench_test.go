package judge

import (
	"context"
	"fmt"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/roborally"
	"github.com/rallyjudge/rallyjudge/store"
)

// reportCounter is a Sender that counts the turn reports handed to it.
type reportCounter struct {
	mu      sync.Mutex
	reports int
	bytes   int
}

func (s *reportCounter) Send(_ context.Context, _ string, _ []string, raw []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if strings.Contains(string(raw[:min(len(raw), 4096)]), "Message-Id: <report.") ||
		strings.Contains(string(raw[:min(len(raw), 4096)]), "Message-ID: <report.") {
		s.reports++
		s.bytes += len(raw)
	}
	return nil
}

// BenchmarkLastOrderToSMTP (issue 24 item 3): one op is the last sheet of a turn of
// four players on the demo course (sprint) handed to HandleBatch, through to every
// report of the turn handed to the sender by DrainOutbox (an in-memory Sender: SMTP
// itself is not timed). It reports the median beside the goal of 100 ms, and the
// bytes of a report. Before and after in one run: pictures-in-tx draws the pictures
// inside the turn's transaction at best compression, as before; after-commit is the
// judge as it is (reportpictures.go). The game is roborally.Kind behind the game seam
// (game.Mailer and game.Illustrator).
func BenchmarkLastOrderToSMTP(b *testing.B) {
	for _, c := range []struct {
		name string
		inTx bool
	}{{"pictures-in-tx", true}, {"after-commit", false}} {
		b.Run(c.name, func(b *testing.B) { benchLastOrderToSMTP(b, c.inTx) })
	}
}

func benchLastOrderToSMTP(b *testing.B, inTx bool) {
	j := benchJudge(b)
	j.picturesInTx = inTx
	ctx := context.Background()
	users := []string{"alice", "bob", "carol", "dave"}
	games, uid := 0, uint32(0)
	var tag string
	var secrets map[string]string
	s := &reportCounter{}
	newGame := func() {
		games++
		tag = fmt.Sprintf("lo%d", games)
		spec := GameSpec{Tag: tag, Settings: map[string]string{"course": "sprint"}, Seed: int64(games), Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}}
		for _, u := range users {
			spec.Players = append(spec.Players, PlayerSpec{Robot: strings.ToUpper(u[:1]) + u[1:], Email: u + "@example.test"})
		}
		var err error
		if secrets, err = j.CreateGame(ctx, spec); err != nil {
			b.Fatal(err)
		}
		if _, err := j.DrainOutbox(ctx, s); err != nil {
			b.Fatal(err)
		}
	}
	newGame()
	var took, committed []time.Duration
	var cpu time.Duration
	reports, bytes := 0, 0
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		b.StopTimer()
		var g store.Game
		var state *adjudicator.State
		if err := j.Store.View(ctx, func(tx *store.Tx) error {
			var err error
			if g, err = tx.GameByTag(tag); err != nil {
				return err
			}
			state, _, err = testStateOf(tx, g)
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
		for i, r := range state.Robots {
			var cards []string
			for _, p := range roborally.RandomProgram(setup, state, i, 77, g.CurrentTurn) {
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
			body := fmt.Sprintf("game %s\nrobot %s\nturn %d\nsecret %s\n%s\n", tag, r.Name, g.CurrentTurn, secrets[r.Name], strings.Join(cards, " "))
			sheets = append(sheets, mail.Fetched{UID: uid, Received: time.Now(),
				Raw: rawMail(users[i]+"@example.test", fmt.Sprintf("[RR %s] turn %d", tag, g.CurrentTurn), body)})
		}
		last := len(sheets) - 1
		for _, err := range j.HandleBatch(ctx, 1, sheets[:last]) {
			if err != nil {
				b.Fatal(err)
			}
		}
		if _, err := j.DrainOutbox(ctx, s); err != nil { // the acknowledgements
			b.Fatal(err)
		}
		if s.reports > 0 { // the other sheets completed the turn (a robot without a program)
			s.reports, s.bytes = 0, 0
			n--
			continue
		}
		b.StartTimer()
		start, cpu0 := time.Now(), cpuTime()
		// labelled for the profiles: go tool pprof -tagfocus timed=turn
		pprof.Do(ctx, pprof.Labels("timed", "turn"), func(ctx context.Context) {
			for _, err := range j.HandleBatch(ctx, 1, sheets[last:]) {
				if err != nil {
					b.Fatal(err)
				}
			}
			committed = append(committed, time.Since(start))
			if _, err := j.DrainOutbox(ctx, s); err != nil {
				b.Fatal(err)
			}
		})
		took = append(took, time.Since(start))
		cpu += cpuTime() - cpu0
		b.StopTimer()
		if s.reports != len(users) {
			b.Fatalf("turn %d of %s: %d reports handed to the sender, want %d", g.CurrentTurn, tag, s.reports, len(users))
		}
		reports, bytes = reports+s.reports, bytes+s.bytes
		b.StartTimer()
	}
	b.StopTimer()
	slices.Sort(took)
	slices.Sort(committed)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(committed[len(committed)/2].Microseconds())/1000, "ms-commit-median")
	b.ReportMetric(100, "ms-goal")
	b.ReportMetric(float64(bytes)/float64(reports), "bytes/report")
	// the process's CPU time a turn: what the machine's load does not change
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(len(took)), "cpu-ms/turn")
}

func mustEncode(b *testing.B, c game.Config) []byte {
	raw, err := c.Encode()
	if err != nil {
		b.Fatal(err)
	}
	return raw
}
