package judge

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/rallyjudge/rallyjudge/archive"
	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// The commands a player (or anyone) sends: LIST, JOIN, STATUS, RESEND, HISTORY,
// WITHDRAW, PICTURES.

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
		// A game's seats, never more than its course has: a game imported before the
		// import stored them counted the judge's limit.
		seats := o.maxPlayers()
		if cfg := j.hostedConfig(g); cfg != nil {
			_, hi := cfg.Seats()
			seats = min(seats, hi)
		}
		what := fmt.Sprintf("turn %d", g.CurrentTurn)
		if g.Status == store.GameOpen {
			what = fmt.Sprintf("JOIN %s ROBOT", g.Tag)
			if len(ps) >= seats {
				what = "full"
			}
		}
		fmt.Fprintf(&b, "  %-16s %-8s %-10s %d/%d players  %s\n", g.Tag, g.Status, j.gameLabel(g), len(ps), seats, what)
		if k, err := j.hostedKind(g); err == nil {
			fmt.Fprintf(&b, "      %s\n", hostedRulesLine(g, k))
		}
	}
	return b.String(), nil
}

var robotName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,19}$`)

// gameAndRobot reads the arguments "[GAME] ROBOT" of JOIN and NEWSECRET and loads the
// game (named, or from the mail's subject or game line).
func (j *Judge) gameAndRobot(e *cmdEnv, c Command) (robot string, err error) {
	var tag string
	switch len(c.Args) {
	case 1:
		robot = c.Args[0]
	case 2:
		tag, robot = strings.ToLower(c.Args[0]), c.Args[1]
	default:
		return "", refuse("write %s GAME ROBOT.", c.Verb)
	}
	return robot, j.loadGame(e, tag)
}

func (j *Judge) cmdJoin(e *cmdEnv, c Command) (string, error) {
	robot, err := j.gameAndRobot(e, c)
	if err != nil {
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
	// Anyone can forge a From address (issue 14): JOIN takes no seat. It mails a code to
	// the joining address, and the seat is taken by the CONFIRM that carries it, from
	// there (takeJoin). A forged JOIN's code goes to an address the forger does not read.
	code, hash, err := j.newSecret()
	if err != nil {
		return "", err
	}
	pjID, err := e.tx.AddPendingJoin(store.PendingJoin{GameID: g.ID, Email: e.from, Robot: robot, CodeHash: hash, Created: j.now()})
	if err != nil {
		return "", err
	}
	jo := store.Owner{Kind: store.OwnerJoin, ID: pjID}
	code, e.slots = j.hold(jo, code), append(e.slots, jo) // the code goes in at send time
	if err := j.audit(e, "join-asked", robot); err != nil {
		return "", err
	}
	return fmt.Sprintf("Someone asked, from this address, to join game %s (%s).\n\n"+
		"If that was you, reply from this address with this line in the body:\n\n  CONFIRM %s\n\n"+
		"and the seat is yours (the reply to it carries your secret). Until then no seat is\n"+
		"taken. The code counts for %d hours. If you did not ask, do nothing.\n",
		g.Tag, j.gameWhat(*g), code, int(joinTTL/time.Hour)), nil
}

// joinTTL is how long a JOIN waits for its CONFIRM.
const joinTTL = 48 * time.Hour

// takeJoin gives the seat a confirmed JOIN asked for, if the game still has it to give:
// every check JOIN made is made again, since the game may have filled or started since.
func (j *Judge) takeJoin(e *cmdEnv, pj store.PendingJoin) (string, error) {
	g, err := e.tx.Game(pj.GameID)
	if err != nil {
		return "", err
	}
	e.game = &g
	if err := e.tx.FinishPendingJoin(pj.ID, j.now()); err != nil {
		return "", err
	}
	if g.Status != store.GameOpen {
		return "", refuse("game %s is %s: it takes no new players.", g.Tag, g.Status)
	}
	o, err := j.optionsOf(e.tx, g)
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
	robot := pj.Robot
	seat := 0
	for _, p := range ps {
		if strings.EqualFold(p.Robot, robot) {
			return "", refuse("game %s has a robot called %s already; JOIN again with another name.", g.Tag, p.Robot)
		}
		if strings.EqualFold(p.Email, pj.Email) {
			return "", refuse("you play %s in game %s already.", p.Robot, g.Tag)
		}
		seat = max(seat, p.Seat+1)
	}
	sec, hash, err := j.newSecret()
	if err != nil {
		return "", err
	}
	pid, err := e.tx.AddPlayer(store.Player{GameID: g.ID, Robot: robot, Seat: seat, Email: pj.Email, SecretHash: hash, Created: j.now()})
	if err != nil {
		return "", err
	}
	po := store.Owner{Kind: store.OwnerPlayer, ID: pid}
	sec, e.slots = j.hold(po, sec), append(e.slots, po) // the secret goes in at send time
	if err := j.audit(e, "join", robot); err != nil {
		return "", err
	}
	if err := j.mailGMs(e.tx, g, "join", e.key+"."+robot, fmt.Sprintf("%s joined", robot),
		fmt.Sprintf("%s joined game %s from %s: %d of %d seats are taken.\nSTART the game when you are ready.\n",
			robot, g.Tag, pj.Email, len(ps)+1, o.maxPlayers())); err != nil {
		return "", err
	}
	if w := j.words(g); w != nil { // the game's words (game.Wording)
		return fmt.Sprintf("You have joined game %s (%s) with the %s %s; %d of %d seats are taken.\n\n"+
			"Your secret is: %s\n\nKeep it: every %s and command needs it, on a line \"secret ...\".\n"+
			"It is in this mail only. When the game master STARTs the game you get your %s's\n%s.\n",
			g.Tag, j.gameWhat(g), w.Seat, robot, len(ps)+1, o.maxPlayers(), sec, w.Orders, w.Seat, w.First), nil
	}
	return fmt.Sprintf("You have joined game %s (%s) as %s; %d of %d seats are taken.\n\n"+
		"Your secret is: %s\n\nKeep it: every move and command needs it, on a line \"secret ...\".\n"+
		"It is in this mail only. When the game master STARTs the game you get the first report.\n",
		g.Tag, j.gameWhat(g), robot, len(ps)+1, o.maxPlayers(), sec), nil
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
	fmt.Fprintf(&b, ", %s: %s.\n", j.gameWhat(g), g.Status)
	if g.Status == store.GameOpen {
		fmt.Fprintf(&b, "%d of %d players have joined:\n", len(ps), o.maxPlayers())
		for _, p := range ps {
			fmt.Fprintf(&b, "  %s\n", p.Robot)
		}
		if e.gm != nil || e.cli {
			r, err := rosterText(e.tx, g, ps, nil)
			if err != nil {
				return "", err
			}
			b.WriteString(r)
		}
		return b.String(), nil
	}
	k, err := j.hostedKind(g)
	if err != nil {
		return "", err
	}
	h, err := j.hostedState(e.tx, g, k)
	if err != nil {
		return "", err
	}
	text := ""
	if r, ok := h.pos.(game.Roster); ok {
		text, err = j.rosterStatus(e, g, h, r, o, ps, &b)
	} else {
		text, err = j.hostedStatus(e, g, k, ps, &b)
	}
	if err != nil || e.gm == nil && !e.cli {
		return text, err
	}
	in, err := sheetsIn(e.tx, g, ps)
	if err != nil {
		return "", err
	}
	r, err := rosterText(e.tx, g, ps, in)
	return text + r, err
}

// rosterStatus is STATUS of a game behind the seam whose position says how each seat
// stands (game.Roster), in the layout of the judge's own RoboRally path: the turn, its
// deadline and grace, what a missing move becomes, each seat in a line, what holds
// the turn.
func (j *Judge) rosterStatus(e *cmdEnv, g store.Game, h hosted, r game.Roster, o Options, ps []store.Player, b *strings.Builder) (string, error) {
	_, missing, err := j.missingOrders(e.tx, g)
	if err != nil {
		return "", err
	}
	over := g.Status == store.GameOver
	if !over {
		zone := ""
		if e.player != nil {
			zone = e.player.Timezone
		}
		fmt.Fprintf(b, "Turn %d. Deadline: %s", g.CurrentTurn, deadlineIn(g.DeadlineAt, zone))
		if g.Grace > 0 {
			fmt.Fprintf(b, " (grace %s)", shortDuration(g.Grace))
		}
		if g.Status == store.GamePaused {
			fmt.Fprintf(b, "; the clock is stopped, %s left", shortDuration(time.Duration(o.PausedLeft)*time.Second))
		}
		fmt.Fprintf(b, ".\nWithout orders: %s.\n\n", j.missedRule(g)) // game.MissedRuler
	} else {
		fmt.Fprintf(b, "The game is over after %d turn(s).\n\n", g.CurrentTurn-1)
	}
	for _, p := range ps {
		what := r.SeatLine(p.Seat, !missing[p.Robot])
		if p.Withdrawn {
			what = "withdrawn"
		}
		if p.Missed > 0 && !p.Withdrawn {
			what += fmt.Sprintf(" (missed %d turn(s) in a row)", p.Missed)
		}
		fmt.Fprintf(b, "  %-12s %s\n", p.Robot, what)
	}
	if g.Status == store.GameRunning || g.Status == store.GamePaused {
		if hs, err := j.hostedHolds(e.tx, g, h, ps); err != nil {
			return "", err
		} else if len(hs) > 0 {
			fmt.Fprintf(b, "The turn waits for its deadline: %s.\n", strings.Join(hs, "; "))
		}
	}
	return b.String(), nil
}

// sheetsIn says, by player, whether a valid sheet of theirs for the turn being
// collected is in (the game master's roster).
func sheetsIn(tx *store.Tx, g store.Game, ps []store.Player) (map[string]bool, error) {
	in := map[string]bool{}
	for _, p := range ps {
		vs, err := tx.ValidOrderVersionsAfter(g.ID, g.CurrentTurn, p.Robot, 0)
		if err != nil {
			return nil, err
		}
		in[p.Robot] = len(vs) > 0
	}
	return in, nil
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
	if g.Status == store.GameOpen {
		return "", refuse("game %s has not started: there is no report yet.", g.Tag) // not "no report of turn -1"
	}
	if turn < 0 || turn >= g.CurrentTurn {
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

func (j *Judge) cmdHistory(e *cmdEnv, c Command) (string, error) {
	g := *e.game
	if len(c.Args) == 1 && strings.EqualFold(c.Args[0], "REPLAY") {
		return j.mailReplay(e)
	}
	if len(c.Args) > 0 {
		return "", refuse("write HISTORY or HISTORY REPLAY.")
	}
	turns, err := e.tx.LiveTurns(g.ID)
	if err != nil {
		return "", err
	}
	if len(turns) == 0 {
		return fmt.Sprintf("Game %s has not started.\n", g.Tag), nil
	}
	var b strings.Builder
	k, _ := j.hostedKind(g)
	ch, _ := k.(game.Chronicle) // the game's turns in its words, or who played what
	setUp := "the game was set up"
	if ch != nil {
		setUp = ch.SetUp()
	}
	fmt.Fprintf(&b, "Game %s, %s.\n  Turn 0: %s (%s).\n", g.Tag, j.gameWhat(g), setUp, turns[0].Resolved.Format("2 Jan 2006 15:04 UTC"))
	for _, tn := range turns[1:] {
		line := hostedTurnLine(tn)
		if ch != nil {
			line = ch.TurnLine(tn.Events)
		}
		fmt.Fprintf(&b, "  Turn %d (%s): %s\n", tn.Number, tn.Resolved.Format("2 Jan 15:04"), line)
	}
	if g.Status != store.GameOver {
		fmt.Fprintf(&b, "Turn %d is being played.\n", g.CurrentTurn)
	}
	press, err := e.tx.PressOf(g.ID)
	if err != nil {
		return "", err
	}
	reader := e.player
	if e.gm != nil || e.cli {
		reader = nil // a game master reads all press, with its senders
	}
	if ph := pressHistory(press, reader); ph != "" {
		b.WriteString("\nPress:\n" + ph)
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
	dep := j.departures(e.tx, g)
	if e.player == nil || e.player.ID != p.ID {
		leaves := fmt.Sprintf("the game's autopilot plays %s from now on", p.Robot)
		if dep != nil {
			leaves = dep.Notice(p.Seat)
		}
		if err := j.enqueue(e.tx, outMail{kind: "notice", gameID: g.ID, turn: g.CurrentTurn, to: p.Email,
			subject:   subject(g.Tag, fmt.Sprintf("%s has left the game", p.Robot)),
			messageID: j.noticeID("kick", fmt.Sprintf("%s.s%d", e.key, p.Seat)),
			text: fmt.Sprintf("The game master has taken you out of game %s: %s.\n"+
				"Your secret no longer counts for anything. Thank you for playing.\n", g.Tag, leaves), generated: true}); err != nil {
			return "", err
		}
	}
	if g.Status == store.GameOpen {
		return fmt.Sprintf("%s %s: the seat in game %s is free again.\n", p.Robot, how, g.Tag), nil
	}
	if dep != nil { // the seat leaves the game (game.Leaver)
		return fmt.Sprintf("%s %s: %s.\n", p.Robot, how, dep.Departure(p.Seat, g.CurrentTurn)), nil
	}
	// a game without game.Departures keeps every seat: its autopilot plays a withdrawn one
	return fmt.Sprintf("%s %s: from now on the game's autopilot plays %s's moves (a game master may REPLACE the player).\n", p.Robot, how, p.Robot), nil
}

// mailReplay mails the sender the game's replay page (game.Archive.WriteHTML: the board and
// every turn step by step, with no player's orders in it) as an attachment.
func (j *Judge) mailReplay(e *cmdEnv) (string, error) {
	g := *e.game
	if g.Status == store.GameOpen {
		return "", refuse("game %s has not started.", g.Tag)
	}
	// the archive in its game's format (archive.Of: RoboRally's .rja, or the games
	// behind the seam's), its page as that format draws it
	var page bytes.Buffer
	rec, err := archive.RecordOf(e.tx, g.ID)
	if err != nil {
		return "", err
	}
	a, err := archive.Of(rec, j.Games)
	if err != nil {
		return "", err
	}
	if err := a.WriteHTML(&page, nil); err != nil {
		return "", err
	}
	to := e.from
	if e.player != nil {
		to = e.player.Email
	}
	if to == "" {
		return "", refuse("HISTORY REPLAY is by mail; on the server, rallyjudge export and rallyjudge replay --html make the page.")
	}
	name := fmt.Sprintf("%s-replay-turn-%d.html", g.Tag, g.CurrentTurn-1)
	if err := j.enqueue(e.tx, outMail{kind: "replay", gameID: g.ID, turn: g.CurrentTurn, to: to,
		subject:   subject(g.Tag, fmt.Sprintf("The replay page, up to turn %d", g.CurrentTurn-1)),
		messageID: j.noticeID("replay", fmt.Sprintf("%s.%s", g.Tag, e.key)),
		text: fmt.Sprintf("The attached page (%s) plays game %s turn by turn, step by step: open it in a web\n"+
			"browser; it needs no network. It shows what the reports showed, no player's orders.\n", name, g.Tag),
		attach: []mail.Inline{{ContentType: "text/html; charset=utf-8", Filename: name, Data: page.Bytes()}}, generated: true}); err != nil {
		return "", err
	}
	return fmt.Sprintf("The replay page of game %s (%d KB) comes in a mail of its own.\n", g.Tag, (page.Len()+1023)/1024), nil
}

// hostedRulesLine is gameRulesLine for a game behind the seam: its settings in the
// game's words (RoboRally's ruleset and option deck are not its).
func hostedRulesLine(g store.Game, k game.Kind) string {
	grace := "no grace"
	if g.Grace > 0 {
		grace = "grace " + shortDuration(g.Grace)
	}
	what := k.Title()
	cfg, err := k.LoadConfig(g.Rules)
	if d, ok := cfg.(game.Describer); ok && err == nil { // in the game's words
		return fmt.Sprintf("deadline %s, %s; %s", deadlineRuleText(g.Deadline), grace, d.ListLine())
	}
	if err == nil {
		what += ", " + cfg.Text()
	}
	return fmt.Sprintf("deadline %s, %s; without orders: the game's autopilot plays the move; %s", deadlineRuleText(g.Deadline), grace, what)
}
