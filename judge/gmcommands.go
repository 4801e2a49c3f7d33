package judge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/store"
)

// The game master's commands: CREATE, START, DEADLINE, EXTEND, PAUSE, RESUME, REPLACE,
// KICK, PROCESS, ROLLBACK, SET, BROADCAST, and AddGM for the command line.

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
	var kv map[string]string
	var err error
	if c.KV != nil {
		kv, err = KVMap(c.KV)
	} else {
		kv, err = parseKV(c.Args[1:])
	}
	if err != nil {
		return "", err
	}
	if len(j.Games) == 0 {
		return "", refuse("this judge hosts no game.")
	}
	k := j.Games[0] // the default game
	if name := kv["game"]; name != "" {
		if k, err = j.Games.Lookup(name); err != nil {
			return "", refuse("game=%s: there is no such game here; games: %s.", name, strings.Join(j.Games.Names(), ", "))
		}
	}
	return j.cmdCreateHosted(e, tag, k, kv)
}

// createKey reads one of the CREATE settings every game takes: gm= (checked here, kept
// by the caller) and seed=; done says it was one.
func (j *Judge) createKey(spec *GameSpec, k, v string) (done bool, err error) {
	switch k {
	case "gm":
		if err := CheckAddress("gm", v); err != nil {
			return true, err
		}
		return true, j.notJudge("gm", v)
	case "seed":
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return true, refuse("seed %q: want a number.", v)
		}
		spec.Seed = n
		return true, nil
	}
	return false, nil
}

// gmAfterCreate makes the game's creator its game master (a server game master, with
// the same secret) and mails a game master named by gm= their new secret.
func (j *Judge) gmAfterCreate(e *cmdEnv, g store.Game, gmEmail, sec string) error {
	if e.gm != nil { // the server game master who created it masters it, with the same secret
		if _, err := e.tx.AddGM(store.GM{GameID: g.ID, Email: e.gm.Email, SecretHash: e.gm.SecretHash, Created: j.now()}); err != nil {
			return err
		}
	}
	if sec != "" {
		gms, err := e.tx.GMByEmail(g.ID, gmEmail)
		if err != nil {
			return err
		}
		var o store.Owner
		for _, gm := range gms {
			if gm.GameID == g.ID {
				o = store.Owner{Kind: store.OwnerGM, ID: gm.ID}
			}
		}
		sec = j.hold(o, sec) // the secret goes in at send time
		what := j.gameWhat(g)
		return j.enqueue(e.tx, outMail{kind: "gm-notice", gameID: g.ID, turn: -1, to: gmEmail, slots: []store.Owner{o},
			subject:   subject(g.Tag, "You are the game master"),
			messageID: j.noticeID("gm", fmt.Sprintf("%s.%s", g.Tag, e.key)),
			text: fmt.Sprintf("You are the game master of game %s (%s).\n\nYour game master secret is: %s\n\n"+
				"Send it on a line \"secret ...\" with every game master command; HELP lists them.\n", g.Tag, what, sec),
			generated: true})
	}
	return nil
}

