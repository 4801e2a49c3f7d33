package judge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
	"github.com/rallyjudge/rallyjudge/templates"
)

// The games the judge hosts through the game seam (package game): everything the judge
// does with one — set it up, read a player's orders, play a move when the due orders
// are in or the deadline passes, report it — asks the game's Kind and Position and
// nothing else. A game row's Kind names its package; its rules_json holds the game's
// settings as the game encoded them; each turn row holds the position the game encoded
// and the events it returned. A "turn" of the judge is one call of Play: every seat's
// move in a game played at once, one seat's move in a game played in turn.
//
// A row stored before the seam (Kind "", RoboRally's older encoding) is adopted by the
// game that takes it over (legacy.go) before the judge serves; the judge plays no game
// any other way.

// hostedKind is the game g plays; an error when the row names a game this judge does not
// host, or is a row from before the seam not yet adopted.
func (j *Judge) hostedKind(g store.Game) (game.Kind, error) {
	if g.Kind == "" {
		return nil, fmt.Errorf("game %s: %w", g.Tag, errNotAdopted)
	}
	k, err := j.Games.Lookup(g.Kind)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", g.Tag, err)
	}
	return k, nil
}

// hosted is a hosted game's position as last stored.
type hosted struct {
	kind game.Kind
	cfg  game.Config
	pos  game.Position
	last store.Turn
	// id is the position's among those the judge keeps (positionCache), 0 for one not
	// kept: the same id, the same position
	id uint64
}

// hostedState reads g's settings and latest position.
func (j *Judge) hostedState(tx *store.Tx, g store.Game, k game.Kind) (hosted, error) {
	if m, ok := stateMemo(tx, g, k); ok { // decoded before in this transaction (txmemo.go)
		return m, nil
	}
	h := hosted{kind: k}
	var err error
	if h.last, err = tx.LatestTurn(g.ID); err != nil {
		return h, err
	}
	if m, ok := stateMemoAt(tx, g, k, h.last); ok {
		return m, nil
	}
	if m, ok := j.positions.at(j.Games, g, k, h.last); ok { // decoded before (movesahead.go)
		keepState(tx, g, m)
		return m, nil
	}
	if h.cfg, err = k.LoadConfig(g.Rules); err != nil {
		return h, fmt.Errorf("game %s: settings: %w", g.Tag, err)
	}
	if h.pos, err = k.Load(h.cfg, h.last.After); err != nil {
		return h, fmt.Errorf("game %s turn %d: %w", g.Tag, h.last.Number, err)
	}
	h = j.positions.keep(j.Games, g, h)
	keepState(tx, g, h)
	return h, nil
}

// judgeKeys are the CREATE settings the judge reads itself for every game; the rest are
// the game's (Kind.Configure).
func isJudgeKey(k string) bool {
	return k == "game" || k == "gm" || k == "seed" || settingByKey(k) != nil
}

// gamesOwn are the keys of the judge's settings table that a game reads as its own
// settings (game.Configure, game.Settable), since a missed move and the rules are the
// game's: a game that does not take them refuses them rather than keep a setting that
// does nothing.
func gamesOwn(key string) bool { return key == "missed" || key == "rules" }

// cmdCreateHosted is CREATE for game k: the judge's own settings (settings.go), and
// the rest the game's (Configure).
func (j *Judge) cmdCreateHosted(e *cmdEnv, tag string, k game.Kind, kv map[string]string) (string, error) {
	spec := GameSpec{Tag: tag, Kind: k.Name(), Seed: j.newSeed(),
		Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 48}}
	set := store.GameSettings{Deadline: spec.Deadline, Missed: store.MissedPowerDown}
	own := map[string]string{}
	players := "" // players=N: the game's rule, or the game master's limit (below)
	for _, key := range slices.Sorted(maps.Keys(kv)) {
		v := kv[key]
		if done, err := j.createKey(&spec, key, v); done || err != nil {
			if err != nil {
				return "", err
			}
			continue
		}
		switch {
		case key == "game":
		case key == "players" || key == "max-players":
			players = v
		case gamesOwn(key):
			own[key] = v
		case isJudgeKey(key):
			if err := applySetting(&set, &spec.Options, key, v); err != nil {
				return "", err
			}
		default:
			own[key] = v
		}
	}
	cfg, err := k.Configure(own)
	if err != nil {
		return "", refuse("%s", sentence(err.Error()))
	}
	if players != "" {
		// how many play is the game master's limit where the game says so
		// (game.Settable: RoboRally's robots, up to the course's seats), else the
		// game's own rule (Crash by Crash: a game of 2, or of 4 in two teams)
		if st, ok := cfg.(game.Settable); ok {
			if hi, ok := st.Players(); ok {
				if err := applySetting(&set, &spec.Options, "players", players); err != nil {
					return "", err
				}
				if spec.Options.MaxPlayers > hi {
					return "", refuse("%s seats at most %d players, not %d.", j.describeConfig(k, cfg), hi, spec.Options.MaxPlayers)
				}
				players = ""
			}
		}
	}
	if players != "" {
		own["players"] = players
		if cfg, err = k.Configure(own); err != nil {
			return "", refuse("%s", sentence(err.Error()))
		}
	}
	if spec.Config, err = cfg.Encode(); err != nil {
		return "", err
	}
	if err := j.notJudge("list", set.ListAddress); err != nil {
		return "", err
	}
	spec.Name, spec.Deadline, spec.Grace, spec.List = set.Name, set.Deadline, set.Grace, set.ListAddress
	if e.cli {
		spec.GMEmail = kv["gm"]
	}
	g, secrets, err := j.createGameIn(e.tx, spec)
	if err != nil {
		return "", refuse("%v", err)
	}
	e.game = &g
	if err := j.gmAfterCreate(e, g, spec.GMEmail, secrets[""]); err != nil {
		return "", err
	}
	stored, err := j.optionsOf(e.tx, g)
	if err != nil {
		return "", err
	}
	settings := settingsText(set, stored, g, j.describer(g))
	if a, ok := cfg.(game.Announcer); ok { // the reply in the game's own layout
		return a.Announce(g.Tag, settings), nil
	}
	lo, hi := cfg.Seats()
	seats := fmt.Sprintf("%d players", hi)
	if lo != hi {
		seats = fmt.Sprintf("%d to %d players", lo, hi)
	}
	return fmt.Sprintf("Game %s is created and open for players: %s (%s), %s.\n%s\nPlayers join with \"JOIN %s NAME\"; START it when they have.\n",
		g.Tag, k.Title(), cfg.Text(), seats, settings, g.Tag), nil
}

