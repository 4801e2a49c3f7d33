package judge

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	gomail "github.com/emersion/go-message/mail"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/internal/near"
	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/roborally"
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
	Turns    int    // stop after this many turns if nobody has won; default 20
	DB       string // keep the database here; "" for a temporary one
	SaveMail string // write every mail rallyjudge sent here as .eml
	Out      io.Writer
	Log      *slog.Logger
	// Bot chooses a bot's program and standing orders; nil plays a random legal program.
	Bot func(setup *adjudicator.Setup, st *adjudicator.State, robot int) (program [adjudicator.Registers]int, standing []string)
	// OptionDeck is the game's option deck (adjudicator.OptionDeck); "" for the default
	// (crash-burn).
	OptionDeck string
	// Variants are seed 001's option variants by name, joined by commas
	// (adjudicator.VariantSettings: "deluxe-package,bio-bots"), or under the 2023 rules
	// seed 004's variants ("less-deadly,act-fast"); "" for none.
	Variants string
	// Rules is the ruleset: "" or "postal", or "2023" (seed 004; the course then
	// defaults to docking-run, a 2023 course).
	Rules string
	// Play keeps a seat for a person: the game opens with three bots, waits for a JOIN
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
	Winner  string
	Sent    int // mails rallyjudge sent
	Reports int
	// Uses counts the option cards the robots used (EvUse events), by card.
	Uses map[string]int
}

// UsesOf is the number of uses of the cards of one expansion ("C&B", "A&D").
func (r DemoResult) UsesOf(source string) int {
	n := 0
	for card, k := range r.Uses {
		if c, ok := adjudicator.OptionCardNamed(card); ok && c.Source == source {
			n += k
		}
	}
	return n
}

