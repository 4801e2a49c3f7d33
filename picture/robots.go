package picture

import (
	"bytes"
	"fmt"
	"image"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// labels gives each robot the letter drawn on it: its name's initial, or A, B, C... by
// seat when two names share an initial (as the text board letters them).
func labels(robots []adjudicator.Robot) []string {
	out := make([]string, len(robots))
	seen := map[string]bool{}
	unique := true
	for i, r := range robots {
		for _, ch := range r.Name {
			if ch < 128 && (unicode.IsLetter(ch) || unicode.IsDigit(ch)) {
				out[i] = strings.ToUpper(string(ch))
				break
			}
		}
		if out[i] == "" || seen[out[i]] {
			unique = false
		}
		seen[out[i]] = true
	}
	if !unique {
		for i := range out {
			out[i] = string(rune('A' + i%26))
		}
	}
	return out
}

// marks are a frame's highlights: the robot acting, robots destroyed this step, laser
// beams and hits, flags touched.
type marks struct {
	acting    map[int]bool
	destroyed []adjudicator.Pos
	shots     []shot
	hit       map[int]bool // robots hit by a laser
	flags     map[int]bool // robots touching a flag
	liveBeams bool         // draw the board beams as they stand, stopped by robots
	// beamsAt, when set with liveBeams, draws only the board beams stopped on these
	// squares: a register's picture shows the lasers that hit, not every laser.
	beamsAt map[adjudicator.Pos]bool
	trails  []trailSeg // the robots' paths this register (story.go)
	fallen  []fallen   // robots destroyed this register, drawn pale where they fell
}

// shot is a robot's laser firing from one square to another.
type shot struct{ from, to adjudicator.Pos }

// robots draws the robots that are on the board, several on a square side by side.
func (p *painter) robots(img *image.Paletted, robots []adjudicator.Robot, m *marks) {
	cv := canvas{img}
	if m != nil && m.liveBeams {
		p.liveBeams(cv, robots, m.beamsAt)
	}
	if m != nil {
		p.trails(cv, m.trails)
		p.ghosts(cv, m.fallen)
	}
	at := map[adjudicator.Pos][]int{}
	var order []adjudicator.Pos
	for i := range robots {
		r := &robots[i]
		if !r.Active() || !p.b.In(r.Pos) {
			continue
		}
		if _, ok := at[r.Pos]; !ok {
			order = append(order, r.Pos)
		}
		at[r.Pos] = append(at[r.Pos], i)
	}
	cs := float64(p.l.cs)
	for _, q := range order {
		ids := at[q]
		cx, cy := p.l.centre(q)
		k := 1
		for k*k < len(ids) {
			k++
		}
		sub := cs / float64(k)
		rows := (len(ids) + k - 1) / k
		top := cy - float64(rows)*sub/2 // the rows centred in the square
		for n, i := range ids {
			x := cx - cs/2 + (float64(n%k)+0.5)*sub
			y := top + (float64(n/k)+0.5)*sub
			p.robot(cv, x, y, sub, i, &robots[i], m)
		}
	}
	if m != nil {
		// Robot lasers: a beam from the shooter's nose to the target, over the robots.
		for _, s := range m.shots {
			fx, fy := p.l.centre(s.from)
			tx, ty := p.l.centre(s.to)
			l := math.Hypot(tx-fx, ty-fy)
			if l == 0 {
				continue
			}
			ux, uy := (tx-fx)/l, (ty-fy)/l
			fx, fy = fx+ux*cs*0.45, fy+uy*cs*0.45
			tx, ty = tx-ux*cs*0.3, ty-uy*cs*0.3
			cv.line(fx, fy, tx, ty, 4, cBeam)
			cv.line(fx, fy, tx, ty, 1.5, cHit)
		}
		for _, q := range m.destroyed {
			// Off the board: the cross goes on the board's edge where it went over,
			// half on the edge square and half in the margin.
			in := adjudicator.Pos{X: min(max(q.X, 0), p.b.W-1), Y: min(max(q.Y, 0), p.b.H-1)}
			cx, cy := p.l.centre(in)
			half := cs/2 - 4
			if in != q {
				cx += float64(sign(q.X-in.X)) * cs / 2
				cy += float64(sign(q.Y-in.Y)) * cs / 2
				half = cs * 0.3
			}
			cv.line(cx-half, cy-half, cx+half, cy+half, 4, cDestroyed)
			cv.line(cx+half, cy-half, cx-half, cy+half, 4, cDestroyed)
		}
	}
}

// robot draws one robot in a box of side s centred on (cx, cy): a disc in its seat
// colour with a black nose pointing where it faces and its letter. A virtual robot is
// hollow (a pale fill inside a ring of its colour); a powered-down robot is grey inside
// a ring of its colour.
func (p *painter) robot(cv canvas, cx, cy, s float64, i int, r *adjudicator.Robot, m *marks) {
	seat := i % seats
	R := s * 0.36
	if s < float64(p.l.cs)*0.9 {
		R = s * 0.44 // sharing a square: as big as the quarter allows
	}
	if m != nil && (m.acting[i] || m.flags[i]) {
		cv.disc(cx, cy, s*0.5, cHalo)
	}
	if m != nil && m.hit[i] {
		p.burst(cv, cx, cy, s*0.5)
	}
	ux, uy := unit(r.Facing)
	px, py := -uy, ux
	nose := func(col uint8, extra float64) {
		tip := s*0.48 + extra
		base := R * 0.45
		cv.poly(col, [2]float64{cx + ux*tip, cy + uy*tip},
			[2]float64{cx + ux*base + px*(R*0.7+extra), cy + uy*base + py*(R*0.7+extra)},
			[2]float64{cx + ux*base - px*(R*0.7+extra), cy + uy*base - py*(R*0.7+extra)})
	}
	body, ink := uint8(cRobot0+seat), seatInk(cv.img.Palette, seat)
	switch {
	case r.Virtual:
		nose(uint8(cRobot0+seat), 0)
		cv.disc(cx, cy, R, uint8(cRobot0+seat))
		cv.disc(cx, cy, R-math.Max(2, R/4), uint8(cTint0+seat))
		ink = uint8(cRobot0 + seat)
	case r.Power == adjudicator.PowerDown:
		// A black nose with a white rim, which reads on the grey body and the floor.
		nose(cWhite, 2)
		nose(cInk, 0.5)
		cv.disc(cx, cy, R+1, cInk)
		cv.disc(cx, cy, R, uint8(cRobot0+seat))
		cv.disc(cx, cy, R-math.Max(2, R/4), cGrey)
		nose(cInk, -0.5)
		ink = cWhite
	default:
		nose(cInk, 1)
		cv.disc(cx, cy, R+1, cInk)
		cv.disc(cx, cy, R, body)
		// The nose again over the body's edge, so the facing reads at a glance.
		nose(cInk, 0)
	}
	if R >= 6 && p.labels[i] != "" {
		cv.text(int(math.Round(cx-3.5)), int(math.Round(cy-6.5)), p.labels[i], ink, 0)
	}
	p.marks.spots = append(p.marks.spots, ringSpot{r.Name, cx, cy, s}) // the reader's ring goes here (you.go)
}

// burst marks a laser hit: yellow rays around the robot.
func (p *painter) burst(cv canvas, cx, cy, r float64) {
	for k := 0; k < 8; k++ {
		a := float64(k) * math.Pi / 4
		cv.line(cx+math.Cos(a)*r*0.55, cy+math.Sin(a)*r*0.55, cx+math.Cos(a)*r, cy+math.Sin(a)*r, 3, cDestroyed)
		cv.line(cx+math.Cos(a)*r*0.6, cy+math.Sin(a)*r*0.6, cx+math.Cos(a)*r*0.95, cy+math.Sin(a)*r*0.95, 1, cHit)
	}
}

// liveBeams draws each board laser's beams as they fire, stopped by the first robot in
// the way (seed 003, Lasers), over the dim static beams.
func (p *painter) liveBeams(cv canvas, robots []adjudicator.Robot, only map[adjudicator.Pos]bool) {
	occupied := map[adjudicator.Pos]bool{}
	for i := range robots {
		if robots[i].Active() {
			occupied[robots[i].Pos] = true
		}
	}
	for y := 0; y < p.b.H; y++ {
		for x := 0; x < p.b.W; x++ {
			q := adjudicator.Pos{X: x, Y: y}
			l := p.b.At(q).Laser
			if l.Beams <= 0 || l.Dir > adjudicator.West {
				continue
			}
			path := beamPath(p.b, q, l.Dir)
			last, stop := path[len(path)-1], false
			for _, s := range path {
				if occupied[s] {
					last, stop = s, true
					break
				}
			}
			if only != nil && (!stop || !only[last]) {
				continue
			}
			p.beam(cv, q, last, l, true, stop)
			// The gears and flags the beam crosses stay on top of it.
			for _, s := range path {
				if g := p.b.At(s).Gear; g != adjudicator.NoRotation && p.b.At(s).Floor != adjudicator.FloorPit {
					p.gear(cv, s, g)
				}
				if n := p.flagAt(s); n > 0 {
					p.flag(cv, s, n)
				}
				if s == last {
					break
				}
			}
		}
	}
}

// legend lists the robots under the board in words (legendInWords): each in its colour,
// facing where it faces, with its damage, lives and flags, or under the 2023 rules its
// energy (a bar and a number), checkpoints, upgrades and damage cards held
// (legendWords2023; issue 22: the 2023 legend read "Twonky E5 CP0 U1").
//
// The legend's band is drawn from what it says alone, so a turn's frames, most of
// which say the same, copy it from the frame before (legendDrawn) rather than draw it
// again: the same pixels and the same rings' places.
func (p *painter) legend(img *image.Paletted, robots []adjudicator.Robot) {
	if p.l.legendRows == 0 {
		return
	}
	key := p.legendKey(robots)
	band := img.Pix[img.PixOffset(0, p.l.legendY-2):img.PixOffset(0, p.l.total)]
	if m := p.lastLegend; m != nil && m.key == key && len(m.rows) == len(band) && !p.drawAll {
		copy(band, m.rows)
		p.marks.spots = append(p.marks.spots, m.spots...)
		p.marks.key = m.at
		return
	}
	spots := len(p.marks.spots)
	cv := canvas{img}
	cv.rect(0, p.l.legendY-2, p.l.width, p.l.total, cLegend)
	colW := (p.l.width - 8) / p.l.legendPer
	p.legendInWords(cv, robots, colW)
	p.lastLegend = &legendDrawn{key: key, rows: bytes.Clone(band),
		spots: slices.Clone(p.marks.spots[spots:]), at: p.marks.key}
}

// legendDrawn is a legend as drawn: what it says (legendKey), its band's pixels and
// the places of the readers' rings it left (you.go).
type legendDrawn struct {
	key   string
	rows  []byte
	spots []ringSpot
	at    image.Point
}

// legendKey is everything the legend's band is drawn from: each robot's words, and
// how its picture is drawn (its name, facing, whether virtual or powered down).
func (p *painter) legendKey(robots []adjudicator.Robot) string {
	var b strings.Builder
	for i := range robots {
		r := &robots[i]
		if p.own {
			first, second, energy := legendWords2023(r, len(p.c.Flags))
			fmt.Fprintf(&b, "%s\x00%s\x00%d", first, second, energy)
		} else {
			first, second := legendWords(r, len(p.c.Flags))
			fmt.Fprintf(&b, "%s\x00%s", first, second)
		}
		fmt.Fprintf(&b, "\x00%s %d %t %d\x01", r.Name, r.Facing, r.Virtual, r.Power)
	}
	return b.String()
}

func sign(v int) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// legendInWords is the postal legend: each robot as it is drawn (its nose where it
// faces), then its state and its option cards in words, and a key to the marks on the
// board, so a new player reads it without a key of letters (the bug: "Twonky d0 L3 F0").
func (p *painter) legendInWords(cv canvas, robots []adjudicator.Robot, colW int) {
	for i := range robots {
		r := &robots[i]
		x := 4 + (i%p.l.legendPer)*colW
		y := p.l.legendY + (i/p.l.legendPer)*p.l.entryH
		p.robot(cv, float64(x)+8, float64(y)+9, 17, i, r, nil)
		if p.own {
			first, second, energy := legendWords2023(r, len(p.c.Flags))
			tx := x + 20
			if energy >= 0 {
				tx += p.energyBar(cv, tx, y+4, energy)
			}
			cv.text(tx, y+2, first, cInk, colW-(tx-x)-3)
			cv.text(x+20, y+16, second, cInk, colW-23)
			continue
		}
		first, second := legendWords(r, len(p.c.Flags))
		cv.text(x+20, y+2, first, cInk, colW-23)
		cv.text(x+20, y+16, second, cInk, colW-23)
	}
	y := p.l.legendY + p.l.legendRows*p.l.entryH + 2
	x := 6
	cv.line(float64(x), float64(y+7), float64(x+18), float64(y+7), 4, cInk)
	x += 22 + cv.text(x+22, y, "own move", cInk, 0)
	for d := 0; d < 3; d++ {
		cv.line(float64(x+10+d*7), float64(y+7), float64(x+14+d*7), float64(y+7), 3, cInk)
	}
	x += 34 + cv.text(x+34, y, "pushed/carried", cInk, 0)
	cv.line(float64(x+10), float64(y+2), float64(x+20), float64(y+12), 3, cDestroyed)
	cv.line(float64(x+20), float64(y+2), float64(x+10), float64(y+12), 3, cDestroyed)
	fell := "destroyed"
	if p.own {
		fell = "rebooted" // seed 004: a robot that falls reboots
	}
	x += 24 + cv.text(x+24, y, fell, cInk, 0)
	p.marks.key = image.Point{X: x, Y: y} // "you" and its ring, in a reader's copy (you.go)
}
