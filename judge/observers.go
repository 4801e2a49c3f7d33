package judge

import (
	"fmt"
	"strings"
	"time"

	"github.com/rallyjudge/rallyjudge/store"
)

// Observers: anyone may OBSERVE a game whose setting observers is "yes" (the default):
// the address is mailed a code and subscribed by the CONFIRM that carries it, from there
// (as JOIN). An observer gets the public part of each turn's report (the board, what happened, every
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
	obs, err := e.tx.Observers(g.ID)
	if err != nil {
		return "", err
	}
	for _, w := range obs {
		if strings.EqualFold(w.Email, e.from) {
			return fmt.Sprintf("You observe game %s already.\n", g.Tag), nil
		}
	}
	// Anyone can forge a From address (issue 21 item 2: a forged OBSERVE put a victim on
	// four games): OBSERVE subscribes nobody by itself. As JOIN, it mails a code to the
	// address, and the CONFIRM that carries it, from there, subscribes it (takeObserve).
	code, hash, err := j.newSecret()
	if err != nil {
		return "", err
	}
	pjID, err := e.tx.AddPendingJoin(store.PendingJoin{GameID: g.ID, Email: e.from, Robot: store.ObserveRobot, CodeHash: hash, Created: j.now()})
	if err != nil {
		return "", err
	}
	jo := store.Owner{Kind: store.OwnerJoin, ID: pjID}
	code, e.slots = j.hold(jo, code), append(e.slots, jo) // the code goes in at send time
	if err := j.audit(e, "observe-asked", e.from); err != nil {
		return "", err
	}
	return fmt.Sprintf("Someone asked, from this address, to observe game %s (%s): each turn's public\n"+
		"report by mail. If that was you, reply from this address with this line in the body:\n\n  CONFIRM %s\n\n"+
		"Nothing is sent to this address until then. The code counts for %d hours. If you did not\n"+
		"ask, do nothing.\n", g.Tag, j.gameWhat(g), code, int(joinTTL/time.Hour)), nil
}

// takeObserve subscribes the address of a confirmed OBSERVE, if the game still takes
// observers.
func (j *Judge) takeObserve(e *cmdEnv, pj store.PendingJoin) (string, error) {
	g, err := e.tx.Game(pj.GameID)
	if err != nil {
		return "", err
	}
	e.game = &g
	if err := e.tx.FinishPendingJoin(pj.ID, j.now()); err != nil {
		return "", err
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
	ok, err := e.tx.AddObserver(g.ID, pj.Email, j.now())
	if err != nil {
		return "", err
	}
	if !ok {
		return fmt.Sprintf("You observe game %s already.\n", g.Tag), nil
	}
	if err := j.audit(e, "observe", pj.Email); err != nil {
		return "", err
	}
	return fmt.Sprintf("You now observe game %s (%s): each turn's public report comes to you,\n"+
		"with the board and what happened, and the press written to everyone. UNOBSERVE %s stops it.\n", g.Tag, j.gameWhat(g), g.Tag), nil
}

// observerFooter ends every mail to an observer of game tag: how to stop them, by a
// mail the judge reads (the List-Unsubscribe header gives the same: observerUnsubscribe).
func (j *Judge) observerFooter(tag string) string {
	return fmt.Sprintf("\n-- \nYou get this as an observer of game %s. To stop, mail UNOBSERVE %s to %s\n"+
		"(your mail program's Unsubscribe button sends that mail).\n", tag, tag, j.Address)
}

// observerUnsubscribe is the List-Unsubscribe URI of a mail to an observer of game tag
// (RFC 2369): a mail to the judge whose subject and body are UNOBSERVE TAG. The judge
// takes unsubscribing by mail only; RFC 8058's one-click POST needs an HTTPS address,
// which the judge does not serve.
func (j *Judge) observerUnsubscribe(tag string) string {
	return "mailto:" + j.Address + "?subject=UNOBSERVE%20" + tag + "&body=UNOBSERVE%20" + tag
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

// copyRcpt is one reader of a copy of the public report: the address and the key of
// its mail's Message-ID.
type copyRcpt struct{ addr, key string }

// publicCopies are the readers of the public part of a turn's report beside the list:
// the game's observers and, with gm-copies on, its game masters.
func publicCopies(tx *store.Tx, g store.Game, o Options) ([]copyRcpt, error) {
	obs, err := watching(tx, g, o)
	if err != nil {
		return nil, err
	}
	var to []copyRcpt
	for _, w := range obs {
		to = append(to, copyRcpt{w.Email, fmt.Sprintf("o%d", w.ID)})
	}
	if o.gmCopies() == "on" {
		gms, err := tx.GMs(g.ID)
		if err != nil {
			return nil, err
		}
		for _, gm := range gms {
			if gm.GameID != 0 {
				to = append(to, copyRcpt{gm.Email, fmt.Sprintf("gm%d", gm.ID)})
			}
		}
	}
	return to, nil
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
