package picture

import (
	"bytes"
	"fmt"
	"image"
	"image/gif"
	"io"
	"runtime"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/internal/parallel"
)

// A turn's GIF shows the turn step by step, replayed from the engine's event log (rules
// README, "A turn"): a first frame with the robots where they stood, then one frame per
// step in the order the log tells it:
//
//   - each robot's card in a register, highest priority first (phase b), with what it
//     did: moves, pushes, turns, falls;
//   - each board element step that moved, turned or destroyed a robot (phase c:
//     express belts, belts, pushers, gears, crushers);
//   - lasers, when a laser hit (phase d): board beams as they fire, stopped by the
//     first robot, robot shots from shooter to target, hits marked;
//   - flags, when a robot touched a flag or moved its archive marker (phase e);
//   - the end of the turn: repairs, re-entry, power.
//
// A phase in which nothing happened has no frame.

// Step is one frame's worth of the event log.
type Step struct {
	Register int    // 1–5; 0 for the end of the turn
	Phase    string // the events' phase: move, express, ..., end
	Robot    string // for a card: the robot playing it
	Card     int    // for a card: its priority
	Caption  string
	Events   []adjudicator.Event
}

// Steps splits a turn's event log into steps. deck names the cards in captions (nil:
// the standard deck).
func Steps(events []adjudicator.Event, deck *adjudicator.Deck) []Step {
	if deck == nil {
		deck = adjudicator.StandardDeck()
	}
	var steps []Step
	for i := 0; i < len(events); {
		e := events[i]
		j := i + 1
		for j < len(events) && events[j].Register == e.Register && events[j].Phase == e.Phase {
			j++
		}
		group := events[i:j]
		i = j
		switch {
		case e.Phase == "move" && e.Register > 0:
			steps = append(steps, cardSteps(e.Register, group, deck)...)
		case e.Phase == "deal":
			// Dealing the next hands changes nothing on the board.
		default:
			s := Step{Register: e.Register, Phase: e.Phase, Events: group}
			if deck.ByKind() {
				s.Caption = phaseCaption2023(s)
			} else {
				s.Caption = phaseCaption(s)
			}
			steps = append(steps, s)
		}
	}
	return steps
}

// cardSteps splits a register's move phase into one step per card played. The engine
// may reveal every card first (a run of card events, one per robot) before playing
// them; the reveal is dropped, as the cards are shown as they are played.
func cardSteps(reg int, group []adjudicator.Event, deck *adjudicator.Deck) []Step {
	count := map[string]int{}
	twice := false
	for _, e := range group {
		if e.Kind == adjudicator.EvCard && e.Cause != "replacement" {
			count[e.Robot]++
			twice = twice || count[e.Robot] > 1
		}
	}
	start := 0
	if twice {
		seen := map[string]bool{}
		for start < len(group) && group[start].Kind == adjudicator.EvCard && !seen[group[start].Robot] {
			seen[group[start].Robot] = true
			start++
		}
	}
	var steps []Step
	for _, e := range group[start:] {
		switch {
		case e.Kind == adjudicator.EvCard && e.Cause == "replacement":
			// 2023: the card that replaced a SPAM belongs to the robot's step.
		case e.Kind == adjudicator.EvCard && len(steps) > 0 && steps[len(steps)-1].Robot == e.Robot && steps[len(steps)-1].Card == 0:
			steps[len(steps)-1].Card = e.Card // the card of a robot that re-entered first
		case e.Kind == adjudicator.EvCard:
			steps = append(steps, Step{Register: reg, Phase: "move", Robot: e.Robot, Card: e.Card})
		case e.Kind == adjudicator.EvReenter:
			// 2023: a rebooted robot re-enters in its turn, then plays its card.
			steps = append(steps, Step{Register: reg, Phase: "move", Robot: e.Robot})
		}
		if len(steps) == 0 {
			// Something before any card (not produced by the engine today): a step of
			// its own, so no event is lost.
			steps = append(steps, Step{Register: reg, Phase: "move"})
		}
		steps[len(steps)-1].Events = append(steps[len(steps)-1].Events, e)
	}
	for i := range steps {
		if deck.ByKind() {
			steps[i].Caption = cardCaption2023(steps[i])
		} else {
			steps[i].Caption = cardCaption(steps[i], deck)
		}
	}
	return steps
}

