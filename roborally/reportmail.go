package roborally

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/roborally/narrate"
)

// The mails RoboRally writes whole behind the seam (game.Mailer): the welcome and the
// turn reports players had before the seam, from the same templates (package narrate:
// files/report.*.tmpl, welcome.*.tmpl, through the judge's Renderer so a game master's
// overrides apply): the floor as text, the turn register by register, every robot, the
// reader's hand, mat, standing orders and a sheet to fill in. The pictures are drawn
// after the turn is stored (Illustrate, reportpictures.go).

var (
	_ game.Illustrator  = (*position)(nil)
	_ game.MissedTeller = (*position)(nil)
	_ game.Summarizer   = (*position)(nil)
)

// renderer is the judge's templates m carries (RoboRally's among them: Kind.Templates),
// or RoboRally's built in for a Mailing without them.
func renderer(m game.Mailing) (game.Renderer, error) {
	if m.Templates != nil {
		return m.Templates, nil
	}
	return narrate.BuiltIn()
}

// Mail is the mail m says: a welcome (MailWelcome, MailTakeOver) or the report of the
// turn whose events are given, without its pictures.
func (p *position) Mail(events []byte, m game.Mailing) game.Report {
	if m.Kind == game.MailWelcome || m.Kind == game.MailTakeOver {
		return p.welcomeMail(m)
	}
	return p.reportMail(p.reportData(events, m), m)
}

// turnShared is what every report of a turn says alike: the turn's events read, and
// the report's parts that are the same for every reader. The judge asks a position for
// each report of a turn in turn (Mail) or for all at once (Illustrate), each time with
// the same events; they are read and written out once (sharedFor).
type turnShared struct {
	events string // the events as stored, what the rest is made from
	oc     outcome
	base   narrate.Report // the parts every reader's report has alike; read only
}

// sharedFor is the turn's shared parts for these events, worked out once for the
// position's reports (the last events asked about are kept).
func (p *position) sharedFor(events []byte) *turnShared {
	p.mu.Lock()
	defer p.mu.Unlock()
	if t := p.shared; t != nil && t.events == string(events) {
		return t
	}
	t := &turnShared{events: string(events), oc: decodeOutcome(events)}
	st, setup := p.State, p.setup
	sections := narrate.Narrate(setup.Deck, t.oc.Events)
	if len(t.oc.Notes) > 0 {
		sections = append([]narrate.Section{{Title: "Missed orders", Lines: t.oc.Notes}}, sections...)
	}
	t.base = narrate.Report{
		Course: p.cfg.CourseName,
		Board:  adjudicator.RenderState(setup.Course, st), Legend: adjudicator.RenderReportLegend(setup.Course, st),
		Sections: sections, Robots: narrate.StatusOf(setup.Deck, st), Piles: narrate.PileLines(st),
		Winner: st.Winner, Over: p.Over(),
	}
	for i := range t.base.Robots {
		t.base.Robots[i].Lighter = p.cfg.Rules.Lighter
	}
	if t.base.Over {
		t.base.Standings = narrate.StandingsOf(st)
	}
	p.shared = t
	return t
}

// decodeOutcome reads a turn's events as Play stored them (nil, "null": none).
func decodeOutcome(events []byte) outcome {
	var oc outcome
	if len(events) > 0 && string(events) != "null" {
		_ = json.Unmarshal(events, &oc) // the game's own encoding, written by Play
	}
	return oc
}

// reportData is the templates' report of the turn whose events are given, for the
// reader m names.
func (p *position) reportData(events []byte, m game.Mailing) narrate.Report {
	t := p.sharedFor(events)
	oc, st, setup, turn := t.oc, p.State, p.setup, m.Turn
	rep := t.base
	rep.Game, rep.Turn, rep.NextTurn, rep.Deadline = m.Game, turn, turn+1, m.Deadline
	rep.Replay = fmt.Sprintf("The whole game as a page that plays it turn by turn: send HISTORY REPLAY to %s\n"+
		"(with [RR %s] in the subject and your secret) and it comes as an attachment.", m.Judge, m.Game)
	if m.Part == game.PartPublic || m.Seat < 0 || m.Seat >= len(st.Robots) {
		rep.Part = narrate.PartPublic
		return rep
	}
	r := st.Robots[m.Seat]
	hand, locked := narrate.HandOf(setup.Deck, r)
	lines := p.inForce(oc, r.Name)
	rep.Player, rep.PlayerOut = r.Name, r.Out
	rep.Hand, rep.Locked, rep.Down, rep.Standing = hand, locked, r.Power == adjudicator.PowerDown, lines
	rep.NewOptions = narrate.NewOptionsOf(oc.Events, r)
	rep.Sheet = narrate.SheetFor(m.Game, r, turn+1, lines)
	rep.Mat = narrate.MatOf(st, r, p.cfg.Rules.Lighter)
	if m.Part == game.PartPrivate {
		rep.Part, rep.List = narrate.PartPrivate, m.List
	}
	return rep
}

// inForce is a robot's standing orders in force after the turn, in the order language,
// as the report shows them: the orders it played the turn with, without what was the
// round's only (Standing); none when it played none.
func (p *position) inForce(oc outcome, robot string) []string {
	for _, pl := range oc.Played {
		if pl.Robot != robot || pl.Sheet == nil {
			continue
		}
		var out []string
		for _, r := range Standing(p.cfg.Rules, pl.Sheet).Rules {
			out = append(out, r.String())
		}
		return out
	}
	return nil
}

