package main

import (
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/template"

	"github.com/rallyjudge/rallyjudge/judge"
)

//go:embed init.yaml.tmpl
var initTemplate string

const initUsage = `usage: rallyjudge init [-o FILE] [--db FILE] [--address JUDGE@ADDR] [--force]

Writes a commented config file (default rallyjudge.yaml here) for rallyjudge serve and the
game master's commands (rallyjudge game ... --config FILE); docs/gamemasters.md starts from
it. Fill in the mail servers, then check it: rallyjudge serve --config FILE --check.
It never overwrites a file unless --force is given.
Exit 0: written; 1: the file exists or cannot be written; 2: usage.`

// cmdInit writes a starting config file, every key commented (docs/config.md).
func cmdInit(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("init", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("o", "rallyjudge.yaml", "the config file to write")
	db := fs.String("db", "rallyjudge.db", "the database the config names (made relative paths absolute)")
	address := fs.String("address", "robojudge@example.org", "the judge's own mail address")
	force := fs.Bool("force", false, "overwrite the file if it exists")
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(stderr, initUsage)
		printFlags(stderr, fs)
		return 2
	} else if err != nil || fs.NArg() > 0 {
		if err == nil {
			err = fmt.Errorf("unexpected arguments %q", fs.Args())
		}
		fmt.Fprintf(stderr, "rallyjudge init: %v\n%s\n", err, initUsage)
		return 2
	}
	if err := judge.CheckAddress("--address", *address); err != nil {
		fmt.Fprintf(stderr, "rallyjudge init: %v\n", err)
		return 2
	}
	dbPath, err := filepath.Abs(*db)
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge init: --db: %v\n", err)
		return 2
	}
	path, err := filepath.Abs(*out)
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge init: -o: %v\n", err)
		return 2
	}
	text, err := initConfig(path, dbPath, *address)
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge init: %v\n", err)
		return 1
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if *force {
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(path, flags, 0o640) // it names where passwords are: not world-readable
	if errors.Is(err, os.ErrExist) {
		fmt.Fprintf(stderr, "rallyjudge init: %s exists; give -o FILE for another, or --force to overwrite it\n", path)
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge init: %v\n", err)
		return 1
	}
	if _, err := io.WriteString(f, text); err != nil {
		f.Close()
		fmt.Fprintf(stderr, "rallyjudge init: %v\n", err)
		return 1
	}
	if err := f.Close(); err != nil {
		fmt.Fprintf(stderr, "rallyjudge init: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "Wrote %s (database %s, judge address %s).\n"+
		"Next: put your mail servers in it, then\n"+
		"  rallyjudge serve --config %s --check\n"+
		"  rallyjudge game create --config %s --game spring --course sprint\n", path, dbPath, *address, path, path)
	return 0
}

// initConfig is the config text init writes; it is checked by the judge's own reader
// before it is written, so init never writes a file serve refuses.
func initConfig(path, db, address string) (string, error) {
	t, err := template.New("init").Parse(initTemplate)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := t.Execute(&b, struct{ Path, Database, Address string }{path, db, address}); err != nil {
		return "", err
	}
	if _, err := judge.ParseConfig(path, []byte(b.String())); err != nil {
		return "", fmt.Errorf("the config written would not load: %v", err)
	}
	return b.String(), nil
}
