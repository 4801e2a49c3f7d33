package judge

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/internal/parallel"
	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/orders"
	"github.com/rallyjudge/rallyjudge/picture"
	"github.com/rallyjudge/rallyjudge/roborally"
	"github.com/rallyjudge/rallyjudge/roborally/narrate"
	"github.com/rallyjudge/rallyjudge/store"
)

// The mails a turn produces: every player's report, and the welcome that opens a game.
//
// A report is multipart/alternative: the text part (roborally/narrate/files/report.txt.tmpl)
// with the board as text, and an HTML part (report.html.tmpl) showing the same and, for
// players who have not switched pictures off (store.Tx.SetPlayerPictures), the floor at
// the end of the turn (PNG) and the turn step by step (animated GIF) as inline parts.
// In a game with a mailing list the public part (board, events, robots) goes once to
// the list and each player gets only the private part (hand, standing orders, sheet),
// as a reply to it. Every report threads under the game's root Message-ID.

// reportPictures are one turn's pictures, drawn once for all its reports.
type reportPictures struct {
	inline []mail.Inline
	refs   *narrate.Pictures
	// you draws a player's own copy, their robot ringed (nil: none can be drawn)
	you func(robot string) *reportPictures
	// later, when set, stands for pictures drawn after the turn's commit
	// (reportpictures.go): a report given it is stored without them, marked to await
	// them.
	later *pictureJob
	// lazy encodes, by the index in inline, a shared picture not encoded yet: when every
	// report is a reader's own copy the shared PNGs are not needed (turnPictures).
	lazy map[int]*lazyPicture
}

// lazyPicture is a picture encoded when first needed.
type lazyPicture struct {
	once   sync.Once
	data   []byte
	encode func() []byte
}

func (l *lazyPicture) get() []byte {
	l.once.Do(func() { l.data = l.encode() })
	return l.data
}

// complete is p with every picture encoded (the same p when nothing was left to encode).
func (p *reportPictures) complete() *reportPictures {
	if len(p.lazy) == 0 {
		return p
	}
	c := *p
	c.inline = slices.Clone(p.inline)
	c.lazy = nil
	var keep []mail.Inline
	for i := range c.inline {
		if l := p.lazy[i]; l != nil {
			c.inline[i].Data = l.get()
		}
		if c.inline[i].Data != nil {
			keep = append(keep, c.inline[i])
		}
	}
	c.inline = keep
	return &c
}

