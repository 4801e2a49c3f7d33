package orders

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// YAML sheets carry the same content as plain text (docs/orders.md):
//
//	---
//	robot: Fred
//	turn: 3
//	program: [P490, M2 670, L70, R80, B430]
//	orders:
//	  - if: I finish on 2 spanner repair & damage > 3
//	    then: repair
//	    else: take option card
//	  - power down if damage > 6
//
// Program items and order strings are read by the same parsers as plain text, so the
// two notations cannot drift apart. Anchors and aliases are refused (no expansion
// bombs), as are nesting deeper than MaxDepth and unknown keys.

var yamlLineRE = regexp.MustCompile(`line (\d+)`)

// ParseYAML reads a YAML sheet.
func ParseYAML(b []byte) (*Sheet, error) {
	if len(b) > MaxSize {
		return nil, &SyntaxError{Problems: []Problem{{Msg: fmt.Sprintf("the sheet is larger than %d bytes, the most a sheet may be", MaxSize)}}}
	}
	if p, ok := flowTooDeep(b); ok {
		return nil, &SyntaxError{Problems: []Problem{p}}
	}
	if p, ok := yamlOnlyBreak(b); ok {
		return nil, &SyntaxError{Problems: []Problem{p}}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		at := Pos{}
		if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
			at.Line, _ = strconv.Atoi(m[1])
			msg = strings.TrimPrefix(strings.TrimPrefix(msg, m[0]), ": ")
		}
		// The header lines are read as far as they go, so the reply can say what was
		// wrong (invalid YAML) rather than that the sheet had no secret (issue 21 item 6).
		return yamlHeaderLines(b), &SyntaxError{Problems: []Problem{{At: at, Msg: "not valid YAML: " + msg}}}
	}
	tp := &textParser{s: &Sheet{}}
	if p, bad := checkNode(&doc, 0); bad {
		return nil, &SyntaxError{Problems: []Problem{p}}
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, &SyntaxError{Problems: []Problem{{Msg: "the YAML sheet is empty"}}}
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, &SyntaxError{Problems: []Problem{{At: nodePos(root), Msg: "expected a mapping (robot:, turn:, program:, orders:)"}}}
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		key := strings.ToLower(k.Value)
		field, ok := yamlKeys[key]
		if !ok {
			if near, ok := nearestWord(key, yamlKeyList()); ok {
				tp.ps.add(nodePos(k), "unknown key %q; did you mean %q?", k.Value, near)
			} else {
				tp.ps.add(nodePos(k), "unknown key %q (expected %s)", k.Value, strings.Join(yamlKeyList(), ", "))
			}
			continue
		}
		if seen[field] {
			tp.ps.add(nodePos(k), "%s given twice", field)
			continue
		}
		seen[field] = true
		switch field {
		case "game", "robot", "secret", "turn":
			if v.Kind != yaml.ScalarNode {
				tp.ps.add(nodePos(v), "expected a single value for %s", field)
				continue
			}
			tp.set(v.Line, field, v.Value, v.Column)
		case "program":
			tp.yamlProgram(v)
		case "orders":
			tp.yamlOrders(v)
		}
	}
	if err := tp.ps.err(); err != nil {
		return tp.s, err
	}
	return tp.s, nil
}

// yamlHeaderLines reads the game, robot, turn and secret of a sheet that is not valid
// YAML from its unindented "key: value" lines (quotes taken off a value), so the judge
// can tell who sent it and answer with what was wrong. Nothing else is read.
func yamlHeaderLines(b []byte) *Sheet {
	tp := &textParser{s: &Sheet{}}
	seen := map[string]bool{}
	for i, line := range strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok || k != strings.TrimSpace(k) {
			continue
		}
		field, ok := yamlKeys[strings.ToLower(k)]
		if !ok || seen[field] || field == "program" || field == "orders" {
			continue
		}
		val := strings.TrimSpace(v)
		if len(val) >= 2 && (val[0] == '"' || val[0] == '\'') && val[len(val)-1] == val[0] {
			val = val[1 : len(val)-1]
		}
		if val == "" || strings.ContainsAny(val, "{}[]") {
			continue
		}
		seen[field] = true
		tp.set(i+1, field, val, len(k)+2)
	}
	return tp.s
}

var yamlKeys = map[string]string{
	"game": "game", "robot": "robot", "turn": "turn", "secret": "secret", "password": "secret",
	"program": "program", "orders": "orders",
}

