package roborally

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/adjudicator/scenario"
	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/internal/near"
	"github.com/rallyjudge/rallyjudge/orders"
	"github.com/rallyjudge/rallyjudge/roborally/narrate"
)

// Kind is RoboRally behind the game seam: the postal rules (seed 003) with an option
// deck (Crash & Burn, Armed and Dangerous, or none) or the 2023 rules (seed 004),
// played at once: every robot that runs a program this turn is due.
//
// Courses are read with Course (nil: adjudicator.LoadCourse, the courses built in).
type Kind struct {
	Course func(name string) (*adjudicator.Course, error)
}

var (
	_ game.Kind      = Kind{}
	_ game.Scenarios = Kind{}
	_ game.Folder    = (*position)(nil)
	_ game.Leaver    = (*position)(nil)
	_ game.Policies  = (*position)(nil)
	_ game.Holder    = (*position)(nil)
	_ game.Parts     = (*position)(nil)
)

// Name is "roborally", the name CREATE game= takes.
func (Kind) Name() string  { return "roborally" }
func (Kind) Title() string { return "RoboRally" }

func (Kind) Guide() string {
	// at most 72 columns, as a report (game.Report); docs/orders.md has it all
	return "Write your program, one card a register, then your standing orders,\n" +
		"one a line (docs/orders.md):\n" +
		"  P490 M2 670 L70 R80 B430      the postal rules: cards by priority\n" +
		"  Move 1, Again, Left, Move 2, U-Turn   the 2023 rules: cards by kind\n" +
		"  if damage > 3 power down      a standing order, kept turn to turn\n" +
		"  power down                    announce a power down (postal)\n" +
		"  shut down                     shut down for the round (2023)"
}

func (k Kind) course(name string) (*adjudicator.Course, error) {
	if k.Course != nil {
		return k.Course(name)
	}
	return shippedCourse(name) // parsed once (setups.go)
}

// Config is a game's settings: the course, the ruleset (with its variants and option
// deck) and the missed-orders policy.
type Config struct {
	CourseName string            `json:"course"`
	Rules      adjudicator.Rules `json:"rules"`
	// Missed is the missed-orders policy (MissedPowerDown, MissedRandom,
	// MissedAutopilot); "" is powerdown.
	Missed string `json:"missed,omitempty"`
	// seats is how many robots the course seats (seatsOf; 0: not known, the engine's
	// most), as Configure and LoadConfig read the course.
	seats int
}

// DefaultCourse is the course of a game created without course= (Default2023Course
// under the 2023 rules, which play no crushers).
const (
	DefaultCourse     = "sprint"
	Default2023Course = "docking-run"
)

func (c Config) Seats() (int, int) {
	if c.seats > 0 {
		return 1, c.seats
	}
	return 1, adjudicator.MaxRobots
}

func (c Config) Text() string {
	return fmt.Sprintf("course %s, rules %s, missed orders: %s", c.CourseName, c.Rules.Name, c.policy())
}

func (c Config) Encode() ([]byte, error) { return json.Marshal(c) }

func (c Config) policy() string {
	if c.Missed == "" {
		return MissedPowerDown
	}
	return c.Missed
}

// MissedPolicy is the policy for a robot without orders (the autopilot's move).
func (c Config) MissedPolicy() string { return c.policy() }

