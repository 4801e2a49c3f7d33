package judge

import (
	"fmt"
	"strings"
	"time"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/store"
)

// When a turn waits: WAIT / NOWAIT, a powered-down robot's window, and absences.
//
//   - WAIT: a player asks that this turn not be resolved before its deadline, even when
//     every program is in (to think again and send a new sheet); NOWAIT takes it back.
//     A WAIT holds for the turn it was sent in only (Diplomacy judges' WAIT).
//   - A robot powered down this turn needs no program, but its player decides whether
//     it stays down (seed 003, Power Down: the player announces staying down at the
//     start of the next turn). Ruling: the turn waits for that player's sheet (a sheet
//     with only "stay down" or "come back up" is enough) or for the deadline, so the
//     player always has the window; a standing "stay down" order written earlier does
//     not end the window, a sheet for this turn does.
//   - ABSENT FROM UNTIL: a player announces days away. The game setting absence says
//     what follows when the deadline comes and the absent player's program is missing:
//     "extend" (the default) moves the deadline to the day after the absence, by at most
//     absence-cap (72h) in one turn, and then the missed-orders policy applies;
//     "autopilot" plays the autopilot for the robot; "powerdown" powers it down. A game
//     master's PROCESS resolves at once whatever the absences.

// canHold says whether g's turns may be held to their deadline (WAIT): when its position
// is a game.Holder.
func (j *Judge) canHold(tx *store.Tx, g store.Game) bool {
	k, err := j.hostedKind(g)
	if err != nil {
		return false
	}
	h, err := j.hostedState(tx, g, k)
	if err != nil {
		return false
	}
	_, ok := h.pos.(game.Holder)
	return ok
}

func (j *Judge) cmdWait(e *cmdEnv, c Command) (string, error) {
	g, p := *e.game, *e.player
	if g.Status != store.GameRunning && g.Status != store.GamePaused {
		return "", refuse("game %s is %s: there is no turn to wait in.", g.Tag, g.Status)
	}
	if !j.canHold(e.tx, g) {
		// a game behind the seam that is no game.Holder plays a turn as soon as its
		// due moves are in (resolveHostedIn): a hold would be promised and not kept
		return "", refuse("in game %s (%s) a turn is played as soon as the moves it waits for are in; WAIT and NOWAIT are for games that hold a turn to its deadline.", g.Tag, j.gameWhat(g))
	}
	turn := g.CurrentTurn
	if c.Verb == "NOWAIT" {
		turn = 0
	}
	if err := e.tx.SetPlayerWait(p.ID, turn); err != nil {
		return "", err
	}
	e.player.WaitTurn = turn
	if err := j.audit(e, strings.ToLower(c.Verb), fmt.Sprintf("turn %d", g.CurrentTurn)); err != nil {
		return "", err
	}
	if c.Verb == "NOWAIT" {
		e.touched = g.ID
		return fmt.Sprintf("Turn %d is resolved as soon as every program is in.\n", g.CurrentTurn), nil
	}
	return fmt.Sprintf("Turn %d waits for its deadline, %s, even when every program is in.\nNOWAIT takes it back.\n",
		g.CurrentTurn, deadlineIn(g.DeadlineAt, p.Timezone)), nil
}

const dateLayout = "2006-01-02"

func (j *Judge) cmdAbsent(e *cmdEnv, c Command) (string, error) {
	g, p := *e.game, *e.player
	if len(c.Args) == 1 && strings.EqualFold(c.Args[0], "NONE") {
		if err := e.tx.SetPlayerAbsence(p.ID, "", ""); err != nil {
			return "", err
		}
		return "Your absence is cleared.\n", j.audit(e, "absent", "none")
	}
	args := c.Args
	if len(args) == 4 && strings.EqualFold(args[0], "FROM") && (strings.EqualFold(args[2], "UNTIL") || strings.EqualFold(args[2], "TO")) {
		args = []string{args[1], args[3]}
	}
	if len(args) != 2 {
		return "", refuse("write ABSENT YYYY-MM-DD YYYY-MM-DD (your first and last day away) or ABSENT NONE.")
	}
	from, err1 := time.Parse(dateLayout, args[0])
	until, err2 := time.Parse(dateLayout, args[1])
	if err1 != nil || err2 != nil {
		return "", refuse("write the days as YYYY-MM-DD, like ABSENT 2026-07-01 2026-07-14.")
	}
	today := j.now().Truncate(24 * time.Hour)
	switch {
	case until.Before(from):
		return "", refuse("the last day (%s) is before the first (%s).", args[1], args[0])
	case until.Before(today):
		return "", refuse("%s has passed.", args[1])
	case until.Sub(from) > 60*24*time.Hour:
		return "", refuse("an absence is at most 60 days; for longer, ask the game master to REPLACE you.")
	}
	if err := e.tx.SetPlayerAbsence(p.ID, args[0], args[1]); err != nil {
		return "", err
	}
	if err := j.audit(e, "absent", args[0]+" "+args[1]); err != nil {
		return "", err
	}
	o, err := j.optionsOf(e.tx, g)
	if err != nil {
		return "", err
	}
	if err := j.mailGMs(e.tx, g, "absent", e.key, fmt.Sprintf("%s will be away", p.Robot),
		fmt.Sprintf("%s (game %s) will be away from %s to %s. As the game's absence setting says: %s.\n",
			p.Robot, g.Tag, args[0], args[1], absenceText(o))); err != nil {
		return "", err
	}
	return fmt.Sprintf("Noted: you are away from %s to %s (both days included). In game %s, %s;\n"+
		"orders you send before you go count as usual. ABSENT NONE clears it.\n", args[0], args[1], g.Tag, absenceText(o)), nil
}

