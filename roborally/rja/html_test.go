package rja

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/picture"
)

const chromium = "/usr/bin/chromium"

// TestHTMLLayoutMatchesPicture: the page draws robots at pictureLeft/pictureTop, so a
// robot that package picture draws on square (x, y) must change only pixels inside that
// square's box as the page computes it.
func TestHTMLLayoutMatchesPicture(t *testing.T) {
	c, err := adjudicator.LoadCourse("sprint")
	if err != nil {
		t.Fatal(err)
	}
	const cs = 28
	base := picture.Course(c, nil, picture.Options{Cell: cs, Caption: "x"})
	for _, p := range []adjudicator.Pos{{X: 0, Y: 0}, {X: c.Board.W - 1, Y: c.Board.H - 1}, {X: 3, Y: 5}} {
		r := []adjudicator.Robot{{Name: "A", Pos: p, Lives: 3}}
		img := picture.Course(c, r, picture.Options{Cell: cs, Caption: "x"})
		x0, y0 := pictureLeft+p.X*cs, pictureTop+p.Y*cs
		changed := 0
		for y := 0; y < min(base.Rect.Dy(), pictureTop+c.Board.H*cs); y++ {
			for x := 0; x < base.Rect.Dx(); x++ {
				if img.ColorIndexAt(x, y) == base.ColorIndexAt(x, y) {
					continue
				}
				changed++
				if x < x0-2 || x >= x0+cs+2 || y < y0-2 || y >= y0+cs+2 {
					t.Fatalf("robot on %v changed pixel %d,%d outside the page's box %d,%d+%d", p, x, y, x0, y0, cs)
				}
			}
		}
		if changed == 0 {
			t.Fatalf("robot on %v changed nothing on the board", p)
		}
	}
}

func htmlGame(t *testing.T) (Archive, string) {
	t.Helper()
	a := playGame(t, "sprint", 3, 8, 5, 50)
	var buf bytes.Buffer
	if err := WriteHTML(&buf, &a, HTMLOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, bad := range []string{"http://", "https://", "<link", "src=\"//"} {
		if strings.Contains(page, bad) {
			t.Fatalf("the page refers to the network (%q)", bad)
		}
	}
	if !strings.Contains(page, `src="data:image/png;base64,`) {
		t.Fatal("the board picture is not inline")
	}
	path := filepath.Join(t.TempDir(), "game.html")
	if dir := os.Getenv("RALLYJUDGE_KEEP_SCREENSHOT"); dir != "" {
		path = filepath.Join(dir, "game.html")
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return a, path
}

// expected is the caption the page shows at turn n, step k (from 1).
func expected(t *testing.T, a Archive, n, k int) string {
	t.Helper()
	setup, err := a.Setup()
	if err != nil {
		t.Fatal(err)
	}
	var fs []frame
	_ = Replay(&a, setup, n, func(s Step) error {
		if s.Turn == n && n > 0 {
			fs = turnFrames(setup.Course.Board, s, setup.Deck)
		} else if s.Turn == n {
			fs = []frame{{Caption: "The start"}}
		}
		return nil
	})
	return fmt.Sprintf("Turn %d, step %d/%d: %s", n, k, len(fs), fs[k-1].Caption)
}

func runChromium(t *testing.T, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--user-data-dir=" + t.TempDir()}
	cmd := exec.CommandContext(ctx, chromium, append(base, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, stderr.String())
	}
	return out
}

var (
	captionRE = regexp.MustCompile(`<div id="caption"[^>]*>([^<]*)</div>`)
	bodyRE    = regexp.MustCompile(`<body[^>]*data-turn="(\d+)"[^>]*data-step="(\d+)"[^>]*data-playing="(\w+)"`)
)

// TestHTMLInChromium opens the page in headless Chromium, drives it through its
// address (#turn=…&step=…&do=…: the page clicks its own buttons), and checks the
// caption shown against the replay.
func TestHTMLInChromium(t *testing.T) {
	if _, err := os.Stat(chromium); err != nil {
		t.Skip("no " + chromium + " (apt-get install -y chromium)")
	}
	a, path := htmlGame(t)
	for _, tc := range []struct {
		name, hash string
		turn, step int // step from 1
		playing    string
		budget     int // virtual time in ms; 0: none
	}{
		{"go to a step", "turn=3&step=2", 3, 2, "no", 0},
		{"buttons", "turn=3&step=2&do=next,next,prev,nextturn,next,prevturn", 3, 1, "no", 0},
		{"step across turns", "turn=2&step=999&do=next", 3, 1, "no", 0},
		{"step back across turns", "turn=3&do=prev", 2, -1, "no", 0},
		{"slider", "slider=5", 5, 1, "no", 0},
		{"play", "turn=1&play=1&ms=100", -1, -1, "yes", 450},
		{"play then pause", "turn=1&play=1&ms=100&do=pause", 1, 1, "no", 450},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"--dump-dom"}
			if tc.budget > 0 {
				args = append(args, fmt.Sprintf("--virtual-time-budget=%d", tc.budget))
			}
			dom := string(runChromium(t, append(args, "file://"+path+"#"+tc.hash)...))
			m := bodyRE.FindStringSubmatch(dom)
			c := captionRE.FindStringSubmatch(dom)
			if m == nil || c == nil {
				t.Fatalf("no state in the page:\n%.2000s", dom)
			}
			var turn, step int
			fmt.Sscan(m[1], &turn)
			fmt.Sscan(m[2], &step)
			step++
			caption := html.UnescapeString(c[1])
			if m[3] != tc.playing {
				t.Errorf("playing = %s, want %s", m[3], tc.playing)
			}
			if tc.turn >= 0 && turn != tc.turn || tc.step >= 0 && step != tc.step {
				t.Errorf("at turn %d step %d, want %d step %d", turn, step, tc.turn, tc.step)
			}
			if tc.playing == "yes" && turn == 1 && step <= 2 {
				t.Errorf("playing for 450 ms at 100 ms a step only reached turn %d step %d", turn, step)
			}
			if want := expected(t, a, turn, step); caption != want {
				t.Errorf("caption %q, want %q", caption, want)
			}
		})
	}
}

