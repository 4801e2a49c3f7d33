package scenario

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/orders"
)

// Scenario is one parsed scenario file: everything needed to resolve the turn and to
// check the result.
type Scenario struct {
	Name   string `json:"name"` // the file name, for messages
	Title  string `json:"title"`
	Source string `json:"source"` // the rule it checks: "seed 003, Virtual Robots"
	Seed   uint64 `json:"seed"`
	// Stop, when 1–5, resolves only up to the end of that register (phase e) and checks
	// the position there, before the end of turn.
	Stop int `json:"stop,omitempty"`
	// NewGame: no turn is played; the robots are placed by adjudicator.NewGame and the
	// expectations are checked against the new game.
	NewGame bool `json:"new_game,omitempty"`

	Setup     *adjudicator.Setup   `json:"-"`
	State     *adjudicator.State   `json:"state"`
	Orders    []adjudicator.Orders `json:"-"` // Decider filled in by Run, fresh each time
	Decisions []Decisions          `json:"decisions"`
	Names     []string             `json:"-"` // robots in seating order (NewGame)
	// Pile and Deal stack the postal deck in turn 1 (the lines "pile:" and "deal:";
	// adjudicator.Setup.PileTop and DealTop).
	Pile []int `json:"pile,omitempty"`
	Deal []int `json:"deal,omitempty"`
	// Later are the turns played after turn 1 ("turn 2:" sections, turns.go), each from
	// the state the one before ends in.
	Later []*Turn `json:"later,omitempty"`

	expects []expectation
}

// expectation is one expect line: a check of the result that returns "" when it holds
// and otherwise what was found instead.
type expectation struct {
	line  int
	text  string
	check func(r *Result) string
	turn  int // the turn section it checks: 0 turn 1, k Later[k-1]
}

// Result is a resolved scenario: the state after the turn (or after register Stop) and
// the event log. Its JSON is the output of `rallyjudge resolve` (docs/scenarios.md).
type Result struct {
	Scenario string              `json:"scenario"`
	Title    string              `json:"title,omitempty"`
	Source   string              `json:"source,omitempty"`
	Stop     int                 `json:"stopped_after_register,omitempty"`
	State    *adjudicator.State  `json:"state"`
	Events   []adjudicator.Event `json:"events"`
	// Turns is, for a scenario of several turns ("turn 2:" sections), every turn played,
	// turn 1 first; State and Events are then the last one's.
	Turns []TurnResult `json:"turns,omitempty"`
}

// TurnResult is one turn of a scenario of several: the state it ends in and its events.
type TurnResult struct {
	Turn   int                 `json:"turn"` // the turn played
	Stop   int                 `json:"stopped_after_register,omitempty"`
	State  *adjudicator.State  `json:"state"`
	Events []adjudicator.Event `json:"events"`
}

// JSON is the result as indented JSON, ending in a newline. The same scenario always
// gives the same bytes.
func (r *Result) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Limits on a scenario file: over them it is refused with a clear error, never read in
// part.
const (
	MaxFileSize = 1 << 20 // bytes
	MaxLineLen  = 4096    // bytes in one line
)

// Load reads and parses the scenario file at path.
func Load(path string) (*Scenario, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxFileSize {
		return nil, fmt.Errorf("%s: larger than %d bytes, the most a scenario may be", filepath.Base(path), MaxFileSize)
	}
	return Parse(filepath.Base(path), string(b))
}

// Run resolves the scenario: a whole turn, the registers up to Stop, or (NewGame) the
// placing of a new game; then each later turn ("turn 2:" sections) from the state the
// turn before ends in. Each call starts again from the scenario's state.
func (s *Scenario) Run() (*Result, error) {
	res := &Result{Scenario: s.Name, Title: s.Title, Source: s.Source, Stop: s.Stop}
	if s.NewGame {
		st, ev, err := adjudicator.NewGame(s.Setup, s.Names)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", s.Name, err)
		}
		res.State, res.Events = st, ev
		return res, nil
	}
	first := &Turn{Line: 0, Stop: s.Stop, Orders: s.Orders, Decisions: s.Decisions, Pile: s.Pile, Deal: s.Deal}
	st := s.State
	for k, tn := range append([]*Turn{first}, s.Later...) {
		played := st.Turn
		next, ev, err := s.play(tn, st)
		if err != nil {
			if k == 0 {
				return nil, fmt.Errorf("%s: %v", s.Name, err)
			}
			return nil, fmt.Errorf("%s:%d: turn %d: %v", s.Name, tn.Line, k+1, err)
		}
		if ev == nil {
			ev = []adjudicator.Event{}
		}
		res.State, res.Events, res.Stop = next, ev, tn.Stop
		if len(s.Later) > 0 {
			res.Turns = append(res.Turns, TurnResult{Turn: played, Stop: tn.Stop, State: next, Events: ev})
		}
		st = next
	}
	return res, nil
}

