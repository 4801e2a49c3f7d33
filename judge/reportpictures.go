package judge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/internal/parallel"
	"github.com/rallyjudge/rallyjudge/store"
)

// Pictures after the commit (issue 24 item 3). A turn's state and its reports commit
// together, each report composed without its pictures and marked as awaiting them
// (store.Tx.AwaitPictures, with a pictureJob that says what to draw and how the mail
// was addressed). The sender (DrainOutbox) passes marked mails by; when nothing else is
// due it draws the pictures of every marked report (completePictures) — the turn's
// shared pictures once, the readers' own copies side by side — and puts each finished
// mail in its outbox row, removing the mark, in one transaction per turn. Then the
// reports go out like any mail.
//
// Crash guarantees are today's: a kill before the turn's commit leaves the old turn and
// no report; after it, the reports are in the outbox, and the next drain (after a
// restart too) draws what is still marked. Drawing again is harmless: a mark removed
// once is not removed twice (CompletePictures), and a mail is never changed once an
// attempt to send it began, so no report goes out twice beyond the sender's own
// at-most-twice. A report whose pictures cannot be drawn (a turn record that does not
// read) goes without them, as a report never waits for its pictures for good.

// pictureJob is what a report awaiting its pictures needs to be finished: the turn, the
// reader whose robot is ringed ("" for the shared pictures: a mailing list, an
// observer), the report as rendered, and the mail as enqueue left it.
type pictureJob struct {
	Game int64  `json:"game"`
	Turn int    `json:"turn"`
	You  string `json:"you,omitempty"`
	// Report is kept by jobs the judge stored before RoboRally played behind the seam
	// (olderReport); Mailing, set by every job since, is the report as the game was told
	// of the mail (hostedmail.go), which draws its own pictures (game.Illustrator).
	Report  *olderReport  `json:"report,omitempty"`
	Mailing *game.Mailing `json:"mailing,omitempty"`
	// The mail as stored: its text (unchanged by pictures), whether enqueue added the
	// observer footer, and its headers.
	Kind        string   `json:"kind"`
	To          string   `json:"to"`
	Subject     string   `json:"subject"`
	MessageID   string   `json:"message_id"`
	InReplyTo   string   `json:"in_reply_to,omitempty"`
	Refs        []string `json:"refs,omitempty"`
	Text        string   `json:"text"`
	Observer    bool     `json:"observer,omitempty"`
	Unsubscribe string   `json:"unsubscribe,omitempty"`
}

// awaitJob completes m's picture job with the mail as enqueue leaves it.
func (m *outMail) awaitJob() ([]byte, error) {
	job := *m.later
	job.Kind, job.To, job.Subject, job.MessageID, job.InReplyTo, job.Refs = m.kind, m.to, m.subject, m.messageID, m.inReplyTo, m.refs
	job.Text, job.Observer, job.Unsubscribe = m.text, m.observer, m.unsubscribe
	return json.Marshal(job)
}

// awaiting is one report awaiting its pictures.
type awaiting struct {
	id  int64
	job pictureJob
	raw []byte // the finished mail; nil: it goes as stored, without pictures
}

// completePictures finishes the reports of one turn awaiting their pictures (the oldest
// this judge may take) and returns how many it finished: the sender calls it again once
// it has sent what came due meanwhile, so an acknowledgement waits for one turn's
// pictures at most.
func (j *Judge) completePictures(ctx context.Context) (int, error) {
	var rows []store.PictureJob
	if err := j.Store.View(ctx, func(tx *store.Tx) error {
		var err error
		rows, err = tx.PictureJobs(500)
		return err
	}); err != nil || len(rows) == 0 {
		return 0, err
	}
	type turnKey struct {
		game int64
		turn int
	}
	var order []turnKey
	turns := map[turnKey][]*awaiting{}
	var broken []*awaiting
	for _, r := range rows {
		a := &awaiting{id: r.OutboxID}
		if err := json.Unmarshal(r.Job, &a.job); err != nil {
			j.Log.Error("a report's picture job does not read: the report goes without pictures", "outbox", r.OutboxID, "err", err)
			broken = append(broken, a)
			continue
		}
		k := turnKey{a.job.Game, a.job.Turn}
		if turns[k] == nil {
			order = append(order, k)
		}
		turns[k] = append(turns[k], a)
	}
	done := 0
	if len(broken) > 0 {
		n, err := j.finishPictures(ctx, broken)
		if err != nil {
			return done, err
		}
		done += n
	}
	for _, k := range order {
		if ctx.Err() != nil {
			return done, ctx.Err()
		}
		n, err := j.turnReportPictures(ctx, k.game, k.turn, turns[k])
		done += n
		if err != nil || n > 0 {
			return done, err
		}
	}
	return done, nil
}

