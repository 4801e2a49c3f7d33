package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/adjudicator/scenario"
	"github.com/rallyjudge/rallyjudge/judge"
	"github.com/rallyjudge/rallyjudge/orders"
	"github.com/rallyjudge/rallyjudge/roborally"
)

// checkConfig is the parsed command line of `rallyjudge check`.
type checkConfig struct {
	sheet string // path, or "-" for standard input
	state string // saved turn or scenario file; "" to parse only
	robot string // the sender's robot; default the sheet's
	mail  string // a raw mail (.eml) to read as the judge does, instead of SHEET
	// db or config: check against the game's turn being played in the judge's database
	// instead of a --state file; game names it (default: the sheet's or the mail's)
	db, config, game string
}

// checking says whether the sheet is checked against a game, not only read.
func (cfg checkConfig) checking() bool { return cfg.state != "" || cfg.db != "" || cfg.config != "" }

// against is what a sheet for game tag is checked against: the --state file, or the
// game's turn being played in the judge's database (--db, or the one --config names), as
// the judge checks a mailed sheet. name says which, for the output.
func (cfg checkConfig) against(tag string) (setup *adjudicator.Setup, st *adjudicator.State, name string, err error) {
	if cfg.state != "" {
		setup, st, err = loadState(cfg.state)
		return setup, st, cfg.state, err
	}
	db, address := cfg.db, "judge@example.invalid" // no mail is made
	if cfg.config != "" {
		c, err := judge.LoadConfig(cfg.config)
		if err != nil {
			return nil, nil, "", err
		}
		db, address = c.Database, c.JudgeAddress
	}
	if cfg.game != "" {
		tag = cfg.game
	}
	if tag == "" {
		return nil, nil, "", errors.New("the sheet names no game (no game line, no [RR TAG] in the subject): give --game TAG")
	}
	store, err := openExisting(db)
	if err != nil {
		return nil, nil, "", err
	}
	defer store.Close()
	j, err := judge.New(store, address, nil)
	if err != nil {
		return nil, nil, "", err
	}
	pos, turn, err := j.TurnToCheck(context.Background(), strings.ToLower(tag))
	if err != nil {
		return nil, nil, "", err
	}
	st, setup, ok := roborally.Engine(pos)
	if !ok {
		return nil, nil, "", fmt.Errorf("game %s is not a RoboRally game: check reads RoboRally order sheets", strings.ToLower(tag))
	}
	return setup, st, fmt.Sprintf("game %s in %s (turn %d)", strings.ToLower(tag), db, turn), nil
}

// savedTurn is the --state file format (docs/orders.md, "rallyjudge check"): a shipped
// course, the game's seed, the state before the turn. Unknown keys are refused.
type savedTurn struct {
	Course  string             `json:"course"`
	Seed    uint64             `json:"seed"`
	Options []string           `json:"options,omitempty"` // the option deck; default every card
	State   *adjudicator.State `json:"state"`
	// Orders and Hash are for rallyjudge resolve: every robot's orders for the turn, as
	// the judge records them (orders.Played), and optionally the SHA-256 (hex) of the
	// state's JSON the turn must end in.
	Orders []orders.Played `json:"orders,omitempty"`
	Hash   string          `json:"hash,omitempty"`
}