// play resolves one turn of the scenario from st.
func (s *Scenario) play(tn *Turn, st *adjudicator.State) (*adjudicator.State, []adjudicator.Event, error) {
	setup := s.Setup
	if len(tn.Pile) > 0 || len(tn.Deal) > 0 {
		if err := checkStack(st, tn.Pile); err != nil {
			return nil, nil, err
		}
		c := *s.Setup
		c.PileTop, c.DealTop = tn.Pile, tn.Deal
		setup = &c
	}
	orders := slices.Clone(tn.Orders)
	for i := range orders {
		orders[i].Decider = &decider{d: tn.Decisions[i]}
	}
	// The engine's state is its own: a later turn's must not share memory with the
	// result kept of the turn before.
	return adjudicator.ResolveUntil(setup, st.Clone(), orders, tn.Stop)
}

// Check compares a result with the scenario's expectations and lists every one that
// does not hold, as "file:line: expect ...: got ...". An empty list means all hold.
func (s *Scenario) Check(r *Result) []string {
	var out []string
	for _, e := range s.expects {
		view := r
		if len(r.Turns) > 0 && e.turn < len(r.Turns) {
			tr := r.Turns[e.turn]
			view = &Result{Scenario: r.Scenario, Stop: tr.Stop, State: tr.State, Events: tr.Events}
		}
		if got := e.check(view); got != "" {
			out = append(out, fmt.Sprintf("%s:%d: %s\n\tgot %s", s.Name, e.line, e.text, got))
		}
	}
	return out
}

// Expectations is the number of expect lines.
func (s *Scenario) Expectations() int { return len(s.expects) }

// parser is the state of reading one file.
type parser struct {
	name     string
	lines    []string
	sc       *Scenario
	board    *adjudicator.BoardFile
	parts    []adjudicator.BoardPart // "board at X,Y:" lines: a course of several boards
	boards   int
	boardsAt int // the boards: line, 0 when none
	turn     int
	robots   []robotLine
	devices  []deviceLine // devices.go
	deck     []string
	piles    [][]string        // Scavenger Hunt piles ("pile N: A, B")
	r23      *rules2023        // the 2023 rules (rules2023.go); nil for the postal rules
	rules    adjudicator.Rules // the postal rules with any KEY=VALUE settings
	settings bool              // a rules: KEY=VALUE line was read
	sections []*section        // the "turn N:" sections read so far (turns.go)
	exTurn   int               // the turn section an expect line being read checks
}

type robotLine struct {
	line    int
	jammed  map[int]int // jammed R:P490: the register a Target Control shot locked, and its card
	fly     int         // flywheel P490: the card kept on its Flywheel
	r       adjudicator.Robot
	locked  []int // cards in the locked registers, first locked register first; 0 empty
	hand    []int
	hasHand bool
	prog    *[adjudicator.Registers]int
	progAt  int
	dec     Decisions
	mat     *mat2023 // the 2023 player mat (rules2023.go)
	upgrade adjudicator.UpgradeOrders
	used    map[string]int // used NAME: what each held option has used up (devices.go)
	bomb    []int          // bomb hand NAME: a buzz bomb's five cards (devices.go)
	usedAt  int
}

func (p *parser) errf(line int, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", p.name, line, fmt.Sprintf(format, args...))
}

