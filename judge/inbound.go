package judge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
	"github.com/rallyjudge/rallyjudge/templates"
)

// What happens when a mail arrives. Every received message takes this one path:
//
//  1. The raw message is stored in the inbox, before anything else (idempotent by
//     UIDVALIDITY/UID and by Message-ID: the same mail seen twice has one effect). Only
//     when that has committed does HandleMessage return, and only then does the fetcher
//     flag or move the message on the server.
//  2. It is read (MIME) and judged in one transaction: mail loops and bounces are
//     dropped; oversized mail gets a short reply; the game (subject tag "[RR tag]" or
//     the sheet's "game" line) and robot are found; the sender must be the robot's
//     registered address and know its secret; the sheet is parsed and validated; the
//     sheet version is stored with its acknowledgement or its errors in the outbox.
//  3. If every program is now in, the turn is resolved (resolve.go).
//
// Replies never quote a secret, and a failed identity check reveals nothing.

// HandleMessage is the fetcher's handler for one message. It has no server receive
// time, so the mail counts as received when it is stored (receivedAt); the daemon takes
// mail through HandleBatch, with the server's time.
func (j *Judge) HandleMessage(ctx context.Context, uidvalidity, uid uint32, raw []byte) error {
	now := j.now()
	msg, perr := j.extract(raw)
	row := store.InboxMessage{UIDValidity: uidvalidity, UID: uid, Raw: raw, Size: int64(len(raw)), Received: now}
	if msg != nil {
		row.MessageID, row.From, row.Subject = msg.MessageID, msg.From, clip(redactText(msg.Subject), 200)
	}
	var dup bool
	err := j.Store.Tx(ctx, func(tx *store.Tx) error {
		var err error
		row, dup, err = tx.InboxInsert(row)
		return err
	})
	if err != nil {
		return j.corrupt(fmt.Errorf("store inbox uid %d/%d: %w", uidvalidity, uid, err))
	}
	if dup && row.Status != store.InboxNew {
		// the same mail again (a copy, a second delivery): its fate was logged the first time
		j.Log.Info("mail", "inbox", row.ID, "from", row.From, "outcome", "duplicate", "note", "seen before as inbox "+fmt.Sprint(row.ID)+" ("+string(row.Status)+")", "uid", uid)
		return nil
	}
	return j.processStored(ctx, row, msg, perr)
}

// ErrCorrupt is returned by HandleMessage when the database's pages turn out damaged: the
// message is left unmarked on the server, and Serve stops taking mail (every further
// mail would fail the same way and be lost to the players).
var ErrCorrupt = store.ErrCorrupt

// ErrUnwritable is returned for mail that could not be recorded because the database
// cannot be written (a full disk, a read-only file system, an I/O error): the mail is
// left unmarked on the server, and Serve takes no more until it can write (serve.go).
var ErrUnwritable = store.ErrUnwritable

// corrupt passes err on, marked with ErrCorrupt when it says the database is damaged,
// or with ErrUnwritable when it says it cannot be written.
func (j *Judge) corrupt(err error) error {
	if store.IsCorrupt(err) && !errors.Is(err, store.ErrCorrupt) {
		return fmt.Errorf("%w: %v", store.ErrCorrupt, err)
	}
	if !store.IsCorrupt(err) && store.IsUnwritable(err) && !errors.Is(err, store.ErrUnwritable) {
		return fmt.Errorf("%w: %v", store.ErrUnwritable, err)
	}
	return err
}

// Recover handles inbox messages stored but not processed (a crash between storing and
// processing), and those whose processing failed (a bad template override, a full disk):
// a restart after mending what broke takes them up again. Serve calls it at start.
func (j *Judge) Recover(ctx context.Context) error {
	var rows []store.InboxMessage
	if err := j.Store.View(ctx, func(tx *store.Tx) error {
		for _, s := range []store.InboxStatus{store.InboxNew, store.InboxFailed} {
			r, err := tx.InboxByStatus(s, 1000)
			if err != nil {
				return err
			}
			rows = append(rows, r...)
		}
		return nil
	}); err != nil {
		return err
	}
	sort.Slice(rows, func(a, b int) bool { return rows[a].ID < rows[b].ID })
	for _, row := range rows {
		if row.Status == store.InboxFailed { // its secrets are markers with proofs (failed.go)
			if err := j.Store.View(ctx, func(tx *store.Tx) error {
				var err error
				row.Proofs, err = tx.InboxProofs(row.ID)
				return err
			}); err != nil {
				return err
			}
		}
		msg, perr := j.extract(row.Raw)
		if err := j.processStored(ctx, row, msg, perr); err != nil {
			return err
		}
	}
	return nil
}