// Configure reads course=NAME, missed=powerdown|random|autopilot and the settings of
// the ruleset as the judge's CREATE reads them (SettingsReader: rules=postal|2023,
// rules.KEY=VALUE, variants=..., options=..., the 2023 variants, act-fast=yes).
func (k Kind) Configure(kv map[string]string) (game.Config, error) {
	c := Config{}
	rs := NewSettingsReader()
	for _, key := range slices.Sorted(maps.Keys(kv)) {
		v := kv[key]
		switch {
		case key == "course":
			c.CourseName = v
		case key == "missed":
			switch v {
			case MissedPowerDown, MissedRandom, MissedAutopilot:
				c.Missed = v
			default:
				return nil, fmt.Errorf("missed %q: want powerdown, random or autopilot", v)
			}
		case rs.Takes(key):
			if err := rs.Read(key, v); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("there is no setting %q (RoboRally takes course, missed, rules, rules.KEY, variants, options and the 2023 variants)", key)
		}
	}
	rules, actFast, err := rs.Finish()
	if err != nil {
		return nil, err
	}
	c.Rules = rules
	if actFast {
		if c.Missed != "" && c.Missed != MissedRandom {
			return nil, fmt.Errorf("act-fast=yes fills missing registers at random (missed=random); it cannot go with missed=%s", c.Missed)
		}
		c.Missed = MissedRandom
	}
	if c.CourseName == "" {
		c.CourseName = DefaultCourse
		if rules.Own() {
			c.CourseName = Default2023Course
		}
	}
	if err := c.Rules.Check(); err != nil {
		return nil, err
	}
	if _, err := k.course(c.CourseName); err != nil {
		return nil, fmt.Errorf("course %q: %v.%s", c.CourseName, err, courseHint(c.CourseName))
	}
	setup, err := k.setup(c, 0) // the course, and whether the rules play it
	if err != nil {
		return nil, err
	}
	c.seats = seatsOf(setup.Course)
	// the option (or upgrade) cards the game deals are fixed at its creation
	// (NewSetup): a later change to the decks changes no game made before it
	c.Rules = setup.Rules
	return c, nil
}

func (k Kind) LoadConfig(raw []byte) (game.Config, error) {
	var c Config
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("roborally: settings unreadable: %v", err)
	}
	if c.CourseName == "" {
		return nil, errors.New("roborally: settings name no course")
	}
	if err := c.Rules.Check(); err != nil {
		return nil, fmt.Errorf("roborally: settings: %w", err)
	}
	if course, err := k.course(c.CourseName); err == nil {
		c.seats = seatsOf(course)
	}
	return c, nil
}

// position is a game between two turns: the engine's state, the standing orders in
// force for each seat, and the seed the game's setup was made with.
type position struct {
	kind  Kind
	cfg   Config
	setup *adjudicator.Setup

	Seed  int64              `json:"seed"`
	State *adjudicator.State `json:"state"`
	// Standing is each seat's standing orders in force (nil: none): every sheet
	// played merged in turn (orders.Merge), without its program nor, under the 2023
	// rules, its round's own orders (Standing).
	Standing []*orders.Sheet `json:"standing"`
	// Given marks a turn's position before (turns.before) of a game adopted from the
	// older path (legacy.go): its State is the state the engine was given, the
	// missed-orders policy already applied, not the position the turn was played from.
	Given bool `json:"given,omitempty"`

	mu     sync.Mutex
	shared *turnShared // the reports' shared parts of the last events asked about (reportmail.go)

	memo moveMemo // the moves decoded, the sheets accepted (movememo.go)
}

func (k Kind) setup(c Config, seed int64) (*adjudicator.Setup, error) {
	course, err := k.course(c.CourseName)
	if err != nil {
		return nil, fmt.Errorf("roborally: course %q: %w", c.CourseName, err)
	}
	return setupOf(course, c.Rules, seed) // kept (setups.go)
}

func (k Kind) Start(c game.Config, seats []string, seed int64) (game.Position, error) {
	cf, ok := c.(Config)
	if !ok {
		return nil, errors.New("roborally: settings of another game")
	}
	setup, err := k.setup(cf, seed)
	if err != nil {
		return nil, err
	}
	st, _, err := adjudicator.NewGame(setup, seats)
	if err != nil {
		return nil, err
	}
	return &position{kind: k, cfg: cf, setup: setup, Seed: seed, State: st, Standing: make([]*orders.Sheet, len(seats))}, nil
}

func (k Kind) Load(c game.Config, b []byte) (game.Position, error) {
	cf, ok := c.(Config)
	if !ok {
		return nil, errors.New("roborally: settings of another game")
	}
	p := &position{kind: k, cfg: cf}
	if err := json.Unmarshal(b, p); err != nil {
		return nil, fmt.Errorf("roborally: position unreadable: %v", err)
	}
	if p.State == nil || len(p.State.Robots) == 0 {
		return nil, errors.New("roborally: position without robots")
	}
	if len(p.Standing) != len(p.State.Robots) {
		return nil, fmt.Errorf("roborally: standing orders for %d seats, %d robots", len(p.Standing), len(p.State.Robots))
	}
	var err error
	if p.setup, err = k.setup(cf, p.Seed); err != nil {
		return nil, err
	}
	if err := p.setup.CheckState(p.State); err != nil {
		return nil, fmt.Errorf("roborally: %w", err)
	}
	return p, nil
}

