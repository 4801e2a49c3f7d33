package judge

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	gomail "github.com/emersion/go-message/mail"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// The demo: a whole game through the real path with nothing installed. go-imap's
// in-process IMAP server and a go-smtp server run on 127.0.0.1; bot players mail
// their orders over SMTP; the judge reads them by IMAP, stores them, resolves each turn
// behind the game seam and sends the reports through the outbox over SMTP into each
// bot's mailbox.
//
// The judge never asks which game the demo plays: what is the game's own — its
// settings, the orders its bots write, the line printed after each turn and the table
// at the end — comes from a game.Demo the caller hands in (RoboRally's is
// roborally/demobots, wired by cmd/rallyjudge). The loop, the servers, the seat kept
// for a person (--play) and the saved mail (--save-mail) are the judge's, the same for
// every game. A game without a Demo of its own plays RunHostedDemo: the same loop,
// with bots that mail what the position's Autopilot plays (demohosted.go).

// DemoOptions configures RunDemo.
type DemoOptions struct {
	Game     game.Demo // the game and its bots
	Seed     int64
	Turns    int    // stop after this many turns if nobody has won; default 20
	DB       string // keep the database here; "" for a temporary one
	SaveMail string // write every mail rallyjudge sent here as .eml
	Out      io.Writer
	Log      *slog.Logger
	// Games are the games to host (nil: the judge's default).
	Games game.Catalog
	// Play keeps a seat for a person: the game opens with a bot fewer, waits for a JOIN
	// by mail from you@example.test, and then waits for that player's orders each turn,
	// so the player's guide can be followed against the demo's servers.
	Play bool
	// Ready, if set, is told the servers' addresses once they are up.
	Ready func(DemoInfo)
}

// DemoInfo is how to reach the demo's mail servers.
type DemoInfo struct {
	IMAPAddr, SMTPAddr string
	Judge              string // the judge's address: where orders and commands go
	User, Password     string // the person's mailbox in play mode (IMAP login)
	Address            string // the person's address
	Game               string
}

// DemoResult is how the demo game ended.
type DemoResult struct {
	Turns   int
	Winner  string // the seat ranked first alone in a game that is over; "" for none
	Sent    int    // mails rallyjudge sent
	Reports int
}

// RunDemo plays a demo game to the end or the turn limit. Interrupted (ctx cancelled),
// it returns ctx's error, whatever step the interrupt cut short (a transaction rolled
// back under it says "already rolled back", which is no failure of the demo).
func RunDemo(ctx context.Context, o DemoOptions) (DemoResult, error) {
	res, err := runDemo(ctx, o)
	if err != nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	return res, err
}

