package roborally

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/picture"
	"github.com/rallyjudge/rallyjudge/roborally/narrate"
)

// Report is what a seat is told after a turn (seat -1: the public): what was played
// for robots without orders, the turn register by register, the floor as text and as
// a picture, every robot's state; a seat's own report adds what was played for it,
// its hand and the standing orders in force.
//
// It is the plain report of the seam, for the archive's replay page and what reads a
// position in words; the mails players get are Mail's and Illustrate's
// (reportmail.go), the judge's own RoboRally report from the same templates.
func (p *position) Report(seat int, events []byte) game.Report {
	var oc outcome
	if len(events) > 0 && string(events) != "null" {
		_ = json.Unmarshal(events, &oc) // the game's own encoding, written by Play
	}
	st := p.State
	var b strings.Builder
	line := func(s string) { b.WriteString(game.Wrap(s, "  ") + "\n") }
	played := st.Turn - 1
	subject := fmt.Sprintf("turn %d to play", st.Turn)
	switch {
	case p.Over() && st.Winner != "":
		subject = "game over: " + st.Winner + " wins"
	case p.Over():
		subject = "game over"
	case events == nil:
		subject = "the start"
	}
	if len(oc.Notes) > 0 {
		b.WriteString("Missed orders\n")
		for _, n := range oc.Notes {
			line("  " + n)
		}
		b.WriteString("\n")
	}
	if seat >= 0 && seat < len(st.Robots) {
		if s := oc.Private[st.Robots[seat].Name]; s != "" {
			line("For you: " + strings.ReplaceAll(s, "\n", " "))
			b.WriteString("\n")
		}
	}
	for _, sec := range narrate.Narrate(p.setup.Deck, oc.Events) {
		b.WriteString(sec.Title + "\n")
		for _, l := range sec.Lines {
			line("  " + l)
		}
	}
	if len(oc.Events) > 0 {
		b.WriteString("\n")
	}
	if events == nil {
		fmt.Fprintf(&b, "The floor at the start (course %s)\n\n", p.cfg.CourseName)
	} else {
		fmt.Fprintf(&b, "The floor after turn %d\n\n", played)
	}
	b.WriteString(adjudicator.RenderState(p.setup.Course, st))
	if l := adjudicator.RenderReportLegend(p.setup.Course, st); l != "" {
		b.WriteString("\n" + l)
	}
	b.WriteString("\nThe robots\n")
	for _, r := range st.Robots {
		what := fmt.Sprintf("  %s: %d flag(s), %d li(ves), damage %d", r.Name, r.Flags, r.Lives, r.Damage)
		switch {
		case r.Out:
			what += ", out of the race"
		case r.Power == adjudicator.PowerDown:
			what += ", powered down"
		}
		if r.Mat != nil && !p.cfg.Rules.Lighter {
			what += fmt.Sprintf(", energy %d", r.Mat.Energy)
		}
		line(what)
	}
	if p.Over() {
		b.WriteString("\nStandings\n")
		for _, s := range p.Standings() {
			line(fmt.Sprintf("  %d. %s: %s", s.Rank, st.Robots[s.Seat].Name, s.Line))
		}
	}
	p.private(&b, seat)
	rep := game.Report{Subject: subject, Text: b.String()}
	opt := picture.Options{Cell: 28, Deck: p.setup.Deck, Turn: played, Devices: st.Devices,
		Caption: fmt.Sprintf("%s after turn %d", p.cfg.CourseName, played)}
	var png bytes.Buffer
	if err := picture.PNG(&png, picture.Course(p.setup.Course, st.Robots, opt)); err == nil {
		rep.Picture, rep.PictureName = png.Bytes(), fmt.Sprintf("turn-%d.png", played)
	}
	return rep
}

// PrivateReport is a seat's own part of the report in a mailing-list game, whose
// list has the public report (Report(-1, ...)): what was played for the seat, its hand
// and its standing orders (game.Parts).
func (p *position) PrivateReport(seat int, events []byte) game.Report {
	var oc outcome
	if len(events) > 0 && string(events) != "null" {
		_ = json.Unmarshal(events, &oc)
	}
	var b strings.Builder
	if seat >= 0 && seat < len(p.State.Robots) {
		if s := oc.Private[p.State.Robots[seat].Name]; s != "" {
			b.WriteString(game.Wrap("For you: "+strings.ReplaceAll(s, "\n", " "), "  ") + "\n")
		}
	}
	p.private(&b, seat)
	if b.Len() == 0 {
		b.WriteString("Nothing of this turn is yours alone: the list has the report.\n")
	}
	return game.Report{Subject: fmt.Sprintf("turn %d to play (your part)", p.State.Turn), Text: strings.TrimLeft(b.String(), "\n")}
}

// private writes a seat's hand and standing orders.
func (p *position) private(b *strings.Builder, seat int) {
	st := p.State
	line := func(s string) { b.WriteString(game.Wrap(s, "  ") + "\n") }
	if seat >= 0 && seat < len(st.Robots) && !st.Robots[seat].Out && !p.Over() {
		r := st.Robots[seat]
		hand, locked := narrate.HandOf(p.setup.Deck, r)
		var names []string
		for _, c := range hand {
			names = append(names, c.Name())
		}
		fmt.Fprintf(b, "\nYour hand for turn %d (%s)\n", st.Turn, r.Name)
		line("  " + strings.Join(names, ", "))
		for _, c := range locked {
			line(fmt.Sprintf("  locked: register %d, %s", c.Register, c.Name()))
		}
		if s := p.Standing[seat]; s != nil && len(s.Rules) > 0 {
			b.WriteString("\nYour standing orders\n")
			for _, rule := range s.Rules {
				line("  " + rule.String())
			}
		}
	}
}