// sentence ends s with a full stop unless it ends a sentence already.
func sentence(s string) string {
	if strings.HasSuffix(s, ".") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "!") {
		return s
	}
	return s + "."
}

// gameLabel names what g plays in a word, for LIST's column: the game's (game.Labeler:
// RoboRally's course), else the game's name.
func (j *Judge) gameLabel(g store.Game) string {
	if l, ok := j.hostedConfig(g).(game.Labeler); ok {
		return l.Label()
	}
	return g.Kind
}

// describeConfig is what a game of cfg plays in a few words (game.Describer: "course
// sprint"), else the game's title.
func (j *Judge) describeConfig(k game.Kind, cfg game.Config) string {
	if d, ok := cfg.(game.Describer); ok {
		return d.Describe()
	}
	return k.Title()
}

// createHostedRow checks spec's game and settings for createGameIn: the row's Kind and
// Rules, and the seats the game takes (spec.Options.MaxPlayers).
func (j *Judge) createHostedRow(spec *GameSpec, g *store.Game) error {
	if spec.Kind == "" && len(j.Games) > 0 {
		spec.Kind = j.Games[0].Name()
	}
	k, err := j.Games.Lookup(spec.Kind)
	if err != nil {
		return err
	}
	if len(spec.Config) == 0 {
		cfg, err := k.Configure(spec.Settings)
		if err != nil {
			return err
		}
		if spec.Config, err = cfg.Encode(); err != nil {
			return err
		}
	}
	cfg, err := k.LoadConfig(spec.Config)
	if err != nil {
		return fmt.Errorf("%s settings: %w", k.Title(), err)
	}
	_, hi := cfg.Seats()
	switch {
	case spec.Options.MaxPlayers > hi:
		return fmt.Errorf("%s seats at most %d players, not %d", j.describeConfig(k, cfg), hi, spec.Options.MaxPlayers)
	case len(spec.Players) > hi:
		return fmt.Errorf("%s seats at most %d players, not %d", j.describeConfig(k, cfg), hi, len(spec.Players))
	case spec.Options.MaxPlayers == 0:
		spec.Options.MaxPlayers = hi
	}
	g.Kind, g.Rules, g.Course = k.Name(), spec.Config, ""
	return nil
}

// startHostedIn is startGameIn for a game behind the seam: the first position, turn 0,
// the first deadline and each player's welcome with the first report.
func (j *Judge) startHostedIn(tx *store.Tx, g store.Game, k game.Kind, players []store.Player, secrets map[string]string) error {
	cfg, err := k.LoadConfig(g.Rules)
	if err != nil {
		return err
	}
	if lo, hi := cfg.Seats(); len(players) < lo || len(players) > hi {
		if lo == hi {
			return fmt.Errorf("%s is played by %d players; game %s has %d", k.Title(), lo, g.Tag, len(players))
		}
		return fmt.Errorf("%s is played by %d to %d players; game %s has %d", k.Title(), lo, hi, g.Tag, len(players))
	}
	names := make([]string, len(players))
	for i, p := range players {
		names[i] = p.Robot
	}
	pos, err := k.Start(cfg, names, g.Seed)
	if err != nil {
		return err
	}
	after, err := pos.Encode()
	if err != nil {
		return err
	}
	now := j.now()
	deadline, err := g.Deadline.Next(now)
	if err != nil {
		return err
	}
	if _, err := tx.SaveTurn(store.Turn{GameID: g.ID, Number: 0, After: after, Events: []byte("null"), Resolved: now}); err != nil {
		return err
	}
	if err := tx.SetDeadline(g.ID, deadline); err != nil {
		return err
	}
	if err := tx.SetGameStatus(g.ID, store.GameRunning); err != nil {
		return err
	}
	g.DeadlineAt, g.Status, g.CurrentTurn = deadline, store.GameRunning, 1
	if _, err := tx.Audit(store.AuditEntry{At: now, GameID: g.ID, Actor: "gm", Action: "start",
		Detail: fmt.Sprintf("%s, %d players", k.Title(), len(players))}); err != nil {
		return err
	}
	return j.welcomeHosted(tx, g, hosted{kind: k, cfg: cfg, pos: pos}, players, secrets)
}

