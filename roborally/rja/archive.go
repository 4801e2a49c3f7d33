package rja

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/archive/jsonl"
	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/orders"
)

// Magic is the first line of every archive, with the format version after it.
const Magic = "rallyjudge-archive"

// Version is the format version this package writes and reads.
const Version = 1

// Limits on what Read accepts (docs/archive.md).
const (
	MaxHeaderBytes = jsonl.MaxHeaderBytes // the header line: the course and its boards inline
	MaxTurnBytes   = jsonl.MaxTurnBytes   // one turn line (its orders and its press)
	MaxTurns       = jsonl.MaxTurns       // turn lines, turn 0 included
	MaxBoards      = 16                   // boards carried
	MaxOptions     = 256                  // option deck cards
	MaxRules       = 200                  // standing and conditional orders on one robot's sheet
	MaxCondDepth   = orders.MaxCondDepth  // nesting of all/any in a condition (the judge takes no deeper sheet)
	MaxCondNodes   = orders.MaxCondTests  // tests in one order's conditions
	MaxPress       = 1000                 // press messages on one turn line
	MaxPressBytes  = 64 << 10             // the text of one press message
)

// Anonymous is the sender of anonymous press as the archive gives it: the public
// never learns who wrote it, and neither does the archive.
const Anonymous = jsonl.Anonymous

// Archive is one game: how it was set up and every turn's orders, with the hash of the
// state after each turn.
type Archive struct {
	Game    string          `json:"game"` // the game's tag, for the record
	Name    string          `json:"name,omitempty"`
	Course  Course          `json:"course"`
	Rules   json.RawMessage `json:"rules"`   // adjudicator.Rules as JSON
	Options []string        `json:"options"` // the option deck before shuffling
	Seed    int64           `json:"seed"`
	Robots  []string        `json:"robots"` // in seating order
	// Sums are the SHA-256 of each part of the set-up above as Write wrote it, so that
	// an edit to the header (a pit turned into floor in the course text) is named when
	// the game is replayed or imported, not taken for the game. Write fills it in;
	// archives written before it was added have none.
	Sums *Sums `json:"sums,omitempty"`
	// Turns counts the turn lines that follow the header (turn 0 included); Write fills
	// it in, Read checks it (a truncated archive is an error).
	Count int    `json:"turns"`
	Turns []Turn `json:"-"`
}

// Turn is one turn line. Turn 0 is the set-up: no orders, the hash of the starting
// state. Turn n≥1 is the orders played (one per robot, in seating order) and the hash
// of the state after the turn.
type Turn struct {
	Turn   int      `json:"turn"`
	Orders []Played `json:"orders,omitempty"`
	// Before is the state given to the engine, only when it is not the state after the
	// previous turn with the missed-orders policy applied (say, a game master changed
	// it between turns). Usually absent.
	Before json.RawMessage `json:"before,omitempty"`
	Hash   string          `json:"hash"`
	// Press is the press sent after this turn resolved, while the next turn's orders
	// were gathered (the judge numbers it turn n+1), in the order it was sent, as the
	// public sees it. Usually absent.
	Press []Press `json:"press,omitempty"`
}

// Press is one message players wrote through the judge, as the public sees it: the
// sender's robot when it was signed, Anonymous when it was not (never the real
// sender), the robots written to (none: everyone), the text. Never an address.
type Press struct {
	From string   `json:"from"`
	To   []string `json:"to,omitempty"`
	Text string   `json:"text"`
}

// Played is one robot's orders as the engine played them (orders.Played, the judge's
// record, field for field).
type Played = orders.Played

