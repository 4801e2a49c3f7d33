package templates

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

var update = flag.Bool("update", false, "rewrite golden files")

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from golden file:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// smallGame is a 6×6 floor: an east belt along row 2 ending in a pit, a laser, a flag.
func smallGame(t *testing.T) (*adjudicator.Setup, *adjudicator.State) {
	t.Helper()
	b := adjudicator.NewBoard(6, 6)
	for x := 0; x < 5; x++ {
		b.At(adjudicator.Pos{X: x, Y: 2}).Belt = adjudicator.Belt{Kind: adjudicator.BeltNormal, Dir: adjudicator.East}
	}
	b.At(adjudicator.Pos{X: 5, Y: 2}).Floor = adjudicator.FloorPit
	b.At(adjudicator.Pos{X: 0, Y: 4}).Laser = adjudicator.Laser{Dir: adjudicator.East, Beams: 1}
	c := &adjudicator.Course{
		Name: "tiny", Board: b, Boards: 1,
		Flags:  []adjudicator.Pos{{X: 3, Y: 0}, {X: 0, Y: 0}},
		Starts: []adjudicator.Start{{Pos: adjudicator.Pos{X: 2, Y: 5}, Facing: adjudicator.North}},
	}
	s, err := adjudicator.NewSetup(c, adjudicator.PostalRules(), 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := adjudicator.NewGame(s, []string{"Zoom", "Twonky"})
	if err != nil {
		t.Fatal(err)
	}
	return s, st
}

func TestReportGolden(t *testing.T) {
	s, st := smallGame(t)
	orders := make([]adjudicator.Orders, len(st.Robots))
	for i, r := range st.Robots {
		copy(orders[i].Program[:], r.Hand[:5])
	}
	next, events, err := adjudicator.Resolve(s, st, orders)
	if err != nil {
		t.Fatal(err)
	}
	set, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	hand, locked := HandOf(s.Deck, next.Robots[0])
	rep := Report{
		Game: "test-game", Course: "tiny", Turn: 1, NextTurn: 2, Player: "Zoom",
		Board: "(board)", Legend: "(legend)", Sections: Narrate(s.Deck, events),
		Robots: StatusOf(s.Deck, next), Deadline: "Mon 2 Mar 2026 18:00 UTC",
		Hand: hand, Locked: locked, Standing: []string{"if damage > 3 then power down"},
		Sheet: SheetFor("test-game", next.Robots[0], 2, nil),
	}
	out, err := set.Text("report.txt.tmpl", rep)
	if err != nil {
		t.Fatal(err)
	}
	// The report shows Zoom's hand and never Twonky's.
	for _, p := range next.Robots[1].Hand {
		if strings.Contains(out, "P"+strconv.Itoa(p)+" ") && !contains(next.Robots[0].Hand, p) {
			t.Errorf("Zoom's report shows Twonky's card P%d", p)
		}
	}
	golden(t, "report.txt", out)
}

func TestTemplatesOverride(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "rejected.txt.tmpl"), []byte("custom: {{.Summary}}"), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	out, err := set.Text("rejected.txt.tmpl", Rejected{Summary: "no"})
	if err != nil || out != "custom: no" {
		t.Fatalf("override not used: %q, %v", out, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ack.txt.tmpl"), []byte("{{.Broken"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "ack.txt.tmpl") {
		t.Fatalf("a broken override must name its file, got %v", err)
	}
}

func TestNarrateMoveLine(t *testing.T) {
	deck := adjudicator.StandardDeck()
	from, mid, to := adjudicator.Pos{X: 1, Y: 1}, adjudicator.Pos{X: 1, Y: 2}, adjudicator.Pos{X: 1, Y: 3}
	push := adjudicator.Pos{X: 1, Y: 4}
	ev := []adjudicator.Event{
		{Register: 1, Phase: "move", Kind: adjudicator.EvCard, Robot: "Zoom", Card: 790},
		{Register: 1, Phase: "move", Kind: adjudicator.EvMove, Robot: "Zoom", From: &from, To: &mid},
		{Register: 1, Phase: "move", Kind: adjudicator.EvPush, Robot: "Twonky", Other: "Zoom", From: &to, To: &push},
		{Register: 1, Phase: "move", Kind: adjudicator.EvDestroyed, Robot: "Twonky", Cause: "pit"},
		{Register: 1, Phase: "move", Kind: adjudicator.EvMove, Robot: "Zoom", From: &mid, To: &to},
	}
	got := Narrate(deck, ev)
	want := "P790 Zoom plays Move 3; moves 1 to 1,2; pushes Twonky to 1,4; Twonky is destroyed (fell into a pit); moves 1 to 1,3"
	if len(got) != 1 || len(got[0].Lines) != 1 || got[0].Lines[0] != want {
		t.Fatalf("narration:\n got %+v\nwant %q", got, want)
	}
}

func contains(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}