// absentOn reports whether the player announced an absence covering the day of t.
func absentOn(p store.Player, t time.Time) bool {
	d := t.UTC().Format(dateLayout)
	return p.AbsentFrom != "" && p.AbsentFrom <= d && d <= p.AbsentUntil
}

// deferForAbsence moves a due turn's deadline for absent players whose program is
// missing, when the game's absence setting is "extend" and the turn's cap is not used
// up. It reports whether it did.
func (j *Judge) deferForAbsence(tx *store.Tx, gameID int64) (bool, error) {
	g, err := tx.Game(gameID)
	if err != nil || g.Status != store.GameRunning || g.DeadlineAt.IsZero() {
		return false, err
	}
	o, err := j.optionsOf(tx, g)
	if err != nil || o.absence() != "extend" {
		return false, err
	}
	now := j.now()
	players, missing, err := j.missingOrders(tx, g)
	if err != nil {
		return false, err
	}
	var away []string
	var back time.Time // the first day every absent player is back
	for _, p := range players {
		if !missing[p.Robot] || p.Withdrawn || !absentOn(p, now) {
			continue
		}
		away = append(away, p.Robot)
		if until, err := time.Parse(dateLayout, p.AbsentUntil); err == nil && until.Add(24*time.Hour).After(back) {
			back = until.Add(24 * time.Hour)
		}
	}
	if len(away) == 0 {
		return false, nil
	}
	if o.ExtendTurn != g.CurrentTurn {
		o.ExtendTurn, o.Extended = g.CurrentTurn, 0
	}
	used := time.Duration(o.Extended) * time.Second
	original := g.DeadlineAt.Add(-used)
	limit := original.Add(o.absenceCap())
	// The day after the absence, at the deadline's time of day.
	target := time.Date(back.Year(), back.Month(), back.Day(), g.DeadlineAt.Hour(), g.DeadlineAt.Minute(), 0, 0, time.UTC)
	if target.After(limit) {
		target = limit
	}
	if !target.After(now) || !target.After(g.DeadlineAt) {
		return false, nil // the cap is used up: the missed-orders policy applies
	}
	o.Extended = int64(target.Sub(original) / time.Second)
	if err := setOptions(tx, g.ID, o); err != nil {
		return false, err
	}
	if err := tx.SetDeadline(g.ID, target); err != nil {
		return false, err
	}
	g.DeadlineAt = target
	why := strings.Join(away, ", ") + " " + map[bool]string{true: "is", false: "are"}[len(away) == 1] + " away"
	if _, err := tx.Audit(store.AuditEntry{At: now, GameID: g.ID, Actor: "judge", Action: "extend",
		Detail: fmt.Sprintf("turn %d to %s: %s", g.CurrentTurn, deadlineText(target), why)}); err != nil {
		return false, err
	}
	key := fmt.Sprintf("%d.%d", g.CurrentTurn, target.Unix())
	for _, p := range players {
		if p.Withdrawn {
			continue
		}
		text := fmt.Sprintf("The deadline of turn %d of game %s is moved: %s, as announced.\nThe deadline is now %s.\n",
			g.CurrentTurn, g.Tag, why, deadlineIn(target, p.Timezone))
		if err := j.enqueue(tx, outMail{kind: "notice", gameID: g.ID, turn: g.CurrentTurn, to: p.Email,
			subject:   subject(g.Tag, fmt.Sprintf("Turn %d: the deadline waits for an absent player", g.CurrentTurn)),
			messageID: j.noticeID("absence", fmt.Sprintf("%s.%s.s%d", g.Tag, key, p.Seat)),
			inReplyTo: j.gameRoot(g.Tag), refs: []string{j.gameRoot(g.Tag)}, text: text, generated: true}); err != nil {
			return false, err
		}
	}
	return true, j.mailGMs(tx, g, "absence", key, fmt.Sprintf("Turn %d waits for an absent player", g.CurrentTurn),
		fmt.Sprintf("Turn %d of game %s was due, but %s. The deadline is now %s (at most %s later than it was).\n",
			g.CurrentTurn, g.Tag, why, deadlineText(target), o.absenceCap()))
}
