package picture

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// TestAnimationIsEncodeFrames: an Animation shows the pictures EncodeFrames shows, for
// everyone and for each reader's copy (FramesFor): decoded, every frame composited
// over the ones before is the frame drawn, with EncodeFrames' delays, disposal and loop,
// on turns of a few courses (8 robots on stampede, rings close together; the 2023 look on
// the docking run).
func TestAnimationIsEncodeFrames(t *testing.T) {
	for _, c := range []struct {
		course string
		robots int
		turn   int
	}{{"sprint", 4, 1}, {"sprint", 4, 3}, {"long-haul", 2, 2}, {"stampede", 8, 2}, {"stampede", 8, 5},
		{"docking-run", 4, 2}} {
		course, err := adjudicator.LoadCourse(c.course)
		if err != nil {
			t.Fatal(err)
		}
		d, err := DemoTurn(course, c.robots, 7, c.turn)
		if err != nil {
			t.Fatal(err)
		}
		opt := Options{Cell: 28, Turn: d.Turn}
		frames, _ := TurnStory(course, d.Before, d.Events, opt)
		a, err := EncodeAnimation(frames, opt)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("%s turn %d", c.course, c.turn)
		sameGIF(t, name, a.Bytes(), frames, opt)
		for _, r := range d.Before {
			got, err := a.For(r.Name)
			if err != nil {
				t.Fatal(err)
			}
			sameGIF(t, name+", "+r.Name+"'s copy", got, FramesFor(frames, r.Name), opt)
		}
	}
}

// sameGIF checks that got shows what EncodeFrames' GIF of frames shows: both decoded,
// the same delays, disposal, loop and colour table, and every frame composited over the
// ones before the same picture, the frame drawn.
func sameGIF(t *testing.T, name string, got []byte, frames []Frame, opt Options) {
	t.Helper()
	var want bytes.Buffer
	if err := EncodeFrames(&want, frames, opt); err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(bytes.NewReader(got))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	w, err := gif.DecodeAll(&want)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Image) != len(w.Image) || !slices.Equal(g.Delay, w.Delay) || !slices.Equal(g.Disposal, w.Disposal) ||
		g.LoopCount != w.LoopCount || g.Config.Width != w.Config.Width || g.Config.Height != w.Config.Height ||
		g.BackgroundIndex != w.BackgroundIndex {
		t.Fatalf("%s: %d frames, delays %v, disposal %v, loop %d; EncodeFrames: %d, %v, %v, %d",
			name, len(g.Image), g.Delay, g.Disposal, g.LoopCount, len(w.Image), w.Delay, w.Disposal, w.LoopCount)
	}
	if !samePalette(g.Config.ColorModel.(color.Palette), w.Config.ColorModel.(color.Palette)) {
		t.Fatalf("%s: not EncodeFrames' colour table", name)
	}
	screen := image.NewPaletted(frames[0].Image.Rect, frames[0].Image.Palette)
	old := image.NewPaletted(frames[0].Image.Rect, frames[0].Image.Palette)
	for k := range g.Image {
		overlay(screen, g.Image[k])
		overlay(old, w.Image[k])
		if !bytes.Equal(screen.Pix, old.Pix) || !bytes.Equal(screen.Pix, frames[k].Image.Pix) {
			t.Errorf("%s: frame %d as shown is not the frame EncodeFrames shows", name, k)
			return
		}
	}
}

// overlay draws frame f over screen (disposal none: what is transparent in f stays).
func overlay(screen, f *image.Paletted) {
	r := f.Rect
	for y := r.Min.Y; y < r.Max.Y; y++ {
		dst := screen.Pix[screen.PixOffset(r.Min.X, y):][:r.Dx()]
		for i, c := range f.Pix[f.PixOffset(r.Min.X, y):][:r.Dx()] {
			if c != cClear {
				dst[i] = c
			}
		}
	}
}

