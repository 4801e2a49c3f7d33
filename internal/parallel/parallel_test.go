package parallel

import (
	"sync"
	"testing"
)

// TestDoRunsEach: every index is run once, whatever the number of processors.
func TestDoRunsEach(t *testing.T) {
	for _, n := range []int{0, 1, 2, 9, 100} {
		var mu sync.Mutex
		seen := make(map[int]int)
		Do(n, func(i int) {
			mu.Lock()
			seen[i]++
			mu.Unlock()
		})
		if len(seen) != n {
			t.Errorf("%d calls: %d indexes ran", n, len(seen))
		}
		for i, c := range seen {
			if c != 1 || i < 0 || i >= n {
				t.Errorf("%d calls: index %d ran %d times", n, i, c)
			}
		}
	}
}

// TestDoRaisesAPanic: a panic in one of the calls comes back to the caller (the judge
// turns it into reports without pictures), after the other calls ran.
func TestDoRaisesAPanic(t *testing.T) {
	for _, n := range []int{1, 2, 9} {
		var mu sync.Mutex
		ran := 0
		got := func() (r any) {
			defer func() { r = recover() }()
			Do(n, func(i int) {
				mu.Lock()
				ran++
				mu.Unlock()
				if i == n-1 {
					panic("drawing failed")
				}
			})
			return nil
		}()
		if got != "drawing failed" {
			t.Errorf("%d calls: recovered %v, want the panic", n, got)
		}
		if ran == 0 {
			t.Errorf("%d calls: none ran", n)
		}
	}
}
