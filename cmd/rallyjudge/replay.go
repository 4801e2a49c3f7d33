package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rallyjudge/rallyjudge/archive"
	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/games"
)

const replayUsage = `usage: rallyjudge replay ARCHIVE [--turn N] [--html OUT.html] [--progress]

Re-runs every turn of an archive (docs/archive.md) from the set-up and checks the hash
of the state after each: the game replays bit for bit, or the first turn that differs
is named.
  --turn N     show the game after turn N: the board, the robots, the turn's events,
               the press sent during the turn and after it
  --html FILE  write one self-contained page that plays the game step by step
  --progress   show a progress bar on standard error (the default when it is a terminal)
Exit 0: the archive replays exactly; 1: it does not, or cannot be read; 2: usage.`

// cmdReplay checks an archive, shows a turn of it, or writes its replay page.
func cmdReplay(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	turn := fs.Int("turn", -1, "the turn to show")
	htmlOut := fs.String("html", "", "write the replay page to this file")
	progress := fs.Bool("progress", false, "show a progress bar")
	pos, err := parseInterleaved(fs, args)
	if err != nil || len(pos) != 1 || *turn < -1 {
		fmt.Fprintln(stderr, replayUsage)
		return 2
	}
	a, err := readArchive(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge replay: %v\n", err)
		return 1
	}
	last := a.Last()
	if *turn > last {
		fmt.Fprintf(stderr, "rallyjudge replay: %s: no turn %d (the archive ends at turn %d)\n", pos[0], *turn, last)
		return 1
	}
	bar := newProgressBar(stderr, last, *progress, isTerminal(stderr))
	if *htmlOut != "" {
		f, err := os.Create(*htmlOut)
		if err != nil {
			fmt.Fprintf(stderr, "rallyjudge replay: %v\n", err)
			return 1
		}
		w := bufio.NewWriter(f)
		err = a.WriteHTML(w, bar.set)
		bar.done()
		if err == nil {
			err = w.Flush()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(*htmlOut)
			return replayFailed(stderr, pos[0], err)
		}
		fmt.Fprintf(stdout, "%s: %d turns replay exactly; wrote %s\n", pos[0], last, *htmlOut)
		return 0
	}
	if *turn >= 0 {
		err = a.Show(stdout, *turn, bar.set)
		bar.done()
		if err != nil {
			return replayFailed(stderr, pos[0], err)
		}
		return 0
	}
	err = a.Replay(-1, bar.set)
	bar.done()
	if err != nil {
		return replayFailed(stderr, pos[0], err)
	}
	if about := a.About(); about != "" {
		fmt.Fprintf(stdout, "%s: %d turns replay exactly (%s)\n", pos[0], last, about)
	} else {
		fmt.Fprintf(stdout, "%s: %d turns replay exactly\n", pos[0], last)
	}
	return 0
}

func replayFailed(stderr io.Writer, name string, err error) int {
	var re *archive.ReplayError
	if errors.As(err, &re) {
		fmt.Fprintf(stderr, "rallyjudge replay: %s: first difference at turn %d: %v\n", name, re.Turn, err)
	} else {
		fmt.Fprintf(stderr, "rallyjudge replay: %s: %v\n", name, err)
	}
	return 1
}

// readArchive reads an archive file of any game rallyjudge plays (archive.Read over
// games.Hosted()); errors name the file with the line.
func readArchive(path string) (game.Archive, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	a, err := archive.Read(f, games.Hosted())
	var ae *archive.Error
	if errors.As(err, &ae) {
		ae.File = path
	}
	return a, err
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// progressBar draws "replaying [#####.....] 512/1000" on one line, redrawn when the
// bar moves by a percent.
type progressBar struct {
	w     io.Writer
	total int
	on    bool
	shown int
}

// newProgressBar shows the bar when asked for (--progress), or on a terminal for an
// archive of 50 turns or more.
func newProgressBar(w io.Writer, total int, asked, tty bool) *progressBar {
	return &progressBar{w: w, total: total, on: asked || (tty && total >= 50), shown: -1}
}

func (p *progressBar) set(n int) {
	if !p.on {
		return
	}
	pct := n * 100 / max(1, p.total)
	if pct == p.shown {
		return
	}
	p.shown = pct
	const width = 40
	fill := pct * width / 100
	fmt.Fprintf(p.w, "\rreplaying [%s%s] %d/%d turns", strings.Repeat("#", fill), strings.Repeat(".", width-fill), n, p.total)
}

func (p *progressBar) done() {
	if p.on && p.shown >= 0 {
		fmt.Fprintln(p.w)
	}
}