// processStored judges a stored message. It returns an error only when the database is
// damaged (ErrCorrupt); any other failure is recorded on the inbox row.
func (j *Judge) processStored(ctx context.Context, row store.InboxMessage, msg *mail.Message, perr error) error {
	var gameID int64
	var f fate
	var status store.InboxStatus
	var note string
	judgedElsewhere := false
	err := j.Store.Tx(ctx, func(tx *store.Tx) error {
		gameID, f, judgedElsewhere = 0, fate{}, false
		// Still as read? Another judge (several on one database, shared.go) may have
		// judged it since: one whose intake claim went while it was in the middle.
		now, err := tx.InboxStatusNow(row.ID)
		if err != nil {
			return err
		}
		if now != row.Status {
			judgedElsewhere = true
			return nil
		}
		var gid int64
		status, note, gid, err = j.judgeMessage(tx, &views{}, row, msg, perr, nil, &f)
		if err != nil {
			return err
		}
		gameID = gid
		return j.finishInbox(tx, row, msg, status, note)
	})
	if err != nil {
		if store.IsCorrupt(err) {
			j.Log.Error("THE DATABASE IS DAMAGED: no more mail is taken; "+damagedWhatToDo, "inbox", row.ID, "err", err)
			return j.corrupt(err)
		}
		j.Log.Error("processing a message failed", "inbox", row.ID, "err", err)
		if ferr := j.Store.Tx(ctx, func(tx *store.Tx) error {
			return j.failInbox(tx, row, msg, err.Error())
		}); store.IsCorrupt(ferr) {
			return j.corrupt(ferr)
		}
		return nil
	}
	if judgedElsewhere {
		j.Log.Info("a stored mail was judged meanwhile by another judge; left alone", "inbox", row.ID)
		return nil
	}
	j.logFate(row, msg, f, note)
	if gameID != 0 {
		j.ready.mark(gameID) // unmarked once resolved or found not ready (readywatch.go)
		if j.stopAt("after-sheet-commit") {
			return nil
		}
		if _, err := j.ResolveIfReady(ctx, gameID); err != nil {
			if !errors.Is(err, errGameBusy) {
				j.Log.Error("resolving a turn failed", "game", gameID, "err", err)
			}
		} else {
			j.ready.unmark(gameID)
		}
	}
	return nil
}

// finishInbox records a judged mail's outcome on its inbox row, and keeps the mail with
// the secrets it carried removed (redactInbound), in one write.
func (j *Judge) finishInbox(tx *store.Tx, row store.InboxMessage, msg *mail.Message, status store.InboxStatus, note string) error {
	var raw []byte
	if msg != nil {
		if r, ok := redactInbound(row.Raw, msg.Text); ok {
			raw = r
			j.scrubLater() // the log still holds the mail as it came (secretslots.go)
		}
	}
	if len(row.Proofs) > 0 { // judged at last: its markers are replaced as secrets are
		if err := tx.SetInboxProofs(row.ID, nil); err != nil {
			return err
		}
	}
	return tx.InboxFinish(row.ID, status, note, j.now(), raw)
}

// noteAccepted is the inbox note of an accepted sheet.
const noteAccepted = "orders accepted"

// fate is what became of one mail, for its log line.
type fate struct {
	game, robot string
	outcome     string // one of the outcome* constants
	errors      int    // problems in an invalid sheet
}

const (
	outcomeAccepted   = "accepted"         // a valid sheet, stored and acknowledged
	outcomeInvalid    = "invalid"          // a sheet with errors, answered with them
	outcomeAutomatic  = "automatic"        // a bounce, an auto-reply, a loop: not answered
	outcomeIdentity   = "identity failure" // a wrong secret or a wrong sender (rate limited)
	outcomeCommand    = "command"          // a command mail, answered
	outcomeRefused    = "refused"          // read but not taken: no game, game over, no secret ...
	outcomeUnreadable = "unreadable"       // not mail, or over a limit
)

// logFate writes the one info line every mail gets: its inbox id, sender, game, robot
// and outcome. Never a secret, never the body.
func (j *Judge) logFate(row store.InboxMessage, msg *mail.Message, f fate, note string) {
	from := row.From
	if msg != nil && msg.From != "" {
		from = msg.From
	}
	if f.outcome == "" {
		f.outcome = outcomeRefused
	}
	attrs := []any{"inbox", row.ID, "from", from, "game", f.game, "robot", f.robot, "outcome", f.outcome}
	if f.outcome == outcomeInvalid {
		attrs = append(attrs, "errors", f.errors)
	}
	attrs = append(attrs, "note", note)
	j.Log.Info("mail", attrs...)
}

// rateLimited reports whether an address has had more identity failures than
// AuthFailures within AuthWindow (the one just recorded included). Rate limiting only
// silences the judge: failures are no longer answered (no reply floods, no notices to
// a player), but a mail with the right secret from the registered address is still
// served, since anyone can forge a From address and must not be able to lock a player
// out by sending wrong secrets in their name. Guessing stays hopeless: secrets carry
// about 79 bits, so even a fast keyed hash leaves 2^79 guesses (store/secret.go).
func (j *Judge) rateLimited(tx *store.Tx, from string) (bool, error) {
	n, err := tx.AuthFailures(from, j.now().Add(-j.AuthWindow))
	return n > j.AuthFailures, err
}

// extract reads a raw message within the size limit. An oversized one is read for its
// header alone (so its sender can be told), with the limit error.
func (j *Judge) extract(raw []byte) (*mail.Message, error) {
	msg, err := mail.ExtractWithLimits(raw, mail.Limits{MaxSize: int64(j.MaxMessageBytes)})
	if err == nil || !errors.Is(err, mail.ErrLimit) {
		return msg, err
	}
	head := raw
	if i := bytes.Index(head, []byte("\r\n\r\n")); i >= 0 {
		head = head[:i+4]
	} else if i := bytes.Index(head, []byte("\n\n")); i >= 0 {
		head = head[:i+2]
	}
	if len(head) > 64<<10 {
		return nil, err
	}
	h, herr := mail.ExtractWithLimits(append(bytes.Clone(head), "\r\n"...), mail.DefaultLimits())
	if herr != nil {
		return nil, err
	}
	h.Text = ""
	return h, err
}