// turnReportPictures draws one turn's pictures and finishes its reports awaiting them,
// those whose outbox claim it gets: a judge beside this one on the same database
// (store/claims.go) draws the others.
func (j *Judge) turnReportPictures(ctx context.Context, gameID int64, turn int, all []*awaiting) (int, error) {
	start := time.Now()
	var jobs []*awaiting
	defer func() {
		for _, a := range jobs {
			if err := j.Store.Unclaim(context.WithoutCancel(ctx), store.ClaimOutbox, a.id); err != nil {
				j.Log.Warn("giving an outbox claim back failed (it ends with the claims session)", "outbox", a.id, "err", err)
			}
		}
	}()
	for _, a := range all {
		ok, err := j.Store.Claim(ctx, store.ClaimOutbox, a.id)
		if err != nil {
			return 0, err
		}
		if ok {
			jobs = append(jobs, a)
		}
	}
	if len(jobs) == 0 {
		return 0, nil
	}
	if jobs[0].job.Mailing == nil { // stored by the judge's path before the seam
		if err := j.olderJobs(ctx, gameID, jobs); err != nil {
			return 0, err
		}
	}
	return j.hostedReportPictures(ctx, gameID, turn, jobs, start)
}

// finishPictures puts the finished mails in their outbox rows and removes their marks,
// in one transaction.
func (j *Judge) finishPictures(ctx context.Context, jobs []*awaiting) (int, error) {
	n := 0
	err := j.Store.Tx(ctx, func(tx *store.Tx) error {
		n = 0
		for _, a := range jobs {
			ok, err := tx.CompletePictures(a.id, a.raw)
			if err != nil {
				return err
			}
			if ok {
				n++
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}

// hostedReportPictures is turnReportPictures for a game behind the seam whose position
// draws the pictures of its reports (game.Illustrator): the game is asked once for the
// whole turn's reports, with the positions before and after the turn as stored.
func (j *Judge) hostedReportPictures(ctx context.Context, gameID int64, turn int, jobs []*awaiting, start time.Time) (int, error) {
	var g store.Game
	var ill game.Illustrator
	var before game.Position
	var events []byte
	if err := j.Store.View(ctx, func(tx *store.Tx) error {
		var err error
		if g, err = tx.Game(gameID); errors.Is(err, store.ErrNotFound) {
			return nil // no such game: its reports go without pictures
		} else if err != nil {
			return err
		}
		tn, err := tx.Turn(gameID, turn)
		if errors.Is(err, store.ErrNotFound) {
			return nil // rolled back meanwhile: its reports are void
		} else if err != nil {
			return err
		}
		k, err := j.hostedKind(g)
		if err != nil || k == nil {
			j.Log.Error("a hosted report's game is not hosted here: its reports go without pictures", "game", g.Tag, "turn", turn, "err", err)
			return nil
		}
		cfg, err := k.LoadConfig(g.Rules)
		if err != nil {
			j.Log.Error("a game's settings do not read: its reports go without pictures", "game", g.Tag, "turn", turn, "err", err)
			return nil
		}
		after, err := k.Load(cfg, tn.After)
		if err != nil {
			j.Log.Error("a turn's record does not read: its reports go without pictures", "game", g.Tag, "turn", turn, "err", err)
			return nil
		}
		var ok bool
		if ill, ok = after.(game.Illustrator); !ok {
			return nil
		}
		if len(tn.Before) > 0 {
			if before, err = k.Load(cfg, tn.Before); err != nil {
				before = nil // the turn's animation is left out
			}
		}
		events = tn.Events
		return nil
	}); err != nil {
		return 0, err
	}
	if ill != nil {
		j.drawHostedReports(g, ill, before, events, turn, jobs)
	}
	if j.stopAt("pictures-drawn") {
		return 0, nil
	}
	n, err := j.finishPictures(ctx, jobs)
	if err == nil {
		bytes := 0
		for _, a := range jobs {
			bytes += len(a.raw)
		}
		j.Log.Info("report pictures drawn", "game", g.Tag, "turn", turn, "reports", n,
			"ms", time.Since(start).Milliseconds(), "bytes", bytes)
	}
	return n, err
}

// drawHostedReports asks the game for the turn's reports with their pictures and
// composes each report of jobs with its own (its raw). A game that panics leaves every
// report of the turn without pictures (logged), as drawReports does.
func (j *Judge) drawHostedReports(g store.Game, ill game.Illustrator, before game.Position, events []byte, turn int, jobs []*awaiting) {
	defer func() {
		if r := recover(); r != nil {
			j.Log.Error("drawing a turn's pictures failed: its reports go without them", "game", g.Tag, "turn", turn, "panic", fmt.Sprint(r))
			for _, a := range jobs {
				a.raw = nil
			}
		}
	}()
	ms := make([]game.Mailing, len(jobs))
	for i, a := range jobs {
		ms[i] = *a.job.Mailing
		ms[i].Templates = j.templatesFor(g)
	}
	reps := ill.Illustrate(before, events, ms)
	if len(reps) != len(jobs) {
		j.Log.Error("the game drew the wrong number of reports: they go without pictures", "game", g.Tag, "turn", turn,
			"reports", len(reps), "want", len(jobs))
		return
	}
	parallel.Do(len(jobs), func(i int) {
		a := jobs[i]
		m := outMail{}
		wholeMail(&m, reps[i])
		m.kind, m.gameID, m.turn, m.to, m.subject = a.job.Kind, a.job.Game, a.job.Turn, a.job.To, a.job.Subject
		m.messageID, m.inReplyTo, m.refs, m.unsubscribe = a.job.MessageID, a.job.InReplyTo, a.job.Refs, a.job.Unsubscribe
		m.text = a.job.Text
		if a.job.Observer {
			m.html = withObserverHTML(m.html, j.observerFooter(g.Tag))
		}
		m.html = redactText(m.html)
		raw, err := j.compose(m, j.now())
		if err != nil {
			j.Log.Error("a report with its pictures could not be composed: it goes without them", "outbox", a.id, "err", err)
			return
		}
		a.raw = raw
	})
}

// olderReport is what a picture job the judge stored before RoboRally played behind the
// seam kept of its report, as far as olderJobs reads it (templates.Report's fields of
// the same names, as that job wrote them).
type olderReport struct {
	Game, Part, List, Deadline string
}

// olderJobs turns the picture jobs of the judge's path before the seam into jobs of the
// game that adopted their game since (legacy.go): what the game is told of each mail
// (game.Mailing) is read from the report the job kept, so that the game draws the same
// pictures and writes the same HTML. A game not adopted, or gone, leaves the jobs to go
// without pictures.
func (j *Judge) olderJobs(ctx context.Context, gameID int64, jobs []*awaiting) error {
	var g store.Game
	var players []store.Player
	if err := j.Store.View(ctx, func(tx *store.Tx) error {
		var err error
		if g, err = tx.Game(gameID); err != nil {
			return err
		}
		players, err = tx.Players(g.ID)
		return err
	}); errors.Is(err, store.ErrNotFound) {
		return nil
	} else if err != nil {
		return err
	}
	if g.Kind == "" {
		return nil
	}
	for _, a := range jobs {
		var rep olderReport
		if a.job.Report != nil {
			rep = *a.job.Report
		}
		c := j.mailing(g, game.MailReport, -1, a.job.Turn)
		c.Templates = nil
		c.Game, c.Deadline, c.List = rep.Game, rep.Deadline, rep.List
		switch {
		case rep.Part == "public" || a.job.You == "":
			c.Part = game.PartPublic
		case rep.Part == "private":
			c.Part = game.PartPrivate
		}
		for _, p := range players {
			if a.job.You != "" && strings.EqualFold(p.Robot, a.job.You) {
				c.Seat = p.Seat
			}
		}
		a.job.Mailing = &c
	}
	return nil
}