// welcomeHosted mails each of players the welcome of game g behind the seam at
// position h: their secret (secrets, by name; none: the one sent when they joined) and
// the report of the position.
func (j *Judge) welcomeHosted(tx *store.Tx, g store.Game, h hosted, players []store.Player, secrets map[string]string) error {
	k, cfg, pos := h.kind, h.cfg, h.pos
	for _, p := range players {
		sec := secrets[p.Robot]
		var slots []store.Owner
		if sec == "" {
			sec = joinedSecret
		} else {
			o := store.Owner{Kind: store.OwnerPlayer, ID: p.ID}
			sec, slots = j.hold(o, sec), []store.Owner{o}
		}
		var rep game.Report
		subj := ""
		if ml, ok := pos.(game.Mailer); ok { // the game's own welcome
			subj, rep = j.mailerWelcome(ml, g, p, game.MailWelcome, sec)
		} else {
			rep = pos.Report(p.Seat, nil)
			subj = subject(g.Tag, fmt.Sprintf("Welcome, %s: %s", p.Robot, rep.Subject))
		}
		m := outMail{kind: "welcome", gameID: g.ID, turn: 0, to: p.Email, subject: subj,
			messageID: j.reportID(g.Tag, 0, p.Seat), refs: []string{j.gameRoot(g.Tag)}, inReplyTo: j.gameRoot(g.Tag),
			generated: true, slots: slots}
		intro := []string{fmt.Sprintf("Welcome to game %s: %s (%s).", g.Tag, k.Title(), cfg.Text()),
			fmt.Sprintf("You play as %s.\nYour secret is: %s", p.Robot, sec)}
		if err := j.gameMail(&m, fmt.Sprintf("%s game %s: welcome, %s", k.Title(), g.Tag, p.Robot), intro, rep, j.hostedFoot(g, h, p)); err != nil {
			return err
		}
		if err := j.enqueue(tx, m); err != nil {
			return err
		}
	}
	return nil
}

// gameMail fills m's text, HTML and pictures from what the game reports, with the
// judge's own lines above (intro) and below (foot); a report the game wrote whole
// (game.Mailer) goes as it is.
func (j *Judge) gameMail(m *outMail, title string, intro []string, rep game.Report, foot string) error {
	if rep.Whole {
		wholeMail(m, rep)
		return nil
	}
	var b strings.Builder
	b.WriteString(title + "\n\n")
	for _, l := range intro {
		b.WriteString(l + "\n")
	}
	if len(intro) > 0 {
		b.WriteString("\n")
	}
	b.WriteString(rep.Text)
	b.WriteString(foot)
	m.text = b.String()
	data := templates.GameMail{Title: title, Intro: intro, Text: rep.Text, Foot: strings.TrimSpace(foot),
		HTML: htmltemplate.HTML(rep.HTML)} // the game's own markup, trusted as the game's code is
	m.inline = inlinePictures(rep)
	for _, in := range m.inline {
		if in.ContentID == boardCID {
			data.PictureCID, data.PictureAlt = boardCID, "the board"
			continue
		}
		data.Pictures = append(data.Pictures, templates.GamePicture{CID: in.ContentID, Alt: in.Filename})
	}
	var err error
	m.html, err = j.Templates.HTML("game.html.tmpl", data)
	return err
}

// hostedFoot closes a report to a player: whose move is due, by when, how to write it.
func (j *Judge) hostedFoot(g store.Game, h hosted, p store.Player) string {
	var b strings.Builder
	due := h.pos.Due()
	if h.pos.Over() || len(due) == 0 {
		return "\nThe game is over.\n"
	}
	b.WriteString("\n")
	if slices.Contains(due, p.Seat) {
		fmt.Fprintf(&b, "Your move is due by %s. Reply with:\n\n", deadlineText(g.DeadlineAt))
		fmt.Fprintf(&b, "  game %s\n  player %s\n  secret YOUR-SECRET\n  turn %d\n  ...your move...\n\n", g.Tag, p.Robot, g.CurrentTurn)
		b.WriteString(h.kind.Guide())
		b.WriteString("\n")
	} else {
		fmt.Fprintf(&b, "Waiting for the next move (deadline %s).\n", deadlineText(g.DeadlineAt))
	}
	return b.String()
}

// moveLines is the lines of rd's sheet the game reads as the move: the envelope's
// blanked by the reader that read it (game.MailReader.MoveLines).
func moveLines(rd *Reading) string {
	if rd.ahead != nil {
		return rd.ahead.Lines
	}
	if rd.reader == nil {
		return rd.SheetText
	}
	return rd.reader.MoveLines(rd.SheetText)
}

// readAhead reads rd's move before it is judged, when the reader reads moves ahead
// (game.MoveReader): a batch reads its mails on a goroutine of its own while the mails
// before them are judged one at a time (batchItem.read), so what is read there is not
// paid where the mails wait. Judging checks it (checkRead).
func (rd *Reading) readAhead() {
	mr, ok := rd.reader.(game.MoveReader)
	if !ok || rd.Sheet == nil {
		return
	}
	m := mr.ReadMove(mr.MoveLines(rd.SheetText), sheetFile(rd))
	rd.ahead = &m
}

// sheetReader is the reader of every mail's order sheet: Judge.Sheets, else the
// catalogue's (game.MailReaderOf).
func (j *Judge) sheetReader() game.MailReader {
	if j.Sheets != nil {
		return j.Sheets
	}
	return game.MailReaderOf(j.Games)
}

// maxSheetSize is the most bytes a mail's sheet may have.
func (j *Judge) maxSheetSize() int {
	if r := j.sheetReader(); r != nil {
		return r.MaxSheetSize()
	}
	return 64 << 10
}

// hostedMove is a stored order version's move.
func hostedMove(o store.OrderSheet) (game.Move, error) {
	var m game.Move
	err := json.Unmarshal(o.Parsed, &m)
	return m, err
}

// storedMove is what a version storing parsed, json.Marshal of the move m, reads back
// as (hostedMove), without reading it when it is m itself: parsed holds m.Data as it
// is (json.Marshal writes a RawMessage compacted, with <, > and & escaped) and m.Text
// is valid UTF-8 (json.Marshal writes any other byte as U+FFFD). Decoding every new
// version was 5-6 µs of the writer's time a mail (issue 24 item 7).
func storedMove(m game.Move, parsed []byte) (game.Move, error) {
	const head, mid = `{"data":`, `,"text":`
	if n := len(head) + len(m.Data); len(m.Data) > 0 && len(parsed) > n+len(mid) && string(parsed[:len(head)]) == head &&
		bytes.Equal(parsed[len(head):n], m.Data) && string(parsed[n:n+len(mid)]) == mid && utf8.ValidString(m.Text) {
		return m, nil
	}
	return hostedMove(store.OrderSheet{Parsed: parsed})
}

