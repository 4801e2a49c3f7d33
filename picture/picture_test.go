package picture

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/draw"
	"image/gif"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/golden")

func loadCourse(t testing.TB, name string) *adjudicator.Course {
	t.Helper()
	c, err := adjudicator.LoadCourse(name)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// fixtureRobots puts robots of every kind on sprint's start squares: real, virtual,
// powered down, two sharing a square, one destroyed (not drawn).
func fixtureRobots(c *adjudicator.Course) []adjudicator.Robot {
	names := []string{"Zoom", "Blue", "Hammer", "Twitch", "Spin"}
	var rs []adjudicator.Robot
	for i, n := range names {
		rs = append(rs, adjudicator.Robot{Name: n, Pos: c.Starts[i].Pos, Facing: adjudicator.Dir(i % 4), Lives: 3, Damage: i})
	}
	rs[1].Virtual = true
	rs[2].Power = adjudicator.PowerDown
	rs[3].Pos = rs[0].Pos // shares Zoom's square
	rs[3].Virtual = true
	rs[4].Destroyed = true
	return rs
}

// samePixels compares two images colour by colour and reports the first difference.
func samePixels(t *testing.T, name string, got, want image.Image) {
	t.Helper()
	if got.Bounds() != want.Bounds() {
		t.Fatalf("%s: size %v, want %v", name, got.Bounds(), want.Bounds())
	}
	b := got.Bounds()
	diff, first := 0, image.Point{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r1, g1, b1, a1 := got.At(x, y).RGBA()
			r2, g2, b2, a2 := want.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				if diff == 0 {
					first = image.Pt(x, y)
				}
				diff++
			}
		}
	}
	if diff > 0 {
		t.Errorf("%s: %d pixels differ from the golden image, first at %v (run go test ./picture -update to accept)", name, diff, first)
	}
}

