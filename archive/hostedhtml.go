package archive

import (
	_ "embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/rallyjudge/rallyjudge/game"
)

//go:embed html/hosted.html
var hostedPage string

var hostedTmpl = template.Must(template.New("hosted").Parse(hostedPage))

type hostedPageData struct {
	Title, Sub string
	Turns      []hostedPageTurn
}

type hostedPageTurn struct {
	N       int
	Moves   []string
	Text    string
	Picture template.URL // a data: URL of the PNG, or ""
}

// WriteHostedHTML replays h and writes one self-contained page that steps through it:
// each turn's moves, the public report and the board's picture, as the game reports
// them to an observer. It fits a phone's width (the picture scales).
func WriteHostedHTML(w io.Writer, h *Hosted, games game.Catalog) error {
	k, err := games.Lookup(h.Kind)
	if err != nil {
		return err
	}
	d := hostedPageData{Title: fmt.Sprintf("%s: game %s", k.Title(), h.Game),
		Sub: fmt.Sprintf("%s; %d turns, replayed from the archive.", strings.Join(h.Seats, ", "), len(h.Turns)-1)}
	if h.Name != "" {
		d.Title += " (" + h.Name + ")"
	}
	err = ReplayHosted(h, games, func(s HostedStep) error {
		rep := s.Pos.Report(-1, s.Events)
		t := hostedPageTurn{N: s.Turn, Text: strings.Join(append(s.Story, "", rep.Text), "\n")}
		if s.Turn > 0 {
			for _, m := range h.Turns[s.Turn].Moves {
				who := h.Seats[m.Seat]
				if m.Missed {
					who += " (autopilot)"
				}
				t.Moves = append(t.Moves, who+": "+strings.Join(strings.Fields(m.Move.Text), " "))
			}
		}
		if len(rep.Picture) > 0 {
			t.Picture = template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(rep.Picture))
		}
		d.Turns = append(d.Turns, t)
		return nil
	})
	if err != nil {
		return err
	}
	return hostedTmpl.Execute(w, d)
}
