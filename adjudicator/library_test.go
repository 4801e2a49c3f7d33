package adjudicator

import "testing"

func TestShippedLoad(t *testing.T) {
	for _, n := range Boards() {
		if _, err := LoadBoard(n); err != nil {
			t.Errorf("%s: %v", n, err)
		}
	}
	for _, n := range Courses() {
		if _, err := LoadCourse(n); err != nil {
			t.Errorf("%s: %v", n, err)
		}
	}
}
