package picture

import (
	"bytes"
	"fmt"
	"image"
	"math"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// Options set how a picture is drawn. The zero value is the default.
type Options struct {
	// Cell is the side of a square in pixels (default 28, at least 16).
	Cell int
	// Caption is the text of the band above the board; "" for the course's name and size.
	Caption string
	// Deck names the cards in GIF captions (default: the standard deck).
	Deck *adjudicator.Deck
	// Turn is the turn number shown in a turn GIF's first caption (0: not shown).
	Turn int
	// Delay is each GIF frame's time on screen in hundredths of a second (default 80);
	// the first and last frames stay three times as long.
	Delay int
	// Rules is the game's ruleset name ("2023" draws the 2023 look: green belts, energy
	// in the legend). "" takes it from the course (Course.Rules) or the robots (a robot
	// with a player mat plays the 2023 rules).
	Rules string
	// You is the robot of the player the picture is for: ringed, so a reader finds
	// their own robot at a glance ("" for none: a public picture).
	You string
	// CaptionLines is how many lines of notes go under the board (0: none): a turn's
	// frames name the register's cards there, wrapped. TurnFrames sets it to fit.
	CaptionLines int
	// Devices are the devices on the board (seed 001; devices.go): for a picture, those
	// of the state drawn; for a turn, those at its start (the log moves them).
	Devices []adjudicator.Device

	// drawAll draws every frame's legend rather than copy it (tests: the copy is the
	// drawing)
	drawAll bool
}

func (o Options) cell() int {
	switch {
	case o.Cell == 0:
		return 28
	case o.Cell < 16:
		return 16
	case o.Cell > 96:
		return 96
	}
	return o.Cell
}

// layout places the parts of a picture: the caption band, the coordinate margins, the
// board and the robot legend below it.
type layout struct {
	cs           int // cell size
	capH         int // caption band height
	bx, by       int // top-left pixel of square 0,0
	w, h         int // board size in squares
	legendY      int // top of the legend band
	legendRows   int
	legendPer    int // entries per legend row
	notesY       int // top of the notes band under the board
	notes        int // its lines
	entryH       int // a legend entry's height
	entryW       int // a legend entry's least width
	width, total int // image size
}

const (
	captionH = 20
	marginL  = 22
	marginT  = 16
	marginR  = 6
	legendH  = 18
	// a caption's further lines, the postal legend's two-line entries and its key
	captionLineH = 15
	legendWordsH = 32
	legendKeyH   = 18
)

// newLayout places a picture of board b with robots in the legend, capLines lines of
// notes under the board (a register's cards in the order played) and, when words is set, the postal legend in words: two lines a
// robot ("Hulk: 2 damage, 3 lives, 1 of 3 flags, facing east" and its option cards),
// as wide as the board allows.
func newLayout(b *adjudicator.Board, robots int, cs int, capLines int, words bool) layout {
	l := layout{cs: cs, capH: captionH, w: b.W, h: b.H}
	l.bx, l.by = marginL, captionH+marginT
	l.width = l.bx + b.W*cs + marginR
	l.notesY, l.notes = l.by+b.H*cs+4, max(0, capLines)
	l.legendY = l.notesY + l.notes*captionLineH
	l.entryH, l.entryW = legendH, 210
	if words {
		l.entryH, l.entryW = legendWordsH, 360
	}
	if robots > 0 {
		l.legendPer = max(1, (l.width-8)/l.entryW)
		l.legendRows = (robots + l.legendPer - 1) / l.legendPer
	}
	l.total = l.legendY + l.legendRows*l.entryH + 2
	if words && robots > 0 {
		l.total += legendKeyH // the key under the robots: trails, rings and crosses in words
	}
	return l
}

// cellRect is the pixel box of square p.
func (l layout) cellRect(p adjudicator.Pos) (x0, y0, x1, y1 int) {
	x0, y0 = l.bx+p.X*l.cs, l.by+p.Y*l.cs
	return x0, y0, x0 + l.cs, y0 + l.cs
}

// centre is the middle of square p.
func (l layout) centre(p adjudicator.Pos) (float64, float64) {
	return float64(l.bx) + (float64(p.X)+0.5)*float64(l.cs), float64(l.by) + (float64(p.Y)+0.5)*float64(l.cs)
}

// unit is the direction's step on screen.
func unit(d adjudicator.Dir) (float64, float64) {
	switch d {
	case adjudicator.North:
		return 0, -1
	case adjudicator.East:
		return 1, 0
	case adjudicator.South:
		return 0, 1
	}
	return -1, 0
}

// Course draws the course with the robots on it (robot i in seat colour i; robots
// destroyed or out of the race are not drawn) and a legend of the robots below.
func Course(c *adjudicator.Course, robots []adjudicator.Robot, opt Options) *image.Paletted {
	return CourseFrame(c, robots, opt).Image
}

// CourseFrame is Course as a Frame: a reader's copy of it (Frame.For) rings their robot
// without drawing the course again, and is the picture Course draws with Options.You.
func CourseFrame(c *adjudicator.Course, robots []adjudicator.Robot, opt Options) Frame {
	p := newPainter(c, robots, opt)
	caption := opt.Caption
	if caption == "" {
		caption = courseCaption(c, p.own)
	}
	img := p.base()
	p.caption(img, caption)
	p.devices(img, opt.Devices, robots)
	p.robots(img, robots, nil)
	p.legend(img, robots)
	ringYou(img, p.marks, p.you)
	return Frame{Image: img, Caption: caption, you: p.marks}
}

func courseCaption(c *adjudicator.Course, own bool) string {
	name := c.Name
	if name == "" {
		name = "board"
	}
	flags := "flags"
	if own {
		flags = "checkpoints" // seed 004 calls them so
	}
	s := fmt.Sprintf("%s: %dx%d, %d %s, %d start squares", name, c.Board.W, c.Board.H, len(c.Flags), flags, len(c.Starts))
	if c.MaxPlayers > 0 {
		s += fmt.Sprintf(", %d-%d players", c.MinPlayers, c.MaxPlayers)
	}
	return s
}

// painter draws one course; its base picture (the floor and every element, no robots)
// is drawn once (and kept for the next turns: background.go) and copied for each frame
// of a turn.
type painter struct {
	c      *adjudicator.Course
	b      *adjudicator.Board
	l      layout
	labels []string
	stat   *image.Paletted
	// own: the 2023 rules (seed 004): normal belts are green, the legend shows energy
	// and upgrades, a fallen robot reboots (rules2023.go).
	own bool
	you string // the reader's robot, ringed (Options.You)
	// marks are where the picture being drawn would ring each robot (you.go)
	marks youMarks
	// lastLegend is the legend last drawn, for the next frame saying the same (legend)
	lastLegend *legendDrawn
	drawAll    bool // Options.drawAll
}

func newPainter(c *adjudicator.Course, robots []adjudicator.Robot, opt Options) *painter {
	p := &painter{c: c, b: c.Board, you: opt.You, drawAll: opt.drawAll}
	p.own = ownRules(c, robots, opt)
	p.l = newLayout(c.Board, len(robots), opt.cell(), opt.CaptionLines, true)
	p.labels = labels(robots)
	return p
}

// base returns a fresh copy of the static picture (background.go: drawn once for a
// course and kept).
func (p *painter) base() *image.Paletted {
	if p.stat == nil {
		p.stat = backgrounds.get(p)
	}
	// a copy made by bytes.Clone is not cleared before the background is copied in
	// (image.NewPaletted clears its pixels first: a turn's fifty frames cleared for
	// nothing)
	return &image.Paletted{Pix: bytes.Clone(p.stat.Pix), Stride: p.stat.Stride, Rect: p.stat.Rect, Palette: p.stat.Palette}
}

func (p *painter) caption(img *image.Paletted, s string) {
	cv := canvas{img}
	cv.rect(0, 0, p.l.width, p.l.capH, cCaption)
	cv.text(6, 3, s, cCaptionInk, p.l.width-12)
}

// notes writes s under the board, wrapped to the band's lines.
func (p *painter) notes(img *image.Paletted, s string) {
	if p.l.notes == 0 || s == "" {
		return
	}
	cv := canvas{img}
	for i, l := range wrapCaption(s, (p.l.width-12)/7) {
		if i >= p.l.notes {
			break
		}
		cv.text(6, p.l.notesY+i*captionLineH, l, cInk, p.l.width-12)
	}
}

func (p *painter) drawStatic(cv canvas) {
	l, b := p.l, p.b
	cv.rect(0, 0, l.width, l.total, cPage)
	// Coordinates: columns above, rows to the left (square x,y from 0,0 top left).
	for x := 0; x < b.W; x++ {
		s := fmt.Sprint(x)
		cv.text(l.bx+x*l.cs+(l.cs-7*len(s))/2, l.capH+2, s, cInk, 0)
	}
	for y := 0; y < b.H; y++ {
		s := fmt.Sprint(y)
		cv.text(l.bx-3-7*len(s), l.by+y*l.cs+(l.cs-13)/2, s, cInk, 0)
	}
	for y := 0; y < b.H; y++ {
		for x := 0; x < b.W; x++ {
			p.square(cv, adjudicator.Pos{X: x, Y: y})
		}
	}
	// The beams over the floor and belts, under the gears, pushers, crushers and flags.
	p.beams(cv)
	for y := 0; y < b.H; y++ {
		for x := 0; x < b.W; x++ {
			p.machine(cv, adjudicator.Pos{X: x, Y: y})
		}
	}
	for y := 0; y < b.H; y++ {
		for x := 0; x < b.W; x++ {
			q := adjudicator.Pos{X: x, Y: y}
			if s := b.At(q); s.Laser.Beams > 0 {
				p.emitter(cv, q, s.Laser)
			}
		}
	}
	p.walls(cv)
	p.edgeTiles(cv)
	// Register digits over the walls, in a corner no wall of the square covers.
	for y := 0; y < b.H; y++ {
		for x := 0; x < b.W; x++ {
			q := adjudicator.Pos{X: x, Y: y}
			s := b.At(q)
			if s.Floor == adjudicator.FloorPit {
				continue
			}
			switch {
			case s.Pusher.Registers != 0:
				p.registers(cv, q, s.Pusher.Registers, s.Pusher.Dir)
			case s.Crusher != 0:
				d := adjudicator.East // ahead-right of east: the box goes bottom right
				if s.Belt.Kind != adjudicator.NoBelt {
					d = s.Belt.Dir.Back()
				}
				p.registers(cv, q, s.Crusher, d)
			case s.Flamer != 0:
				p.registers(cv, q, s.Flamer, adjudicator.East)
			case s.Stomper != 0 && s.Stomper != allRegisters:
				p.registers(cv, q, s.Stomper, adjudicator.East)
			case s.Door.Side != 0:
				p.registers(cv, q, s.Door.Open, adjudicator.Dir(s.Door.Side-1).Back())
			}
		}
	}
	for y := 0; y < b.H; y++ {
		for x := 0; x < b.W; x++ {
			q := adjudicator.Pos{X: x, Y: y}
			if n := p.flagAt(q); n > 0 {
				p.flag(cv, q, n)
			}
		}
	}
	if p.l.legendRows > 0 {
		cv.rect(0, l.legendY-2, l.width, l.total, cLegend)
	}
}

func (p *painter) flagAt(q adjudicator.Pos) int {
	if n := p.c.FlagAt(q); n > 0 {
		return n
	}
	return p.b.At(q).Flag
}

func (p *painter) startAt(q adjudicator.Pos) int {
	for i, s := range p.c.Starts {
		if s.Pos == q {
			return i + 1
		}
	}
	return p.b.At(q).Start
}

// square draws the floor of one square and the elements that lie on it.
func (p *painter) square(cv canvas, q adjudicator.Pos) {
	x0, y0, x1, y1 := p.l.cellRect(q)
	s := p.b.At(q)
	if s.Floor == adjudicator.FloorPit {
		cv.rect(x0, y0, x1, y1, cPitEdge)
		cv.rect(x0+2, y0+2, x1-2, y1-2, cPit)
		if s.Drain {
			p.drain(cv, q) // armed.go
		}
		return
	}
	cv.rect(x0, y0, x1, y1, cFloorEdge)
	switch {
	case s.Level > 0:
		cv.rect(x0+1, y0+1, x1, y1, cHigh) // an upper level (tiles.go draws its ledges)
	case p.own && p.dockAt(q):
		cv.rect(x0+1, y0+1, x1, y1, cDock) // the docking bay (rules2023.go)
	default:
		cv.rect(x0+1, y0+1, x1, y1, cFloor)
	}
	p.floorTiles(cv, q, s)
	p.armedFloor(cv, q, s)
	if n := p.startAt(q); n > 0 {
		p.start(cv, q, n)
	}
	if s.Repair > 0 {
		p.repair(cv, q, s.Repair)
	}
	if s.Battery {
		p.battery(cv, q) // rules2023.go
	}
	if s.Reboot.On {
		p.rebootToken(cv, q, s.Reboot.Dir)
	}
	if s.Belt.Kind != adjudicator.NoBelt {
		p.belt(cv, q, s.Belt)
	}
}

// machine draws the elements that stand over a laser's beam: gears, pushers, crushers.
func (p *painter) machine(cv canvas, q adjudicator.Pos) {
	s := p.b.At(q)
	if s.Floor == adjudicator.FloorPit {
		return
	}
	if s.Gear != adjudicator.NoRotation {
		p.gear(cv, q, s.Gear)
	}
	if s.Pusher.Registers != 0 {
		p.pusher(cv, q, s.Pusher)
	}
	if s.Crusher != 0 {
		p.crusher(cv, q, s.Crusher, s.Belt)
	}
	p.tileMachines(cv, q, s)
}

func (p *painter) start(cv canvas, q adjudicator.Pos, n int) {
	x0, y0, x1, y1 := p.l.cellRect(q)
	cv.rect(x0+3, y0+3, x1-2, y1-2, cStart)
	cv.frame(x0+3, y0+3, x1-2, y1-2, 1, cInk)
	s := fmt.Sprint(n)
	cv.text(x0+(p.l.cs-7*len(s))/2+1, y0+(p.l.cs-13)/2+1, s, cInk, 0)
}

// repair draws a repair site: a green disc with one wrench, or two crossed for a double
// wrench (seed 003, Repair Sites).
func (p *painter) repair(cv canvas, q adjudicator.Pos, n int) {
	cx, cy := p.l.centre(q)
	cs := float64(p.l.cs)
	cv.disc(cx, cy, cs*0.42, cRepair)
	wrench := func(a float64) {
		dx, dy := math.Cos(a)*cs*0.27, math.Sin(a)*cs*0.27
		cv.line(cx-dx, cy-dy, cx+dx, cy+dy, math.Max(2, cs/10), cWhite)
		// The jaw: a ring open towards the end of the handle.
		hx, hy := cx+dx*1.05, cy+dy*1.05
		cv.disc(hx, hy, cs*0.11, cWhite)
		cv.disc(hx+math.Cos(a)*cs*0.06, hy+math.Sin(a)*cs*0.06, cs*0.06, cRepair)
	}
	if n >= 2 {
		wrench(-math.Pi / 4)
		wrench(-3 * math.Pi / 4)
		return
	}
	wrench(-math.Pi / 4)
}

// belt draws a conveyor belt: a yellow band with a dark arrow (green under the 2023
// rules, seed 004's green belts), or for an express belt (seed 004's blue belts) a blue
// band with a double white arrow; a curve's arrow bends in from each side that
// turns the robots it carries (seed 003, Turning Conveyor Belts).
func (p *painter) belt(cv canvas, q adjudicator.Pos, bt adjudicator.Belt) {
	x0, y0, x1, y1 := p.l.cellRect(q)
	band, ink := uint8(cBelt), uint8(cBeltInk)
	switch {
	case bt.Kind == adjudicator.BeltExpress:
		band, ink = cExpress, cExpressInk
	case p.own:
		band, ink = cGreenBelt, cGreenBeltInk // seed 004: green belts move 1
	}
	cv.rect(x0+2, y0+2, x1-1, y1-1, band)
	cs := float64(p.l.cs)
	cx, cy := p.l.centre(q)
	ux, uy := unit(bt.Dir)
	w := math.Max(2, cs/9)
	// The head.
	head := func(at float64) {
		tx, ty := cx+ux*at, cy+uy*at
		bx, by := tx-ux*cs*0.2, ty-uy*cs*0.2
		px, py := -uy*cs*0.2, ux*cs*0.2
		cv.poly(ink, [2]float64{tx, ty}, [2]float64{bx + px, by + py}, [2]float64{bx - px, by - py})
	}
	front := cs * 0.42
	head(front)
	if bt.Kind == adjudicator.BeltExpress {
		head(front - cs*0.22)
	}
	curved := false
	for d := adjudicator.North; d <= adjudicator.West; d++ {
		if !bt.TurnFrom.Has(d) || d == bt.Dir || d == bt.Dir.Back() {
			continue
		}
		curved = true
		// A quarter circle from the middle of side d to the middle of the front side,
		// centred on the corner the two sides share.
		dx, dy := unit(d)
		ccx, ccy := cx+(dx+ux)*cs/2, cy+(dy+uy)*cs/2
		r := cs / 2
		a := math.Atan2(cy-ccy, cx-ccx)
		cv.fill(float64(x0), float64(y0), float64(x1), float64(y1), ink, func(x, y float64) bool {
			dd := math.Hypot(x-ccx, y-ccy)
			if math.Abs(dd-r) > w/2 {
				return false
			}
			da := math.Abs(math.Remainder(math.Atan2(y-ccy, x-ccx)-a, 2*math.Pi))
			return da <= math.Pi/4+0.05 && (x-cx)*ux+(y-cy)*uy <= front-cs*0.18
		})
	}
	// The straight shaft, unless this is a curve fed only from the side.
	behind := q.Step(bt.Dir.Back())
	fed := p.b.In(behind) && p.b.At(behind).Belt.Kind != adjudicator.NoBelt && p.b.At(behind).Belt.Dir == bt.Dir
	if !curved || fed || bt.TurnFrom.Has(bt.Dir.Back()) {
		cv.line(cx-ux*cs*0.42, cy-uy*cs*0.42, cx+ux*(front-cs*0.18), cy+uy*(front-cs*0.18), w, ink)
	}
}

// gear draws a cog, red turning left, green turning right, with a white arc arrow
// showing the way it turns (from 40-pixel squares up) and the letter L or R in the middle
// (seed 003, Gears).
func (p *painter) gear(cv canvas, q adjudicator.Pos, g adjudicator.Rotation) {
	cx, cy := p.l.centre(q)
	cs := float64(p.l.cs)
	col := uint8(cGearR)
	if g == adjudicator.TurnLeft {
		col = cGearL
	}
	rin, rout := cs*0.34, cs*0.45
	cv.fill(cx-rout, cy-rout, cx+rout, cy+rout, col, func(x, y float64) bool {
		d := math.Hypot(x-cx, y-cy)
		if d <= rin {
			return true
		}
		if d > rout {
			return false
		}
		a := math.Atan2(y-cy, x-cx) + math.Pi
		return math.Mod(a*8/(2*math.Pi), 1) < 0.5
	})
	// The way it turns as a letter in the middle, bold: L or R; from 40-pixel squares
	// up, inside a 270° arc arrow (smaller, the arc crowds the letter).
	letter := "R"
	if g == adjudicator.TurnLeft {
		letter = "L"
	}
	lx, ly := int(math.Round(cx-3.5)), int(math.Round(cy-6.5))
	cv.text(lx, ly, letter, cWhite, 0)
	cv.text(lx+1, ly, letter, cWhite, 0)
	if cs < 40 {
		return
	}
	r := cs * 0.29
	w := math.Max(2, cs/12)
	// 270° of arc; the head at the arc's end, pointing along the turn.
	var end float64
	if g == adjudicator.TurnRight {
		cv.arc(cx, cy, r, w, -math.Pi/2, math.Pi, cWhite) // from north clockwise to west
		end = math.Pi
	} else {
		cv.arc(cx, cy, r, w, 0, 3*math.Pi/2, cWhite) // from east clockwise to north, drawn as left
		end = 0
	}
	ex, ey := cx+math.Cos(end)*r, cy+math.Sin(end)*r
	// Tangent in the direction of travel.
	tx, ty := -math.Sin(end), math.Cos(end)
	if g == adjudicator.TurnLeft {
		tx, ty = -tx, -ty
	}
	h := cs * 0.17
	nx, ny := -ty, tx
	cv.poly(cWhite, [2]float64{ex + tx*h*1.3, ey + ty*h*1.3}, [2]float64{ex + nx*h, ey + ny*h}, [2]float64{ex - nx*h, ey - ny*h})
}

// pusher draws a pusher's plate on the side it pushes from, with the registers it is
// active in as small digits (seed 003, Pushers).
func (p *painter) pusher(cv canvas, q adjudicator.Pos, ps adjudicator.Pusher) {
	cx, cy := p.l.centre(q)
	cs := float64(p.l.cs)
	ux, uy := unit(ps.Dir)
	// The plate stands against the back edge.
	bx, by := cx-ux*cs*0.4, cy-uy*cs*0.4
	px, py := -uy, ux
	half, depth := cs*0.42, cs*0.2
	cv.poly(cPusher,
		[2]float64{bx + px*half, by + py*half}, [2]float64{bx + px*half + ux*depth, by + py*half + uy*depth},
		[2]float64{bx - px*half + ux*depth, by - py*half + uy*depth}, [2]float64{bx - px*half, by - py*half})
	cv.line(bx+ux*depth, by+uy*depth, cx+ux*cs*0.05, cy+uy*cs*0.05, math.Max(3, cs/6), cPusher)
	tip := cs * 0.3
	h := cs * 0.2
	cv.poly(cPusher, [2]float64{cx + ux*tip, cy + uy*tip},
		[2]float64{cx + px*h, cy + py*h}, [2]float64{cx - px*h, cy - py*h})
	cv.line(bx+px*half, by+py*half, bx-px*half, by-py*half, 2, cInk)
}

// registers prints a register set ("135") as small digits on a white box with a dark
// rim in a corner of the square, drawn after the walls: the first corner, in order
// ahead-right, ahead-left, behind-right, behind-left of direction d (for a pusher, the
// way it pushes: away from the wall its plate stands on), whose two sides carry no
// wall, and kept clear of the wall bars' width in any case.
func (p *painter) registers(cv canvas, q adjudicator.Pos, set adjudicator.RegisterSet, d adjudicator.Dir) image.Rectangle {
	s := ""
	for r := 1; r <= adjudicator.Registers; r++ {
		if set.Has(r) {
			s += fmt.Sprint(r)
		}
	}
	k := 1
	if p.l.cs >= 40 {
		k = 2
	}
	w, h := tinyWidth(s, k), 5*k
	x0, y0, x1, y1 := p.l.cellRect(q)
	right := d.Right()
	corners := [][2]adjudicator.Dir{{d, right}, {d, right.Back()}, {d.Back(), right}, {d.Back(), right.Back()}}
	pick := corners[0]
	for _, c := range corners {
		if !p.b.Blocked(q, c[0]) && !p.b.Blocked(q, c[1]) {
			pick = c
			break
		}
	}
	inset := p.wallWidth() - p.wallWidth()/2 + 2
	x, y := x0+inset, y0+inset
	for _, side := range pick {
		switch side {
		case adjudicator.East:
			x = x1 - w - inset
		case adjudicator.South:
			y = y1 - h - inset
		}
	}
	cv.rect(x-2, y-2, x+w+2, y+h+2, cInk)
	cv.rect(x-1, y-1, x+w+1, y+h+1, cWhite)
	cv.tiny(x, y, s, k, cInk)
	return image.Rect(x-1, y-1, x+w+1, y+h+1)
}

// crusher draws a crusher's teeth along two sides and its registers (seed 003,
// Crushers). On a belt the teeth run along the belt's sides.
func (p *painter) crusher(cv canvas, q adjudicator.Pos, set adjudicator.RegisterSet, bt adjudicator.Belt) {
	x0, y0, x1, y1 := p.l.cellRect(q)
	cs := float64(p.l.cs)
	fx0, fy0, fx1, fy1 := float64(x0+1), float64(y0+1), float64(x1), float64(y1)
	along := bt.Kind != adjudicator.NoBelt && (bt.Dir == adjudicator.North || bt.Dir == adjudicator.South)
	if bt.Kind == adjudicator.NoBelt {
		cv.rect(x0+3, y0+3, x1-2, y1-2, cFloorEdge)
	}
	n := 4
	t := cs / float64(n)
	depth := cs * 0.24
	for i := 0; i < n; i++ {
		a := float64(i) * t
		if along {
			// Teeth on the west and east sides.
			cv.poly(cCrusher, [2]float64{fx0, fy0 + a}, [2]float64{fx0 + depth, fy0 + a + t/2}, [2]float64{fx0, fy0 + a + t})
			cv.poly(cCrusher, [2]float64{fx1, fy0 + a}, [2]float64{fx1 - depth, fy0 + a + t/2}, [2]float64{fx1, fy0 + a + t})
		} else {
			cv.poly(cCrusher, [2]float64{fx0 + a, fy0}, [2]float64{fx0 + a + t/2, fy0 + depth}, [2]float64{fx0 + a + t, fy0})
			cv.poly(cCrusher, [2]float64{fx0 + a, fy1}, [2]float64{fx0 + a + t/2, fy1 - depth}, [2]float64{fx0 + a + t, fy1})
		}
	}
}

// beamPath is the squares a board laser's beam covers on an empty board: the emitter's
// square first, to the first wall, level edge or the board's edge (seed 003, Lasers;
// seed 001, Levels).
func beamPath(b *adjudicator.Board, at adjudicator.Pos, d adjudicator.Dir) []adjudicator.Pos {
	var path []adjudicator.Pos
	for q := at; b.In(q); q = q.Step(d) {
		path = append(path, q)
		if b.BeamStops(q, d) {
			break
		}
	}
	return path
}

// beams draws every board laser's beam as thin red lines, one per beam.
func (p *painter) beams(cv canvas) {
	for y := 0; y < p.b.H; y++ {
		for x := 0; x < p.b.W; x++ {
			q := adjudicator.Pos{X: x, Y: y}
			l := p.b.At(q).Laser
			if l.Beams <= 0 || l.Dir > adjudicator.West {
				continue
			}
			path := beamPath(p.b, q, l.Dir)
			p.beam(cv, q, path[len(path)-1], l, false, false)
		}
	}
}

// beam draws a laser's beams from the emitter at e to square last: to the far edge of
// last, or to its middle when stop (a robot stands there). A live beam (one firing now)
// is thick with a yellow core.
func (p *painter) beam(cv canvas, e, last adjudicator.Pos, l adjudicator.Laser, live, stop bool) {
	cs := float64(p.l.cs)
	ux, uy := unit(l.Dir)
	sx, sy := p.l.centre(e)
	sx, sy = sx-ux*cs*0.35, sy-uy*cs*0.35
	tx, ty := p.l.centre(last)
	if !stop {
		tx, ty = tx+ux*cs*0.5, ty+uy*cs*0.5
	}
	n := min(max(l.Beams, 1), 3)
	gap := math.Max(3, cs/8)
	if live {
		gap = math.Max(4, cs/6)
	}
	for i := 0; i < n; i++ {
		off := (float64(i) - float64(n-1)/2) * gap
		px, py := -uy*off, ux*off
		if live {
			cv.line(sx+px, sy+py, tx+px, ty+py, 3, cBeam)
			cv.line(sx+px, sy+py, tx+px, ty+py, 1, cHit)
		} else {
			cv.line(sx+px, sy+py, tx+px, ty+py, 1, cBeam)
		}
	}
}

// emitter draws a laser mount on the wall behind the square: a dark red block with one
// nozzle per beam.
func (p *painter) emitter(cv canvas, q adjudicator.Pos, l adjudicator.Laser) {
	cs := float64(p.l.cs)
	cx, cy := p.l.centre(q)
	ux, uy := unit(l.Dir)
	px, py := -uy, ux
	bx, by := cx-ux*cs*0.5, cy-uy*cs*0.5
	half, depth := cs*0.3, cs*0.2
	cv.poly(cLaser,
		[2]float64{bx + px*half, by + py*half}, [2]float64{bx + px*half + ux*depth, by + py*half + uy*depth},
		[2]float64{bx - px*half + ux*depth, by - py*half + uy*depth}, [2]float64{bx - px*half, by - py*half})
	n := min(max(l.Beams, 1), 3)
	gap := math.Max(3, cs/8)
	for i := 0; i < n; i++ {
		off := (float64(i) - float64(n-1)/2) * gap
		ox, oy := bx+ux*depth+px*off, by+uy*depth+py*off
		cv.line(ox, oy, ox+ux*cs*0.1, oy+uy*cs*0.1, 2, cLaser)
	}
}

// wallWidth is the thickness of a wall bar, centred on its edge.
func (p *painter) wallWidth() int { return max(4, p.l.cs/6) }

// walls draws every wall as a thick orange bar along its edge.
func (p *painter) walls(cv canvas) {
	t := p.wallWidth()
	for y := 0; y < p.b.H; y++ {
		for x := 0; x < p.b.W; x++ {
			q := adjudicator.Pos{X: x, Y: y}
			x0, y0, x1, y1 := p.l.cellRect(q)
			for d := adjudicator.North; d <= adjudicator.West; d++ {
				if !p.b.Blocked(q, d) {
					continue
				}
				var r image.Rectangle
				switch d {
				case adjudicator.North:
					r = image.Rect(x0-t/2, y0-t/2, x1+t/2, y0+t-t/2)
				case adjudicator.South:
					r = image.Rect(x0-t/2, y1-t/2, x1+t/2, y1+t-t/2)
				case adjudicator.West:
					r = image.Rect(x0-t/2, y0-t/2, x0+t-t/2, y1+t/2)
				case adjudicator.East:
					r = image.Rect(x1-t/2, y0-t/2, x1+t-t/2, y1+t/2)
				}
				cv.rect(r.Min.X-1, r.Min.Y-1, r.Max.X+1, r.Max.Y+1, cWallEdge)
			}
		}
	}
	// The bars over their edges, so that crossing walls join cleanly.
	for y := 0; y < p.b.H; y++ {
		for x := 0; x < p.b.W; x++ {
			q := adjudicator.Pos{X: x, Y: y}
			x0, y0, x1, y1 := p.l.cellRect(q)
			for d := adjudicator.North; d <= adjudicator.West; d++ {
				if !p.b.Blocked(q, d) {
					continue
				}
				switch d {
				case adjudicator.North:
					cv.rect(x0-t/2, y0-t/2, x1+t/2, y0+t-t/2, cWall)
				case adjudicator.South:
					cv.rect(x0-t/2, y1-t/2, x1+t/2, y1+t-t/2, cWall)
				case adjudicator.West:
					cv.rect(x0-t/2, y0-t/2, x0+t-t/2, y1+t/2, cWall)
				case adjudicator.East:
					cv.rect(x1-t/2, y0-t/2, x1+t-t/2, y1+t/2, cWall)
				}
			}
		}
	}
}

// flag draws flag n: a pole and pennant with the number on a gold disc.
func (p *painter) flag(cv canvas, q adjudicator.Pos, n int) {
	x0, y0, _, _ := p.l.cellRect(q)
	cs := float64(p.l.cs)
	cx, cy := p.l.centre(q)
	cv.disc(cx, cy, cs*0.46, cInk)
	cv.disc(cx, cy, cs*0.46-2, cFlag)
	s := fmt.Sprint(n)
	cv.text(x0+(p.l.cs-7*len(s))/2+1, y0+(p.l.cs-13)/2+1, s, cInk, 0)
}
