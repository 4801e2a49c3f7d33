package orders

import (
	"syscall"
	"testing"
	"time"
)

// A typical sheet: header, program, two conditional orders (seed 003's sample orders
// with a game line).
var typicalSheet = []byte("Game: practice\r\nFred Turn 3\r\nP490 M2 670 L70 R80 B430\r\n" +
	"If I finish on 2 spanner repair & damage > 3 repair, else take option card.\r\n" +
	"reenter facing toward the next flag\r\n")

// cpuTime is the CPU time the process has used (the collector's workers too): on a
// machine shared with other work, wall time counts the waits for a core.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkParseValidate reads and checks the sample sheet, and reports beside ns/op
// and allocs/op the process CPU time an op (cpu-ns/op, the collector's included) and
// the goals (issue 24 item 5: at most 16 µs and 50 allocations).
func BenchmarkParseValidate(b *testing.B) {
	setup, st := testGame(b)
	b.ReportAllocs()
	n, t0 := 0, cpuTime(b)
	for b.Loop() {
		s, err := Parse(typicalSheet)
		if err != nil {
			b.Fatal(err)
		}
		st.Turn = 3
		rep := Validate(setup, st, "Fred", s)
		if !rep.OK() {
			b.Fatal(rep)
		}
		n++
	}
	b.ReportMetric(float64(cpuTime(b)-t0)/float64(n), "cpu-ns/op")
	b.ReportMetric(16000, "goal-ns/op")
	b.ReportMetric(50, "goal-allocs/op")
}

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	n, t0 := 0, cpuTime(b)
	for b.Loop() {
		if _, err := Parse(typicalSheet); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(cpuTime(b)-t0)/float64(n), "cpu-ns/op")
}

// BenchmarkValidate checks the parsed sample sheet: the part of BenchmarkParseValidate
// that is not reading the text (most of it the forecast's Simulator).
func BenchmarkValidate(b *testing.B) {
	setup, st := testGame(b)
	s, err := Parse(typicalSheet)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	n, t0 := 0, cpuTime(b)
	for b.Loop() {
		if rep := Validate(setup, st, "Fred", s); !rep.OK() {
			b.Fatal(rep)
		}
		n++
	}
	b.ReportMetric(float64(cpuTime(b)-t0)/float64(n), "cpu-ns/op")
}
