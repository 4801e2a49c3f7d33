package judge

import (
	"fmt"
	"time"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// The mails of a game behind the seam that writes them whole (game.Mailer: RoboRally).
// The game writes each mail's text, HTML and pictures from what the judge tells it
// (game.Mailing: the tag, the reader, the deadline in the reader's zone); the judge
// addresses and threads them as it always has: in a game with a mailing list the public
// report goes to the list first and each player's own part replies to it; otherwise
// each player's reports thread under the welcome that player received. Observers and,
// with gm-copies on, the game masters get the public report. A game that is also a
// game.Illustrator has its reports stored with the move without pictures and marked to
// await them; they are drawn after the commit (reportpictures.go), as the judge's own
// RoboRally reports are.

// mailing is what the judge tells a Mailer of one mail of game g.
func (j *Judge) mailing(g store.Game, kind string, seat, turn int) game.Mailing {
	c := game.Mailing{Kind: kind, Seat: seat, Game: g.Tag, Turn: turn, Judge: j.Address,
		PictureIDs: fmt.Sprintf("%s.%d@%s", g.Tag, turn, j.domainOf())}
	c.Templates = j.templatesFor(g)
	return c
}

// wholeMail puts a Mailer's report into m as it is.
func wholeMail(m *outMail, rep game.Report) {
	m.text, m.html, m.inline = rep.Text, rep.HTML, inlinePictures(rep)
	m.generated = true
}

// inlinePictures are a report's pictures as inline parts of its mail: the board
// (Report.Picture) under the Content-ID the judge gives it, then the others.
func inlinePictures(rep game.Report) []mail.Inline {
	var out []mail.Inline
	if len(rep.Picture) > 0 {
		name := rep.PictureName
		if name == "" {
			name = "board.png"
		}
		out = append(out, mail.Inline{ContentID: boardCID, ContentType: "image/png", Filename: name, Data: rep.Picture})
	}
	for _, p := range rep.Pictures {
		if len(p.Data) == 0 {
			continue
		}
		out = append(out, mail.Inline{ContentID: p.ContentID, ContentType: p.ContentType, Filename: p.Name, Data: p.Data})
	}
	return out
}

// boardCID is the Content-ID of a plain report's board (game.Report.Picture).
const boardCID = "board@rallyjudge"

// mailerWelcome is a Mailer's welcome of player p (a held secret sec).
func (j *Judge) mailerWelcome(ml game.Mailer, g store.Game, p store.Player, kind, sec string) (string, game.Report) {
	c := j.mailing(g, kind, p.Seat, 0)
	c.Deadline, c.Secret = deadlineText(g.DeadlineAt), sec
	rep := ml.Mail(nil, c)
	return subject(g.Tag, rep.Subject), rep
}

// mailerReports enqueues the reports of the turn of g just played, whose position after
// is ml, to the list, the observers and every player (see above).
func (j *Judge) mailerReports(tx *store.Tx, g store.Game, ml game.Mailer, before game.Position, events []byte, players []store.Player,
	gen int, deadline time.Time, over bool) error {
	turn := g.CurrentTurn
	ill, illustrated := ml.(game.Illustrator)
	picturesOff, err := tx.PicturesOff(g.ID)
	if err != nil {
		return err
	}
	root := j.gameRoot(g.Tag)
	// mk writes one mail; pictures: it awaits its pictures
	mk := func(c game.Mailing, to, key string, pictures bool) (outMail, error) {
		c.Again = gen > 0
		rep := ml.Mail(events, c)
		m := outMail{kind: "report", gameID: g.ID, turn: turn, to: to, subject: subject(g.Tag, rep.Subject),
			messageID: j.reportIDGen(g.Tag, turn, gen, key), inReplyTo: root, refs: []string{root}}
		wholeMail(&m, rep)
		switch {
		case pictures && illustrated && j.picturesInTx: // as before issue 24 item 3, for BenchmarkLastOrderToSMTP
			wholeMail(&m, ill.Illustrate(before, events, []game.Mailing{c})[0])
		case pictures && illustrated:
			c.Templates = nil
			m.later = &pictureJob{Game: g.ID, Turn: turn, Mailing: &c}
		}
		return m, nil
	}
	public := j.mailing(g, game.MailReport, -1, turn)
	public.Part, public.Deadline = game.PartPublic, deadlineText(deadline)
	parent, refs := root, []string{root}
	if g.ListAddress != "" {
		m, err := mk(public, g.ListAddress, "list", true)
		if err != nil {
			return err
		}
		if err := j.enqueue(tx, m); err != nil {
			return err
		}
		parent, refs = m.messageID, []string{root, m.messageID}
	}
	o, err := j.optionsOf(tx, g)
	if err != nil {
		return err
	}
	copies, err := publicCopies(tx, g, o)
	if err != nil {
		return err
	}
	for _, r := range copies {
		m, err := mk(public, r.addr, r.key, true)
		if err != nil {
			return err
		}
		if err := j.enqueue(tx, m); err != nil {
			return err
		}
	}
	for _, p := range players {
		c := j.mailing(g, game.MailReport, p.Seat, turn)
		c.Deadline = deadlineText(deadline)
		if !over {
			c.Deadline = deadlineIn(deadline, p.Timezone)
		}
		if g.ListAddress != "" {
			c.Part, c.List = game.PartPrivate, g.ListAddress // the pictures went to the list
		}
		m, err := mk(c, p.Email, fmt.Sprintf("s%d", p.Seat), g.ListAddress == "" && !picturesOff[p.ID])
		if err != nil {
			return err
		}
		m.inReplyTo, m.refs = parent, refs
		if g.ListAddress == "" {
			// each player's reports thread under the welcome that player received
			welcome := j.reportID(g.Tag, 0, p.Seat)
			m.inReplyTo, m.refs = welcome, []string{root, welcome}
		}
		if err := j.enqueue(tx, m); err != nil {
			return err
		}
	}
	return nil
}

// missedRule is what happens to a player's seat without orders in time, for the
// reminder and STATUS: the game's words (game.MissedRuler), else its autopilot's move.
func (j *Judge) missedRule(g store.Game) string {
	if r, ok := j.hostedConfig(g).(game.MissedRuler); ok {
		return r.MissedRule()
	}
	return "the game's autopilot plays a move for you"
}
