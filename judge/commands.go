package judge

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/games"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// Commands by mail (docs/commands.md, "Mail commands").
//
// A mail is a command mail when the first line of its body that is not blank, quoted,
// a comment or a header line ("game TAG", "robot NAME", "secret S") starts with a
// command verb (HELP, LIST, JOIN, ...; any case), or is one bare word that is no order
// (then it is an unknown command and gets the help text). Then:
//
//   - one command a line, verb first, arguments separated by blanks;
//   - header lines may stand anywhere before the commands' end: "game TAG" names the game
//     (else the subject's [RR TAG]), "secret S" authenticates, "robot NAME" picks a
//     robot when an address plays more than one;
//   - ORDERS ends the commands: the rest of the mail is an order sheet, judged exactly
//     like a plain sheet (the header lines written above it count for it);
//   - BROADCAST ends the commands too: the rest of its line and the lines below are the
//     message (any "secret" line is left out);
//   - a signature ("-- ") or a quoted original ends the mail.
//
// Every command is checked before any runs: a command that needs a player or a game
// master is refused for the whole mail, exactly like a sheet with a wrong secret (no
// hint, counted for rate limiting, a foreign From told to the registered address).
// Then each runs in order, in the one transaction that stores the inbox row's status,
// and the answers go back in one reply (the same Message-ID scheme as a sheet's reply,
// so the mail seen twice answers once).

// Command is one command: a line of a command mail, or a `rallyjudge game` operation.
type Command struct {
	Verb string   // upper case
	Args []string // the words after the verb
	Text string   // BROADCAST: the message
	// KV are CREATE's key=value settings given apart (the command line's flags): taken
	// as they are, not joined into words and read again (a quote in a value cannot
	// start another key). Nil: CREATE reads Args[1:] (parseKV).
	KV   [][2]string
	Line string // the line as written, for the reply
	N    int    // its line in the mail (1-based); 0 on the command line
}

type verbInfo struct {
	who   string // "anyone", "player", "member" (player or game master), "gm", "server"
	usage string
	help  string
}

var verbs = map[string]verbInfo{
	"HELP":      {"anyone", "HELP", "this text"},
	"LIST":      {"anyone", "LIST", "the games open for players and those running"},
	"JOIN":      {"anyone", "JOIN [GAME] ROBOT", "ask to join an open game; a code comes back to CONFIRM"},
	"ORDERS":    {"player", "ORDERS", "the rest of the mail is your order sheet"},
	"STATUS":    {"member", "STATUS", "the game now: turn, deadline, whose orders are in"},
	"RESEND":    {"player", "RESEND [TURN]", "your report of a turn again (the latest by default)"},
	"HISTORY":   {"member", "HISTORY [REPLAY]", "a short log of the game's turns and press; REPLAY: the replay page, attached"},
	"WITHDRAW":  {"player", "WITHDRAW", "leave the game; your robot leaves the race"},
	"CREATE":    {"server", "CREATE GAME course=NAME [key=value ...]", "create an open game (server game masters)"},
	"START":     {"gm", "START", "deal turn 1 to the players who joined and mail the welcomes"},
	"DEADLINE":  {"gm", "DEADLINE YYYY-MM-DD HH:MM", "set this turn's deadline (UTC)"},
	"EXTEND":    {"gm", "EXTEND DURATION", "move this turn's deadline later (24h, 2d, 90m)"},
	"PAUSE":     {"gm", "PAUSE", "stop the clock"},
	"RESUME":    {"gm", "RESUME", "start the clock again with the time that was left"},
	"REPLACE":   {"gm", "REPLACE ROBOT ADDRESS", "give a robot to a new player (a new secret goes to them)"},
	"KICK":      {"gm", "KICK ROBOT", "withdraw a player; the robot leaves the race"},
	"PROCESS":   {"gm", "PROCESS", "resolve the turn now; missing orders follow the policy"},
	"ROLLBACK":  {"gm", "ROLLBACK", "undo the last turn; its reports are void, orders stay"},
	"SET":       {"gm", "SET KEY VALUE", "change a game option (see below)"},
	"BROADCAST": {"gm", "BROADCAST TEXT", "mail the text (to the end of the mail) to every player"},
	"PICTURES":  {"player", "PICTURES ON|OFF", "pictures in your reports (on unless you say OFF)"},
	"TIMEZONE":  {"player", "TIMEZONE ZONE", "show your deadlines in your time zone too (Europe/Berlin; UTC for none)"},
	"PRESS":     {"player", "PRESS TO ROBOT[,ROBOT..]|ALL [SIGNED|ANON]", "a message to other players: the lines below, to ENDPRESS or the end"},
	"WAIT":      {"player", "WAIT", "do not resolve this turn before its deadline (you may send a new sheet)"},
	"NOWAIT":    {"player", "NOWAIT", "take back your WAIT"},
	"ABSENT":    {"player", "ABSENT YYYY-MM-DD YYYY-MM-DD | ABSENT NONE", "announce an absence (first and last day, UTC)"},
	"ADDRESS":   {"player", "ADDRESS NEW@ADDRESS", "move your robot to a new address (the new address confirms)"},
	"CONFIRM":   {"anyone", "CONFIRM CODE", "confirm a JOIN, or a change of address (from the new one)"},
	"NEWSECRET": {"anyone", "NEWSECRET GAME ROBOT", "a new secret, mailed to the robot's registered address"},
	"WHOGAME":   {"anyone", "WHOGAME", "who plays which robot (needs your secret unless whogame is public)"},
	"OBSERVE":   {"anyone", "OBSERVE [GAME]", "get the game's public report each turn"},
	"UNOBSERVE": {"anyone", "UNOBSERVE [GAME]", "stop getting the public report"},
	"STANDBY":   {"anyone", "STANDBY [GAME] [OFF]", "offer to take over a robot whose player leaves; OFF: stop"},
}

