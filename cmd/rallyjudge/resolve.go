package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/rallyjudge/rallyjudge/adjudicator/scenario"
)

// cmdResolve runs one scenario file (docs/scenarios.md) and prints the resulting state
// and event log as JSON on stdout. Exit status: 0 when the file's expectations hold, 1
// when they don't (the differences on stderr), 2 when the input cannot be read or
// resolved.
func cmdResolve(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("resolve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: rallyjudge resolve FILE.scn\n\nPrints the state after the turn and the event log as JSON (docs/scenarios.md).\nExit 0: expectations hold; 1: they don't; 2: unreadable input.")
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	s, err := scenario.Load(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge resolve: %v\n", err)
		return 2
	}
	res, err := s.Run()
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge resolve: %v\n", err)
		return 2
	}
	out, err := res.JSON()
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge resolve: %v\n", err)
		return 2
	}
	if _, err := stdout.Write(out); err != nil {
		fmt.Fprintf(stderr, "rallyjudge resolve: %v\n", err)
		return 2
	}
	if diffs := s.Check(res); len(diffs) > 0 {
		fmt.Fprintf(stderr, "rallyjudge resolve: %d of %d expectations do not hold:\n", len(diffs), s.Expectations())
		for _, d := range diffs {
			fmt.Fprintln(stderr, d)
		}
		return 1
	}
	return 0
}
