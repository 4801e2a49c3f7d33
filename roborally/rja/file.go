package rja

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/picture"
)

// An Archive read is a game.Archive: what `rallyjudge replay` and `render` do with it,
// through package archive, which knows RoboRally only as a Kind.
var _ game.Archive = (*Archive)(nil)

// Write writes a in the .rja format (Write).
func (a *Archive) Write(w io.Writer) error { return Write(w, *a) }

// Kind is "roborally": an .rja archive records a RoboRally game (roborally.Kind.Name;
// TestArchiveNamesItsKind keeps them the same).
func (a *Archive) Kind() string { return "roborally" }

// Tag is the game's tag.
func (a *Archive) Tag() string { return a.Game }

// Last is the archive's last turn.
func (a *Archive) Last() int { return len(a.Turns) - 1 }

// About is "TAG on COURSE, N robots".
func (a *Archive) About() string {
	return fmt.Sprintf("%s on %s, %d robots", a.Game, a.Course.Name, len(a.Robots))
}

// Replay replays through turn upto (Replay), telling progress each turn.
func (a *Archive) Replay(upto int, progress func(turn int)) error {
	setup, err := a.Setup()
	if err != nil {
		return err
	}
	return Replay(a, setup, upto, func(s Step) error {
		if progress != nil {
			progress(s.Turn)
		}
		return nil
	})
}

// Show replays every turn and writes turn n: the text board, each robot's status, the
// turn's events and the press sent during it and after it.
func (a *Archive) Show(w io.Writer, n int, progress func(turn int)) error {
	setup, err := a.Setup()
	if err != nil {
		return err
	}
	var shown *Step
	err = Replay(a, setup, -1, func(s Step) error {
		if progress != nil {
			progress(s.Turn)
		}
		if s.Turn == n {
			k := s.Kept()
			shown = &k
		}
		return nil
	})
	if err != nil {
		return err
	}
	if shown == nil {
		return fmt.Errorf("no turn %d (the archive ends at turn %d)", n, a.Last())
	}
	showTurn(w, setup, shown)
	showPress(w, a, shown.Turn)
	return nil
}

// WriteHTML writes the replay page (WriteHTML with the default options).
func (a *Archive) WriteHTML(w io.Writer, progress func(turn int)) error {
	return WriteHTML(w, a, HTMLOptions{}, progress)
}

// Picture replays through turn n and draws the course after it as a PNG, or (gif) the
// turn's registers as an animated GIF (turn 0, the set-up, is drawn as a PNG).
func (a *Archive) Picture(n int, gif bool, cell int) ([]byte, error) {
	if n < 0 || n >= len(a.Turns) {
		return nil, fmt.Errorf("the archive has turns 0 to %d, not %d", len(a.Turns)-1, n)
	}
	setup, err := a.Setup()
	if err != nil {
		return nil, err
	}
	var step Step
	if err := Replay(a, setup, n, func(s Step) error { step = s.Kept(); return nil }); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	opt := picture.Options{Cell: cell, Turn: n, Deck: setup.Deck, Rules: setup.Rules.Name}
	if gif && step.Before != nil {
		opt.Devices = step.Before.Devices
		err = picture.TurnGIF(&buf, setup.Course, step.Before.Robots, step.Events, opt)
	} else {
		opt.Caption = fmt.Sprintf("%s: %s after turn %d", a.Game, setup.Course.Name, n)
		opt.Devices = step.After.Devices
		err = picture.PNG(&buf, picture.Course(setup.Course, step.After.Robots, opt))
	}
	return buf.Bytes(), err
}

// showTurn prints the game after a turn: the text board, each robot's status, and the
// turn's events.
func showTurn(w io.Writer, setup *adjudicator.Setup, s *Step) {
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
func showPress(w io.Writer, a *Archive, n int) {
	list := func(title string, ps []Press) {
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
