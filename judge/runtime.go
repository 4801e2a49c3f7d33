package judge

import "runtime/debug"

// The collector's settings while the judge serves (ServeRuntime). The judge's heap is
// small — 1,000 running games fit in 34–39 MB — while intake allocates some 40 KB a mail,
// so at Go's default (GOGC=100) a backlog had the collector run every few dozen mails:
// BenchmarkHandleBatch took 208–274 CPU-µs a mail at 100 and 158–212 at 400 (issue 24
// item 7). The soft limit keeps a large community's judge (10,000 games, some 350 MB
// live) from growing to five times its heap; it is far enough above that heap that the
// collector never runs back to back to stay under it.
const (
	serveGCPercent   = 400
	serveMemoryLimit = 1 << 30
)

// ServeRuntime sets the collector for serving: GOGC 400 and a soft memory limit of
// 1 GiB, each unless the environment (getenv) sets it (GOGC, GOMEMLIMIT), as Go's own
// settings take precedence. restore puts back what it changed.
func ServeRuntime(getenv func(string) string) (restore func()) {
	pct, limit := -1, int64(-1)
	if getenv("GOGC") == "" {
		pct = debug.SetGCPercent(serveGCPercent)
	}
	if getenv("GOMEMLIMIT") == "" {
		limit = debug.SetMemoryLimit(serveMemoryLimit)
	}
	return func() {
		if pct != -1 {
			debug.SetGCPercent(pct)
		}
		if limit != -1 {
			debug.SetMemoryLimit(limit)
		}
	}
}
