package judge

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/rallyjudge/rallyjudge/store"
)

// The people's side of the turn lifecycle: reminders before the deadline, what a
// player is told after missing a turn, what happens after too many missed turns in a
// row, and the final summary when a game is over. Tick runs reminders and the final
// summary; resolveIn calls afterTurn.
//
// Decisions (docs/commands.md, "Deadlines and missing players"):
//   - Reminders go to players whose robot needs a program and who have no valid one for
//     the turn, at each lead time before the deadline (default 24h and 2h), once each:
//     the Message-ID names the game, turn, seat, deadline and lead, so a tick that
//     comes again enqueues nothing new, and a moved deadline (EXTEND) arms them again.
//     A lead time as long as the turn or longer is skipped (the report that opened
//     the turn said the deadline).
//   - A player who missed a turn gets a private note of what was played for the robot
//     (the public report says it too).
//   - After MissedLimit turns in a row (0: never) the game masters are asked to REPLACE
//     the player ("ask", the default), or ("remove") the player is withdrawn.
//   - A withdrawn player's robot (WITHDRAW, KICK, or "remove") leaves the race at the
//     next resolution: it is set Out in the state given to the engine, so the turn's
//     record (state before) says so and replays bit for bit. It cannot come back.
//   - Game over: every player and game master gets one final mail with the standings
//     and a turn-by-turn summary of the whole game.

// MissedAutopilot is the missed-orders policy that plays autopilot.Choose's program;
// the games table's CHECK predates it, so it lives in Options.Missed.
const MissedAutopilot = "autopilot"

// Options are a game's settings beyond the games table's columns (store
// GameOptions JSON).
type Options struct {
	MaxPlayers    int    `json:"max_players,omitempty"`     // 0: MaxSeats
	Missed        string `json:"missed,omitempty"`          // "autopilot" overrides the column
	MissedLimit   int    `json:"missed_limit,omitempty"`    // missed turns in a row before OnMissedLimit; 0: never
	OnMissedLimit string `json:"on_missed_limit,omitempty"` // "ask" (default) or "remove"
	// Reminders are the lead times before the deadline, in seconds; nil: 24h and 2h;
	// empty: none.
	Reminders []int64 `json:"reminders"`
	// PausedLeft is what was left of the deadline when the game was paused, in seconds.
	PausedLeft int64 `json:"paused_left,omitempty"`
	// Observers: "yes" (default) lets anyone OBSERVE the game; "no" does not.
	Observers string `json:"observers,omitempty"`
	// Press: "any" (default: signed or anonymous as the sender says), "signed",
	// "anonymous", "none".
	Press string `json:"press,omitempty"`
	// WhoGame: who may ask who plays which robot: "players" (default), "public", "gm".
	WhoGame string `json:"whogame,omitempty"`
	// Absence: what an announced absence does: "extend" (default: the deadline waits,
	// by at most AbsenceCap a turn), "autopilot", "powerdown".
	Absence    string `json:"absence,omitempty"`
	AbsenceCap int64  `json:"absence_cap,omitempty"` // seconds; 0: 72h
	// ExtendTurn and Extended: how far (seconds) turn ExtendTurn's deadline was moved for
	// absent players, against AbsenceCap.
	ExtendTurn int   `json:"extend_turn,omitempty"`
	Extended   int64 `json:"extended,omitempty"`
	// GMCopies: "on" sends the game masters a copy of every report, notice and press.
	GMCopies string `json:"gm_copies,omitempty"`
	// PressLimit is the most press messages one player may send in one turn; 0:
	// DefaultPressLimit (issue 21 item 2: 30 PRESS TO ALL in a row reached everyone 30
	// times).
	PressLimit int `json:"press_limit,omitempty"`
}

// DefaultPressLimit and MaxPressLimit bound the press one player sends in a turn
// (the game setting press-limit).
const (
	DefaultPressLimit = 20
	MaxPressLimit     = 200
)

