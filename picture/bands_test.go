package picture

import (
	"bytes"
	"image"
	"slices"
	"testing"
)

// TestRingRowsHoldTheRing: a reader's ring (ringYou) changes only pixels inside the
// boxes ringBoxes gives for that reader (those a kept ring is drawn from: you.go), in
// rows that ringRows gives for that reader and for any reader (the bands a reader's
// copy may encode again: bands.go), on every frame and register picture of turns with
// 4 and 8 robots.
func TestRingRowsHoldTheRing(t *testing.T) {
	for _, tc := range []struct {
		course string
		robots int
	}{{"sprint", 4}, {"stampede", 8}, {"docking-run", 4}} {
		c := loadCourse(t, tc.course)
		d, err := DemoTurn(c, tc.robots, 7, 3)
		if err != nil {
			t.Fatal(err)
		}
		frames, regs := TurnStory(c, d.Before, d.Events, Options{Turn: d.Turn})
		for _, r := range regs {
			frames = append(frames, r.Frame)
		}
		frames = append(frames, CourseFrame(c, d.After.Robots, Options{}))
		rung := 0
		for k, f := range frames {
			h, w := f.Image.Rect.Dy(), f.Image.Stride
			for _, r := range d.Before {
				mine, any := ringRows(f.you, r.Name), ringRows(f.you, "")
				boxes := ringBoxes(f.you, r.Name)
				m := f.For(r.Name)
				for y := range h {
					if bytes.Equal(m.Image.Pix[y*w:][:w], f.Image.Pix[y*w:][:w]) {
						continue
					}
					rung++
					if !touches(mine, y, y+1) || !touches(any, y, y+1) {
						t.Fatalf("%s, picture %d: %s's ring changed row %d, outside %v", tc.course, k, r.Name, y, mine)
					}
					for x := range w {
						if m.Image.Pix[y*w+x] != f.Image.Pix[y*w+x] &&
							!slices.ContainsFunc(boxes, func(b image.Rectangle) bool { return image.Pt(x, y).In(b) }) {
							t.Fatalf("%s, picture %d: %s's ring changed pixel %d,%d, outside %v", tc.course, k, r.Name, x, y, boxes)
						}
					}
				}
			}
		}
		if rung == 0 {
			t.Errorf("%s: no ring was drawn", tc.course)
		}
	}
}

// TestBandCuts: cuts at the edges of runs of spans inside the rows, in order, once
// each; spans that overlap or come within bandGap rows joined.
func TestBandCuts(t *testing.T) {
	g := bandGap
	a := 30 + g + 1 // more than bandGap rows after the first span: a band of its own
	b := a + 20 + g // bandGap rows after the second: joined to it
	got := bandCuts(10, 1000, []rowSpan{{5, 30}, {a, a + 10}, {a + 5, a + 20}, {b, b + 7}, {a + 1, a + 2}, {990, 1200}}, bandGap)
	want := []int{10, 30, a, b + 7, 990, 1000}
	if !slices.Equal(got, want) {
		t.Errorf("bandCuts = %v, want %v", got, want)
	}
	got = bandCuts(10, 100, []rowSpan{{5, 30}, {20, 40}, {50, 60}, {90, 120}}, -1)
	if want := []int{10, 20, 30, 40, 50, 60, 90, 100}; !slices.Equal(got, want) {
		t.Errorf("bandCuts at every edge = %v, want %v", got, want)
	}
}