// cmdCheck: rallyjudge check SHEET [--state FILE] [--robot NAME]. It prints the sheet
// as structured orders (JSON, secret hidden) or its errors; with --state it also
// validates the sheet against that game and prints the forecast. Exit status: 0 valid,
// 1 invalid, 2 unreadable (or bad usage).
func cmdCheck(args []string, stdout, stderr io.Writer) int {
	cfg, err := parseCheckArgs(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintf(stderr, "%s\n\n%s\n", checkUsage, checkAbout)
		printFlags(stderr, checkFlags(new(checkConfig)))
		fmt.Fprintln(stderr, checkExit)
		return 2
	}
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge check: %v\n%s\n", err, checkUsage)
		return 2
	}
	if cfg.mail != "" {
		return checkMail(cfg, stdout, stderr) // checkmail.go
	}
	var b []byte
	if cfg.sheet == "-" {
		b, err = io.ReadAll(io.LimitReader(os.Stdin, orders.MaxSize+1))
	} else {
		b, err = readCapped(cfg.sheet, orders.MaxSize+1)
	}
	if err != nil {
		fmt.Fprintf(stderr, "rallyjudge check: %v\n", err)
		return 2
	}
	name := cfg.sheet
	if name == "-" {
		name = "stdin"
	}
	var sheet *orders.Sheet
	switch strings.ToLower(filepath.Ext(cfg.sheet)) {
	case ".yaml", ".yml":
		sheet, err = orders.ParseYAML(b)
	default:
		sheet, err = orders.Parse(b)
	}
	syntaxErr := err
	var setup *adjudicator.Setup
	var st *adjudicator.State
	if cfg.checking() && sheet != nil {
		// The game first: a game that is not there is the one thing said, not after the
		// sheet's JSON (issue 22: "{}" and then the error).
		if setup, st, _, err = cfg.against(sheet.Game); err != nil {
			fmt.Fprintf(stderr, "rallyjudge check: %v\n", err)
			return 2
		}
	}
	if syntaxErr != nil {
		printProblems(stdout, name, syntaxErr)
		if !cfg.checking() || sheet == nil {
			return 1
		}
		// With a game to check against, what was read is validated too: every error at once.
	} else {
		stdout.Write(sheet.JSON())
		if !cfg.checking() {
			return 0
		}
	}
	robot := cfg.robot
	if robot == "" {
		robot = sheet.Robot
	}
	if robot == "" {
		fmt.Fprintf(stderr, "rallyjudge check: the sheet names no robot; give --robot NAME\n")
		return 2
	}
	rep := orders.Validate(setup, st, robot, sheet)
	for _, p := range rep.Problems {
		fmt.Fprintf(stdout, "%s\n", problemLine(name, p))
	}
	if syntaxErr != nil || !rep.OK() {
		return 1
	}
	fmt.Fprintln(stdout, "valid")
	idx := orders.RobotIndex(st, robot)
	if sheet.HasProgram() && idx >= 0 && st.Robots[idx].Power != adjudicator.PowerDown {
		f, err := orders.Forecast(setup, st, robot, sheet)
		if err != nil {
			fmt.Fprintf(stderr, "rallyjudge check: %v\n", err)
			return 1
		}
		fmt.Fprint(stdout, f.String())
	}
	return 0
}

const checkUsage = `usage: rallyjudge check SHEET [--state FILE | --db FILE | --config FILE] [--game TAG] [--robot NAME]
       rallyjudge check --mail FILE.eml [--state FILE | --db FILE | --config FILE] [--game TAG] [--robot NAME]`

const checkAbout = `Reads an order sheet (text, or .yaml) as the judge does and prints it as orders, or its
errors with line and column (docs/orders.md). Checked against a game (--state, --db or
--config) it is validated too and a valid program's forecast is printed: where the robot
goes register by register, and warnings when a register is blocked or ends on a pit.
With --mail it reads a raw mail (.eml) exactly as the judge does, within the judge's size
limit (--config's limits.max_message_bytes, else the judge's default, 256 KiB).`

const checkExit = "Exit 0: valid; 1: errors (or a mail the judge would not accept); 2: unreadable, or usage."

// checkFlags are check's flags, bound to cfg.
func checkFlags(cfg *checkConfig) *flag.FlagSet {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&cfg.state, "state", "", "saved turn (JSON) or scenario file to validate against")
	fs.StringVar(&cfg.robot, "robot", "", "the sender's robot (default: the sheet's)")
	fs.StringVar(&cfg.mail, "mail", "", "a raw mail (.eml) to read exactly as the judge does")
	fs.StringVar(&cfg.db, "db", "", "check against the game's turn being played in this judge database")
	fs.StringVar(&cfg.config, "config", "", "check against the game's turn being played in the database this serve config names")
	fs.StringVar(&cfg.game, "game", "", "with --db or --config: the game (default: the sheet's game line, or the mail's [RR TAG])")
	return fs
}

func parseCheckArgs(args []string, stderr io.Writer) (checkConfig, error) {
	var cfg checkConfig
	fs := checkFlags(&cfg)
	// The sheet may come before or after the flags.
	var rest []string
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			return cfg, err
		}
		args = fs.Args()
		if len(args) > 0 {
			rest = append(rest, args[0])
			args = args[1:]
		}
	}
	if cfg.state != "" && (cfg.db != "" || cfg.config != "") || cfg.db != "" && cfg.config != "" {
		return cfg, errors.New("check against one game: --state FILE, --db FILE or --config FILE")
	}
	if cfg.game != "" && cfg.db == "" && cfg.config == "" {
		return cfg, errors.New("--game names a game of the judge's database: give --db FILE or --config FILE too")
	}
	if cfg.mail != "" {
		if len(rest) != 0 {
			return cfg, errors.New("give a SHEET or --mail FILE, not both")
		}
		return cfg, nil
	}
	if len(rest) != 1 {
		return cfg, errors.New("want exactly one SHEET")
	}
	cfg.sheet = rest[0]
	return cfg, nil
}

