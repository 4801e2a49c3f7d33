// Package parallel runs independent pieces of work on every processor, for the
// pictures of a turn (judge) and the frames of an animation (picture).
package parallel

import (
	"runtime"
	"sync"
)

// Do runs f(0) … f(n-1), as many at once as there are processors. A panic in f
// is raised again in the caller, once the others are done.
func Do(n int, f func(i int)) {
	workers := min(n, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	var mu sync.Mutex
	var panicked any
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					mu.Lock()
					if panicked == nil {
						panicked = r
					}
					mu.Unlock()
					for range next { // the others take the rest
					}
				}
			}()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	if panicked != nil {
		panic(panicked)
	}
}