// limitText says which of the reading limits a mail hit, for its sender and the inbox
// note: a 3 KB mail nested 50 deep is refused for its nesting, not its size (issue 14).
func (j *Judge) limitText(err error) (summary, note string) {
	var le *mail.LimitError
	if !errors.As(err, &le) {
		return fmt.Sprintf("Your mail is larger than rallyjudge reads (%s); it was not read.", sizeText(j.MaxMessageBytes)), "over the size limit"
	}
	switch le.What {
	case "depth":
		return fmt.Sprintf("Your mail nests MIME parts deeper than rallyjudge reads (%d levels); it was not read.", le.Limit), "over the nesting limit"
	case "parts":
		return fmt.Sprintf("Your mail has more MIME parts than rallyjudge reads (%d); it was not read.", le.Limit), "over the parts limit"
	case "text":
		return fmt.Sprintf("Your mail's text is longer than rallyjudge reads (%s); it was not read.", sizeText(int(le.Limit))), "over the text limit"
	}
	return fmt.Sprintf("Your mail is larger than rallyjudge reads (%s); it was not read.", sizeText(j.MaxMessageBytes)), "over the size limit"
}

// sizeText writes a limit in bytes as the config states it: whole KiB as KiB (the
// default 262144 is "256 KiB"), anything else in bytes (limits.max_message_bytes: 4000
// was told as "3 KiB", and a limit under 1 KiB as "0 KiB").
func sizeText(n int) string {
	if n >= 1024 && n%1024 == 0 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

var tagInSubject = regexp.MustCompile(`(?i)\[\s*RR\s+([a-z0-9][a-z0-9-]*)\s*\]`)

// judgeMessage decides what a stored message does. It returns the inbox status and note,
// and the game whose orders changed (0 for none); f says what became of it, for the log.
//
// v holds what sheets read of their games for the whole transaction (views.go; nil to
// read afresh); a command mail resets it, before and after, as commands may change what
// it holds. rd is what Read made of msg, when it was read ahead (nil: it is read here);
// judging changes it, so it serves once.
func (j *Judge) judgeMessage(tx *store.Tx, v *views, row store.InboxMessage, msg *mail.Message, perr error, rd *Reading, f *fate) (store.InboxStatus, string, int64, error) {
	if msg == nil {
		// Unreadable as mail: nobody to answer safely.
		f.outcome = outcomeUnreadable
		return store.InboxRejected, "unreadable: " + clip(errText(perr), 200), 0, nil
	}
	if auto, why := automatic(msg, rd); auto {
		f.outcome = outcomeAutomatic
		return store.InboxRejected, "automatic mail, not answered: " + why, 0, nil
	}
	from := strings.ToLower(strings.TrimSpace(msg.From))
	if from == "" {
		f.outcome = outcomeUnreadable
		return store.InboxRejected, "no From address", 0, nil
	}
	if !mail.ValidAddress(from) {
		// parsed, never passed through: header text that is not one plain address is
		// nobody to answer (it could carry RCPT TO parameters or a second address)
		f.outcome = outcomeUnreadable
		return store.InboxRejected, "From is not a plain address: not answered", 0, nil
	}
	if j.Address != "" && from == strings.ToLower(j.Address) {
		// Mail that says it comes from the judge itself (a copy of its own mail, or a
		// forged From) is never answered: the answer would go to the judge's own mailbox.
		f.outcome = outcomeAutomatic
		return store.InboxRejected, "From is the judge's own address: not answered", 0, nil
	}
	reply := func(summary string, errs []string, hint string) error {
		return j.reject(tx, row, msg, from, summary, errs, hint)
	}
	if perr != nil {
		f.outcome = outcomeUnreadable
		if errors.Is(perr, mail.ErrLimit) {
			summary, note := j.limitText(perr)
			return store.InboxRejected, note, 0, reply(summary, nil, "Send the order sheet as plain text, without attachments or pictures.")
		}
		return store.InboxRejected, "unreadable MIME", 0, reply("Your mail could not be read as MIME mail; nothing was done.", nil, "")
	}
	if msg.Encrypted && strings.TrimSpace(msg.Stripped) == "" {
		// PGP/MIME or S/MIME encrypted to a key the judge does not have: say so, rather
		// than that the mail names no game (and the whole help)
		f.outcome = outcomeUnreadable
		return store.InboxRejected, "encrypted", 0, reply("Your mail is encrypted (OpenPGP or S/MIME); rallyjudge cannot read it, so nothing was done.", nil,
			"Send it again unencrypted. A signed mail is fine.")
	}
	if rd == nil {
		rd = Read(msg, j.sheetReader()) // intake.go: what the player wrote, as `rallyjudge check --mail` reads it
	}
	if rd.cm != nil {
		v.reset()
		defer v.reset()
		return j.judgeCommands(tx, row, msg, from, rd, f) // commands.go
	}
	return j.judgeSheet(tx, v, row, msg, from, rd, f)
}

// reject answers a mail that was not accepted (rejected.txt.tmpl), as a reply to it,
// when no secret proved who sent it: anyone can write a player's address on a mail, so
// the reply quotes nothing of it, not its subject nor its lines (reflection.go; issue 21
// item 5: a forged From of a player mailed the attacker's lines to the player). The
// errors, which quote lines, are dropped and the sender told where to get them.
func (j *Judge) reject(tx *store.Tx, row store.InboxMessage, msg *mail.Message, to, summary string, errs []string, hint string) error {
	if len(errs) > 0 {
		errs = nil
		hint = strings.TrimSpace(hint + "\n" + unprovenErrorsHint)
	}
	return j.rejectAs(tx, row, msg, to, 0, summary, errs, hint, true)
}

// unprovenErrorsHint says why a reply to a mail without the sender's secret lists no
// errors.
const unprovenErrorsHint = "The errors are listed, line by line, only in answer to a mail that holds your secret:\n" +
	"anyone can write your address on a mail."

// rejectAs answers a mail that was not accepted, about game gameID (0: none); unproven:
// no secret matched its sender's, so it quotes nothing of the mail (reject).
func (j *Judge) rejectAs(tx *store.Tx, row store.InboxMessage, msg *mail.Message, to string, gameID int64, summary string, errs []string, hint string, unproven bool) error {
	text, err := j.Templates.Text("rejected.txt.tmpl", templates.Rejected{Summary: summary, Errors: errs, Hint: hint})
	if err != nil {
		return err
	}
	return j.enqueue(tx, outMail{kind: "reject", gameID: gameID, turn: -1, to: to, subject: replySubject(msg.Subject),
		messageID: j.replyID(row.ID), inReplyTo: msg.MessageID, text: text, unproven: unproven})
}

// refusedClaim answers a mail refused for its identity (a wrong secret, a withdrawn
// player's, a sender who plays no robot the mail names). To a registered address it says
// only that a mail claiming to come from it was refused, at most once in 24 hours: whoever
// forges a player's From cannot mail the player their text, nor a stream of notices
// (issue 21 item 5). An unknown address gets the plain refusal, which quotes nothing.
func (j *Judge) refusedClaim(tx *store.Tx, row store.InboxMessage, msg *mail.Message, from string) error {
	known, err := tx.KnownAddress(from)
	if err != nil {
		return err
	}
	if !known {
		return j.reject(tx, row, msg, from, "Your mail was not accepted: the game, robot, address and secret did not match.", nil, "")
	}
	told, err := tx.RepliesSince([]string{"claim"}, from, j.now().Add(-24*time.Hour))
	if err != nil || told > 0 {
		return err
	}
	day := j.now().UTC().Format("2006-01-02")
	text := fmt.Sprintf("A mail claiming to be from this address reached rallyjudge on %s (UTC) and was\n"+
		"refused: the game, robot, address and secret did not match, so nothing was done.\n\n"+
		"If you sent it, check the secret your welcome mail gives and send it again.\n"+
		"If you did not, someone else wrote your address on it; you need do nothing.\n"+
		"You are told this at most once a day.\n", day)
	return j.enqueue(tx, outMail{kind: "claim", to: from, subject: "rallyjudge: a mail claiming to be from you was refused",
		messageID: j.replyID(row.ID), inReplyTo: msg.MessageID, text: text})
}

// judgeSheet judges a mail that is an order sheet (a plain mail, or the part after a
// command mail's ORDERS).
//
// A failure to read is never an identity failure (issue 12): only a wrong secret or a
// sender who is not the robot's registered address counts toward rate limiting. A
// sheet that names no secret, or a robot the game does not have, is answered with what
// is missing and, when it could not be read, with its syntax errors: they quote only
// the sender's own lines back to the sender. Errors that need the game's state (a card
// not in the hand) are given only once the secret matched.
func (j *Judge) judgeSheet(tx *store.Tx, v *views, row store.InboxMessage, msg *mail.Message, from string, rd *Reading, f *fate) (store.InboxStatus, string, int64, error) {
	if j.Address != "" && from == strings.ToLower(j.Address) {
		// Mail that says it comes from the judge itself (a copy of its own mail, or a
		// forged From) is never answered: the answer would go to the judge's own mailbox.
		f.outcome = outcomeAutomatic
		return store.InboxRejected, "From is the judge's own address: not answered", 0, nil
	}
	proven := false  // a secret matched the sender's: from then on the reply may quote the mail
	var gameID int64 // the game the mail is about, once found (a withheld reply is counted for it)
	reply := func(summary string, errs []string, hint string) error {
		if !proven && len(errs) > 0 {
			errs, hint = nil, strings.TrimSpace(hint+"\n"+unprovenErrorsHint)
		}
		return j.rejectAs(tx, row, msg, from, gameID, summary, errs, hint, !proven)
	}
	if max := j.maxSheetSize(); len(rd.SheetText) > max {
		// said alone: the sheet was not read, so "no secret line" or "no game named"
		// would be untrue
		f.outcome = outcomeRefused
		return store.InboxRejected, "sheet too large", 0, reply(fmt.Sprintf(
			"Your sheet is larger than %d bytes, the most a sheet may be, so it was not read; nothing was done.", max), nil,
			"Orders are a few lines: send the game, player (or robot), secret and turn lines and your orders alone.")
	}
	sheet, sheetErr := rd.Sheet, rd.SheetErr
	syntaxOnly := func(summary, note string) (store.InboxStatus, string, int64, error) {
		errs, n := problemsOf(rd.SheetText, sheetErr, nil)
		f.outcome, f.errors = outcomeInvalid, n
		if n == 0 {
			f.outcome = outcomeRefused
		}
		return store.InboxRejected, note, 0, reply(summary, errs, withMarkerHint("Correct the sheet and send it again.", sheetErr))
	}
	f.game, f.robot = strings.ToLower(sheet.Game), sheet.Seat
	tag := tagOf(msg, rd)
	if sheet.Game != "" {
		if tag != "" && !strings.EqualFold(tag, sheet.Game) {
			return store.InboxRejected, "game in subject and sheet differ", 0, reply(
				"The subject and the sheet name different games; nothing was done.", nil, "")
		}
		tag = strings.ToLower(sheet.Game)
	}
	f.game = tag
	if tag == "" {
		if sheetErr != nil {
			return syntaxOnly("Your mail names no game and could not be read as an order sheet; nothing was done:", "no game named; sheet unreadable")
		}
		return store.InboxRejected, "no game named", 0, reply("Your mail names no game, so nothing was done.", nil,
			"Put the game's tag in the subject, like [RR spring-open], or a line \"game spring-open\" in the sheet.\n\n"+HelpText(j.Address))
	}
	g, err := v.game(tx, tag)
	if errors.Is(err, store.ErrNotFound) {
		return store.InboxRejected, "no such game", 0, reply("There is no game by that name here; nothing was done.", nil, "")
	} else if err != nil {
		return "", "", 0, err
	}
	if !readsSheets(j.hostedKind(g)) {
		// a game behind the seam reads the move itself (judgeHostedSheet): what RoboRally's
		// order grammar says of its lines ("expected an order ... got place") is not the
		// player's to read, unless its moves are such sheets (game.SheetReader)
		sheetErr = nil
	}
	gameID = g.ID

	// Identity: the robot, its registered address, its secret.
	players, err := v.players(tx, g)
	if err != nil {
		return "", "", 0, err
	}
	var player *store.Player
	if sheet.Seat != "" {
		player = playerByRobot(players, sheet.Seat) // Zoë is Zoe
	} else {
		for i := range players {
			if strings.EqualFold(players[i].Email, from) {
				player = &players[i]
				break
			}
		}
	}
	denied := func(note string) (store.InboxStatus, string, int64, error) {
		f.outcome = outcomeIdentity
		if err := tx.RecordAuthFailure(from, j.now()); err != nil {
			return "", "", 0, err
		}
		if _, err := tx.Audit(store.AuditEntry{At: j.now(), GameID: g.ID, Actor: from, Action: "auth-failure", Detail: note}); err != nil {
			return "", "", 0, err
		}
		if limited, err := j.rateLimited(tx, from); err != nil || limited {
			return store.InboxRejected, note + " (rate-limited: not answered)", 0, err
		}
		// The reply reveals nothing: not which part was wrong, nor the sheet.
		return store.InboxRejected, note, 0, j.refusedClaim(tx, row, msg, from)
	}
	if player == nil && sheet.Seat != "" {
		// the name the mail gave is never told back: no secret proved who wrote it
		// (reflection.go); a registered address is told the game's robots near it
		noRobot, hint := "no robot by that name", ""
		if known, err := tx.KnownAddress(from); err != nil {
			return "", "", 0, err
		} else if known {
			hint = robotHint(players, sheet.Seat)
		}
		if sheetErr != nil {
			return syntaxOnly(fmt.Sprintf("Game %s has %s, and the sheet has errors; nothing was done:", g.Tag, noRobot), "robot not in this game; sheet unreadable")
		}
		f.outcome = outcomeRefused
		return store.InboxRejected, "robot not in this game", 0, reply(fmt.Sprintf("Game %s has %s; nothing was done.%s", g.Tag, noRobot, hint), nil,
			"Write your robot's name as your welcome mail gives it, on a line \"robot NAME\".")
	}
	if player == nil {
		return denied("sender plays no robot in this game") // a wrong sender
	}
	f.robot = player.Robot
	if !strings.EqualFold(player.Email, from) {
		f.outcome = outcomeIdentity
		if err := tx.RecordAuthFailure(from, j.now()); err != nil {
			return "", "", 0, err
		}
		if _, err := tx.Audit(store.AuditEntry{At: j.now(), GameID: g.ID, Actor: from, Action: "spoofed-from", Detail: "robot " + player.Robot}); err != nil {
			return "", "", 0, err
		}
		if limited, err := j.rateLimited(tx, from); err != nil || limited {
			return store.InboxRejected, "From is not the registered address (rate-limited: not told)", 0, err
		}
		text := fmt.Sprintf("A mail about your robot %s in game %s came from another address (%s), not from\n"+
			"your registered address. Nothing was changed. If it was you, send your orders from\n"+
			"this address; if it was not, you need do nothing.\n", player.Robot, g.Tag, from)
		return store.InboxRejected, "From is not the registered address", 0, j.enqueue(tx, outMail{
			kind: "notice", gameID: g.ID, turn: g.CurrentTurn, to: player.Email,
			subject: subject(g.Tag, "a mail for your robot came from another address"),
			// one notice per robot a day, however many forged senders name it: the
			// Message-ID is the robot's and the day's, and the outbox keeps one per ID
			messageID: j.noticeID("spoof", fmt.Sprintf("%s.%d.%s", g.Tag, player.ID, j.now().Format("20060102"))), text: text})
	}
	if sheet.Secret == "" {
		if sheetErr != nil {
			return syntaxOnly("Your sheet has no secret line, and it has errors; nothing was done:", "missing secret; sheet unreadable")
		}
		f.outcome = outcomeRefused
		hint := "Put your secret on a line of its own in the sheet: secret YOURSECRET (your welcome mail has it)."
		if n := secretOutsideBlock(rd.reader, rd.SheetText); n > 0 {
			hint = fmt.Sprintf("Only the lines between the markers (#orders ... #end) are read, and your secret is on line %d, outside them:\n"+
				"put the game, player, secret and turn lines between the markers too, or leave the markers out.", n)
		}
		return store.InboxRejected, "missing secret", 0, reply("Your sheet has no secret line, so it was not read; nothing was done.", nil, hint)
	}
	// A sender already rate-limited pays no slow (bcrypt) check: a flood of wrong secrets
	// must not eat the time others' sheets need. A keyed hash is always checked (cheap),
	// so the right secret from the registered address is still served.
	limited := false
	if !store.IsKeyedHash(player.SecretHash) { // (a keyed hash is checked whatever the limit)
		if limited, err = j.rateLimited(tx, from); err != nil {
			return "", "", 0, err
		}
	}
	keyed := ""
	if rd.known.set && rd.Sheet == sheet {
		keyed = rd.known.keyed // worked out ahead (mailFacts)
	}
	if !j.secretOKKeyed(row.Proofs, player.SecretHash, sheet.Secret, keyed, !limited) {
		return denied("wrong secret")
	}
	if player.Withdrawn { // its secret counts for nothing any more (the kick notice says so)
		return denied("the player is withdrawn")
	}

	// The sender is who they say. From here on, the reply may be specific.
	proven = true
	if g.Status == store.GameOver {
		f.outcome = outcomeRefused
		return store.InboxRejected, "game over", 0, reply(fmt.Sprintf("Game %s is over; no more orders are taken.", g.Tag), nil, "")
	}
	// A sheet counts by the time the mail server received it, not the time it is read.
	// One the server received before the turn being played began was written for the
	// turn before, which is resolved already (intake was so far behind that the judge
	// gave up waiting for it: MaxIntakeWait). Playing it as this turn's program would
	// give the player orders written without this turn's report, so it is refused, the
	// player is told why and the operator is told loudly: never silently dropped or
	// silently moved to another turn (issue 14).
	if sheet.Turn == 0 || sheet.Turn < g.CurrentTurn {
		if began, late, err := readAfterItsTurn(tx, v, g, row); err != nil {
			return "", "", 0, err
		} else if late {
			j.Log.Error("a sheet received before its turn was resolved was read only after it; not played",
				"game", g.Tag, "robot", player.Robot, "turn", g.CurrentTurn-1, "received", row.Received, "turn_resolved", began)
			f.outcome = outcomeRefused
			return store.InboxRejected, fmt.Sprintf("received before turn %d was resolved, read after it", g.CurrentTurn-1), 0, reply(
				fmt.Sprintf("Your sheet for %s reached the mail server at %s, before turn %d of game %s was resolved,\n"+
					"but the judge could read it only after that turn was resolved (%s): it was NOT played.\n"+
					"Nothing was changed, and it is not used for turn %d either.",
					player.Robot, row.Received.UTC().Format(time.RFC3339), g.CurrentTurn-1, g.Tag, began.UTC().Format(time.RFC3339), g.CurrentTurn), nil,
				fmt.Sprintf("Read the report of turn %d and send your orders for turn %d.", g.CurrentTurn-1, g.CurrentTurn))
		}
	}
	// The converse (issue 14 item 3): a sheet the server received after the turn's
	// deadline plus grace is late, even when the judge reads it before the clock has
	// resolved the turn (the tick runs every tick_interval, and waits for intake). It is
	// refused and its player told: not played for this turn, whose other players'
	// programs were due by then, nor kept for the next, which it was not written for
	// (docs/players.md, "What the judge says back"). An absent player's missing program
	// may move the deadline first, as the clock would (absence.go).
	if late, cutoff, err := j.receivedLate(tx, v, &g, row); err != nil {
		return "", "", 0, err
	} else if late {
		j.Log.Warn("a sheet received after its turn's deadline; not played", "game", g.Tag, "robot", player.Robot,
			"turn", g.CurrentTurn, "received", receivedAt(row, j.now()), "deadline", cutoff)
		f.outcome = outcomeRefused
		return store.InboxRejected, fmt.Sprintf("received after turn %d's deadline", g.CurrentTurn), 0, reply(
			fmt.Sprintf("Your sheet for %s reached the mail server at %s, after the deadline of turn %d of game %s\n"+
				"(%s, grace included): it was NOT accepted. Turn %d is played without it: your earlier\n"+
				"valid orders for it stand, if you sent any; otherwise the game's missed-orders policy plays\n"+
				"for you. It is not kept for turn %d either.",
				player.Robot, receivedAt(row, j.now()).UTC().Format(time.RFC3339), g.CurrentTurn, g.Tag,
				cutoff.UTC().Format(time.RFC3339), g.CurrentTurn, g.CurrentTurn+1), nil,
			fmt.Sprintf("Read the report of turn %d when it comes, and send your orders for turn %d.", g.CurrentTurn, g.CurrentTurn+1))
	}
	k, err := j.hostedKind(g)
	if err != nil {
		return "", "", 0, err
	}
	return j.judgeHostedSheet(tx, v, g, k, players, player, row, msg, rd, f)
}

// receivedLate reports whether the mail in row reached the server after the deadline
// (plus grace) of g's current turn, and that moment. Only a running game with a deadline
// has one (a paused game takes orders). When the mail is late and the game lets the
// deadline wait for absent players, the deadline is moved first as the clock would move
// it at that moment (deferForAbsence), and *g re-read.
func (j *Judge) receivedLate(tx *store.Tx, v *views, g *store.Game, row store.InboxMessage) (bool, time.Time, error) {
	if g.Status != store.GameRunning || g.DeadlineAt.IsZero() {
		return false, time.Time{}, nil
	}
	at := receivedAt(row, j.now())
	if !at.After(g.DeadlineAt.Add(g.Grace)) {
		return false, time.Time{}, nil
	}
	moved, err := j.deferForAbsence(tx, g.ID)
	if err != nil {
		return false, time.Time{}, err
	}
	if moved {
		v.reset() // the game's row changed
		if *g, err = tx.Game(g.ID); err != nil {
			return false, time.Time{}, err
		}
	}
	cutoff := g.DeadlineAt.Add(g.Grace)
	return at.After(cutoff), cutoff, nil
}

// receivedAt is when a mail counts as received: the mail server's receive time (IMAP
// INTERNALDATE), which the inbox row holds. A sheet's version is stored with it, so a
// backlog read after a deadline keeps the times its sheets arrived, and versions count
// in the order they reached the mailbox. Where there is no server time (a mail handed
// over without one: HandleMessage, a server that sends no INTERNALDATE) the fallback is
// the time the judge stored the mail, never the mail's own Date header, which its
// sender writes.
func receivedAt(row store.InboxMessage, now time.Time) time.Time {
	if row.Received.IsZero() {
		return now
	}
	return row.Received
}

// timeLeft is " (in 1 day 3 hours)", for people reading a deadline.
func timeLeft(deadline, now time.Time) string {
	if deadline.IsZero() {
		return ""
	}
	d := deadline.Sub(now).Round(time.Minute)
	if d <= 0 {
		return " (passed: the turn resolves at the next check)"
	}
	days, hours, mins := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour), int(d%time.Hour/time.Minute)
	var parts []string
	if days > 0 {
		parts = append(parts, plural(days, "day"))
	}
	if hours > 0 {
		parts = append(parts, plural(hours, "hour"))
	}
	if days == 0 && mins > 0 {
		parts = append(parts, plural(mins, "minute"))
	}
	return " (in " + strings.Join(parts, " ") + ")"
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

var secretLine = regexp.MustCompile(`(?im)^[ \t>]*(?:secret|password|passwd|pass|pw)\b[ \t]*[:=]?[ \t]*(\S+)`)

// secretValues are the values of text's "secret ..." lines (secretLine) that a kept mail
// must not hold: each at least 4 bytes, and not the placeholder. Text in ASCII, most
// mail, is read line by line as the expression reads it (secretIn), without the regexp
// machine that was a third of redactInbound (issue 24 item 7); any other text, where
// case folding reaches beyond ASCII ("ſecret"), by secretLine, as visible makes it.
func secretValues(text string) []string {
	var values []string
	if !isASCII(text) {
		for _, m := range secretLine.FindAllStringSubmatch(visible(text), -1) {
			if len(m[1]) >= 4 && m[1] != "(secret)" {
				values = append(values, m[1])
			}
		}
		return values
	}
	for rest := text; rest != ""; {
		line := rest
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
			line, rest = rest[:nl], rest[nl+1:]
		} else {
			rest = ""
		}
		if v := secretIn(line); len(v) >= 4 && v != "(secret)" {
			values = append(values, v)
		}
	}
	return values
}

