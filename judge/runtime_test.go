package judge

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestServeRuntime: serving sets the collector's percent and soft limit unless the
// environment sets them, and restore puts back what was there.
func TestServeRuntime(t *testing.T) {
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	beforeLimit := debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetMemoryLimit(beforeLimit)
	for _, c := range []struct {
		name  string
		env   map[string]string
		pct   int
		limit int64
	}{
		{"defaults", nil, serveGCPercent, serveMemoryLimit},
		{"GOGC set", map[string]string{"GOGC": "150"}, 100, serveMemoryLimit},
		{"GOMEMLIMIT set", map[string]string{"GOMEMLIMIT": "2GiB"}, serveGCPercent, math.MaxInt64},
	} {
		t.Run(c.name, func(t *testing.T) {
			restore := ServeRuntime(func(k string) string { return c.env[k] })
			pct, limit := debug.SetGCPercent(-1), debug.SetMemoryLimit(-1)
			debug.SetGCPercent(pct)
			if pct != c.pct || limit != c.limit {
				t.Errorf("GOGC %d, limit %d; want %d, %d", pct, limit, c.pct, c.limit)
			}
			restore()
			if pct, limit := debug.SetGCPercent(-1), debug.SetMemoryLimit(-1); pct != 100 || limit != math.MaxInt64 {
				debug.SetGCPercent(pct)
				t.Errorf("after restore GOGC %d, limit %d; want 100, no limit", pct, limit)
			} else {
				debug.SetGCPercent(pct)
			}
		})
	}
}
