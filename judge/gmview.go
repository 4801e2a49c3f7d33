package judge

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/store"
)

// A game master who sees the game: a notice on each join (and each observer, standby
// and absence), a summary after each turn of who was in and who was late, the full
// roster (robots, addresses, missed turns, waits, absences) in STATUS and `rallyjudge
// game status`, and, with the game setting gm-copies on, a copy of every report (the
// public part), notice and press (observers.go, press.go).
//
// Only the game's own game masters are told; a server-wide game master who does not
// master the game is not mailed about it.

// mailGMs mails the game's own game masters a notice.
func (j *Judge) mailGMs(tx *store.Tx, g store.Game, kind, key, what, text string) error {
	gms, err := tx.GMs(g.ID)
	if err != nil {
		return err
	}
	for _, gm := range gms {
		if gm.GameID == 0 {
			continue
		}
		if err := j.enqueue(tx, outMail{kind: "gm-notice", gameID: g.ID, turn: g.CurrentTurn, to: gm.Email,
			subject:   subject(g.Tag, what),
			messageID: j.noticeID(kind, fmt.Sprintf("%s.%s.gm%d", g.Tag, key, gm.ID)),
			inReplyTo: j.gameRoot(g.Tag), refs: []string{j.gameRoot(g.Tag)}, text: text, generated: true}); err != nil {
			return err
		}
	}
	return nil
}

// mailTurnSummary mails the game masters the summary of a turn played: who was in,
// who was late, who is out.
func (j *Judge) mailTurnSummary(tx *store.Tx, g store.Game, in, late, out []string, force bool, gen int, over bool) error {
	why := "every program was in"
	if force {
		why = "the deadline passed, or a game master said PROCESS"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Turn %d of game %s is resolved (%s).\n\n", g.CurrentTurn, g.Tag, why)
	list := func(title string, names []string) {
		if len(names) == 0 {
			names = []string{"none"}
		}
		fmt.Fprintf(&b, "%-10s %s\n", title+":", strings.Join(names, ", "))
	}
	list("In", in)
	list("Late", late)
	list("Out", out)
	if over {
		b.WriteString("\nThe game is over.\n")
	}
	b.WriteString("\nSTATUS (with your game master secret) shows the roster with addresses.\n")
	return j.mailGMs(tx, g, "summary", fmt.Sprintf("%d%s", g.CurrentTurn, genTag(gen)),
		fmt.Sprintf("Turn %d summary: %d in, %d late", g.CurrentTurn, len(in), len(late)), b.String())
}

// rollcallForGMs is the game masters' summary of a turn of a game behind the seam
// whose position says how each seat came into it (game.Rollcall), as the judge's own
// RoboRally path mailed it; pos is the position the turn was played
// from.
func (j *Judge) rollcallForGMs(tx *store.Tx, g store.Game, pos game.Position, events []byte, players []store.Player,
	missedBy map[string]bool, force bool, gen int, over bool) error {
	rc, ok := pos.(game.Rollcall)
	if !ok {
		return nil
	}
	var in, late, out []string
	for _, p := range players {
		gone, note := rc.Rollcall(p.Seat, events)
		switch {
		case gone || p.Withdrawn:
			out = append(out, p.Robot)
		case missedBy[p.Robot]:
			late = append(late, fmt.Sprintf("%s (%s; %d in a row)", p.Robot, orDefault(note, "missed"), p.Missed+1))
		case note != "":
			in = append(in, p.Robot+" ("+note+")")
		default:
			in = append(in, p.Robot)
		}
	}
	return j.mailTurnSummary(tx, g, in, late, out, force, gen, over)
}

// rosterText is the game master's roster: every robot with its player's address and
// what stands out about them.
func rosterText(tx *store.Tx, g store.Game, players []store.Player, sheets map[string]bool) (string, error) {
	var b strings.Builder
	b.WriteString("\nRoster (game masters only):\n")
	for _, p := range players {
		var notes []string
		if p.Withdrawn {
			notes = append(notes, "withdrawn")
		}
		if p.Missed > 0 {
			notes = append(notes, fmt.Sprintf("missed %d in a row", p.Missed))
		}
		if g.CurrentTurn > 0 && p.WaitTurn == g.CurrentTurn {
			notes = append(notes, "WAIT")
		}
		if p.AbsentFrom != "" {
			notes = append(notes, fmt.Sprintf("away %s to %s", p.AbsentFrom, p.AbsentUntil))
		}
		if p.Timezone != "" {
			notes = append(notes, p.Timezone)
		}
		if sheets[p.Robot] {
			notes = append(notes, "sheet in")
		}
		fmt.Fprintf(&b, "%s\n", strings.TrimRight(fmt.Sprintf("  %-12s %-32s %s", p.Robot, p.Email, strings.Join(notes, ", ")), " "))
	}
	obs, err := tx.Observers(g.ID)
	if err != nil {
		return "", err
	}
	sb, err := tx.Standbys(g.ID)
	if err != nil {
		return "", err
	}
	emails := func(ws []store.Watcher) string {
		if len(ws) == 0 {
			return "none"
		}
		var out []string
		for _, w := range ws {
			out = append(out, w.Email)
		}
		return strings.Join(out, ", ")
	}
	fmt.Fprintf(&b, "Observers: %s\nStandby players: %s\n", emails(obs), emails(sb))
	return b.String(), nil
}

// TurnToCheck is what a sheet for game tag is checked against now, as the judge checks a
// mailed one (inbound.go): the position of its turn being played, and that turn's
// number. It reads and changes nothing else; `rallyjudge check --db` uses it to show a
// game master exactly what the judge made of a player's mail.
func (j *Judge) TurnToCheck(ctx context.Context, tag string) (game.Position, int, error) {
	var pos game.Position
	var turn int
	err := j.Store.View(ctx, func(tx *store.Tx) error {
		g, err := tx.GameByTag(tag)
		if errors.Is(err, store.ErrNotFound) {
			return NoGame(tx, tag)
		} else if err != nil {
			return err
		}
		if g.Status != store.GameRunning && g.Status != store.GamePaused {
			return fmt.Errorf("game %s is %s: it takes no orders", g.Tag, g.Status)
		}
		k, err := j.hostedKind(g)
		if err != nil {
			return err
		}
		h, err := j.hostedState(tx, g, k)
		pos, turn = h.pos, g.CurrentTurn
		return err
	})
	return pos, turn, err
}