// turnPictures draws the floor at the end of the turn and the turn's GIF (from the
// robots as the turn began, before, replayed from the event log; nil before: no GIF).
// A picture that cannot be drawn is left out and logged: a report is never held up by
// its pictures. It runs after the turn's commit (reportpictures.go), so it reads
// nothing of the store. Without shared, no report takes the pictures drawn for
// everyone, only readers' own copies (yourpictures.go): the shared PNGs are encoded
// only if a copy needs one (complete).
func (j *Judge) turnPictures(g store.Game, setup *adjudicator.Setup, before, next *adjudicator.State,
	events []adjudicator.Event, turn int, shared bool) *reportPictures {
	opt := picture.Options{Cell: 28, Deck: setup.Deck, Turn: turn}
	still := opt
	still.Caption = fmt.Sprintf("%s (%s) after turn %d", g.Tag, g.Course, turn)
	still.Devices = next.Devices
	var frames []picture.Frame
	var regs []picture.RegisterFrame
	var anim *picture.Animation
	var animErr error
	// The turn's animation and stills are drawn beside the board (two cores at work):
	// the GIF is the largest part of the work.
	var wg sync.WaitGroup
	var panicked any
	if before != nil {
		opt.Devices = before.Devices
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { panicked = recover() }() // raised again below, in the caller
			frames, regs = picture.TurnStory(setup.Course, before.Robots, events, opt)
			anim, animErr = picture.EncodeAnimation(frames, opt) // readers' copies reuse its frames
		}()
	}
	boardFrame := picture.CourseFrame(setup.Course, next.Robots, still)
	board := boardFrame.Image
	p := &reportPictures{refs: &narrate.Pictures{BoardCID: j.pictureID("board", g.Tag, turn),
		Width: board.Rect.Dx(), Height: board.Rect.Dy()}, lazy: map[int]*lazyPicture{}}
	// add adds a PNG of f, encoded now, or when first needed (without shared): a
	// picture.Still, whose readers' copies (yourpictures.go) encode only their ring's
	// rows again
	stills := map[string]*picture.Still{}
	add := func(cid, name string, f picture.Frame) {
		stills[cid] = picture.NewStill(f)
		l := &lazyPicture{encode: func() []byte {
			if !j.picturesInTx {
				return stills[cid].Bytes()
			}
			var b bytes.Buffer
			if err := j.encodePNG(&b, f.Image); err != nil {
				j.Log.Warn("report picture", "game", g.Tag, "turn", turn, "picture", name, "err", err)
				return nil
			}
			return b.Bytes()
		}}
		p.lazy[len(p.inline)] = l
		p.inline = append(p.inline, mail.Inline{ContentID: cid, ContentType: "image/png", Filename: name})
	}
	add(p.refs.BoardCID, fmt.Sprintf("%s-turn-%d.png", g.Tag, turn), boardFrame)
	wg.Wait()
	if panicked != nil {
		panic(panicked)
	}
	if before != nil {
		p.refs.Stills = nil
		for _, r := range regs {
			cid := j.pictureID(fmt.Sprintf("reg%d", r.Register), g.Tag, turn)
			caption := fmt.Sprintf("After register %d", r.Register) // and the cards played, in order
			if _, cards, ok := strings.Cut(r.Caption, " — "); ok {
				caption += ": " + cards
			}
			p.refs.Stills = append(p.refs.Stills, narrate.Still{CID: cid, Caption: caption})
			add(cid, fmt.Sprintf("%s-turn-%d-register-%d.png", g.Tag, turn, r.Register), r.Frame)
		}
		p.you = j.yourPictures(p, g, turn, boardFrame, regs, anim, stills) // yourpictures.go
		if animErr == nil {
			p.refs.TurnCID = j.pictureID("turn", g.Tag, turn)
			p.inline = append(p.inline, mail.Inline{ContentID: p.refs.TurnCID, ContentType: "image/gif",
				Filename: fmt.Sprintf("%s-turn-%d.gif", g.Tag, turn), Data: anim.Bytes()})
		} else {
			j.Log.Warn("report animation", "game", g.Tag, "turn", turn, "err", animErr)
		}
	}
	if shared {
		lazy := p.lazy
		parallel.Do(len(p.inline), func(i int) {
			if l := lazy[i]; l != nil {
				l.get()
			}
		})
		p = p.complete()
	}
	return p
}

