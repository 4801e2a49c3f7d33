package main

import (
	"bytes"
	"strings"
	"testing"
)

// Asking for help is no usage error: `rallyjudge help`, `-h`, `--help`, `help CMD`, and
// `CMD -h` / `game OP -h` print the usage on standard output and exit 0, as Go's flag
// package does; a usage mistake still exits 2 and says what was wrong on standard error.
func TestHelpIsAnswered(t *testing.T) {
	var calls [][]string
	for _, a := range [][]string{{"help"}, {"-h"}, {"--help"}} {
		calls = append(calls, a)
	}
	for name := range commands() {
		calls = append(calls, []string{name, "-h"}, []string{name, "--help"}, []string{"help", name})
	}
	for op := range gameOps {
		calls = append(calls, []string{"game", op, "-h"})
	}
	for _, args := range calls {
		var out, errb bytes.Buffer
		code := run(args, &out, &errb)
		text := out.String()
		want := "usage: rallyjudge"
		if len(args) > 1 && args[0] != "help" {
			want += " " + args[0]
		}
		if code != 0 || !strings.Contains(text, want) || strings.Contains(text, "help requested") {
			t.Errorf("rallyjudge %s: exit %d, stdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, text, errb.String())
		}
	}
}

func TestUsageMistakesSayWhat(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{}, "usage: rallyjudge COMMAND"},
		{[]string{"frob"}, `unknown command "frob"`},
		{[]string{"board", "frob"}, `unknown operation "frob"`},
		{[]string{"board", "show"}, "want one board or course, got 0"},
		{[]string{"render", "sprint", "--cell", "0"}, "--cell 0: want 16 to 96 pixels"},
		{[]string{"render"}, "which course?"},
		{[]string{"render", "sprint", "stampede"}, "one course at a time"},
		{[]string{"render", "sprint", "--robots", "9"}, "--robots 9: want 1 to 8"},
		{[]string{"render", "--archive", "g.rja", "sprint"}, `"sprint" is one argument too many`},
		{[]string{"game", "create", "--bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"demo", "--bogus"}, "flag provided but not defined: -bogus"},
	} {
		var out, errb bytes.Buffer
		if code := run(tc.args, &out, &errb); code != 2 || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("rallyjudge %s: exit %d, stderr:\n%s\nwant exit 2 and %q", strings.Join(tc.args, " "), code, errb.String(), tc.want)
		}
	}
}
