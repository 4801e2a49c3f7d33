package picture

import (
	"fmt"
	"math"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// What a register's picture tells (issue 22): where each robot went this register and
// how, drawn as a trail from where it stood when the register began: its own moves in
// a solid line of its colour's tint, pushes, belt rides and other carrying in a dashed one;
// the lasers that hit, as beams; the robots destroyed, as a pale robot under a cross
// where they fell; the reader's own robot ringed; and a caption that names every
// robot's card in the order they were played (`P490 Zapper M1 · P300 Hulk R`).

// trailSeg is one stretch of a robot's path in a register.
type trailSeg struct {
	robot    int
	from, to adjudicator.Pos
	own      bool // the robot's own move (its card), else pushed or carried
}

// fallen is a robot destroyed this register, where it fell.
type fallen struct {
	robot int
	at    adjudicator.Pos
}

// registerMarks are what a register leaves on its picture, gathered step by step.
type registerMarks struct {
	trails []trailSeg
	fallen []fallen
	shots  []shot
	hit    map[int]bool
	cards  []string // "P490 Zapper M1", in the order played
}

func newRegisterMarks() *registerMarks { return &registerMarks{hit: map[int]bool{}} }

// carried says whether an event moves a robot by something other than its own card.
func ownMove(e adjudicator.Event) bool { return e.Kind == adjudicator.EvMove }

// shortCard is a card as a caption names it: R, L, U, M1, M2, M3, B (Back Up); the
// 2023 deck's cards by their titles.
func shortCard(deck *adjudicator.Deck, p int) string {
	k := deck.Kind(p)
	switch k.Title() {
	case "Rotate Left":
		return "L"
	case "Rotate Right":
		return "R"
	case "U-Turn":
		return "U"
	case "Back Up":
		return "B"
	case "Move 1":
		return "M1"
	case "Move 2":
		return "M2"
	case "Move 3":
		return "M3"
	}
	return k.Title()
}

// cardLabel is one robot's card in a register's caption.
func cardLabel(deck *adjudicator.Deck, robot string, card int) string {
	if deck.ByKind() {
		return robot + " " + deck.Kind(card).Title()
	}
	return fmt.Sprintf("P%d %s %s", card, robot, shortCard(deck, card))
}

// cardsNote is what goes under the board in a register's frames: "Cards in the order
// played: P490 Zapper M1 · P300 Hulk R".
func cardsNote(cards []string) string {
	if len(cards) == 0 {
		return ""
	}
	return "Cards in the order played: " + strings.Join(cards, " · ")
}

// registerCaption is a register picture's caption: "Register 2 — P490 Zapper M1 · P300
// Hulk R" (the cards in the order they were played).
func registerCaption(reg int, cards []string) string {
	if len(cards) == 0 {
		return fmt.Sprintf("Register %d", reg)
	}
	return fmt.Sprintf("Register %d — %s", reg, strings.Join(cards, " · "))
}

// registerHead is the caption band of a register's picture.
func registerHead(turn, reg int) string {
	if turn > 0 {
		return fmt.Sprintf("Turn %d, after register %d: the trails show how", turn, reg)
	}
	return fmt.Sprintf("After register %d: the trails show how", reg)
}

// wrapCaption breaks a caption into lines of at most n characters: at " ¶ " always, else
// at " · " or a space. A word longer than a line is cut by the text drawer.
func wrapCaption(s string, n int) []string {
	if n < 8 {
		n = 8
	}
	var out []string
	for _, part := range strings.Split(s, " ¶ ") {
		line := ""
		for _, w := range strings.Split(part, " ") {
			switch {
			case line == "":
				line = w
			case len([]rune(line))+1+len([]rune(w)) <= n:
				line += " " + w
			default:
				out = append(out, line)
				line = w
				if w == "·" {
					line = ""
				}
			}
		}
		if line != "" {
			out = append(out, line)
		}
	}
	return out
}

// captionLines is how many lines the longest note needs at the picture's width.
func captionLines(c *adjudicator.Course, cell int, captions []string) int {
	w := newLayout(c.Board, 0, cell, 0, false).width
	n := 0
	for _, s := range captions {
		n = max(n, len(wrapCaption(s, (w-12)/7)))
	}
	return min(n, 6)
}

// trails draws each robot's path this register, under the robots: the carried stretches
// dashed, the robot's own moves solid, each in the robot's colour edged in ink.
func (p *painter) trails(cv canvas, segs []trailSeg) {
	cs := float64(p.l.cs)
	for pass := 0; pass < 2; pass++ {
		for _, t := range segs {
			fx, fy := p.l.centre(t.from)
			tx, ty := p.l.centre(t.to)
			col := uint8(cTint0 + t.robot%seats) // the seat's pale tint: the robot's own colour stays the robot's
			w := math.Max(4, cs/4)
			if pass == 0 {
				col, w = cInk, w+2
			}
			if t.own {
				cv.line(fx, fy, tx, ty, w, col)
				cv.disc(fx, fy, w/2+1, col)
				continue
			}
			l := math.Hypot(tx-fx, ty-fy)
			dash := cs / 5
			for d := 0.0; d < l; d += 2 * dash {
				e := math.Min(d+dash, l)
				cv.line(fx+(tx-fx)*d/l, fy+(ty-fy)*d/l, fx+(tx-fx)*e/l, fy+(ty-fy)*e/l, w-1, col)
			}
		}
	}
}

// ghosts draws the robots destroyed this register where they fell: a pale disc of
// their colour under a cross (crosses drawn by robots()).
func (p *painter) ghosts(cv canvas, fs []fallen) {
	cs := float64(p.l.cs)
	for _, f := range fs {
		if !p.b.In(f.at) {
			continue
		}
		cx, cy := p.l.centre(f.at)
		cv.disc(cx, cy, cs*0.36+1, cInk)
		cv.disc(cx, cy, cs*0.36, uint8(cTint0+f.robot%seats))
		if f.robot < len(p.labels) && p.labels[f.robot] != "" {
			cv.text(int(math.Round(cx-3.5)), int(math.Round(cy-6.5)), p.labels[f.robot], cInk, 0)
		}
	}
}

// youRing rings the reader's robot: a thick ink ring with a white one inside, so it
// reads on every floor.
func youRing(cv canvas, cx, cy, s float64) {
	cv.ring(cx, cy, s*0.62, 3, cInk)
	cv.ring(cx, cy, s*0.62-3, 2, cWhite)
}

// facingWord is a direction as the legend writes it.
func facingWord(d adjudicator.Dir) string {
	switch d {
	case adjudicator.North:
		return "north"
	case adjudicator.East:
		return "east"
	case adjudicator.South:
		return "south"
	}
	return "west"
}

// legendWords is a robot's legend entry in words: the first line its damage, lives and
// flags, the second where it faces, its power and its option cards.
func legendWords(r *adjudicator.Robot, flags int) (string, string) {
	plural := func(n int, one, many string) string {
		if n == 1 {
			return fmt.Sprintf("%d %s", n, one)
		}
		return fmt.Sprintf("%d %s", n, many)
	}
	var parts []string
	switch {
	case r.Out:
		parts = append(parts, "out of the race")
	case r.Destroyed:
		parts = append(parts, "destroyed")
	}
	parts = append(parts, fmt.Sprintf("%d damage", r.Damage), plural(r.Lives, "life", "lives"))
	if flags > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d flags", r.Flags, flags))
	} else {
		parts = append(parts, plural(r.Flags, "flag", "flags"))
	}
	var more []string
	if !r.Out && !r.Destroyed {
		more = append(more, "faces "+facingWord(r.Facing))
	}
	if r.Virtual {
		more = append(more, "virtual")
	}
	if r.Power == adjudicator.PowerDown {
		more = append(more, "powered down")
	}
	opts := "no option cards"
	if len(r.Options) > 0 {
		opts = "options: " + strings.Join(r.Options, ", ")
	}
	more = append(more, opts)
	return r.Name + ": " + strings.Join(parts, ", "), strings.Join(more, "; ")
}