// secretKeys are secretLine's keywords, in its order of trying them.
var secretKeys = [...]string{"secret", "password", "passwd", "pass", "pw"}

// secretIn is the value secretLine finds on one line of ASCII text (no "\n"), "" for
// none. secretLine matches at most once a line, from its start: blanks and ">" marks,
// a keyword in any case ending a word (\b), blanks, a ":" or "=", blanks, and the value
// up to white space ([\t\n\f\r ]). When nothing follows the ":", the expression backs
// off and takes it for the value (too short to be kept).
func secretIn(l string) string {
	i := 0
	for i < len(l) && (l[i] == ' ' || l[i] == '\t' || l[i] == '>') {
		i++
	}
	for _, k := range secretKeys {
		end := i + len(k)
		if end > len(l) || !strings.EqualFold(l[i:end], k) || end < len(l) && isWordASCII(l[end]) {
			continue
		}
		for end < len(l) && (l[end] == ' ' || l[end] == '\t') {
			end++
		}
		if end < len(l) && (l[end] == ':' || l[end] == '=') {
			v := end + 1
			for v < len(l) && (l[v] == ' ' || l[v] == '\t') {
				v++
			}
			if w := nonSpaceEnd(l, v); w > v {
				return l[v:w]
			}
		}
		if w := nonSpaceEnd(l, end); w > end {
			return l[end:w]
		}
	}
	return ""
}