// judgeHostedSheet judges a sheet for a game behind the seam, once its sender is known
// to be the player (judgeSheet): the game checks the move against the position, the
// version is stored, and the player told.
//
// In a batch (v set) the acknowledgement is composed beside the writer (ackQueue), and
// players are the game's players as the batch read them.
func (j *Judge) judgeHostedSheet(tx *store.Tx, v *views, g store.Game, k game.Kind, players []store.Player, player *store.Player,
	row store.InboxMessage, msg *mail.Message, rd *Reading, f *fate) (store.InboxStatus, string, int64, error) {
	h, err := j.hostedState(tx, g, k)
	if err != nil {
		return "", "", 0, err
	}
	j.positions.seated(g, h, players) // the readers check the sheets after this one with h (movesahead.go)
	sheet := rd.Sheet
	var problems []string
	var checked game.Checked
	var moveText, refusal string
	switch {
	case sheet.Turn != 0 && sheet.Turn != g.CurrentTurn:
		problems = append(problems, fmt.Sprintf("this sheet is for turn %d; the judge is collecting turn %d.", sheet.Turn, g.CurrentTurn))
		if refusal, problems, err = j.gameRefusal(h, player, g, rd.SheetText, sheetFile(rd), problems); err != nil {
			return "", "", 0, err
		}
	case !slices.Contains(h.pos.Due(), player.Seat) && !maySend(h.pos, player.Seat):
		problems = append(problems, fmt.Sprintf("it is not your move: turn %d is %s.", g.CurrentTurn, j.dueText(tx, g, h)))
	default:
		moveText = moveLines(rd)
		checked = j.checkRead(h, player.Seat, rd) // or as a reader checked it (movesahead.go)
		for _, p := range checked.Problems {
			problems = append(problems, p.String())
		}
		if !checked.OK() { // game.Refuser: the refusal in the game's words
			if refusal, problems, err = j.gameRefusal(h, player, g, rd.SheetText, sheetFile(rd), problems); err != nil {
				return "", "", 0, err
			}
		}
	}
	valid := len(problems) == 0
	f.outcome, f.errors = outcomeAccepted, 0
	if !valid {
		f.outcome, f.errors = outcomeInvalid, len(problems)
	}
	parsed, _ := json.Marshal(checked.Move)
	version := store.OrderSheet{GameID: g.ID, Turn: g.CurrentTurn, Robot: player.Robot, InboxID: row.ID,
		Raw: redactSecret(msg.Text, sheet.Secret), Parsed: parsed, Valid: valid, Errors: problems, Received: receivedAt(row, j.now())}
	if !valid && len(checked.Move.Data) == 0 { // a refused move keeps what the game read of it, if anything
		version.Parsed = nil
	}
	// in a batch judged without savepoints the rows of a mail are inserted with the
	// batch's others, several to a statement (store/later.go)
	addOrders, audit := tx.AddOrders, tx.Audit
	if v != nil && v.acks != nil {
		addOrders, audit = tx.AddOrdersLater, tx.AuditLater
	}
	writes := tx.Writes("orders")
	if version.ID, err = addOrders(version); err != nil {
		return "", "", 0, err
	}
	versionAdded(tx, g, h, player.Seat, version, checked.Move, writes) // txmemo.go
	var b strings.Builder
	if !valid && refusal != "" {
		return store.InboxProcessed, "invalid orders", 0, j.enqueue(tx, outMail{kind: "reject", gameID: g.ID, turn: g.CurrentTurn,
			to: player.Email, subject: replySubject(msg.Subject), messageID: j.replyID(row.ID), inReplyTo: msg.MessageID, text: refusal})
	}
	if !valid {
		fmt.Fprintf(&b, "Your move for %s, turn %d of game %s, was NOT accepted:\n\n", player.Robot, g.CurrentTurn, g.Tag)
		for _, p := range problems {
			b.WriteString(game.Wrap("  "+p, "  ") + "\n")
		}
		b.WriteString("\nCorrect it and send it again; until then your earlier valid move for\nthis turn, if any, stands.\n")
		if !strings.Contains(strings.Join(problems, " "), "not your move") {
			b.WriteString("\n" + k.Guide() + "\n")
		}
		return store.InboxProcessed, "invalid orders", 0, j.enqueue(tx, outMail{kind: "reject", gameID: g.ID, turn: g.CurrentTurn,
			to: player.Email, subject: replySubject(msg.Subject), messageID: j.replyID(row.ID), inReplyTo: msg.MessageID, text: b.String()})
	}
	// game.Acknowledger; in a batch its template is rendered beside the writer
	if text, render, err := j.gameAck(tx, g, h, players, player, moveText, sheetFile(rd), checked.Move, v != nil && v.acks != nil); err != nil || text != "" || render != nil {
		if err != nil {
			return "", "", 0, err
		}
		return j.sendHostedAck(tx, v, audit, g, player, row, msg, text, render)
	}
	fmt.Fprintf(&b, "Your move for %s, turn %d of game %s, is accepted:\n\n  %s\n", player.Robot, g.CurrentTurn, g.Tag,
		strings.ReplaceAll(strings.TrimSpace(checked.Move.Text), "\n", "\n  "))
	if checked.Forecast != "" {
		fmt.Fprintf(&b, "\nForecast:\n\n%s\n", strings.TrimRight(checked.Forecast, "\n"))
	}
	if players, missing, err := j.missingOrders(tx, g); err != nil {
		return "", "", 0, err
	} else if g.Status == store.GamePaused {
		// nothing is played while the clock stands (resolveIn plays a running game only)
		b.WriteString("\nThe game is paused: the turn is played when the game master resumes it.\nUntil then you may send a new move; the last valid one counts.\n")
	} else if hs, err := j.hostedHolds(tx, g, h, players); err != nil {
		return "", "", 0, err
	} else if len(missing) == 0 && len(hs) > 0 {
		b.WriteString(game.Wrap("\nEvery move of this turn is in, but the turn waits for its deadline: "+strings.Join(hs, "; ")+".", "") + "\n")
	} else if len(missing) == 0 {
		b.WriteString("\nEvery move of this turn is in: the turn is played now, and the report\nfollows.\n")
	} else {
		fmt.Fprintf(&b, "\nYou may send a new move until the deadline, %s%s;\nthe last valid one counts.\n",
			deadlineText(g.DeadlineAt), timeLeft(g.DeadlineAt, j.now()))
	}
	if _, err := audit(store.AuditEntry{At: j.now(), GameID: g.ID, Actor: player.Robot, Action: "orders", Detail: fmt.Sprintf("turn %d", g.CurrentTurn)}); err != nil {
		return "", "", 0, err
	}
	return store.InboxProcessed, noteAccepted, g.ID, j.enqueueIn(tx, v, outMail{kind: "ack", gameID: g.ID, turn: g.CurrentTurn,
		to: player.Email, subject: replySubject(msg.Subject), messageID: j.replyID(row.ID), inReplyTo: msg.MessageID, text: b.String()})
}

