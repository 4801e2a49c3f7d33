package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/rallyjudge/rallyjudge/judge"
)

// crashHookEnv is a TEST HOOK, never for production: RALLYJUDGE_TEST_CRASH_AT=POINT[@N]
// makes `rallyjudge serve` kill itself (SIGKILL, as kill -9 would) the N-th time (default
// the first) it reaches the named point, one of judge.CrashPoints. judge/crash_test.go
// uses it to crash the daemon exactly where a half-finished step is left behind.
const crashHookEnv = "RALLYJUDGE_TEST_CRASH_AT"

// crashHook reads crashHookEnv; nil when it is unset.
func crashHook(getenv func(string) string, log io.Writer) (func(point string) bool, error) {
	v := getenv(crashHookEnv)
	if v == "" {
		return nil, nil
	}
	point, nth := v, 1
	if i := strings.LastIndexByte(v, '@'); i >= 0 {
		n, err := strconv.Atoi(v[i+1:])
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%s=%q: want POINT or POINT@N with N ≥ 1", crashHookEnv, v)
		}
		point, nth = v[:i], n
	}
	if !slices.Contains(judge.CrashPoints, point) {
		return nil, fmt.Errorf("%s=%q: unknown point (want one of %s)", crashHookEnv, v, strings.Join(judge.CrashPoints, ", "))
	}
	fmt.Fprintf(log, "rallyjudge: TEST HOOK %s=%s is set: the daemon will kill itself there\n", crashHookEnv, v)
	var mu sync.Mutex
	seen := 0
	return func(p string) bool {
		if p != point {
			return false
		}
		mu.Lock()
		seen++
		hit := seen == nth
		mu.Unlock()
		if hit {
			fmt.Fprintf(log, "rallyjudge: TEST HOOK: killed at %s\n", p)
			if proc, err := os.FindProcess(os.Getpid()); err == nil {
				_ = proc.Kill() // SIGKILL: nothing deferred runs, as in a real crash
			}
			select {} // the signal is on its way
		}
		return false
	}, nil
}
