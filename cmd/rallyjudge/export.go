package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/rallyjudge/rallyjudge/archive"
	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/games"
	"github.com/rallyjudge/rallyjudge/judge"
	"github.com/rallyjudge/rallyjudge/store"
)

const exportUsage = `usage: rallyjudge export GAME (--db FILE | --config FILE) [-o OUT.rja]

Writes the game (its tag, or its number) as an archive (docs/archive.md): the course
inline, the rules, the seed, the robots' names, every turn's orders and a hash of the
state after every turn; no addresses, no secrets. Without -o it goes to standard output.
The database is --db, or the one the serve config names (--config FILE, else
RALLYJUDGE_CONFIG, else /etc/rallyjudge/rallyjudge.yaml), as for rallyjudge game.
Exit 0: written; 1: no such database or game, or writing failed; 2: usage.`

// cmdExport writes a stored game as an archive.
func cmdExport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	db := fs.String("db", "", "the judge's database file")
	config := fs.String("config", "", "the serve config, for its database")
	out := fs.String("o", "", "output file; standard output if empty")
	pos, err := parseInterleaved(fs, args)
	if err != nil || len(pos) != 1 || *db != "" && *config != "" {
		fmt.Fprintln(stderr, exportUsage)
		return 2
	}
	// the game master on the server names the config, as for rallyjudge game and import
	if *db == "" {
		if *config == "" {
			*config = defaultConfig()
		}
		if *config == "" {
			fmt.Fprintln(stderr, exportUsage)
			return 2
		}
		cfg, err := judge.LoadConfig(*config)
		if err != nil {
			fmt.Fprintf(stderr, "rallyjudge export: %v\n", err)
			return 2
		}
		*db = cfg.Database
	}
	st, err := openExisting(*db)
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge export: %v\n", err)
		return 1
	}
	defer st.Close()
	var a game.Archive
	err = st.View(context.Background(), func(tx *store.Tx) error {
		g, err := tx.GameByTag(pos[0])
		if errors.Is(err, store.ErrNotFound) {
			if id, perr := strconv.ParseInt(pos[0], 10, 64); perr == nil {
				g, err = tx.Game(id)
			}
		}
		if errors.Is(err, store.ErrNotFound) {
			return judge.NoGame(tx, pos[0])
		}
		if err != nil {
			return err
		}
		// the archive in its game's format (archive.Of): RoboRally's .rja on either
		// path, the format of the games behind the seam for the others
		rec, err := archive.RecordOf(tx, g.ID)
		if err != nil {
			return err
		}
		a, err = archive.Of(rec, games.Hosted())
		return err
	})
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge export: %v\n", err)
		return 1
	}
	w := stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintf(stderr, "rallyjudge export: %v\n", err)
			return 1
		}
		defer f.Close()
		w = f
	}
	if err := a.Write(w); err != nil {
		fmt.Fprintf(stderr, "rallyjudge export: %v\n", err)
		return 1
	}
	if f, ok := w.(*os.File); ok && f != os.Stdout {
		if err := f.Close(); err != nil {
			fmt.Fprintf(stderr, "rallyjudge export: %v\n", err)
			return 1
		}
	}
	fmt.Fprintf(stderr, "exported %s: %d turns\n", a.Tag(), a.Last())
	return 0
}

// openExisting opens a judge database that must already exist (Open would make one).
func openExisting(path string) (*store.Store, error) {
	return openDB(path)
}

// parseInterleaved parses flags that may come before or after the positional arguments.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		rest = fs.Args()[1:]
	}
}
