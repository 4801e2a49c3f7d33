package roborally

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/roborally/rja"
)

// TestArchiveNamesItsKind: an .rja archive says it records the game Kind is, so the
// judge finds the Kind that imports it.
func TestArchiveNamesItsKind(t *testing.T) {
	if got, want := (&rja.Archive{}).Kind(), (Kind{}).Name(); got != want {
		t.Fatalf("an .rja archive names game %q, the Kind is %q", got, want)
	}
}

// TestArchiveThroughTheSeam: an .rja file read through the Kind (game.Archiver) is
// written back to the same bytes and replays; imported from turn 1 it is the game as
// the judge stores it behind the seam (the settings load, the last position loads);
// a course that is not the judge's of that name is refused, and so is an archive that
// is not an .rja.
func TestArchiveThroughTheSeam(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("rja", "testdata", "sprint-3.rja"))
	if err != nil {
		t.Fatal(err)
	}
	k := Kind{}
	if !strings.HasPrefix(string(raw), k.ArchiveMagic()+" ") {
		t.Fatalf("the golden archive does not open with %q", k.ArchiveMagic())
	}
	a, err := k.ReadArchive(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := a.Write(&out); err != nil || !bytes.Equal(out.Bytes(), raw) {
		t.Fatalf("read and written again through the seam, the archive differs (%v)", err)
	}
	if err := a.Replay(-1, nil); err != nil {
		t.Fatal(err)
	}
	got, err := k.Import(a, game.ImportAs{Tag: "fork", From: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Turns) != 2 || len(got.Seats) != len(a.(*rja.Archive).Robots) {
		t.Fatalf("imported %d turns and %d seats", len(got.Turns), len(got.Seats))
	}
	cfg, err := k.LoadConfig(got.Config)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k.Load(cfg, got.Turns[1].After); err != nil {
		t.Fatalf("the imported position: %v", err)
	}
	other := Kind{Course: func(string) (*adjudicator.Course, error) { return adjudicator.LoadCourse("long-haul") }}
	if _, err := other.Import(a, game.ImportAs{Tag: "fork", From: 1}); err == nil || !strings.Contains(err.Error(), "differs from the judge's") {
		t.Errorf("another course of the same name imported: %v", err)
	}
	if _, err := k.Import(a, game.ImportAs{Tag: "fork", From: 9}); err == nil || !strings.Contains(err.Error(), "ends at turn") {
		t.Errorf("a turn past the end imported: %v", err)
	}
	if _, err := k.Import(notRJA{a}, game.ImportAs{Tag: "fork", From: 1}); err == nil {
		t.Error("an archive that is not an .rja imported")
	}
}

type notRJA struct{ game.Archive }