// Write writes a in the archive format: the magic line, the header, one line per turn.
// The same archive always gives the same bytes.
func Write(w io.Writer, a Archive) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s %d\n", Magic, Version)
	a.Count = len(a.Turns)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	if len(a.Rules) == 0 {
		a.Rules = json.RawMessage("{}")
	}
	if a.Options == nil {
		a.Options = []string{}
	}
	var rules bytes.Buffer
	if err := json.Compact(&rules, a.Rules); err != nil {
		return fmt.Errorf("archive: write: rules: %w", err)
	}
	a.Rules = rules.Bytes()
	sums := a.sums()
	a.Sums = &sums
	if err := enc.Encode(a); err != nil {
		return fmt.Errorf("archive: write: header: %w", err)
	}
	for n, t := range a.Turns {
		// what Read would refuse is never written (the bug: export wrote a turn with
		// "missed":"autopilot" that replay and import then refused)
		if msg := checkTurn(&a, &t, n); msg != "" {
			return fmt.Errorf("archive: write: turn %d: %s", n, msg)
		}
		if len(t.Before) > 0 {
			var b bytes.Buffer
			if err := json.Compact(&b, t.Before); err != nil {
				return fmt.Errorf("archive: write: turn %d: before: %w", t.Turn, err)
			}
			t.Before = b.Bytes()
		}
		for i := range t.Press {
			if m := checkPress(&a, &t.Press[i]); m != "" {
				return fmt.Errorf("archive: write: turn %d: press %d: %s", t.Turn, i+1, m)
			}
		}
		if len(t.Press) > MaxPress {
			return fmt.Errorf("archive: write: turn %d: %d press messages (at most %d)", t.Turn, len(t.Press), MaxPress)
		}
		var line bytes.Buffer
		le := json.NewEncoder(&line)
		le.SetEscapeHTML(false)
		if err := le.Encode(t); err != nil {
			return fmt.Errorf("archive: write: turn %d: %w", t.Turn, err)
		}
		if line.Len() > MaxTurnBytes {
			return fmt.Errorf("archive: write: turn %d: the line is %d bytes (a reader takes at most %d)", t.Turn, line.Len(), MaxTurnBytes)
		}
		bw.Write(line.Bytes())
	}
	return bw.Flush()
}

// Error is a problem reading an archive (jsonl.Error): where (File may be set by the
// caller; Line counts from 1, Col from 1 and is 0 for the whole line) and what.
type Error = jsonl.Error

// Read reads an archive, checking its structure (not its hashes: Replay does that).
func Read(r io.Reader) (Archive, error) {
	return jsonl.ReadFile(r, jsonl.Format[Archive, Turn]{Magic: Magic, Version: Version, What: "a rallyjudge archive",
		Count: func(a *Archive) int { return a.Count }, Turns: func(a *Archive) *[]Turn { return &a.Turns },
		CheckHeader: checkHeader, CheckTurn: checkTurn})
}

func decode(b []byte, v any) *jsonl.DecodeError { return jsonl.Decode(b, v) }

func clip(s string) string { return jsonl.Clip(s) }

// checkName refuses empty, long or odd names (robots, boards, options, tags).
func checkName(s string) string { return jsonl.CheckName(s) }

func checkHeader(a *Archive) string {
	if a.Game != "" {
		if m := checkName(a.Game); m != "" {
			return "game: " + m
		}
	}
	if len(a.Name) > 200 {
		return "name: longer than 200 bytes"
	}
	if a.Name != "" {
		if !utf8.ValidString(a.Name) {
			return "name: invalid UTF-8"
		}
		if p := game.NameProblem(a.Name); p != "" {
			return "name: " + p + ", which is not allowed in names"
		}
	}
	if m := checkName(a.Course.Name); m != "" {
		return "course name: " + m
	}
	if a.Course.Text == "" {
		return "course: no course file text"
	}
	if len(a.Course.Boards) == 0 || len(a.Course.Boards) > MaxBoards {
		return fmt.Sprintf("course: %d boards (want 1 to %d)", len(a.Course.Boards), MaxBoards)
	}
	seen := map[string]bool{}
	for i, b := range a.Course.Boards {
		if m := checkName(b.Name); m != "" {
			return fmt.Sprintf("course: board %d: name: %s", i+1, m)
		}
		if seen[b.Name] {
			return fmt.Sprintf("course: board %q twice", b.Name)
		}
		seen[b.Name] = true
	}
	if len(a.Rules) == 0 || a.Rules[0] != '{' {
		return "rules: want a JSON object"
	}
	if len(a.Options) > MaxOptions {
		return fmt.Sprintf("options: %d cards (at most %d)", len(a.Options), MaxOptions)
	}
	for i, o := range a.Options {
		if m := checkName(o); m != "" {
			return fmt.Sprintf("options: card %d: %s", i+1, m)
		}
	}
	if len(a.Robots) == 0 || len(a.Robots) > adjudicator.MaxRobots {
		return fmt.Sprintf("robots: %d (want 1 to %d)", len(a.Robots), adjudicator.MaxRobots)
	}
	names := map[string]bool{}
	for i, r := range a.Robots {
		if m := checkName(r); m != "" {
			return fmt.Sprintf("robot %d: name: %s", i+1, m)
		}
		if names[r] {
			return fmt.Sprintf("robot %q twice", r)
		}
		names[r] = true
	}
	if a.Sums != nil {
		for _, f := range a.Sums.fields() {
			if !isHash(f.sum) {
				return "sums: " + f.name + ": want 64 lower-case hex digits (SHA-256)"
			}
		}
	}
	if a.Count < 1 || a.Count > MaxTurns {
		return fmt.Sprintf("turns: %d (want 1 to %d: turn 0, the set-up, is always there)", a.Count, MaxTurns)
	}
	return ""
}

