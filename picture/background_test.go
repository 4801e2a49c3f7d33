package picture

import (
	"bytes"
	"slices"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// TestBackgroundCache: a course's background kept from an earlier picture gives the
// picture drawn without it; a course read again (another address) uses it; a course
// edited under the same name is drawn again, not taken from the cache; the cache keeps
// at most backgroundsKept.
func TestBackgroundCache(t *testing.T) {
	backgrounds = backgroundCache{}
	c := loadCourse(t, "sprint")
	d, err := DemoTurn(c, 4, 7, 2)
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Caption: "after"}
	fresh := CourseFrame(c, d.After.Robots, opt).Image
	if len(backgrounds.kept) != 1 {
		t.Fatalf("%d backgrounds kept after one picture", len(backgrounds.kept))
	}
	kept := backgrounds.kept[0].img
	again := loadCourse(t, "sprint") // read again: the same course elsewhere
	if got := CourseFrame(again, d.After.Robots, opt).Image; !bytes.Equal(got.Pix, fresh.Pix) {
		t.Error("the picture from the kept background differs")
	}
	if len(backgrounds.kept) != 1 || backgrounds.kept[0].img != kept {
		t.Errorf("the course read again was drawn again (%d kept)", len(backgrounds.kept))
	}

	// An edited course of the same name: a pit where the floor was.
	edited := loadCourse(t, "sprint")
	edited.Board = &adjudicator.Board{W: c.Board.W, H: c.Board.H, Squares: slices.Clone(c.Board.Squares)}
	edited.Board.At(adjudicator.Pos{X: 0, Y: 0}).Floor = adjudicator.FloorPit
	got := CourseFrame(edited, d.After.Robots, opt).Image
	backgrounds = backgroundCache{}
	want := CourseFrame(edited, d.After.Robots, opt).Image
	if !bytes.Equal(got.Pix, want.Pix) || bytes.Equal(got.Pix, fresh.Pix) {
		t.Error("the edited course was drawn from the unedited one's background")
	}

	for cell := 16; cell < 16+backgroundsKept+5; cell++ {
		Course(c, nil, Options{Cell: cell})
	}
	if len(backgrounds.kept) != backgroundsKept {
		t.Errorf("%d backgrounds kept, want at most %d", len(backgrounds.kept), backgroundsKept)
	}
}