// Parse reads a scenario from text; name is the file name used in messages.
func Parse(name, text string) (*Scenario, error) {
	if len(text) > MaxFileSize {
		return nil, fmt.Errorf("%s: larger than %d bytes, the most a scenario may be", name, MaxFileSize)
	}
	text = strings.TrimPrefix(text, "\uFEFF") // a byte-order mark some editors write
	if !utf8.ValidString(text) {
		return nil, fmt.Errorf("%s: not UTF-8 text", name)
	}
	p := &parser{name: name, lines: strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n"), sc: &Scenario{Name: name}, boards: 1, turn: 1, rules: adjudicator.PostalRules()}
	var pendingExpect []func() error
	for i, l := range p.lines {
		if len(l) > MaxLineLen {
			return nil, p.errf(i+1, "the line is longer than %d bytes", MaxLineLen)
		}
	}
	for i := 0; i < len(p.lines); i++ {
		ln := i + 1
		line := strings.TrimSpace(p.lines[i])
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, rest, _ := strings.Cut(line, " ")
		key = strings.TrimSuffix(key, ":")
		rest = strings.TrimSpace(rest)
		if p.inSection() && !slices.Contains([]string{"program", "decide", "orders", "upgrade", "pile", "deal", "stop", "expect", "turn"}, key) {
			return nil, p.errf(ln, "%s: a turn section holds only program, decide, orders, upgrade, pile:, deal:, stop and expect lines; write the rest before \"turn 2:\"", key)
		}
		switch key {
		case "title":
			p.sc.Title = rest
		case "source":
			p.sc.Source = rest
		case "seed":
			v, err := strconv.ParseUint(rest, 10, 64)
			if err != nil {
				return nil, p.errf(ln, "seed: want a whole number, got %q", rest)
			}
			p.sc.Seed = v
		case "boards":
			v, err := strconv.Atoi(rest)
			if err != nil || v < 1 {
				return nil, p.errf(ln, "boards: want the number of boards of the course (1+), got %q", rest)
			}
			p.boards, p.boardsAt = v, ln
		case "turn":
			if !strings.HasPrefix(line, "turn:") {
				if err := p.startSection(ln, rest); err != nil {
					return nil, err
				}
				continue
			}
			if p.inSection() {
				return nil, p.errf(ln, "turn: the turn played is written before the turn sections")
			}
			v, err := strconv.Atoi(rest)
			if err != nil || v < 1 || v > adjudicator.MaxTurn {
				return nil, p.errf(ln, "turn: want a turn number (1 to %d), got %q", adjudicator.MaxTurn, rest)
			}
			p.turn = v
		case "stop":
			rest = strings.TrimPrefix(rest, "after register ")
			v, err := strconv.Atoi(rest)
			if err != nil || v < 1 || v > adjudicator.Registers {
				return nil, p.errf(ln, "stop: want \"after register N\" with N 1-5, got %q", rest)
			}
			if p.inSection() {
				p.sections[len(p.sections)-1].stop = v
			} else {
				p.sc.Stop = v // 5 too: every register and no end of turn (issue 23)
			}
		case "game":
			if rest != "new" {
				return nil, p.errf(ln, "game: only \"game: new\" is known, got %q", rest)
			}
			p.sc.NewGame = true
		case "options":
			if strings.HasPrefix(line, "options:") {
				p.deck = splitList(rest)
				continue
			}
			// options NAME: a, b — the options a robot holds
			rname, list, ok := strings.Cut(rest, ":")
			rl := p.robot(strings.TrimSpace(rname))
			if !ok || rl == nil {
				return nil, p.errf(ln, "options: want \"options: A, B\" (the deck) or \"options ROBOT: A, B\" after the robot's line")
			}
			rl.r.Options = splitList(list)
		case "offered", "bio":
			// offered NAME: A, B, C — a Deluxe Option Package's cards to keep one of;
			// bio NAME: CARD — the held option on a Bio-Bot's Bio Option (variants.go).
			rname, list, ok := strings.Cut(rest, ":")
			rl := p.robot(strings.TrimSpace(rname))
			if !ok || rl == nil {
				return nil, p.errf(ln, "%s: want \"%s ROBOT: ...\" after the robot's line", key, key)
			}
			if key == "offered" {
				rl.r.Offered = splitList(list)
			} else {
				rl.r.Bio = strings.TrimSpace(list)
			}
		case "deal":
			if err := p.stackLine(ln, key, rest); err != nil {
				return nil, err
			}
		case "pile":
			if strings.HasPrefix(line, "pile:") {
				// pile: P490 P500 — the top of the turn's draw pile (turns.go).
				if err := p.stackLine(ln, key, rest); err != nil {
					return nil, err
				}
				continue
			}
			if p.inSection() {
				return nil, p.errf(ln, "pile N: Scavenger Hunt's piles are written before the turn sections")
			}
			// pile N: A, B — Scavenger Hunt's pile at flag N, top first.
			num, list, ok := strings.Cut(rest, ":")
			n, err := strconv.Atoi(strings.TrimSpace(num))
			if !ok || err != nil || n < 1 || n > 16 {
				return nil, p.errf(ln, "pile: want \"pile N: A, B\" with N the flag (1 to 16)")
			}
			for len(p.piles) < n {
				p.piles = append(p.piles, []string{})
			}
			p.piles[n-1] = splitList(list)
		case "board":
			at := adjudicator.Pos{}
			if rest != "" {
				// board at X,Y: — another board of the course, its north-west corner at X,Y.
				pos, ok := parsePos(strings.TrimSuffix(strings.TrimPrefix(rest, "at "), ":"))
				if !ok || !strings.HasPrefix(rest, "at ") || !strings.HasSuffix(rest, ":") {
					return nil, p.errf(ln, "board: want \"board:\" (the first board, at 0,0) or \"board at X,Y:\" (another board of the course)")
				}
				if p.board == nil {
					return nil, p.errf(ln, "board at %v: the first board is written \"board:\" (at 0,0)", pos)
				}
				at = pos
			} else if p.board != nil {
				return nil, p.errf(ln, "board: written twice; another board of the course is \"board at X,Y:\"")
			}
			var rows []string
			first := ln + 1
			for i+1 < len(p.lines) && strings.HasPrefix(p.lines[i+1], " ") || i+1 < len(p.lines) && strings.HasPrefix(p.lines[i+1], "\t") {
				i++
				rows = append(rows, strings.TrimSpace(p.lines[i]))
			}
			bf, err := adjudicator.ParseBoardRows(p.name, first, rows)
			if err != nil {
				return nil, err
			}
			if p.board == nil {
				p.board = bf
			}
			p.parts = append(p.parts, adjudicator.BoardPart{File: bf, At: at})
		case "robot":
			if err := p.robotLine(ln, rest); err != nil {
				return nil, err
			}
		case "program":
			if err := p.programLine(ln, rest); err != nil {
				return nil, err
			}
		case "device":
			if err := p.deviceLine(ln, rest); err != nil {
				return nil, err
			}
		case "used":
			if err := p.usedLine(ln, rest); err != nil {
				return nil, err
			}
		case "bomb":
			if err := p.bombLine(ln, rest); err != nil {
				return nil, err
			}
		case "decide":
			if err := p.decideLine(ln, rest); err != nil {
				return nil, err
			}
		case "orders":
			// orders NAME: one order-sheet line, as in a mailed sheet (docs/orders.md).
			name, text, ok := strings.Cut(rest, ":")
			rl := p.orderRobot(strings.TrimSpace(name))
			if !ok || rl == nil {
				return nil, p.errf(ln, "orders: want \"orders ROBOT: ORDER\" for a robot declared above")
			}
			// A line may hold several orders ("x; y", "discard Brakes before Shield ...").
			rs, err := orders.ParseRules(strings.TrimSpace(text), ln)
			if err != nil {
				return nil, p.errf(ln, "orders %s: %v", rl.r.Name, err)
			}
			rl.dec.Orders = append(rl.dec.Orders, strings.TrimSpace(text))
			rl.dec.rules = append(rl.dec.rules, rs...)
		case "expect":
			// Parsed after the robots are known.
			ln, rest, turn := ln, rest, len(p.sections)
			pendingExpect = append(pendingExpect, func() error {
				p.exTurn = turn
				return p.expectLine(ln, rest)
			})
		case "rules", "priority", "damage", "upgrade", "collection":
			if key == "rules" && strings.Contains(rest, "=") {
				if err := p.settingsLine(ln, rest); err != nil {
					return nil, err
				}
				continue
			}
			if key == "rules" && p.settings {
				return nil, p.errf(ln, "rules: name the ruleset before any KEY=VALUE settings")
			}
			if err := p.line2023(ln, key, rest); err != nil {
				return nil, err
			}
		default:
			return nil, p.errf(ln, "unknown line %q (want title, source, seed, boards, turn, stop, game, rules (a ruleset and KEY=VALUE settings), options, offered, bio, pile, deal, board, robot, program, decide, device, used, bomb hand, turn N: or expect; 2023: priority, damage deck, damage discard)", key)
		}
	}
	if err := p.build(); err != nil {
		return nil, err
	}
	if p.sc.NewGame && (p.inSection() || len(p.sc.Pile) > 0 || len(p.sc.Deal) > 0) {
		return nil, fmt.Errorf("%s: a \"game: new\" scenario plays no turn: no turn sections, pile: or deal:", p.name)
	}
	if err := p.checkStackCards(p.sc.Setup); err != nil {
		return nil, err
	}
	if err := p.buildSections(); err != nil {
		return nil, err
	}
	for _, f := range pendingExpect {
		if err := f(); err != nil {
			return nil, err
		}
	}
	if len(p.sc.expects) == 0 {
		return nil, fmt.Errorf("%s: no expect lines: a scenario must say what the rules require", p.name)
	}
	return p.sc, nil
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" && f != "none" {
			out = append(out, f)
		}
	}
	return out
}

