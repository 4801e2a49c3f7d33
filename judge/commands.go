package judge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/orders"
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
	Line string   // the line as written, for the reply
}

type verbInfo struct {
	who   string // "anyone", "player", "member" (player or game master), "gm", "server"
	usage string
	help  string
}

var verbs = map[string]verbInfo{
	"HELP":      {"anyone", "HELP", "this text"},
	"LIST":      {"anyone", "LIST", "the games open for players and those running"},
	"JOIN":      {"anyone", "JOIN [GAME] ROBOT", "join an open game with a robot; the reply carries your secret"},
	"ORDERS":    {"player", "ORDERS", "the rest of the mail is your order sheet"},
	"STATUS":    {"member", "STATUS", "the game now: turn, deadline, whose orders are in"},
	"RESEND":    {"player", "RESEND [TURN]", "your report of a turn again (the latest by default)"},
	"HISTORY":   {"member", "HISTORY", "a short log of the game's turns"},
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
}

var playerOrder = []string{"HELP", "LIST", "JOIN", "ORDERS", "STATUS", "RESEND", "HISTORY", "WITHDRAW", "PICTURES"}
var gmOrder = []string{"CREATE", "START", "DEADLINE", "EXTEND", "PAUSE", "RESUME", "REPLACE", "KICK", "PROCESS", "ROLLBACK", "SET", "BROADCAST"}

// HelpText is the reply to HELP and to an unknown command.
func HelpText(judge string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Mail commands to %s, one a line, in the body of a mail. Name the game with\n"+
		"[RR GAME] in the subject or a line \"game GAME\"; every command but HELP, LIST and JOIN\n"+
		"needs your secret on a line \"secret YOURSECRET\".\n\nFor players:\n", judge)
	for _, v := range playerOrder {
		fmt.Fprintf(&b, "  %-28s %s\n", verbs[v].usage, verbs[v].help)
	}
	b.WriteString("\nFor game masters (your game master secret):\n")
	for _, v := range gmOrder {
		fmt.Fprintf(&b, "  %-28s %s\n", verbs[v].usage, verbs[v].help)
	}
	b.WriteString("\nGame options (CREATE key=value, SET key value): name, deadline (48h | daily 18:00),\n" +
		"grace (2h), missed (powerdown | random | autopilot), players (the most that may join),\n" +
		"missed-limit (N turns in a row; 0 never), on-missed-limit (ask | remove),\n" +
		"reminders (24h,2h | none), list (a mailing list address); CREATE also takes\n" +
		"course, seed and rules.KEY=VALUE (the rules options).\n")
	return b.String()
}

// commandMail is a mail's commands and header lines.
type commandMail struct {
	game, secret, robot string
	headers             []string // the header lines as written, to go before an ORDERS sheet
	cmds                []Command
	sheet               *string // after ORDERS
}

var headerWord = map[string]string{"game": "game", "robot": "robot", "bot": "robot", "secret": "secret",
	"password": "secret", "passwd": "secret", "pw": "secret", "pass": "secret"}

// header reads "key value" or "key: value" for a header key.
func header(line string) (key, val string, ok bool) {
	f := strings.Fields(strings.Replace(line, ":", " ", 1))
	if len(f) != 2 {
		return "", "", false
	}
	key, ok = headerWord[strings.ToLower(f[0])]
	return key, f[1], ok
}

var bareWord = regexp.MustCompile(`^[A-Za-z]+[!.?]?$`)

// parseCommandMail reads a mail body as a command mail; ok is false when it is not one.
func parseCommandMail(text string) (cm *commandMail, ok bool) {
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	lines := strings.Split(text, "\n")
	cm = &commandMail{}
	for i := 0; i < len(lines); i++ {
		raw := lines[i]
		t := strings.TrimSpace(raw)
		if strings.TrimRight(raw, " \t") == "--" {
			break
		}
		l := strings.ToLower(strings.Trim(t, "-_ "))
		if l == "original message" || l == "forwarded message" {
			break
		}
		if t == "" || strings.HasPrefix(t, ">") || strings.HasPrefix(t, "//") || (strings.HasPrefix(t, "#") && !isOrdersMarker(t)) ||
			strings.HasSuffix(strings.ToLower(t), "wrote:") {
			continue
		}
		if k, v, hok := header(t); hok {
			switch k {
			case "game":
				cm.game = strings.ToLower(v)
			case "robot":
				cm.robot = v
			case "secret":
				cm.secret = v
			}
			cm.headers = append(cm.headers, t)
			continue
		}
		f := strings.Fields(t)
		verb := strings.ToUpper(strings.TrimRight(f[0], ":"))
		if isOrdersMarker(t) {
			verb = "ORDERS"
		}
		if _, known := verbs[verb]; !known {
			if len(cm.cmds) == 0 && !(len(f) == 1 && bareWord.MatchString(t) && notOrders(t)) {
				return nil, false // the mail is an order sheet
			}
			cm.cmds = append(cm.cmds, Command{Verb: "?" + f[0], Line: t})
			continue
		}
		c := Command{Verb: verb, Args: f[1:], Line: t}
		switch verb {
		case "ORDERS":
			rest := strings.Join(lines[i+1:], "\n")
			cm.sheet = &rest
			cm.cmds = append(cm.cmds, c)
			return cm, true
		case "BROADCAST":
			var body []string
			if first := strings.TrimSpace(t[len(f[0]):]); first != "" {
				body = append(body, first)
			}
			for _, l := range lines[i+1:] {
				if strings.TrimRight(l, " \t") == "--" {
					break
				}
				if k, _, hok := header(strings.TrimSpace(l)); hok && k == "secret" {
					continue
				}
				body = append(body, strings.TrimRight(l, " \t"))
			}
			c.Text = strings.TrimSpace(strings.Join(body, "\n"))
			c.Line = "BROADCAST"
			cm.cmds = append(cm.cmds, c)
			return cm, true
		}
		cm.cmds = append(cm.cmds, c)
	}
	return cm, len(cm.cmds) > 0
}

func isOrdersMarker(t string) bool {
	l := strings.ToLower(strings.Trim(t, "-#=*[]<>_ :"))
	return l == "orders" && strings.TrimLeft(t, "-#=*[<_ ") != t
}

func notOrders(line string) bool {
	_, err := orders.ParseText([]byte(line))
	return err != nil
}

// cmdEnv is what a command runs with.
type cmdEnv struct {
	tx      *store.Tx
	from    string // the sender; "" on the command line
	cli     bool   // the command line: a game master on the server, trusted
	key     string // makes this run's notice Message-IDs unique: the inbox row
	cm      *commandMail
	tag     string // the game named by the mail or the command line
	game    *store.Game
	player  *store.Player
	gm      *store.GM
	touched int64 // a game whose readiness may have changed
}

// denial is an identity failure: the whole mail is refused.
type denial struct {
	note    string
	spoofed *store.Player // From is not the named robot's registered address
}

func (d *denial) Error() string { return d.note }

// userError is a command refused for a reason its sender is told.
type userError string

