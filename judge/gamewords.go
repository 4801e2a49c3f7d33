package judge

import (
	"fmt"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// What a game behind the seam says in its own words in the judge's replies
// (game/commands.go): the judge asks its Config and Position for the optional parts
// and says its general words for a game without them.

// hostedConfig is g's settings as its game reads them; nil for a RoboRally row stored
// before the seam, or settings that cannot be read (the caller's general words).
func (j *Judge) hostedConfig(g store.Game) game.Config {
	k, err := j.hostedKind(g)
	if err != nil || k == nil {
		return nil
	}
	cfg, err := k.LoadConfig(g.Rules)
	if err != nil {
		return nil
	}
	return cfg
}

// describer is g's settings when its game says them in its own words (game.Describer).
func (j *Judge) describer(g store.Game) game.Describer {
	d, _ := j.hostedConfig(g).(game.Describer)
	return d
}

// departures is g's position when its game says what becomes of a withdrawn seat
// (game.Departures); nil otherwise, or before the game started.
func (j *Judge) departures(tx *store.Tx, g store.Game) game.Departures {
	k, err := j.hostedKind(g)
	if err != nil || k == nil || g.Status == store.GameOpen {
		return nil
	}
	h, err := j.hostedState(tx, g, k)
	if err != nil {
		return nil
	}
	d, _ := h.pos.(game.Departures)
	return d
}

// gameAck is the reply to a player's accepted move m (text, as the game read it) in the game's own layout
// (game.Acknowledger), "" for a game without one: the judge tells the game the turn
// as it stands with the move in (the version is stored): the deadline in the
// player's time zone, how many due moves of players still in the game are missing,
// what holds the turn, the seat's moves of the turn folded.
func (j *Judge) gameAck(tx *store.Tx, g store.Game, h hosted, player *store.Player, text string, m game.Move) (string, error) {
	a, ok := h.pos.(game.Acknowledger)
	if !ok {
		return "", nil
	}
	players, err := tx.Players(g.ID)
	if err != nil {
		return "", err
	}
	moves, missing, partial, err := j.hostedMoves(tx, g, h, players)
	if err != nil {
		return "", err
	}
	t := game.AckTurn{Game: g.Tag, Player: player.Robot, Turn: g.CurrentTurn, Paused: g.Status == store.GamePaused,
		Deadline: deadlineIn(g.DeadlineAt, player.Timezone) + timeLeft(g.DeadlineAt, j.now()), Fold: m, Render: j.Templates.Text}
	for _, seat := range missing {
		if p := playerAt(players, seat); p != nil && !p.Withdrawn { // a withdrawn player's seat holds nothing up
			t.Missing++
		}
	}
	if f, ok := moves[player.Seat]; ok {
		t.Fold = f
	} else if f, ok := partial[player.Seat]; ok {
		t.Fold = f
	}
	if t.Missing == 0 && !t.Paused {
		if t.Holds, err = j.hostedHolds(tx, g, h, players); err != nil {
			return "", err
		}
	}
	return a.Acknowledge(player.Seat, text, t), nil
}

// sendHostedAck audits an accepted move and mails its reply.
func (j *Judge) sendHostedAck(tx *store.Tx, g store.Game, player *store.Player, row store.InboxMessage, msg *mail.Message, text string) (store.InboxStatus, string, int64, error) {
	if _, err := tx.Audit(store.AuditEntry{At: j.now(), GameID: g.ID, Actor: player.Robot, Action: "orders", Detail: fmt.Sprintf("turn %d", g.CurrentTurn)}); err != nil {
		return "", "", 0, err
	}
	return store.InboxProcessed, noteAccepted, g.ID, j.enqueue(tx, outMail{kind: "ack", gameID: g.ID, turn: g.CurrentTurn,
		to: player.Email, subject: replySubject(msg.Subject), messageID: j.replyID(row.ID), inReplyTo: msg.MessageID, text: text})
}