// TestHTMLScreenshot: the page as Chromium draws it shows the board and the robots in
// their seat colours (look at it with -keep).
func TestHTMLScreenshot(t *testing.T) {
	if _, err := os.Stat(chromium); err != nil {
		t.Skip("no " + chromium)
	}
	_, path := htmlGame(t)
	shot := filepath.Join(t.TempDir(), "shot.png")
	if dir := os.Getenv("RALLYJUDGE_KEEP_SCREENSHOT"); dir != "" {
		shot = filepath.Join(dir, "replay-screenshot.png")
	}
	runChromium(t, "--screenshot="+shot, "--window-size=1100,900", "--hide-scrollbars", "file://"+path+"#turn=4&step=3")
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	colours := map[color.RGBA]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colours[color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8), 255}]++
		}
	}
	if len(colours) < 20 {
		t.Fatalf("screenshot has %d colours: blank?", len(colours))
	}
	for seat, want := range []color.RGBA{{0xe6, 0x19, 0x4b, 255}, {0x3c, 0xb4, 0x4b, 255}, {0x43, 0x63, 0xd8, 255}} {
		if !near(colours, want) {
			t.Errorf("no robot in seat %d's colour %v on the screenshot", seat+1, want)
		}
	}
	_ = image.Point{}
}

func near(colours map[color.RGBA]int, want color.RGBA) bool {
	d := func(a, b uint8) int {
		if a > b {
			return int(a - b)
		}
		return int(b - a)
	}
	n := 0
	for c, k := range colours {
		if d(c.R, want.R)+d(c.G, want.G)+d(c.B, want.B) < 12 {
			n += k
		}
	}
	return n >= 10
}

// TestHTMLBeams: every lasers step carries the board lasers' beams, stopped at the
// first robot, and each robot's shot from the shooter to the target it hit.
func TestHTMLBeams(t *testing.T) {
	a := playGame(t, "stampede", 8, 12, 3, 50)
	setup, err := a.Setup()
	if err != nil {
		t.Fatal(err)
	}
	lasers, shots, board := 0, 0, 0
	err = Replay(&a, setup, -1, func(s Step) error {
		if s.Turn == 0 {
			return nil
		}
		fs := turnFrames(setup.Course.Board, s, setup.Deck)
		for _, st := range fs {
			if !strings.Contains(st.Caption, "lasers") {
				if len(st.Beams) > 0 {
					t.Errorf("turn %d: beams in step %q", s.Turn, st.Caption)
				}
				continue
			}
			lasers++
			if len(st.Beams) == 0 {
				t.Errorf("turn %d: no beams in step %q", s.Turn, st.Caption)
			}
			for _, b := range st.Beams {
				switch b[6] {
				case 0, 1:
					board++
				case 2:
					shots++
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if lasers == 0 || shots == 0 || board == 0 {
		t.Errorf("%d lasers steps, %d robot shots, %d board beams: want some of each", lasers, shots, board)
	}
	if dir := os.Getenv("RALLYJUDGE_KEEP_SCREENSHOT"); dir != "" {
		var buf bytes.Buffer
		if err := WriteHTML(&buf, &a, HTMLOptions{}, nil); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "stampede.html"), buf.Bytes(), 0o644)
	}
}

func TestBoardBeamsStopAtRobots(t *testing.T) {
	b := adjudicator.NewBoard(5, 5)
	b.At(adjudicator.Pos{X: 0, Y: 2}).Laser = adjudicator.Laser{Dir: adjudicator.East, Beams: 2}
	b.At(adjudicator.Pos{X: 4, Y: 4}).Laser = adjudicator.Laser{Dir: adjudicator.North, Beams: 1}
	b.At(adjudicator.Pos{X: 4, Y: 1}).Walls = b.At(adjudicator.Pos{X: 4, Y: 1}).Walls.With(adjudicator.North)
	robots := []adjudicator.Robot{
		{Name: "A", Pos: adjudicator.Pos{X: 3, Y: 2}},
		{Name: "B", Pos: adjudicator.Pos{X: 2, Y: 4}},
		{Name: "C", Pos: adjudicator.Pos{X: 1, Y: 2}, Destroyed: true}, // no longer in the way
	}
	got := boardBeams(b, robots)
	want := [][7]int{
		{0, 2, 3, 2, int(adjudicator.East), 2, 1},  // stopped by A
		{4, 4, 4, 1, int(adjudicator.North), 1, 0}, // to the wall
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("beams %v, want %v", got, want)
	}
}