var demoRobots = []string{"Twonky", "Zoombot", "Hulk", "Spinbot"}

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
	if o.Course == "" {
		o.Course = "sprint"
		if o.Rules == "2023" {
			o.Course = "docking-run"
		}
	}
	if _, err := adjudicator.LoadCourse(o.Course); err != nil && !strings.ContainsAny(o.Course, "/.") {
		// The near courses, and not the game's own words (issue 22: "game demo: course
		// \"sprnt\": no shipped course ...").
		return res, fmt.Errorf("demo: there is no shipped course %q; %s", o.Course, near.Hint(o.Course, adjudicator.Courses(), "courses are"))
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
	users := map[string]string{"judge": "judgepw", "gm": "gmpw", "you": "you"}
	bots := demoRobots
	if o.Play {
		bots = demoRobots[:3]
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
	// the game's settings as CREATE names them (roborally.Kind.Configure reads them)
	settings := map[string]string{"course": o.Course, "missed": "random"}
	spec := GameSpec{
		Tag: "demo", Name: "Demo race", Seed: o.Seed, Settings: settings,
		Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24}, GMEmail: "gm@example.test",
	}
	if o.Rules != "" && o.Rules != "postal" {
		// The 2023 rules (seed 004): Variants are its variants as CREATE names them
		// ("less-deadly,act-fast"), each switched on.
		if o.OptionDeck != "" {
			return res, fmt.Errorf("demo: the %s rules have no option cards (--options)", o.Rules)
		}
		if _, err := adjudicator.RulesByName(o.Rules); err != nil {
			return res, fmt.Errorf("demo: %w", err)
		}
		settings["rules"] = o.Rules
		for _, v := range strings.Split(o.Variants, ",") {
			if v = strings.TrimSpace(v); v == "" {
				continue
			}
			if v != roborally.ActFastKey && roborally.VariantByKey(v) == nil {
				return res, fmt.Errorf("demo: %q is not a variant of the 2023 rules (want lighter, less-deadly, less-spammy, dynamic-archive, act-fast)", v)
			}
			// The demo's game fills a missed program at random (Act Fast) either way.
			settings[v] = "yes"
		}
	} else if o.OptionDeck != "" || o.Variants != "" {
		if o.OptionDeck != "" {
			if _, ok := adjudicator.ParseOptionDeck(o.OptionDeck); !ok {
				return res, fmt.Errorf("demo: option deck %q: want none, crash-burn, armed-dangerous (armed) or both", o.OptionDeck)
			}
			settings["options"] = o.OptionDeck
		}
		kvs, err := adjudicator.VariantSettings(o.Variants)
		if err != nil {
			return res, fmt.Errorf("demo: %v", err)
		}
		if o.Variants != "" {
			settings["variants"] = o.Variants
		}
		if o.OptionDeck != "" && o.OptionDeck != "none" && !slices.ContainsFunc(kvs, func(kv [2]string) bool { return kv[0] == "option_package" }) {
			// A robot draws an option card only ending a turn on a double wrench, which
			// the bots' short races seldom do: with --options alone they held no card
			// and used none (issue 22). The demo deals each robot one card before the
			// game (seed 001's Standard Option Package), so the cards are played.
			settings["rules.option_package"] = "standard"
			fmt.Fprintf(o.Out, "Each robot starts with one option card (the standard-package variant; --variants deluxe-package offers three to choose from).\n")
		}
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
	fmt.Fprintf(o.Out, "rallyjudge demo: game %q on course %s, robots %s\n", spec.Tag, o.Course, strings.Join(bots, ", "))
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
			_ = j.demoSaveMail(o, &res)
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
		g, state, setup, err := j.demoState(ctx)
		if err != nil {
			return res, err
		}
		if g.Status == store.GameOver {
			break
		}
		for i, r := range state.Robots {
			if _, bot := secrets[r.Name]; r.Out || !bot {
				continue // out of the race, or the person's robot
			}
			var prog [adjudicator.Registers]int
			var standing []string
			if o.Bot != nil {
				prog, standing = o.Bot(setup, state, i)
			} else {
				prog = roborally.RandomProgram(setup, state, i, o.Seed+99, turn)
			}
			raw := botSheet(g.Tag, r, turn, secrets[r.Name], prog, standing)
			if err := sender.Send(ctx, strings.ToLower(r.Name)+"@example.test", []string{"judge@example.test"}, raw); err != nil {
				return res, fmt.Errorf("bot %s: %w", r.Name, err)
			}
		}
		if err := waitTurn(ctx, j, turn, turnLimit); err != nil {
			return res, err
		}
		res.Turns = turn
		_, state, _, err = j.demoState(ctx)
		if err != nil {
			return res, err
		}
		if err := j.demoCountUses(ctx, g, &res); err != nil {
			return res, err
		}
		fmt.Fprintf(o.Out, "turn %2d: %s\n", turn, standingsLine(state))
		if state.Over {
			res.Winner = state.Winner
			break
		}
	}
	j.awaitOutbox(ctx) // the last reports go out
	_, state, _, err := j.demoState(ctx)
	if err != nil {
		return res, err
	}
	fmt.Fprintf(o.Out, "\n%s\n", standingsTable(state))
	if len(res.Uses) > 0 {
		cards := make([]string, 0, len(res.Uses))
		for c := range res.Uses {
			cards = append(cards, c)
		}
		sort.Strings(cards)
		var parts []string
		for _, c := range cards {
			parts = append(parts, fmt.Sprintf("%s %d", c, res.Uses[c]))
		}
		what := "Option cards" // a 2023 game's bots use upgrades (seed 004), not option cards
		if o.Rules == "2023" {
			what = "Upgrades"
		}
		fmt.Fprintf(o.Out, "%s used: %s.\n", what, strings.Join(parts, ", "))
	} else if o.OptionDeck != "none" && o.Rules != "2023" {
		// Say so when no card was used (the bug: demo --options crash-burn printed what
		// demo prints, as if the option had done nothing), and what the bots held.
		fmt.Fprintf(o.Out, "Option cards used: none. %s\n", heldOptions(state))
	}
	if res.Winner != "" {
		fmt.Fprintf(o.Out, "%s wins the race.\n", res.Winner)
	} else {
		fmt.Fprintf(o.Out, "No winner after %d turns.\n", res.Turns)
	}
	err = j.demoSaveMail(o, &res)
	saved = true
	if o.Play && err == nil {
		// The person may still be reading the last report: keep the servers up.
		fmt.Fprintf(o.Out, "The mail servers stay up for you to read your mail; press Enter (or Ctrl-C) to stop.\n")
		<-ctx.Done()
	}
	return res, err
}