var playerOrder = []string{"HELP", "LIST", "JOIN", "ORDERS", "STATUS", "RESEND", "HISTORY", "WITHDRAW", "PICTURES",
	"TIMEZONE", "PRESS", "WAIT", "NOWAIT", "ABSENT", "ADDRESS", "CONFIRM", "NEWSECRET", "WHOGAME", "OBSERVE", "UNOBSERVE", "STANDBY"}
var gmOrder = []string{"CREATE", "START", "DEADLINE", "EXTEND", "PAUSE", "RESUME", "REPLACE", "KICK", "PROCESS", "ROLLBACK", "SET", "BROADCAST"}

// HelpText is the reply to HELP and to an unknown command.
func HelpText(judge string) string {
	var b strings.Builder
	var open []string // the commands anyone may send, from the table, so the text stays true
	for _, v := range playerOrder {
		// WHOGAME is sent by anyone but answered without a secret only when the game's
		// whogame is public (cmdWhoGame): the help says it needs one, as the guides do.
		if verbs[v].who == "anyone" && v != "WHOGAME" {
			open = append(open, v)
		}
	}
	fmt.Fprintf(&b, "Mail commands to %s, one a line, in the body of a mail. Name the game with\n"+
		"[RR GAME] in the subject or a line \"game GAME\". Every command but\n%s\n"+
		"needs your secret on a line \"secret YOURSECRET\".\n\nFor players:\n", judge, strings.Join(open, ", "))
	for _, v := range playerOrder {
		fmt.Fprintf(&b, "  %-28s %s\n", verbs[v].usage, verbs[v].help)
	}
	b.WriteString("\nFor game masters (your game master secret):\n")
	for _, v := range gmOrder {
		fmt.Fprintf(&b, "  %-28s %s\n", verbs[v].usage, verbs[v].help)
	}
	b.WriteString("\nGame options (CREATE GAME key=value ..., SET KEY VALUE); CREATE also takes seed\n" +
		"and the game's own settings:\n")
	b.WriteString(settingsHelp())
	b.WriteString("\nGames: CREATE GAME game=NAME plays another game than the first (the default), with\n" +
		"that game's own settings as key=value; docs/games.md lists them:\n")
	for _, k := range games.Hosted() {
		line := k.Title()
		if t, ok := k.(game.Tagline); ok { // the game in a line (RoboRally: course=NAME ...)
			line = t.Tagline()
		}
		fmt.Fprintf(&b, "  %-28s %s\n", k.Name(), line)
	}
	return b.String()
}

// MaxCommands is the most commands one mail may hold, and MaxSameCommand the most
// times one command may stand in it (SET: once for each setting). A mail with more is
// refused whole: a thousand PRESS TO ALL, ADDRESS or EXTEND lines in one mail were a
// thousand mails to the other players or to any address.
const (
	MaxCommands    = 40
	MaxSameCommand = 8
)

