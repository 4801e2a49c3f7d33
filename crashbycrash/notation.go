package crashbycrash

// notation.go turns a move as a player types it into a Move, and back. It never decides
// legality (Apply does), like notnil/chess's notation. One action a line, then an
// optional draw line; '#' starts a comment; case does not matter:
//
//	place C5                        set-up, or a car with one neighbour to push
//	place A3 push NE 1 accumulator  the direction of the car to push; 0-2 accumulators
//	place C5 push NE SE             two directions (Double Hit)
//	place C5 no push                Expansion Unlimited, without pushing
//	magnet C5
//	play Lambada C4 C5              a card and its cells
//	operator D2 D3 D4               the cells the operator enters (its own cell first may be written)
//	exchange Tandem Saboteur: face-up 2, deck
//	pass
//	draw face-up 1, deck            where the end-of-turn draw comes from
//	draw deck keep Tandem Lambada   team game: which kinds to keep of two drawn
//
// The same as YAML: "actions:" a list of those lines, "draw:" and "keep:".

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// ParseError says where a move's text is wrong: line and column from 1 (a column 0 when
// only the line is known, a line 0 when not even that: as game.Problem).
type ParseError struct {
	Line, Col int
	Msg       string
}

func (e *ParseError) Error() string {
	switch {
	case e.Line > 0 && e.Col > 0:
		return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Col, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

type token struct {
	s   string
	col int
}

func tokenize(line string, col0 int) []token {
	var out []token
	i := 0
	for i < len(line) {
		c := line[i]
		switch {
		case c == '#':
			return out
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == ',' || c == ':':
			out = append(out, token{string(c), col0 + i})
			i++
		default:
			j := i
			for j < len(line) && !strings.ContainsRune(" \t\r,:#", rune(line[j])) {
				j++
			}
			out = append(out, token{line[i:j], col0 + i})
			i = j
		}
	}
	return out
}

// ParseMove reads a move: plain text (one action a line, then a draw line) or YAML.
func ParseMove(text string) (Move, error) {
	if isYAMLMove(text) {
		return parseYAMLMove(text)
	}
	var m Move
	drawSeen := false
	for i, line := range strings.Split(text, "\n") {
		toks := tokenize(line, 1)
		if len(toks) == 0 {
			continue
		}
		ln := i + 1
		if strings.EqualFold(toks[0].s, "draw") {
			if drawSeen {
				return m, &ParseError{ln, toks[0].col, "a second draw line"}
			}
			drawSeen = true
			if err := parseDraw(&m, toks[1:], ln, toks[0]); err != nil {
				return m, err
			}
			continue
		}
		if drawSeen {
			return m, &ParseError{ln, toks[0].col, "an action after the draw line; the draw comes last"}
		}
		a, err := parseAction(toks, ln)
		if err != nil {
			return m, err
		}
		if len(m.Actions) == 2 {
			return m, &ParseError{ln, toks[0].col, "a third action; a turn is two actions"}
		}
		m.Actions = append(m.Actions, a)
	}
	if len(m.Actions) == 0 {
		return m, &ParseError{1, 1, "no action; write e.g. \"place C5\" (see HELP)"}
	}
	return m, nil
}

// yamlLineRE finds the line a YAML error names.
var yamlLineRE = regexp.MustCompile(`^line (\d+)`)

func isYAMLMove(text string) bool {
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") || t == "---" {
			continue
		}
		return strings.HasPrefix(t, "actions:")
	}
	return false
}

