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

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// The demo: a whole game through the real path with nothing installed. go-imap's
// in-process IMAP server and a go-smtp server run on 127.0.0.1; four bot players mail
// their orders over SMTP; the judge reads them by IMAP, stores them, resolves each turn
// in the engine and sends the reports through the outbox over SMTP into each bot's
// mailbox.

// DemoOptions configures RunDemo.
type DemoOptions struct {
	Course   string // a shipped course; default "sprint"
	Seed     int64
	Turns    int    // stop after this many turns if nobody has won; default 10
	DB       string // keep the database here; "" for a temporary one
	SaveMail string // write every mail rallyjudge sent here as .eml
	Out      io.Writer
	Log      *slog.Logger
	// Bot chooses a bot's program and standing orders; nil plays a random legal program.
	Bot func(setup *adjudicator.Setup, st *adjudicator.State, robot int) (program [adjudicator.Registers]int, standing []string)
}

// DemoResult is how the demo game ended.
type DemoResult struct {
	Turns   int
	Winner  string
	Sent    int // mails rallyjudge sent
	Reports int
}

var demoRobots = []string{"Twonky", "Zoombot", "Hulk", "Spinbot"}

// RunDemo plays a demo game to the end or the turn limit.
func RunDemo(ctx context.Context, o DemoOptions) (DemoResult, error) {
	var res DemoResult
	if o.Course == "" {
		o.Course = "sprint"
	}
	if o.Turns <= 0 {
		o.Turns = 10
	}
	if o.Out == nil {
		o.Out = io.Discard
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	users := map[string]string{"judge": "judgepw", "gm": "gmpw"}
	for _, n := range demoRobots {
		users[strings.ToLower(n)] = strings.ToLower(n) + "pw"
	}
	emb, err := mail.NewEmbedded(mail.EmbeddedConfig{Domain: "example.test", Users: users, Logger: o.Log})
	if err != nil {
		return res, err
	}
	defer emb.Close()
	dbPath := o.DB
	if dbPath == "" {
		dir, err := os.MkdirTemp("", "rallyjudge-demo-")
		if err != nil {
			return res, err
		}
		defer os.RemoveAll(dir)
		dbPath = filepath.Join(dir, "demo.db")
	}
	st, err := store.OpenWith(dbPath, store.Options{Sync: store.SyncNormal})
	if err != nil {
		return res, err
	}
	defer st.Close()
	j, err := New(st, "judge@example.test", o.Log)
	if err != nil {
		return res, err
	}
	j.Name = "rallyjudge demo"
	spec := GameSpec{
		Tag: "demo", Name: "Demo race", Course: o.Course, Seed: o.Seed, Missed: store.MissedRandom,
		Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}, GMEmail: "gm@example.test",
	}
	for _, n := range demoRobots {
		spec.Players = append(spec.Players, PlayerSpec{Robot: n, Email: strings.ToLower(n) + "@example.test"})
	}
	secrets, err := j.CreateGame(ctx, spec)
	if err != nil {
		return res, err
	}
	fmt.Fprintf(o.Out, "rallyjudge demo: game %q on course %s, robots %s\n", spec.Tag, o.Course, strings.Join(demoRobots, ", "))
	fmt.Fprintf(o.Out, "mail servers on 127.0.0.1: IMAP %s, SMTP %s\n\n", emb.IMAPAddr, emb.SMTPAddr)

	fetcher, err := mail.NewFetcher(mail.FetcherConfig{Addr: emb.IMAPAddr, TLS: "plain", Username: "judge", Password: "judgepw",
		After: "flag", IdleTimeout: 2 * time.Second, PollInterval: 500 * time.Millisecond, MinBackoff: 100 * time.Millisecond, Logger: o.Log})
	if err != nil {
		return res, err
	}
	sender, err := mail.NewSender(mail.SenderConfig{Addr: emb.SMTPAddr, TLS: "none", Logger: o.Log})
	if err != nil {
		return res, err
	}
	sctx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() {
		served <- j.Serve(sctx, Loops{Fetcher: fetcher, Mailbox: "INBOX", Sender: sender, Tick: 200 * time.Millisecond})
	}()
	defer func() { stop(); <-served }()

	for turn := 1; turn <= o.Turns; turn++ {
		g, state, setup, err := j.demoState(ctx)
		if err != nil {
			return res, err
		}
		if g.Status == store.GameOver {
			break
		}
		for i, r := range state.Robots {
			if r.Out {
				continue
			}
			var prog [adjudicator.Registers]int
			var standing []string
			if o.Bot != nil {
				prog, standing = o.Bot(setup, state, i)
			} else {
				prog = RandomProgram(setup, state, i, o.Seed+99, turn)
			}
			raw := botSheet(g.Tag, r, turn, secrets[r.Name], prog, standing)
			if err := sender.Send(ctx, strings.ToLower(r.Name)+"@example.test", []string{"judge@example.test"}, raw); err != nil {
				return res, fmt.Errorf("bot %s: %w", r.Name, err)
			}
		}
		if err := waitTurn(ctx, j, turn, 60*time.Second); err != nil {
			return res, err
		}
		res.Turns = turn
		_, state, _, err = j.demoState(ctx)
		if err != nil {
			return res, err
		}
		fmt.Fprintf(o.Out, "turn %2d: %s\n", turn, standingsLine(state))
		if state.Over {
			res.Winner = state.Winner
			break
		}
	}
	// Let the last reports go out.
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		var pending int
		_ = st.View(ctx, func(tx *store.Tx) error {
			due, err := tx.DuePending(j.now().Add(time.Hour), 1000)
			pending = len(due)
			return err
		})
		if pending == 0 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	_, state, _, err := j.demoState(ctx)
	if err != nil {
		return res, err
	}
	fmt.Fprintf(o.Out, "\n%s\n", standingsTable(state))
	if res.Winner != "" {
		fmt.Fprintf(o.Out, "%s wins the race.\n", res.Winner)
	} else {
		fmt.Fprintf(o.Out, "No winner after %d turns.\n", res.Turns)
	}
	err = st.View(ctx, func(tx *store.Tx) error {
		ms, err := tx.OutboxByGame(1, -1)
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
			if o.SaveMail != "" {
				if err := os.MkdirAll(o.SaveMail, 0o755); err != nil {
					return err
				}
				name := fmt.Sprintf("%04d-%s-%s.eml", m.ID, m.Kind, strings.SplitN(m.To[0], "@", 2)[0])
				if err := os.WriteFile(filepath.Join(o.SaveMail, name), m.Raw, 0o644); err != nil {
					return err
				}
			}
		}
		return nil
	})
	fmt.Fprintf(o.Out, "rallyjudge sent %d mails (%d turn reports).\n", res.Sent, res.Reports)
	if o.SaveMail != "" {
		fmt.Fprintf(o.Out, "mails saved in %s\n", o.SaveMail)
	}
	return res, err
}