func (p *parser) robot(name string) *robotLine {
	for i := range p.robots {
		if p.robots[i].r.Name == name {
			return &p.robots[i]
		}
	}
	return nil
}

func parsePos(s string) (adjudicator.Pos, bool) {
	xs, ys, ok := strings.Cut(s, ",")
	x, err1 := strconv.Atoi(xs)
	y, err2 := strconv.Atoi(ys)
	return adjudicator.Pos{X: x, Y: y}, ok && err1 == nil && err2 == nil
}

// parseCard reads P490 (or 490); "-" is 0, an empty register.
func parseCard(s string) (int, bool) {
	if s == "-" {
		return 0, true
	}
	v, err := strconv.Atoi(strings.TrimPrefix(s, "P"))
	return v, err == nil && v > 0
}

func (p *parser) robotLine(ln int, rest string) error {
	rest, opts, hasOpts := strings.Cut(rest, "options:")
	f := strings.Fields(rest)
	if len(f) == 0 {
		return p.errf(ln, "robot: want a name")
	}
	if msg := adjudicator.NameProblem(f[0]); msg != "" {
		return p.errf(ln, "robot: name's %s, which is not allowed in names", msg) // never echoed to the terminal
	}
	rl := robotLine{line: ln}
	rl.r = adjudicator.Robot{Name: f[0], Lives: 3}
	if p.robot(f[0]) != nil {
		return p.errf(ln, "robot %s is declared twice", f[0])
	}
	if hasOpts {
		rl.r.Options = splitList(opts)
	}
	hasArchive, hasAt := false, false
	for k := 1; k < len(f); k++ {
		arg := func() (string, error) {
			if k+1 >= len(f) {
				return "", p.errf(ln, "robot %s: %s needs a value", f[0], f[k])
			}
			k++
			return f[k], nil
		}
		switch f[k] {
		case "at", "archive":
			key := f[k]
			v, err := arg()
			if err != nil {
				return err
			}
			pos, ok := parsePos(v)
			if !ok {
				return p.errf(ln, "robot %s: %s wants x,y, got %q", f[0], key, v)
			}
			if key == "at" {
				rl.r.Pos, hasAt = pos, true
			} else {
				rl.r.Archive, hasArchive = pos, true
			}
		case "facing":
			v, err := arg()
			if err != nil {
				return err
			}
			d, ok := adjudicator.ParseDir(v)
			if !ok {
				return p.errf(ln, "robot %s: facing wants N, E, S or W, got %q", f[0], v)
			}
			rl.r.Facing = d
		case "damage", "lives", "flags":
			key := f[k]
			v, err := arg()
			if err != nil {
				return err
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return p.errf(ln, "robot %s: %s wants a number, got %q", f[0], key, v)
			}
			switch key {
			case "damage":
				rl.r.Damage = n
			case "lives":
				rl.r.Lives = n
			case "flags":
				rl.r.Flags = n
			}
		case "jammed":
			// jammed 3:P490 — a register a Target Control shot locked last turn, with
			// the card it keeps through this turn (seed 000, Target Control).
			if p.r23 != nil {
				return p.errf(ln, "robot %s: jammed belongs to the postal rules (seed 000, Target Control)", f[0])
			}
			j := k
			for j+1 < len(f) && strings.Contains(f[j+1], ":") {
				j++
				rs, cs, _ := strings.Cut(f[j], ":")
				reg, err := strconv.Atoi(rs)
				c, ok := parseCard(cs)
				if err != nil || reg < 1 || reg > adjudicator.Registers || !ok || c == 0 {
					return p.errf(ln, "robot %s: jammed wants REGISTER:CARD like 3:P490, got %q", f[0], f[j])
				}
				if rl.jammed == nil {
					rl.jammed = map[int]int{}
				}
				if _, dup := rl.jammed[reg]; dup {
					return p.errf(ln, "robot %s: register %d jammed twice", f[0], reg)
				}
				rl.jammed[reg] = c
			}
			if j == k {
				return p.errf(ln, "robot %s: jammed wants REGISTER:CARD like 3:P490", f[0])
			}
			k = j
		case "flywheel":
			v, err := arg()
			if err != nil {
				return err
			}
			c, ok := parseCard(v)
			if !ok || c == 0 || p.r23 != nil {
				return p.errf(ln, "robot %s: flywheel wants a card of the postal deck (P490), got %q", f[0], v)
			}
			rl.fly = c
		case "virtual":
			rl.r.Virtual = true
		case "down":
			rl.r.Power = adjudicator.PowerDown
		case "out":
			rl.r.Out = true
		case "locked", "hand", "energy", "deck", "discard", "haywire", "start", "rebooting":
			if p.r23 != nil {
				var err error
				if k, err = p.robotWord2023(ln, &rl, f, k); err != nil {
					return err
				}
				continue
			}
			if f[k] != "locked" && f[k] != "hand" {
				return p.errf(ln, "robot %s: %s belongs to the 2023 rules (write \"rules: 2023\" first)", f[0], f[k])
			}
			key := f[k]
			var cards []int
			for k+1 < len(f) && (strings.HasPrefix(f[k+1], "P") || f[k+1] == "-") {
				k++
				c, ok := parseCard(f[k])
				if !ok {
					return p.errf(ln, "robot %s: %q is not a card (want P490)", f[0], f[k])
				}
				cards = append(cards, c)
			}
			if key == "locked" {
				rl.locked = cards
			} else {
				rl.hand, rl.hasHand = cards, true
			}
		default:
			return p.errf(ln, "robot %s: unknown word %q (want at, facing, damage, lives, flags, archive, virtual, down, out, locked, jammed, flywheel, hand, options:)", f[0], f[k])
		}
	}
	if !hasAt && !p.sc.NewGame {
		return p.errf(ln, "robot %s: want its square: at x,y", f[0])
	}
	if !hasArchive {
		rl.r.Archive = rl.r.Pos
	}
	p.robots = append(p.robots, rl)
	return nil
}