func parseYAMLMove(text string) (Move, error) {
	var m Move
	if pe := yamlOnlyBreak(text); pe != nil {
		return m, pe
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		// the line the YAML reader names, not line 1 (it said "line 1, column 1:
		// yaml: line 3: did not find expected key")
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		ln := 0
		if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
			ln, _ = strconv.Atoi(m[1])
			msg = strings.TrimPrefix(msg[len(m[0]):], ": ")
		}
		return m, &ParseError{ln, 0, "not valid YAML: " + msg}
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return m, &ParseError{1, 1, "a YAML move is a mapping: actions, draw, keep"}
	}
	root := doc.Content[0]
	seen := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if seen[k.Value] {
			// a second draw: or actions: was read on after the first, as if one list
			return m, &ParseError{k.Line, k.Column, fmt.Sprintf("%s given twice; a YAML move has one of each", k.Value)}
		}
		seen[k.Value] = true
		switch k.Value {
		case "actions":
			if v.Kind != yaml.SequenceNode {
				return m, &ParseError{v.Line, v.Column, "actions is a list of lines, e.g. - place C5"}
			}
			for _, it := range v.Content {
				if it.Kind != yaml.ScalarNode {
					return m, &ParseError{it.Line, it.Column, "an action is one line of text"}
				}
				toks := tokenize(it.Value, it.Column)
				if len(toks) == 0 {
					return m, &ParseError{it.Line, it.Column, "an empty action"}
				}
				a, err := parseAction(toks, it.Line)
				if err != nil {
					return m, err
				}
				if len(m.Actions) == 2 {
					return m, &ParseError{it.Line, it.Column, "a third action; a turn is two actions"}
				}
				m.Actions = append(m.Actions, a)
			}
		case "draw", "keep":
			if v.Kind != yaml.ScalarNode {
				return m, &ParseError{v.Line, v.Column, k.Value + " is one line, e.g. face-up 1, deck"}
			}
			toks := tokenize(v.Value, v.Column)
			if k.Value == "keep" {
				toks = append([]token{{"keep", v.Column}}, toks...)
			}
			if err := parseDraw(&m, toks, v.Line, token{k.Value, k.Column}); err != nil {
				return m, err
			}
		default:
			return m, &ParseError{k.Line, k.Column, fmt.Sprintf("unknown key %q; a YAML move has actions, draw, keep", k.Value)}
		}
	}
	if len(m.Actions) == 0 {
		return m, &ParseError{root.Line, root.Column, "no action in actions"}
	}
	return m, nil
}

// yamlOnlyBreak finds a character YAML counts as a line break and the move's lines do
// not: a CR not before an LF (the plain notation reads it as a space), NEL (U+0085),
// the line separator (U+2028), the paragraph separator (U+2029). The YAML reader
// numbers its lines by them, so a problem after one named a line the move does not
// have ("line 2" of one).
func yamlOnlyBreak(text string) *ParseError {
	line, col := 1, 0
	for i, r := range text {
		col++
		switch {
		case r == '\n':
			line, col = line+1, 0
		case r == '\r' && !strings.HasPrefix(text[i+1:], "\n"):
			return &ParseError{line, col, "a carriage return (CR) without a line feed: YAML reads it as a line break, the move's lines do not; start a new line instead"}
		case r == 0x85 || r == 0x2028 || r == 0x2029:
			return &ParseError{line, col, fmt.Sprintf("U+%04X, a line break YAML reads and the move's lines do not: start a new line instead", r)}
		}
	}
	return nil
}

