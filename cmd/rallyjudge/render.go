package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/archive"
	"github.com/rallyjudge/rallyjudge/games"
	"github.com/rallyjudge/rallyjudge/picture"
)

const renderUsage = `usage: rallyjudge render COURSE|FILE [-o OUT.png] [--cell N] [--state FILE]
       rallyjudge render COURSE|FILE --demo-turn [-o OUT.gif|OUT.png] [--robots N] [--seed N] [--turn N]
       rallyjudge render --archive GAME.rja --turn N [-o OUT.gif|OUT.png]

Draws a shipped course (or a .course/.board file) as a PNG (docs/pictures.md).
  --state FILE   draw the robots of a saved game state (JSON with "robots", or {"state": ...})
  --demo-turn    play a seeded demo game with random programs and draw its turn --turn:
                 an animated GIF of the turn step by step when OUT ends in .gif, else the
                 picture after the turn
  --archive FILE a game at turn --turn, replayed from its archive (rallyjudge export):
                 the GIF of that turn, or the picture after it
Without -o the image goes to standard output.
Exit 0: written; 1: the course or state does not load, or writing failed; 2: usage.`

// renderConfig is the render command's flags.
type renderConfig struct {
	out, state       string
	archive          string
	cell             int
	demo             bool
	robots, turn     int
	seed             uint64
	course           string
	courseIsArgument bool
}

// cmdRender draws courses and turns as PNG and GIF images (package picture).
func cmdRender(args []string, stdout, stderr io.Writer) int {
	var cfg renderConfig
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&cfg.out, "o", "", "output file (.png or .gif); standard output if empty")
	fs.StringVar(&cfg.state, "state", "", "a saved game state (JSON) whose robots to draw")
	fs.IntVar(&cfg.cell, "cell", 28, "square size in pixels (16-96)")
	fs.BoolVar(&cfg.demo, "demo-turn", false, "draw a turn of a seeded demo game")
	fs.IntVar(&cfg.robots, "robots", 8, "demo robots (1-8)")
	fs.IntVar(&cfg.turn, "turn", 3, "demo turn to draw")
	fs.Uint64Var(&cfg.seed, "seed", 1, "demo game seed")
	fs.StringVar(&cfg.archive, "archive", "", "draw a game at --turn from its archive")
	// Flags may come before or after the course.
	var pos []string
	for rest := args; ; {
		if err := fs.Parse(rest); errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stderr, renderUsage)
			printFlags(stderr, fs)
			return 2
		} else if err != nil {
			fmt.Fprintf(stderr, "rallyjudge render: %v\n%s\n", err, renderUsage)
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if msg := renderArgsProblem(cfg, pos); msg != "" {
		fmt.Fprintf(stderr, "rallyjudge render: %s\n%s\n", msg, renderUsage)
		return 2
	}
	if cfg.archive != "" {
		return renderArchive(cfg, stdout, stderr)
	}
	cfg.course = pos[0]
	var c *adjudicator.Course
	var err error
	if isPath(cfg.course) {
		c, err = loadFile(cfg.course)
	} else {
		c, err = loadShipped(cfg.course)
		if errors.Is(err, errUnknownName) {
			fmt.Fprintf(stderr, "rallyjudge render: %v\n%s\n", err, renderUsage)
			return 2
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge render: %v\n", err)
		return 1
	}
	var buf bytes.Buffer
	opt := picture.Options{Cell: cfg.cell}
	switch {
	case cfg.demo:
		robotsSet := false
		fs.Visit(func(f *flag.Flag) { robotsSet = robotsSet || f.Name == "robots" })
		if c.Rules == "2023" && !robotsSet {
			// The 2023 rules give each robot a start square of its own: by default as
			// many robots as the course has start squares, up to 8.
			cfg.robots = min(cfg.robots, len(c.Starts))
		}
		d, err := picture.DemoTurn(c, cfg.robots, cfg.seed, cfg.turn)
		if err != nil {
			fmt.Fprintf(stderr, "rallyjudge render: %v\n", err)
			return 1
		}
		opt.Turn, opt.Deck, opt.Rules = d.Turn, d.Setup.Deck, d.Setup.Rules.Name
		if strings.EqualFold(filepath.Ext(cfg.out), ".gif") {
			err = picture.TurnGIF(&buf, c, d.Before, d.Events, opt)
		} else {
			opt.Caption = fmt.Sprintf("%s: after turn %d (demo, seed %d)", c.Name, d.Turn, cfg.seed)
			opt.Devices = d.After.Devices
			err = picture.PNG(&buf, picture.Course(c, d.After.Robots, opt))
		}
		if err != nil {
			fmt.Fprintf(stderr, "rallyjudge render: %v\n", err)
			return 1
		}
	default:
		var robots []adjudicator.Robot
		if cfg.state != "" {
			st, err := readState(cfg.state)
			if err != nil {
				fmt.Fprintf(stderr, "rallyjudge render: %v\n", err)
				return 1
			}
			robots = st.Robots
			opt.Devices = st.Devices
			opt.Caption = fmt.Sprintf("%s: turn %d", c.Name, st.Turn)
		}
		if err := picture.PNG(&buf, picture.Course(c, robots, opt)); err != nil {
			fmt.Fprintf(stderr, "rallyjudge render: %v\n", err)
			return 1
		}
	}
	if cfg.out == "" || cfg.out == "-" {
		_, err = stdout.Write(buf.Bytes())
	} else {
		err = os.WriteFile(cfg.out, buf.Bytes(), 0o644)
	}
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge render: %v\n", err)
		return 1
	}
	return 0
}

