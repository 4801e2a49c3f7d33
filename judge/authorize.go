package judge

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// Who may run a command: the game a mail names, the player or game master its secret
// and From prove, and the denial that refuses a whole mail (shared by every command).

// denial is an identity failure, a wrong secret or a wrong sender: the whole mail is
// refused without saying which, and it counts toward rate limiting. A secret or robot
// name that is missing or misspelt is no denial but a userError, answered plainly
// (issue 12: a failure to read is never an identity failure).
type denial struct {
	note    string
	spoofed *store.Player // From is not the named robot's registered address
}

func (d *denial) Error() string { return d.note }

// deny refuses the whole mail exactly as the sheet path does.
func (j *Judge) deny(tx *store.Tx, row store.InboxMessage, msg *mail.Message, from string, e *cmdEnv, d *denial) (store.InboxStatus, string, int64, error) {
	var gameID int64
	if e.game != nil {
		gameID = e.game.ID
	}
	if err := tx.RecordAuthFailure(from, j.now()); err != nil {
		return "", "", 0, err
	}
	if limited, err := j.rateLimited(tx, from); err != nil || limited {
		return store.InboxRejected, d.note + " (rate-limited: not answered)", 0, err
	}
	if d.spoofed != nil {
		if _, err := tx.Audit(store.AuditEntry{At: j.now(), GameID: gameID, Actor: from, Action: "spoofed-from", Detail: "robot " + d.spoofed.Robot}); err != nil {
			return "", "", 0, err
		}
		text := fmt.Sprintf("A mail about your robot %s in game %s came from another address (%s), not from\n"+
			"your registered address. Nothing was changed. If it was you, send your orders from\n"+
			"this address; if it was not, you need do nothing.\n", d.spoofed.Robot, e.game.Tag, from)
		return store.InboxRejected, "From is not the registered address", 0, j.enqueue(tx, outMail{
			kind: "notice", gameID: gameID, turn: e.game.CurrentTurn, to: d.spoofed.Email,
			subject:   subject(e.game.Tag, "a mail for your robot came from another address"), // one notice per robot a day, however many forged senders name it (as a sheet's)
			messageID: j.noticeID("spoof", fmt.Sprintf("%s.%d.%s", e.game.Tag, d.spoofed.ID, j.now().Format("20060102"))), text: text})
	}
	if _, err := tx.Audit(store.AuditEntry{At: j.now(), GameID: gameID, Actor: from, Action: "auth-failure", Detail: d.note}); err != nil {
		return "", "", 0, err
	}
	return store.InboxRejected, d.note, 0, j.refusedClaim(tx, row, msg, from)
}

// loadGame finds the named game (JOIN may name it as its first argument).
func (j *Judge) loadGame(e *cmdEnv, tag string) error {
	if tag == "" {
		tag = e.tag
	}
	if tag == "" {
		return refuse("no game named: put [RR GAME] in the subject or a line \"game GAME\" in the mail.")
	}
	if e.game != nil && strings.EqualFold(e.game.Tag, tag) {
		return nil
	}
	g, err := e.tx.GameByTag(tag)
	if errors.Is(err, store.ErrNotFound) {
		return refuse("there is no game %q here.%s", tag, gameHint(e.tx, tag))
	}
	if err != nil {
		return err
	}
	e.game = &g
	return nil
}