func (p *position) Encode() ([]byte, error) { return json.Marshal(p) }

func (p *position) Over() bool { return p.State.Over || !inRace(p.State) }

func inRace(st *adjudicator.State) bool {
	for _, r := range st.Robots {
		if !r.Out {
			return true
		}
	}
	return false
}

// Due is every seat whose robot runs a program this turn (not out, not powered down).
func (p *position) Due() []int {
	if p.Over() {
		return nil
	}
	var due []int
	for i, r := range p.State.Robots {
		if NeedsProgram(r) {
			due = append(due, i)
		}
	}
	return due
}

// Standings rank the robots as the game-over mail does (Ranking, StandingLine).
func (p *position) Standings() []game.Standing {
	st := p.State
	seats := Ranking(st)
	out := make([]game.Standing, len(seats))
	for i, s := range seats {
		r := st.Robots[s]
		rank := i + 1
		if i > 0 && compareRobots(st, st.Robots[seats[i-1]], r) == 0 {
			rank = out[i-1].Rank
		}
		line := strings.TrimSpace(strings.TrimPrefix(StandingLine(st, r), r.Name))
		out[i] = game.Standing{Seat: s, Rank: rank, Score: r.Flags, Line: line}
	}
	return out
}

// move is a seat's Move.Data: the sheet it sent, or (the autopilot's move) the
// missed-orders policy to play for it.
type move struct {
	Sheet  *orders.Sheet `json:"sheet,omitempty"`
	Missed string        `json:"missed,omitempty"`
	// Left: the seat's player withdrew and its robot leaves the race (Leave).
	Left bool `json:"left,omitempty"`
}

// Leave is the move of a seat whose player withdrew: the robot leaves the race as the
// turn begins, as on the judge's own path (a withdrawn player's robot is out).
func (p *position) Leave(seat int) (game.Move, bool) {
	if seat < 0 || seat >= len(p.State.Robots) || p.State.Robots[seat].Out {
		return game.Move{}, false
	}
	data, _ := json.Marshal(move{Left: true})
	return game.Move{Data: data, Text: "(the player withdrew: the robot leaves the race)"}, true
}

// Check reads one seat's sheet (plain text or YAML, docs/orders.md) and validates it
// against the position; the forecast is the program's, as the player knows the game.
func (p *position) Check(seat int, text string) game.Checked { return p.CheckFile(seat, text, "") }

// CheckFile is Check of orders sent as an attached file (game.FileChecker): a .yaml or
// .yml file is read as YAML (parseSheet).
func (p *position) CheckFile(seat int, text, file string) game.Checked {
	return p.checkSheet(seat, text, file, func() (*orders.Sheet, error) { return parseSheet(text, file) })
}

// checkSheet is CheckFile of text, read by read (parseSheet, or what ReadMove read of it
// ahead: readmove.go).
func (p *position) checkSheet(seat int, text, file string, read func() (*orders.Sheet, error)) game.Checked {
	var c game.Checked
	if seat < 0 || seat >= len(p.State.Robots) {
		c.Problems = []game.Problem{{Msg: fmt.Sprintf("there is no seat %d", seat+1)}}
		return c
	}
	r := p.State.Robots[seat]
	sheet, err := read()
	var se *orders.SyntaxError
	switch {
	case errors.As(err, &se):
		for _, pr := range se.Problems {
			c.Problems = append(c.Problems, problem(pr))
		}
	case err != nil:
		c.Problems = append(c.Problems, game.Problem{Msg: err.Error()})
	}
	if sheet == nil {
		return c
	}
	if sheet.Turn == 0 {
		sheet.Turn = p.State.Turn
	}
	rep := orders.Validate(p.setup, p.State, r.Name, sheet)
	for _, pr := range rep.Errors() {
		c.Problems = append(c.Problems, problem(pr))
	}
	clean := *sheet
	clean.Secret, clean.Game, clean.At = "", "", orders.Places{}
	if clean.Robot == "" { // the judge read the envelope: the sheet is the seat's robot's, as on its own path
		clean.Robot = r.Name
	}
	if len(c.Problems) > 0 {
		// the sheet as read, kept with the refused version as the judge's own path
		// keeps it (never played)
		c.Move.Data, _ = json.Marshal(move{Sheet: &clean})
		return c
	}
	data, err := json.Marshal(move{Sheet: &clean})
	if err != nil {
		c.Problems = append(c.Problems, game.Problem{Msg: err.Error()})
		return c
	}
	c.Move = game.Move{Data: data, Text: sheetText(p.setup, &r, sheet)}
	var ack narrate.Ack
	Acknowledge(&ack, p.setup, p.State, r.Name, sheet, &rep)
	c.Forecast = p.ackText(seat, sheet, ack)
	p.keepCheck(seat, file, text, ack) // Acknowledge reads it no more (movememo.go)
	return c
}