// BenchmarkReadersGIF: a turn's GIF and four readers' copies on sprint, encoded each
// on its own (EncodeFrames) and through an Animation; bytes is the shared GIF's,
// cpu-ms/op the process's CPU time.
func BenchmarkReadersGIF(b *testing.B) {
	course, err := adjudicator.LoadCourse("sprint")
	if err != nil {
		b.Fatal(err)
	}
	d, err := DemoTurn(course, 4, 7, 2)
	if err != nil {
		b.Fatal(err)
	}
	opt := Options{Cell: 28, Turn: d.Turn}
	frames, _ := TurnStory(course, d.Before, d.Events, opt)
	b.Run("EncodeFrames", func(b *testing.B) {
		size, c0 := 0, cpuTime()
		for b.Loop() {
			var w bytes.Buffer
			_ = EncodeFrames(&w, frames, opt)
			size = w.Len()
			for _, r := range d.Before {
				w.Reset()
				_ = EncodeFrames(&w, FramesFor(frames, r.Name), opt)
			}
		}
		b.ReportMetric(float64(size), "bytes")
		b.ReportMetric(float64((cpuTime()-c0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
	})
	b.Run("Animation", func(b *testing.B) {
		size, c0 := 0, cpuTime()
		for b.Loop() {
			a, _ := EncodeAnimation(frames, opt)
			size = len(a.Bytes())
			for _, r := range d.Before {
				_, _ = a.For(r.Name)
			}
		}
		b.ReportMetric(float64(size), "bytes")
		b.ReportMetric(float64((cpuTime()-c0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
	})
}

// TestCourseFrameFor: a reader's copy of the course (CourseFrame, Frame.For) is the
// picture Course draws for them (Options.You).
func TestCourseFrameFor(t *testing.T) {
	course, err := adjudicator.LoadCourse("sprint")
	if err != nil {
		t.Fatal(err)
	}
	d, err := DemoTurn(course, 4, 7, 2)
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Cell: 28, Caption: "after turn 2", Devices: d.After.Devices}
	f := CourseFrame(course, d.After.Robots, opt)
	for _, r := range d.After.Robots {
		o := opt
		o.You = r.Name
		if !bytes.Equal(f.For(r.Name).Image.Pix, Course(course, d.After.Robots, o).Pix) {
			t.Errorf("%s's copy of the course is not the course drawn for %s", r.Name, r.Name)
		}
	}
}

// TestAnimationForSideBySide: readers' copies asked for side by side (as the judge asks
// for its readers') are the bytes of copies asked for one after another.
func TestAnimationForSideBySide(t *testing.T) {
	c, err := adjudicator.LoadCourse("stampede")
	if err != nil {
		t.Fatal(err)
	}
	d, err := DemoTurn(c, 8, 7, 2)
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Turn: d.Turn}
	frames, _ := TurnStory(c, d.Before, d.Events, opt)
	a, err := EncodeAnimation(frames, opt)
	if err != nil {
		t.Fatal(err)
	}
	got := make([][]byte, len(d.Before))
	var wg sync.WaitGroup
	for i, r := range d.Before {
		wg.Go(func() { got[i], _ = a.For(r.Name) })
	}
	wg.Wait()
	for i, r := range d.Before {
		want, err := a.For(r.Name)
		if err != nil || !bytes.Equal(got[i], want) {
			t.Errorf("%s's copy asked for side by side is not the one asked for alone (%v)", r.Name, err)
		}
	}
}

// TestDeltaRowIsPixelByPixel: deltaRow, which compares 32 and 8 pixels at a time, gives
// what comparing a pixel at a time gives, on seeded random rows of every length up to
// 100 with none, one, two or many pixels changed.
func TestDeltaRowIsPixelByPixel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n <= 100; n++ {
		for trial := 0; trial < 40; trial++ {
			prev := make([]byte, n)
			for i := range prev {
				prev[i] = byte(rng.IntN(numColours - 1))
			}
			cur := bytes.Clone(prev)
			for k := trial % 4; k > 0 && n > 0; k-- {
				cur[rng.IntN(n)] = byte(rng.IntN(numColours - 1))
			}
			if trial%10 == 9 {
				for i := range cur {
					if rng.IntN(2) == 0 {
						cur[i] = byte(rng.IntN(numColours - 1))
					}
				}
			}
			want := make([]byte, n)
			for i := range want {
				want[i] = cClear
				if cur[i] != prev[i] {
					want[i] = cur[i]
				}
			}
			got := make([]byte, n)
			deltaRow(got, prev, cur)
			if !bytes.Equal(got, want) {
				t.Fatalf("%d pixels, trial %d: %v, want %v", n, trial, got, want)
			}
		}
	}
}

// TestFirstAndLastDiff: firstDiff and lastDiff, eight pixels at a time, find the first
// and last changed pixel of a row, as a pixel at a time does, on seeded random rows of
// every length up to 80 with one to three changed pixels.
func TestFirstAndLastDiff(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 1; n <= 80; n++ {
		for trial := 0; trial < 40; trial++ {
			a := make([]byte, n)
			for i := range a {
				a[i] = byte(rng.IntN(numColours))
			}
			b := bytes.Clone(a)
			for k := 1 + trial%3; k > 0; k-- {
				i := rng.IntN(n)
				b[i] = a[i] + 1 + byte(rng.IntN(5))
			}
			lo, hi := 0, n-1
			for a[lo] == b[lo] {
				lo++
			}
			for a[hi] == b[hi] {
				hi--
			}
			if got := firstDiff(a, b); got != lo {
				t.Fatalf("%d pixels, trial %d: firstDiff %d, want %d", n, trial, got, lo)
			}
			if got := lastDiff(a, b); got != hi {
				t.Fatalf("%d pixels, trial %d: lastDiff %d, want %d", n, trial, got, hi)
			}
		}
	}
}