// demoCountUses adds the option cards used in the game's latest turn to res.Uses: the
// cards' uses and the devices launched.
func (j *Judge) demoCountUses(ctx context.Context, g store.Game, res *DemoResult) error {
	return j.Store.View(ctx, func(tx *store.Tx) error {
		tn, err := tx.LatestTurn(g.ID)
		if err != nil {
			return err
		}
		events, err := roborally.TurnEvents(tn.Events)
		if err != nil {
			return fmt.Errorf("demo: events of turn %d: %w", tn.Number, err)
		}
		// A device laid or launched (a mine, goo, The Big One ...) and a flight (Big
		// Jet, which logs no use of its own) are uses of their card too, unless the
		// card's use was logged already in that register.
		type use struct {
			robot, option string
			register      int
		}
		used := map[use]bool{}
		for _, e := range events {
			if e.Kind == adjudicator.EvUse && e.Option != "" {
				used[use{e.Robot, e.Option, e.Register}] = true
			}
		}
		for _, e := range events {
			counts := e.Kind == adjudicator.EvUse ||
				((e.Kind == adjudicator.EvLaunch || e.Kind == adjudicator.EvFlew) && !used[use{e.Robot, e.Option, e.Register}])
			if counts && e.Option != "" {
				if res.Uses == nil {
					res.Uses = map[string]int{}
				}
				res.Uses[e.Option]++
			}
		}
		return nil
	})
}

func (j *Judge) demoState(ctx context.Context) (store.Game, *adjudicator.State, *adjudicator.Setup, error) {
	var g store.Game
	var state *adjudicator.State
	var setup *adjudicator.Setup
	err := j.Store.View(ctx, func(tx *store.Tx) error {
		var err error
		if g, err = tx.GameByTag("demo"); err != nil {
			return err
		}
		k, err := j.hostedKind(g)
		if err != nil {
			return err
		}
		h, err := j.hostedState(tx, g, k)
		if err != nil {
			return err
		}
		var ok bool
		if state, setup, ok = roborally.Engine(h.pos); !ok { // the bots read the engine's state
			return fmt.Errorf("demo: game %s is not RoboRally", g.Tag)
		}
		return nil
	})
	return g, state, setup, err
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

// botSheet is a bot player's order mail: plain text, as a person would send it.
func botSheet(tag string, r adjudicator.Robot, turn int, secret string, prog [adjudicator.Registers]int, standing []string) []byte {
	var body strings.Builder
	fmt.Fprintf(&body, "Hi judge,\n\n#orders\nrobot %s\nturn %d\nsecret %s\n", r.Name, turn, secret)
	switch {
	case r.Mat != nil: // the 2023 rules: cards by kind, "-" for a register holding a face-down Haywire
		if prog != ([adjudicator.Registers]int{}) { // none when the bot shuts down
			body.WriteString(roborally.OwnProgramText(prog) + "\n")
		}
	case r.Power != adjudicator.PowerDown:
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
		if r.Mat != nil { // the 2023 rules: checkpoints, energy, upgrades
			where := r.Pos.String()
			if r.Destroyed {
				where = "rebooting"
			}
			parts = append(parts, fmt.Sprintf("%s %s cp %d energy %d upgrades %d", r.Name, where, r.Flags, r.Mat.Energy, len(r.Options)))
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
		if r.Mat != nil {
			state = fmt.Sprintf("checkpoints %d, energy %d, upgrades: %s", r.Flags, r.Mat.Energy, listOr(r.Options, "none"))
		}
		if r.Out {
			state = fmt.Sprintf("flags %d, out of the race", r.Flags)
		}
		fmt.Fprintf(&b, "  %d. %-8s %s\n", i+1, r.Name, state)
	}
	return b.String()
}

// demoSaveMail counts the mails the demo sent and writes them to o.SaveMail as .eml.
// It reads on a context of its own: it also runs after an interrupt.
func (j *Judge) demoSaveMail(o DemoOptions, res *DemoResult) error {
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
	return err
}

func listOr(xs []string, none string) string {
	if len(xs) == 0 {
		return none
	}
	return strings.Join(xs, ", ")
}

// heldOptions says which option cards the robots hold at the end of a demo.
func heldOptions(st *adjudicator.State) string {
	var held []string
	for _, r := range st.Robots {
		if len(r.Options) > 0 {
			held = append(held, r.Name+" "+strings.Join(r.Options, ", "))
		}
	}
	if len(held) == 0 {
		return "No robot drew one (a postal robot draws one ending a turn on a double wrench)."
	}
	return "Held at the end: " + strings.Join(held, "; ") + "."
}