func (p *parser) programLine(ln int, rest string) error {
	name, cards, ok := strings.Cut(rest, ":")
	rl := p.orderRobot(strings.TrimSpace(name))
	if !ok || rl == nil {
		return p.errf(ln, "program: want \"program ROBOT: P490 P670 ...\" after the robot's line")
	}
	f := strings.Fields(cards)
	if len(f) != adjudicator.Registers {
		return p.errf(ln, "program %s: want %d cards (- for a locked register), got %d", rl.r.Name, adjudicator.Registers, len(f))
	}
	var prog [adjudicator.Registers]int
	for k, c := range f {
		v, ok := p.card(c)
		if !ok {
			return p.errf(ln, "program %s: register %d: %q is not a card (want P490 or -)", rl.r.Name, k+1, c)
		}
		prog[k] = v
	}
	rl.prog, rl.progAt = &prog, ln
	return nil
}

func (p *parser) decideLine(ln int, rest string) error {
	name, words, ok := strings.Cut(rest, ":")
	rl := p.orderRobot(strings.TrimSpace(name))
	if !ok || rl == nil {
		return p.errf(ln, "decide: want \"decide ROBOT: powerdown ...\" after the robot's line")
	}
	f := strings.Fields(words)
	for k := 0; k < len(f); k++ {
		next := func() (string, error) {
			if k+1 >= len(f) {
				return "", p.errf(ln, "decide %s: %s needs a value", rl.r.Name, f[k])
			}
			k++
			return f[k], nil
		}
		switch f[k] {
		case "powerdown":
			rl.dec.PowerDown = true
			rl.dec.said |= saidPowerDown
		case "shutdown":
			if p.r23 == nil {
				return p.errf(ln, "decide %s: shutdown belongs to the 2023 rules (write \"rules: 2023\" first)", rl.r.Name)
			}
			rl.dec.Shutdown = true
		case "staydown":
			rl.dec.StayDown = true
			rl.dec.said |= saidStayDown
		case "wrench":
			rl.dec.said |= saidWrench
			v, err := next()
			if err != nil {
				return err
			}
			switch v {
			case "repair":
				rl.dec.Wrench = adjudicator.Repair2
			case "option":
				rl.dec.Wrench = adjudicator.TakeOption
			default:
				return p.errf(ln, "decide %s: wrench wants repair or option, got %q", rl.r.Name, v)
			}
		case "facing":
			rl.dec.said |= saidFacing
			v, err := next()
			if err != nil {
				return err
			}
			d, ok := adjudicator.ParseDir(v)
			if !ok {
				return p.errf(ln, "decide %s: facing wants N, E, S or W, got %q", rl.r.Name, v)
			}
			rl.dec.Facing = &d
		case "prevent", "lose":
			key := f[k]
			v, err := next()
			if err != nil {
				return err
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return p.errf(ln, "decide %s: %s wants a number, got %q", rl.r.Name, key, v)
			}
			if key == "prevent" {
				rl.dec.Prevent = n
				rl.dec.said |= saidPrevent
			} else {
				rl.dec.Lose = n
				rl.dec.said |= saidLose
			}
		case "keep-archive":
			rl.dec.KeepArchive = true
			rl.dec.said |= saidArchive
		case "pick":
			v, err := next()
			if err != nil {
				return err
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return p.errf(ln, "decide %s: pick wants the index of a card offered, got %q", rl.r.Name, v)
			}
			rl.dec.Pick = &n
		case "chop":
			rl.dec.said |= saidChop
			v, err := next()
			if err != nil {
				return err
			}
			switch v {
			case "draw":
				rl.dec.Chop = &adjudicator.ChopChoice{Act: adjudicator.ChopDraw}
			case "scrap", "recharge":
				w, err := next()
				if err != nil {
					return err
				}
				n, err := strconv.Atoi(w)
				if err != nil || n < 0 {
					return p.errf(ln, "decide %s: chop %s wants the index of a held option, got %q", rl.r.Name, v, w)
				}
				act := adjudicator.ChopScrap
				if v == "recharge" {
					act = adjudicator.ChopRecharge
				}
				rl.dec.Chop = &adjudicator.ChopChoice{Act: act, Option: n}
			default:
				return p.errf(ln, "decide %s: chop wants draw, scrap N or recharge N, got %q", rl.r.Name, v)
			}
		default:
			return p.errf(ln, "decide %s: unknown decision %q (want powerdown, staydown, wrench repair|option, facing D, prevent N, lose N, keep-archive, pick N, chop draw|scrap N|recharge N)", rl.r.Name, f[k])
		}
	}
	return nil
}