// dueText says whose move the position waits for.
func (j *Judge) dueText(tx *store.Tx, g store.Game, h hosted) string {
	players, err := tx.Players(g.ID)
	if err != nil {
		return "due from the players to move"
	}
	var names []string
	for _, s := range h.pos.Due() {
		if p := playerAt(players, s); p != nil {
			names = append(names, p.Robot)
		}
	}
	if len(names) == 0 {
		return "due from nobody"
	}
	return strings.Join(names, " and ") + "'s to move"
}

// hostedMoves are the due seats' moves for the turn being collected: the latest valid
// move of each, or, when the game folds a seat's mails (game.Folder), its valid moves
// folded in the order they were received. missing are the due seats whose move is not
// in; partial holds a missing seat's incomplete fold, for the autopilot to complete.
func (j *Judge) hostedMoves(tx *store.Tx, g store.Game, h hosted, players []store.Player) (moves map[int]game.Move, missing []int, partial map[int]game.Move, err error) {
	moves, partial = map[int]game.Move{}, map[int]game.Move{}
	_, folds := h.pos.(game.Folder)
	for _, seat := range h.pos.Due() {
		p := playerAt(players, seat)
		if p == nil || p.Withdrawn {
			missing = append(missing, seat)
			continue
		}
		// the version the mail server received last counts (a backlog read out of
		// order), folded (txmemo.go)
		f, err := j.seatFoldOf(tx, g, h, p.Robot, seat)
		if err != nil {
			return nil, nil, nil, err
		}
		got := f.move
		switch {
		case got == nil:
			missing = append(missing, seat)
		case folds && !f.complete:
			missing = append(missing, seat)
			partial[seat] = *got
		default:
			moves[seat] = *got
		}
	}
	if err := j.offTurnMoves(tx, g, h, players, moves); err != nil { // game.OffTurn
		return nil, nil, nil, err
	}
	return moves, missing, partial, nil
}

// hostedHolds are why a hosted game's turn waits for its deadline though every due
// move is in (game.Holder): a player's WAIT, and what the game says; nil for a game
// that is not a Holder.
func (j *Judge) hostedHolds(tx *store.Tx, g store.Game, h hosted, players []store.Player) ([]string, error) {
	hd, ok := h.pos.(game.Holder)
	if !ok {
		return nil, nil
	}
	var out []string
	for _, p := range players {
		if p.Withdrawn {
			continue
		}
		f, err := j.seatFoldOf(tx, g, h, p.Robot, p.Seat)
		if err != nil {
			return nil, err
		}
		why, in := hd.Holds(p.Seat, f.n > 0)
		if !in {
			continue
		}
		if p.WaitTurn == g.CurrentTurn && g.CurrentTurn > 0 {
			out = append(out, fmt.Sprintf("%s asked to WAIT", p.Robot))
		}
		if why != "" {
			out = append(out, why)
		}
	}
	return out, nil
}

// missingOrders are g's players and, by name, those whose orders for the turn being
// collected are due and not in.
func (j *Judge) missingOrders(tx *store.Tx, g store.Game) ([]store.Player, map[string]bool, error) {
	players, err := tx.Players(g.ID)
	if err != nil {
		return nil, nil, err
	}
	missing := map[string]bool{}
	k, err := j.hostedKind(g)
	if err != nil {
		return nil, nil, err
	}
	h, err := j.hostedState(tx, g, k)
	if err != nil {
		return nil, nil, err
	}
	_, seats, _, err := j.hostedMoves(tx, g, h, players)
	if err != nil {
		return nil, nil, err
	}
	for _, s := range seats {
		if p := playerAt(players, s); p != nil {
			missing[p.Robot] = true
		}
	}
	return players, missing, nil
}

// gameWhat names what g plays: the game's own words (game.Describer: "course sprint"),
// else its title.
func (j *Judge) gameWhat(g store.Game) string {
	if d := j.describer(g); d != nil {
		return d.Describe()
	}
	if k, err := j.hostedKind(g); err == nil {
		return k.Title()
	}
	return g.Kind
}

// allOrdersIn says whether every order the game's turn waits for is in.
func (j *Judge) allOrdersIn(tx *store.Tx, g store.Game) (bool, error) {
	k, err := j.hostedKind(g)
	if err != nil {
		return false, err
	}
	players, missing, err := j.missingOrders(tx, g)
	if err != nil || len(missing) > 0 {
		return false, err
	}
	h, err := j.hostedState(tx, g, k)
	if err != nil {
		return false, err
	}
	hs, err := j.hostedHolds(tx, g, h, players)
	return len(hs) == 0, err
}