func readCapped(path string, n int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, n))
}

func problemLine(name string, p orders.Problem) string {
	kind := "error"
	if p.Warning {
		kind = "warning"
	}
	switch {
	case p.At.Line == 0:
		return fmt.Sprintf("%s: %s: %s", name, kind, p.Msg)
	case p.At.Col == 0:
		return fmt.Sprintf("%s:%d: %s: %s", name, p.At.Line, kind, p.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s: %s", name, p.At.Line, p.At.Col, kind, p.Msg)
}

func printProblems(w io.Writer, name string, err error) {
	var se *orders.SyntaxError
	if errors.As(err, &se) {
		for _, p := range se.Problems {
			fmt.Fprintln(w, problemLine(name, p))
		}
		if se.Hint != "" {
			fmt.Fprintln(w, se.Hint)
		}
		return
	}
	fmt.Fprintf(w, "%s: error: %v\n", name, err)
}

// isSavedTurn reports whether a file's bytes are a saved turn (JSON) rather than a
// scenario.
func isSavedTurn(b []byte) bool {
	t := bytes.TrimSpace(bytes.TrimPrefix(b, []byte("\uFEFF")))
	return len(t) > 0 && t[0] == '{'
}

// readSavedTurn reads a saved turn and builds its setup.
//
// Saved turns come from outside: a state no game could reach is refused with every
// reason (adjudicator.CheckState), and so is an option card that is not in the file's
// "options" (the game's option deck: the draw pile, the discard pile and every held card
// come from it), an orders entry for another seat's robot, or an order the sheets cannot
// say (orders.Played.Check). A UTF-8 byte-order mark is accepted.
func readSavedTurn(path string, b []byte) (*adjudicator.Setup, *savedTurn, error) {
	var sv savedTurn
	b = bytes.TrimPrefix(b, []byte("\uFEFF"))
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sv); err != nil {
		return nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	if sv.State == nil || sv.Course == "" {
		return nil, nil, fmt.Errorf("%s: want {\"course\": NAME, \"seed\": N, \"state\": {...}}", path)
	}
	c, err := adjudicator.LoadCourse(sv.Course)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	opts := sv.Options
	if opts == nil {
		opts = adjudicator.DealtOptions(adjudicator.DeckBoth)
	}
	setup, err := adjudicator.NewSetup(c, adjudicator.PostalRules(), sv.Seed, opts)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	if err := setup.CheckState(sv.State); err != nil {
		return nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	if err := setup.CheckOptionDeck(sv.State); err != nil {
		return nil, nil, fmt.Errorf("%s: %v (\"options\" is the game's option deck)", path, err)
	}
	for i, p := range sv.Orders {
		if i < len(sv.State.Robots) && p.Robot != sv.State.Robots[i].Name {
			return nil, nil, fmt.Errorf("%s: orders entry %d is for robot %q, but seat %d is %s (one entry per robot, in seat order)", path, i+1, p.Robot, i+1, sv.State.Robots[i].Name)
		}
		if err := p.Check(); err != nil {
			return nil, nil, fmt.Errorf("%s: orders entry %d (%s): %v", path, i+1, p.Robot, err)
		}
	}
	return setup, &sv, nil
}

// maxStateFile is the largest saved turn or scenario read: a bigger one is refused,
// never read in part.
const maxStateFile = 4 << 20

// readStateFile reads a --state or resolve file within maxStateFile.
func readStateFile(path string) ([]byte, error) {
	b, err := readCapped(path, maxStateFile+1)
	if err != nil {
		return nil, err
	}
	if len(b) > maxStateFile {
		return nil, fmt.Errorf("%s: larger than %d bytes, the most a saved turn may be", path, maxStateFile)
	}
	return b, nil
}

// loadState reads a saved turn (JSON) or, failing that, a scenario file.
func loadState(path string) (*adjudicator.Setup, *adjudicator.State, error) {
	b, err := readStateFile(path)
	if err != nil {
		return nil, nil, err
	}
	if isSavedTurn(b) {
		setup, sv, err := readSavedTurn(path, b)
		if err != nil {
			return nil, nil, err
		}
		return setup, sv.State, nil
	}
	sc, err := scenario.Load(path)
	if err != nil {
		return nil, nil, err
	}
	return sc.Setup, sc.State, nil
}
