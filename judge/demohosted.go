package judge

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	gomail "github.com/emersion/go-message/mail"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// The demo of a game behind the seam: the same real path as RunDemo (go-imap's and
// go-smtp's servers in-process on 127.0.0.1, the judge reading by IMAP and sending
// through its outbox), with bot players who mail, when their move is due, the move the
// game's autopilot picks for them, written in the game's own words.

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

// RunHostedDemo plays a demo game of a hosted game to its end or the turn limit.
func RunHostedDemo(ctx context.Context, o HostedDemoOptions) (HostedDemoResult, error) {
	res, err := runHostedDemo(ctx, o)
	if err != nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	return res, err
}

func runHostedDemo(ctx context.Context, o HostedDemoOptions) (HostedDemoResult, error) {
	var res HostedDemoResult
	if o.Turns <= 0 {
		o.Turns = 500
	}
	if o.Out == nil {
		o.Out = io.Discard
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	j, done, err := demoJudge(o.DB, o.Log)
	if err != nil {
		return res, err
	}
	defer done()
	st := j.Store
	if o.Games != nil {
		j.Games = o.Games
	}
	k, err := j.Games.Lookup(o.Game)
	if err != nil {
		return res, fmt.Errorf("demo: %w", err)
	}
	cfg, err := k.Configure(o.Settings)
	if err != nil {
		return res, fmt.Errorf("demo: %s: %w", k.Title(), err)
	}
	raw, err := cfg.Encode()
	if err != nil {
		return res, err
	}
	_, seats := cfg.Seats()
	players := demoPlayers[:min(seats, len(demoPlayers))]
	users := map[string]string{"judge": "judgepw", "gm": "gmpw"}
	for _, n := range players {
		users[strings.ToLower(n)] = strings.ToLower(n) + "pw"
	}
	emb, err := mail.NewEmbedded(mail.EmbeddedConfig{Domain: "example.test", Users: users, Logger: o.Log})
	if err != nil {
		return res, err
	}
	defer emb.Close()
	spec := GameSpec{Tag: "demo", Name: "Demo " + k.Title(), Kind: k.Name(), Config: raw, Seed: o.Seed,
		GMEmail:  "gm@example.test",
		Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}}
	for _, n := range players {
		spec.Players = append(spec.Players, PlayerSpec{Robot: n, Email: strings.ToLower(n) + "@example.test"})
	}
	secrets, err := j.CreateGame(ctx, spec)
	if err != nil {
		return res, err
	}
	fmt.Fprintf(o.Out, "rallyjudge demo: game %q, %s (%s), players %s\n", spec.Tag, k.Title(), cfg.Text(), strings.Join(players, ", "))
	fmt.Fprintf(o.Out, "mail servers on 127.0.0.1: IMAP %s, SMTP %s\n\n", emb.IMAPAddr, emb.SMTPAddr)

	stop, sender, err := j.serveDemo(ctx, emb, o.Log)
	if err != nil {
		return res, err
	}
	defer stop()

	var h hosted
	for turn := 1; turn <= o.Turns; turn++ {
		g, cur, err := j.demoHosted(ctx, k)
		if err != nil {
			return res, err
		}
		h = cur
		if g.Status == store.GameOver || h.pos.Over() {
			break
		}
		for _, seat := range h.pos.Due() {
			name := players[seat]
			m := h.pos.Autopilot(seat, o.Seed+int64(turn))
			raw := hostedBotMail(g.Tag, name, turn, secrets[name], m.Text)
			if err := sender.Send(ctx, strings.ToLower(name)+"@example.test", []string{"judge@example.test"}, raw); err != nil {
				return res, fmt.Errorf("bot %s: %w", name, err)
			}
			fmt.Fprintf(o.Out, "turn %3d: %s mails %s\n", turn, name, oneLine(m.Text))
		}
		if err := waitTurn(ctx, j, turn, 60*time.Second); err != nil {
			return res, err
		}
		res.Turns = turn
	}
	_, h, err = j.demoHosted(ctx, k)
	if err != nil {
		return res, err
	}
	j.awaitOutbox(ctx) // the last reports go out
	var ps []store.Player
	_ = st.View(ctx, func(tx *store.Tx) error {
		g, err := tx.GameByTag("demo")
		if err != nil {
			return err
		}
		ps, err = tx.Players(g.ID)
		return err
	})
	res.Over, res.Standings = h.pos.Over(), hostedStandings(h, ps)
	fmt.Fprintf(o.Out, "\nSTANDINGS\n")
	for _, l := range res.Standings {
		fmt.Fprintf(o.Out, "  %s\n", l)
	}
	if !res.Over {
		fmt.Fprintf(o.Out, "The game had not ended after %d turns.\n", res.Turns)
	}
	var dr DemoResult
	err = j.demoSaveMail(o.SaveMail, o.Out, &dr)
	res.Sent, res.Reports = dr.Sent, dr.Reports
	return res, err
}

// demoHosted is the demo game and its position.
func (j *Judge) demoHosted(ctx context.Context, k game.Kind) (store.Game, hosted, error) {
	var g store.Game
	var h hosted
	err := j.Store.View(ctx, func(tx *store.Tx) error {
		var err error
		if g, err = tx.GameByTag("demo"); err != nil {
			return err
		}
		h, err = j.hostedState(tx, g, k)
		return err
	})
	return g, h, err
}

// hostedBotMail is a bot player's move as a person would mail it.
func hostedBotMail(tag, name string, turn int, secret, move string) []byte {
	var body strings.Builder
	fmt.Fprintf(&body, "game %s\nplayer %s\nturn %d\nsecret %s\n%s\n", tag, name, turn, secret, strings.TrimSpace(move))
	var h gomail.Header
	h.SetDate(time.Now())
	h.SetAddressList("From", []*gomail.Address{{Name: name, Address: strings.ToLower(name) + "@example.test"}})
	h.SetAddressList("To", []*gomail.Address{{Address: "judge@example.test"}})
	h.SetSubject(fmt.Sprintf("[RR %s] my move, turn %d", tag, turn))
	h.SetMessageID(fmt.Sprintf("move.%s.%d.%s@example.test", tag, turn, strings.ToLower(name)))
	h.SetContentType("text/plain", map[string]string{"charset": "utf-8"})
	var buf bytes.Buffer
	w, err := gomail.CreateSingleInlineWriter(&buf, h)
	if err != nil {
		return nil
	}
	io.WriteString(w, body.String())
	w.Close()
	return buf.Bytes()
}