// ackText is what an accepted sheet's acknowledgement says of the orders (ack, as
// Acknowledge filled it), as on the judge's own path: the program register by
// register, a shutdown, the standing orders in force with this sheet's merged over
// them, the warnings, the forecast.
func (p *position) ackText(seat int, sheet *orders.Sheet, ack narrate.Ack) string {
	var b strings.Builder
	b.Grow(512) // written piece by piece into one buffer (issue 24 item 7: a check ahead a mail)
	if len(ack.Program) > 0 {
		b.WriteString("Program:\n")
		for _, c := range ack.Program {
			b.WriteString("  register ")
			b.WriteString(strconv.Itoa(c.Register))
			b.WriteString(": ")
			b.WriteString(c.Name())
			b.WriteByte('\n')
		}
	}
	if ack.Shutdown {
		b.WriteString("The robot shuts down for the round.\n")
	}
	if eff := Effective(p.Standing[seat], sheet); eff != nil && len(eff.Rules) > 0 {
		b.WriteString("Standing orders in force:\n")
		for _, r := range eff.Rules {
			b.WriteString(game.Wrap("  "+r.String(), "  "))
			b.WriteByte('\n')
		}
	}
	for _, w := range ack.Warnings {
		b.WriteString(game.Wrap("Warning: "+w, "  "))
		b.WriteByte('\n')
	}
	if ack.Forecast != "" {
		b.WriteString(strings.TrimRight(ack.Forecast, "\n"))
		b.WriteByte('\n')
	}
	return b.String()
}

func problem(pr orders.Problem) game.Problem {
	return game.Problem{Line: pr.At.Line, Col: pr.At.Col, Msg: pr.Msg}
}

// sheetText is a sheet in the game's words: the program, then the orders a line each.
func sheetText(setup *adjudicator.Setup, r *adjudicator.Robot, s *orders.Sheet) string {
	var lines []string
	if s.HasProgram() {
		lines = append(lines, ProgramWords(setup, EngineOrders(setup, r, s).Program))
	}
	for _, rule := range s.Rules {
		lines = append(lines, rule.String())
	}
	if len(lines) == 0 {
		return "(no orders)"
	}
	return strings.Join(lines, "\n")
}

// Autopilot is the game's missed-orders policy for the seat (Config.Missed): Play
// plays it as the judge's RoboRally path does (Prepare).
func (p *position) Autopilot(seat int, seed int64) game.Move {
	data, _ := json.Marshal(move{Missed: p.cfg.policy()})
	return game.Move{Data: data, Text: "(no orders: the missed-orders policy " + p.cfg.policy() + ")"}
}

// Fold is a seat's orders sent over several mails of one turn, as the judge's own path
// folds them (orders.Merge: a sheet with a program replaces what came before, one of
// standing orders alone merges over it); the autopilot's move keeps what was sent and
// plays the missed-orders policy for the program.
func (p *position) Fold(seat int, earlier, later game.Move) game.Move {
	e, err := p.decode(earlier.Data) // decoded once (movememo.go)
	if err != nil {
		return later
	}
	l, err := p.decode(later.Data)
	if err != nil {
		return earlier
	}
	out := move{Sheet: e.Sheet, Missed: l.Missed}
	if l.Sheet != nil {
		out.Sheet = orders.Merge(e.Sheet, l.Sheet)
	}
	data, err := json.Marshal(out)
	if err != nil {
		return later
	}
	text := later.Text
	if out.Sheet != nil && seat >= 0 && seat < len(p.State.Robots) {
		text = sheetText(p.setup, &p.State.Robots[seat], out.Sheet)
		if out.Missed != "" {
			text += "\n" + later.Text
		}
	}
	return game.Move{Data: data, Text: text}
}