// commandLimits refuses a mail of more than MaxCommands commands, or of one command
// more than MaxSameCommand times, saying on which line the first one too many is.
func commandLimits(cmds []Command) error {
	seen := map[string]int{}
	for _, c := range cmds {
		seen[c.Verb]++
		most := MaxSameCommand
		if c.Verb == "SET" {
			most = len(gameSettings) + 2 // the player's own SET PICTURES and SET TIMEZONE too
		}
		if seen[c.Verb] > most {
			return refuse("line %d: %s is given more than %d times in this mail; send at most %d a mail.", c.N, c.Verb, most, most)
		}
	}
	if len(cmds) > MaxCommands {
		return refuse("this mail has %d commands; at most %d are read from one mail (command %d is on line %d).",
			len(cmds), MaxCommands, MaxCommands+1, cmds[MaxCommands].N)
	}
	return nil
}

// cmdEnv is what a command runs with.
type cmdEnv struct {
	tx      *store.Tx
	from    string            // the sender; "" on the command line
	cli     bool              // the command line: a game master on the server, trusted
	key     string            // makes this run's notice Message-IDs unique: the inbox row
	proofs  map[string]string // a failed mail judged again: its secrets' proofs (failed.go)
	cm      *commandMail
	tag     string // the game named by the mail or the command line
	game    *store.Game
	player  *store.Player
	gm      *store.GM
	touched int64         // a game whose readiness may have changed
	slots   []store.Owner // secrets the reply gives (their placeholders are in its text)
}

// userError is a command refused for a reason its sender is told.
type userError string

func (e userError) Error() string { return string(e) }

func refuse(format string, a ...any) error { return userError(fmt.Sprintf(format, a...)) }

// judgeCommands runs a command mail.
func (j *Judge) judgeCommands(tx *store.Tx, row store.InboxMessage, msg *mail.Message, from string, rd *Reading, f *fate) (store.InboxStatus, string, int64, error) {
	cm := rd.cm
	f.outcome, f.game, f.robot = outcomeCommand, cm.game, cm.robot
	e := &cmdEnv{tx: tx, from: from, key: strconv.FormatInt(row.ID, 10), proofs: row.Proofs, cm: cm, tag: cm.game}
	if e.tag == "" {
		if m := tagInSubject.FindStringSubmatch(msg.Subject); m != nil {
			e.tag = strings.ToLower(m[1])
		}
	}
	// "SET PICTURES OFF" and "SET TIMEZONE ZONE" from a player are the player's own
	// settings, PICTURES OFF and TIMEZONE ZONE.
	for i, c := range cm.cmds {
		if c.Verb == "SET" && len(c.Args) > 0 {
			if own := strings.ToUpper(c.Args[0]); own == "PICTURES" || own == "TIMEZONE" {
				cm.cmds[i].Verb, cm.cmds[i].Args = own, c.Args[1:]
			}
		}
	}
	// Too many commands, or one command too often, is refused whole, before the secret
	// is looked at: one mail must not become thousands of mails, rows or replies.
	if err := commandLimits(cm.cmds); err != nil {
		f.outcome = outcomeRefused
		return store.InboxRejected, clip(err.Error(), 200), 0, j.replyText(tx, row, msg, from, 0, err.Error()+"\n\nNothing was done.\n", j.replyID(row.ID))
	}
	// Authenticate first, for every command: nothing runs unless everything may.
	for _, c := range cm.cmds {
		if err := j.authorize(e, c); err != nil {
			var d *denial
			if errors.As(err, &d) {
				f.outcome = outcomeIdentity
				return j.deny(tx, row, msg, from, e, d)
			}
			var ue userError
			if errors.As(err, &ue) {
				f.outcome = outcomeRefused
				return store.InboxRejected, clip(ue.Error(), 200), 0, j.replyText(tx, row, msg, from, 0, string(ue)+"\n\nNothing was done.\n", j.replyID(row.ID))
			}
			return "", "", 0, err
		}
	}
	var b strings.Builder
	var names []string
	var gameID int64
	home := e.game // the game the commands were authorised for; nil when none needed one
	for _, c := range cm.cmds {
		if c.Verb == "ORDERS" {
			continue
		}
		if err := j.backHome(e, home); err != nil {
			return "", "", 0, err
		}
		var text string
		var err error
		if gone, gerr := j.playerGone(e); gerr != nil {
			return "", "", 0, gerr
		} else if who := verbs[c.Verb].who; gone && (who == "player" || who == "member" && e.gm == nil) {
			err = refuse("%s left game %s above in this mail; nothing more is done for it.", e.player.Robot, e.game.Tag)
		} else {
			text, err = j.runCommand(e, c)
		}
		var ue userError
		if errors.As(err, &ue) {
			text, err = "Not done: "+ue.Error()+"\n", nil
		}
		if err != nil {
			return "", "", 0, err
		}
		fmt.Fprintf(&b, "> %s\n%s\n", echoLine(c.Line), strings.TrimRight(text, "\n")+"\n")
		names = append(names, strings.TrimPrefix(c.Verb, "?"))
	}
	if len(cm.unknown) > 0 {
		// a sign-off or a typo below the commands: named once, without the help text
		var ls []string
		for _, c := range cm.unknown {
			ls = append(ls, fmt.Sprintf("line %d %q", c.N, clip(c.Line, 60)))
		}
		if len(ls) > 5 {
			ls = append(ls[:5], fmt.Sprintf("and %d more", len(cm.unknown)-5))
		}
		fmt.Fprintf(&b, "Not commands, so not read: %s. (HELP lists the commands.)\n", strings.Join(ls, ", "))
	}
	if e.game != nil {
		gameID = e.game.ID
		f.game = e.game.Tag
	}
	if e.player != nil {
		f.robot = e.player.Robot
	}
	id := j.replyID(row.ID)
	if cm.sheet != nil {
		id = j.noticeID("cmd", row.ID) // the sheet's own reply takes reply.ID
	}
	if b.Len() > 0 {
		// no secret proved who sent the commands (HELP, LIST, JOIN ...): the reply
		// quotes nothing of the mail, even to a registered address (reflection.go)
		unproven := e.player == nil && e.gm == nil
		if err := j.enqueue(tx, outMail{kind: "command", gameID: gameID, turn: -1, to: from, subject: replySubject(msg.Subject),
			messageID: id, inReplyTo: msg.MessageID, text: b.String(), slots: e.slots, unproven: unproven}); err != nil {
			return "", "", 0, err
		}
	}
	if rd.Sheet != nil {
		status, note, gid, err := j.judgeSheet(tx, nil, row, msg, from, rd, f) // the commands may have changed the game
		if len(names) > 0 {
			note = "commands " + strings.Join(names, ", ") + "; " + note
		}
		if gid == 0 {
			gid = e.touched
		}
		return status, note, gid, err
	}
	return store.InboxProcessed, clip("commands: "+strings.Join(names, ", "), 200), e.touched, nil
}