// isWordASCII says whether c is a word byte as \b reads one: [0-9A-Za-z_].
func isWordASCII(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

// nonSpaceEnd is the end of the run of bytes of l from i that \S matches.
func nonSpaceEnd(l string, i int) int {
	for i < len(l) {
		switch l[i] {
		case '\t', '\n', '\f', '\r', ' ':
			return i
		}
		i++
	}
	return i
}

// redactInbound is a received mail with the secrets it carried removed: every value of
// a "secret ..." line of its text and everything shaped like a judge-made secret. When a
// secret cannot be found in the raw bytes (a base64 body), the body is dropped: what
// was read from it is stored as orders or commands. It reports whether it changed
// anything; the judge keeps the result once the mail is processed.
func redactInbound(raw []byte, text string) ([]byte, bool) {
	values := secretValues(text)
	out, changed := store.RedactSecrets(raw)
	hidden := false
	for _, v := range values {
		if bytes.Contains(out, []byte(v)) {
			out = bytes.ReplaceAll(out, []byte(v), []byte("(secret)"))
			changed = true
		} else if !bytes.Contains(raw, []byte(v)) {
			hidden = true // encoded: base64, or cut by a quoted-printable soft break
		}
	}
	// What is left is checked as a reader would see it — every header value and part
	// decoded (base64, quoted-printable with soft breaks, charsets, nested messages):
	// a secret found there, or a mail that cannot be walked, loses its body; a secret in
	// the header as well loses everything but a note (issue 14). Bytes left as they came
	// were looked through just now: nothing shaped like a secret, no value.
	if hidden || carriesSecretIn(out, values, !changed) {
		out = withoutBody(out)
		changed = true
		if carriesSecret(out, values) {
			out = []byte("X-Rallyjudge-Removed: the mail carried a secret in its header\r\n\r\n(removed by rallyjudge)\r\n")
		}
	}
	return out, changed
}

// withoutBody is raw's header without its Content-* fields, and a plain-text note for a
// body.
func withoutBody(raw []byte) []byte {
	var out []byte
	skip := false
	for _, l := range bytes.SplitAfter(raw, []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		if l[0] == '\n' || l[0] == '\r' && (len(l) == 1 || l[1] == '\n') {
			break // the blank line that ends the header, whatever its line ends (fuzz: "\n\r\n")
		}
		if l[0] == ' ' || l[0] == '\t' { // a folded line belongs to the field before
			if !skip {
				out = append(out, l...)
			}
			continue
		}
		skip = len(l) >= 8 && bytes.EqualFold(l[:8], []byte("content-"))
		if !skip {
			out = append(out, l...)
		}
	}
	out = append(out, "Content-Type: text/plain; charset=utf-8\r\n\r\n"+
		"(body removed by rallyjudge: it carried a secret; what was read from it is stored)\r\n"...)
	return out
}

// carriesSecret reports whether raw, decoded as a reader would see it, still holds one of
// values or anything shaped like a judge-made secret; a mail that cannot be decoded to the
// end is assumed to.
func carriesSecret(raw []byte, values []string) bool { return carriesSecretIn(raw, values, false) }

// carriesSecretIn is carriesSecret of raw whose own bytes are known to hold no value and
// nothing shaped like a secret when clean is set: a message as it was written is then
// clean (redactInbound has just searched its bytes).
func carriesSecretIn(raw []byte, values []string, clean bool) bool {
	pieces, ok := [][]byte{raw}, true
	if !mail.AsWritten(raw) {
		// what a reader sees differs from the bytes: walk it (a message as it was written,
		// most mail, is its own bytes: a value without white space is in them or nowhere)
		pieces, ok = mail.Decoded(raw, int64(4*len(raw))+1024)
	} else if clean {
		return false
	}
	if !ok {
		return true
	}
	for _, p := range pieces {
		if _, found := store.RedactSecrets(p); found {
			return true
		}
		for _, v := range values {
			if bytes.Contains(p, []byte(v)) {
				return true
			}
		}
	}
	return false
}

// redactText is s with everything shaped like a judge-made secret removed (a subject
// is stored in its own column, decoded).
func redactText(s string) string {
	if strings.IndexByte(s, '-') < 0 {
		return s // a secret has dashes (store.RedactSecrets looks from each)
	}
	b, _ := store.RedactSecrets([]byte(s))
	return string(b)
}

// redactSecret removes the secret from a sheet's text before it is stored.
func redactSecret(text, secret string) string {
	if secret == "" {
		return text
	}
	return strings.ReplaceAll(text, secret, "(secret)")
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// receiveSkew is how far the mail server's clock (INTERNALDATE) may be off the judge's:
// only mail received more than this before a turn was resolved is taken as written for
// it. A turn is resolved early only when intake has read up to its deadline, or after
// MaxIntakeWait (an hour by default) of waiting, so a sheet this rule catches was
// received well before the resolution.
const receiveSkew = 2 * time.Minute

// readAfterItsTurn reports whether the mail in row reached the server before the game's
// current turn began (the previous turn's resolution, less receiveSkew), and when that
// turn began. The set-up (turn 0) is not a resolution: mail before the game began is not
// late.
func readAfterItsTurn(tx *store.Tx, v *views, g store.Game, row store.InboxMessage) (time.Time, bool, error) {
	if g.CurrentTurn < 2 || row.Received.IsZero() {
		return time.Time{}, false, nil
	}
	// the latest turn is the one before the current (the state it is played from)
	prev, err := tx.LatestTurn(g.ID)
	if err == nil && prev.Number != g.CurrentTurn-1 {
		prev, err = tx.Turn(g.ID, g.CurrentTurn-1)
	}
	if errors.Is(err, store.ErrNotFound) {
		return time.Time{}, false, nil
	}
	if err != nil {
		return time.Time{}, false, err
	}
	return prev.Resolved, row.Received.Before(prev.Resolved.Add(-receiveSkew)), nil
}
