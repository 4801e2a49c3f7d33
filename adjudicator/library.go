package adjudicator

import (
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"strings"
)

// The shipped boards and courses (docs/boards.md lists them). They are data, embedded
// and parsed on every call: nothing is cached in package state, so a caller that
// loads a board twice gets two boards it may change freely.

//go:embed data/boards/*.board data/courses/*.course
var library embed.FS

// Boards lists the names of the shipped boards, sorted.
func Boards() []string { return libraryNames("data/boards", ".board") }

// Courses lists the names of the shipped courses, sorted.
func Courses() []string { return libraryNames("data/courses", ".course") }

func libraryNames(dir, ext string) []string {
	entries, err := fs.ReadDir(library, dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ext); ok && !e.IsDir() {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// LoadBoard parses the shipped board with this name.
func LoadBoard(name string) (*BoardFile, error) {
	text, err := libraryFile("data/boards", name, ".board")
	if err != nil {
		return nil, err
	}
	return ParseBoard("boards/"+name+".board", text)
}

// LoadCourse parses the shipped course with this name, and the shipped boards it places.
func LoadCourse(name string) (*Course, error) {
	text, err := libraryFile("data/courses", name, ".course")
	if err != nil {
		return nil, err
	}
	return ParseCourse("courses/"+name+".course", text, LoadBoard)
}

func libraryFile(dir, name, ext string) (string, error) {
	kind := strings.TrimPrefix(ext, ".")
	if checkName(name) != "" || strings.Contains(name, "..") {
		return "", fmt.Errorf("no shipped %s %q", kind, clip(name))
	}
	b, err := library.ReadFile(dir + "/" + name + ext)
	if err != nil {
		return "", fmt.Errorf("no shipped %s %q (have %s)", kind, name, strings.Join(libraryNames(dir, ext), ", "))
	}
	return string(b), nil
}
