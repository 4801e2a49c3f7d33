package adjudicator

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// update rewrites the golden files under testdata/golden: go test ./adjudicator -update
var update = flag.Bool("update", false, "rewrite golden files under testdata/golden")

// golden compares got with testdata/golden/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it):\n%s", path, got)
	}
}

func TestRenderShipped(t *testing.T) {
	for _, n := range Courses() {
		c, err := LoadCourse(n)
		if err != nil {
			t.Fatal(err)
		}
		out := RenderText(c, nil)
		checkASCII(t, n, out)
		golden(t, "board-course-"+n+".txt", out)
	}
	for _, n := range Boards() {
		bf, err := LoadBoard(n)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, "board-"+n+".txt", RenderText(bf.Course(), nil))
	}
}

func TestRenderRobots(t *testing.T) {
	c, err := LoadCourse("sprint")
	if err != nil {
		t.Fatal(err)
	}
	robots := []Robot{
		{Name: "alice", Pos: Pos{9, 3}, Facing: East, Lives: 3, Flags: 0},         // on flag 1
		{Name: "bob", Pos: Pos{2, 4}, Facing: South, Lives: 3, Damage: 2},         // on the express belt
		{Name: "carol", Pos: Pos{5, 14}, Facing: North, Lives: 3, Virtual: true},  // virtual, on start 1
		{Name: "dave", Pos: Pos{5, 14}, Facing: West, Lives: 2, Virtual: true},    // sharing it
		{Name: "erin", Pos: Pos{0, 0}, Lives: 1, Destroyed: true},                 // not drawn
		{Name: "frank", Pos: Pos{1, 4}, Facing: West, Lives: 3, Power: PowerDown}, // on a wrench
	}
	out := RenderText(c, robots) + "\n" + RenderLegend(robots...)
	checkASCII(t, "robots", out)
	for _, want := range []string{
		" 3 : .   .   vv  .   .   ^ | -   -   -  A>1  -  L<2|",
		"vv",
		"Bvv", // bob facing south on a south express belt
		"cd ", // carol and dave share start 1
		"F<w", // frank on the wrench
		"  E  erin         not on the board, 0 damage, 1 lives, 0 flags (destroyed)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("render lacks %q", want)
		}
	}
	if strings.Contains(RenderText(c, robots), "E") {
		t.Error("the destroyed robot is drawn")
	}
	golden(t, "board-robots.txt", out)
}

func TestRenderWalls(t *testing.T) {
	bf, err := ParseBoard("w", "board w 2x2\n.|N .|E\nX lN1|S\n")
	if err != nil {
		t.Fatal(err)
	}
	got := RenderText(bf.Course(), nil)
	// The laser's beam (:) crosses the square north of it; the wall under it is the
	// board's south edge, the one north of 0,0 its north edge.
	want := `w: 2x2, 0 flags, 0 start squares
     0   1
   +---+ . +
 0 : .   : |
   .       +
 1 :XXX L^1:
   . . +---+
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func checkASCII(t *testing.T, name, s string) {
	t.Helper()
	for i, r := range s {
		if r > '~' || (r < ' ' && r != '\n') {
			t.Errorf("%s: byte %d is %q, not printable ASCII", name, i, r)
			return
		}
	}
}

// The legend of a 2023 game names the 2023 elements (batteries, reboot tokens, green and
// blue belts, push panels, the docking bay) and each robot's energy, checkpoints,
// upgrades and damage cards held.
func TestRenderLegend2023(t *testing.T) {
	c, err := LoadCourse("docking-run")
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSetup(c, Rules2023(), 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := NewGame(s, []string{"Twonky", "Zoombot"})
	if err != nil {
		t.Fatal(err)
	}
	st.Robots[0].Options = []string{"Zoop", "Brakes"}
	st.Robots[0].Mat.Energy = 7
	st.Robots[0].Hand = append(st.Robots[0].Hand, int(CardSpam))
	st.Robots[1].Destroyed = true
	out := RenderText(s.Course, st.Robots) + "\n" + RenderCourseLegend(s.Course, st.Robots...)
	golden(t, "board-docking-run-2023.txt", out)
	for _, want := range []string{"R>b  reboot token", "(+)  battery", "green belt", "blue belt", "push panel",
		"docking bay (start board) is squares 0,12 to 11,15", "energy 7", "upgrades Zoop, Brakes", "damage cards held: 1", "rebooting"} {
		if !strings.Contains(out, want) {
			t.Errorf("the 2023 legend lacks %q", want)
		}
	}
	// Without robots: the course's legend still explains its 2023 glyphs; a postal
	// course's does not change.
	if !strings.Contains(RenderCourseLegend(c), "R>b  reboot token") {
		t.Error("docking-run's course legend lacks the 2023 glyphs")
	}
	sprint, err := LoadCourse("sprint")
	if err != nil {
		t.Fatal(err)
	}
	// One legend, of only what the course has (issue 22: the postal legend, then the
	// 2023 one): sprint has no crushers or reboot tokens; docking-run no wrenches.
	if l := RenderCourseLegend(sprint); strings.Contains(l, "2023") || strings.Contains(l, "reboot") || !strings.Contains(l, "flag 1") || strings.Count(l, "Legend") != 1 {
		t.Errorf("sprint's legend:\n%s", l)
	}
	l := RenderCourseLegend(c)
	for _, not := range []string{"wrench", "falling off destroys", "flag 1", "2023 rules (seed 004):"} {
		if strings.Contains(l, not) {
			t.Errorf("docking-run's legend says %q:\n%s", not, l)
		}
	}
	if strings.Count(l, "Legend") != 1 || strings.Count(l, "open board edge") != 1 {
		t.Errorf("docking-run's legend is not one legend:\n%s", l)
	}
}