// Complete says whether a seat's orders are in: a program, or under the 2023 rules a
// plain shutdown (HasOrders); standing orders alone wait for the program.
func (p *position) Complete(seat int, m game.Move) bool {
	mv, err := p.decode(m.Data)
	if err != nil || seat < 0 || seat >= len(p.State.Robots) {
		return false
	}
	return mv.Missed != "" || HasOrders(p.State.Robots[seat], mv.Sheet)
}

// AutopilotAs is the move of a missed-orders policy other than the game's (an absent
// player's robot: the game's absence setting), played as Autopilot's is.
func (p *position) AutopilotAs(seat int, seed int64, policy string) (game.Move, bool) {
	switch policy {
	case MissedPowerDown, MissedRandom, MissedAutopilot:
	default:
		return game.Move{}, false
	}
	data, _ := json.Marshal(move{Missed: policy})
	return game.Move{Data: data, Text: "(no orders: the missed-orders policy " + policy + ")"}, true
}

// Holds holds a turn to its deadline for a powered-down robot whose player has sent
// nothing this turn: its orders may say whether it stays down (the judge's own path,
// absence.go). A robot out of the race is no longer in the game.
func (p *position) Holds(seat int, sent bool) (string, bool) {
	if seat < 0 || seat >= len(p.State.Robots) || p.State.Robots[seat].Out {
		return "", false
	}
	if r := p.State.Robots[seat]; r.Power == adjudicator.PowerDown && !sent {
		return fmt.Sprintf("%s is powered down and has not said whether it stays down", r.Name), true
	}
	return "", true
}

// outcome is a turn's events as Play stores them: the engine's events, what was
// played for each robot, and what the players are told of missed orders.
type outcome struct {
	Events  []adjudicator.Event `json:"events"`
	Played  []orders.Played     `json:"played"`
	Notes   []string            `json:"notes,omitempty"`
	Private map[string]string   `json:"private,omitempty"`
}

// Play plays the turn: each due seat's sheet merged over its standing orders, the
// missed-orders policy for a seat the judge played the autopilot for, the engine.
func (p *position) Play(moves map[int]game.Move, seed int64) (game.Result, error) {
	st, sent, prep, err := p.prepare(moves)
	if err != nil {
		return game.Result{}, err
	}
	lent, err := adjudicator.ResolveLent(p.setup, st, prep.Orders) // the log marshalled below, then released
	if err != nil {
		return game.Result{}, fmt.Errorf("roborally: turn %d: %w", st.Turn, err)
	}
	defer lent.Release()
	next, events := lent.Next, lent.Events
	np := &position{kind: p.kind, cfg: p.cfg, setup: p.setup, Seed: p.Seed, State: next, Standing: slices.Clone(p.Standing)}
	for i, s := range sent {
		if s != nil {
			np.Standing[i] = orders.Merge(np.Standing[i], Standing(p.cfg.Rules, s))
		}
	}
	ev, err := json.Marshal(outcome{Events: events, Played: prep.Played, Notes: prep.Notes, Private: prep.Private})
	if err != nil {
		return game.Result{}, err
	}
	return game.Result{Next: np, Events: ev, Story: story(p.setup, prep)}, nil
}

