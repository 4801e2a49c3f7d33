package judge

import (
	"fmt"
	"strings"

	"github.com/rallyjudge/rallyjudge/store"
	"github.com/rallyjudge/rallyjudge/templates"
)

// Observers: anyone may OBSERVE a game whose setting observers is "yes" (the default)
// and gets the public part of each turn's report (the board, what happened, every
// robot's status; no hand, no sheet) and the press written to everyone, until
// UNOBSERVE. A game master with gm-copies on gets the same public report, so a game
// master who does not play sees every turn (gmview.go has the rest of what they see).

func (j *Judge) cmdObserve(e *cmdEnv, c Command) (string, error) {
	if len(c.Args) > 1 {
		return "", refuse("write %s or %s GAME.", c.Verb, c.Verb)
	}
	tag := ""
	if len(c.Args) == 1 {
		tag = strings.ToLower(c.Args[0])
	}
	if err := j.loadGame(e, tag); err != nil {
		return "", err
	}
	g := *e.game
	if e.from == "" {
		return "", refuse("%s is by mail: the observer's address is the one the mail comes from.", c.Verb)
	}
	if c.Verb == "UNOBSERVE" {
		ok, err := e.tx.RemoveObserver(g.ID, e.from)
		if err != nil {
			return "", err
		}
		if !ok {
			return fmt.Sprintf("You were not observing game %s.\n", g.Tag), nil
		}
		return fmt.Sprintf("You no longer observe game %s.\n", g.Tag), j.audit(e, "unobserve", e.from)
	}
	o, err := j.optionsOf(e.tx, g)
	if err != nil {
		return "", err
	}
	if o.observers() != "yes" {
		return "", refuse("game %s takes no observers.", g.Tag)
	}
	if g.Status == store.GameOver {
		return "", refuse("game %s is over; its archive tells the whole game.", g.Tag)
	}
	ok, err := e.tx.AddObserver(g.ID, e.from, j.now())
	if err != nil {
		return "", err
	}
	if !ok {
		return fmt.Sprintf("You observe game %s already.\n", g.Tag), nil
	}
	if err := j.audit(e, "observe", e.from); err != nil {
		return "", err
	}
	return fmt.Sprintf("You now observe game %s (course %s): each turn's public report comes to you,\n"+
		"with the board and what happened, and the press written to everyone. UNOBSERVE %s stops it.\n", g.Tag, g.Course, g.Tag), nil
}

// watching is the game's observers who get its public mail: none while the game's
// observers setting is "no" (the bug: SET observers no stopped new OBSERVEs only, and
// those already observing went on getting every report and the press to everyone). They
// stay registered: SET observers yes sends to them again.
func watching(tx *store.Tx, g store.Game, o Options) ([]store.Watcher, error) {
	if o.observers() != "yes" {
		return nil, nil
	}
	return tx.Observers(g.ID)
}

// enqueuePublicCopies sends the public part of a turn's report to the game's observers
// and, with gm-copies on, to its game masters.
func (j *Judge) enqueuePublicCopies(tx *store.Tx, g store.Game, base templates.Report, pics *reportPictures, gen int, subj string) error {
	o, err := j.optionsOf(tx, g)
	if err != nil {
		return err
	}
	obs, err := watching(tx, g, o)
	if err != nil {
		return err
	}
	type rcpt struct{ addr, key string }
	var to []rcpt
	for _, w := range obs {
		to = append(to, rcpt{w.Email, fmt.Sprintf("o%d", w.ID)})
	}
	if o.gmCopies() == "on" {
		gms, err := tx.GMs(g.ID)
		if err != nil {
			return err
		}
		for _, gm := range gms {
			if gm.GameID != 0 {
				to = append(to, rcpt{gm.Email, fmt.Sprintf("gm%d", gm.ID)})
			}
		}
	}
	if len(to) == 0 {
		return nil
	}
	rep := base
	rep.Part = templates.PartPublic
	for _, r := range to {
		m, err := j.reportMail(rep, pics)
		if err != nil {
			return err
		}
		m.kind, m.gameID, m.turn, m.to, m.subject = "report", g.ID, base.Turn, r.addr, subj
		m.messageID, m.inReplyTo, m.refs = j.reportIDGen(g.Tag, base.Turn, gen, r.key), j.gameRoot(g.Tag), []string{j.gameRoot(g.Tag)}
		if err := j.enqueue(tx, m); err != nil {
			return err
		}
	}
	return nil
}

// copyToGMs sends the game's masters a copy of a notice to players when gm-copies is
// on: one copy per notice, not one per player.
func (j *Judge) copyToGMs(tx *store.Tx, g store.Game, kind, key, what, text string) error {
	o, err := j.optionsOf(tx, g)
	if err != nil || o.gmCopies() != "on" {
		return err
	}
	gms, err := tx.GMs(g.ID)
	if err != nil {
		return err
	}
	for _, gm := range gms {
		if gm.GameID == 0 {
			continue
		}
		if err := j.enqueue(tx, outMail{kind: "gm-notice", gameID: g.ID, turn: g.CurrentTurn, to: gm.Email,
			subject:   subject(g.Tag, "Copy: "+what),
			messageID: j.noticeID("copy", fmt.Sprintf("%s.%s.%s.gm%d", kind, g.Tag, key, gm.ID)),
			text:      "[A copy for the game master of what the players were sent.]\n\n" + text, generated: true}); err != nil {
			return err
		}
	}
	return nil
}