// backHome gives the next command of a mail the game the mail's commands were
// authorised for. A command that names a game of its own (JOIN, NEWSECRET, OBSERVE,
// UNOBSERVE, STANDBY, CONFIRM, CREATE) loads that game for itself only: the commands
// after it must not run there with the secret checked for another game (the bug:
// "OBSERVE autumn" then "KICK Alpha" from spring's game master kicked autumn's Alpha).
func (j *Judge) backHome(e *cmdEnv, home *store.Game) error {
	if home == nil {
		e.game = nil
		return nil
	}
	if e.game != nil && e.game.ID == home.ID {
		return nil
	}
	g, err := e.tx.Game(home.ID) // as the commands before may have changed it
	if err != nil {
		return err
	}
	e.game = &g
	return nil
}

// playerGone reports whether the mail's player has left the game by a command above
// (WITHDRAW: a seat in an open game is deleted, a running game's player withdrawn), and
// otherwise reads the player again. The bug: a second WITHDRAW in an open game deleted
// the deleted seat again, the mail failed with "delete player: not found" and got no
// answer; in a running game a withdrawn player's PRESS below the WITHDRAW still went out.
func (j *Judge) playerGone(e *cmdEnv) (bool, error) {
	if e.player == nil {
		return false, nil
	}
	p, err := e.tx.PlayerByID(e.player.ID)
	if errors.Is(err, store.ErrNotFound) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	e.player = &p
	return p.Withdrawn, nil
}

func (j *Judge) replyText(tx *store.Tx, row store.InboxMessage, msg *mail.Message, to string, gameID int64, text, id string) error {
	turn := -1
	return j.enqueue(tx, outMail{kind: "command", gameID: gameID, turn: turn, to: to, subject: replySubject(msg.Subject),
		messageID: id, inReplyTo: msg.MessageID, text: text, unproven: true}) // refused before any secret was checked
}

