package judge

import (
	"fmt"
	"time"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/orders"
	"github.com/rallyjudge/rallyjudge/store"
	"github.com/rallyjudge/rallyjudge/templates"
)

// The mails a turn produces: every player's report, and the welcome that opens a game.

// enqueueReports writes every player's report of the turn just resolved.
func (j *Judge) enqueueReports(tx *store.Tx, g store.Game, setup *adjudicator.Setup, next *adjudicator.State,
	events []adjudicator.Event, players []store.Player, standing map[string]*orders.Sheet, deadline time.Time, notes []string) error {
	turn := g.CurrentTurn // the turn just resolved (a won game stops before next.Turn moves on)
	sections := templates.Narrate(setup.Deck, events)
	if len(notes) > 0 {
		sections = append([]templates.Section{{Title: "Missed orders", Lines: notes}}, sections...)
	}
	board := adjudicator.RenderText(setup.Course, next.Robots)
	legend := adjudicator.RenderLegend(next.Robots...)
	status := templates.StatusOf(setup.Deck, next)
	for _, p := range players {
		if p.Seat < 0 || p.Seat >= len(next.Robots) {
			continue
		}
		r := next.Robots[p.Seat]
		hand, locked := templates.HandOf(setup.Deck, r)
		rep := templates.Report{
			Game: g.Tag, Course: g.Course, Turn: turn, NextTurn: turn + 1, Player: r.Name, PlayerOut: r.Out,
			Board: board, Legend: legend, Sections: sections, Robots: status,
			Deadline: deadlineText(deadline), Winner: next.Winner, Over: next.Over,
			Hand: hand, Locked: locked, Standing: standingLines(standing[r.Name]),
			Sheet: templates.SheetFor(g.Tag, r, turn+1, nil),
		}
		text, err := j.Templates.Text("report.txt.tmpl", rep)
		if err != nil {
			return err
		}
		what := fmt.Sprintf("Turn %d report for %s", turn, r.Name)
		if next.Over {
			what = fmt.Sprintf("Turn %d: game over", turn)
		}
		if err := j.enqueue(tx, outMail{
			kind: "report", gameID: g.ID, turn: turn, to: p.Email, subject: subject(g.Tag, what),
			messageID: j.reportID(g.Tag, turn, p.Seat), inReplyTo: j.gameRoot(g.Tag), refs: []string{j.gameRoot(g.Tag)},
			text: text, generated: true,
		}); err != nil {
			return err
		}
	}
	return nil
}

// effectiveSheet is what a robot plays this turn: the program of its latest valid
// sheet for the turn, and its standing orders from earlier turns with this turn's
// orders merged over them (orders.Merge: the newer answer to a decision wins). Standing
// orders stay in force from turn to turn until a sheet replaces them.
func effectiveSheet(standing *orders.Sheet, sheets map[string]*orders.Sheet, robot string) *orders.Sheet {
	s := sheets[robot]
	if s == nil {
		return standing
	}
	rulesOnly := *s
	rulesOnly.Program = nil
	merged := orders.Merge(standing, &rulesOnly)
	eff := *s
	eff.Rules = merged.Rules
	return &eff
}

func standingLines(s *orders.Sheet) []string {
	if s == nil {
		return nil
	}
	var out []string
	for _, r := range s.Rules {
		out = append(out, ruleText(r))
	}
	return out
}

func ruleText(r orders.Rule) string {
	return r.String()
}

// enqueueWelcome mails each player their secret, their robot and the first hand.
func (j *Judge) enqueueWelcome(tx *store.Tx, g store.Game, setup *adjudicator.Setup, st *adjudicator.State, secrets map[string]string) error {
	players, err := tx.Players(g.ID)
	if err != nil {
		return err
	}
	board := adjudicator.RenderText(setup.Course, st.Robots)
	legend := adjudicator.RenderLegend(st.Robots...)
	for _, p := range players {
		r := st.Robots[p.Seat]
		hand, locked := templates.HandOf(setup.Deck, r)
		text, err := j.Templates.Text("welcome.txt.tmpl", templates.Welcome{
			Game: g.Tag, Course: g.Course, Robot: r.Name, Secret: secrets[p.Robot],
			Board: board, Legend: legend, Hand: hand, Locked: locked, Deadline: deadlineText(g.DeadlineAt),
			Sheet: templates.SheetFor(g.Tag, r, st.Turn, nil), Judge: j.Address,
		})
		if err != nil {
			return err
		}
		if err := j.enqueue(tx, outMail{
			kind: "welcome", gameID: g.ID, turn: 0, to: p.Email,
			subject:   subject(g.Tag, fmt.Sprintf("Welcome, %s: your robot and your first hand", r.Name)),
			messageID: j.reportID(g.Tag, 0, p.Seat), refs: []string{j.gameRoot(g.Tag)}, inReplyTo: j.gameRoot(g.Tag),
			text: text, generated: true,
		}); err != nil {
			return err
		}
	}
	return nil
}

