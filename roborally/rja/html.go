package rja

import (
	"bytes"
	"embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"slices"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/picture"
)

//go:embed html/replay.html
var htmlFiles embed.FS

// The picture package's layout of a course picture without robots: the board's top-left
// corner (TestHTMLLayoutMatchesPicture keeps these in step with package picture).
const (
	pictureLeft = 22
	pictureTop  = 36
)

// HTMLOptions set how WriteHTML draws. The zero value is the default.
type HTMLOptions struct {
	Cell int // square side in pixels (default 36)
}

// frame is one step of the page: the robots as the step leaves them, packed as
// [x, y, facing, damage, lives, flags, bits] (bits: 1 virtual, 2 powered down,
// 4 destroyed, 8 out), the caption, the robot acting (-1: none) and those hit.
type frame struct {
	Caption string   `json:"c"`
	Robots  [][7]int `json:"-"`
	Acting  int      `json:"a"`
	Hit     []int    `json:"h,omitempty"`
	// Beams are the lasers firing in a lasers step, each [x0, y0, x1, y1, dir, beams,
	// kind]: kind 0 a board laser from its emitter's square to the far edge of the last
	// square (a wall or the board's edge), kind 1 a board laser stopped by the robot on
	// the last square, kind 2 a robot's shot from the shooter's square to the target's.
	Beams [][7]int `json:"b,omitempty"`
	// On the page a turn's first frame carries every robot (R); each later frame only
	// the robots that changed since the frame before (Delta: [index, the seven values]).
	R     [][7]int `json:"r,omitempty"`
	Delta [][8]int `json:"d,omitempty"`
	// The 2023 rules: each robot's energy (-1: none) and installed upgrades. On the page
	// a turn's first frame carries them (E, U); a later frame only when they changed.
	Energy   []int      `json:"-"`
	Upgrades [][]string `json:"-"`
	E        []int      `json:"e,omitempty"`
	U        [][]string `json:"u,omitempty"`
	// Devices on the board (seed 001, Devices; packDevices), in full; V carries them only
	// in the frames where they changed ([[-1]]: none left).
	Devices [][7]int `json:"-"`
	V       [][7]int `json:"v,omitempty"`
}

// own fills a 2023 frame's energy and upgrades from robots.
func (f *frame) own(robots []adjudicator.Robot) {
	f.Energy = make([]int, len(robots))
	f.Upgrades = make([][]string, len(robots))
	for i, r := range robots {
		f.Energy[i] = -1
		if r.Mat != nil {
			f.Energy[i] = r.Mat.Energy
		}
		f.Upgrades[i] = append([]string{}, r.Options...)
	}
}

// compact fills R and Delta from Robots.
func compact(fs []frame) {
	for k := range fs {
		if fs[k].Energy != nil && (k == 0 || !slices.Equal(fs[k].Energy, fs[k-1].Energy)) {
			fs[k].E = fs[k].Energy
		}
		if fs[k].Upgrades != nil && (k == 0 || !slices.EqualFunc(fs[k].Upgrades, fs[k-1].Upgrades, slices.Equal)) {
			fs[k].U = fs[k].Upgrades
		}
		if k == 0 && len(fs[k].Devices) > 0 || k > 0 && !slices.Equal(fs[k].Devices, fs[k-1].Devices) {
			fs[k].V = fs[k].Devices
			if len(fs[k].V) == 0 {
				fs[k].V = [][7]int{{-1}}
			}
		}
		if k == 0 {
			fs[k].R = fs[k].Robots
			continue
		}
		for i, r := range fs[k].Robots {
			if i < len(fs[k-1].Robots) && r == fs[k-1].Robots[i] {
				continue
			}
			d := [8]int{i}
			copy(d[1:], r[:])
			fs[k].Delta = append(fs[k].Delta, d)
		}
	}
}

type pageTurn struct {
	N      int     `json:"n"`
	Frames []frame `json:"f"`
}