// hostedStatus is STATUS of a hosted game, below the lines every game's STATUS has.
func (j *Judge) hostedStatus(e *cmdEnv, g store.Game, k game.Kind, ps []store.Player, b *strings.Builder) (string, error) {
	h, err := j.hostedState(e.tx, g, k)
	if err != nil {
		return "", err
	}
	_, missing, err := j.missingOrders(e.tx, g)
	if err != nil {
		return "", err
	}
	if g.Status != store.GameOver {
		zone := ""
		if e.player != nil {
			zone = e.player.Timezone
		}
		fmt.Fprintf(b, "%s, turn %d. Deadline: %s.\nWithout a move in time the autopilot plays one.\n\n", k.Title(), g.CurrentTurn, deadlineIn(g.DeadlineAt, zone))
	} else {
		fmt.Fprintf(b, "%s: the game is over after %d turn(s).\n\n", k.Title(), g.CurrentTurn-1)
	}
	due := h.pos.Due()
	for _, p := range ps {
		what := "waiting for the others"
		switch {
		case p.Withdrawn:
			what = "withdrawn"
		case g.Status == store.GameOver:
			what = "finished"
		case missing[p.Robot]:
			what = "to move: waiting for the move"
		case slices.Contains(due, p.Seat):
			what = "to move: move in"
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
	b.WriteString("\nStandings\n")
	for _, line := range hostedStandings(h, ps) {
		fmt.Fprintf(b, "  %s\n", line)
	}
	return b.String(), nil
}

// hostedSummary is the game-over mail of a hosted game: the standings and the game
// move by move, or what the game writes (game.Summarizer).
func (j *Judge) hostedSummary(tx *store.Tx, g store.Game, k game.Kind) (string, error) {
	h, err := j.hostedState(tx, g, k)
	if err != nil {
		return "", err
	}
	players, err := tx.Players(g.ID)
	if err != nil {
		return "", err
	}
	turns, err := tx.LiveTurns(g.ID)
	if err != nil {
		return "", err
	}
	if sm, ok := h.pos.(game.Summarizer); ok {
		s := game.Summary{Game: g.Tag, Name: g.Name}
		for _, tn := range turns {
			if tn.Number > 0 {
				s.Turns = append(s.Turns, game.SummaryTurn{Number: tn.Number, Events: tn.Events})
			}
		}
		for _, p := range players {
			if p.Withdrawn {
				s.Withdrawn = append(s.Withdrawn, p.Seat)
			}
		}
		return sm.Summary(s), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Game %s", g.Tag)
	if g.Name != "" {
		fmt.Fprintf(&b, " (%s)", g.Name)
	}
	fmt.Fprintf(&b, ", %s, is over after %d turn(s).\n\nStandings\n", k.Title(), max(len(turns)-1, 0))
	for _, line := range hostedStandings(h, players) {
		fmt.Fprintf(&b, "  %s\n", line)
	}
	b.WriteString("\nThe game move by move\n")
	for _, tn := range turns {
		if tn.Number == 0 {
			continue
		}
		var played []hostedPlayed
		_ = json.Unmarshal(tn.Orders, &played)
		for _, p := range played {
			how := ""
			if p.Missed {
				how = " (autopilot)"
			}
			b.WriteString(game.Wrap(fmt.Sprintf("  Turn %d, %s%s: %s", tn.Number, p.Player, how, oneLine(p.Move.Text)), "    ") + "\n")
		}
	}
	b.WriteString("\nThank you for playing.\n")
	return b.String(), nil
}

// hostedTurnLine is a hosted turn in one line: who played what.
func hostedTurnLine(tn store.Turn) string {
	var played []hostedPlayed
	if err := json.Unmarshal(tn.Orders, &played); err != nil {
		return "(the moves could not be read)"
	}
	var parts []string
	for _, p := range played {
		s := p.Player + ": " + oneLine(p.Move.Text)
		if p.Missed {
			s += " (autopilot)"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

// hostedPlayed is the record of one turn's moves, stored with the turn (turns.orders):
// what each seat played and whether the autopilot played it.
type hostedPlayed struct {
	Seat   int       `json:"seat"`
	Player string    `json:"player"`
	Move   game.Move `json:"move"`
	Missed bool      `json:"missed,omitempty"`
}

// resolveHostedIn plays the turn of a game behind the seam inside tx when every due
// seat's move is in, or (force) whatever is missing: a missed move is the game's
// autopilot's. It commits the new position with every report (the outbox pattern).
func (j *Judge) resolveHostedIn(tx *store.Tx, g store.Game, k game.Kind, force bool) (bool, error) {
	h, err := j.hostedState(tx, g, k)
	if err != nil {
		return false, err
	}
	if h.last.Number+1 != g.CurrentTurn || h.pos.Over() {
		return false, nil
	}
	players, err := tx.Players(g.ID)
	if err != nil {
		return false, err
	}
	moves, missing, partial, err := j.hostedMoves(tx, g, h, players)
	if err != nil {
		return false, err
	}
	if len(missing) > 0 && !force {
		// a withdrawn player's seat never holds the game up: the autopilot plays it now
		for _, seat := range missing {
			if p := playerAt(players, seat); p == nil || !p.Withdrawn {
				return false, nil
			}
		}
	}
	if !force { // a turn held to its deadline (game.Holder)
		if hs, err := j.hostedHolds(tx, g, h, players); err != nil || len(hs) > 0 {
			return false, err
		}
	}
	seed := game.TurnSeed(g.Seed, g.CurrentTurn)
	missedBy := map[string]bool{}
	var notes []string
	left := map[int]bool{}
	if l, ok := h.pos.(game.Leaver); ok { // a withdrawn player's seat leaves the game
		for _, p := range players {
			if !p.Withdrawn {
				continue
			}
			if m, ok := l.Leave(p.Seat); ok {
				moves[p.Seat], left[p.Seat] = m, true
			}
		}
	}
	opts, err := j.optionsOf(tx, g)
	if err != nil {
		return false, err
	}
	for _, seat := range missing {
		if left[seat] {
			continue
		}
		moves[seat] = h.pos.Autopilot(seat, seed)
		// an absent player's move, played by the policy the game's absence setting
		// names (absence.go), when the game has it
		if pol, ok := h.pos.(game.Policies); ok && opts.absence() != "extend" {
			if p := playerAt(players, seat); p != nil && !p.Withdrawn && absentOn(*p, j.now()) {
				if m, ok := pol.AutopilotAs(seat, seed, opts.absence()); ok {
					moves[seat] = m
				}
			}
		}
		if m, ok := partial[seat]; ok { // what the seat did send counts (game.Folder)
			moves[seat] = h.pos.(game.Folder).Fold(seat, m, moves[seat])
		}
		if p := playerAt(players, seat); p != nil {
			missedBy[p.Robot] = true
			notes = append(notes, game.Wrap(fmt.Sprintf("%s sent no move in time: the autopilot played %s.", p.Robot, oneLine(moves[seat].Text)), "  "))
		}
	}
	res, err := h.pos.Play(moves, seed)
	if err != nil {
		return false, fmt.Errorf("game %s turn %d: %w", g.Tag, g.CurrentTurn, err)
	}
	after, err := res.Next.Encode()
	if err != nil {
		return false, err
	}
	var played []hostedPlayed
	for _, seat := range slices.Sorted(maps.Keys(moves)) {
		hp := hostedPlayed{Seat: seat, Move: moves[seat]}
		if p := playerAt(players, seat); p != nil {
			hp.Player, hp.Missed = p.Robot, missedBy[p.Robot]
		}
		played = append(played, hp)
	}
	pJSON, _ := json.Marshal(played)
	events := res.Events
	if len(events) == 0 {
		events = json.RawMessage("null")
	}
	now := j.now()
	if _, err := tx.SaveTurn(store.Turn{GameID: g.ID, Number: g.CurrentTurn, Before: h.last.After, After: after,
		Events: events, Orders: pJSON, Resolved: now}); err != nil {
		return false, err
	}
	for _, p := range players {
		n := 0
		if missedBy[p.Robot] {
			n = p.Missed + 1
		}
		if n != p.Missed {
			if err := tx.SetMissed(p.ID, n); err != nil {
				return false, err
			}
		}
	}
	deadline := time.Time{}
	if res.Next.Over() {
		if err := tx.SetGameStatus(g.ID, store.GameOver); err != nil {
			return false, err
		}
	} else if deadline, err = g.Deadline.Next(now); err != nil {
		return false, err
	}
	if err := tx.SetDeadline(g.ID, deadline); err != nil {
		return false, err
	}
	why := "all orders in"
	if force {
		why = "deadline"
	}
	if _, err := tx.Audit(store.AuditEntry{At: now, GameID: g.ID, Actor: "judge", Action: "resolve",
		Detail: fmt.Sprintf("turn %d (%s)", g.CurrentTurn, why)}); err != nil {
		return false, err
	}
	gen, err := tx.VoidTurns(g.ID, g.CurrentTurn)
	if err != nil {
		return false, err
	}
	next := hosted{kind: k, cfg: h.cfg, pos: res.Next}
	played2 := g
	played2.CurrentTurn, played2.DeadlineAt = g.CurrentTurn+1, deadline
	if ml, ok := res.Next.(game.Mailer); ok { // the game writes its reports whole (hostedmail.go)
		if err := j.mailerReports(tx, g, ml, h.pos, events, players, gen, deadline, res.Next.Over()); err != nil {
			return false, err
		}
	} else if err := j.hostedReports(tx, g, k, res, events, players, gen, notes, played2, next); err != nil {
		return false, err
	}
	if err := j.rollcallForGMs(tx, g, h.pos, events, players, missedBy, force, gen, res.Next.Over()); err != nil { // game.Rollcall
		return false, err
	}
	if mt, ok := res.Next.(game.MissedTeller); ok { // the game's words, and the missed-turns limit
		private := map[string]string{}
		for _, p := range players {
			if missedBy[p.Robot] {
				private[p.Robot] = mt.MissedNote(p.Seat, events)
			}
		}
		if err := j.afterTurn(tx, g, opts, players, missedBy, private, res.Next.Over()); err != nil {
			return false, err
		}
	}
	for _, p := range players {
		if _, told := res.Next.(game.MissedTeller); told || !missedBy[p.Robot] || p.Withdrawn {
			continue
		}
		text := fmt.Sprintf("%s\nso the autopilot played\n\n  %s\n\nfor you. That is %d missed turn(s) in a row.\n",
			game.Wrap(fmt.Sprintf("No valid move from %s arrived for turn %d of game %s,", p.Robot, g.CurrentTurn, g.Tag), ""),
			strings.ReplaceAll(strings.TrimSpace(moves[p.Seat].Text), "\n", "\n  "), p.Missed+1)
		if err := j.enqueue(tx, outMail{kind: "missed", gameID: g.ID, turn: g.CurrentTurn, to: p.Email,
			subject:   subject(g.Tag, fmt.Sprintf("Turn %d: no move from %s", g.CurrentTurn, p.Robot)),
			messageID: j.noticeID("missed", fmt.Sprintf("%s.%d%s.s%d", g.Tag, g.CurrentTurn, genTag(gen), p.Seat)),
			inReplyTo: j.gameRoot(g.Tag), refs: []string{j.gameRoot(g.Tag)}, text: text, generated: true}); err != nil {
			return false, err
		}
	}
	if !res.Next.Over() {
		// a withdrawn player's seat never holds the game up: when the next move is due
		// from withdrawn seats only, the autopilot plays it now
		ng, err := tx.Game(g.ID)
		if err != nil {
			return false, err
		}
		if ng.Status == store.GameRunning {
			if _, err := j.resolveHostedIn(tx, ng, k, false); err != nil {
				return false, err
			}
		}
	}
	return true, nil
}

// hostedReports enqueues the reports of the turn of g just played, each the game's
// Report wrapped by the judge: every player's, then the public one (hostedPublic).
func (j *Judge) hostedReports(tx *store.Tx, g store.Game, k game.Kind, res game.Result, events []byte, players []store.Player,
	gen int, notes []string, played2 store.Game, next hosted) error {
	for _, p := range players {
		if p.Withdrawn {
			continue
		}
		rep := res.Next.Report(p.Seat, events)
		if pt, ok := res.Next.(game.Parts); ok && g.ListAddress != "" {
			rep = pt.PrivateReport(p.Seat, events) // the list has the public report
		}
		m := outMail{kind: "report", gameID: g.ID, turn: g.CurrentTurn, to: p.Email,
			subject:   subject(g.Tag, fmt.Sprintf("Turn %d: %s", g.CurrentTurn, rep.Subject)),
			messageID: j.reportIDGen(g.Tag, g.CurrentTurn, gen, fmt.Sprintf("s%d", p.Seat)), refs: []string{j.gameRoot(g.Tag)},
			inReplyTo: j.gameRoot(g.Tag), generated: true}
		title := fmt.Sprintf("%s game %s, turn %d: report for %s", k.Title(), g.Tag, g.CurrentTurn, p.Robot)
		if err := j.gameMail(&m, title, notes, rep, j.hostedFoot(played2, next, p)); err != nil {
			return err
		}
		if err := j.enqueue(tx, m); err != nil {
			return err
		}
	}
	return j.hostedPublic(tx, g, k, res, events, gen)
}

// hostedPublic mails the public report to the game's list and observers.
func (j *Judge) hostedPublic(tx *store.Tx, g store.Game, k game.Kind, res game.Result, events []byte, gen int) error {
	var to []string
	if g.ListAddress != "" {
		to = append(to, g.ListAddress)
	}
	obs, err := tx.Observers(g.ID)
	if err != nil {
		return err
	}
	for _, o := range obs {
		to = append(to, o.Email)
	}
	if len(to) == 0 {
		return nil
	}
	rep := res.Next.Report(-1, events)
	title := fmt.Sprintf("%s game %s, turn %d", k.Title(), g.Tag, g.CurrentTurn)
	for i, addr := range to {
		m := outMail{kind: "report", gameID: g.ID, turn: g.CurrentTurn, to: addr,
			subject:   subject(g.Tag, fmt.Sprintf("Turn %d: %s", g.CurrentTurn, rep.Subject)),
			messageID: j.reportIDGen(g.Tag, g.CurrentTurn, gen, fmt.Sprintf("pub%d", i)), refs: []string{j.gameRoot(g.Tag)},
			inReplyTo: j.gameRoot(g.Tag), generated: true}
		if err := j.gameMail(&m, title, res.Story, rep, ""); err != nil {
			return err
		}
		if err := j.enqueue(tx, m); err != nil {
			return err
		}
	}
	return nil
}

// hostedStandings are a hosted game's standings in words, best first.
func hostedStandings(h hosted, players []store.Player) []string {
	var out []string
	for _, s := range h.pos.Standings() {
		name := fmt.Sprintf("seat %d", s.Seat+1)
		if p := playerAt(players, s.Seat); p != nil {
			name = p.Robot
		}
		out = append(out, fmt.Sprintf("%d. %s — %s", s.Rank, name, s.Line))
	}
	return out
}

// hostedTakeOver is the welcome of a player who takes over a seat of a running hosted
// game (REPLACE): the secret, the seat's report of the position and what is due.
func (j *Judge) hostedTakeOver(tx *store.Tx, g store.Game, k game.Kind, p store.Player, sec string) (string, string, error) {
	h, err := j.hostedState(tx, g, k)
	if err != nil {
		return "", "", err
	}
	if ml, ok := h.pos.(game.Mailer); ok { // the game's own welcome
		c := j.mailing(g, game.MailTakeOver, p.Seat, g.CurrentTurn)
		c.Deadline, c.Secret = deadlineText(g.DeadlineAt), sec
		rep := ml.Mail(nil, c)
		return rep.Text, rep.HTML, nil
	}
	rep := h.pos.Report(p.Seat, nil)
	intro := []string{fmt.Sprintf("You take over %s in game %s: %s (%s).", p.Robot, g.Tag, k.Title(), h.cfg.Text()),
		fmt.Sprintf("Your secret is: %s", sec),
		"Keep it: every move and command needs it, on a line \"secret ...\"."}
	m := outMail{}
	if err := j.gameMail(&m, fmt.Sprintf("%s game %s: welcome, %s", k.Title(), g.Tag, p.Robot), intro, rep, j.hostedFoot(g, h, p)); err != nil {
		return "", "", err
	}
	return m.text, m.html, nil
}

// errNotHosted refuses a command the game does not answer (it lacks the seam's
// optional part the command needs).
var errNotHosted = errors.New("not available for this game")

// errNotAdopted is a row stored before the seam that no game has taken over yet
// (AdoptLegacy runs before the judge serves).
var errNotAdopted = errors.New("stored before the game seam and not adopted (run rallyjudge serve or a rallyjudge game command once)")

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