// build makes the course, setup, state and orders once every line is read.
func (p *parser) build() error {
	if p.board == nil {
		return fmt.Errorf("%s: no board: lines", p.name)
	}
	if len(p.robots) == 0 {
		return fmt.Errorf("%s: no robot lines", p.name)
	}
	if len(p.robots) > adjudicator.MaxRobots {
		return fmt.Errorf("%s: %d robots, at most %d", p.name, len(p.robots), adjudicator.MaxRobots)
	}
	if p.sc.NewGame && len(p.board.Starts) == 0 {
		return fmt.Errorf("%s: game: new places robots on start squares, and the board has none (mark them 1-8)", p.name)
	}
	course := &adjudicator.Course{Name: p.name, Board: p.board.Board, Flags: p.board.Flags, Starts: p.board.Starts,
		MinPlayers: 1, MaxPlayers: adjudicator.MaxRobots, Boards: p.boards}
	if len(p.parts) > 1 {
		// A course of several boards: one floor, each square knowing its board.
		c, err := adjudicator.CourseOfParts(p.name, p.parts)
		if err != nil {
			return fmt.Errorf("%s: %v", p.name, err)
		}
		if p.boardsAt == 0 {
			p.boards = len(p.parts)
		}
		c.Boards = p.boards
		course = c
		p.board = &adjudicator.BoardFile{Name: p.name, Board: c.Board, Flags: c.Flags, Starts: c.Starts}
	}
	b := course.Board
	if len(course.Starts) == 0 {
		// A scenario board needs no start square unless a new game is placed; any
		// square a robot could stand on will do for the course check.
		for k, sq := range b.Squares {
			if sq.Floor != adjudicator.FloorPit {
				course.Starts = []adjudicator.Start{{Pos: adjudicator.Pos{X: k % b.W, Y: k / b.W}}}
				break
			}
		}
	}
	rules := p.rules
	if p.r23 != nil {
		rules = p.r23.rules
	}
	setup, err := adjudicator.NewSetup(course, rules, p.sc.Seed, p.deck)
	if err != nil {
		return fmt.Errorf("%s: %v", p.name, err)
	}
	setup.OptionsInOrder = true // options: is written top first, never shuffled
	p.sc.Setup = setup
	if p.sc.NewGame {
		for _, rl := range p.robots {
			p.sc.Names = append(p.sc.Names, rl.r.Name)
		}
		p.sc.Decisions = make([]Decisions, len(p.robots))
		st, _, err := adjudicator.NewGame(setup, p.sc.Names)
		if err != nil {
			return fmt.Errorf("%s: %v", p.name, err)
		}
		p.sc.State = st
		return nil
	}
	if p.r23 != nil {
		if err := p.build2023(setup); err != nil {
			return err
		}
		return p.checkState()
	}
	st := &adjudicator.State{Turn: p.turn, OptionDeck: slices.Clone(p.deck), Piles: p.piles}
	seen := map[int]string{}
	useCard := func(ln int, who string, c int) error {
		if c == 0 {
			return nil
		}
		if setup.Deck.Kind(c) == adjudicator.NoCard {
			return p.errf(ln, "robot %s: P%d is not a card of the deck", who, c)
		}
		if other, dup := seen[c]; dup {
			return p.errf(ln, "robot %s: P%d is already %s's: every card is in the deck once", who, c, other)
		}
		seen[c] = who
		return nil
	}
	for _, rl := range p.robots {
		r := rl.r
		if !b.In(r.Pos) && !r.Out {
			return p.errf(rl.line, "robot %s: square %v is off the board", r.Name, r.Pos)
		}
		if len(p.board.Flags) > 0 && r.Flags > len(p.board.Flags) {
			return p.errf(rl.line, "robot %s: %d flags touched but the board has %d", r.Name, r.Flags, len(p.board.Flags))
		}
		locked := r.Locked()
		if len(rl.locked) > locked {
			return p.errf(rl.line, "robot %s: %d locked cards but %d damage locks %d registers", r.Name, len(rl.locked), r.Damage, locked)
		}
		if r.Power == adjudicator.PowerOn && !r.Out && len(rl.locked) < locked {
			return p.errf(rl.line, "robot %s: %d damage locks %d registers but %d locked cards are given (write - for a register that locked empty while powered down)", r.Name, r.Damage, locked, len(rl.locked))
		}
		if r.Power == adjudicator.PowerDown && len(rl.locked) > 0 {
			return p.errf(rl.line, "robot %s: a powered-down robot has its damage repaired and holds no locked cards", r.Name)
		}
		for k, c := range rl.locked {
			reg := adjudicator.Registers - locked + k
			r.Registers[reg] = c
			if err := useCard(rl.line, r.Name, c); err != nil {
				return err
			}
		}
		for reg := 1; reg <= adjudicator.Registers; reg++ {
			c, ok := rl.jammed[reg]
			if !ok {
				continue
			}
			if r.IsLocked(reg) {
				return p.errf(rl.line, "robot %s: register %d is locked by damage already; jammed names a register a Target Control shot locked", r.Name, reg)
			}
			r.Jammed = r.Jammed.With(reg)
			r.Registers[reg-1] = c
			if err := useCard(rl.line, r.Name, c); err != nil {
				return err
			}
		}
		if rl.fly != 0 {
			if !slices.Contains(r.Options, "Flywheel") {
				return p.errf(rl.line, "robot %s: a card on a Flywheel needs the Flywheel option held", r.Name)
			}
			r.Flywheel = rl.fly
			if err := useCard(rl.line, r.Name, rl.fly); err != nil {
				return err
			}
		}
		var prog [adjudicator.Registers]int
		if rl.prog != nil {
			prog = *rl.prog
		}
		if rl.hasHand {
			r.Hand = slices.Clone(rl.hand)
		} else if r.Power == adjudicator.PowerOn && !r.Out {
			for reg := 1; reg <= adjudicator.Registers; reg++ {
				if !r.IsLocked(reg) && prog[reg-1] != 0 {
					r.Hand = append(r.Hand, prog[reg-1])
				}
			}
		}
		slices.Sort(r.Hand)
		for _, c := range r.Hand {
			if err := useCard(rl.line, r.Name, c); err != nil {
				return err
			}
		}
		st.Robots = append(st.Robots, r)
		p.sc.Orders = append(p.sc.Orders, adjudicator.Orders{Program: prog})
		p.sc.Decisions = append(p.sc.Decisions, rl.dec)
	}
	for i, rl := range p.robots {
		if st.Robots[i].Out {
			continue
		}
		if rl.prog == nil && st.Robots[i].Power == adjudicator.PowerOn && st.Robots[i].Locked() < adjudicator.Registers {
			return p.errf(rl.line, "robot %s: no program line (powered-down robots need none)", rl.r.Name)
		}
		at := rl.progAt
		if at == 0 {
			at = rl.line
		}
		if errs := setup.CheckProgram(st, i, p.sc.Orders[i].Program); len(errs) > 0 {
			return p.errf(at, "program %s: %v", rl.r.Name, errs[0])
		}
	}
	if err := p.placeDevices(st); err != nil {
		return err
	}
	p.sc.State = st
	return p.checkState()
}

// checkState refuses a state no game could reach (adjudicator.CheckState): a robot on a
// pit, two robots on a square, 10 damage on a robot in play, ...
func (p *parser) checkState() error {
	if err := p.sc.Setup.CheckState(p.sc.State); err != nil {
		return fmt.Errorf("%s: %v", p.name, err)
	}
	return nil
}

// settingsLine reads "rules: KEY=VALUE ...": rules settings by their JSON names
// (adjudicator.Rules.Set), applied to the ruleset named before (the postal rules when
// none was).
func (p *parser) settingsLine(ln int, rest string) error {
	r := &p.rules
	if p.r23 != nil {
		r = &p.r23.rules
	}
	for _, kv := range strings.Fields(rest) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return p.errf(ln, "rules: want KEY=VALUE words (e.g. pass_touches=true), got %q", kv)
		}
		if err := r.Set(k, v); err != nil {
			return p.errf(ln, "rules: %v", err)
		}
	}
	p.settings = true
	return nil
}