func runDemo(ctx context.Context, o DemoOptions) (DemoResult, error) {
	var res DemoResult
	if o.Game == nil {
		return res, fmt.Errorf("demo: no game")
	}
	if o.Turns <= 0 {
		o.Turns = 20
	}
	if o.Out == nil {
		o.Out = io.Discard
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	ds, err := o.Game.Setup()
	if err != nil {
		return res, err
	}
	fmt.Fprint(o.Out, ds.Note)
	users := map[string]string{"judge": "judgepw", "gm": "gmpw", "you": "you"}
	bots := ds.Players
	if o.Play {
		bots = bots[:len(bots)-1]
	}
	for _, n := range bots {
		users[strings.ToLower(n)] = strings.ToLower(n) + "pw"
	}
	emb, err := mail.NewEmbedded(mail.EmbeddedConfig{Domain: "example.test", Users: users, Logger: o.Log})
	if err != nil {
		return res, err
	}
	defer emb.Close()
	j, done, err := demoJudge(o.DB, o.Log)
	if err != nil {
		return res, err
	}
	defer done()
	st := j.Store
	if o.Games != nil {
		j.Games = o.Games
	}
	spec := GameSpec{
		Tag: "demo", Name: ds.Title, Kind: ds.Game, Seed: o.Seed, Settings: ds.Settings,
		Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}, GMEmail: "gm@example.test",
	}
	for _, n := range bots {
		spec.Players = append(spec.Players, PlayerSpec{Robot: n, Email: strings.ToLower(n) + "@example.test"})
	}
	var secrets map[string]string
	if o.Play {
		spec.Options.MaxPlayers = len(bots) + 1
		err = st.Tx(ctx, func(tx *store.Tx) error {
			var err error
			_, secrets, err = j.createGameIn(tx, spec)
			return err
		})
	} else {
		secrets, err = j.CreateGame(ctx, spec)
	}
	if err != nil {
		return res, err
	}
	info := DemoInfo{IMAPAddr: emb.IMAPAddr, SMTPAddr: emb.SMTPAddr, Judge: "judge@example.test",
		User: "you", Password: "you", Address: "you@example.test", Game: spec.Tag}
	headline := strings.Join(bots, ", ")
	if ds.Headline != nil {
		headline = ds.Headline(bots)
	}
	fmt.Fprintf(o.Out, "rallyjudge demo: game %q %s\n", spec.Tag, headline)
	fmt.Fprintf(o.Out, "mail servers on 127.0.0.1: IMAP %s, SMTP %s\n\n", emb.IMAPAddr, emb.SMTPAddr)
	if o.Play {
		fmt.Fprintf(o.Out, "A seat is free for you. In your mail program, set up the account\n"+
			"  address  %s\n  IMAP     %s, plain (no TLS), login %q, password %q\n  SMTP     %s, no TLS, no login\n"+
			"then follow docs/players.md: mail \"JOIN %s YourRobot\" to %s, and answer its\n"+
			"reply with the CONFIRM line it gives.\n"+
			"The game starts when you have joined; the bots wait for your orders each turn.\n\n",
			info.Address, info.IMAPAddr, info.User, info.Password, info.SMTPAddr, spec.Tag, info.Judge)
	}
	if o.Ready != nil {
		o.Ready(info)
	}

	stop, sender, err := j.serveDemo(ctx, emb, o.Log)
	if err != nil {
		return res, err
	}
	defer stop()
	// The mails sent are counted and saved (--save-mail) however the demo ends: at the
	// game's end, at the turn limit, or interrupted in --play (the bug: an interrupt
	// saved nothing).
	saved := false
	defer func() {
		if !saved {
			_ = j.demoSaveMail(o.SaveMail, o.Out, &res)
		}
	}()

	if o.Play {
		if err := j.demoAwaitJoin(ctx, spec.Tag, len(bots)+1, secrets); err != nil {
			return res, err
		}
		fmt.Fprintf(o.Out, "you have joined: the game starts\n")
	}
	turnLimit := 60 * time.Second
	if o.Play {
		turnLimit = 24 * time.Hour // a person takes their time
	}
	for turn := 1; turn <= o.Turns; turn++ {
		d, err := j.demoTurn(ctx, false)
		if err != nil {
			return res, err
		}
		if d.g.Status == store.GameOver {
			break
		}
		for _, p := range d.players {
			if _, bot := secrets[p.Robot]; !bot {
				continue // the person's seat
			}
			text, ok := o.Game.Orders(d.h.pos, p.Seat, turn, o.Seed)
			if !ok {
				continue // out of the game
			}
			raw := botSheet(d.g.Tag, p.Robot, turn, secrets[p.Robot], text)
			if err := sender.Send(ctx, strings.ToLower(p.Robot)+"@example.test", []string{"judge@example.test"}, raw); err != nil {
				return res, fmt.Errorf("bot %s: %w", p.Robot, err)
			}
		}
		if err := waitTurn(ctx, j, turn, turnLimit); err != nil {
			return res, err
		}
		res.Turns = turn
		if d, err = j.demoTurn(ctx, true); err != nil {
			return res, err
		}
		fmt.Fprintf(o.Out, "turn %2d: %s\n", turn, o.Game.TurnLine(d.h.pos, d.events))
		if d.h.pos.Over() {
			res.Winner = demoWinner(d)
			break
		}
	}
	j.awaitOutbox(ctx) // the last reports go out
	d, err := j.demoTurn(ctx, false)
	if err != nil {
		return res, err
	}
	fmt.Fprintf(o.Out, "\n%s", o.Game.End(d.h.pos, res.Turns))
	err = j.demoSaveMail(o.SaveMail, o.Out, &res)
	saved = true
	if o.Play && err == nil {
		// The person may still be reading the last report: keep the servers up.
		fmt.Fprintf(o.Out, "The mail servers stay up for you to read your mail; press Enter (or Ctrl-C) to stop.\n")
		<-ctx.Done()
	}
	return res, err
}

// demoNow is the demo game as it stands: its row, its players in seat order, its
// position and, asked for, the events of its latest turn.
type demoNow struct {
	g       store.Game
	players []store.Player
	h       hosted
	events  []byte
}