func parseAction(toks []token, ln int) (Action, error) {
	var a Action
	verb := strings.ToLower(toks[0].s)
	rest := toks[1:]
	errAt := func(t token, f string, args ...any) error {
		return &ParseError{ln, t.col, fmt.Sprintf(f, args...)}
	}
	end := token{"", toks[len(toks)-1].col + len(toks[len(toks)-1].s)}
	cellAt := func(i int, what string) (Cell, error) {
		if i >= len(rest) {
			return NoCell, errAt(end, "%s: a cell is missing (e.g. C5)", what)
		}
		c, err := ParseCell(rest[i].s)
		if err != nil {
			return NoCell, errAt(rest[i], "%v", err)
		}
		return c, nil
	}
	switch verb {
	case "place", "magnet":
		a.Kind = ActPlace
		if verb == "magnet" {
			a.Kind = ActMagnet
		}
		c, err := cellAt(0, verb)
		if err != nil {
			return a, err
		}
		a.Cell = c
		for i := 1; i < len(rest); i++ {
			w := strings.ToLower(rest[i].s)
			switch {
			case w == "push" || w == "pushing" || w == "with" || w == "and" || w == ",":
			case w == "no" && i+1 < len(rest) && strings.EqualFold(rest[i+1].s, "push"):
				a.NoPush = true
				i++
			case isNumber(w):
				n, _ := strconv.Atoi(w)
				if i+1 >= len(rest) || !strings.HasPrefix(strings.ToLower(rest[i+1].s), "acc") {
					return a, errAt(rest[i], "%s what? write e.g. \"1 accumulator\"", w)
				}
				a.Acc = n
				i++
			default:
				d, err := ParseDir(w)
				if err != nil {
					return a, errAt(rest[i], "%q: want a direction (N NE SE S SW NW), \"1 accumulator\" or \"no push\"", rest[i].s)
				}
				a.Push = append(a.Push, d)
			}
		}
	case "play":
		a.Kind = ActCard
		if len(rest) == 0 {
			return a, errAt(end, "play which card? e.g. play Lambada C4 C5")
		}
		c, n := matchCard(rest)
		if c == NoCard {
			return a, errAt(rest[0], "%q is not a card; the cards: %s", rest[0].s, allCardNames())
		}
		a.Card = c
		for i := n; i < len(rest); i++ {
			if rest[i].s == "," {
				continue
			}
			cell, err := cellAt(i, c.String())
			if err != nil {
				return a, err
			}
			a.Cells = append(a.Cells, cell)
		}
	case "operator":
		a.Kind = ActOperator
		for i := range rest {
			if rest[i].s == "," {
				continue
			}
			c, err := cellAt(i, "operator")
			if err != nil {
				return a, err
			}
			a.Cells = append(a.Cells, c)
		}
		if len(a.Cells) == 0 {
			return a, errAt(end, "operator: name the cells it enters, e.g. operator D3 D4")
		}
	case "exchange":
		a.Kind = ActExchange
		i := 0
		for k := 0; k < 2; k++ {
			for i < len(rest) && rest[i].s == "," {
				i++
			}
			if i >= len(rest) || rest[i].s == ":" {
				at := end
				if i < len(rest) {
					at = rest[i]
				}
				return a, errAt(at, "exchange names two cards of your hand, e.g. exchange Tandem Saboteur: deck, deck")
			}
			c, n := matchCard(rest[i:])
			if c == NoCard {
				return a, errAt(rest[i], "%q is not a card; the cards: %s", rest[i].s, allCardNames())
			}
			a.Give[k] = c
			i += n
		}
		if i < len(rest) {
			if rest[i].s != ":" {
				return a, errAt(rest[i], "after the two cards a colon and where the new ones come from, e.g. \": face-up 2, deck\"")
			}
			srcs, err := parseSources(rest[i+1:], ln, end)
			if err != nil {
				return a, err
			}
			if len(srcs) != 2 {
				return a, errAt(rest[i], "an exchange draws two cards: name two sources (deck, face-up 1-3)")
			}
			a.From = [2]Source{srcs[0], srcs[1]}
		}
	case "pass":
		a.Kind = ActPass
		if len(rest) > 0 {
			return a, errAt(rest[0], "pass takes nothing after it")
		}
	default:
		return a, errAt(toks[0], "%q: an action starts with place, magnet, play, operator, exchange or pass (or the line draw)", toks[0].s)
	}
	return a, nil
}

// isNumber: one or two digits. Not strconv.Atoi's sign: "-1 accumulator" was read as
// -1 accumulators and written back as none.
func isNumber(s string) bool {
	return len(s) > 0 && len(s) < 3 && strings.Trim(s, "0123456789") == ""
}

// matchCard reads the longest card name (1-3 words) at the start of toks.
func matchCard(toks []token) (Card, int) {
	for n := min(3, len(toks)); n >= 1; n-- {
		var parts []string
		for _, t := range toks[:n] {
			parts = append(parts, t.s)
		}
		if c := CardNamed(strings.Join(parts, " ")); c != NoCard {
			return c, n
		}
	}
	return NoCard, 0
}

func allCardNames() string {
	var p []string
	for _, ci := range cardInfos {
		p = append(p, ci.Name)
	}
	return strings.Join(p, ", ")
}

