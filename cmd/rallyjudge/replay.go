package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/archive"
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
	if head, err := readHead(pos[0]); err == nil && archive.IsHosted(head) {
		return replayHosted(pos[0], *turn, *htmlOut, stdout, stderr)
	}
	a, err := readArchive(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge replay: %v\n", err)
		return 1
	}
	last := len(a.Turns) - 1
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
		err = archive.WriteHTML(w, &a, archive.HTMLOptions{}, bar.set)
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
	setup, err := a.Setup()
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge replay: %s: %v\n", pos[0], err)
		return 1
	}
	var shown *archive.Step
	err = archive.Replay(&a, setup, -1, func(s archive.Step) error {
		bar.set(s.Turn)
		if s.Turn == *turn {
			k := s.Kept()
			shown = &k
		}
		return nil
	})
	bar.done()
	if err != nil {
		return replayFailed(stderr, pos[0], err)
	}
	if shown != nil {
		showTurn(stdout, setup, shown)
		showPress(stdout, &a, shown.Turn)
		return 0
	}
	fmt.Fprintf(stdout, "%s: %d turns replay exactly (%s on %s, %d robots)\n", pos[0], last, a.Game, a.Course.Name, len(a.Robots))
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

// readArchive reads an archive file; errors name the file with the line.
// readHead is the first bytes of a file: enough to tell the kinds of archive apart.
func readHead(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, 64)
	n, _ := io.ReadFull(f, b)
	return b[:n], nil
}

// replayHosted is replay for the archive of a game behind the seam: it checks every
// turn, shows one (--turn N) as an observer's report, or writes the replay page.
func replayHosted(path string, turn int, htmlOut string, stdout, stderr io.Writer) int {
	f, err := os.Open(path)
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge replay: %v\n", err)
		return 1
	}
	h, err := archive.ReadHosted(f)
	f.Close()
	var ae *archive.Error
	if errors.As(err, &ae) {
		ae.File = path
	}
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge replay: %v\n", err)
		return 1
	}
	last := len(h.Turns) - 1
	if turn > last {
		fmt.Fprintf(stderr, "rallyjudge replay: %s: no turn %d (the archive ends at turn %d)\n", path, turn, last)
		return 1
	}
	catalog := games.Hosted()
	if htmlOut != "" {
		out, err := os.Create(htmlOut)
		if err != nil {
			fmt.Fprintf(stderr, "rallyjudge replay: %v\n", err)
			return 1
		}
		w := bufio.NewWriter(out)
		err = archive.WriteHostedHTML(w, &h, catalog)
		if err == nil {
			err = w.Flush()
		}
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(htmlOut)
			return replayFailed(stderr, path, err)
		}
		fmt.Fprintf(stdout, "%s: %d turns replay exactly; wrote %s\n", path, last, htmlOut)
		return 0
	}
	err = archive.ReplayHosted(&h, catalog, func(s archive.HostedStep) error {
		if s.Turn == turn {
			fmt.Fprintf(stdout, "After turn %d\n\n", s.Turn)
			for _, l := range s.Story {
				fmt.Fprintln(stdout, l)
			}
			fmt.Fprintln(stdout, s.Pos.Report(-1, s.Events).Text)
		}
		return nil
	})
	if err != nil {
		return replayFailed(stderr, path, err)
	}
	if turn < 0 {
		fmt.Fprintf(stdout, "%s: %d turns replay exactly\n", path, last)
	}
	return 0
}

func readArchive(path string) (archive.Archive, error) {
	f, err := os.Open(path)
	if err != nil {
		return archive.Archive{}, err
	}
	defer f.Close()
	a, err := archive.Read(f)
	var ae *archive.Error
	if errors.As(err, &ae) {
		ae.File = path
	}
	return a, err
}

// showTurn prints the game after a turn: the text board, each robot's status, and the
// turn's events.
func showTurn(w io.Writer, setup *adjudicator.Setup, s *archive.Step) {
	st := s.After
	fmt.Fprintf(w, "After turn %d", s.Turn)
	if s.Turn == 0 {
		fmt.Fprint(w, " (the set-up)")
	}
	fmt.Fprintf(w, " — state sha256 %s\n\n", s.Hash)
	fmt.Fprintln(w, adjudicator.RenderState(setup.Course, st))
	fmt.Fprintln(w, adjudicator.RenderReportLegend(setup.Course, st))
	// The legend lists every robot's square, damage, lives and flags (under the 2023
	// rules: energy, checkpoints, upgrades and damage cards held).
	if st.Over {
		fmt.Fprintf(w, "  The race is over: %s won.\n", st.Winner)
	}
	fmt.Fprintf(w, "\nEvents of turn %d:\n", s.Turn)
	for _, e := range s.Events {
		fmt.Fprintf(w, "  %s\n", eventLine(setup.Deck, e))
	}
}

// showPress prints the press of turn n as the public saw it: the messages sent while
// its orders were gathered (on the line of turn n-1) and those sent after it resolved
// (on its own line).
func showPress(w io.Writer, a *archive.Archive, n int) {
	list := func(title string, ps []archive.Press) {
		fmt.Fprintf(w, "\n%s:\n", title)
		if len(ps) == 0 {
			fmt.Fprintln(w, "  none")
		}
		for _, p := range ps {
			to := "everyone"
			if p.To != nil {
				to = strings.Join(p.To, ", ")
			}
			fmt.Fprintf(w, "  from %s to %s:\n", p.From, to)
			for _, l := range strings.Split(p.Text, "\n") {
				fmt.Fprintf(w, "    | %s\n", l)
			}
		}
	}
	if n > 0 {
		list(fmt.Sprintf("Press of turn %d (sent before it resolved)", n), a.Turns[n-1].Press)
	}
	list(fmt.Sprintf("Press after turn %d (sent during turn %d)", n, n+1), a.Turns[n].Press)
}

func eventLine(deck *adjudicator.Deck, e adjudicator.Event) string {
	var b strings.Builder
	if e.Register > 0 {
		fmt.Fprintf(&b, "R%d ", e.Register)
	}
	fmt.Fprintf(&b, "%-8s %-11s %s", e.Phase, e.Kind, e.Robot)
	if e.Card != 0 {
		fmt.Fprintf(&b, " P%d %s", e.Card, deck.Kind(e.Card).Title())
	}
	if e.Other != "" {
		fmt.Fprintf(&b, " (%s)", e.Other)
	}
	if e.From != nil && e.To != nil {
		fmt.Fprintf(&b, " %d,%d→%d,%d", e.From.X, e.From.Y, e.To.X, e.To.Y)
	} else if e.To != nil {
		fmt.Fprintf(&b, " →%d,%d", e.To.X, e.To.Y)
	}
	if e.Facing != nil {
		fmt.Fprintf(&b, " facing %s", *e.Facing)
	}
	if e.Amount != 0 {
		fmt.Fprintf(&b, " %d", e.Amount)
	}
	if e.Cause != "" {
		fmt.Fprintf(&b, " by %s", e.Cause)
	}
	if e.Option != "" {
		fmt.Fprintf(&b, " option %s", e.Option)
	}
	return strings.TrimRight(b.String(), " ")
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