// prepare is the turn as the engine is given it: the state it plays from (a withdrawn
// player's robot out of the race, what the missed-orders policy does to a robot), each
// seat's sheet as sent, and the orders (Prepare).
func (p *position) prepare(moves map[int]game.Move) (*adjudicator.State, []*orders.Sheet, Turn, error) {
	st := p.State.Clone()
	n := len(st.Robots)
	sent := make([]*orders.Sheet, n)
	missed := map[int]string{}
	var leaving []int
	for seat, m := range moves {
		if seat < 0 || seat >= n {
			return nil, nil, Turn{}, fmt.Errorf("roborally: a move for seat %d of %d", seat+1, n)
		}
		var mv move
		if err := json.Unmarshal(m.Data, &mv); err != nil {
			return nil, nil, Turn{}, fmt.Errorf("roborally: seat %d's move unreadable: %v", seat+1, err)
		}
		sent[seat] = mv.Sheet
		if mv.Missed != "" {
			missed[seat] = mv.Missed
		}
		if mv.Left {
			leaving = append(leaving, seat)
		}
	}
	// a withdrawn player's robot leaves the race before the turn is played
	slices.Sort(leaving)
	var notes []string
	for _, seat := range leaving {
		if r := &st.Robots[seat]; !r.Out {
			r.Out, r.Virtual = true, false
			notes = append(notes, leftNote(r.Name))
		}
		sent[seat] = nil
	}
	sheets := make([]*orders.Sheet, n)
	for i := range sheets {
		sheets[i] = Effective(p.Standing[i], sent[i])
	}
	policy := func(i int) string {
		if m, ok := missed[i]; ok {
			return m
		}
		return p.cfg.policy()
	}
	prep := Prepare(p.setup, st, sheets, policy, p.Seed, st.Turn)
	prep.Notes = append(notes, prep.Notes...)
	return st, sent, prep, nil
}

func story(setup *adjudicator.Setup, t Turn) []string {
	out := slices.Clone(t.Notes)
	for _, pl := range t.Played {
		if pl.Missed == "" && pl.Program != [adjudicator.Registers]int{} {
			out = append(out, fmt.Sprintf("%s played %s.", pl.Robot, ProgramWords(setup, pl.Program)))
		}
	}
	return out
}

// Effective is what a robot plays this turn: the program of the sheet it sent for the
// turn, and its standing orders with this turn's orders merged over them (orders.Merge:
// the newer answer to a decision wins). Standing orders stay in force from turn to
// turn until a sheet replaces them.
func Effective(standing, sent *orders.Sheet) *orders.Sheet {
	if sent == nil {
		return standing
	}
	rulesOnly := *sent
	rulesOnly.Program = nil
	merged := orders.Merge(standing, &rulesOnly)
	eff := *sent
	eff.Rules = merged.Rules
	return &eff
}

// RunScenario plays a RoboRally scenario file (docs/scenarios.md), as `rallyjudge
// resolve` does.
func (Kind) RunScenario(text string) ([]byte, error) {
	s, err := scenario.Parse("scenario", text)
	if err != nil {
		return nil, err
	}
	res, err := s.Run()
	if err != nil {
		return nil, err
	}
	out, err := res.JSON()
	if err != nil {
		return nil, err
	}
	if diffs := s.Check(res); len(diffs) > 0 {
		return out, fmt.Errorf("%d of %d expectations do not hold:\n%s", len(diffs), s.Expectations(), strings.Join(diffs, "\n"))
	}
	return out, nil
}

// parseSheet reads a sheet: from an attached file named .yaml or .yml as YAML, whether
// or not it starts with "---" (as the judge's intake and `rallyjudge check` read such a
// file), otherwise text or YAML as the sheet itself looks (orders.Parse).
func parseSheet(text, file string) (*orders.Sheet, error) {
	switch strings.ToLower(path.Ext(file)) {
	case ".yaml", ".yml":
		return orders.ParseYAML([]byte(text))
	}
	return orders.Parse([]byte(text))
}

var _ game.Templater = Kind{}

// Templates are RoboRally's mails' templates (package narrate: the turn report, the
// welcome, the acknowledgement), which the judge renders with a game master's
// overrides.
func (Kind) Templates() (fs.FS, map[string]any) {
	src := narrate.Source()
	return src.FS, src.Samples
}

// courseHint follows a refused course name: " Did you mean sprint?" when a shipped
// course is near, else "".
func courseHint(name string) string {
	h := near.Hint(name, adjudicator.Courses(), "courses are")
	if !strings.HasPrefix(h, "did you mean") {
		return ""
	}
	return " " + near.Sentence(h)
}