// enqueueReports writes every player's report of the turn just resolved (and, in a
// mailing-list game, the public report to the list).
func (j *Judge) enqueueReports(tx *store.Tx, g store.Game, setup *adjudicator.Setup, next *adjudicator.State,
	events []adjudicator.Event, players []store.Player, standing map[string]*orders.Sheet, deadline time.Time, notes []string) error {
	turn := g.CurrentTurn // the turn just resolved (a won game stops before next.Turn moves on)
	over := next.Over || !inRace(next)
	sections := narrate.Narrate(setup.Deck, events)
	if len(notes) > 0 {
		sections = append([]narrate.Section{{Title: "Missed orders", Lines: notes}}, sections...)
	}
	base := narrate.Report{
		Game: g.Tag, Course: g.Course, Turn: turn, NextTurn: turn + 1,
		Board: adjudicator.RenderState(setup.Course, next), Legend: adjudicator.RenderReportLegend(setup.Course, next),
		Sections: sections, Robots: narrate.StatusOf(setup.Deck, next), Piles: narrate.PileLines(next),
		Deadline: deadlineText(deadline), Winner: next.Winner, Over: over,
		Replay: fmt.Sprintf("The whole game as a page that plays it turn by turn: send HISTORY REPLAY to %s\n"+
			"(with [RR %s] in the subject and your secret) and it comes as an attachment.", j.Address, g.Tag),
	}
	for i := range base.Robots {
		base.Robots[i].Lighter = setup.Rules.Lighter
	}
	if over {
		base.Standings = narrate.StandingsOf(next)
	}
	gen, err := tx.VoidTurns(g.ID, turn)
	if err != nil {
		return err
	}
	pics := j.laterPictures(g, turn) // drawn after the commit (reportpictures.go)
	if j.picturesInTx {              // as before issue 24 item 3, for BenchmarkLastOrderToSMTP's comparison
		before, err := turnBefore(tx, g.ID, turn)
		if err != nil {
			return err
		}
		pics = j.turnPictures(g, setup, before, next, events, turn, true)
	}
	picturesOff, err := tx.PicturesOff(g.ID)
	if err != nil {
		return err
	}
	root := j.gameRoot(g.Tag)
	// A turn resolved again after a ROLLBACK says so in its subject, so it is not
	// mistaken for the voided report of the same turn.
	again := ""
	if gen > 0 {
		again = " (resolved again)"
	}
	what := func(name string) string {
		if over {
			return fmt.Sprintf("Turn %d%s: game over", turn, again)
		}
		if name == "" {
			return fmt.Sprintf("Turn %d report%s", turn, again)
		}
		return fmt.Sprintf("Turn %d report for %s%s", turn, name, again)
	}
	parent, refs := root, []string{root}
	if g.ListAddress != "" {
		rep := base
		rep.Part = narrate.PartPublic
		m, err := j.reportMail(rep, pics)
		if err != nil {
			return err
		}
		m.kind, m.gameID, m.turn, m.to, m.subject = "report", g.ID, turn, g.ListAddress, subject(g.Tag, what(""))
		m.messageID, m.inReplyTo, m.refs = j.reportIDGen(g.Tag, turn, gen, "list"), root, refs
		if err := j.enqueue(tx, m); err != nil {
			return err
		}
		parent, refs = m.messageID, []string{root, m.messageID}
	}
	if err := j.enqueuePublicCopies(tx, g, base, pics, gen, subject(g.Tag, what(""))); err != nil {
		return err
	}
	for _, p := range players {
		if p.Seat < 0 || p.Seat >= len(next.Robots) {
			continue
		}
		r := next.Robots[p.Seat]
		hand, locked := narrate.HandOf(setup.Deck, r)
		lines := standingLines(standing[r.Name])
		rep := base
		rep.Player, rep.PlayerOut = r.Name, r.Out
		rep.Hand, rep.Locked, rep.Down, rep.Standing = hand, locked, r.Power == adjudicator.PowerDown, lines
		rep.NewOptions = narrate.NewOptionsOf(events, r)
		rep.Sheet = narrate.SheetFor(g.Tag, r, turn+1, lines)
		rep.Mat = narrate.MatOf(next, r, setup.Rules.Lighter)
		if !over {
			rep.Deadline = deadlineIn(deadline, p.Timezone)
		}
		pp := pics
		if g.ListAddress != "" {
			rep.Part, rep.List = narrate.PartPrivate, g.ListAddress
			pp = nil // the pictures went to the list
		} else if picturesOff[p.ID] {
			pp = nil
		} else if pp != nil && pp.you != nil {
			pp = pp.you(r.Name) // the reader's robot ringed
		}
		m, err := j.reportMail(rep, pp)
		if err != nil {
			return err
		}
		m.kind, m.gameID, m.turn, m.to, m.subject = "report", g.ID, turn, p.Email, subject(g.Tag, what(r.Name))
		m.messageID, m.inReplyTo, m.refs = j.reportIDGen(g.Tag, turn, gen, fmt.Sprintf("s%d", p.Seat)), parent, refs
		if g.ListAddress == "" {
			// Each player's reports thread under the welcome that player received (the
			// game's root id is never sent itself, so it cannot be the visible parent).
			welcome := j.reportID(g.Tag, 0, p.Seat)
			m.inReplyTo, m.refs = welcome, []string{root, welcome}
		}
		if err := j.enqueue(tx, m); err != nil {
			return err
		}
	}
	return nil
}