// renderArchive draws a game at a turn from its archive: the turn as an animated GIF,
// or the floor after it.
func renderArchive(cfg renderConfig, stdout, stderr io.Writer) int {
	f, err := os.Open(cfg.archive)
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge render: %v\n", err)
		return 1
	}
	a, err := archive.Read(f, games.Hosted())
	f.Close()
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge render: %s: %v\n", cfg.archive, err)
		return 1
	}
	if cfg.turn > a.Last() {
		fmt.Fprintf(stderr, "rallyjudge render: %s has turns 0 to %d, not %d\n", cfg.archive, a.Last(), cfg.turn)
		return 1
	}
	pic, err := a.Picture(cfg.turn, strings.EqualFold(filepath.Ext(cfg.out), ".gif"), cfg.cell)
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge render: %s: %v\n", cfg.archive, err)
		return 1
	}
	if cfg.out == "" || cfg.out == "-" {
		_, err = stdout.Write(pic)
	} else {
		err = os.WriteFile(cfg.out, pic, 0o644)
	}
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge render: %v\n", err)
		return 1
	}
	return 0
}

// readState reads a game state saved as JSON: the state itself, or an object holding
// it under "state" (as `rallyjudge resolve` prints it).
func readState(path string) (*adjudicator.State, error) {
	text, err := readLimited(path)
	if err != nil {
		return nil, err
	}
	var wrapped struct {
		State *adjudicator.State `json:"state"`
	}
	if err := json.Unmarshal([]byte(text), &wrapped); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if wrapped.State != nil {
		return wrapped.State, nil
	}
	var st adjudicator.State
	if err := json.Unmarshal([]byte(text), &st); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(st.Robots) == 0 {
		return nil, fmt.Errorf("%s: no robots in the state", path)
	}
	return &st, nil
}

// renderArgsProblem says what is wrong with the arguments, "" when nothing is.
func renderArgsProblem(cfg renderConfig, pos []string) string {
	switch {
	case cfg.cell < 16 || cfg.cell > 96:
		return fmt.Sprintf("--cell %d: want 16 to 96 pixels", cfg.cell)
	case cfg.archive != "" && len(pos) != 0:
		return fmt.Sprintf("--archive draws the archive's own course; %q is one argument too many", pos[0])
	case cfg.archive != "" && (cfg.demo || cfg.state != ""):
		return "--archive goes with neither --demo-turn nor --state"
	case cfg.archive != "" && cfg.turn < 0:
		return fmt.Sprintf("--turn %d: want 0 or more", cfg.turn)
	case cfg.archive != "":
		return ""
	case len(pos) == 0:
		return "which course? give a shipped course's name or a .course/.board file"
	case len(pos) > 1:
		return fmt.Sprintf("one course at a time (got %s)", strings.Join(pos, ", "))
	case cfg.robots < 1 || cfg.robots > adjudicator.MaxRobots:
		return fmt.Sprintf("--robots %d: want 1 to %d", cfg.robots, adjudicator.MaxRobots)
	case cfg.turn < 1:
		return fmt.Sprintf("--turn %d: want 1 or more", cfg.turn)
	case cfg.demo && cfg.state != "":
		return "--demo-turn plays its own game; it goes without --state"
	}
	return ""
}