func checkTurn(a *Archive, t *Turn, want int) string {
	if t.Turn != want {
		return fmt.Sprintf("numbered %d (turns run 0, 1, 2, … without gaps)", t.Turn)
	}
	if !isHash(t.Hash) {
		return "hash: want 64 lower-case hex digits (SHA-256)"
	}
	if len(t.Press) > MaxPress {
		return fmt.Sprintf("%d press messages (at most %d)", len(t.Press), MaxPress)
	}
	for i := range t.Press {
		if m := checkPress(a, &t.Press[i]); m != "" {
			return fmt.Sprintf("press %d: %s", i+1, m)
		}
	}
	if want == 0 {
		if len(t.Orders) > 0 || len(t.Before) > 0 {
			return "the set-up (turn 0) has no orders and no state before"
		}
		return ""
	}
	if len(t.Orders) != len(a.Robots) {
		return fmt.Sprintf("%d orders for %d robots", len(t.Orders), len(a.Robots))
	}
	for i, p := range t.Orders {
		if p.Robot != a.Robots[i] {
			return fmt.Sprintf("orders %d are for %q, want robot %q (seating order)", i+1, clip(p.Robot), a.Robots[i])
		}
		// the judge's missed-orders policies (judge/resolve.go): powerdown changes the
		// state the engine is given (beforeOf); random and autopilot only chose the
		// program recorded, and the autopilot's standing orders are in the sheet
		switch p.Missed {
		case "", "powerdown", "random", "autopilot":
		default:
			return fmt.Sprintf("%s: missed: %q (want powerdown, random or autopilot)", p.Robot, clip(p.Missed))
		}
		for reg, c := range p.Program {
			if c < 0 || c > 10000 {
				return fmt.Sprintf("%s: register %d: card %d", p.Robot, reg+1, c)
			}
		}
		if p.Sheet != nil {
			if m := checkSheet(p.Sheet); m != "" {
				return p.Robot + ": orders: " + m
			}
		}
	}
	if len(t.Before) > 0 && t.Before[0] != '{' {
		return "before: want a JSON object (a state)"
	}
	return ""
}

// checkPress refuses a message whose sender is not a robot of the game or Anonymous,
// whose recipients are not distinct robots of the game (the signed sender not among
// them), or whose text is empty, too long, not UTF-8 or holds control characters other
// than newline and tab (it is printed to a terminal by replay --turn).
func checkPress(a *Archive, p *Press) string {
	if p.From != Anonymous && !slices.Contains(a.Robots, p.From) {
		return fmt.Sprintf("from: %q is not a robot of the game (nor %q)", clip(p.From), Anonymous)
	}
	if p.To != nil && len(p.To) == 0 {
		return "to: empty (leave it out for press to everyone)"
	}
	if len(p.To) > len(a.Robots) {
		return fmt.Sprintf("to: %d robots in a game of %d", len(p.To), len(a.Robots))
	}
	for i, r := range p.To {
		if !slices.Contains(a.Robots, r) {
			return fmt.Sprintf("to: %q is not a robot of the game", clip(r))
		}
		if slices.Contains(p.To[:i], r) {
			return fmt.Sprintf("to: %q twice", r)
		}
		if r == p.From {
			return fmt.Sprintf("to: %q writes to itself", r)
		}
	}
	if strings.TrimSpace(p.Text) == "" {
		return "text: empty"
	}
	if len(p.Text) > MaxPressBytes {
		return fmt.Sprintf("text: %d bytes (at most %d)", len(p.Text), MaxPressBytes)
	}
	if !utf8.ValidString(p.Text) {
		return "text: invalid UTF-8"
	}
	for _, r := range p.Text {
		if (r < ' ' && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return fmt.Sprintf("text: control character %U", r)
		}
	}
	return ""
}