// reportMail renders a report's text and HTML parts, with the pictures when pics is
// not nil.
func (j *Judge) reportMail(rep narrate.Report, pics *reportPictures) (outMail, error) {
	var m outMail
	if pics != nil && pics.later != nil {
		job := *pics.later
		job.Report = rep
		m.later = &job
	} else if pics != nil {
		rep.Pictures = pics.refs
		m.inline = pics.inline
	}
	var err error
	if m.text, err = j.ownRoboRally().Text("report.txt.tmpl", rep); err != nil {
		return m, err
	}
	if m.html, err = j.ownRoboRally().HTML("report.html.tmpl", rep); err != nil {
		return m, err
	}
	m.generated = true
	return m, nil
}

// effectiveSheet is what a robot plays this turn: the program of its latest valid
// sheet for the turn, and its standing orders from earlier turns with this turn's
// orders merged over them (orders.Merge: the newer answer to a decision wins). Standing
// orders stay in force from turn to turn until a sheet replaces them.
func effectiveSheet(standing *orders.Sheet, sheets map[string]*orders.Sheet, robot string) *orders.Sheet {
	s := sheets[robot]
	if s == nil {
		return standing
	}
	rulesOnly := *s
	rulesOnly.Program = nil
	merged := orders.Merge(standing, &rulesOnly)
	eff := *s
	eff.Rules = merged.Rules
	return &eff
}

func standingLines(s *orders.Sheet) []string {
	if s == nil {
		return nil
	}
	var out []string
	for _, r := range s.Rules {
		out = append(out, ruleText(r))
	}
	return out
}

func ruleText(r orders.Rule) string {
	return r.String()
}

// enqueueWelcome mails each player their secret, their robot and the first hand.
// secrets has, by robot, the player's new plain secret or joinedSecret; a plain secret
// goes in at send time (secretslots.go), never into the stored mail.
func (j *Judge) enqueueWelcome(tx *store.Tx, g store.Game, setup *adjudicator.Setup, st *adjudicator.State, secrets map[string]string) error {
	players, err := tx.Players(g.ID)
	if err != nil {
		return err
	}
	board := adjudicator.RenderState(setup.Course, st)
	legend := adjudicator.RenderReportLegend(setup.Course, st)
	opts, err := j.optionsOf(tx, g)
	if err != nil {
		return err
	}
	variants := roborally.WelcomeText(setup.Rules, opts.policy(g))
	for _, p := range players {
		r := st.Robots[p.Seat]
		hand, locked := narrate.HandOf(setup.Deck, r)
		sec := secrets[p.Robot]
		var slots []store.Owner
		if sec != "" && sec != joinedSecret {
			o := store.Owner{Kind: store.OwnerPlayer, ID: p.ID}
			sec, slots = j.hold(o, sec), []store.Owner{o}
		}
		w := narrate.Welcome{
			Game: g.Tag, Course: g.Course, Robot: r.Name, Secret: sec,
			Board: board, Legend: legend, Hand: hand, Locked: locked, Deadline: deadlineText(g.DeadlineAt),
			Sheet: narrate.SheetFor(g.Tag, r, st.Turn, nil), Judge: j.Address, Turn: st.Turn,
			RulesName: setup.Rules.Name, Rules: setup.Rules.Settings(),
			Variants: variants, Mat: narrate.MatOf(st, r, setup.Rules.Lighter),
		}
		w.OptionsWelcome(st, r)
		text, err := j.ownRoboRally().Text("welcome.txt.tmpl", w)
		if err != nil {
			return err
		}
		html, err := j.ownRoboRally().HTML("welcome.html.tmpl", w)
		if err != nil {
			return err
		}
		if err := j.enqueue(tx, outMail{
			kind: "welcome", gameID: g.ID, turn: 0, to: p.Email,
			subject:   subject(g.Tag, fmt.Sprintf("Welcome, %s: your robot and your first hand", r.Name)),
			messageID: j.reportID(g.Tag, 0, p.Seat), refs: []string{j.gameRoot(g.Tag)}, inReplyTo: j.gameRoot(g.Tag),
			text: text, html: html, generated: true, slots: slots,
		}); err != nil {
			return err
		}
	}
	return nil
}