// reportSubject is a report's subject after the game's tag.
func reportSubject(rep narrate.Report, again bool) string {
	a := ""
	if again { // not mistaken for the voided report of the same turn
		a = " (resolved again)"
	}
	switch {
	case rep.Over:
		return fmt.Sprintf("Turn %d%s: game over", rep.Turn, a)
	case rep.Public():
		if rep.Player == "" {
			return fmt.Sprintf("Turn %d report%s", rep.Turn, a)
		}
	}
	return fmt.Sprintf("Turn %d report for %s%s", rep.Turn, rep.Player, a)
}

// reportMail renders a report's text and HTML.
func (p *position) reportMail(rep narrate.Report, m game.Mailing) game.Report {
	out := game.Report{Subject: reportSubject(rep, m.Again), Whole: true}
	t, err := renderer(m)
	if err == nil {
		out.Text, err = t.Text("report.txt.tmpl", rep)
	}
	if err == nil {
		out.HTML, err = t.HTML("report.html.tmpl", rep)
	}
	if err != nil { // the seam's plain report rather than none
		out.Text, out.HTML = p.Report(m.Seat, nil).Text+"\n(The report's template failed: "+err.Error()+".)\n", ""
	}
	return out
}

// welcomeMail is a player's welcome: the secret, the robot, the floor, the first hand
// and a sheet to fill in; a player taking over a seat (REPLACE) is welcomed to the turn
// being played.
func (p *position) welcomeMail(m game.Mailing) game.Report {
	st, setup := p.State, p.setup
	out := game.Report{Whole: true}
	if m.Seat < 0 || m.Seat >= len(st.Robots) {
		return out
	}
	r := st.Robots[m.Seat]
	hand, locked := narrate.HandOf(setup.Deck, r)
	w := narrate.Welcome{
		Game: m.Game, Course: p.cfg.CourseName, Robot: r.Name, Secret: m.Secret,
		Board: adjudicator.RenderState(setup.Course, st), Legend: adjudicator.RenderReportLegend(setup.Course, st),
		Hand: hand, Locked: locked, Deadline: m.Deadline,
		Sheet: narrate.SheetFor(m.Game, r, st.Turn, nil), Judge: m.Judge, Turn: st.Turn,
		TakeOver:  m.Kind == game.MailTakeOver,
		RulesName: setup.Rules.Name, Rules: setup.Rules.Settings(),
		Variants: WelcomeText(setup.Rules, p.cfg.policy()), Mat: narrate.MatOf(st, r, setup.Rules.Lighter),
	}
	w.OptionsWelcome(st, r)
	out.Subject = fmt.Sprintf("Welcome, %s: your robot and your first hand", r.Name)
	t, err := renderer(m)
	if err == nil {
		out.Text, err = t.Text("welcome.txt.tmpl", w)
	}
	if err == nil {
		out.HTML, err = t.HTML("welcome.html.tmpl", w)
	}
	if err != nil {
		out.Text, out.HTML = p.Report(m.Seat, nil).Text+"\n(The welcome's template failed: "+err.Error()+".)\n", ""
	}
	return out
}

// MissedNote is what was played for a robot without orders, for its player
// (game.MissedTeller).
func (p *position) MissedNote(seat int, events []byte) string {
	if seat < 0 || seat >= len(p.State.Robots) {
		return ""
	}
	return p.sharedFor(events).oc.Private[p.State.Robots[seat].Name]
}

// Summary is the game-over mail (game.Summarizer): who won, the robots best first (a
// withdrawn player's robot says so), the game turn by turn.
func (p *position) Summary(s game.Summary) string {
	st := p.State
	var b strings.Builder
	fmt.Fprintf(&b, "Game %s", s.Game)
	if s.Name != "" {
		fmt.Fprintf(&b, " (%s)", s.Name)
	}
	fmt.Fprintf(&b, " on %s is over after %d turn(s).\n", p.cfg.CourseName, len(s.Turns))
	b.WriteString(WinnerLine(st) + "\n")
	b.WriteString("\nStandings\n")
	for i, seat := range Ranking(st) {
		line := StandingLine(st, st.Robots[seat])
		if slices.Contains(s.Withdrawn, seat) {
			line += " (withdrew)"
		}
		fmt.Fprintf(&b, "  %d. %s\n", i+1, line)
	}
	b.WriteString("\nThe game turn by turn\n")
	for _, tn := range s.Turns {
		oc := decodeOutcome(tn.Events)
		ev, _ := json.Marshal(oc.Events)
		pl, _ := json.Marshal(oc.Played)
		fmt.Fprintf(&b, "  Turn %d: %s\n", tn.Number, TurnLine(ev, pl))
	}
	b.WriteString("\nThank you for playing. Send HISTORY for this log, RESEND N for the report of turn N.\n")
	return b.String()
}

// MissedRule is what happens to a robot without orders under the game's missed-orders
// policy, for the reminder and STATUS (game.MissedRuler).
func (c Config) MissedRule() string { return PolicyText(c.Rules, c.policy()) }
