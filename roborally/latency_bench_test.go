package roborally

import (
	"syscall"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/game"
)

// seamTurn is a turn of four robots on the demo course (sprint) played behind the
// seam: the position before, the turn's result and the settings as stored.
func seamTurn(b *testing.B) (Kind, []byte, game.Position, game.Result, []byte) {
	k := Kind{}
	cfg, err := k.Configure(map[string]string{"course": "sprint", "missed": "random"}) // programs played
	if err != nil {
		b.Fatal(err)
	}
	raw, err := cfg.Encode()
	if err != nil {
		b.Fatal(err)
	}
	pos, err := k.Start(cfg, []string{"Alice", "Bob", "Carol", "Dave"}, 7)
	if err != nil {
		b.Fatal(err)
	}
	var res game.Result
	for turn := 1; turn <= 3; turn++ {
		moves := map[int]game.Move{}
		for _, s := range pos.Due() {
			moves[s] = pos.Autopilot(s, int64(turn))
		}
		before := pos
		if res, err = pos.Play(moves, int64(turn)); err != nil {
			b.Fatal(err)
		}
		if turn < 3 {
			pos = res.Next
			continue
		}
		pb, err := before.Encode()
		if err != nil {
			b.Fatal(err)
		}
		return k, raw, before, res, pb
	}
	panic("unreachable")
}

// cpuTime is the process's CPU time so far: what a loaded machine does not change.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loopCPU runs f in b's loop and reports the CPU time of an op beside the wall time.
func loopCPU(b *testing.B, f func()) {
	b.ReportAllocs()
	n, cpu0 := 0, cpuTime()
	for b.Loop() {
		f()
		n++
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(n), "cpu-ms/op")
}

// BenchmarkSeamReportParts (issue 24 item 3) times what the judge asks of RoboRally
// between a turn's last order and its reports, for four players on the demo course:
// reading the settings and a position as stored (as the judge does for every sheet and
// turn), writing the four reports without pictures (Mail) and with them (Illustrate).
func BenchmarkSeamReportParts(b *testing.B) {
	k, raw, before, res, pb := seamTurn(b)
	ms := make([]game.Mailing, 4)
	for i := range ms {
		ms[i] = game.Mailing{Kind: game.MailReport, Seat: i, Game: "lo1", Turn: 3, PictureIDs: "lo1.3@example.test"}
	}
	b.Run("LoadConfig", func(b *testing.B) {
		loopCPU(b, func() {
			if _, err := k.LoadConfig(raw); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("Load", func(b *testing.B) {
		cfg, err := k.LoadConfig(raw)
		if err != nil {
			b.Fatal(err)
		}
		loopCPU(b, func() {
			if _, err := k.Load(cfg, pb); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("Mail", func(b *testing.B) {
		ml := res.Next.(game.Mailer)
		loopCPU(b, func() {
			for _, m := range ms {
				ml.Mail(res.Events, m)
			}
		})
	})
	b.Run("Illustrate", func(b *testing.B) {
		ill := res.Next.(game.Illustrator)
		loopCPU(b, func() { ill.Illustrate(before, res.Events, ms) })
	})
}
