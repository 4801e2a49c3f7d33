//go:build unix

package autopilot_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used, every thread counted: a benchmark's
// work per choice, which a machine shared with other jobs does not inflate as it does
// the wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