type pageData struct {
	Game   string     `json:"game"`
	Course string     `json:"course"`
	W      int        `json:"w"`
	H      int        `json:"h"`
	Cell   int        `json:"cell"`
	Left   int        `json:"left"`
	Top    int        `json:"top"`
	Robots []string   `json:"robots"`
	Flags  int        `json:"flags"`
	Turns  []pageTurn `json:"turns"`
	// Own: a game of the 2023 rules; the page shows energy, checkpoints and upgrades.
	Own bool `json:"own,omitempty"`
}

// WriteHTML replays the archive (every hash checked, as Replay) and writes one
// self-contained page that plays the game turn by turn and step by step: the course
// picture inline as a data: URI, the robots drawn on a canvas from inlined JSON, the
// player's controls in inline JavaScript. It needs no network. progress, if not nil,
// is called after each turn replayed.
func WriteHTML(w io.Writer, a *Archive, opt HTMLOptions, progress func(turn int)) error {
	setup, err := a.Setup()
	if err != nil {
		return err
	}
	cell := opt.Cell
	if cell == 0 {
		cell = 36
	}
	c := setup.Course
	data := pageData{Game: a.Game, Course: c.Name, W: c.Board.W, H: c.Board.H, Cell: cell,
		Left: pictureLeft, Top: pictureTop, Robots: a.Robots, Flags: len(c.Flags)}
	deck := setup.Deck
	data.Own = setup.Rules.Own()
	err = Replay(a, setup, -1, func(s Step) error {
		if progress != nil {
			progress(s.Turn)
		}
		if s.Turn == 0 {
			fs := []frame{{Caption: "The start", Robots: pack(s.After.Robots), Acting: -1, Devices: packDevices(s.After.Devices, s.After.Robots)}}
			if data.Own {
				fs[0].own(s.After.Robots)
			}
			compact(fs)
			data.Turns = append(data.Turns, pageTurn{N: 0, Frames: fs})
			return nil
		}
		fs := turnFrames(c.Board, s, deck)
		if !data.Own {
			for k := range fs {
				fs[k].Energy, fs[k].Upgrades = nil, nil
			}
		}
		compact(fs)
		data.Turns = append(data.Turns, pageTurn{N: s.Turn, Frames: fs})
		return nil
	})
	if err != nil {
		return err
	}
	var png bytes.Buffer
	img := picture.Course(c, nil, picture.Options{Cell: cell, Caption: fmt.Sprintf("%s — %s", a.Game, c.Name), Rules: setup.Rules.Name})
	if err := picture.PNG(&png, img); err != nil {
		return err
	}
	js, err := json.Marshal(data)
	if err != nil {
		return err
	}
	t, err := template.ParseFS(htmlFiles, "html/replay.html")
	if err != nil {
		return err
	}
	return t.Execute(w, map[string]any{
		"Title":  fmt.Sprintf("%s: %s, %d turns", a.Game, c.Name, len(a.Turns)-1),
		"Board":  template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(png.Bytes())),
		"Width":  img.Rect.Dx(),
		"Height": img.Rect.Dy(),
		"Data":   template.JS(js), // encoding/json escapes <, > and &: safe in a script
	})
}

// packDevices is the devices as the page draws them: the letter's character code, x, y,
// facing, the launcher's seat, 1 flying + 2 moving, and the drone's target as x*1000+y
// (-1 none).
func packDevices(ds []adjudicator.Device, robots []adjudicator.Robot) [][7]int {
	var out [][7]int
	for _, d := range ds {
		seat := max(slices.IndexFunc(robots, func(r adjudicator.Robot) bool { return r.Name == d.Owner }), 0)
		bits, target := 0, -1
		if d.Kind.Flying() {
			bits |= 1
		}
		if picture.Moving(d.Kind) {
			bits |= 2
		}
		if d.Target != nil {
			target = d.Target.X*1000 + d.Target.Y
		}
		out = append(out, [7]int{int(adjudicator.DeviceSymbol(d.Kind)), d.Pos.X, d.Pos.Y, int(d.Facing), seat, bits, target})
	}
	return out
}

