package store

import (
	"math/rand/v2"
	"testing"
	"time"
)

// fmtTime writes what time.Format writes with the layout, for any instant and zone.
func TestFmtTimeIsFormat(t *testing.T) {
	zone := time.FixedZone("x", -(3*3600 + 30*60))
	r := rand.New(rand.NewPCG(1, 2))
	times := []time.Time{{}, t0, time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(999, 2, 3, 4, 5, 6, 7000, zone), time.Now()}
	for range 10000 {
		times = append(times, time.Unix(r.Int64N(400<<30)-(200<<30), r.Int64N(1e9)).In(zone))
	}
	for _, tm := range times {
		if got, want := fmtTime(tm), tm.UTC().Format(timeLayout); got != want {
			t.Fatalf("fmtTime(%v) = %q, want %q", tm, got, want)
		}
	}
}