func (e userError) Error() string { return string(e) }

func refuse(format string, a ...any) error { return userError(fmt.Sprintf(format, a...)) }

// judgeCommands runs a command mail.
func (j *Judge) judgeCommands(tx *store.Tx, row store.InboxMessage, msg *mail.Message, from string, cm *commandMail) (store.InboxStatus, string, int64, error) {
	e := &cmdEnv{tx: tx, from: from, key: strconv.FormatInt(row.ID, 10), cm: cm, tag: cm.game}
	if e.tag == "" {
		if m := tagInSubject.FindStringSubmatch(msg.Subject); m != nil {
			e.tag = strings.ToLower(m[1])
		}
	}
	// "SET PICTURES OFF" from a player is the player's own setting, PICTURES OFF.
	for i, c := range cm.cmds {
		if c.Verb == "SET" && len(c.Args) > 0 && strings.EqualFold(c.Args[0], "PICTURES") {
			cm.cmds[i].Verb, cm.cmds[i].Args = "PICTURES", c.Args[1:]
		}
	}
	// Authenticate first, for every command: nothing runs unless everything may.
	for _, c := range cm.cmds {
		if err := j.authorize(e, c); err != nil {
			var d *denial
			if errors.As(err, &d) {
				return j.deny(tx, row, msg, from, e, d)
			}
			var ue userError
			if errors.As(err, &ue) {
				return store.InboxRejected, clip(ue.Error(), 200), 0, j.replyText(tx, row, msg, from, 0, string(ue)+"\n\nNothing was done.\n", j.replyID(row.ID))
			}
			return "", "", 0, err
		}
	}
	var b strings.Builder
	var names []string
	var gameID int64
	for _, c := range cm.cmds {
		if c.Verb == "ORDERS" {
			continue
		}
		text, err := j.runCommand(e, c)
		var ue userError
		if errors.As(err, &ue) {
			text, err = "Not done: "+ue.Error()+"\n", nil
		}
		if err != nil {
			return "", "", 0, err
		}
		fmt.Fprintf(&b, "> %s\n%s\n", c.Line, strings.TrimRight(text, "\n")+"\n")
		names = append(names, strings.TrimPrefix(c.Verb, "?"))
	}
	if e.game != nil {
		gameID = e.game.ID
	}
	id := j.replyID(row.ID)
	if cm.sheet != nil {
		id = j.noticeID("cmd", row.ID) // the sheet's own reply takes reply.ID
	}
	if b.Len() > 0 {
		if err := j.replyText(tx, row, msg, from, gameID, b.String(), id); err != nil {
			return "", "", 0, err
		}
	}
	if cm.sheet != nil {
		text := j.sheetText(cm)
		m2 := *msg
		m2.Text = text
		status, note, gid, err := j.judgeSheet(tx, row, &m2, from)
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

// sheetText is the sheet after ORDERS with the mail's header lines before it, unless
// the sheet writes them itself.
func (j *Judge) sheetText(cm *commandMail) string {
	rest := *cm.sheet
	s, _ := orders.Parse([]byte(rest))
	var pre []string
	for _, h := range cm.headers {
		k, _, _ := header(h)
		if s != nil && (k == "game" && s.Game != "" || k == "robot" && s.Robot != "" || k == "secret" && s.Secret != "") {
			continue
		}
		pre = append(pre, h)
	}
	if len(pre) == 0 {
		return rest
	}
	return strings.Join(pre, "\n") + "\n" + rest
}

func (j *Judge) replyText(tx *store.Tx, row store.InboxMessage, msg *mail.Message, to string, gameID int64, text, id string) error {
	turn := -1
	return j.enqueue(tx, outMail{kind: "command", gameID: gameID, turn: turn, to: to, subject: replySubject(msg.Subject),
		messageID: id, inReplyTo: msg.MessageID, text: text})
}

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
			subject: subject(e.game.Tag, "a mail for your robot came from another address"), messageID: j.noticeID("spoof", row.ID), text: text})
	}
	if _, err := tx.Audit(store.AuditEntry{At: j.now(), GameID: gameID, Actor: from, Action: "auth-failure", Detail: d.note}); err != nil {
		return "", "", 0, err
	}
	return store.InboxRejected, d.note, 0, j.reject(tx, row, msg, from, "Your mail was not accepted: the game, robot, address and secret did not match.", nil, "")
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
		return refuse("there is no game %q here.", tag)
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
			return &denial{note: "missing secret"}
		}
		gms, err := e.tx.ServerGMs(e.from)
		if err != nil {
			return err
		}
		for i := range gms {
			if j.verified.check(gms[i].SecretHash, e.cm.secret) {
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
	gms, err := e.tx.GMByEmail(e.game.ID, e.from)
	if err != nil {
		return err
	}
	for i := range gms {
		if e.cm.secret != "" && j.verified.check(gms[i].SecretHash, e.cm.secret) {
			e.gm = &gms[i]
			return nil
		}
	}
	if len(gms) == 0 {
		return &denial{note: "not a game master of this game"}
	}
	return &denial{note: "wrong or missing secret"}
}

// findPlayer is the sender's player in the game, checked like a sheet: the robot named
// (or the one registered with From), its address, its secret. It returns nil, nil when
// From plays no robot here and none was named (the sender may be a game master).
func (j *Judge) findPlayer(e *cmdEnv) (*store.Player, error) {
	players, err := e.tx.Players(e.game.ID)
	if err != nil {
		return nil, err
	}
	var p *store.Player
	for i := range players {
		q := &players[i]
		if e.cm.robot != "" && strings.EqualFold(q.Robot, e.cm.robot) || e.cm.robot == "" && strings.EqualFold(q.Email, e.from) {
			p = q
			break
		}
	}
	if p == nil {
		if e.cm.robot != "" {
			return nil, &denial{note: "robot not in this game"}
		}
		return nil, nil
	}
	if !strings.EqualFold(p.Email, e.from) {
		return nil, &denial{note: "From is not the registered address", spoofed: p}
	}
	if e.cm.secret == "" || !j.verified.check(p.SecretHash, e.cm.secret) {
		return nil, &denial{note: "wrong or missing secret"}
	}
	return p, nil
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
		return j.cmdStatus(e)
	case "RESEND":
		return j.cmdResend(e, c)
	case "HISTORY":
		return j.cmdHistory(e)
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
	}
	return fmt.Sprintf("Unknown command %q. The commands:\n\n%s", strings.TrimPrefix(c.Verb, "?"), HelpText(j.Address)), nil
}

