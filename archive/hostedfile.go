package archive

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/rallyjudge/rallyjudge/game"
)

// hostedFile is an archive of a game behind the seam read by Read: a game.Archive that
// replays with the catalogue's Kind.
type hostedFile struct {
	h     Hosted
	games game.Catalog
}

var _ game.Archive = (*hostedFile)(nil)

func (f *hostedFile) Write(w io.Writer) error { return WriteHosted(w, f.h) }
func (f *hostedFile) Kind() string            { return f.h.Kind }
func (f *hostedFile) Tag() string             { return f.h.Game }
func (f *hostedFile) Last() int               { return len(f.h.Turns) - 1 }
func (f *hostedFile) About() string           { return "" }

// Hosted is the archive read.
func (f *hostedFile) Hosted() *Hosted { return &f.h }

func (f *hostedFile) Replay(upto int, progress func(turn int)) error {
	errStop := errors.New("stop")
	err := ReplayHosted(&f.h, f.games, func(s HostedStep) error {
		if progress != nil {
			progress(s.Turn)
		}
		if upto >= 0 && s.Turn >= upto {
			return errStop
		}
		return nil
	})
	if err == errStop {
		return nil
	}
	return err
}

// Show writes turn n as an observer's report, as the turn is replayed.
func (f *hostedFile) Show(w io.Writer, n int, progress func(turn int)) error {
	return ReplayHosted(&f.h, f.games, func(s HostedStep) error {
		if progress != nil {
			progress(s.Turn)
		}
		if s.Turn == n {
			fmt.Fprintf(w, "After turn %d\n\n", s.Turn)
			for _, l := range s.Story {
				fmt.Fprintln(w, l)
			}
			fmt.Fprintln(w, s.Pos.Report(-1, s.Events).Text)
		}
		return nil
	})
}

func (f *hostedFile) WriteHTML(w io.Writer, progress func(turn int)) error {
	return WriteHostedHTML(w, &f.h, f.games)
}

// Picture is the picture of the public report after turn n (a game that draws none:
// an error); a hosted game's turns are not animated.
func (f *hostedFile) Picture(n int, gif bool, cell int) ([]byte, error) {
	if n < 0 || n > f.Last() {
		return nil, fmt.Errorf("the archive has turns 0 to %d, not %d", f.Last(), n)
	}
	if gif {
		return nil, fmt.Errorf("game %s: a %s turn is drawn as a PNG, not a GIF", f.h.Game, f.h.Kind)
	}
	var pic []byte
	errStop := errors.New("stop")
	err := ReplayHosted(&f.h, f.games, func(s HostedStep) error {
		if s.Turn == n {
			pic = bytes.Clone(s.Pos.Report(-1, s.Events).Picture)
			return errStop
		}
		return nil
	})
	if err != nil && err != errStop {
		return nil, err
	}
	if len(pic) == 0 {
		return nil, fmt.Errorf("game %s: %s draws no picture", f.h.Game, f.h.Kind)
	}
	return pic, nil
}
