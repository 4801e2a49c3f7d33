package rja

import (
	"bytes"
	"testing"
)

// longArchives are seeded 8-robot games on long-haul with random programs and many
// lives (99, the most Rules.Check allows; 1,000 made every run fail), chained until they
// hold 1,000 turns between them (a game that is won ends).
func longArchives(tb testing.TB, total int) []Archive {
	var out []Archive
	for seed, n := int64(1), 0; n < total; seed++ {
		a := playGame(tb, "long-haul", 8, total-n, seed, 99)
		out = append(out, a)
		n += len(a.Turns) - 1
	}
	return out
}

// BenchmarkReplay1000 replays 1,000 turns of 8 robots (setup, every turn resolved and
// its state hashed); one op is all 1,000 turns.
func BenchmarkReplay1000(b *testing.B) {
	as := longArchives(b, 1000)
	turns := 0
	for _, a := range as {
		turns += len(a.Turns) - 1
	}
	b.ResetTimer()
	for b.Loop() {
		for i := range as {
			if err := Replay(&as[i], nil, -1, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(turns), "turns")
	b.ReportMetric(float64(len(as)), "archives")
}

// BenchmarkRead1000 reads the same 1,000 turns from their archive bytes.
func BenchmarkRead1000(b *testing.B) {
	as := longArchives(b, 1000)
	var bufs [][]byte
	size := 0
	for _, a := range as {
		bufs = append(bufs, encode(b, a))
		size += len(bufs[len(bufs)-1])
	}
	b.ResetTimer()
	for b.Loop() {
		for _, buf := range bufs {
			if _, err := Read(bytes.NewReader(buf)); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(size), "bytes")
}
