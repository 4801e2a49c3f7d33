package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeRun are the README's rallyjudge lines a newcomer can run as they stand on a
// fresh machine; the test runs them in a fresh directory, in the README's order, each
// once. Every other rallyjudge line of the README names a file or a server the reader
// has yet to make (FILE, GAME, g.rja, a mailbox), or plays a whole demo: those are
// checked against their subcommand's --help (the flags they give must be described).
var readmeRun = map[string]bool{
	"rallyjudge version":                     true,
	"rallyjudge init":                        true,
	"rallyjudge board list":                  true,
	"rallyjudge board show sprint":           true,
	"rallyjudge board show grand-prix":       true,
	"rallyjudge render sprint -o sprint.png": true,
}

// readmeCommandLines are the rallyjudge lines of the README's indented code blocks, their
// "# comments" and leading VAR=value settings taken off.
func readmeCommandLines(t *testing.T) []guideLine {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	env := regexp.MustCompile(`^(?:[A-Z_]+=\S+\s+)+`)
	var out []guideLine
	for i, l := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(l, "    ") {
			continue
		}
		l, _, _ = strings.Cut(strings.TrimSpace(l), " #")
		l = env.ReplaceAllString(strings.TrimSpace(l), "")
		if strings.HasPrefix(l, "rallyjudge ") || l == "rallyjudge" {
			out = append(out, guideLine{i + 1, strings.Join(strings.Fields(l), " ")})
		}
	}
	return out
}

// A newcomer follows the README on a fresh machine (issue 22, "Done when"): every
// rallyjudge line of it runs (readmeRun) or is one its subcommand's --help describes,
// and the next step `rallyjudge init` prints (game create on the config it wrote) works
// as printed, on the fresh database.
func TestReadmeCommandLinesWalked(t *testing.T) {
	lines := readmeCommandLines(t)
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("RALLYJUDGE_CONFIG", "")
	done := map[string]bool{}
	ran := 0
	var next []string
	for _, gl := range lines {
		where := fmt.Sprintf("README.md:%d: %s", gl.line, gl.text)
		args, err := shellWords(gl.text)
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		if !readmeRun[gl.text] {
			checkHelpDescribes(t, where, args[1:])
			continue
		}
		if done[gl.text] {
			continue // the list of commands repeats the first steps
		}
		done[gl.text] = true
		ran++
		var out, errb bytes.Buffer
		if code := run(args[1:], &out, &errb); code != 0 {
			t.Errorf("%s: exit %d:\n%s%s", where, code, out.String(), errb.String())
		}
		if args[1] == "init" {
			for _, l := range strings.Split(out.String(), "\n") {
				if l = strings.TrimSpace(l); strings.HasPrefix(l, "rallyjudge game create") {
					next = append(next, l)
				}
			}
		}
	}
	for l := range readmeRun {
		if !done[l] {
			t.Errorf("readmeRun lists %q, which the README no longer holds", l)
		}
	}
	if len(next) != 1 {
		t.Fatalf("rallyjudge init printed %d game create lines to go on with, want 1", len(next))
	}
	args, err := shellWords(next[0])
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run(args[1:], &out, &errb); code != 0 {
		t.Errorf("the step rallyjudge init prints, %s: exit %d:\n%s%s", next[0], code, out.String(), errb.String())
	}
	if _, err := os.Stat("sprint.png"); err != nil {
		t.Errorf("render wrote no picture: %v", err)
	}
	t.Logf("README: %d rallyjudge lines, %d run, then %q", len(lines), ran, next[0])
}