func pack(robots []adjudicator.Robot) [][7]int {
	out := make([][7]int, len(robots))
	for i, r := range robots {
		bits := 0
		if r.Virtual {
			bits |= 1
		}
		if r.Power == adjudicator.PowerDown {
			bits |= 2
		}
		if r.Destroyed {
			bits |= 4
		}
		if r.Out {
			bits |= 8
		}
		out[i] = [7]int{r.Pos.X, r.Pos.Y, int(r.Facing), r.Damage, r.Lives, r.Flags, bits}
	}
	return out
}

// turnFrames is a turn as the page shows it: the robots before the registers, then one
// frame per step of the event log (picture.Steps), then the state after the turn.
func turnFrames(b *adjudicator.Board, s Step, deck *adjudicator.Deck) []frame {
	robots := make([]adjudicator.Robot, len(s.Before.Robots))
	copy(robots, s.Before.Robots)
	idx := map[string]int{}
	for i, r := range robots {
		idx[r.Name] = i
	}
	devices := s.Before.Devices
	frames := []frame{{Caption: fmt.Sprintf("Turn %d — before the registers", s.Turn), Robots: pack(robots), Acting: -1,
		Devices: packDevices(devices, robots)}}
	frames[0].own(robots)
	for _, st := range picture.Steps(s.Events, deck) {
		f := frame{Caption: st.Caption, Acting: -1}
		if i, ok := idx[st.Robot]; ok && st.Card != 0 {
			f.Acting = i
		}
		if st.Phase == "lasers" {
			// From where the robots stood when they fired, before this step's damage.
			f.Beams = boardBeams(b, robots)
			for _, e := range st.Events {
				if e.Kind != adjudicator.EvDamage || e.Other == "" {
					continue
				}
				t, ok1 := idx[e.Robot]
				sh, ok2 := idx[e.Other]
				if ok1 && ok2 {
					from, to := robots[sh].Pos, robots[t].Pos
					f.Beams = append(f.Beams, [7]int{from.X, from.Y, to.X, to.Y, int(robots[sh].Facing), 1, 2})
				}
			}
		}
		for _, e := range st.Events {
			if e.Kind == adjudicator.EvDamage {
				if i, ok := idx[e.Robot]; ok {
					f.Hit = append(f.Hit, i)
				}
			}
			adjudicator.ApplyEvent(robots, e)
			devices = picture.ApplyDeviceEvent(devices, e)
		}
		f.Robots = pack(robots)
		f.Devices = packDevices(devices, robots)
		f.own(robots)
		frames = append(frames, f)
	}
	last := frame{Caption: fmt.Sprintf("Turn %d — after the turn", s.Turn), Robots: pack(s.After.Robots), Acting: -1,
		Devices: packDevices(s.After.Devices, s.After.Robots)}
	last.own(s.After.Robots)
	return append(frames, last)
}

// boardBeams is every board laser's beams as they fire with the robots where they
// stand: from the emitter's square to the first robot, wall or the board's edge (seed
// 003, Lasers; adjudicator/lasers.go).
func boardBeams(b *adjudicator.Board, robots []adjudicator.Robot) [][7]int {
	occupied := map[adjudicator.Pos]bool{}
	for i := range robots {
		if robots[i].Active() {
			occupied[robots[i].Pos] = true
		}
	}
	var out [][7]int
	for y := 0; y < b.H; y++ {
		for x := 0; x < b.W; x++ {
			e := adjudicator.Pos{X: x, Y: y}
			l := b.At(e).Laser
			if l.Beams <= 0 || l.Dir > adjudicator.West {
				continue
			}
			last, kind := e, 0
			for q := e; b.In(q); q = q.Step(l.Dir) {
				last = q
				if occupied[q] {
					kind = 1
					break
				}
				if b.Blocked(q, l.Dir) {
					break
				}
			}
			out = append(out, [7]int{e.X, e.Y, last.X, last.Y, int(l.Dir), l.Beams, kind})
		}
	}
	return out
}
