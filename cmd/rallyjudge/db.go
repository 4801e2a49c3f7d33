package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rallyjudge/rallyjudge/store"
)

const dbUsage = `usage: rallyjudge db copy --from DB --to DB
       rallyjudge db compare DB DB

copy moves a whole community, every game, sheet, mail and secret hash (and the key they
are hashed under), from one database to another: a SQLite file or a PostgreSQL DSN
(postgres://user@host:port/dbname?sslmode=...), either way. The target must be new or
empty; it is made, filled in one transaction, then read back and compared with the
source row by row. The source may be served meanwhile: the copy is the community as of
one moment, so stop the judge first to move house for good (docs/gamemasters.md,
Running several judges). compare reads two databases and lists how they differ.
A PostgreSQL password comes from PGPASSWORD or ~/.pgpass, never from the command line.
Exit 0: copied and the same (compare: the same); 1: failed, or they differ; 2: usage.`

// cmdDB copies a community between databases, and compares two.
func cmdDB(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, dbUsage)
		return 2
	}
	switch op, rest := args[0], args[1:]; op {
	case "copy":
		fs := flag.NewFlagSet("db copy", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		from := fs.String("from", "", "the database copied")
		to := fs.String("to", "", "the new database")
		if err := fs.Parse(rest); err != nil || fs.NArg() > 0 || *from == "" || *to == "" {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprintln(stderr, dbUsage)
				return 2
			}
			fmt.Fprintf(stderr, "rallyjudge db copy: --from and --to are needed, and nothing else\n%s\n", dbUsage)
			return 2
		}
		return dbCopy(*from, *to, stdout, stderr)
	case "compare":
		fs := flag.NewFlagSet("db compare", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		if err := fs.Parse(rest); err != nil || fs.NArg() != 2 {
			fmt.Fprintln(stderr, dbUsage)
			return 2
		}
		return dbCompare(fs.Arg(0), fs.Arg(1), stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprintln(stderr, dbUsage)
		return 2
	default:
		fmt.Fprintf(stderr, "rallyjudge db: unknown operation %q (copy or compare)\n%s\n", op, dbUsage)
		return 2
	}
}

// openDB opens a database that must exist already (a file; a DSN is the server's to say).
func openDB(where string) (*store.Store, error) {
	if !store.IsPostgres(where) {
		if _, err := os.Stat(where); err != nil {
			return nil, err
		}
	}
	return store.Open(where)
}

func dbName(where string) string {
	if store.IsPostgres(where) {
		return store.RedactDSN(where)
	}
	return where
}

func dbCopy(from, to string, stdout, stderr io.Writer) int {
	ctx := context.Background()
	src, err := openDB(from)
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge db copy: %v\n", err)
		return 1
	}
	defer src.Close()
	dst, err := store.Open(to)
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge db copy: %v\n", err)
		return 1
	}
	rep, err := src.CopyTo(ctx, dst)
	dst.Close() // it read its server key before the copy brought the source's
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge db copy: %v\n", err)
		return 1
	}
	var parts []string
	for _, t := range rep.Tables {
		if n := rep.Rows[t]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", t, n))
		}
	}
	fmt.Fprintf(stdout, "copied %s to %s: %s\n", dbName(from), dbName(to), strings.Join(parts, ", "))
	return dbCompare(from, to, stdout, stderr)
}

func dbCompare(a, b string, stdout, stderr io.Writer) int {
	ctx := context.Background()
	sa, err := openDB(a)
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge db compare: %v\n", err)
		return 1
	}
	defer sa.Close()
	sb, err := openDB(b)
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge db compare: %v\n", err)
		return 1
	}
	defer sb.Close()
	diffs, err := store.Compare(ctx, sa, sb)
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge db compare: %v\n", err)
		return 1
	}
	if len(diffs) > 0 {
		fmt.Fprintf(stderr, "rallyjudge db compare: %s and %s differ:\n  %s\n", dbName(a), dbName(b), strings.Join(diffs, "\n  "))
		return 1
	}
	fmt.Fprintf(stdout, "%s and %s hold the same rows\n", dbName(a), dbName(b))
	return 0
}