func (j *Judge) demoState(ctx context.Context) (store.Game, *adjudicator.State, *adjudicator.Setup, error) {
	var g store.Game
	var state *adjudicator.State
	err := j.Store.View(ctx, func(tx *store.Tx) error {
		var err error
		if g, err = tx.GameByTag("demo"); err != nil {
			return err
		}
		state, _, err = stateOf(tx, g)
		return err
	})
	if err != nil {
		return g, nil, nil, err
	}
	setup, err := j.setupFor(g)
	return g, state, setup, err
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

// botSheet is a bot player's order mail: plain text, as a person would send it.
func botSheet(tag string, r adjudicator.Robot, turn int, secret string, prog [adjudicator.Registers]int, standing []string) []byte {
	var body strings.Builder
	fmt.Fprintf(&body, "Hi judge,\n\n#orders\nrobot %s\nturn %d\nsecret %s\n", r.Name, turn, secret)
	if r.Power != adjudicator.PowerDown {
		for _, p := range prog {
			if p == 0 {
				fmt.Fprintf(&body, "locked\n")
			} else {
				fmt.Fprintf(&body, "P%d\n", p)
			}
		}
	}
	for _, s := range standing {
		body.WriteString(s + "\n")
	}
	body.WriteString("#end\n\n-- \n" + r.Name + "'s owner\n")
	var h gomail.Header
	h.SetDate(time.Now())
	h.SetAddressList("From", []*gomail.Address{{Name: r.Name, Address: strings.ToLower(r.Name) + "@example.test"}})
	h.SetAddressList("To", []*gomail.Address{{Address: "judge@example.test"}})
	h.SetSubject(fmt.Sprintf("[RR %s] orders for turn %d", tag, turn))
	h.SetMessageID(fmt.Sprintf("orders.%s.%d.%s@example.test", tag, turn, strings.ToLower(r.Name)))
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

func standingsLine(st *adjudicator.State) string {
	var parts []string
	for _, r := range st.Robots {
		if r.Out {
			parts = append(parts, r.Name+" out")
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %v flags %d dmg %d", r.Name, r.Pos, r.Flags, r.Damage))
	}
	return strings.Join(parts, " | ")
}

func standingsTable(st *adjudicator.State) string {
	rs := append([]adjudicator.Robot(nil), st.Robots...)
	sort.SliceStable(rs, func(a, b int) bool {
		if rs[a].Name == st.Winner || rs[b].Name == st.Winner {
			return rs[a].Name == st.Winner
		}
		if rs[a].Flags != rs[b].Flags {
			return rs[a].Flags > rs[b].Flags
		}
		return rs[a].Lives > rs[b].Lives
	})
	var b strings.Builder
	b.WriteString("STANDINGS\n")
	for i, r := range rs {
		state := fmt.Sprintf("flags %d, lives %d, damage %d", r.Flags, r.Lives, r.Damage)
		if r.Out {
			state = fmt.Sprintf("flags %d, out of the race", r.Flags)
		}
		fmt.Fprintf(&b, "  %d. %-8s %s\n", i+1, r.Name, state)
	}
	return b.String()
}