func TestCourseGolden(t *testing.T) {
	for _, tc := range []struct {
		course string
		robots bool
	}{{"sprint", true}, {"stampede", false}, {"long-haul", false}} {
		t.Run(tc.course, func(t *testing.T) {
			c := loadCourse(t, tc.course)
			var rs []adjudicator.Robot
			if tc.robots {
				rs = fixtureRobots(c)
			}
			img := Course(c, rs, Options{})
			path := filepath.Join("testdata", "golden", tc.course+".png")
			if *update {
				var buf bytes.Buffer
				if err := PNG(&buf, img); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			want, err := png.Decode(f)
			if err != nil {
				t.Fatal(err)
			}
			samePixels(t, path, img, want)
		})
	}
}

// turnFixture is a hand-written turn on sprint, independent of the engine's choices:
// the reveal of two cards, a move with a push, a turn, a belt, a gear, a board laser
// hit and a robot laser hit, a flag, a fall and the end of turn.
func turnFixture(c *adjudicator.Course) ([]adjudicator.Robot, []adjudicator.Event) {
	pos := func(x, y int) *adjudicator.Pos { return &adjudicator.Pos{X: x, Y: y} }
	dir := func(d adjudicator.Dir) *adjudicator.Dir { return &d }
	robots := []adjudicator.Robot{
		{Name: "Zoom", Pos: adjudicator.Pos{X: 5, Y: 5}, Facing: adjudicator.North, Lives: 3},
		{Name: "Blue", Pos: adjudicator.Pos{X: 5, Y: 4}, Facing: adjudicator.East, Lives: 3},
		{Name: "Hammer", Pos: adjudicator.Pos{X: 8, Y: 4}, Facing: adjudicator.East, Lives: 3, Virtual: true},
	}
	ev := func(reg int, phase, kind, robot string) adjudicator.Event {
		return adjudicator.Event{Register: reg, Phase: phase, Kind: kind, Robot: robot}
	}
	var events []adjudicator.Event
	add := func(e adjudicator.Event, f func(*adjudicator.Event)) {
		if f != nil {
			f(&e)
		}
		events = append(events, e)
	}
	add(ev(1, "move", adjudicator.EvCard, "Zoom"), func(e *adjudicator.Event) { e.Card = 670 })
	add(ev(1, "move", adjudicator.EvCard, "Hammer"), func(e *adjudicator.Event) { e.Card = 90 })
	add(ev(1, "move", adjudicator.EvCard, "Zoom"), func(e *adjudicator.Event) { e.Card = 670 })
	add(ev(1, "move", adjudicator.EvPush, "Blue"), func(e *adjudicator.Event) { e.Other, e.From, e.To = "Zoom", pos(5, 4), pos(5, 3) })
	add(ev(1, "move", adjudicator.EvMove, "Zoom"), func(e *adjudicator.Event) { e.Card, e.From, e.To = 670, pos(5, 5), pos(5, 4) })
	add(ev(1, "move", adjudicator.EvBlocked, "Zoom"), func(e *adjudicator.Event) { e.From, e.Cause = pos(5, 4), "wall" })
	add(ev(1, "move", adjudicator.EvCard, "Hammer"), func(e *adjudicator.Event) { e.Card = 90 })
	add(ev(1, "move", adjudicator.EvTurn, "Hammer"), func(e *adjudicator.Event) { e.Card, e.Facing = 90, dir(adjudicator.North) })
	add(ev(1, "belts", adjudicator.EvConveyed, "Blue"), func(e *adjudicator.Event) { e.From, e.To = pos(5, 3), pos(5, 2) })
	add(ev(1, "lasers", adjudicator.EvDamage, "Zoom"), func(e *adjudicator.Event) { e.Amount, e.Cause, e.Other = 1, "robot-laser", "Blue" })
	add(ev(1, "lasers", adjudicator.EvDamage, "Hammer"), func(e *adjudicator.Event) { e.Amount, e.Cause = 1, "laser" })
	add(ev(2, "move", adjudicator.EvCard, "Blue"), func(e *adjudicator.Event) { e.Card = 500 })
	add(ev(2, "move", adjudicator.EvMove, "Blue"), func(e *adjudicator.Event) { e.Card, e.From, e.To = 500, pos(5, 2), pos(6, 2) })
	add(ev(2, "move", adjudicator.EvMove, "Blue"), func(e *adjudicator.Event) { e.Card, e.From, e.To = 500, pos(6, 2), pos(7, 2) })
	add(ev(2, "move", adjudicator.EvCard, "Hammer"), func(e *adjudicator.Event) { e.Card = 480 })
	add(ev(2, "move", adjudicator.EvMove, "Hammer"), func(e *adjudicator.Event) { e.Card, e.From, e.To = 480, pos(8, 4), pos(8, 5) })
	add(ev(2, "move", adjudicator.EvDestroyed, "Hammer"), func(e *adjudicator.Event) { e.From, e.Cause = pos(8, 5), "pit" })
	add(ev(2, "flags", adjudicator.EvFlag, "Zoom"), func(e *adjudicator.Event) { e.Amount, e.To = 1, pos(5, 4) })
	add(ev(0, "end", adjudicator.EvRepair, "Zoom"), func(e *adjudicator.Event) { e.Amount = 1 })
	add(ev(0, "end", adjudicator.EvReenter, "Hammer"), func(e *adjudicator.Event) { e.To, e.Facing, e.Amount = pos(1, 4), dir(adjudicator.East), 2 })
	add(ev(0, "deal", adjudicator.EvDeal, "Zoom"), func(e *adjudicator.Event) { e.Amount = 9 })
	return robots, events
}

func TestSteps(t *testing.T) {
	c := loadCourse(t, "sprint")
	_, events := turnFixture(c)
	steps := Steps(events, nil)
	want := []string{
		"Register 1 — P670 Zoom: Move 2; pushes Blue, blocked by a wall",
		"Register 1 — P90 Hammer: Rotate Left",
		"Register 1 — conveyor belts: Blue",
		"Register 1 — lasers: Zoom hit 1 by Blue, Hammer hit 1 by board",
		"Register 2 — P500 Blue: Move 1",
		"Register 2 — P480 Hammer: Back Up; Hammer destroyed (pit)",
		"Register 2 — flags: Zoom touches flag 1",
		"End of turn: Zoom repairs 1, Hammer re-enters at 1,4",
	}
	var got []string
	for _, s := range steps {
		got = append(got, s.Caption)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("captions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	n := 0
	for _, s := range steps {
		n += len(s.Events)
	}
	// Every event but the two revealed cards and the deal lands in a step.
	if n != len(events)-3 {
		t.Errorf("%d events in steps, want %d", n, len(events)-3)
	}
}

func TestStepsWithoutReveal(t *testing.T) {
	// An engine that reveals each card only as it is played: no card is dropped.
	events := []adjudicator.Event{
		{Register: 1, Phase: "move", Kind: adjudicator.EvCard, Robot: "A", Card: 700},
		{Register: 1, Phase: "move", Kind: adjudicator.EvTurn, Robot: "A", Card: 700},
		{Register: 1, Phase: "move", Kind: adjudicator.EvCard, Robot: "B", Card: 100},
	}
	steps := Steps(events, nil)
	if len(steps) != 2 || steps[0].Robot != "A" || steps[1].Robot != "B" || len(steps[0].Events) != 2 {
		t.Errorf("steps = %+v", steps)
	}
}

// composite decodes a GIF and plays its frames (disposal none) into full pictures.
func composite(t *testing.T, data []byte) ([]*image.RGBA, *gif.GIF) {
	t.Helper()
	g, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	canvasImg := image.NewRGBA(image.Rect(0, 0, g.Config.Width, g.Config.Height))
	var out []*image.RGBA
	for _, f := range g.Image {
		draw.Draw(canvasImg, f.Bounds(), f, f.Bounds().Min, draw.Over)
		c := image.NewRGBA(canvasImg.Rect)
		copy(c.Pix, canvasImg.Pix)
		out = append(out, c)
	}
	return out, g
}

func TestTurnGIFGolden(t *testing.T) {
	c := loadCourse(t, "sprint")
	robots, events := turnFixture(c)
	frames := TurnFrames(c, robots, events, Options{Turn: 4})
	if len(frames) != 1+len(Steps(events, nil)) {
		t.Fatalf("%d frames for %d steps", len(frames), len(Steps(events, nil)))
	}
	var buf bytes.Buffer
	if err := EncodeFrames(&buf, frames, Options{}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "golden", "turn-sprint.gif")
	if *update {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The deltas add up to the frames drawn.
	got, _ := composite(t, buf.Bytes())
	for k := range frames {
		samePixels(t, fmt.Sprintf("frame %d composed from deltas", k), got[k], frames[k].Image)
	}
	golden, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, g := composite(t, golden)
	if len(want) != len(got) {
		t.Fatalf("%d frames, golden has %d", len(got), len(want))
	}
	for k := range want {
		samePixels(t, fmt.Sprintf("%s frame %d (%s)", path, k, frames[k].Caption), got[k], want[k])
	}
	if g.LoopCount != 0 || len(g.Delay) != len(frames) || g.Delay[0] <= g.Delay[1] {
		t.Errorf("loop %d, delays %v", g.LoopCount, g.Delay)
	}
}

// cell returns the palette indexes in square p of a picture.
func cell(img *image.Paletted, c *adjudicator.Course, p adjudicator.Pos, n int) map[uint8]int {
	l := newLayout(c.Board, n, Options{}.cell(), 0, false)
	x0, y0, x1, y1 := l.cellRect(p)
	out := map[uint8]int{}
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			out[img.ColorIndexAt(x, y)]++
		}
	}
	return out
}

func TestRobotKindsLookDifferent(t *testing.T) {
	c := loadCourse(t, "sprint")
	at := adjudicator.Pos{X: 6, Y: 6}
	draw := func(mod func(*adjudicator.Robot)) *image.Paletted {
		r := adjudicator.Robot{Name: "Zoom", Pos: at, Facing: adjudicator.East, Lives: 3}
		if mod != nil {
			mod(&r)
		}
		return Course(c, []adjudicator.Robot{r}, Options{})
	}
	real := draw(nil)
	virtual := draw(func(r *adjudicator.Robot) { r.Virtual = true })
	down := draw(func(r *adjudicator.Robot) { r.Power = adjudicator.PowerDown })
	north := draw(func(r *adjudicator.Robot) { r.Facing = adjudicator.North })
	empty := Course(c, nil, Options{})
	count := func(img *image.Paletted, col uint8) int { return cell(img, c, at, 1)[col] }

	if count(real, cRobot0) < 100 {
		t.Errorf("a real robot shows %d pixels of its seat colour, want a filled disc", count(real, cRobot0))
	}
	if v := count(virtual, cTint0); v < 50 || count(virtual, cRobot0) >= count(real, cRobot0) {
		t.Errorf("a virtual robot: %d tint pixels, %d seat pixels (real: %d): want hollow", v, count(virtual, cRobot0), count(real, cRobot0))
	}
	if g := count(down, cGrey); g < 50 || count(real, cGrey) != 0 {
		t.Errorf("a powered-down robot shows %d grey pixels (real: %d)", g, count(real, cGrey))
	}
	if bytes.Equal(real.Pix, north.Pix) {
		t.Error("facing north and east draw the same pixels")
	}
	if count(empty, cRobot0) != 0 {
		t.Error("no robot, yet seat colour on the square")
	}
}

func TestSeatColours(t *testing.T) {
	c := loadCourse(t, "stampede")
	var rs []adjudicator.Robot
	for i := 0; i < 8; i++ {
		rs = append(rs, adjudicator.Robot{Name: fmt.Sprintf("R%d", i), Pos: c.Starts[i].Pos, Lives: 3})
	}
	img := Course(c, rs, Options{})
	for i, r := range rs {
		if n := cell(img, c, r.Pos, len(rs))[uint8(cRobot0+i)]; n < 100 {
			t.Errorf("robot %d at %v: %d pixels of seat colour %d", i, r.Pos, n, i)
		}
	}
	// Deterministic: the same input draws the same pixels.
	if again := Course(c, rs, Options{}); !bytes.Equal(img.Pix, again.Pix) {
		t.Error("two drawings of the same course differ")
	}
}

func TestLabels(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  string
	}{
		{[]string{"zoom", "Blue"}, "ZB"},
		{[]string{"Zoom", "Zap"}, "AB"},
		{[]string{"Zoom", "-x"}, "ZX"},
		{[]string{"Zoom", "**"}, "AB"},
	} {
		var rs []adjudicator.Robot
		for _, n := range tc.names {
			rs = append(rs, adjudicator.Robot{Name: n})
		}
		if got := strings.Join(labels(rs), ""); got != tc.want {
			t.Errorf("labels(%v) = %q, want %q", tc.names, got, tc.want)
		}
	}
}

// TestDemoTurnGIF builds a typical 8-robot turn on stampede through the engine and
// checks the GIF: one frame per step, captions, under 1 MB.
func TestDemoTurnGIF(t *testing.T) {
	c := loadCourse(t, "stampede")
	d, err := DemoTurn(c, 8, 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	frames := TurnFrames(c, d.Before, d.Events, Options{Turn: d.Turn})
	steps := Steps(d.Events, nil)
	if len(frames) != len(steps)+1 {
		t.Fatalf("%d frames for %d steps", len(frames), len(steps))
	}
	cards := 0
	for k, s := range steps {
		if frames[k+1].Caption != s.Caption {
			t.Errorf("frame %d caption %q, step %q", k+1, frames[k+1].Caption, s.Caption)
		}
		if s.Card != 0 {
			cards++
			prefix := fmt.Sprintf("Register %d — P%d %s: ", s.Register, s.Card, s.Robot)
			if !strings.HasPrefix(s.Caption, prefix) {
				t.Errorf("caption %q, want it to start %q", s.Caption, prefix)
			}
		}
	}
	if cards < 20 {
		t.Errorf("only %d card steps in an 8-robot turn", cards)
	}
	var buf bytes.Buffer
	if err := EncodeFrames(&buf, frames, Options{}); err != nil {
		t.Fatal(err)
	}
	if buf.Len() >= 1<<20 {
		t.Errorf("the GIF is %d bytes, want under 1 MB", buf.Len())
	}
	t.Logf("8-robot turn %d on stampede: %d frames, %d bytes", d.Turn, len(frames), buf.Len())
	// The caption band changes with the caption.
	capRows := func(img *image.Paletted) []byte { return img.Pix[:captionH*img.Stride] }
	if bytes.Equal(capRows(frames[1].Image), capRows(frames[2].Image)) {
		t.Error("two different captions drew the same caption band")
	}
}

func BenchmarkTurnGIF(b *testing.B) {
	c := loadCourse(b, "stampede")
	d, err := DemoTurn(c, 8, 1, 3)
	if err != nil {
		b.Fatal(err)
	}
	var size int
	for b.Loop() {
		var buf bytes.Buffer
		if err := TurnGIF(&buf, c, d.Before, d.Events, Options{Turn: d.Turn}); err != nil {
			b.Fatal(err)
		}
		size = buf.Len()
	}
	b.ReportMetric(float64(size), "gif-bytes")
}

func BenchmarkCoursePNG(b *testing.B) {
	c := loadCourse(b, "stampede")
	var size int
	for b.Loop() {
		var buf bytes.Buffer
		if err := PNG(&buf, Course(c, nil, Options{})); err != nil {
			b.Fatal(err)
		}
		size = buf.Len()
	}
	b.ReportMetric(float64(size), "png-bytes")
}

// TestOddInputs: pictures of unusual input draw without panicking and keep their
// promises: sizes clamp, off-board robots and unknown names are skipped.
func TestOddInputs(t *testing.T) {
	c := loadCourse(t, "sprint")
	for _, cs := range []int{1, 16, 96, 500} {
		img := Course(c, fixtureRobots(c), Options{Cell: cs})
		want := Options{Cell: cs}.cell()
		if img.Rect.Dx() != marginL+c.Board.W*want+marginR {
			t.Errorf("cell %d: width %d", cs, img.Rect.Dx())
		}
	}
	off := []adjudicator.Robot{{Name: "Gone", Pos: adjudicator.Pos{X: -1, Y: 3}, Lives: 1}}
	if img := Course(c, off, Options{}); bytes.IndexByte(img.Pix[(captionH+marginT)*img.Stride:(img.Rect.Dy()-legendWordsH-legendKeyH-4)*img.Stride], cRobot0) >= 0 {
		t.Error("a robot off the board was drawn on it")
	}
	events := []adjudicator.Event{
		{Register: 1, Phase: "move", Kind: adjudicator.EvMove, Robot: "Nobody"},
		{Register: 1, Phase: "move", Kind: adjudicator.EvMove, Robot: "Gone"}, // no To
		{Register: 1, Phase: "lasers", Kind: adjudicator.EvDamage, Robot: "Gone", Other: "Nobody", Amount: 1},
	}
	if fr := TurnFrames(c, off, events, Options{}); len(fr) != 1+len(Steps(events, nil)) {
		t.Errorf("%d frames", len(fr))
	}
	if fr := TurnFrames(c, off, nil, Options{}); len(fr) != 1 || fr[0].Caption != "Before the registers" {
		t.Errorf("no events: %d frames", len(fr))
	}
	if err := EncodeFrames(io.Discard, nil, Options{}); err == nil {
		t.Error("no frames encoded without an error")
	}
}

// TestRegisterDigitsClearOfWalls: a pusher's register digits sit on their white box in
// full, away from the walls of the square (the wall bars once hid "2" of "24").
func TestRegisterDigitsClearOfWalls(t *testing.T) {
	b := adjudicator.NewBoard(4, 4)
	type pusher struct {
		at   adjudicator.Pos
		dir  adjudicator.Dir
		regs []int
	}
	ps := []pusher{
		{adjudicator.Pos{X: 1, Y: 1}, adjudicator.East, []int{2, 4}},
		{adjudicator.Pos{X: 2, Y: 2}, adjudicator.West, []int{1, 3, 5}},
		{adjudicator.Pos{X: 1, Y: 3}, adjudicator.North, []int{1, 3, 5}},
	}
	for _, pu := range ps {
		s := b.At(pu.at)
		s.Pusher.Dir = pu.dir
		for _, r := range pu.regs {
			s.Pusher.Registers = s.Pusher.Registers.With(r)
		}
		s.Walls = s.Walls.With(pu.dir.Back())
	}
	b.NormalizeWalls()
	c := &adjudicator.Course{Name: "t", Board: b}
	for _, cs := range []int{24, 28, 48} {
		p := newPainter(c, nil, Options{Cell: cs})
		img := p.base()
		for _, pu := range ps {
			box := p.registers(canvas{image.NewPaletted(img.Rect, img.Palette)}, pu.at, b.At(pu.at).Pusher.Registers, pu.dir)
			x0, y0, x1, y1 := p.l.cellRect(pu.at)
			clear := p.wallWidth() - p.wallWidth()/2
			inner := image.Rect(x0+clear, y0+clear, x1-clear, y1-clear)
			if !box.In(inner) {
				t.Errorf("cell %d: pusher at %v: digits box %v not inside the square clear of walls %v", cs, pu.at, box, inner)
			}
			ink := 0
			for y := box.Min.Y; y < box.Max.Y; y++ {
				for x := box.Min.X; x < box.Max.X; x++ {
					switch img.ColorIndexAt(x, y) {
					case cInk:
						ink++
					case cWhite:
					default:
						t.Fatalf("cell %d: pusher at %v: colour %d over the digits at %d,%d", cs, pu.at, img.ColorIndexAt(x, y), x, y)
					}
				}
			}
			if ink < 4*len(pu.regs) {
				t.Errorf("cell %d: pusher at %v: %d ink pixels in the digits box, want the digits", cs, pu.at, ink)
			}
		}
	}
}