func parseSources(toks []token, ln int, end token) ([]Source, error) {
	var out []Source
	for i := 0; i < len(toks); i++ {
		w := strings.ToLower(toks[i].s)
		switch {
		case w == ",":
		case w == "deck":
			out = append(out, Deck)
		case w == "face-up" || w == "faceup" || w == "face" || w == "up":
			if w == "face" && i+1 < len(toks) && strings.EqualFold(toks[i+1].s, "up") {
				i++
			}
			if i+1 >= len(toks) || !isNumber(toks[i+1].s) {
				return nil, &ParseError{ln, toks[i].col, "face-up which? 1, 2 or 3"}
			}
			n, _ := strconv.Atoi(toks[i+1].s)
			if n < 1 || n > FaceUpCards {
				return nil, &ParseError{ln, toks[i+1].col, fmt.Sprintf("face-up %d: the face-up cards are 1, 2 and 3", n)}
			}
			out = append(out, Source(n))
			i++
		default:
			return nil, &ParseError{ln, toks[i].col, fmt.Sprintf("%q: a card comes from the deck or face-up 1-3", toks[i].s)}
		}
	}
	return out, nil
}

func parseDraw(m *Move, toks []token, ln int, at token) error {
	k := len(toks)
	for i, t := range toks {
		if strings.EqualFold(t.s, "keep") || strings.EqualFold(t.s, "prefer") {
			k = i
			break
		}
	}
	srcs, err := parseSources(toks[:k], ln, at)
	if err != nil {
		return err
	}
	m.Draw = append(m.Draw, srcs...)
	for i := k + 1; i < len(toks); {
		if toks[i].s == "," {
			i++
			continue
		}
		c, n := matchCard(toks[i:])
		if c == NoCard {
			return &ParseError{ln, toks[i].col, fmt.Sprintf("%q is not a card; the cards: %s", toks[i].s, allCardNames())}
		}
		m.Keep = append(m.Keep, c)
		i += n
	}
	return nil
}

// FormatAction writes an action in the notation ParseMove reads.
func FormatAction(a Action) string {
	var b strings.Builder
	switch a.Kind {
	case ActPlace, ActMagnet:
		if a.Kind == ActPlace {
			b.WriteString("place ")
		} else {
			b.WriteString("magnet ")
		}
		b.WriteString(a.Cell.String())
		if a.NoPush {
			b.WriteString(" no push")
		}
		if len(a.Push) > 0 {
			b.WriteString(" push")
			for _, d := range a.Push {
				b.WriteString(" " + d.String())
			}
		}
		if a.Acc == 1 {
			b.WriteString(" 1 accumulator")
		} else if a.Acc > 1 {
			fmt.Fprintf(&b, " %d accumulators", a.Acc)
		}
	case ActCard:
		b.WriteString("play " + a.Card.String())
		for _, c := range a.Cells {
			b.WriteString(" " + c.String())
		}
	case ActOperator:
		b.WriteString("operator")
		for _, c := range a.Cells {
			b.WriteString(" " + c.String())
		}
	case ActExchange:
		fmt.Fprintf(&b, "exchange %s %s: %s", a.Give[0], a.Give[1], formatSources(a.From[:]))
	case ActPass:
		b.WriteString("pass")
	}
	return b.String()
}

func formatSources(srcs []Source) string {
	var p []string
	for _, s := range srcs {
		if s == Deck {
			p = append(p, "deck")
		} else {
			p = append(p, fmt.Sprintf("face-up %d", s))
		}
	}
	return strings.Join(p, ", ")
}

// Format writes a move in the notation ParseMove reads, one line an action, then the
// draw line (if any).
func Format(m Move) string {
	var b strings.Builder
	for _, a := range m.Actions {
		b.WriteString(FormatAction(a) + "\n")
	}
	if len(m.Draw) > 0 || len(m.Keep) > 0 {
		b.WriteString("draw")
		if len(m.Draw) > 0 {
			b.WriteString(" " + formatSources(m.Draw))
		}
		if len(m.Keep) > 0 {
			b.WriteString(" keep")
			for _, c := range m.Keep {
				b.WriteString(" " + c.String())
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}