// missedIn are the players whose orders a resolved turn played for them (a missed-orders
// policy, a hosted game's autopilot), by name.
func missedIn(g store.Game, tn store.Turn) []string {
	var out []string
	var played []hostedPlayed
	_ = json.Unmarshal(tn.Orders, &played)
	for _, p := range played {
		if p.Missed {
			out = append(out, p.Player)
		}
	}
	return out
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
	w := j.words(g)
	if w == nil { // the game names no things of its own (game.Wording)
		return fmt.Sprintf("Game %s (%s) has started with %s (%s). Each player has the first report;\nthe deadline for turn 1 is %s.\n",
			g.Tag, j.gameWhat(g), plural(len(ps), "player"), strings.Join(names, ", "), deadlineText(ng.DeadlineAt)), nil
	}
	return fmt.Sprintf("Game %s has started with %s (%s). Each player has the %s;\nthe deadline for turn 1 is %s.\n",
		g.Tag, plural(len(ps), w.Seat), strings.Join(names, ", "), w.First, deadlineText(ng.DeadlineAt)), nil
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
	return j.copyToGMs(e.tx, g, kind, e.key, what, text)
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
	if at.After(j.now().Add(MaxDeadlineAhead)) {
		return "", refuse("%s: the deadline would be %s, more than five years from now.", c.Verb, at.Format("2006-01-02 15:04 UTC"))
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
	left := shortDuration(time.Duration(o.PausedLeft) * time.Second)
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
	// When every program is in already, the turn is resolved as the game goes on
	// (RunCommand and the command mail resolve e.touched): say so, not a deadline
	// that will never count.
	ready, err := j.allOrdersIn(e.tx, *e.game)
	if err != nil {
		return "", err
	}
	if ready {
		if err := j.tellPlayers(e, "resume", "The game goes on",
			fmt.Sprintf("Game %s goes on. Every program for turn %d is in: the turn is resolved now.\n", g.Tag, g.CurrentTurn)); err != nil {
			return "", err
		}
		what := "every move"
		if w := j.words(g); w != nil {
			what = "every " + w.Move
		}
		return fmt.Sprintf("Game %s goes on; %s for turn %d is in, so the turn is resolved now. The players are told.\n", g.Tag, what, g.CurrentTurn), nil
	}
	if err := j.tellPlayers(e, "resume", "The game goes on",
		fmt.Sprintf("Game %s goes on. The deadline of turn %d is %s.\n", g.Tag, g.CurrentTurn, deadlineText(at))); err != nil {
		return "", err
	}
	return fmt.Sprintf("Game %s goes on; the deadline of turn %d is %s. The players are told.\n", g.Tag, g.CurrentTurn, deadlineText(at)), nil
}

func (j *Judge) cmdReplace(e *cmdEnv, c Command) (string, error) {
	g := *e.game
	if len(c.Args) != 2 || !strings.Contains(c.Args[1], "@") && !strings.EqualFold(c.Args[1], "STANDBY") {
		return "", refuse("write REPLACE ROBOT NEW-ADDRESS or REPLACE ROBOT STANDBY.")
	}
	if !strings.EqualFold(c.Args[1], "STANDBY") {
		if err := CheckAddress("REPLACE's address", strings.Trim(c.Args[1], "<>")); err != nil {
			return "", err
		}
		if err := j.notJudge("REPLACE's address", c.Args[1]); err != nil {
			return "", err
		}
	}
	if g.Status == store.GameOver {
		return "", refuse("game %s is over.", g.Tag)
	}
	p, err := j.robot(e, c.Args[0])
	if err != nil {
		return "", err
	}
	addr := strings.ToLower(strings.Trim(c.Args[1], "<>"))
	if strings.EqualFold(c.Args[1], "STANDBY") { // the first standby player takes the robot
		sb, err := e.tx.Standbys(g.ID)
		if err != nil {
			return "", err
		}
		if len(sb) == 0 {
			return "", refuse("nobody stands by for game %s (players offer with STANDBY %s).", g.Tag, g.Tag)
		}
		addr = strings.ToLower(sb[0].Email)
		if _, err := e.tx.RemoveStandby(g.ID, sb[0].Email); err != nil {
			return "", err
		}
	}
	// a game's reports are each seat's own (a hand of cards is no one else's, a
	// partner's included): one address holds one seat, as JOIN allows
	others, err := e.tx.Players(g.ID)
	if err != nil {
		return "", err
	}
	for _, o := range others {
		if o.ID != p.ID && strings.EqualFold(o.Email, addr) {
			return "", refuse("%s already plays %s in game %s, and each seat's reports are its player's alone: give %s to another address.", addr, o.Robot, g.Tag, p.Robot)
		}
	}
	if k, err := j.hostedKind(g); err == nil && g.Status != store.GameOpen {
		// a seat that has left the game (game.Roster: a robot out of the race)
		h, err := j.hostedState(e.tx, g, k)
		if err != nil {
			return "", err
		}
		if r, ok := h.pos.(game.Roster); ok {
			if gone := r.Gone(p.Seat); gone != "" {
				return "", refuse("%s is %s; it cannot be given to a new player.", p.Robot, gone)
			}
		}
	}
	sec, hash, err := j.newSecret()
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
	o := store.Owner{Kind: store.OwnerPlayer, ID: p.ID}
	welcome, welcomeHTML, err := j.takeOverWelcome(e.tx, g, p, j.hold(o, sec)) // the secret goes in at send time
	if err != nil {
		return "", err
	}
	if err := j.enqueue(e.tx, outMail{kind: "welcome", gameID: g.ID, turn: g.CurrentTurn, to: addr,
		subject: subject(g.Tag, fmt.Sprintf("Welcome: you now play %s", p.Robot)), messageID: j.noticeID("replace", fmt.Sprintf("%s.s%d.new", e.key, p.Seat)),
		inReplyTo: j.gameRoot(g.Tag), refs: []string{j.gameRoot(g.Tag)}, text: welcome, html: welcomeHTML, generated: true,
		slots: []store.Owner{o}}); err != nil {
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
	ps, err := e.tx.Players(g.ID)
	if err != nil {
		return "", err
	}
	for _, name := range missedIn(g, last) { // the missed count goes back to what it was before the turn
		for _, p := range ps {
			if strings.EqualFold(p.Robot, name) && p.Missed > 0 {
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
	// a hosted game's kept move is not played again at once: in a game played in turn it
	// is the very move the rollback was for; it stands at the deadline unless its player
	// sends another (the notice below says so)
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
	cfg := j.hostedConfig(g)
	if st, ok := cfg.(game.Settable); ok { // a setting of the game's own (RoboRally: missed)
		if text, mine, err := j.setGameKey(e, st, key, val); mine || err != nil {
			return text, err
		}
	}
	if gamesOwn(key) {
		return "", refuse("game %s plays %s, which has no setting %s (a missed move is played by its autopilot).", g.Tag, j.gameWhat(g), key)
	}
	o, err := j.optionsOf(e.tx, g)
	if err != nil {
		return "", err
	}
	s := store.GameSettings{Name: g.Name, Deadline: g.Deadline, Grace: g.Grace, Missed: g.Missed, ListAddress: g.ListAddress}
	if err := applySetting(&s, &o, key, settingValue(val)); err != nil {
		return "", err
	}
	if err := j.notJudge("list", s.ListAddress); err != nil {
		return "", err
	}
	if key == "players" || key == "max-players" {
		seats := 0
		st, ok := cfg.(game.Settable)
		if ok {
			seats, ok = st.Players()
		}
		if !ok { // how many play is the game's rule (game.Settable)
			return "", refuse("how many play %s was set when the game was created.", j.gameWhat(g))
		}
		if o.MaxPlayers > seats {
			return "", refuse("%s seats at most %d players.", j.gameWhat(g), seats)
		}
	}
	if key == "players" || key == "max-players" { // in a running game too: the setting would say less than play
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
	return fmt.Sprintf("Game %s's %s is set. Its settings now:\n%s", g.Tag, key, settingsText(s, o, ng, j.describer(ng))), nil
}

// setGameKey is SET of one of a hosted game's own settings (game.Settable): the game's
// new settings are stored in the game's row, where CREATE put them. mine false: key is
// none of the game's.
func (j *Judge) setGameKey(e *cmdEnv, st game.Settable, key, val string) (string, bool, error) {
	g := *e.game
	cfg, mine, err := st.Set(key, settingValue(val))
	if !mine {
		return "", false, nil
	}
	if err != nil {
		return "", true, refuse("%v.", err)
	}
	raw, err := cfg.Encode()
	if err != nil {
		return "", true, err
	}
	if err := e.tx.SetGameRules(g.ID, raw); err != nil {
		return "", true, err
	}
	if err := j.audit(e, "set", key+" "+val); err != nil {
		return "", true, err
	}
	ng, err := e.tx.Game(g.ID)
	if err != nil {
		return "", true, err
	}
	e.game = &ng
	o, err := j.optionsOf(e.tx, ng)
	if err != nil {
		return "", true, err
	}
	s := store.GameSettings{Name: ng.Name, Deadline: ng.Deadline, Grace: ng.Grace, Missed: ng.Missed, ListAddress: ng.ListAddress}
	return fmt.Sprintf("Game %s's %s is set. Its settings now:\n%s", g.Tag, key, settingsText(s, o, ng, j.describer(ng))), true, nil
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
	if err := checkRelayed("BROADCAST", text, 0); err != nil {
		return "", err
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

// AddGM makes addr a game master of the game (tag "" for the whole server) with a new
// secret, mailed to addr through the outbox.
func (j *Judge) AddGM(ctx context.Context, tag, addr string) error {
	if err := CheckAddress("add-gm", addr); err != nil {
		return err
	}
	if err := j.notJudge("add-gm", addr); err != nil {
		return err
	}
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
		sec, hash, err := j.newSecret()
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
		o := store.Owner{Kind: store.OwnerGM, ID: id}
		sec = j.hold(o, sec) // the secret goes in at send time
		return j.enqueue(tx, outMail{kind: "gm-notice", gameID: gid, turn: -1, to: addr, subject: "rallyjudge: you are a game master",
			messageID: j.noticeID("addgm", id), slots: []store.Owner{o},
			text: fmt.Sprintf("You are a game master of %s.\n\nYour game master secret is: %s\n\n"+
				"Send it on a line \"secret ...\" with every game master command; send HELP for the commands.\n", what, sec),
			generated: true})
	})
}

// takeOverWelcome is the welcome of a player who takes over a robot (REPLACE): in a
// running game the welcome template with the board, the robot's hand and a blank sheet
// for the turn being played, like the first welcome; before the start, the secret and
// what comes next.
func (j *Judge) takeOverWelcome(tx *store.Tx, g store.Game, p store.Player, sec string) (text, html string, err error) {
	if g.Status == store.GameOpen {
		return fmt.Sprintf("You take over %s in game %s (%s), which has not started yet.\n\n"+
			"Your secret is: %s\n\nKeep it: every order sheet and command needs it, on a line \"secret ...\".\n"+
			"When the game master STARTs the game you get your first report.\n", p.Robot, g.Tag, j.gameWhat(g), sec), "", nil
	}
	k, err := j.hostedKind(g)
	if err != nil {
		return "", "", err
	}
	return j.hostedTakeOver(tx, g, k, p, sec)
}