func yamlKeyList() []string {
	var out []string
	for k := range yamlKeys {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func nodePos(n *yaml.Node) Pos { return Pos{n.Line, n.Column} }

// checkNode refuses anchors, aliases and deep nesting.
func checkNode(n *yaml.Node, depth int) (Problem, bool) {
	if depth > MaxDepth {
		return Problem{At: nodePos(n), Msg: fmt.Sprintf("nested more than %d deep", MaxDepth)}, true
	}
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		return Problem{At: nodePos(n), Msg: "YAML anchors and aliases (&name, *name) are not allowed in a sheet"}, true
	}
	if n.Kind == yaml.MappingNode && n.Tag == "!!merge" {
		return Problem{At: nodePos(n), Msg: "YAML merge keys are not allowed in a sheet"}, true
	}
	for _, c := range n.Content {
		if p, bad := checkNode(c, depth+1); bad {
			return p, true
		}
	}
	return Problem{}, false
}

// yamlOnlyBreak finds a character YAML counts as a line break and the mail does not:
// NEL (U+0085), the line separator (U+2028) and the paragraph separator (U+2029).
// The YAML reader numbers its lines by them, so a problem after one named a line the
// sheet does not have ("line 3" of two). A CR alone is a line break here too
// (ParseText reads it as one).
func yamlOnlyBreak(b []byte) (Problem, bool) {
	line, col := 1, 0
	for _, r := range string(b) {
		col++
		switch r {
		case '\n':
			line, col = line+1, 0
		case 0x85, 0x2028, 0x2029:
			return Problem{At: Pos{line, col}, Msg: fmt.Sprintf("U+%04X, a line break YAML reads and the mail does not show: start a new line instead", r)}, true
		}
	}
	return Problem{}, false
}

// flowTooDeep finds flow collections nested deeper than MaxDepth before the YAML
// parser sees them, and block sequences opened on one line ("- - - - x").
func flowTooDeep(b []byte) (Problem, bool) {
	depth, line, col := 0, 1, 0
	inQuote := byte(0)
	lineStart, dashes := true, 0
	for i, c := range b {
		col++
		if c == '\n' {
			line, col, lineStart, dashes = line+1, 0, true, 0
			if inQuote == '\n' {
				inQuote = 0
			}
			continue
		}
		if lineStart {
			switch {
			case c == ' ':
				continue
			case (c == '-' || c == '?') && i+1 < len(b) && b[i+1] == ' ':
				dashes++
				if dashes > MaxDepth {
					return Problem{At: Pos{line, col}, Msg: fmt.Sprintf("nested more than %d deep", MaxDepth)}, true
				}
				continue
			default:
				lineStart = false
			}
		}
		switch {
		case inQuote != 0:
			if c == inQuote {
				inQuote = 0
			}
		case c == '\'' || c == '"':
			inQuote = c
		case c == '#':
			// a comment: brackets in it do not count; skip to the end of the line
			inQuote = '\n'
		case c == '[' || c == '{':
			depth++
			if depth > MaxDepth {
				return Problem{At: Pos{line, col}, Msg: fmt.Sprintf("nested more than %d deep", MaxDepth)}, true
			}
		case c == ']' || c == '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return Problem{}, false
}

// scalarTokens lexes a scalar's text with columns counted from where it stands.
func scalarTokens(n *yaml.Node) []token {
	runes, cols, tooLong := cleanLine(n.Value)
	if tooLong {
		return nil
	}
	off := n.Column - 1
	if n.Style == yaml.DoubleQuotedStyle || n.Style == yaml.SingleQuotedStyle {
		off++
	}
	for i := range cols {
		cols[i] += off
	}
	return lex(runes, cols)
}

func (tp *textParser) yamlProgram(v *yaml.Node) {
	switch v.Kind {
	case yaml.ScalarNode:
		if toks := scalarTokens(v); len(toks) > 0 {
			tp.cards(v.Line, toks)
		}
	case yaml.SequenceNode:
		for _, item := range v.Content {
			if item.Kind != yaml.ScalarNode {
				tp.ps.add(nodePos(item), "expected a card (P490, M1 490, ...)")
				continue
			}
			toks := scalarTokens(item)
			before := len(tp.s.Program)
			if len(toks) == 0 {
				tp.ps.add(nodePos(item), "expected a card (P490, M1 490, ...), got nothing")
				continue
			}
			tp.cards(item.Line, toks)
			if got := len(tp.s.Program) - before; got > 1 {
				tp.ps.add(nodePos(item), "one card per list item, got %d", got)
			}
		}
	default:
		tp.ps.add(nodePos(v), "expected the program as a list of cards")
	}
}

func (tp *textParser) yamlOrders(v *yaml.Node) {
	items := v.Content
	if v.Kind == yaml.ScalarNode {
		items = []*yaml.Node{v}
	} else if v.Kind != yaml.SequenceNode {
		tp.ps.add(nodePos(v), "expected orders as a list")
		return
	}
	for _, item := range items {
		if len(tp.s.Rules) >= MaxRules {
			tp.ps.add(nodePos(item), "more than %d orders on one sheet", MaxRules)
			return
		}
		switch item.Kind {
		case yaml.ScalarNode:
			toks := scalarTokens(item)
			if len(toks) == 0 {
				tp.ps.add(nodePos(item), "expected an order, got nothing")
				continue
			}
			if !tp.yamlLine(toks, item) {
				return
			}
		case yaml.MappingNode:
			if k, v, ok := lineMapping(item); ok {
				// "- if damage >= 8: power down", "- R3: brakes", "- on re-entry: face N":
				// YAML reads a line with ": " as a key and its value; it is the line.
				toks := scalarTokens(k)
				col := v.Column - 2
				if len(toks) > 0 {
					last := toks[len(toks)-1]
					col = last.col + len([]rune(last.raw))
				}
				toks = append(toks, token{text: ":", raw: ":", col: col, kind: 'p'})
				toks = append(toks, scalarTokens(v)...)
				if !tp.yamlLine(toks, k) {
					return
				}
				continue
			}
			tp.yamlRule(item)
		default:
			tp.ps.add(nodePos(item), "expected an order: a line of text, or if/then/else")
		}
	}
}

// yamlLine reads the orders of one line of text (an item of orders:); false when the
// sheet has too many.
func (tp *textParser) yamlLine(toks []token, at *yaml.Node) bool {
	p := newLangParser(toks, at.Line)
	for !p.end() {
		rs, ok := p.parseRules()
		if !ok {
			tp.ps.list = append(tp.ps.list, *p.err)
			return true
		}
		if len(tp.s.Rules)+len(rs) > MaxRules {
			tp.ps.add(nodePos(at), "more than %d orders on one sheet", MaxRules)
			return false
		}
		tp.s.Rules = append(tp.s.Rules, rs...)
	}
	return true
}

// lineMapping reports whether an item of orders: is a line of text YAML read as a
// mapping of one key ("- if damage >= 8: power down"): one scalar key that is none of
// if/when/unless/then/do/else/otherwise, and a scalar value.
func lineMapping(m *yaml.Node) (k, v *yaml.Node, ok bool) {
	if len(m.Content) != 2 || m.Content[0].Kind != yaml.ScalarNode || m.Content[1].Kind != yaml.ScalarNode {
		return nil, nil, false
	}
	k, v = m.Content[0], m.Content[1]
	if inList(strings.ToLower(k.Value), "if", "when", "unless", "then", "do", "else", "otherwise") || v.Value == "" {
		return nil, nil, false
	}
	return k, v, true
}

// yamlRule reads {if: COND, then: ACTION, else: ACTION} (when/unless for if, do for then).
func (tp *textParser) yamlRule(m *yaml.Node) {
	r := Rule{At: nodePos(m)}
	var have bool
	var elseDont *yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if v.Kind != yaml.ScalarNode {
			tp.ps.add(nodePos(v), "expected text for %q", k.Value)
			return
		}
		toks := scalarTokens(v)
		p := newLangParser(toks, v.Line)
		switch key := strings.ToLower(k.Value); key {
		case "if", "when", "unless":
			c := p.parseCond()
			if key == "unless" {
				c = negate(c)
			}
			r.If = &c
		case "then", "do":
			r.Then = p.parseAction()
			have = true
		case "else", "otherwise":
			if inList(strings.ToLower(strings.Trim(v.Value, " .!")), "don't", "dont", "do not", "not", "don’t") {
				elseDont = v // "else: don't": the other answer of the decision (opposite)
				continue
			}
			a := p.parseAction()
			r.Else = &a
		default:
			tp.ps.add(nodePos(k), "unknown key %q in an order (expected if, then, else)", k.Value)
			return
		}
		p.skip(".", "!", ",")
		if !p.end() && !p.failed() {
			p.fail("unexpected %s", p.got())
		}
		if p.failed() {
			tp.ps.list = append(tp.ps.list, *p.err)
			return
		}
	}
	if !have {
		tp.ps.add(nodePos(m), "an order needs \"then:\"")
		return
	}
	if elseDont != nil {
		a, ok := opposite(r.Then)
		if !ok {
			tp.ps.add(nodePos(elseDont), "\"else: don't\" after %q: write what to do instead (\"else: nothing\" leaves the decision to later orders)", r.Then.String())
			return
		}
		r.Else = &a
	}
	if r.If != nil {
		if msg := condTooBig(r.If); msg != "" {
			tp.ps.add(nodePos(m), "%s", msg)
			return
		}
	}
	tp.s.Rules = append(tp.s.Rules, r)
}