func checkSheet(s *orders.Sheet) string {
	if s.Secret != "" {
		return "carries a secret (an archive never does)"
	}
	if len(s.Program) > 0 {
		return "carries a program (it is in the program field)"
	}
	if len(s.Rules) > MaxRules {
		return fmt.Sprintf("%d orders (at most %d)", len(s.Rules), MaxRules)
	}
	for i, r := range s.Rules {
		n := 0
		if r.If != nil && !condOK(r.If, 1, &n) {
			return fmt.Sprintf("order %d: condition nested deeper than %d or with more than %d tests", i+1, MaxCondDepth, MaxCondNodes)
		}
	}
	return ""
}

func condOK(c *orders.Cond, depth int, n *int) bool {
	*n++
	if depth > MaxCondDepth || *n > MaxCondNodes {
		return false
	}
	for i := range c.All {
		if !condOK(&c.All[i], depth+1, n) {
			return false
		}
	}
	for i := range c.Any {
		if !condOK(&c.Any[i], depth+1, n) {
			return false
		}
	}
	return true
}

func isHash(s string) bool { return jsonl.IsHash(s) }

// Sums are the SHA-256, lower-case hex, of each part of an archive's set-up: the
// course (its JSON in the header: name, course file, boards), the rules (compact
// JSON), the option deck (JSON array), the seed (decimal) and the robots (JSON array).
type Sums struct {
	Course  string `json:"course"`
	Rules   string `json:"rules"`
	Options string `json:"options"`
	Seed    string `json:"seed"`
	Robots  string `json:"robots"`
}

type sumField struct{ name, sum, what string }

func (s *Sums) fields() []sumField {
	return []sumField{
		{"course", s.Course, "the course differs from the one the turns were played on"},
		{"rules", s.Rules, "the rules differ from those the turns were played under"},
		{"options", s.Options, "the option deck differs from the one the turns were played with"},
		{"seed", s.Seed, "the seed differs from the one the turns were played with"},
		{"robots", s.Robots, "the robots differ from those that played the turns"},
	}
}

// sums computes the set-up's sums as they stand.
func (a *Archive) sums() Sums {
	js := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			panic(fmt.Sprintf("archive: sums: %v", err)) // plain data: cannot fail
		}
		return hashBytes(b)
	}
	var rules bytes.Buffer
	if len(a.Rules) == 0 || json.Compact(&rules, a.Rules) != nil {
		rules.Reset()
		rules.Write(a.Rules)
	}
	if rules.Len() == 0 {
		rules.WriteString("{}")
	}
	opts := a.Options
	if opts == nil {
		opts = []string{}
	}
	return Sums{
		Course:  js(a.Course),
		Rules:   hashBytes(rules.Bytes()),
		Options: js(opts),
		Seed:    hashBytes([]byte(strconv.FormatInt(a.Seed, 10))),
		Robots:  js(a.Robots),
	}
}

// SetupError is an archive whose set-up (the header) is not the one its turns were
// played on: Parts names each part whose sum differs (course, rules, options, seed,
// robots).
type SetupError struct {
	Parts []string
	msgs  []string
}

func (e *SetupError) Error() string {
	return "header: " + strings.Join(e.msgs, "; ") + " (its sums differ: the header was edited after the game was written)"
}

// CheckSums compares the header with its sums, if it has them (an archive written
// before sums were added has none, and passes). Replay calls it first.
func (a *Archive) CheckSums() error {
	if a.Sums == nil {
		return nil
	}
	now := a.sums()
	want, got := a.Sums.fields(), now.fields()
	e := &SetupError{}
	for i := range want {
		if want[i].sum != got[i].sum {
			e.Parts = append(e.Parts, want[i].name)
			e.msgs = append(e.msgs, want[i].what)
		}
	}
	if len(e.Parts) > 0 {
		return e
	}
	return nil
}
