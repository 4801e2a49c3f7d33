// Command rallyjudge is a play-by-email judge for RoboRally. main only wires the
// subcommands; each lives in its own file.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// command is one subcommand: run gets the arguments after the subcommand's name and
// returns the process exit status.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

func commands() map[string]command {
	return map[string]command{
		"board":   {"print a board or course as text: board show NAME|FILE", cmdBoard},
		"resolve": {"resolve a scenario or saved turn and print the result as JSON", cmdResolve},
		"check":   {"check an order sheet: check SHEET [--state FILE]", cmdCheck},
		"serve":   {"run the judge: serve --config FILE", cmdServe},
		"demo":    {"play a demo game through embedded mail servers", cmdDemo},
		"render":  {"draw a course or a game turn as PNG or GIF", cmdRender},
		"export":  {"write a game as an archive: export GAME --db FILE", cmdExport},
		"replay":  {"check an archive replays bit for bit; --turn N, --html FILE", cmdReplay},
		"import":  {"make a game from an archive, to continue or fork it", cmdImport},
		"game":    {"a game master's operations: game create|start|list|status|... --db FILE", cmdGame},
		"version": {"print the version, the commit and the Go it was built with", cmdVersion},
	}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stderr, cmds)
		return 2
	}
	c, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "rallyjudge: unknown command %q\n", args[0])
		usage(stderr, cmds)
		return 2
	}
	return c.run(args[1:], stdout, stderr)
}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "usage: rallyjudge COMMAND [ARGS]\n\ncommands:")
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, cmds[n].summary)
	}
}