func (j *Judge) demoTurn(ctx context.Context, events bool) (demoNow, error) {
	var d demoNow
	err := j.Store.View(ctx, func(tx *store.Tx) error {
		var err error
		if d.g, err = tx.GameByTag("demo"); err != nil {
			return err
		}
		k, err := j.hostedKind(d.g)
		if err != nil {
			return err
		}
		if d.h, err = j.hostedState(tx, d.g, k); err != nil {
			return err
		}
		if d.players, err = tx.Players(d.g.ID); err != nil {
			return err
		}
		sort.SliceStable(d.players, func(a, b int) bool { return d.players[a].Seat < d.players[b].Seat })
		if events {
			tn, err := tx.LatestTurn(d.g.ID)
			if err != nil {
				return err
			}
			d.events = tn.Events
		}
		return nil
	})
	return d, err
}

// demoWinner is the name of the seat ranked first alone; "" when first place is shared
// or nobody holds it.
func demoWinner(d demoNow) string {
	var first []game.Standing
	for _, s := range d.h.pos.Standings() {
		if s.Rank == 1 {
			first = append(first, s)
		}
	}
	if len(first) != 1 {
		return ""
	}
	if p := playerAt(d.players, first[0].Seat); p != nil {
		return p.Robot
	}
	return ""
}

// demoAwaitJoin waits for the person's JOIN, then starts the game as its master would.
func (j *Judge) demoAwaitJoin(ctx context.Context, tag string, seats int, secrets map[string]string) error {
	for {
		var n int
		if err := j.Store.View(ctx, func(tx *store.Tx) error {
			g, err := tx.GameByTag(tag)
			if err != nil {
				return err
			}
			ps, err := tx.Players(g.ID)
			n = len(ps)
			return err
		}); err != nil {
			return err
		}
		if n >= seats {
			return j.Store.Tx(ctx, func(tx *store.Tx) error {
				g, err := tx.GameByTag(tag)
				if err != nil {
					return err
				}
				return j.startGameIn(tx, g, secrets)
			})
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func waitTurn(ctx context.Context, j *Judge, turn int, limit time.Duration) error {
	end := time.Now().Add(limit)
	for time.Now().Before(end) {
		var g store.Game
		if err := j.Store.View(ctx, func(tx *store.Tx) error {
			var err error
			g, err = tx.GameByTag("demo")
			return err
		}); err != nil {
			return err
		}
		if g.CurrentTurn > turn || g.Status == store.GameOver {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	return fmt.Errorf("demo: turn %d was not resolved within %v", turn, limit)
}

// botSheet is a bot player's order mail: plain text, as a person would send it, the
// game's order lines (text) in the judge's envelope.
func botSheet(tag, name string, turn int, secret, text string) []byte {
	var body strings.Builder
	fmt.Fprintf(&body, "Hi judge,\n\n#orders\nrobot %s\nturn %d\nsecret %s\n", name, turn, secret)
	body.WriteString(text)
	body.WriteString("#end\n\n-- \n" + name + "'s owner\n")
	var h gomail.Header
	h.SetDate(time.Now())
	h.SetAddressList("From", []*gomail.Address{{Name: name, Address: strings.ToLower(name) + "@example.test"}})
	h.SetAddressList("To", []*gomail.Address{{Address: "judge@example.test"}})
	h.SetSubject(fmt.Sprintf("[RR %s] orders for turn %d", tag, turn))
	h.SetMessageID(fmt.Sprintf("orders.%s.%d.%s@example.test", tag, turn, strings.ToLower(name)))
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

// demoSaveMail counts the mails the demo sent and writes them to o.SaveMail as .eml.
// It reads on a context of its own: it also runs after an interrupt.
func (j *Judge) demoSaveMail(dir string, out io.Writer, res *DemoResult) error {
	res.Sent, res.Reports = 0, 0
	err := j.Store.View(context.Background(), func(tx *store.Tx) error {
		ms, err := tx.OutboxAll() // every mail: the replies to LIST or HELP have no game (the bug: they were not saved)
		if err != nil {
			return err
		}
		for _, m := range ms {
			if m.Status != store.OutboxSent {
				continue
			}
			res.Sent++
			if m.Kind == "report" {
				res.Reports++
			}
			if dir != "" {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					return err
				}
				name := fmt.Sprintf("%04d-%s-%s.eml", m.ID, m.Kind, strings.SplitN(m.To[0], "@", 2)[0])
				if err := os.WriteFile(filepath.Join(dir, name), m.Raw, 0o644); err != nil {
					return err
				}
			}
		}
		return nil
	})
	fmt.Fprintf(out, "rallyjudge sent %d mails (%d turn reports).\n", res.Sent, res.Reports)
	if dir != "" {
		fmt.Fprintf(out, "mails saved in %s\n", dir)
	}
	return err
}
