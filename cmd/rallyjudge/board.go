package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/internal/near"
)

const boardUsage = `usage: rallyjudge board show NAME|FILE   draw a shipped board or course, or a .board/.course file
       rallyjudge board list             list the shipped boards and courses`

// maxBoardFile is the largest board or course file read (the parser's own limit).
const maxBoardFile = 1 << 20

// cmdBoard prints boards and courses as text (docs/boards.md). Exit status: 0 ok, 1 a
// file that does not parse (its errors are printed), 2 usage.
func cmdBoard(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, boardUsage)
		return 2
	}
	switch {
	case isHelp(args[0]):
		fmt.Fprintln(stderr, boardUsage)
		fmt.Fprintln(stderr, "\nNAME is a shipped board or course (board list names them); FILE a .board or .course\nfile (docs/boards.md). It takes no flags.")
		return 2
	case args[0] == "list" && len(args) == 1:
		return boardList(stdout, stderr)
	case args[0] == "show" && len(args) == 2:
		return boardShow(args[1], stdout, stderr)
	case args[0] == "show":
		fmt.Fprintf(stderr, "rallyjudge board show: want one board or course, got %d\n", len(args)-1)
	case args[0] == "list":
		fmt.Fprintln(stderr, "rallyjudge board list: takes no arguments")
	default:
		fmt.Fprintf(stderr, "rallyjudge board: unknown operation %q (show or list)\n", args[0])
	}
	fmt.Fprintln(stderr, boardUsage)
	return 2
}

func boardList(stdout, stderr io.Writer) int {
	status := 0
	fmt.Fprintln(stdout, "boards:")
	for _, n := range adjudicator.Boards() {
		bf, err := adjudicator.LoadBoard(n)
		if err != nil {
			fmt.Fprintln(stderr, err)
			status = 1
			continue
		}
		what := "factory board"
		if len(bf.Starts) > 0 {
			what = fmt.Sprintf("start board, %d start squares", len(bf.Starts))
		}
		fmt.Fprintf(stdout, "  %-12s %dx%d %s\n", n, bf.Board.W, bf.Board.H, what)
	}
	fmt.Fprintln(stdout, "courses:")
	for _, n := range adjudicator.Courses() {
		c, err := adjudicator.LoadCourse(n)
		if err != nil {
			fmt.Fprintln(stderr, err)
			status = 1
			continue
		}
		var parts []string
		for _, p := range c.Parts {
			parts = append(parts, p.Board)
		}
		fmt.Fprintf(stdout, "  %-12s %d-%d players, %d flags, %dx%d (%s)\n", n, c.MinPlayers, c.MaxPlayers,
			len(c.Flags), c.Board.W, c.Board.H, strings.Join(parts, ", "))
	}
	return status
}

func boardShow(arg string, stdout, stderr io.Writer) int {
	var c *adjudicator.Course
	var err error
	if isPath(arg) {
		c, err = loadFile(arg)
	} else {
		c, err = loadShipped(arg)
		if errors.Is(err, errUnknownName) {
			fmt.Fprintln(stderr, err)
			fmt.Fprintln(stderr, boardUsage)
			return 2
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	fmt.Fprintln(stdout, adjudicator.RenderText(c, nil))
	fmt.Fprint(stdout, adjudicator.RenderCourseLegend(c))
	return 0
}

var errUnknownName = errors.New("not a shipped board or course")

// isPath reports whether arg names a file rather than a shipped board or course.
func isPath(arg string) bool {
	if strings.ContainsRune(arg, os.PathSeparator) || strings.Contains(arg, "/") ||
		strings.HasSuffix(arg, ".board") || strings.HasSuffix(arg, ".course") {
		return true
	}
	_, err := os.Stat(arg)
	return err == nil
}

// loadShipped finds a shipped course by name, else a shipped board.
func loadShipped(name string) (*adjudicator.Course, error) {
	for _, n := range adjudicator.Courses() {
		if n == name {
			return adjudicator.LoadCourse(name)
		}
	}
	for _, n := range adjudicator.Boards() {
		if n == name {
			bf, err := adjudicator.LoadBoard(name)
			if err != nil {
				return nil, err
			}
			return bf.Course(), nil
		}
	}
	hint := near.Hint(name, append(adjudicator.Courses(), adjudicator.Boards()...), "")
	if strings.HasPrefix(hint, "did you mean") {
		return nil, fmt.Errorf("%q: %w; %s (boards: %s; courses: %s)", name, errUnknownName, hint,
			strings.Join(adjudicator.Boards(), ", "), strings.Join(adjudicator.Courses(), ", "))
	}
	return nil, fmt.Errorf("%q: %w (boards: %s; courses: %s)", name, errUnknownName,
		strings.Join(adjudicator.Boards(), ", "), strings.Join(adjudicator.Courses(), ", "))
}

// loadFile reads a .board or .course file (another name: whichever its first word says)
// as a course; a lone board becomes a one-board course.
func loadFile(path string) (*adjudicator.Course, error) {
	text, err := readLimited(path)
	if err != nil {
		return nil, err
	}
	if strings.HasSuffix(path, ".course") || !strings.HasSuffix(path, ".board") && firstWord(text) == "course" {
		return adjudicator.ParseCourse(path, text, courseBoards(filepath.Dir(path)))
	}
	bf, err := adjudicator.ParseBoard(path, text)
	if err != nil {
		return nil, err
	}
	return bf.Course(), nil
}

// loadCourseFile loads a course by shipped name or from a .course file whose place
// lines name .board files beside it or shipped boards.
func loadCourseFile(pathOrName string) (*adjudicator.Course, error) {
	if !isPath(pathOrName) {
		return adjudicator.LoadCourse(pathOrName)
	}
	text, err := readLimited(pathOrName)
	if err != nil {
		return nil, err
	}
	return adjudicator.ParseCourse(pathOrName, text, courseBoards(filepath.Dir(pathOrName)))
}

// courseBoards resolves a course's place lines: NAME.board in dir, else the shipped
// board NAME. Names with path separators are refused.
func courseBoards(dir string) func(string) (*adjudicator.BoardFile, error) {
	return func(name string) (*adjudicator.BoardFile, error) {
		if name == "" || name != filepath.Base(name) || strings.ContainsAny(name, `/\`) || name == ".." {
			return nil, fmt.Errorf("board names are plain names, not paths")
		}
		path := filepath.Join(dir, name+".board")
		text, err := readLimited(path)
		switch {
		case err == nil:
			return adjudicator.ParseBoard(path, text)
		case errors.Is(err, fs.ErrNotExist):
			return adjudicator.LoadBoard(name)
		}
		return nil, err
	}
}

func readLimited(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxBoardFile+1))
	if err != nil {
		return "", err
	}
	if len(b) > maxBoardFile {
		return "", fmt.Errorf("%s: file too large (at most %d bytes)", path, maxBoardFile)
	}
	return string(b), nil
}

func firstWord(text string) string {
	for _, line := range strings.Split(text, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		if f := strings.Fields(line); len(f) > 0 {
			return f[0]
		}
	}
	return ""
}
