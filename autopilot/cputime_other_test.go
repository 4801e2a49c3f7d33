//go:build !unix

package autopilot_test

import "time"

// cpuTime is not measured here: the benchmarks report 0 CPU ms a choice.
func cpuTime() time.Duration { return 0 }
