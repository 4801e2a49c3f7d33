package adjudicator

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestBoardsGuide keeps docs/boards.md and the shipped library together: the course file
// the page shows loads as written (it placed boards that are not shipped and had one start
// square for "players 2-4", so a reader who saved it got "players 2-4 but only 1 start
// squares"), and the tables of shipped boards and courses name every one the binary
// carries, and nothing else (assembly, docking-bay and docking-run were missing).
func TestBoardsGuide(t *testing.T) {
	b, err := os.ReadFile("../docs/boards.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)

	_, after, ok := strings.Cut(doc, "## A course file\n")
	if !ok {
		t.Fatal("docs/boards.md has no section \"A course file\"")
	}
	var lines []string
	for _, l := range strings.Split(after, "\n") {
		if len(lines) > 0 && !strings.HasPrefix(l, "    ") {
			break
		}
		if strings.HasPrefix(l, "    ") {
			lines = append(lines, strings.TrimPrefix(l, "    "))
		}
	}
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "course ") {
		t.Fatalf("the section's first indented block is not a course file: %q", lines)
	}
	c, err := ParseCourse("short-sprint.course", strings.Join(lines, "\n")+"\n", LoadBoard)
	if err != nil {
		t.Fatalf("the course file docs/boards.md shows does not load:\n%v", err)
	}
	if err := c.Check(); err != nil {
		t.Fatalf("the course file docs/boards.md shows fails the course check: %v", err)
	}

	row := regexp.MustCompile("(?m)^\\| `([a-z0-9-]+)` \\| ([0-9]+[×x][0-9]+|[0-9]+–[0-9]+) \\|")
	var boards, courses []string
	for _, m := range row.FindAllStringSubmatch(doc, -1) {
		if strings.ContainsAny(m[2], "×x") {
			boards = append(boards, m[1])
		} else {
			courses = append(courses, m[1])
		}
	}
	slices.Sort(boards)
	slices.Sort(courses)
	if want := Boards(); !slices.Equal(boards, want) {
		t.Errorf("docs/boards.md's table of shipped boards lists %v; the binary ships %v", boards, want)
	}
	if want := Courses(); !slices.Equal(courses, want) {
		t.Errorf("docs/boards.md's table of shipped courses lists %v; the binary ships %v", courses, want)
	}
}