// authorize checks that the sender may run c.
func (j *Judge) authorize(e *cmdEnv, c Command) error {
	info, known := verbs[c.Verb]
	if !known || info.who == "anyone" || e.cli || c.Verb == "ORDERS" { // the sheet is checked as a sheet
		return nil
	}
	if info.who == "server" {
		if e.cm.secret == "" {
			return refuse("%s needs your game master secret on a line \"secret YOURSECRET\".", c.Verb) // not read: no identity failure
		}
		gms, err := e.tx.ServerGMs(e.from)
		if err != nil {
			return err
		}
		for i := range gms {
			if j.secretOK(e.proofs, gms[i].SecretHash, e.cm.secret, true) {
				e.gm = &gms[i]
				return nil
			}
		}
		return &denial{note: "not a server game master"}
	}
	if err := j.loadGame(e, ""); err != nil {
		return err
	}
	if info.who == "player" || info.who == "member" {
		if e.player != nil {
			return nil
		}
		p, err := j.findPlayer(e)
		if err != nil {
			return err
		}
		if p != nil {
			e.player = p
			return nil
		}
		if info.who == "player" {
			return &denial{note: "robot not in this game"}
		}
	}
	if e.gm != nil {
		return nil
	}
	gm, err := j.gmBySecret(e)
	if err != nil {
		return err
	}
	if gm != nil {
		e.gm = gm
		return nil
	}
	gms, err := e.tx.GMByEmail(e.game.ID, e.from)
	if err != nil {
		return err
	}
	if len(gms) == 0 {
		return &denial{note: "not a game master of this game"}
	}
	if e.cm.secret == "" {
		return refuse("%s needs your secret on a line \"secret YOURSECRET\".", c.Verb)
	}
	return &denial{note: "wrong secret"}
}

// findPlayer is the sender's player in the game, checked like a sheet: the robot named
// (or the one registered with From), its address, its secret. It returns nil, nil when
// From plays no robot here and none was named, or when the secret the mail carries is
// not the player's but a game master's of this game: one address may be both, and each
// mail is authorised by the secret it carries (issue 13).
//
// A withdrawn player's secret counts for nothing any more (the kick notice says so).
func (j *Judge) findPlayer(e *cmdEnv) (*store.Player, error) {
	players, err := e.tx.Players(e.game.ID)
	if err != nil {
		return nil, err
	}
	var p *store.Player
	if e.cm.robot != "" {
		p = playerByRobot(players, e.cm.robot) // Zoë is Zoe
	} else {
		for i := range players {
			if strings.EqualFold(players[i].Email, e.from) {
				p = &players[i]
				break
			}
		}
	}
	if p == nil {
		if e.cm.robot != "" {
			return nil, refuse("game %s has no robot %q.%s", e.game.Tag, e.cm.robot, robotHint(players, e.cm.robot)) // a misspelt name: no identity failure
		}
		return nil, nil
	}
	if !strings.EqualFold(p.Email, e.from) {
		return nil, &denial{note: "From is not the registered address", spoofed: p}
	}
	if e.cm.secret == "" {
		return nil, refuse("this command needs your secret on a line \"secret YOURSECRET\" (your welcome mail has it).")
	}
	if !j.secretOK(e.proofs, p.SecretHash, e.cm.secret, true) {
		if e.cm.robot == "" {
			if gm, err := j.gmBySecret(e); err != nil || gm != nil {
				return nil, err // a game master's secret: the sender acts as game master
			}
		}
		return nil, &denial{note: "wrong secret"}
	}
	if p.Withdrawn {
		return nil, &denial{note: "the player is withdrawn"}
	}
	return p, nil
}

// gmBySecret is the game master of e's game with From's address and the mail's
// secret, or nil.
func (j *Judge) gmBySecret(e *cmdEnv) (*store.GM, error) {
	gms, err := e.tx.GMByEmail(e.game.ID, e.from)
	if err != nil {
		return nil, err
	}
	for i := range gms {
		if e.cm.secret != "" && j.secretOK(e.proofs, gms[i].SecretHash, e.cm.secret, true) {
			return &gms[i], nil
		}
	}
	return nil, nil
}

// robot is the player of a robot named in a game master's command.
func (j *Judge) robot(e *cmdEnv, name string) (store.Player, error) {
	players, err := e.tx.Players(e.game.ID)
	if err != nil {
		return store.Player{}, err
	}
	if p := playerByRobot(players, name); p != nil {
		return *p, nil
	}
	return store.Player{}, refuse("game %s has no robot %q.%s", e.game.Tag, name, robotHint(players, name))
}