// cmdPictures switches the pictures in a player's reports on or off (issue 6: "A player
// can switch pictures off"); the text board is always there.
func (j *Judge) cmdPictures(e *cmdEnv, c Command) (string, error) {
	if e.player == nil || len(c.Args) != 1 {
		return "", refuse("write PICTURES ON or PICTURES OFF.")
	}
	var on bool
	switch strings.ToUpper(c.Args[0]) {
	case "ON":
		on = true
	case "OFF":
	default:
		return "", refuse("write PICTURES ON or PICTURES OFF, not %q.", c.Args[0])
	}
	if err := e.tx.SetPlayerPictures(e.player.ID, on); err != nil {
		return "", err
	}
	if err := j.audit(e, "pictures", c.Args[0]); err != nil {
		return "", err
	}
	if on {
		return "Your reports will show the board and the turn as pictures again.\n", nil
	}
	return "Your reports will come without pictures (the text board stays).\n", nil
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

func (j *Judge) cmdList(e *cmdEnv) (string, error) {
	gs, err := e.tx.Games(store.GameOpen, store.GameRunning, store.GamePaused)
	if err != nil {
		return "", err
	}
	if len(gs) == 0 {
		return "No games are open or running. A game master can CREATE one.\n", nil
	}
	var b strings.Builder
	for _, g := range gs {
		o, err := j.optionsOf(e.tx, g)
		if err != nil {
			return "", err
		}
		ps, err := e.tx.Players(g.ID)
		if err != nil {
			return "", err
		}
		what := fmt.Sprintf("turn %d", g.CurrentTurn)
		if g.Status == store.GameOpen {
			what = fmt.Sprintf("JOIN %s ROBOT", g.Tag)
			if len(ps) >= o.maxPlayers() {
				what = "full"
			}
		}
		fmt.Fprintf(&b, "  %-16s %-8s %-10s %d/%d players  %s\n", g.Tag, g.Status, g.Course, len(ps), o.maxPlayers(), what)
	}
	return b.String(), nil
}

var robotName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,19}$`)

func (j *Judge) cmdJoin(e *cmdEnv, c Command) (string, error) {
	var tag, robot string
	switch len(c.Args) {
	case 1:
		robot = c.Args[0]
	case 2:
		tag, robot = strings.ToLower(c.Args[0]), c.Args[1]
	default:
		return "", refuse("write JOIN GAME ROBOT.")
	}
	if err := j.loadGame(e, tag); err != nil {
		return "", err
	}
	g := e.game
	if !robotName.MatchString(robot) {
		return "", refuse("a robot's name is a letter and up to 19 letters, digits, - or _ (not %q).", robot)
	}
	if g.Status != store.GameOpen {
		return "", refuse("game %s is %s: it takes no new players.", g.Tag, g.Status)
	}
	o, err := j.optionsOf(e.tx, *g)
	if err != nil {
		return "", err
	}
	ps, err := e.tx.Players(g.ID)
	if err != nil {
		return "", err
	}
	if len(ps) >= o.maxPlayers() {
		return "", refuse("game %s is full (%d players).", g.Tag, len(ps))
	}
	seat := 0
	for _, p := range ps {
		if strings.EqualFold(p.Robot, robot) {
			return "", refuse("game %s has a robot called %s already; choose another name.", g.Tag, p.Robot)
		}
		if e.from != "" && strings.EqualFold(p.Email, e.from) {
			return "", refuse("you play %s in game %s already.", p.Robot, g.Tag)
		}
		seat = max(seat, p.Seat+1)
	}
	if e.from == "" {
		return "", refuse("JOIN is by mail: the player's address is the one the mail comes from.")
	}
	sec, hash, err := newSecret()
	if err != nil {
		return "", err
	}
	if _, err := e.tx.AddPlayer(store.Player{GameID: g.ID, Robot: robot, Seat: seat, Email: e.from, SecretHash: hash, Created: j.now()}); err != nil {
		return "", err
	}
	if err := j.audit(e, "join", robot); err != nil {
		return "", err
	}
	return fmt.Sprintf("You have joined game %s (course %s) with the robot %s; %d of %d seats are taken.\n\n"+
		"Your secret is: %s\n\nKeep it: every order sheet and command needs it, on a line \"secret ...\".\n"+
		"It is in this mail only. When the game master STARTs the game you get your robot's\nfirst hand.\n",
		g.Tag, g.Course, robot, len(ps)+1, o.maxPlayers(), sec), nil
}

func (j *Judge) cmdStatus(e *cmdEnv) (string, error) {
	g := *e.game
	o, err := j.optionsOf(e.tx, g)
	if err != nil {
		return "", err
	}
	ps, err := e.tx.Players(g.ID)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Game %s", g.Tag)
	if g.Name != "" {
		fmt.Fprintf(&b, " (%s)", g.Name)
	}
	fmt.Fprintf(&b, ", course %s: %s.\n", g.Course, g.Status)
	if g.Status == store.GameOpen {
		fmt.Fprintf(&b, "%d of %d players have joined:\n", len(ps), o.maxPlayers())
		for _, p := range ps {
			fmt.Fprintf(&b, "  %s\n", p.Robot)
		}
		return b.String(), nil
	}
	st, _, err := stateOf(e.tx, g)
	if err != nil {
		return "", err
	}
	if g.Status != store.GameOver {
		fmt.Fprintf(&b, "Turn %d. Deadline: %s", g.CurrentTurn, deadlineText(g.DeadlineAt))
		if g.Grace > 0 {
			fmt.Fprintf(&b, " (grace %s)", g.Grace)
		}
		if g.Status == store.GamePaused {
			fmt.Fprintf(&b, "; the clock is stopped, %s left", time.Duration(o.PausedLeft)*time.Second)
		}
		fmt.Fprintf(&b, ".\nWithout orders: %s.\n\n", policyText(o.policy(g)))
	} else {
		fmt.Fprintf(&b, "The game is over after %d turn(s).\n\n", g.CurrentTurn-1)
	}
	valid, err := j.turnSheets(e.tx, g.ID, g.CurrentTurn, st)
	if err != nil {
		return "", err
	}
	for i, r := range st.Robots {
		p := playerAt(ps, i)
		var what string
		switch {
		case p != nil && p.Withdrawn:
			what = "withdrawn"
		case r.Out:
			what = "out of the race"
		case g.Status == store.GameOver:
			what = fmt.Sprintf("%d flag(s)", r.Flags)
		case !needsProgram(r):
			what = "powered down: no program needed"
		case valid[r.Name] != nil && valid[r.Name].HasProgram():
			what = "orders in"
		default:
			what = "waiting for orders"
		}
		if p != nil && p.Missed > 0 && !p.Withdrawn {
			what += fmt.Sprintf(" (missed %d turn(s) in a row)", p.Missed)
		}
		fmt.Fprintf(&b, "  %-12s %s\n", r.Name, what)
	}
	return b.String(), nil
}

var seatInID = regexp.MustCompile(`\.s(\d+)@`)

func (j *Judge) cmdResend(e *cmdEnv, c Command) (string, error) {
	g, p := *e.game, *e.player
	turn := g.CurrentTurn - 1
	if len(c.Args) > 1 {
		return "", refuse("write RESEND or RESEND TURN.")
	}
	if len(c.Args) == 1 {
		n, err := strconv.Atoi(strings.TrimPrefix(strings.ToLower(c.Args[0]), "turn"))
		if err != nil || n < 0 {
			return "", refuse("%q is not a turn number.", c.Args[0])
		}
		turn = n
	}
	if g.Status == store.GameOpen || turn < 0 || turn >= g.CurrentTurn {
		return "", refuse("there is no report of turn %d yet.", turn)
	}
	ms, err := e.tx.LiveOutboxByGame(g.ID, turn)
	if err != nil {
		return "", err
	}
	var orig *store.OutboxMail
	for i := range ms {
		m := &ms[i]
		if sm := seatInID.FindStringSubmatch(m.MessageID); (m.Kind == "report" || m.Kind == "welcome") && sm != nil && sm[1] == strconv.Itoa(p.Seat) {
			orig = m
		}
	}
	if orig == nil {
		return "", refuse("no report of turn %d for %s is on file.", turn, p.Robot)
	}
	id := j.noticeID("resend", fmt.Sprintf("%s.%d.s%d", e.key, turn, p.Seat))
	raw := rewriteHeaders(orig.Raw, map[string]string{"Message-Id": "<" + id + ">", "To": "<" + p.Email + ">",
		"Date": j.now().Format(time.RFC1123Z)})
	if _, _, err := e.tx.Enqueue(store.OutboxMail{MessageID: id, To: []string{p.Email}, From: j.Address, Subject: orig.Subject,
		Raw: raw, Kind: "resend", GameID: g.ID, Turn: turn, Created: j.now()}); err != nil {
		return "", err
	}
	return fmt.Sprintf("Your report of turn %d (%q) is sent again, as a new mail.\n", turn, orig.Subject), nil
}

// rewriteHeaders replaces the named header fields of a raw message (folded lines
// included); fields it lacks are added at the top.
func rewriteHeaders(raw []byte, set map[string]string) []byte {
	end := bytes.Index(raw, []byte("\r\n\r\n"))
	nl := "\r\n"
	if end < 0 {
		end = bytes.Index(raw, []byte("\n\n"))
		nl = "\n"
	}
	if end < 0 {
		return raw
	}
	head, body := string(raw[:end]), raw[end:]
	lines := strings.Split(head, nl)
	done := map[string]bool{}
	var out []string
	skip := false
	for _, l := range lines {
		if skip && (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")) {
			continue
		}
		skip = false
		if i := strings.IndexByte(l, ':'); i > 0 {
			name := l[:i]
			for k, v := range set {
				if strings.EqualFold(k, name) {
					out = append(out, k+": "+v)
					done[k] = true
					skip = true
				}
			}
			if skip {
				continue
			}
		}
		out = append(out, l)
	}
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !done[k] {
			out = append([]string{k + ": " + set[k]}, out...)
		}
	}
	return append([]byte(strings.Join(out, nl)), body...)
}

func (j *Judge) cmdHistory(e *cmdEnv) (string, error) {
	g := *e.game
	turns, err := e.tx.LiveTurns(g.ID)
	if err != nil {
		return "", err
	}
	if len(turns) == 0 {
		return fmt.Sprintf("Game %s has not started.\n", g.Tag), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Game %s, course %s.\n  Turn 0: the robots were placed (%s).\n", g.Tag, g.Course, turns[0].Resolved.Format("2 Jan 2006 15:04 UTC"))
	for _, tn := range turns[1:] {
		fmt.Fprintf(&b, "  Turn %d (%s): %s\n", tn.Number, tn.Resolved.Format("2 Jan 15:04"), turnSummary(tn))
	}
	if g.Status != store.GameOver {
		fmt.Fprintf(&b, "Turn %d is being played.\n", g.CurrentTurn)
	}
	return b.String(), nil
}

// withdraw takes a player out: from an open game the seat is freed; from a running one
// the player is withdrawn and the robot leaves the race at the next resolution.
func (j *Judge) withdraw(e *cmdEnv, p store.Player, how string) (string, error) {
	g := *e.game
	switch g.Status {
	case store.GameOver:
		return "", refuse("game %s is over.", g.Tag)
	case store.GameOpen:
		if err := e.tx.DeletePlayer(p.ID); err != nil {
			return "", err
		}
		if err := e.tx.RenumberSeats(g.ID); err != nil {
			return "", err
		}
	default:
		if p.Withdrawn {
			return "", refuse("%s is withdrawn already.", p.Robot)
		}
		if err := e.tx.SetWithdrawn(p.ID, true); err != nil {
			return "", err
		}
		e.touched = g.ID
	}
	if err := j.audit(e, "withdraw", p.Robot+" "+how); err != nil {
		return "", err
	}
	if e.player == nil || e.player.ID != p.ID {
		if err := j.enqueue(e.tx, outMail{kind: "notice", gameID: g.ID, turn: g.CurrentTurn, to: p.Email,
			subject:   subject(g.Tag, fmt.Sprintf("%s has left the game", p.Robot)),
			messageID: j.noticeID("kick", fmt.Sprintf("%s.s%d", e.key, p.Seat)),
			text: fmt.Sprintf("The game master has taken you out of game %s: your robot %s leaves the race.\n"+
				"Your secret no longer counts for anything. Thank you for playing.\n", g.Tag, p.Robot), generated: true}); err != nil {
			return "", err
		}
	}
	if g.Status == store.GameOpen {
		return fmt.Sprintf("%s %s: the seat in game %s is free again.\n", p.Robot, how, g.Tag), nil
	}
	return fmt.Sprintf("%s %s: the robot leaves the race when turn %d is resolved.\n", p.Robot, how, g.CurrentTurn), nil
}

// robot is the player of a robot named in a game master's command.
func (j *Judge) robot(e *cmdEnv, name string) (store.Player, error) {
	p, err := e.tx.PlayerByRobot(e.game.ID, name)
	if errors.Is(err, store.ErrNotFound) {
		return p, refuse("game %s has no robot %q.", e.game.Tag, name)
	}
	return p, err
}

// parseKV reads key=value words; a value may be quoted with "..." spanning words.
func parseKV(args []string) (map[string]string, error) {
	kv := map[string]string{}
	s := strings.Join(args, " ")
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		i := strings.IndexByte(s, '=')
		if i <= 0 || strings.ContainsAny(s[:i], " \t") {
			return nil, refuse("%q: want key=value.", strings.Fields(s)[0])
		}
		key, rest := strings.ToLower(s[:i]), s[i+1:]
		var val string
		if strings.HasPrefix(rest, "\"") {
			k := strings.IndexByte(rest[1:], '"')
			if k < 0 {
				return nil, refuse("%s: the quote is not closed.", key)
			}
			val, s = rest[1:k+1], rest[k+2:]
		} else if k := strings.IndexAny(rest, " \t"); k >= 0 {
			val, s = rest[:k], rest[k:]
		} else {
			val, s = rest, ""
		}
		kv[key] = val
	}
	return kv, nil
}

// parseDeadlineRule reads "48h", "after 48h", "daily 18:00", "daily@18:00", "18:00".
func parseDeadlineRule(v string) (store.DeadlineRule, error) {
	v = strings.ToLower(strings.TrimSpace(strings.ReplaceAll(v, "@", " ")))
	v = strings.TrimSpace(strings.TrimPrefix(v, "after"))
	if strings.HasPrefix(v, "daily") || strings.Contains(v, ":") {
		clock := strings.TrimSpace(strings.TrimPrefix(v, "daily"))
		if _, err := time.Parse("15:04", clock); err != nil {
			return store.DeadlineRule{}, refuse("deadline %q: want daily HH:MM (UTC).", v)
		}
		return store.DeadlineRule{Kind: store.DeadlineFixed, Clock: clock}, nil
	}
	d, err := parseDuration(v)
	if err != nil || d < time.Hour || d%time.Hour != 0 {
		return store.DeadlineRule{}, refuse("deadline %q: want whole hours after each report (48h) or daily HH:MM.", v)
	}
	return store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: int(d / time.Hour)}, nil
}

// parseDuration reads Go durations, with d for days and a bare number as hours.
func parseDuration(v string) (time.Duration, error) {
	v = strings.ToLower(strings.TrimSpace(v))
	if n, err := strconv.Atoi(v); err == nil {
		return time.Duration(n) * time.Hour, nil
	}
	if strings.HasSuffix(v, "d") {
		n, err := strconv.Atoi(strings.TrimSuffix(v, "d"))
		if err != nil {
			return 0, refuse("%q is not a duration (24h, 2d, 90m).", v)
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, refuse("%q is not a duration (24h, 2d, 90m).", v)
	}
	return d, nil
}

// applySetting changes one game option in settings s and options o.
func applySetting(s *store.GameSettings, o *Options, key, val string) error {
	switch key {
	case "name":
		s.Name = val
	case "deadline":
		r, err := parseDeadlineRule(val)
		if err != nil {
			return err
		}
		s.Deadline = r
	case "grace":
		d, err := parseDuration(val)
		if err != nil || d < 0 {
			return refuse("grace %q: want a duration like 2h.", val)
		}
		s.Grace = d
	case "missed":
		switch strings.ToLower(val) {
		case "powerdown", "random":
			s.Missed, o.Missed = store.MissedPolicy(strings.ToLower(val)), ""
		case MissedAutopilot:
			o.Missed = MissedAutopilot
		default:
			return refuse("missed %q: want powerdown, random or autopilot.", val)
		}
	case "players", "max-players":
		n, err := strconv.Atoi(val)
		if err != nil || n < 1 || n > adjudicator.MaxRobots {
			return refuse("players %q: want 1 to %d.", val, adjudicator.MaxRobots)
		}
		o.MaxPlayers = n
	case "missed-limit":
		n, err := strconv.Atoi(val)
		if err != nil || n < 0 {
			return refuse("missed-limit %q: want a number of turns (0: never).", val)
		}
		o.MissedLimit = n
	case "on-missed-limit":
		v := strings.ToLower(val)
		if v != "ask" && v != "remove" {
			return refuse("on-missed-limit %q: want ask or remove.", val)
		}
		o.OnMissedLimit = v
	case "reminders":
		if strings.EqualFold(val, "none") {
			o.Reminders = []int64{}
			return nil
		}
		var rs []int64
		for _, f := range strings.Split(val, ",") {
			d, err := parseDuration(f)
			if err != nil || d <= 0 {
				return refuse("reminders %q: want lead times like 24h,2h or none.", val)
			}
			rs = append(rs, int64(d/time.Second))
		}
		o.Reminders = rs
	case "list":
		if val != "" && val != "none" && !strings.Contains(val, "@") {
			return refuse("list %q: want a mail address or none.", val)
		}
		if val == "none" {
			val = ""
		}
		s.ListAddress = val
	default:
		return refuse("unknown option %q (options: name, deadline, grace, missed, players, missed-limit, on-missed-limit, reminders, list).", key)
	}
	return nil
}

func settingsText(s store.GameSettings, o Options, g store.Game) string {
	dl := fmt.Sprintf("%d hours after each report", s.Deadline.Hours)
	if s.Deadline.Kind == store.DeadlineFixed {
		dl = "daily at " + s.Deadline.Clock + " UTC"
	}
	var rem []string
	for _, l := range o.leads() {
		rem = append(rem, l.String())
	}
	if len(rem) == 0 {
		rem = []string{"none"}
	}
	limit := "never"
	if o.MissedLimit > 0 {
		act := "the game master is asked to replace the player"
		if o.OnMissedLimit == "remove" {
			act = "the player is withdrawn"
		}
		limit = fmt.Sprintf("after %d missed turns in a row %s", o.MissedLimit, act)
	}
	list := s.ListAddress
	if list == "" {
		list = "none"
	}
	g.Missed = s.Missed
	return fmt.Sprintf("  name:            %s\n  deadline:        %s\n  grace:           %s\n  missed orders:   %s\n"+
		"  players:         at most %d\n  missed limit:    %s\n  reminders:       %s before the deadline\n  list:            %s\n",
		s.Name, dl, s.Grace, o.policy(g), o.maxPlayers(), limit, strings.Join(rem, ", "), list)
}

func (j *Judge) cmdCreate(e *cmdEnv, c Command) (string, error) {
	if len(c.Args) < 1 {
		return "", refuse("write CREATE GAME course=NAME [key=value ...].")
	}
	tag := strings.ToLower(c.Args[0])
	if !tagRE.MatchString(tag) {
		return "", refuse("game tag %q: use 1–40 lower-case letters, digits and dashes.", c.Args[0])
	}
	if _, err := e.tx.GameByTag(tag); err == nil {
		return "", refuse("there is a game %s already.", tag)
	} else if !errors.Is(err, store.ErrNotFound) {
		return "", err
	}
	kv, err := parseKV(c.Args[1:])
	if err != nil {
		return "", err
	}
	spec := GameSpec{Tag: tag, Course: kv["course"], Seed: j.now().Unix(),
		Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 48}, Missed: store.MissedPowerDown}
	if spec.Course == "" {
		return "", refuse("CREATE needs course=NAME.")
	}
	if _, err := j.Course(spec.Course); err != nil {
		return "", refuse("course %q: %v.", spec.Course, err)
	}
	set := store.GameSettings{Deadline: spec.Deadline, Missed: spec.Missed}
	rules := adjudicator.PostalRules()
	rulesMap := map[string]any{}
	keys := make([]string, 0, len(kv))
	for k := range kv {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := kv[k]
		switch {
		case k == "course" || k == "gm":
		case k == "seed":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return "", refuse("seed %q: want a number.", v)
			}
			spec.Seed = n
		case strings.HasPrefix(k, "rules."):
			rulesMap[strings.TrimPrefix(k, "rules.")] = v
		default:
			if err := applySetting(&set, &spec.Options, k, v); err != nil {
				return "", err
			}
		}
	}
	if len(rulesMap) > 0 {
		if err := setRules(&rules, rulesMap); err != nil {
			return "", err
		}
	}
	spec.Rules = &rules
	spec.Name, spec.Deadline, spec.Grace, spec.Missed, spec.List = set.Name, set.Deadline, set.Grace, set.Missed, set.ListAddress
	if e.cli {
		spec.GMEmail = kv["gm"]
	}
	g, secrets, err := j.createGameIn(e.tx, spec)
	if err != nil {
		return "", refuse("%v", err)
	}
	e.game = &g
	if e.gm != nil { // the server game master who created it masters it, with the same secret
		if _, err := e.tx.AddGM(store.GM{GameID: g.ID, Email: e.gm.Email, SecretHash: e.gm.SecretHash, Created: j.now()}); err != nil {
			return "", err
		}
	}
	if sec := secrets[""]; sec != "" {
		if err := j.enqueue(e.tx, outMail{kind: "gm-notice", gameID: g.ID, turn: -1, to: spec.GMEmail,
			subject:   subject(g.Tag, "You are the game master"),
			messageID: j.noticeID("gm", fmt.Sprintf("%s.%s", g.Tag, e.key)),
			text: fmt.Sprintf("You are the game master of game %s (course %s).\n\nYour game master secret is: %s\n\n"+
				"Send it on a line \"secret ...\" with every game master command; HELP lists them.\n", g.Tag, g.Course, sec),
			generated: true}); err != nil {
			return "", err
		}
	}
	return fmt.Sprintf("Game %s is created and open for players (course %s):\n%s\nPlayers join with \"JOIN %s ROBOT\"; START it when they have.\n",
		g.Tag, g.Course, settingsText(set, spec.Options, g), g.Tag), nil
}

// setRules sets rules options by their JSON names.
func setRules(r *adjudicator.Rules, kv map[string]any) error {
	b, _ := json.Marshal(r)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	for k, v := range kv {
		old, ok := m[k]
		if !ok {
			return refuse("unknown rules option %q.", k)
		}
		s := v.(string)
		switch old.(type) {
		case bool:
			bv, err := strconv.ParseBool(s)
			if err != nil {
				return refuse("rules.%s %q: want true or false.", k, s)
			}
			m[k] = bv
		case float64:
			n, err := strconv.Atoi(s)
			if err != nil {
				return refuse("rules.%s %q: want a number.", k, s)
			}
			m[k] = n
		case string:
			m[k] = s
		default:
			return refuse("rules.%s cannot be set here.", k)
		}
	}
	b, _ = json.Marshal(m)
	return json.Unmarshal(b, r)
}

func (j *Judge) cmdStart(e *cmdEnv) (string, error) {
	g := *e.game
	if g.Status != store.GameOpen {
		return "", refuse("game %s is %s: only an open game can START.", g.Tag, g.Status)
	}
	ps, err := e.tx.Players(g.ID)
	if err != nil {
		return "", err
	}
	if len(ps) == 0 {
		return "", refuse("nobody has joined game %s yet.", g.Tag)
	}
	if err := j.startGameIn(e.tx, g, nil); err != nil {
		return "", refuse("%v", err)
	}
	ng, err := e.tx.Game(g.ID)
	if err != nil {
		return "", err
	}
	e.game = &ng
	var names []string
	for _, p := range ps {
		names = append(names, p.Robot)
	}
	return fmt.Sprintf("Game %s has started with %d robots (%s). Each player has the first hand;\nthe deadline for turn 1 is %s.\n",
		g.Tag, len(ps), strings.Join(names, ", "), deadlineText(ng.DeadlineAt)), nil
}

// tellPlayers mails a notice to every player still in the game.
func (j *Judge) tellPlayers(e *cmdEnv, kind, what, text string) error {
	g := *e.game
	ps, err := e.tx.Players(g.ID)
	if err != nil {
		return err
	}
	for _, p := range ps {
		if p.Withdrawn {
			continue
		}
		if err := j.enqueue(e.tx, outMail{kind: "notice", gameID: g.ID, turn: g.CurrentTurn, to: p.Email, subject: subject(g.Tag, what),
			messageID: j.noticeID(kind, fmt.Sprintf("%s.%s.s%d", g.Tag, e.key, p.Seat)),
			inReplyTo: j.gameRoot(g.Tag), refs: []string{j.gameRoot(g.Tag)}, text: text, generated: true}); err != nil {
			return err
		}
	}
	return nil
}

func (j *Judge) cmdDeadline(e *cmdEnv, c Command) (string, error) {
	g := *e.game
	if g.Status != store.GameRunning {
		return "", refuse("game %s is %s: it has no deadline to move.", g.Tag, g.Status)
	}
	var at time.Time
	if c.Verb == "EXTEND" {
		if len(c.Args) != 1 {
			return "", refuse("write EXTEND DURATION, like EXTEND 24h.")
		}
		d, err := parseDuration(c.Args[0])
		if err != nil {
			return "", err
		}
		if d <= 0 {
			return "", refuse("EXTEND takes a duration above zero.")
		}
		base := g.DeadlineAt
		if base.IsZero() {
			base = j.now()
		}
		at = base.Add(d)
	} else {
		v := strings.TrimSuffix(strings.Join(c.Args, " "), " UTC")
		var err error
		if at, err = time.Parse("2006-01-02 15:04", v); err != nil {
			if at, err = time.Parse(time.RFC3339, v); err != nil {
				return "", refuse("write DEADLINE YYYY-MM-DD HH:MM (UTC), not %q.", v)
			}
		}
	}
	at = at.UTC()
	if !at.After(j.now()) {
		return "", refuse("%s has passed; use PROCESS to resolve the turn now.", deadlineText(at))
	}
	if err := e.tx.SetDeadline(g.ID, at); err != nil {
		return "", err
	}
	e.game.DeadlineAt = at
	if err := j.audit(e, strings.ToLower(c.Verb), deadlineText(at)); err != nil {
		return "", err
	}
	text := fmt.Sprintf("The game master has moved the deadline of turn %d of game %s.\nThe deadline is now %s.\n", g.CurrentTurn, g.Tag, deadlineText(at))
	if err := j.tellPlayers(e, "deadline", fmt.Sprintf("Turn %d: new deadline", g.CurrentTurn), text); err != nil {
		return "", err
	}
	return fmt.Sprintf("The deadline of turn %d is now %s; the players are told.\n", g.CurrentTurn, deadlineText(at)), nil
}

func (j *Judge) cmdPause(e *cmdEnv) (string, error) {
	g := *e.game
	if g.Status != store.GameRunning {
		return "", refuse("game %s is %s: only a running game can PAUSE.", g.Tag, g.Status)
	}
	o, err := j.optionsOf(e.tx, g)
	if err != nil {
		return "", err
	}
	o.PausedLeft = 0
	if !g.DeadlineAt.IsZero() {
		o.PausedLeft = int64(max(0, g.DeadlineAt.Sub(j.now())) / time.Second)
	}
	if err := setOptions(e.tx, g.ID, o); err != nil {
		return "", err
	}
	if err := e.tx.SetGameStatus(g.ID, store.GamePaused); err != nil {
		return "", err
	}
	if err := e.tx.SetDeadline(g.ID, time.Time{}); err != nil {
		return "", err
	}
	e.game.Status = store.GamePaused
	if err := j.audit(e, "pause", ""); err != nil {
		return "", err
	}
	left := time.Duration(o.PausedLeft) * time.Second
	if err := j.tellPlayers(e, "pause", "The game is paused",
		fmt.Sprintf("The game master has paused game %s: the clock is stopped with %s left for turn %d.\n"+
			"Orders are still taken. You will be told when the game goes on.\n", g.Tag, left, g.CurrentTurn)); err != nil {
		return "", err
	}
	return fmt.Sprintf("Game %s is paused with %s left on the clock; the players are told.\n", g.Tag, left), nil
}

func (j *Judge) cmdResume(e *cmdEnv) (string, error) {
	g := *e.game
	if g.Status != store.GamePaused {
		return "", refuse("game %s is %s, not paused.", g.Tag, g.Status)
	}
	o, err := j.optionsOf(e.tx, g)
	if err != nil {
		return "", err
	}
	at := j.now().Add(time.Duration(o.PausedLeft) * time.Second)
	if o.PausedLeft <= 0 {
		if at, err = g.Deadline.Next(j.now()); err != nil {
			return "", err
		}
	}
	o.PausedLeft = 0
	if err := setOptions(e.tx, g.ID, o); err != nil {
		return "", err
	}
	if err := e.tx.SetGameStatus(g.ID, store.GameRunning); err != nil {
		return "", err
	}
	if err := e.tx.SetDeadline(g.ID, at); err != nil {
		return "", err
	}
	e.game.Status, e.game.DeadlineAt = store.GameRunning, at
	e.touched = g.ID
	if err := j.audit(e, "resume", deadlineText(at)); err != nil {
		return "", err
	}
	if err := j.tellPlayers(e, "resume", "The game goes on",
		fmt.Sprintf("Game %s goes on. The deadline of turn %d is %s.\n", g.Tag, g.CurrentTurn, deadlineText(at))); err != nil {
		return "", err
	}
	return fmt.Sprintf("Game %s goes on; the deadline of turn %d is %s. The players are told.\n", g.Tag, g.CurrentTurn, deadlineText(at)), nil
}

func (j *Judge) cmdReplace(e *cmdEnv, c Command) (string, error) {
	g := *e.game
	if len(c.Args) != 2 || !strings.Contains(c.Args[1], "@") {
		return "", refuse("write REPLACE ROBOT NEW-ADDRESS.")
	}
	if g.Status == store.GameOver {
		return "", refuse("game %s is over.", g.Tag)
	}
	p, err := j.robot(e, c.Args[0])
	if err != nil {
		return "", err
	}
	addr := strings.ToLower(strings.Trim(c.Args[1], "<>"))
	if g.Status != store.GameOpen {
		st, _, err := stateOf(e.tx, g)
		if err != nil {
			return "", err
		}
		if p.Seat < len(st.Robots) && st.Robots[p.Seat].Out {
			return "", refuse("%s is out of the race; it cannot be given to a new player.", p.Robot)
		}
	}
	sec, hash, err := newSecret()
	if err != nil {
		return "", err
	}
	if err := e.tx.SetPlayerEmail(p.ID, addr); err != nil {
		return "", err
	}
	if err := e.tx.SetPlayerSecret(p.ID, hash); err != nil {
		return "", err
	}
	if err := e.tx.SetMissed(p.ID, 0); err != nil {
		return "", err
	}
	if err := e.tx.SetWithdrawn(p.ID, false); err != nil {
		return "", err
	}
	if err := j.audit(e, "replace", fmt.Sprintf("%s: %s → %s", p.Robot, p.Email, addr)); err != nil {
		return "", err
	}
	welcome := fmt.Sprintf("You take over the robot %s in game %s (course %s), now at turn %d.\n\n"+
		"Your secret is: %s\n\nKeep it: every order sheet and command needs it, on a line \"secret ...\".\n"+
		"Send RESEND (with [RR %s] in the subject and your secret) for the latest report and your hand.\n"+
		"The deadline is %s.\n", p.Robot, g.Tag, g.Course, g.CurrentTurn, sec, g.Tag, deadlineText(g.DeadlineAt))
	if err := j.enqueue(e.tx, outMail{kind: "welcome", gameID: g.ID, turn: g.CurrentTurn, to: addr,
		subject: subject(g.Tag, fmt.Sprintf("Welcome: you now play %s", p.Robot)), messageID: j.noticeID("replace", fmt.Sprintf("%s.s%d.new", e.key, p.Seat)),
		inReplyTo: j.gameRoot(g.Tag), refs: []string{j.gameRoot(g.Tag)}, text: welcome, generated: true}); err != nil {
		return "", err
	}
	if !strings.EqualFold(p.Email, addr) {
		if err := j.enqueue(e.tx, outMail{kind: "notice", gameID: g.ID, turn: g.CurrentTurn, to: p.Email,
			subject: subject(g.Tag, fmt.Sprintf("%s has a new player", p.Robot)), messageID: j.noticeID("replace", fmt.Sprintf("%s.s%d.old", e.key, p.Seat)),
			text:      fmt.Sprintf("The game master has given your robot %s in game %s to another player.\nYour secret no longer counts. Thank you for playing.\n", p.Robot, g.Tag),
			generated: true}); err != nil {
			return "", err
		}
	}
	return fmt.Sprintf("%s is now played from %s; the new player has been mailed a new secret.\n", p.Robot, addr), nil
}

func (j *Judge) cmdProcess(e *cmdEnv) (string, error) {
	g := *e.game
	if g.Status != store.GameRunning {
		return "", refuse("game %s is %s: only a running game's turn can be resolved.", g.Tag, g.Status)
	}
	ok, _, err := j.resolveIn(e.tx, g.ID, true)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", refuse("turn %d could not be resolved now.", g.CurrentTurn)
	}
	if err := j.audit(e, "process", fmt.Sprintf("turn %d", g.CurrentTurn)); err != nil {
		return "", err
	}
	ng, err := e.tx.Game(g.ID)
	if err != nil {
		return "", err
	}
	e.game = &ng
	if ng.Status == store.GameOver {
		return fmt.Sprintf("Turn %d is resolved and the game is over; the reports are on their way.\n", g.CurrentTurn), nil
	}
	return fmt.Sprintf("Turn %d is resolved; the reports are on their way. Turn %d's deadline is %s.\n", g.CurrentTurn, ng.CurrentTurn, deadlineText(ng.DeadlineAt)), nil
}

func (j *Judge) cmdRollback(e *cmdEnv) (string, error) {
	g := *e.game
	if g.Status == store.GameOpen {
		return "", refuse("game %s has not started.", g.Tag)
	}
	last, err := e.tx.LatestTurn(g.ID)
	if err != nil {
		return "", err
	}
	if last.Number < 1 {
		return "", refuse("no turn of game %s has been resolved yet.", g.Tag)
	}
	n := last.Number
	var played []Played
	_ = json.Unmarshal(last.Orders, &played)
	ps, err := e.tx.Players(g.ID)
	if err != nil {
		return "", err
	}
	for _, pl := range played { // the missed count goes back to what it was before the turn
		if pl.Missed == "" {
			continue
		}
		for _, p := range ps {
			if strings.EqualFold(p.Robot, pl.Robot) && p.Missed > 0 {
				if err := e.tx.SetMissed(p.ID, p.Missed-1); err != nil {
					return "", err
				}
			}
		}
	}
	if _, err := e.tx.VoidTurnsFrom(g.ID, n, j.now()); err != nil {
		return "", err
	}
	voided, err := e.tx.VoidOutbox(g.ID, n, []string{"report", "missed", "resend", "gm-notice"}, j.now())
	if err != nil {
		return "", err
	}
	if _, err := e.tx.VoidOutbox(g.ID, n+1, []string{"final", "reminder"}, j.now()); err != nil {
		return "", err
	}
	deadline, err := g.Deadline.Next(j.now())
	if err != nil {
		return "", err
	}
	status := g.Status
	if status == store.GameOver {
		status = store.GameRunning
	}
	if err := e.tx.SetGameStatus(g.ID, status); err != nil {
		return "", err
	}
	if status == store.GameRunning {
		if err := e.tx.SetDeadline(g.ID, deadline); err != nil {
			return "", err
		}
	}
	if err := j.audit(e, "rollback", fmt.Sprintf("turn %d", n)); err != nil {
		return "", err
	}
	ng, err := e.tx.Game(g.ID)
	if err != nil {
		return "", err
	}
	e.game = &ng
	e.touched = g.ID
	j.folds.reset()
	text := fmt.Sprintf("The game master has rolled back turn %d of game %s: its report is void.\n\n"+
		"Orders sent for turn %d still count, and you may send new ones; the turn will be\n"+
		"resolved again. The deadline is %s. Send RESEND %d for the report you\nshould play from.\n",
		n, g.Tag, n, deadlineText(ng.DeadlineAt), n-1)
	if err := j.tellPlayers(e, "rollback", fmt.Sprintf("Turn %d is rolled back", n), text); err != nil {
		return "", err
	}
	return fmt.Sprintf("Turn %d is rolled back: %d mail(s) of it are void, orders are kept, and the players are told.\n"+
		"The deadline of turn %d is %s.\n", n, voided, n, deadlineText(ng.DeadlineAt)), nil
}

func (j *Judge) cmdSet(e *cmdEnv, c Command) (string, error) {
	g := *e.game
	var key, val string
	switch {
	case len(c.Args) == 1 && strings.Contains(c.Args[0], "="):
		key, val, _ = strings.Cut(c.Args[0], "=")
	case len(c.Args) >= 2:
		key, val = c.Args[0], strings.Join(c.Args[1:], " ")
	default:
		return "", refuse("write SET KEY VALUE.")
	}
	key = strings.ToLower(key)
	o, err := j.optionsOf(e.tx, g)
	if err != nil {
		return "", err
	}
	s := store.GameSettings{Name: g.Name, Deadline: g.Deadline, Grace: g.Grace, Missed: g.Missed, ListAddress: g.ListAddress}
	if err := applySetting(&s, &o, key, strings.Trim(val, "\"")); err != nil {
		return "", err
	}
	if (key == "players" || key == "max-players") && g.Status == store.GameOpen {
		ps, err := e.tx.Players(g.ID)
		if err != nil {
			return "", err
		}
		if len(ps) > o.maxPlayers() {
			return "", refuse("%d players have joined already.", len(ps))
		}
	}
	if err := e.tx.SetGameSettings(g.ID, s); err != nil {
		return "", err
	}
	if err := setOptions(e.tx, g.ID, o); err != nil {
		return "", err
	}
	if err := j.audit(e, "set", key+" "+val); err != nil {
		return "", err
	}
	ng, err := e.tx.Game(g.ID)
	if err != nil {
		return "", err
	}
	e.game = &ng
	return fmt.Sprintf("Game %s's %s is set. Its settings now:\n%s", g.Tag, key, settingsText(s, o, ng)), nil
}

func (j *Judge) cmdBroadcast(e *cmdEnv, c Command) (string, error) {
	g := *e.game
	text := c.Text
	if e.cm != nil && e.cm.secret != "" {
		text = strings.ReplaceAll(text, e.cm.secret, "(secret)")
	}
	if strings.TrimSpace(text) == "" {
		return "", refuse("BROADCAST needs a message: the text after it, to the end of the mail.")
	}
	ps, err := e.tx.Players(g.ID)
	if err != nil {
		return "", err
	}
	n := 0
	body := fmt.Sprintf("A message from the game master of %s:\n\n%s\n", g.Tag, text)
	for _, p := range ps {
		if p.Withdrawn {
			continue
		}
		if err := j.enqueue(e.tx, outMail{kind: "broadcast", gameID: g.ID, turn: g.CurrentTurn, to: p.Email,
			subject: subject(g.Tag, "A message from the game master"), messageID: j.noticeID("broadcast", fmt.Sprintf("%s.%s.s%d", g.Tag, e.key, p.Seat)),
			inReplyTo: j.gameRoot(g.Tag), refs: []string{j.gameRoot(g.Tag)}, text: body, generated: true}); err != nil {
			return "", err
		}
		n++
	}
	if err := j.audit(e, "broadcast", fmt.Sprintf("%d players", n)); err != nil {
		return "", err
	}
	return fmt.Sprintf("Your message went to %d player(s) of game %s.\n", n, g.Tag), nil
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
		j.folds.reset()
		return "", err
	}
	if touched != 0 {
		if _, err := j.ResolveIfReady(ctx, touched); err != nil {
			return out, err
		}
	}
	return out, nil
}

// AddGM makes addr a game master of the game (tag "" for the whole server) with a new
// secret, mailed to addr through the outbox.
func (j *Judge) AddGM(ctx context.Context, tag, addr string) error {
	return j.Store.Tx(ctx, func(tx *store.Tx) error {
		var gid int64
		what := "this rallyjudge server (you may CREATE games)"
		if tag != "" {
			g, err := tx.GameByTag(tag)
			if err != nil {
				return err
			}
			gid, what = g.ID, "game "+g.Tag
		}
		sec, hash, err := newSecret()
		if err != nil {
			return err
		}
		id, err := tx.AddGM(store.GM{GameID: gid, Email: addr, SecretHash: hash, Created: j.now()})
		if err != nil {
			return err
		}
		if _, err := tx.Audit(store.AuditEntry{At: j.now(), GameID: gid, Actor: "gm (command line)", Action: "add-gm", Detail: addr}); err != nil {
			return err
		}
		return j.enqueue(tx, outMail{kind: "gm-notice", gameID: gid, turn: -1, to: addr, subject: "rallyjudge: you are a game master",
			messageID: j.noticeID("addgm", id),
			text: fmt.Sprintf("You are a game master of %s.\n\nYour game master secret is: %s\n\n"+
				"Send it on a line \"secret ...\" with every game master command; send HELP for the commands.\n", what, sec),
			generated: true})
	})
}
