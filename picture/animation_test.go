package picture

import (
	"bytes"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// TestAnimationIsEncodeFrames: an Animation writes the bytes EncodeFrames writes, for
// everyone and for each reader's copy (FramesFor), on a few turns of a few courses.
func TestAnimationIsEncodeFrames(t *testing.T) {
	for _, c := range []struct {
		course string
		robots int
		turn   int
	}{{"sprint", 4, 1}, {"sprint", 4, 3}, {"long-haul", 2, 2}} {
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
		var want bytes.Buffer
		if err := EncodeFrames(&want, frames, opt); err != nil {
			t.Fatal(err)
		}
		a, err := EncodeAnimation(frames, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), want.Bytes()) {
			t.Errorf("%s turn %d: the animation's %d bytes are not EncodeFrames' %d", c.course, c.turn, len(a.Bytes()), want.Len())
		}
		for _, r := range d.Before {
			want.Reset()
			if err := EncodeFrames(&want, FramesFor(frames, r.Name), opt); err != nil {
				t.Fatal(err)
			}
			got, err := a.For(r.Name)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want.Bytes()) {
				t.Errorf("%s turn %d, %s's copy: %d bytes, EncodeFrames wrote %d", c.course, c.turn, r.Name, len(got), want.Len())
			}
		}
	}
}

// BenchmarkReadersGIF: a turn's GIF and four readers' copies on sprint, encoded each
// on its own (EncodeFrames) and through an Animation.
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
		for range b.N {
			var w bytes.Buffer
			_ = EncodeFrames(&w, frames, opt)
			for _, r := range d.Before {
				w.Reset()
				_ = EncodeFrames(&w, FramesFor(frames, r.Name), opt)
			}
		}
	})
	b.Run("Animation", func(b *testing.B) {
		for range b.N {
			a, _ := EncodeAnimation(frames, opt)
			_ = a.Bytes()
			for _, r := range d.Before {
				_, _ = a.For(r.Name)
			}
		}
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
