package judge

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/games"
)

// The demo of a game without a game.Demo of its own: RunDemo's loop (go-imap's and
// go-smtp's servers in-process on 127.0.0.1, the judge reading by IMAP and sending
// through its outbox), with bot players who mail, when their move is due, the move the
// game's autopilot picks for them, written in the game's own words (autopilotDemo, a
// game.Demo over the seam alone).

// HostedDemoOptions configures RunHostedDemo.
type HostedDemoOptions struct {
	Game     string            // the game's name (Judge.Games)
	Settings map[string]string // the game's own CREATE settings
	Seed     int64
	Turns    int    // stop after this many turns if the game has not ended; default 500
	DB       string // keep the database here; "" for a temporary one
	SaveMail string // write every mail rallyjudge sent here as .eml
	Out      io.Writer
	Log      *slog.Logger
	// Games are the games to host (nil: the judge's default).
	Games game.Catalog
}

// HostedDemoResult is how the demo game ended.
type HostedDemoResult struct {
	Turns     int
	Standings []string
	Over      bool
	Sent      int // mails rallyjudge sent
	Reports   int
}

var demoPlayers = []string{"Ada", "Boris", "Cleo", "Dario"}

// RunHostedDemo plays a demo game of a hosted game to its end or the turn limit, its
// bots playing the game's Autopilot.
func RunHostedDemo(ctx context.Context, o HostedDemoOptions) (HostedDemoResult, error) {
	catalog := o.Games
	if catalog == nil {
		catalog = games.Hosted()
	}
	if o.Turns <= 0 {
		o.Turns = 500
	}
	d := &autopilotDemo{games: catalog, game: o.Game, settings: o.Settings}
	dr, err := RunDemo(ctx, DemoOptions{Game: d, Seed: o.Seed, Turns: o.Turns, DB: o.DB, SaveMail: o.SaveMail,
		Out: o.Out, Log: o.Log, Games: catalog})
	return HostedDemoResult{Turns: dr.Turns, Standings: d.standings, Over: d.over, Sent: dr.Sent, Reports: dr.Reports}, err
}

// autopilotDemo is a game.Demo for any game, through the seam alone: its bots mail
// what the position's Autopilot plays for their seat when it is due, the turn's line
// says who mailed what, and the end is the position's Standings.
type autopilotDemo struct {
	games    game.Catalog
	game     string
	settings map[string]string
	players  []string
	mailed   []string // this turn's "Ada mails place A3"
	// the end, for HostedDemoResult
	standings []string
	over      bool
}

func (d *autopilotDemo) Setup() (game.DemoSetup, error) {
	k, err := d.games.Lookup(d.game)
	if err != nil {
		return game.DemoSetup{}, fmt.Errorf("demo: %w", err)
	}
	cfg, err := k.Configure(d.settings)
	if err != nil {
		return game.DemoSetup{}, fmt.Errorf("demo: %s: %w", k.Title(), err)
	}
	_, seats := cfg.Seats()
	d.players = demoPlayers[:min(seats, len(demoPlayers))]
	return game.DemoSetup{Game: k.Name(), Title: "Demo " + k.Title(), Settings: d.settings, Players: d.players,
		Headline: func(bots []string) string {
			return fmt.Sprintf("of %s (%s), players %s", k.Title(), cfg.Text(), strings.Join(bots, ", "))
		}}, nil
}

func (d *autopilotDemo) Orders(pos game.Position, seat, turn int, seed int64) (string, bool) {
	if !slices.Contains(pos.Due(), seat) || seat >= len(d.players) {
		return "", false
	}
	m := pos.Autopilot(seat, seed+int64(turn))
	d.mailed = append(d.mailed, d.players[seat]+" mails "+oneLine(m.Text))
	return strings.TrimSpace(m.Text) + "\n", true
}

func (d *autopilotDemo) TurnLine(pos game.Position, events []byte) string {
	line := strings.Join(d.mailed, "; ")
	d.mailed = d.mailed[:0]
	return line
}

func (d *autopilotDemo) End(pos game.Position, turns int) string {
	d.over, d.standings = pos.Over(), nil
	var b strings.Builder
	b.WriteString("STANDINGS\n")
	for _, s := range pos.Standings() {
		name := fmt.Sprintf("seat %d", s.Seat+1)
		if s.Seat >= 0 && s.Seat < len(d.players) {
			name = d.players[s.Seat]
		}
		l := fmt.Sprintf("%d. %s — %s", s.Rank, name, s.Line)
		d.standings = append(d.standings, l)
		fmt.Fprintf(&b, "  %s\n", l)
	}
	if !d.over {
		fmt.Fprintf(&b, "The game had not ended after %d turns.\n", turns)
	}
	return b.String()
}
