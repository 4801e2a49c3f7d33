package picture

import "testing"

// TestSpares: a spare put back is got again; no more than the capacity are kept, and
// putting one more neither blocks nor keeps it; with none kept, get makes one.
func TestSpares(t *testing.T) {
	made := 0
	s := newSpares(2, func() *int { made++; return new(int) })
	a, b, c := s.get(), s.get(), s.get()
	if made != 3 {
		t.Fatalf("%d made for 3 gets from empty spares", made)
	}
	s.put(a)
	s.put(b)
	s.put(c) // full: dropped
	got := map[*int]bool{s.get(): true, s.get(): true}
	if !got[a] || !got[b] || made != 3 {
		t.Errorf("the two kept were not given back (%d made)", made)
	}
	if s.get(); made != 4 {
		t.Errorf("the third put was kept: %d made", made)
	}
}