func cardCaption(s Step, deck *adjudicator.Deck) string {
	head := fmt.Sprintf("Register %d — ", s.Register)
	if s.Card == 0 {
		return head + "moves"
	}
	what := fmt.Sprintf("P%d %s: %s", s.Card, s.Robot, deck.Kind(s.Card).Title())
	var notes []string
	for _, e := range s.Events {
		switch e.Kind {
		case adjudicator.EvPush:
			notes = append(notes, "pushes "+e.Robot)
		case adjudicator.EvBlocked:
			if e.Robot == s.Robot {
				notes = append(notes, "blocked by a "+e.Cause)
			}
		case adjudicator.EvDestroyed:
			notes = append(notes, e.Robot+" destroyed ("+e.Cause+")")
		case adjudicator.EvLaunch, adjudicator.EvExplosion:
			notes = append(notes, deviceNote(e))
		}
	}
	if len(notes) > 0 {
		what += "; " + strings.Join(dedupe(notes), ", ")
	}
	return head + what
}

func phaseTitle(phase string) string {
	switch phase {
	case "express":
		return "express belts"
	case "belts":
		return "conveyor belts"
	case "chop-shop":
		return "chop shop"
	}
	return phase
}

func phaseCaption(s Step) string {
	if s.Register == 0 {
		var notes []string
		for _, e := range s.Events {
			switch e.Kind {
			case adjudicator.EvReenter:
				notes = append(notes, fmt.Sprintf("%s re-enters at %v", e.Robot, *e.To))
			case adjudicator.EvRepair:
				notes = append(notes, fmt.Sprintf("%s repairs %d", e.Robot, e.Amount))
			case adjudicator.EvAnnounce:
				notes = append(notes, e.Robot+" powers down next turn")
			case adjudicator.EvOut:
				notes = append(notes, e.Robot+" is out")
			}
		}
		return joinCaption("End of turn", notes)
	}
	head := fmt.Sprintf("Register %d — %s", s.Register, phaseTitle(s.Phase))
	var notes []string
	for _, e := range s.Events {
		switch e.Kind {
		case adjudicator.EvConveyed, adjudicator.EvPushed, adjudicator.EvRotated:
			notes = append(notes, e.Robot)
		case adjudicator.EvDestroyed:
			notes = append(notes, e.Robot+" destroyed ("+e.Cause+")")
		case adjudicator.EvDamage:
			by := "board"
			if e.Other != "" {
				by = e.Other
			}
			notes = append(notes, fmt.Sprintf("%s hit %d by %s", e.Robot, e.Amount, by))
		case adjudicator.EvFlag:
			notes = append(notes, fmt.Sprintf("%s touches flag %d", e.Robot, e.Amount))
		case adjudicator.EvArchive:
			notes = append(notes, e.Robot+" archives")
		case adjudicator.EvSlid:
			notes = append(notes, e.Robot+" slides on oil")
		case adjudicator.EvTeleport:
			notes = append(notes, e.Robot+" through a portal")
		case adjudicator.EvRepulsed:
			notes = append(notes, e.Robot+" repulsed")
		case adjudicator.EvWin:
			notes = append(notes, e.Robot+" WINS")
		case adjudicator.EvLaunch, adjudicator.EvExplosion:
			notes = append(notes, deviceNote(e))
		}
	}
	return joinCaption(head, dedupe(notes))
}

func joinCaption(head string, notes []string) string {
	if len(notes) == 0 {
		return head
	}
	return head + ": " + strings.Join(notes, ", ")
}

