// Command rallyjudge is a play-by-email judge for RoboRally. main only wires the
// subcommands; each lives in its own file.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// command is one subcommand: run gets the arguments after the subcommand's name and
// returns the process exit status.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

func commands() map[string]command {
	return map[string]command{
		"board":   {"print a board or course as text: board show NAME|FILE; board list", cmdBoard},
		"resolve": {"resolve a scenario or saved turn and print the result as JSON", cmdResolve},
		"check":   {"check an order sheet: check SHEET|--mail FILE.eml [--state FILE|--db FILE|--config FILE]", cmdCheck},
		"serve":   {"run the judge: serve --config FILE", cmdServe},
		"demo":    {"play a demo game through embedded mail servers", cmdDemo},
		"render":  {"draw a course or a game turn as PNG or GIF", cmdRender},
		"export":  {"write a game as an archive: export GAME --db FILE", cmdExport},
		"replay":  {"check an archive replays bit for bit; --turn N, --html FILE", cmdReplay},
		"import":  {"make a game from an archive, to continue or fork it", cmdImport},
		"game":    {"a game master's operations: game create|start|list|status|... --db FILE", cmdGame},
		"init":    {"write a commented config file to start from: init [-o FILE]", cmdInit},
		"db":      {"move a community between databases: db copy --from DB --to DB; db compare DB DB", cmdDB},
		"version": {"print the version, the commit and the Go it was built with", cmdVersion},
	}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) == 0 {
		usage(stderr, cmds)
		return 2
	}
	if isHelp(args[0]) {
		if len(args) == 1 {
			usage(stdout, cmds)
			return 0
		}
		args = []string{args[1], "-h"} // rallyjudge help CMD: CMD's own help
	}
	c, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "rallyjudge: unknown command %q\n", args[0])
		usage(stderr, cmds)
		return 2
	}
	if helpAsked(args[1:]) {
		return subcommandHelp(c, args[1:], stdout)
	}
	return c.run(args[1:], stdout, stderr)
}

// isHelp is an explicit request for help: help, -h, -help or --help.
func isHelp(a string) bool {
	return a == "help" || a == "-h" || a == "-help" || a == "--help"
}

// helpAsked reports whether the arguments ask for help (before a "--").
func helpAsked(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "-h" || a == "-help" || a == "--help" {
			return true
		}
	}
	return false
}

// subcommandHelp answers an explicit request for a subcommand's help as Go's flag
// package does: its usage on standard output and exit 0 (a usage error is exit 2 on
// standard error). Each subcommand prints its usage when its flags ask for help; the
// flag package's own "flag: help requested" line is left out.
func subcommandHelp(c command, args []string, stdout io.Writer) int {
	var b bytes.Buffer
	c.run(args, io.Discard, &b)
	for _, l := range strings.SplitAfter(b.String(), "\n") {
		if !strings.HasSuffix(strings.TrimSpace(l), "flag: help requested") {
			io.WriteString(stdout, l)
		}
	}
	return 0
}

// printFlags writes a flag set's flags, each with what it does and its default, under
// a usage text: every subcommand's --help describes its flags (issue 22).
func printFlags(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintln(w, "\nflags:")
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
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
