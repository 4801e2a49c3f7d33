package adjudicator

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The text board and course formats (docs/boards.md is the reference; this file and
// that page must agree). A board file is a header line `board NAME WxH` and then one
// line per row, north row first, W tokens a row; a course file places boards into one
// floor and names flags, start squares and the number of players.
//
// Hostile input never panics or hangs: the text, each line and each token have a size
// limit, and at most maxErrors problems are reported.

const (
	maxBoardSide  = 64      // a board is at most 64×64 squares
	maxCourseSide = 128     // an assembled course is at most 128×128 squares
	maxStarts     = 8       // start squares 1–8 (rules README: up to 8 robots)
	maxFlags      = 16      // flags 1–16
	maxTextBytes  = 1 << 20 // a board or course file is at most 1 MiB
	maxLineBytes  = 4096    // and each line at most 4 KiB
	maxTokenBytes = 64      // and each square's token at most 64 bytes
	maxNameBytes  = 64
	maxErrors     = 20 // problems reported per file; the rest are counted
)

// BoardFile is one parsed board: its name, the floor, and the flags and start squares
// written on it (scenario boards carry flags; start boards carry start squares).
type BoardFile struct {
	Name   string
	Board  *Board
	Flags  []Pos   // from the f1.. tokens; index = flag-1
	Starts []Start // from the s1.. tokens; index = start-1; facing North
}

// Course turns a board file into a one-board course (for scenarios and `board show`):
// its flags and start squares, and as many players as it has start squares.
func (bf *BoardFile) Course() *Course {
	return &Course{
		Name:       bf.Name,
		Board:      bf.Board,
		Flags:      slices.Clone(bf.Flags),
		Starts:     slices.Clone(bf.Starts),
		MinPlayers: min(1, len(bf.Starts)),
		MaxPlayers: len(bf.Starts),
		Boards:     1,
		Parts:      []Placement{{Board: bf.Name}},
	}
}

// TextError is one problem in a board or course file. Line and Col count from 1; Col 0
// means the whole line, Line 0 the whole file.
type TextError struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *TextError) Error() string {
	switch {
	case e.Line == 0:
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	case e.Col == 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// TextErrors is every problem found in one file, in file order: at most maxErrors are
// kept and More counts the rest. Its message is one problem a line.
type TextErrors struct {
	List []*TextError
	More int
}

func (l *TextErrors) Error() string {
	var sb strings.Builder
	for i, e := range l.List {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(e.Error())
	}
	if l.More > 0 {
		fmt.Fprintf(&sb, "\n(and %d more errors)", l.More)
	}
	return sb.String()
}

// Unwrap gives the single problems to errors.Is and errors.As.
func (l *TextErrors) Unwrap() []error {
	out := make([]error, len(l.List))
	for i, e := range l.List {
		out[i] = e
	}
	return out
}

// errList collects problems while parsing one file.
type errList struct {
	file string
	errs TextErrors
}

func (l *errList) add(line, col int, format string, args ...any) {
	if len(l.errs.List) >= maxErrors {
		l.errs.More++
		return
	}
	l.errs.List = append(l.errs.List, &TextError{File: l.file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)})
}

func (l *errList) count() int { return len(l.errs.List) + l.errs.More }

func (l *errList) err() error {
	if l.count() == 0 {
		return nil
	}
	e := l.errs
	return &e
}

// field is one whitespace-separated word of a line and the column it starts at.
type field struct {
	text string
	col  int
}

// srcLine is one significant line: its number and its words, comments removed.
type srcLine struct {
	num    int
	fields []field
}

// splitFields cuts a line into words at spaces and tabs, dropping a `#` comment.
func splitFields(s string) []field {
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	var out []field
	for i := 0; i < len(s); {
		if s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\v' || s[i] == '\f' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' && s[j] != '\r' && s[j] != '\v' && s[j] != '\f' {
			j++
		}
		out = append(out, field{s[i:j], i + 1})
		i = j
	}
	return out
}

// significantLines splits text into lines numbered from first, dropping blank and
// comment-only lines and reporting over-long ones.
func significantLines(errs *errList, first int, lines []string) []srcLine {
	var out []srcLine
	for i, s := range lines {
		n := first + i
		if len(s) > maxLineBytes {
			errs.add(n, 0, "line too long (%d bytes, at most %d)", len(s), maxLineBytes)
			continue
		}
		if f := splitFields(s); len(f) > 0 {
			out = append(out, srcLine{n, f})
		}
	}
	return out
}

func checkText(errs *errList, text string) bool {
	if len(text) > maxTextBytes {
		errs.add(0, 0, "file too large (%d bytes, at most %d)", len(text), maxTextBytes)
		return false
	}
	return true
}

// ParseBoard reads a board file (docs/boards.md): the header `board NAME WxH`, then H
// rows of W square tokens. filename is used in error messages only. All problems found
// (up to 20) are returned together as a *TextErrors.
func ParseBoard(filename, text string) (*BoardFile, error) {
	errs := &errList{file: filename}
	if !checkText(errs, text) {
		return nil, errs.err()
	}
	lines := significantLines(errs, 1, strings.Split(text, "\n"))
	if len(lines) == 0 {
		errs.add(0, 0, "empty board file (want a header line: board NAME WxH)")
		return nil, errs.err()
	}
	hdr := lines[0]
	name, w, h, ok := parseBoardHeader(errs, hdr)
	if !ok {
		return nil, errs.err()
	}
	rows := lines[1:]
	if len(rows) > h {
		errs.add(rows[h].num, 1, "too many rows (the header says %dx%d, so %d rows)", w, h, h)
		rows = rows[:h]
	}
	bf := parseRows(errs, name, w, h, rows)
	if len(rows) < h {
		errs.add(len(strings.Split(text, "\n")), 0, "board ends after %d rows (the header says %dx%d, so %d rows)", len(rows), w, h, h)
	}
	if errs.count() > 0 {
		return nil, errs.err()
	}
	return bf, nil
}

func parseBoardHeader(errs *errList, hdr srcLine) (name string, w, h int, ok bool) {
	f := hdr.fields
	if f[0].text != "board" {
		errs.add(hdr.num, f[0].col, "unexpected %q (want the header line: board NAME WxH)", clip(f[0].text))
		return "", 0, 0, false
	}
	if len(f) != 3 {
		errs.add(hdr.num, 0, "header has %d words (want: board NAME WxH)", len(f))
		return "", 0, 0, false
	}
	name = f[1].text
	if msg := checkName(name); msg != "" {
		errs.add(hdr.num, f[1].col, "bad board name %q (%s)", clip(name), msg)
		return "", 0, 0, false
	}
	w, h, ok = parseSize(f[2].text)
	if !ok {
		errs.add(hdr.num, f[2].col, "bad size %q (want WxH, each 1 to %d, e.g. 12x12)", clip(f[2].text), maxBoardSide)
		return "", 0, 0, false
	}
	return name, w, h, true
}

// checkName says what is wrong with a board or course name, or "".
func checkName(s string) string {
	if s == "" || len(s) > maxNameBytes {
		return fmt.Sprintf("want 1 to %d characters", maxNameBytes)
	}
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return "want letters, digits, - _ and . only"
		}
	}
	return ""
}