func dedupe(xs []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// Frame is one picture of a turn and its caption.
type Frame struct {
	Image   *image.Paletted
	Caption string
	you     youMarks // where a reader's copy rings each robot (Frame.For)
}

// TurnFrames draws the turn: a first frame of the robots as they stood (before), then
// one frame per Step of the event log. before is not changed.
func TurnFrames(c *adjudicator.Course, before []adjudicator.Robot, events []adjudicator.Event, opt Options) []Frame {
	frames, _ := TurnStory(c, before, events, opt)
	return frames
}

// RegisterFrame is the picture of one register: the robots as it left them, with the
// trails, beams and falls of the whole register (story.go).
type RegisterFrame struct {
	Register int
	Frame
}

// TurnStory draws the turn as TurnFrames does, and one picture per register played.
// Every frame's caption names the register's cards in the order played; the GIF's
// frames add what their step shows; each robot's path in the register so far is drawn
// as a trail (story.go).
func TurnStory(c *adjudicator.Course, before []adjudicator.Robot, events []adjudicator.Event, opt Options) ([]Frame, []RegisterFrame) {
	robots := make([]adjudicator.Robot, len(before))
	copy(robots, before)
	idx := map[string]int{}
	for i, r := range robots {
		idx[r.Name] = i
	}
	deck := opt.Deck
	if deck == nil {
		deck = adjudicator.StandardDeck()
	}
	steps := Steps(events, deck)
	cards := map[int][]string{}
	for _, s := range steps {
		if s.Phase == "move" && s.Card != 0 && s.Register > 0 {
			cards[s.Register] = append(cards[s.Register], cardLabel(deck, s.Robot, s.Card))
		}
	}
	first := "Before the registers"
	if opt.Turn > 0 {
		first = fmt.Sprintf("Turn %d — before the registers", opt.Turn)
	}
	var notes []string
	for _, cs := range cards {
		notes = append(notes, cardsNote(cs))
	}
	if opt.CaptionLines == 0 {
		opt.CaptionLines = captionLines(c, opt.cell(), notes)
	}
	p := newPainter(c, robots, opt)
	devices := opt.Devices
	// The story is told first (the robots moved event by event, what each frame shows
	// gathered), the frames drawn after, side by side (drawFrames).
	var shots []frameShot
	draw := func(caption, note string, m *marks) int {
		shots = append(shots, frameShot{caption: caption, note: note, m: m, devices: devices, robots: robotsNow(robots)})
		return len(shots) - 1
	}
	var frames []int
	frames = append(frames, draw(first, "", nil))
	var regs []registerShot
	reg, rm := 0, newRegisterMarks()
	beamsAt := map[adjudicator.Pos]bool{}
	flush := func() {
		if reg < 1 || reg > adjudicator.Registers {
			return
		}
		m := &marks{acting: map[int]bool{}, hit: rm.hit, flags: map[int]bool{}, shots: rm.shots,
			trails: rm.trails, fallen: rm.fallen, liveBeams: len(beamsAt) > 0, beamsAt: beamsAt}
		for _, f := range rm.fallen {
			m.destroyed = append(m.destroyed, f.at)
		}
		regs = append(regs, registerShot{reg, draw(registerHead(opt.Turn, reg), cardsNote(cards[reg]), m), registerCaption(reg, cards[reg])})
	}
	for _, s := range steps {
		if s.Register != reg {
			flush()
			reg, rm = s.Register, newRegisterMarks()
			beamsAt = map[adjudicator.Pos]bool{}
		}
		m := &marks{acting: map[int]bool{}, hit: map[int]bool{}, flags: map[int]bool{}}
		if i, ok := idx[s.Robot]; ok && s.Card != 0 {
			m.acting[i] = true
		}
		if s.Phase == "lasers" {
			m.liveBeams = true
			// Beams are drawn from where the robots stood when they fired: before this
			// step's damage destroyed anyone.
			for _, e := range s.Events {
				if e.Kind != adjudicator.EvDamage {
					continue
				}
				t, ok := idx[e.Robot]
				if !ok {
					continue
				}
				m.hit[t], rm.hit[t] = true, true
				if sh, ok := idx[e.Other]; ok && e.Other != "" {
					m.shots = append(m.shots, shot{robots[sh].Pos, robots[t].Pos})
					rm.shots = append(rm.shots, shot{robots[sh].Pos, robots[t].Pos})
				} else if e.Other == "" {
					beamsAt[robots[t].Pos] = true
				}
			}
		}
		for _, e := range s.Events {
			i, known := idx[e.Robot]
			var from adjudicator.Pos
			wasOn := false
			if known {
				from, wasOn = robots[i].Pos, robots[i].Active()
			}
			if e.Kind == adjudicator.EvDestroyed || e.Kind == adjudicator.EvReboot {
				if known {
					q := robots[i].Pos
					if e.From != nil {
						q = *e.From
					}
					m.destroyed = append(m.destroyed, q)
					rm.fallen = append(rm.fallen, fallen{i, q})
				}
			}
			adjudicator.ApplyEvent(robots, e)
			devices = ApplyDeviceEvent(devices, e)
			if known && wasOn && s.Register > 0 && robots[i].Pos != from && e.Kind != adjudicator.EvReenter &&
				e.Kind != adjudicator.EvArchive && e.Kind != adjudicator.EvTeleport {
				rm.trails = append(rm.trails, trailSeg{robot: i, from: from, to: robots[i].Pos, own: ownMove(e)})
			}
			if e.Kind == adjudicator.EvFlag && known {
				m.flags[i] = true
			}
		}
		if s.Register > 0 {
			m.trails, m.fallen = rm.trails, rm.fallen
		}
		frames = append(frames, draw(s.Caption, cardsNote(cards[s.Register]), m))
	}
	flush()
	drawn := p.drawFrames(shots)
	out := make([]Frame, len(frames))
	for i, k := range frames {
		out[i] = drawn[k]
	}
	var outRegs []RegisterFrame
	for _, r := range regs {
		f := drawn[r.shot]
		f.Caption = r.caption
		outRegs = append(outRegs, RegisterFrame{r.reg, f})
	}
	return out, outRegs
}

// frameShot is what one frame of a turn shows: its caption and note, the marks of its
// step, and the devices and robots as they stood.
type frameShot struct {
	caption, note string
	m             *marks
	devices       []adjudicator.Device // ApplyDeviceEvent changes a copy: never changed after
	robots        []adjudicator.Robot
}

// registerShot is a register's picture: its frame and caption.
type registerShot struct {
	reg, shot int
	caption   string
}

// robotsNow is a copy of the robots as they stand, for a frame drawn later.
func robotsNow(robots []adjudicator.Robot) []adjudicator.Robot {
	return (&adjudicator.State{Robots: robots}).Clone().Robots
}

// drawFrames draws the frames of a turn, in runs of consecutive frames side by side,
// each run with a painter of its own (a run's frames saying the same in the legend
// draw it once, as one painter for all would: the pictures are the same).
func (p *painter) drawFrames(shots []frameShot) []Frame {
	out := make([]Frame, len(shots))
	if p.stat == nil {
		p.stat = backgrounds.get(p) // once, before the runs share it
	}
	runs := min(len(shots), 2*runtime.GOMAXPROCS(0))
	parallel.Do(runs, func(r int) {
		w := *p
		w.marks, w.lastLegend = youMarks{}, nil
		for i := r * len(shots) / runs; i < (r+1)*len(shots)/runs; i++ {
			out[i] = w.drawFrame(shots[i])
		}
	})
	return out
}

// drawFrame draws one frame of a turn.
func (p *painter) drawFrame(s frameShot) Frame {
	img := p.base()
	p.marks = youMarks{}
	p.caption(img, s.caption)
	p.notes(img, s.note)
	p.devices(img, s.devices, s.robots)
	p.robots(img, s.robots, s.m)
	p.legend(img, s.robots)
	ringYou(img, p.marks, p.you)
	return Frame{Image: img, Caption: s.caption, you: p.marks}
}

// TurnGIF writes the turn as an animated GIF (see TurnFrames). Frames after the first
// hold only the rectangle that changed, unchanged pixels in it transparent, over the
// previous frame (GIF disposal "none"), all on one shared palette: a turn of eight
// robots stays small enough for mail.
func TurnGIF(w io.Writer, c *adjudicator.Course, before []adjudicator.Robot, events []adjudicator.Event, opt Options) error {
	return EncodeFrames(w, TurnFrames(c, before, events, opt), opt)
}

// EncodeFrames writes frames of one size and palette as an animated GIF, each frame
// after the first stored as its difference from the one before.
func EncodeFrames(w io.Writer, frames []Frame, opt Options) error {
	if len(frames) == 0 {
		return fmt.Errorf("picture: no frames")
	}
	delay := opt.Delay
	if delay <= 0 {
		delay = 80
	}
	first := frames[0].Image
	g := &gif.GIF{Config: image.Config{ColorModel: first.Palette, Width: first.Rect.Dx(), Height: first.Rect.Dy()}}
	for k, f := range frames {
		img := f.Image
		if k > 0 {
			img = delta(frames[k-1].Image, f.Image)
		}
		d := delay
		if k == 0 || k == len(frames)-1 {
			d = 3 * delay
		}
		g.Image = append(g.Image, img)
		g.Delay = append(g.Delay, d)
		g.Disposal = append(g.Disposal, gif.DisposalNone)
	}
	return gif.EncodeAll(w, g)
}

// delta is the part of cur that differs from prev: the smallest rectangle holding
// every changed pixel, with the unchanged pixels in it transparent (cClear). When
// nothing changed it is a single transparent pixel.
func delta(prev, cur *image.Paletted) *image.Paletted {
	r := cur.Rect
	minX, minY, maxX, maxY := r.Max.X, r.Max.Y, r.Min.X-1, r.Min.Y-1
	w := r.Dx()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		a := prev.Pix[(y-r.Min.Y)*prev.Stride:][:w]
		b := cur.Pix[(y-r.Min.Y)*cur.Stride:][:w]
		if bytes.Equal(a, b) {
			continue // most rows: one compare, not a pixel at a time
		}
		lo, hi := firstDiff(a, b), lastDiff(a, b)
		minX, maxX = min(minX, lo+r.Min.X), max(maxX, hi+r.Min.X)
		minY, maxY = min(minY, y), max(maxY, y)
	}
	if maxX < minX {
		minX, minY, maxX, maxY = r.Min.X, r.Min.Y, r.Min.X, r.Min.Y
	}
	out := image.NewPaletted(image.Rect(minX, minY, maxX+1, maxY+1), cur.Palette)
	n := maxX - minX + 1
	for y := minY; y <= maxY; y++ {
		o := (y-r.Min.Y)*cur.Stride + (minX - r.Min.X)
		deltaRow(out.Pix[(y-minY)*out.Stride:][:n], prev.Pix[o:o+n], cur.Pix[o:o+n])
	}
	return out
}

// deviceNote is a caption's note of a launch or an explosion (seed 001, Devices).
func deviceNote(e adjudicator.Event) string {
	if e.Kind == adjudicator.EvLaunch {
		return e.Robot + " launches a " + strings.ReplaceAll(e.Device, "-", " ")
	}
	at := ""
	if e.To != nil {
		at = " at " + e.To.String()
	}
	return fmt.Sprintf("explosion%s (%d)", at, e.Amount)
}
