package judge

import (
	"fmt"
	"strings"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
	"github.com/rallyjudge/rallyjudge/templates"
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
//
// In a batch (later set) a reply that is one of the judge's templates whole is not
// rendered here: render renders it, beside the writer (lateAck).
func (j *Judge) gameAck(tx *store.Tx, g store.Game, h hosted, players []store.Player, player *store.Player, text, file string, m game.Move,
	later bool) (reply string, render func() (string, error), err error) {
	a, ok := h.pos.(game.Acknowledger)
	if !ok {
		return "", nil, nil
	}
	moves, missing, partial, err := j.hostedMoves(tx, g, h, players)
	if err != nil {
		return "", nil, err
	}
	t := game.AckTurn{Game: g.Tag, Player: player.Robot, Turn: g.CurrentTurn, File: file, Paused: g.Status == store.GamePaused,
		Deadline: deadlineIn(g.DeadlineAt, player.Timezone) + timeLeft(g.DeadlineAt, j.now()), Fold: m}
	r := j.templatesIn(tx, g)
	if r != nil {
		t.Render = r.Text
	}
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
			return "", nil, err
		}
	}
	if later && r != nil {
		if render, ok := lateAck(a, player.Seat, text, t, r.Text); ok {
			return "", render, nil
		}
	}
	reply, err = a.Acknowledge(player.Seat, text, t)
	return reply, nil, err
}

// lateAck is a's reply rendered later: when a replies with one of the judge's templates
// whole (t.Render's text, rendered once, nothing added), render renders that template
// with the data a gave it. A batch renders it beside the writer (ackQueue), as it
// composes the mail; a template that breaks fails the batch's commit, which judges its
// mails again one at a time, rendering each reply at once. ok is false for any other
// reply (rendered twice, changed, an error): the caller asks a again.
func lateAck(a game.Acknowledger, seat int, text string, t game.AckTurn, render func(string, any) (string, error)) (func() (string, error), bool) {
	const token = "\x00rallyjudge: the template rendered later\x00"
	var name string
	var data any
	n := 0
	t.Render = func(nm string, d any) (string, error) {
		name, data = nm, d
		n++
		return token, nil
	}
	if reply, err := a.Acknowledge(seat, text, t); err != nil || reply != token || n != 1 {
		return nil, false
	}
	return func() (string, error) { return render(name, data) }, true
}

// sendHostedAck audits an accepted move and mails its reply.
func (j *Judge) sendHostedAck(tx *store.Tx, v *views, audit func(store.AuditEntry) (int64, error), g store.Game, player *store.Player,
	row store.InboxMessage, msg *mail.Message, text string, render func() (string, error)) (store.InboxStatus, string, int64, error) {
	if _, err := audit(store.AuditEntry{At: j.now(), GameID: g.ID, Actor: player.Robot, Action: "orders", Detail: fmt.Sprintf("turn %d", g.CurrentTurn)}); err != nil {
		return "", "", 0, err
	}
	return store.InboxProcessed, noteAccepted, g.ID, j.enqueueIn(tx, v, outMail{kind: "ack", gameID: g.ID, turn: g.CurrentTurn,
		to: player.Email, subject: replySubject(msg.Subject), messageID: j.replyID(row.ID), inReplyTo: msg.MessageID, text: text, render: render})
}

// maySend says whether a seat that is not due may send a move (game.OffTurn).
func maySend(pos game.Position, seat int) bool {
	o, ok := pos.(game.OffTurn)
	return ok && o.MaySend(seat)
}

// offTurnMoves adds to moves the latest move (folded, game.Folder) of each seat that is
// not due and sent one it may send (game.OffTurn), to be played with the due seats'.
func (j *Judge) offTurnMoves(tx *store.Tx, g store.Game, h hosted, players []store.Player, moves map[int]game.Move) error {
	o, ok := h.pos.(game.OffTurn)
	if !ok {
		return nil
	}
	due := map[int]bool{}
	for _, s := range h.pos.Due() {
		due[s] = true
	}
	for _, p := range players {
		if due[p.Seat] || p.Withdrawn || !o.MaySend(p.Seat) {
			continue
		}
		// the version the mail server received last counts (a backlog read out of
		// order), folded (txmemo.go)
		f, err := j.seatFoldOf(tx, g, h, p.Robot, p.Seat)
		if err != nil {
			return err
		}
		if got := f.move; got != nil {
			moves[p.Seat] = *got
		}
	}
	return nil
}

// gameRefusal is the reply to a move refused (by Check, or sent for another turn) in
// the game's words, sheetText the mail's sheet as read, its envelope lines kept
// (game.Refuser), and the problems as stored with the version: each problem with the
// mail's line it names quoted below it (the secret hidden), as the judge quotes a
// RoboRally sheet's. For a game without one: "" and problems as they were.
func (j *Judge) gameRefusal(h hosted, player *store.Player, g store.Game, sheetText, file string, problems []string) (string, []string, error) {
	r, ok := h.pos.(game.Refuser)
	if !ok {
		return "", problems, nil
	}
	summary, ps, hint, ok := r.Refusal(player.Seat, sheetText, game.AckTurn{Game: g.Tag, Player: player.Robot, Turn: g.CurrentTurn, File: file})
	if !ok || len(ps) == 0 {
		return "", problems, nil
	}
	src := strings.Split(sheetText, "\n")
	lines := make([]string, 0, len(ps))
	for _, p := range ps {
		s := p.String()
		if q := quotedLine(src, p.Line); q != "" {
			s += "\n      " + q
		}
		lines = append(lines, s)
	}
	text, err := j.Templates.Text("rejected.txt.tmpl", templates.Rejected{Summary: summary, Errors: lines, Hint: hint})
	return text, lines, err
}

// readsSheets says whether k's moves are order sheets the judge's reader reads whole
// (game.SheetReader).
func readsSheets(k game.Kind, err error) bool {
	r, ok := k.(game.SheetReader)
	return err == nil && ok && r.ReadsOrderSheets()
}

// words are g's game's names for the judge's things (game.Wording), nil for a game
// without them.
func (j *Judge) words(g store.Game) *game.Words {
	if w, ok := j.hostedConfig(g).(game.Wording); ok {
		ws := w.Words()
		return &ws
	}
	return nil
}

// sheetFile is the name of the attached file a reading's orders came in, "" when they
// are the mail's text (game.FileChecker).
func sheetFile(rd *Reading) string {
	if rd.Msg != nil && rd.Msg.Source == mail.SourceAttachment {
		return rd.Msg.SourceName
	}
	return ""
}

// checkMove reads a seat's orders against the position: those of an attached file as
// its name says, when the game reads files (game.FileChecker).
func checkMove(pos game.Position, seat int, text, file string) game.Checked {
	if fc, ok := pos.(game.FileChecker); ok && file != "" {
		return fc.CheckFile(seat, text, file)
	}
	return pos.Check(seat, text)
}