func parseSize(s string) (w, h int, ok bool) {
	a, b, found := strings.Cut(s, "x")
	if !found {
		return 0, 0, false
	}
	w, ok1 := smallInt(a, maxBoardSide)
	h, ok2 := smallInt(b, maxBoardSide)
	return w, h, ok1 && ok2 && w >= 1 && h >= 1
}

// smallInt reads a decimal number 0..limit (digits only, no sign).
func smallInt(s string, limit int) (int, bool) {
	if s == "" || len(s) > 4 {
		return 0, false
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n <= limit
}

// clip shortens a word quoted in an error message.
func clip(s string) string {
	if len(s) > 24 {
		return s[:24] + "..."
	}
	return s
}

// ParseBoardRows reads a board without a header, as scenario files embed one: each row
// a line of square tokens, north row first. W×H is inferred from the rows, which must
// all hold the same number of tokens. rows[i] is line firstLine+i of filename, for
// error messages; blank and comment lines are skipped. The board has no name.
func ParseBoardRows(filename string, firstLine int, rows []string) (*BoardFile, error) {
	errs := &errList{file: filename}
	total := 0
	for _, r := range rows {
		total += len(r) + 1
	}
	if total > maxTextBytes {
		errs.add(firstLine, 0, "board too large (%d bytes, at most %d)", total, maxTextBytes)
		return nil, errs.err()
	}
	lines := significantLines(errs, firstLine, rows)
	if len(lines) == 0 {
		errs.add(firstLine, 0, "empty board (want rows of square tokens)")
		return nil, errs.err()
	}
	w, h := len(lines[0].fields), len(lines)
	if w > maxBoardSide || h > maxBoardSide {
		errs.add(lines[0].num, 0, "board is %dx%d (at most %dx%d)", w, h, maxBoardSide, maxBoardSide)
		return nil, errs.err()
	}
	bf := parseRows(errs, "", w, h, lines)
	if errs.count() > 0 {
		return nil, errs.err()
	}
	return bf, nil
}

// parseRows reads up to h rows of w tokens into a board (missing rows stay plain floor;
// the caller reports them), checks the flags and starts and normalises the walls.
func parseRows(errs *errList, name string, w, h int, rows []srcLine) *BoardFile {
	bf := &BoardFile{Name: name, Board: NewBoard(w, h)}
	type seen struct{ line, col int }
	flagAt := map[int]seen{}
	startAt := map[int]seen{}
	var flags [maxFlags + 1]Pos
	var starts [maxStarts + 1]Pos
	for y, row := range rows {
		if len(row.fields) != w {
			col := 0
			if len(row.fields) > w {
				col = row.fields[w].col
			}
			errs.add(row.num, col, "row has %d squares (want %d)", len(row.fields), w)
		}
		for x, f := range row.fields {
			if x >= w {
				break
			}
			p := Pos{x, y}
			sq, ok := parseSquare(errs, row.num, f)
			if !ok {
				continue
			}
			*bf.Board.At(p) = sq
			if n := sq.Flag; n > 0 {
				if s, dup := flagAt[n]; dup {
					errs.add(row.num, f.col, "flag %d twice (also at line %d column %d)", n, s.line, s.col)
				} else {
					flagAt[n], flags[n] = seen{row.num, f.col}, p
				}
			}
			if n := sq.Start; n > 0 {
				if s, dup := startAt[n]; dup {
					errs.add(row.num, f.col, "start %d twice (also at line %d column %d)", n, s.line, s.col)
				} else {
					startAt[n], starts[n] = seen{row.num, f.col}, p
				}
			}
		}
	}
	for n := 1; n <= maxFlags; n++ {
		if s, ok := flagAt[n]; ok {
			if n > 1 {
				if _, prev := flagAt[n-1]; !prev {
					errs.add(s.line, s.col, "flag %d without flag %d (number flags from 1 without gaps)", n, n-1)
				}
			}
			bf.Flags = append(bf.Flags, flags[n])
		}
	}
	for n := 1; n <= maxStarts; n++ {
		if s, ok := startAt[n]; ok {
			if n > 1 {
				if _, prev := startAt[n-1]; !prev {
					errs.add(s.line, s.col, "start %d without start %d (number start squares from 1 without gaps)", n, n-1)
				}
			}
			bf.Starts = append(bf.Starts, Start{Pos: starts[n], Facing: North})
		}
	}
	bf.Board.NormalizeWalls()
	return bf
}

// parseSquare reads one square token: elements joined by `+`, then optionally `|` and
// the walled sides.
func parseSquare(errs *errList, line int, f field) (Square, bool) {
	var sq Square
	tok := f.text
	if len(tok) > maxTokenBytes {
		errs.add(line, f.col, "square token too long (%d bytes, at most %d)", len(tok), maxTokenBytes)
		return sq, false
	}
	before := errs.count()
	elems, walls, hasWalls := strings.Cut(tok, "|")
	if hasWalls {
		col := f.col + len(elems) + 1
		if walls == "" {
			errs.add(line, col, "nothing after | (want the walled sides N, E, S or W, e.g. .|NW)")
		}
		for i, c := range []byte(walls) {
			d, ok := dirByte(c)
			switch {
			case !ok:
				errs.add(line, col+i, "unknown wall side %q in %q (want N, E, S or W)", string(c), clip(tok))
			case sq.Walls.Has(d):
				errs.add(line, col+i, "wall side %s twice in %q", d, clip(tok))
			default:
				sq.Walls = sq.Walls.With(d)
			}
		}
	}
	switch elems {
	case "":
		errs.add(line, f.col, "missing square before | (want . for plain floor, e.g. .|N)")
	case ".":
	default:
		col := f.col
		var kinds []string
		for _, e := range strings.Split(elems, "+") {
			if kind := parseElement(errs, line, col, e, &sq); kind != "" {
				if slices.Contains(kinds, kind) {
					errs.add(line, col, "second %s on one square in %q", kind, clip(tok))
				}
				kinds = append(kinds, kind)
			}
			col += len(e) + 1
		}
		if sq.Floor == FloorPit && len(kinds) > 1 {
			errs.add(line, f.col, "a pit or drain holds nothing else (got %q)", clip(tok))
		}
		if a, b := floorClash(kinds); a != "" {
			errs.add(line, f.col, "a %s and a %s on one square (got %q)", a, b, clip(tok))
		}
		if sq.Belt.Kind != NoBelt && sq.Gear != NoRotation {
			errs.add(line, f.col, "a gear and a belt on one square (got %q)", clip(tok))
		}
	}
	return sq, errs.count() == before
}

func dirByte(c byte) (Dir, bool) {
	switch c {
	case 'N':
		return North, true
	case 'E':
		return East, true
	case 'S':
		return South, true
	case 'W':
		return West, true
	}
	return 0, false
}

const wantElement = "want ., X, bN, BN, gL, gR, pN135, c24, lS2, w1, w2, e, @N, s1-s8, f1-f16, o, t1-t9, h1-h3, rN, qN, dE24, $, m24, k24, ~, ~N, T, ? or D"

// floorClash names two elements that cannot share a square because each decides how a
// robot on it moves or what card it plays: of water (currents are water), teleporter and
// randomizer, none shares a square with another of them or with a belt, gear, oil slick,
// portal or chop shop. "" when the square is fine.
func floorClash(kinds []string) (string, string) {
	mine := []string{"water", "teleporter", "randomizer"}
	others := []string{"water", "teleporter", "randomizer", "belt", "gear", "oil slick", "portal", "chop shop"}
	for _, a := range kinds {
		if !slices.Contains(mine, a) {
			continue
		}
		for _, b := range kinds {
			if b != a && slices.Contains(others, b) {
				return a, b
			}
		}
	}
	return "", ""
}

// parseElement reads one element into sq and returns its kind ("" on error).
func parseElement(errs *errList, line, col int, e string, sq *Square) string {
	bad := func(want string) string {
		errs.add(line, col, "unknown token %q (%s)", clip(e), want)
		return ""
	}
	if e == "" {
		errs.add(line, col, "empty element between + signs (%s)", wantElement)
		return ""
	}
	rest := e[1:]
	switch e[0] {
	case '.':
		return bad("want . alone for plain floor, not joined with other elements")
	case 'X':
		if rest != "" {
			return bad("want X alone for a pit")
		}
		sq.Floor = FloorPit
		return "pit"
	case 'b', 'B':
		kind := BeltNormal
		if e[0] == 'B' {
			kind = BeltExpress
		}
		if rest == "" {
			return bad("want a belt direction N, E, S or W")
		}
		d, ok := dirByte(rest[0])
		if !ok {
			return bad("want a belt direction N, E, S or W")
		}
		belt := Belt{Kind: kind, Dir: d}
		if len(rest) > 1 {
			sides := rest[1:]
			if sides[0] != ':' || len(sides) == 1 {
				return bad(fmt.Sprintf("want a belt like %c%s or a curve like %c%s:%s", e[0], d, e[0], d, d.Left()))
			}
			for _, c := range []byte(sides[1:]) {
				s, ok := dirByte(c)
				switch {
				case !ok:
					return bad(fmt.Sprintf("want the turning sides after :, %s or %s", d.Left(), d.Right()))
				case s == d || s == d.Back():
					return bad(fmt.Sprintf("a %s belt turns robots carried in from %s or %s only", d, d.Left(), d.Right()))
				case belt.TurnFrom.Has(s):
					return bad(fmt.Sprintf("side %s twice", s))
				}
				belt.TurnFrom = belt.TurnFrom.With(s)
			}
		}
		sq.Belt = belt
		return "belt"
	case 'g':
		switch rest {
		case "L":
			sq.Gear = TurnLeft
		case "R":
			sq.Gear = TurnRight
		default:
			return bad("want gL or gR for a gear turning left or right")
		}
		return "gear"
	case 'p':
		if rest == "" {
			return bad("want a pusher direction N, E, S or W, then its registers, e.g. pN135")
		}
		d, ok := dirByte(rest[0])
		if !ok {
			return bad("want a pusher direction N, E, S or W, then its registers, e.g. pN135")
		}
		regs, msg := parseRegisters(rest[1:])
		if msg != "" {
			return bad("want the pusher's registers 1-5 after its direction, e.g. pN135: " + msg)
		}
		sq.Pusher = Pusher{Dir: d, Registers: regs}
		return "pusher"
	case 'c':
		regs, msg := parseRegisters(rest)
		if msg != "" {
			return bad("want the crusher's registers 1-5, e.g. c24: " + msg)
		}
		sq.Crusher = regs
		return "crusher"
	case 'l':
		if rest == "" {
			return bad("want a laser direction N, E, S or W, then 1-3 beams, e.g. lS2")
		}
		d, ok := dirByte(rest[0])
		if !ok {
			return bad("want a laser direction N, E, S or W, then 1-3 beams, e.g. lS2")
		}
		if len(rest) != 2 || rest[1] < '1' || rest[1] > '3' {
			return bad("want 1, 2 or 3 beams after the laser's direction, e.g. lS2")
		}
		sq.Laser = Laser{Dir: d, Beams: int(rest[1] - '0')}
		return "laser"
	case 'w':
		switch rest {
		case "1", "2":
			sq.Repair = int(rest[0] - '0')
		default:
			return bad("want w1 or w2 for a single or double wrench")
		}
		return "repair site"
	case 'e':
		if rest != "" {
			return bad("want e alone for a battery")
		}
		sq.Battery = true
		return "battery"
	case '@':
		d, ok := Dir(0), false
		if len(rest) == 1 {
			d, ok = dirByte(rest[0])
		}
		if !ok {
			return bad("want a reboot token with its arrow, @N, @E, @S or @W")
		}
		sq.Reboot = RebootToken{On: true, Dir: d}
		return "reboot token"
	case 's':
		n, ok := smallInt(rest, maxStarts)
		if !ok || n < 1 || rest[0] == '0' {
			return bad(fmt.Sprintf("want a start square s1 to s%d", maxStarts))
		}
		sq.Start = n
		return "start square"
	case 'f':
		n, ok := smallInt(rest, maxFlags)
		if !ok || n < 1 || rest[0] == '0' {
			return bad(fmt.Sprintf("want a flag f1 to f%d", maxFlags))
		}
		sq.Flag = n
		return "flag"
	case 'o':
		if rest != "" {
			return bad("want o alone for an oil slick")
		}
		sq.Oil = true
		return "oil slick"
	case 't':
		if len(rest) != 1 || rest[0] < '1' || rest[0] > '9' {
			return bad("want a portal's colour t1 to t9 (the two portals of a colour are a pair)")
		}
		sq.Portal = rest[0] - '0'
		return "portal"
	case 'h':
		if len(rest) != 1 || rest[0] < '1' || rest[0] > '0'+MaxLevel {
			return bad(fmt.Sprintf("want a level h1 to h%d (the ground level 0 is not written)", MaxLevel))
		}
		sq.Level = rest[0] - '0'
		return "level"
	case 'r', 'q':
		what := "ramp"
		if e[0] == 'q' {
			what = "repulsor field"
		}
		sides, msg := parseSides(rest)
		if msg != "" {
			return bad(fmt.Sprintf("want the %s's sides N, E, S or W, e.g. %cN: %s", what, e[0], msg))
		}
		if e[0] == 'r' {
			sq.Ramps = sides
		} else {
			sq.Repulsors = sides
		}
		return what
	case 'd':
		if rest == "" {
			return bad("want a swing door's side N, E, S or W, then the registers it is open, e.g. dE24")
		}
		d, ok := dirByte(rest[0])
		if !ok {
			return bad("want a swing door's side N, E, S or W, then the registers it is open, e.g. dE24")
		}
		regs, msg := parseRegisters(rest[1:])
		if msg != "" {
			return bad("want the registers 1-5 the swing door is open after its side, e.g. dE24: " + msg)
		}
		sq.Door = Door{Side: uint8(d) + 1, Open: regs}
		return "swing door"
	case '$':
		if rest != "" {
			return bad("want $ alone for a chop shop")
		}
		sq.ChopShop = true
		return "chop shop"
	case 'm':
		regs, msg := parseRegisters(rest)
		if msg != "" {
			return bad("want the flamer's registers 1-5, e.g. m24: " + msg)
		}
		sq.Flamer = regs
		return "flamer"
	case '~':
		// seed 001, Water and Currents: a current is water that flows.
		sq.Water = true
		if rest == "" {
			return "water"
		}
		d, ok := Dir(0), false
		if len(rest) == 1 {
			d, ok = dirByte(rest[0])
		}
		if !ok {
			return bad("want ~ alone for water, or ~N, ~E, ~S, ~W for water with a current flowing that way")
		}
		sq.Current = uint8(d) + 1
		return "water"
	case 'T':
		if rest != "" {
			return bad("want T alone for a teleporter")
		}
		sq.Teleporter = true
		return "teleporter"
	case '?':
		if rest != "" {
			return bad("want ? alone for a randomizer")
		}
		sq.Randomizer = true
		return "randomizer"
	case 'D':
		// seed 001, Drains: "Drains function as pits in every way."
		if rest != "" {
			return bad("want D alone for a drain")
		}
		sq.Floor, sq.Drain = FloorPit, true
		return "pit"
	case 'k':
		// seed 000, Stomper: "A Stomper without numbers is always active".
		if rest == "" {
			sq.Stomper = allRegisters
			return "stomper"
		}
		regs, msg := parseRegisters(rest)
		if msg != "" {
			return bad("want the stomper's registers 1-5, e.g. k24, or k alone (always active): " + msg)
		}
		sq.Stomper = regs
		return "stomper"
	}
	return bad(wantElement)
}

// allRegisters is every register 1–5.
const allRegisters RegisterSet = 1<<1 | 1<<2 | 1<<3 | 1<<4 | 1<<5

// parseSides reads a non-empty set of sides N, E, S, W.
func parseSides(s string) (Edges, string) {
	if s == "" {
		return 0, "none given"
	}
	var e Edges
	for _, c := range []byte(s) {
		d, ok := dirByte(c)
		if !ok {
			return 0, fmt.Sprintf("%q is not a side", string(c))
		}
		if e.Has(d) {
			return 0, fmt.Sprintf("side %s twice", d)
		}
		e = e.With(d)
	}
	return e, ""
}

// parseRegisters reads a non-empty set of register digits 1–5.
func parseRegisters(s string) (RegisterSet, string) {
	if s == "" {
		return 0, "none given"
	}
	if len(s) > Registers {
		return 0, "too many"
	}
	var set RegisterSet
	for _, c := range []byte(s) {
		if c < '1' || c > '0'+Registers {
			return 0, fmt.Sprintf("%q is not a register", string(c))
		}
		r := int(c - '0')
		if set.Has(r) {
			return 0, fmt.Sprintf("register %d twice", r)
		}
		set = set.With(r)
	}
	return set, ""
}

// FormatBoard writes a board file in the grammar ParseBoard reads: ParseBoard(FormatBoard(b))
// gives b back (with its walls normalised). Each wall is written once: on the square
// whose laser or pusher is mounted on it, else on the south or east square of the pair,
// else (on the outer edge) on the only square. A start square's facing is not written
// (the grammar has none); a nameless board is written as "unnamed".
func FormatBoard(bf *BoardFile) string {
	b := bf.Board
	name := bf.Name
	if name == "" {
		name = "unnamed"
	}
	toks := make([]string, len(b.Squares))
	width := 1
	for y := 0; y < b.H; y++ {
		for x := 0; x < b.W; x++ {
			t := squareToken(b, Pos{x, y})
			toks[y*b.W+x] = t
			width = max(width, len(t))
		}
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "board %s %dx%d\n", name, b.W, b.H)
	for y := 0; y < b.H; y++ {
		for x := 0; x < b.W; x++ {
			t := toks[y*b.W+x]
			if x == b.W-1 {
				sb.WriteString(t)
				break
			}
			sb.WriteString(t)
			sb.WriteString(strings.Repeat(" ", width+1-len(t)))
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// squareToken is the token for the square at p.
func squareToken(b *Board, p Pos) string {
	s := b.At(p)
	var parts []string
	switch {
	case s.Floor == FloorPit && s.Drain:
		parts = append(parts, "D")
	case s.Floor == FloorPit:
		parts = append(parts, "X")
	}
	if s.Belt.Kind != NoBelt {
		t := "b"
		if s.Belt.Kind == BeltExpress {
			t = "B"
		}
		t += s.Belt.Dir.String()
		if s.Belt.TurnFrom != 0 {
			t += ":" + edgesString(s.Belt.TurnFrom)
		}
		parts = append(parts, t)
	}
	switch s.Gear {
	case TurnLeft:
		parts = append(parts, "gL")
	case TurnRight:
		parts = append(parts, "gR")
	}
	if s.Pusher.Registers != 0 {
		parts = append(parts, "p"+s.Pusher.Dir.String()+registersString(s.Pusher.Registers))
	}
	if s.Crusher != 0 {
		parts = append(parts, "c"+registersString(s.Crusher))
	}
	if s.Laser.Beams > 0 {
		parts = append(parts, fmt.Sprintf("l%s%d", s.Laser.Dir, s.Laser.Beams))
	}
	if s.Repair > 0 {
		parts = append(parts, fmt.Sprintf("w%d", s.Repair))
	}
	if s.Battery {
		parts = append(parts, "e")
	}
	if s.Reboot.On {
		parts = append(parts, "@"+s.Reboot.Dir.String())
	}
	if s.Start > 0 {
		parts = append(parts, fmt.Sprintf("s%d", s.Start))
	}
	if s.Flag > 0 {
		parts = append(parts, fmt.Sprintf("f%d", s.Flag))
	}
	if s.Oil {
		parts = append(parts, "o")
	}
	if s.Portal > 0 {
		parts = append(parts, fmt.Sprintf("t%d", s.Portal))
	}
	if s.Level > 0 {
		parts = append(parts, fmt.Sprintf("h%d", s.Level))
	}
	if s.Ramps != 0 {
		parts = append(parts, "r"+edgesString(s.Ramps))
	}
	if s.Repulsors != 0 {
		parts = append(parts, "q"+edgesString(s.Repulsors))
	}
	if s.Door.Side != 0 {
		parts = append(parts, "d"+Dir(s.Door.Side-1).String()+registersString(s.Door.Open))
	}
	if s.ChopShop {
		parts = append(parts, "$")
	}
	if s.Flamer != 0 {
		parts = append(parts, "m"+registersString(s.Flamer))
	}
	switch s.Stomper {
	case 0:
	case allRegisters:
		parts = append(parts, "k")
	default:
		parts = append(parts, "k"+registersString(s.Stomper))
	}
	switch {
	case s.Current != 0:
		parts = append(parts, "~"+Dir(s.Current-1).String())
	case s.Water:
		parts = append(parts, "~")
	}
	if s.Teleporter {
		parts = append(parts, "T")
	}
	if s.Randomizer {
		parts = append(parts, "?")
	}
	t := "."
	if len(parts) > 0 {
		t = strings.Join(parts, "+")
	}
	var walls Edges
	for d := North; d <= West; d++ {
		if writesWall(b, p, d) {
			walls = walls.With(d)
		}
	}
	if walls != 0 {
		t += "|" + edgesString(walls)
	}
	return t
}

// writesWall reports whether the wall on p's side d (if any) is written on p.
func writesWall(b *Board, p Pos, d Dir) bool {
	if !b.Blocked(p, d) {
		return false
	}
	q := p.Step(d)
	if !b.In(q) {
		return true
	}
	switch {
	case mountedOn(b.At(p), d):
		return true
	case mountedOn(b.At(q), d.Back()):
		return false
	}
	return d == North || d == West
}

// mountedOn reports whether a laser or pusher on s hangs on its side d.
func mountedOn(s *Square, d Dir) bool {
	return (s.Laser.Beams > 0 && s.Laser.Dir.Back() == d) ||
		(s.Pusher.Registers != 0 && s.Pusher.Dir.Back() == d)
}

func edgesString(e Edges) string {
	out := ""
	for d := North; d <= West; d++ {
		if e.Has(d) {
			out += d.String()
		}
	}
	return out
}

func registersString(s RegisterSet) string {
	return strings.ReplaceAll(s.String(), ",", "")
}

// ParseCourse reads a course file (docs/boards.md): `course NAME`, `players MIN-MAX`,
// one or more `place BOARD at X,Y [rotate R]`, and `flag N at X,Y` and
// `start N at X,Y [facing D]` lines. boards resolves a placed board's name. The placed
// boards are assembled into one floor, the bounding box of them all from 0,0, where any
// square no board covers is a pit. Without flag (start) lines the course takes the
// flags (start squares) written on its boards, turned with them. All problems found (up
// to 20) are returned together as a *TextErrors; the result has passed Course.Check.
func ParseCourse(filename, text string, boards func(name string) (*BoardFile, error)) (*Course, error) {
	errs := &errList{file: filename}
	if !checkText(errs, text) {
		return nil, errs.err()
	}
	lines := significantLines(errs, 1, strings.Split(text, "\n"))
	if len(lines) == 0 {
		errs.add(0, 0, "empty course file (want a header line: course NAME)")
		return nil, errs.err()
	}
	type placed struct {
		line  srcLine
		bf    *BoardFile
		b     *Board // rotated
		at    Pos
		turns int
	}
	c := &Course{}
	var parts []placed
	var flags, starts []numbered
	havePlayers, havePlace := false, false
	for i, l := range lines {
		f := l.fields
		if i == 0 && f[0].text != "course" {
			errs.add(l.num, f[0].col, "unexpected %q (want the header line: course NAME)", clip(f[0].text))
			return nil, errs.err()
		}
		switch f[0].text {
		case "course":
			if i > 0 {
				errs.add(l.num, f[0].col, "second course line (the course is named in its first line)")
				continue
			}
			if len(f) != 2 {
				errs.add(l.num, 0, "want: course NAME")
				continue
			}
			if msg := checkName(f[1].text); msg != "" {
				errs.add(l.num, f[1].col, "bad course name %q (%s)", clip(f[1].text), msg)
				continue
			}
			c.Name = f[1].text
		case "rules":
			// rules 2023: the course is made for that ruleset (its boards hold its
			// elements); NewSetup refuses it with another.
			if len(f) != 2 || c.Rules != "" {
				errs.add(l.num, 0, "want one line: rules NAME (e.g. rules 2023)")
				continue
			}
			if _, err := RulesByName(f[1].text); err != nil || f[1].text == "" {
				errs.add(l.num, f[1].col, "unknown ruleset %q (want postal or 2023)", clip(f[1].text))
				continue
			}
			c.Rules = f[1].text
		case "players":
			if havePlayers {
				errs.add(l.num, f[0].col, "second players line")
				continue
			}
			havePlayers = true
			if len(f) != 2 {
				errs.add(l.num, 0, "want: players MIN-MAX (e.g. players 2-4) or players N")
				continue
			}
			lo, hi, cut := strings.Cut(f[1].text, "-")
			if !cut {
				hi = lo
			}
			a, ok1 := smallInt(lo, MaxRobots)
			b, ok2 := smallInt(hi, MaxRobots)
			if !ok1 || !ok2 || a < 1 || a > b {
				errs.add(l.num, f[1].col, "bad players %q (want MIN-MAX with 1 <= MIN <= MAX <= %d, e.g. 2-4)", clip(f[1].text), MaxRobots)
				continue
			}
			c.MinPlayers, c.MaxPlayers = a, b
		case "place":
			havePlace = true
			if len(f) != 4 && len(f) != 6 || f[2].text != "at" || len(f) == 6 && f[4].text != "rotate" {
				errs.add(l.num, 0, "want: place BOARD at X,Y [rotate 0|90|180|270]")
				continue
			}
			at, ok := parsePos(f[3].text, maxCourseSide)
			if !ok {
				errs.add(l.num, f[3].col, "bad position %q (want X,Y, each 0 to %d)", clip(f[3].text), maxCourseSide)
				continue
			}
			turns := 0
			if len(f) == 6 {
				turns, ok = parseRotation(f[5].text)
				if !ok {
					errs.add(l.num, f[5].col, "bad rotation %q (want 0, 90, 180 or 270 degrees clockwise, or 1, 2 or 3 quarter turns)", clip(f[5].text))
					continue
				}
			}
			if boards == nil {
				errs.add(l.num, f[1].col, "board %q: no boards to place", clip(f[1].text))
				continue
			}
			bf, err := boards(f[1].text)
			if err != nil {
				errs.add(l.num, f[1].col, "board %q: %v", clip(f[1].text), err)
				continue
			}
			if bf == nil || bf.Board == nil {
				errs.add(l.num, f[1].col, "board %q: not found", clip(f[1].text))
				continue
			}
			rb := bf.Board.Rotated(turns)
			if at.X+rb.W > maxCourseSide || at.Y+rb.H > maxCourseSide {
				errs.add(l.num, f[3].col, "board %q at %v reaches past %dx%d (the largest course)", bf.Name, at, maxCourseSide, maxCourseSide)
				continue
			}
			parts = append(parts, placed{l, bf, rb, at, turns})
		case "flag", "start":
			what := f[0].text
			limit := maxFlags
			if what == "start" {
				limit = maxStarts
			}
			okLen := len(f) == 4 || what == "start" && len(f) == 6
			if !okLen || f[2].text != "at" || len(f) == 6 && f[4].text != "facing" {
				if what == "flag" {
					errs.add(l.num, 0, "want: flag N at X,Y")
				} else {
					errs.add(l.num, 0, "want: start N at X,Y [facing N|E|S|W]")
				}
				continue
			}
			n, ok := smallInt(f[1].text, limit)
			if !ok || n < 1 {
				errs.add(l.num, f[1].col, "bad %s number %q (want 1 to %d)", what, clip(f[1].text), limit)
				continue
			}
			p, ok := parsePos(f[3].text, maxCourseSide)
			if !ok {
				errs.add(l.num, f[3].col, "bad position %q (want X,Y, each 0 to %d)", clip(f[3].text), maxCourseSide)
				continue
			}
			facing := North
			if len(f) == 6 {
				if facing, ok = ParseDir(f[5].text); !ok {
					errs.add(l.num, f[5].col, "bad facing %q (want N, E, S or W)", clip(f[5].text))
					continue
				}
			}
			nb := numbered{l, n, p, facing}
			if what == "flag" {
				flags = append(flags, nb)
			} else {
				starts = append(starts, nb)
			}
		default:
			errs.add(l.num, f[0].col, "unknown line %q (want course, rules, players, place, flag or start)", clip(f[0].text))
		}
	}
	if !havePlayers {
		errs.add(0, 0, "no players line (want e.g. players 2-4)")
	}
	if !havePlace {
		errs.add(0, 0, "no boards placed (want e.g. place factory at 0,0)")
	}
	if errs.count() > 0 {
		return nil, errs.err()
	}

	// Assemble the floor: the bounding box, pits wherever no board lies.
	w, h := 0, 0
	for _, p := range parts {
		w, h = max(w, p.at.X+p.b.W), max(h, p.at.Y+p.b.H)
	}
	floor := NewBoard(w, h)
	owner := make([]int, w*h) // index+1 of the part covering each square
	for i := range floor.Squares {
		floor.Squares[i].Floor = FloorPit
	}
	for i, p := range parts {
		overlap := -1
		for y := 0; y < p.b.H; y++ {
			for x := 0; x < p.b.W; x++ {
				q := Pos{p.at.X + x, p.at.Y + y}
				k := q.Y*w + q.X
				if owner[k] != 0 && overlap < 0 {
					overlap = owner[k] - 1
				}
				owner[k] = i + 1
				sq := *p.b.At(Pos{x, y})
				sq.Flag, sq.Start = 0, 0
				*floor.At(q) = sq
			}
		}
		if overlap >= 0 {
			o := parts[overlap]
			errs.add(p.line.num, 0, "board %q at %v overlaps board %q placed at line %d", p.bf.Name, p.at, o.bf.Name, o.line.num)
		}
		c.Parts = append(c.Parts, Placement{Board: p.bf.Name, At: p.at, Rotation: p.turns})
	}
	floor.NormalizeWalls()
	c.Board = floor
	c.Boards = len(parts)
	c.owner = owner

	// Flags and starts from the course lines, else from the boards.
	if len(flags) == 0 {
		for _, p := range parts {
			for n, q := range p.bf.Flags {
				flags = append(flags, numbered{p.line, n + 1, addPos(p.at, rotatePos(q, p.bf.Board.W, p.bf.Board.H, p.turns)), North})
			}
		}
	}
	if len(starts) == 0 {
		for _, p := range parts {
			for n, s := range p.bf.Starts {
				starts = append(starts, numbered{p.line, n + 1, addPos(p.at, rotatePos(s.Pos, p.bf.Board.W, p.bf.Board.H, p.turns)), s.Facing.Rotate(p.turns)})
			}
		}
	}
	for _, nb := range collectNumbered(errs, "flag", maxFlags, flags, floor) {
		c.Flags = append(c.Flags, nb.pos)
	}
	for _, nb := range collectNumbered(errs, "start", maxStarts, starts, floor) {
		c.Starts = append(c.Starts, Start{Pos: nb.pos, Facing: nb.facing})
	}
	for i, p := range c.Flags {
		if floor.In(p) {
			floor.At(p).Flag = i + 1
		}
	}
	for i, s := range c.Starts {
		if floor.In(s.Pos) {
			floor.At(s.Pos).Start = i + 1
		}
	}
	if len(c.Starts) < c.MaxPlayers {
		errs.add(0, 0, "players %d-%d but only %d start squares", c.MinPlayers, c.MaxPlayers, len(c.Starts))
	}
	if errs.count() == 0 {
		if err := c.Check(); err != nil {
			errs.add(0, 0, "%v", err)
		}
	}
	if errs.count() > 0 {
		return nil, errs.err()
	}
	return c, nil
}

// numbered is a flag or start square: where it was given, its number, square, facing.
type numbered struct {
	line   srcLine
	n      int
	pos    Pos
	facing Dir
}

// collectNumbered checks that the numbered flags or starts run 1..n without gaps or
// repeats, on the floor and not in a pit, and returns them in order.
func collectNumbered(errs *errList, what string, limit int, list []numbered, floor *Board) []numbered {
	byNum := make([]int, limit+1) // index+1 into list
	for i, nb := range list {
		if j := byNum[nb.n]; j != 0 {
			errs.add(nb.line.num, 0, "%s %d twice (also at line %d)", what, nb.n, list[j-1].line.num)
			continue
		}
		byNum[nb.n] = i + 1
		if !floor.In(nb.pos) {
			errs.add(nb.line.num, 0, "%s %d at %v is off the course (%dx%d)", what, nb.n, nb.pos, floor.W, floor.H)
		} else if floor.At(nb.pos).Floor == FloorPit {
			errs.add(nb.line.num, 0, "%s %d at %v is in a pit", what, nb.n, nb.pos)
		}
		for k, o := range list[:i] {
			if o.pos == nb.pos && byNum[o.n] == k+1 {
				errs.add(nb.line.num, 0, "%s %d at %v shares its square with %s %d", what, nb.n, nb.pos, what, o.n)
			}
		}
	}
	var out []numbered
	for n := 1; n <= limit; n++ {
		if byNum[n] == 0 {
			for m := n + 1; m <= limit; m++ {
				if byNum[m] != 0 {
					errs.add(list[byNum[m]-1].line.num, 0, "%s %d without %s %d (number them from 1 without gaps)", what, m, what, n)
					break
				}
			}
			break
		}
		out = append(out, list[byNum[n]-1])
	}
	return out
}

func parsePos(s string, limit int) (Pos, bool) {
	a, b, ok := strings.Cut(s, ",")
	if !ok {
		return Pos{}, false
	}
	x, ok1 := smallInt(a, limit)
	y, ok2 := smallInt(b, limit)
	return Pos{x, y}, ok1 && ok2
}

// parseRotation reads a clockwise rotation: degrees (0, 90, 180, 270) or quarter
// turns (1, 2, 3), into quarter turns.
func parseRotation(s string) (int, bool) {
	switch s {
	case "0":
		return 0, true
	case "90", "1":
		return 1, true
	case "180", "2":
		return 2, true
	case "270", "3":
		return 3, true
	}
	return 0, false
}

func addPos(a, b Pos) Pos { return Pos{a.X + b.X, a.Y + b.Y} }

// rotatePos is where square p of a w×h board lands when the board is turned clockwise
// by q quarter turns (as Board.Rotated turns it).
func rotatePos(p Pos, w, h, q int) Pos {
	for q = (q%4 + 4) % 4; q > 0; q-- {
		p, w, h = Pos{h - 1 - p.Y, p.X}, h, w
	}
	return p
}