// runCommand runs one authorised command and returns the answer.
func (j *Judge) runCommand(e *cmdEnv, c Command) (string, error) {
	switch c.Verb {
	case "HELP":
		return HelpText(j.Address), nil
	case "LIST":
		return j.cmdList(e)
	case "JOIN":
		return j.cmdJoin(e, c)
	case "STATUS":
		text, err := j.cmdStatus(e)
		if err != nil || e.gm == nil && !e.cli {
			return text, err
		}
		w, err := j.withheldToday(e)
		return text + w, err
	case "RESEND":
		return j.cmdResend(e, c)
	case "HISTORY":
		return j.cmdHistory(e, c)
	case "WITHDRAW":
		if e.player == nil {
			return "", refuse("WITHDRAW is for players; game masters use KICK ROBOT.")
		}
		return j.withdraw(e, *e.player, "withdrew")
	case "CREATE":
		return j.cmdCreate(e, c)
	case "START":
		return j.cmdStart(e)
	case "DEADLINE", "EXTEND":
		return j.cmdDeadline(e, c)
	case "PAUSE":
		return j.cmdPause(e)
	case "RESUME":
		return j.cmdResume(e)
	case "REPLACE":
		return j.cmdReplace(e, c)
	case "KICK":
		if len(c.Args) != 1 {
			return "", refuse("write KICK ROBOT.")
		}
		p, err := j.robot(e, c.Args[0])
		if err != nil {
			return "", err
		}
		return j.withdraw(e, p, "was removed by the game master")
	case "PROCESS":
		return j.cmdProcess(e)
	case "ROLLBACK":
		return j.cmdRollback(e)
	case "SET":
		return j.cmdSet(e, c)
	case "BROADCAST":
		return j.cmdBroadcast(e, c)
	case "PICTURES":
		return j.cmdPictures(e, c)
	case "TIMEZONE":
		return j.cmdTimezone(e, c)
	case "PRESS":
		return j.cmdPress(e, c)
	case "WAIT", "NOWAIT":
		return j.cmdWait(e, c)
	case "ABSENT":
		return j.cmdAbsent(e, c)
	case "ADDRESS":
		return j.cmdAddress(e, c)
	case "CONFIRM":
		return j.cmdConfirm(e, c)
	case "NEWSECRET":
		return j.cmdNewSecret(e, c)
	case "WHOGAME":
		return j.cmdWhoGame(e)
	case "OBSERVE", "UNOBSERVE":
		return j.cmdObserve(e, c)
	case "STANDBY":
		return j.cmdStandby(e, c)
	}
	return fmt.Sprintf("Unknown command %q. The commands:\n\n%s", strings.TrimPrefix(c.Verb, "?"), HelpText(j.Address)), nil
}

func (j *Judge) audit(e *cmdEnv, action, detail string) error {
	actor := e.from
	switch {
	case e.cli:
		actor = "gm (command line)"
	case e.player != nil && e.gm == nil:
		actor = e.player.Robot
	}
	var gid int64
	if e.game != nil {
		gid = e.game.ID
	}
	_, err := e.tx.Audit(store.AuditEntry{At: j.now(), GameID: gid, Actor: actor, Action: action, Detail: detail})
	return err
}

// RunCommand runs a game master's command from the server's command line (rallyjudge
// game): trusted, no secret needed. The mails it produces go into the outbox for the
// running daemon to send. It returns the answer a mail would have got.
func (j *Judge) RunCommand(ctx context.Context, tag string, c Command) (string, error) {
	c.Verb = strings.ToUpper(c.Verb)
	if c.Line == "" {
		c.Line = strings.TrimSpace(c.Verb + " " + strings.Join(c.Args, " "))
	}
	var out string
	var touched int64
	err := j.Store.Tx(ctx, func(tx *store.Tx) error {
		e := &cmdEnv{tx: tx, cli: true, key: fmt.Sprintf("cli%d", j.Now().UnixNano()), cm: &commandMail{}, tag: strings.ToLower(tag)}
		info, known := verbs[c.Verb]
		if !known {
			return fmt.Errorf("unknown command %q", c.Verb)
		}
		if info.who != "anyone" && info.who != "server" {
			if err := j.loadGame(e, ""); err != nil {
				return err
			}
		}
		switch c.Verb {
		case "JOIN", "ORDERS", "RESEND", "WITHDRAW":
			return fmt.Errorf("%s is a player's command, by mail", c.Verb)
		}
		text, err := j.runCommand(e, c)
		if err != nil {
			return err
		}
		out, touched = text, e.touched
		return nil
	})
	if err != nil {
		return "", err
	}
	if touched != 0 {
		if _, err := j.ResolveIfReady(ctx, touched); err != nil {
			j.ready.mark(touched) // the next tick tries again (readywatch.go)
			if errors.Is(err, errGameBusy) {
				return out, nil // another judge has the game: its turn is its
			}
			return out, err
		}
	}
	return out, nil
}