func (o Options) pressLimit() int {
	if o.PressLimit <= 0 {
		return DefaultPressLimit
	}
	return o.PressLimit
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

func (o Options) observers() string { return orDefault(o.Observers, "yes") }
func (o Options) press() string     { return orDefault(o.Press, "any") }
func (o Options) whoGame() string   { return orDefault(o.WhoGame, "players") }
func (o Options) absence() string   { return orDefault(o.Absence, "extend") }
func (o Options) gmCopies() string  { return orDefault(o.GMCopies, "off") }

func (o Options) absenceCap() time.Duration {
	if o.AbsenceCap <= 0 {
		return 72 * time.Hour
	}
	return time.Duration(o.AbsenceCap) * time.Second
}

func (o Options) policy(g store.Game) string {
	if o.Missed != "" {
		return o.Missed
	}
	if g.Missed == "" {
		return string(store.MissedPowerDown)
	}
	return string(g.Missed)
}

func (o Options) maxPlayers() int {
	if o.MaxPlayers <= 0 || o.MaxPlayers > MaxSeats {
		return MaxSeats
	}
	return o.MaxPlayers
}

func (o Options) leads() []time.Duration {
	if o.Reminders == nil {
		return []time.Duration{24 * time.Hour, 2 * time.Hour}
	}
	out := make([]time.Duration, 0, len(o.Reminders))
	for _, s := range o.Reminders {
		out = append(out, time.Duration(s)*time.Second)
	}
	return out
}

func (j *Judge) optionsOf(tx *store.Tx, g store.Game) (Options, error) {
	var o Options
	raw, err := tx.GameOptions(g.ID)
	if err != nil {
		return o, err
	}
	if err := json.Unmarshal(raw, &o); err != nil {
		return o, fmt.Errorf("game %s: options: %w", g.Tag, err)
	}
	return o, nil
}

func setOptions(tx *store.Tx, gameID int64, o Options) error {
	b, err := json.Marshal(o)
	if err != nil {
		return err
	}
	return tx.SetGameOptions(gameID, b)
}

// afterTurn tells players what was played for them, and applies the missed-turns limit.
func (j *Judge) afterTurn(tx *store.Tx, g store.Game, o Options, players []store.Player, missedBy map[string]bool,
	private map[string]string, over bool) error {
	gms, err := tx.GMs(g.ID)
	if err != nil {
		return err
	}
	gen, err := tx.VoidTurns(g.ID, g.CurrentTurn) // a rolled-back turn's notes were other mails
	if err != nil {
		return err
	}
	for _, p := range players {
		if !missedBy[p.Robot] || p.Withdrawn {
			continue
		}
		n := p.Missed + 1
		text := fmt.Sprintf("No valid orders for %s arrived for turn %d of game %s, so %s\n\n"+
			"That is %d missed turn(s) in a row. The turn's report, in a mail of its own, shows the board.\n",
			p.Robot, g.CurrentTurn, g.Tag, private[p.Robot], n)
		// The limit is reached at MissedLimit missed turns in a row; a player already past
		// it when the game master set or lowered it is reached at the next miss (the bug:
		// only n == MissedLimit counted, so SET missed-limit 2 with remove withdrew no one
		// who had missed 5). Asked, the game masters are asked again every MissedLimit
		// missed turns, not every turn.
		limit := o.MissedLimit > 0 && !over && n >= o.MissedLimit
		if limit && o.OnMissedLimit != "remove" {
			limit = (n-o.MissedLimit)%o.MissedLimit == 0
		}
		if limit && o.OnMissedLimit == "remove" {
			text += fmt.Sprintf("\nAfter %d missed turns your robot leaves the race; you are withdrawn from the game.\n", n)
		} else if o.MissedLimit > 0 && !over && n < o.MissedLimit {
			text += fmt.Sprintf("\nAfter %d missed turns in a row the game master is asked to replace you.\n", o.MissedLimit)
		}
		if err := j.enqueue(tx, outMail{kind: "missed", gameID: g.ID, turn: g.CurrentTurn, to: p.Email,
			subject:   subject(g.Tag, fmt.Sprintf("Turn %d: no orders from %s", g.CurrentTurn, p.Robot)),
			messageID: j.noticeID("missed", fmt.Sprintf("%s.%d%s.s%d", g.Tag, g.CurrentTurn, genTag(gen), p.Seat)),
			inReplyTo: j.gameRoot(g.Tag), refs: []string{j.gameRoot(g.Tag)}, text: text, generated: true}); err != nil {
			return err
		}
		if !limit {
			continue
		}
		action := fmt.Sprintf("Please REPLACE %s with a new player (REPLACE %s new@address), or KICK %s.", p.Robot, p.Robot, p.Robot)
		if o.OnMissedLimit == "remove" {
			if err := tx.SetWithdrawn(p.ID, true); err != nil {
				return err
			}
			if _, err := tx.Audit(store.AuditEntry{At: j.now(), GameID: g.ID, Actor: "judge", Action: "withdraw",
				Detail: fmt.Sprintf("%s after %d missed turns", p.Robot, n)}); err != nil {
				return err
			}
			action = fmt.Sprintf("As the game's options say, %s is withdrawn: the robot leaves the race next turn.", p.Robot)
		}
		for _, gm := range gms {
			if err := j.enqueue(tx, outMail{kind: "gm-notice", gameID: g.ID, turn: g.CurrentTurn, to: gm.Email,
				subject:   subject(g.Tag, fmt.Sprintf("%s missed %d turns in a row", p.Robot, n)),
				messageID: j.noticeID("limit", fmt.Sprintf("%s.%d%s.s%d.%d", g.Tag, g.CurrentTurn, genTag(gen), p.Seat, gm.ID)),
				text: fmt.Sprintf("%s (%s) in game %s sent no orders for %d turns in a row (up to turn %d).\n\n%s\n",
					p.Robot, p.Email, g.Tag, n, g.CurrentTurn, action), generated: true}); err != nil {
				return err
			}
		}
	}
	return nil
}

// Lifecycle runs the clock-driven people's side for every game: reminders and final
// summaries. Tick calls it; it returns how many mails it enqueued.
func (j *Judge) Lifecycle(ctx context.Context) (int, error) {
	// Only the games with something to do are read and asked (lifewatch.go).
	w := &j.life
	w.mu.Lock()
	defer w.mu.Unlock()
	now := j.now()
	n := 0
	var plan *lifePlan
	err := j.Store.Tx(ctx, func(tx *store.Tx) error {
		n, plan = 0, nil
		// one judge at a time sends reminders and final summaries (store/claims.go):
		// another doing it now does it for all, and this one looks again next tick
		if ok, err := tx.TryLock(store.ClaimLifecycle, 0); err != nil || !ok {
			return err
		}
		p, visit, err := w.read(tx, now)
		if err != nil {
			return err
		}
		plan = p
		for _, lg := range visit {
			g := lg.g
			if g.Status == store.GameOver {
				k, err := j.finalSummary(tx, g)
				if err != nil {
					return err
				}
				n += k
				p.learnt[g.ID] = lifeGame{final: true}
				continue
			}
			k, err := j.remind(tx, g)
			if err != nil {
				return err
			}
			n += k
			o, err := j.optionsOf(tx, g)
			if err != nil {
				return err
			}
			next, ok := nextReminder(g, o, now)
			p.learnt[g.ID] = lifeGame{quiet: next, never: !ok}
		}
		return nil
	})
	if err != nil {
		w.loaded = false // read every game again next time
		return n, err
	}
	if plan != nil {
		w.apply(plan, now)
	}
	return n, nil
}

// remind enqueues the reminders due in game g.
func (j *Judge) remind(tx *store.Tx, g store.Game) (int, error) {
	now := j.now()
	if g.DeadlineAt.IsZero() || !now.Before(g.DeadlineAt) {
		return 0, nil
	}
	o, err := j.optionsOf(tx, g)
	if err != nil {
		return 0, err
	}
	// The smallest lead time that has passed: one reminder per threshold crossed.
	var lead time.Duration
	for _, l := range o.leads() {
		if l > 0 && !now.Before(g.DeadlineAt.Add(-l)) && (lead == 0 || l < lead) {
			lead = l
		}
	}
	if lead == 0 {
		return 0, nil
	}
	last, err := tx.LatestTurn(g.ID)
	if err != nil {
		return 0, err
	}
	if !last.Resolved.Before(g.DeadlineAt.Add(-lead)) {
		return 0, nil // the turn opened inside the lead time: its report said the deadline
	}
	players, missing, err := j.missingOrders(tx, g)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, p := range players {
		if !missing[p.Robot] {
			continue
		}
		id := j.noticeID("remind", fmt.Sprintf("%s.%d.s%d.%d.%d", g.Tag, g.CurrentTurn, p.Seat, g.DeadlineAt.Unix(), int64(lead/time.Second)))
		if has, err := tx.OutboxHas(id); err != nil || has {
			if err != nil {
				return n, err
			}
			continue
		}
		text := fmt.Sprintf("This is a reminder: no valid orders for %s, turn %d of game %s, have arrived yet.\n\n"+
			"The deadline is %s (in about %s).\nIf no valid orders arrive by then, %s.\n\n"+
			"Send your sheet to %s with [RR %s] in the subject; send RESEND for your latest report.\n",
			p.Robot, g.CurrentTurn, g.Tag, deadlineIn(g.DeadlineAt, p.Timezone), roughly(g.DeadlineAt.Sub(now)), j.missedRule(g), j.Address, g.Tag)
		if err := j.enqueue(tx, outMail{kind: "reminder", gameID: g.ID, turn: g.CurrentTurn, to: p.Email,
			subject:   subject(g.Tag, fmt.Sprintf("Reminder: orders for %s, turn %d", p.Robot, g.CurrentTurn)),
			messageID: id, inReplyTo: j.gameRoot(g.Tag), refs: []string{j.gameRoot(g.Tag)}, text: text, generated: true}); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

func roughly(d time.Duration) string {
	switch {
	case d >= 2*time.Hour:
		return fmt.Sprintf("%d hours", int(d.Round(time.Hour)/time.Hour))
	case d >= time.Hour:
		return "an hour"
	case d < 90*time.Second:
		return "a minute"
	default:
		return fmt.Sprintf("%d minutes", int(d.Round(time.Minute)/time.Minute))
	}
}

// finalSummary enqueues the game-over mail to every player and game master, once.
func (j *Judge) finalSummary(tx *store.Tx, g store.Game) (int, error) {
	players, err := tx.Players(g.ID)
	if err != nil {
		return 0, err
	}
	gms, err := tx.GMs(g.ID)
	if err != nil {
		return 0, err
	}
	type to struct{ addr, key string }
	var rcpt []to
	for _, p := range players {
		rcpt = append(rcpt, to{p.Email, fmt.Sprintf("s%d", p.Seat)})
	}
	for _, gm := range gms {
		if gm.GameID != 0 {
			rcpt = append(rcpt, to{gm.Email, fmt.Sprintf("gm%d", gm.ID)})
		}
	}
	var pending []to
	for _, r := range rcpt {
		has, err := tx.OutboxHas(j.noticeID("final", g.Tag+"."+r.key))
		if err != nil {
			return 0, err
		}
		if !has {
			pending = append(pending, r)
		}
	}
	if len(pending) == 0 {
		return 0, nil
	}
	k, err := j.hostedKind(g)
	if err != nil {
		return 0, err
	}
	text, err := j.hostedSummary(tx, g, k)
	if err != nil {
		return 0, err
	}
	for _, r := range pending {
		if err := j.enqueue(tx, outMail{kind: "final", gameID: g.ID, turn: g.CurrentTurn, to: r.addr,
			subject:   subject(g.Tag, "Game over: final standings"),
			messageID: j.noticeID("final", g.Tag+"."+r.key), inReplyTo: j.gameRoot(g.Tag), refs: []string{j.gameRoot(g.Tag)},
			text: text, generated: true}); err != nil {
			return 0, err
		}
	}
	return len(pending), nil
}

// createGameIn inserts a game that is open (taking players) with the spec's players
// and game master, each with a fresh secret (returned by robot; the game master's under
// ""). Nothing is mailed: startGameIn mails the welcomes.
func (j *Judge) createGameIn(tx *store.Tx, spec GameSpec) (store.Game, map[string]string, error) {
	if !tagRE.MatchString(spec.Tag) {
		return store.Game{}, nil, fmt.Errorf("game tag %q: use 1–40 lower-case letters, digits and dashes", spec.Tag)
	}
	if err := checkName("game name", spec.Name); err != nil {
		return store.Game{}, nil, fmt.Errorf("game %s: %w", spec.Tag, err)
	}
	for i, p := range spec.Players { // JOIN's names are plain ASCII (robotName); these come from the caller
		if err := checkName(fmt.Sprintf("robot %d's name", i+1), p.Robot); err != nil {
			return store.Game{}, nil, fmt.Errorf("game %s: %w", spec.Tag, err)
		}
	}
	if spec.Deadline.Kind == "" {
		spec.Deadline = store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 48}
	}
	now := j.now()
	if _, err := spec.Deadline.Next(now); err != nil {
		return store.Game{}, nil, err
	}
	if max := spec.Options.maxPlayers(); len(spec.Players) > max {
		return store.Game{}, nil, fmt.Errorf("game %s: %d players, the limit is %d", spec.Tag, len(spec.Players), max)
	}
	g := store.Game{
		Tag: spec.Tag, Name: spec.Name, Seed: spec.Seed, Deadline: spec.Deadline,
		Grace: spec.Grace, Missed: store.MissedPowerDown, Status: store.GameOpen, ListAddress: spec.List, Created: now,
	}
	if err := j.createHostedRow(&spec, &g); err != nil {
		return g, nil, err
	}
	id, err := tx.CreateGame(g)
	if err != nil {
		return g, nil, err
	}
	g.ID = id
	if err := setOptions(tx, id, spec.Options); err != nil {
		return g, nil, err
	}
	secrets := map[string]string{}
	if spec.GMEmail != "" {
		sec, hash, err := j.newSecret()
		if err != nil {
			return g, nil, err
		}
		gid, err := tx.AddGM(store.GM{GameID: id, Email: spec.GMEmail, SecretHash: hash, Created: now})
		if err != nil {
			return g, nil, err
		}
		j.hold(store.Owner{Kind: store.OwnerGM, ID: gid}, sec)
		secrets[""] = sec
	}
	for i, p := range spec.Players {
		sec, hash, err := j.newSecret()
		if err != nil {
			return g, nil, err
		}
		if _, err := tx.AddPlayer(store.Player{GameID: id, Robot: p.Robot, Seat: i, Email: p.Email, SecretHash: hash, Created: now}); err != nil {
			return g, nil, err
		}
		secrets[p.Robot] = sec
	}
	if _, err := tx.Audit(store.AuditEntry{At: now, GameID: id, Actor: "gm", Action: "create",
		Detail: fmt.Sprintf("%s, %d players", j.gameWhat(g), len(spec.Players))}); err != nil {
		return g, nil, err
	}
	return g, secrets, nil
}

// joinedSecret stands in the welcome for a secret the player was given when joining.
const joinedSecret = "(the secret sent to you when you joined; it is unchanged)"

// startGameIn deals turn 0 of an open game with the players it has, sets the first
// deadline, and mails each player the welcome: with the secret from secrets when the
// player has just been given one, else a pointer to the JOIN reply.
func (j *Judge) startGameIn(tx *store.Tx, g store.Game, secrets map[string]string) error {
	if g.Status != store.GameOpen {
		return fmt.Errorf("game %s is %s, not open", g.Tag, g.Status)
	}
	if err := tx.RenumberSeats(g.ID); err != nil {
		return err
	}
	players, err := tx.Players(g.ID)
	if err != nil {
		return err
	}
	if len(players) == 0 {
		return fmt.Errorf("game %s has no players yet", g.Tag)
	}
	k, err := j.hostedKind(g)
	if err != nil {
		return err
	}
	return j.startHostedIn(tx, g, k, players, secrets)
}

// genTag marks the notes of a turn resolved again after a rollback (".g1"), so they are
// new mails and not taken for the void ones.
func genTag(gen int) string {
	if gen == 0 {
		return ""
	}
	return fmt.Sprintf(".g%d", gen)
}

// count is "1 flag", "2 flags".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
