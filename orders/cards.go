package orders

import (
	"strconv"
	"strings"
)

// Program cards as players write them: by priority (P490, 490, #490), with or without
// the card's name (Move 1 P490, M1 490, M1-490, U 10, L70, R80, B430, Back Up 430,
// U-Turn P10), any case, separated by spaces, commas, semicolons or slashes, with
// optional register labels ("1: P490", "R1: P490"); a locked register as "locked", "-"
// or "x". Priorities and names are checked against the deck by Validate, not here.

// kindWord is the deck's kind name of a one-token card name ("m1", "u-turn", "rotateleft"; the
// 2023 cards, named by kind in 2023 games: seed 004, Programming Cards), or "": a switch
// rather than a map, as most words asked about are none.
func kindWord(w string) string {
	switch w {
	case "m1", "mv1", "move1", "mov1", "f1", "fwd1", "forward1":
		return "move1"
	case "m2", "mv2", "move2", "mov2", "f2", "fwd2", "forward2":
		return "move2"
	case "m3", "mv3", "move3", "mov3", "f3", "fwd3", "forward3":
		return "move3"
	case "b", "bu", "bk", "back", "backup", "back-up", "rev", "reverse", "backwards", "backward", "moveback":
		return "backup"
	case "u", "ut", "uturn", "u-turn", "uey":
		return "uturn"
	case "l", "rl", "tl", "lt", "left", "rotateleft", "turnleft", "rotate-left", "turn-left", "ccw", "rot-left":
		return "left"
	case "r", "rr", "tr", "rt", "right", "rotateright", "turnright", "rotate-right", "turn-right", "cw", "rot-right":
		return "right"
	case "powerup", "power-up":
		return "powerup"
	case "again":
		return "again"
	case "spam":
		return "spam"
	}
	return ""
}

// attachable reports the names that may be written glued to the priority (L70, B430,
// U10).
func attachable(w string) bool {
	switch w {
	case "l", "r", "b", "u", "ut", "bu", "rl", "rr", "tl", "tr", "lt", "rt", "p":
		return true
	}
	return false
}

// kindAt reads a card name at toks[i:]: the kind, the tokens used, and a priority glued
// to it (0 if none).
func kindAt(toks []token, i int) (kind string, used, prio int) {
	t := toks[i].text
	// Two-word names: a switch on the first word, as most words start none.
	if i+1 < len(toks) {
		n1, n1kind := toks[i+1].text, toks[i+1].kind
		switch t {
		case "move", "mv", "mov", "m", "forward", "fwd", "f":
			if n1kind == 'n' && len(n1) == 1 && n1 >= "1" && n1 <= "3" {
				return [...]string{"move1", "move2", "move3"}[n1[0]-'1'], 2, 0
			}
			if (t == "move" || t == "mv" || t == "mov") && (n1 == "back" || n1 == "backward" || n1 == "backwards") {
				return "backup", 2, 0 // the 2023 card's printed name (seed 004: Move Back)
			}
		case "back":
			if n1 == "up" {
				return "backup", 2, 0
			}
		case "u":
			if n1 == "turn" {
				return "uturn", 2, 0
			}
		case "power":
			if n1 == "up" {
				return "powerup", 2, 0 // the 2023 card; a line "power up" alone is the order (cardStart)
			}
		case "rotate", "turn", "rot":
			if n1 == "left" || n1 == "right" {
				return n1, 2, 0
			}
		}
	}
	// "M1-490": name, hyphen, priority in one word.
	// (a priority has at most 4 digits: a longer number is no card, never a saturated one)
	if j := strings.LastIndexByte(t, '-'); j > 0 && allDigits(t[j+1:]) && len(t[j+1:]) <= 4 {
		if k := kindWord(t[:j]); k != "" {
			p, _ := strconv.Atoi(t[j+1:])
			return k, 1, p
		}
	}
	if k := kindWord(t); k != "" {
		return k, 1, 0
	}
	// "L70", "B430", "u10".
	j := 0
	for j < len(t) && t[j] >= 'a' && t[j] <= 'z' {
		j++
	}
	if j > 0 && j < len(t) && allDigits(t[j:]) && attachable(t[:j]) && len(t[j:]) >= 2 && len(t[j:]) <= 4 {
		p, _ := strconv.Atoi(t[j:])
		if t[:j] == "p" {
			return "", 1, p
		}
		return kindWord(t[:j]), 1, p
	}
	return "", 0, 0
}

// isLabel reports a register label at toks[i:] ("1:", "2.", "3)", "R4:", "reg 5:") and
// the tokens it uses.
func isLabel(toks []token, i int) (reg, used int) {
	k := i
	if t := toks[k].text; (t == "register" || t == "reg") && k+1 < len(toks) {
		k++
	}
	t := toks[k].text
	if len(t) == 2 && (t[0] == 'r' || t[0] == '#') {
		t = t[1:]
	}
	if len(t) != 1 || t < "1" || t > "5" || k+1 >= len(toks) {
		return 0, 0
	}
	if p := toks[k+1].text; p == ":" || p == ")" || p == "." || p == "=" {
		return int(t[0] - '0'), k + 2 - i
	}
	return 0, 0
}

func isPriority(t token) (int, bool) {
	s := t.text
	if len(s) > 1 && s[0] == 'p' {
		s = s[1:]
	}
	if !allDigits(s) || len(s) > 4 {
		return 0, false
	}
	n, _ := strconv.Atoi(s)
	return n, true
}

// cardStart reports whether a line begins like a program.
func cardStart(toks []token) bool {
	t := toks[0]
	if reg, used := isLabel(toks, 0); reg > 0 {
		// "R3: Brakes", "register 3: use Brakes": an order for that register, not a card.
		return used >= len(toks) || !orderAfterLabel(toks[used:])
	}
	if t.text == "-" || t.text == "*" || t.text == "#" || t.text == "(" || t.text == "p" || inList(t.text, "locked", "lock", "x") {
		return true
	}
	if n, ok := isPriority(t); ok && (n >= 10 || t.text[0] == 'p') {
		return true
	}
	if len(toks) >= 2 && toks[0].text == "power" && toks[1].text == "up" && (len(toks) == 2 || !kindsOnly(toks[2:])) {
		return false // the order "power up" (come back up), not the 2023 card Power Up
	}
	if _, used, prio := kindAt(toks, 0); used > 0 {
		if prio > 0 || kindsOnly(toks) {
			return true
		}
		if used < len(toks) {
			_, ok := isPriority(toks[used])
			return ok || toks[used].text == "#" || toks[used].text == "(" || toks[used].text == "-"
		}
		return true
	}
	return false
}

// orderAfterLabel reports whether what follows a register label is an order: an option
// card's name or "use" and its like.
func orderAfterLabel(toks []token) bool {
	if inList(toks[0].text, "use", "fire", "activate", "launch", "deploy", "engage", "apply", "trigger", "throw",
		"flip", "decline", "don't", "dont", "do", "never", "drop", "lay", "set", "turn", "point", "switch", "if", "when", "unless") {
		return true
	}
	if _, _, prio := kindAt(toks, 0); prio > 0 {
		return false
	}
	p := newLangParser(toks, 0)
	return p.optionAhead(0)
}

// kindsOnly reports whether the line is nothing but card names and separators, as a
// 2023 program is written ("Move 1, Again, Left, U-Turn, SPAM").
func kindsOnly(toks []token) bool {
	for i := 0; i < len(toks); {
		switch toks[i].text {
		case ",", ";", "/", "|", "-", "locked", "lock", "x":
			i++
			continue
		}
		if reg, used := isLabel(toks, i); reg > 0 {
			i += used
			continue
		}
		_, used, prio := kindAt(toks, i)
		if used == 0 || prio != 0 {
			return false
		}
		i += used
	}
	return true
}

// cards reads a line of program cards onto the sheet's program.
func (tp *textParser) cards(n int, toks []token) {
	for i := 0; i < len(toks); {
		t := toks[i]
		at := Pos{n, t.col}
		if reg, used := isLabel(toks, i); reg > 0 {
			if reg != tp.register() {
				tp.ps.add(at, "register label %d, but this is register %d", reg, tp.register())
				return
			}
			i += used
			continue
		}
		switch t.text {
		case ",", ";", "/", "|", "(", ")", ".", "#", ":", "[", "]", "+", "&":
			i++
			continue
		case "-", "*", "locked", "lock", "x":
			if t.text == "-" && i+1 < len(toks) {
				if _, ok := isPriority(toks[i+1]); ok {
					i++ // "M1 - 490"
					continue
				}
			}
			tp.addCard(Card{Locked: true, At: at})
			i++
			continue
		}
		if t.text == "p" {
			// "P 490", or a bare "P" left from the sheet the report mails.
			if i+1 < len(toks) {
				if p, ok := isPriority(toks[i+1]); ok && p >= 10 && toks[i+1].kind == 'n' {
					tp.addCard(Card{Priority: p, At: at})
					i += 2
					continue
				}
			}
			tp.ps.add(at, "register %d: no card given: write the card's priority, like P490", tp.register())
			tp.missing++
			i++
			continue
		}
		if p, ok := isPriority(t); ok {
			if p < 10 && t.text[0] != 'p' {
				tp.ps.add(at, "expected a card (P490, Move 1 P490, M1 490, L70 ...), got %q%s", t.raw, lookalike(t.raw))
				return
			}
			tp.addCard(Card{Priority: p, At: at})
			i++
			continue
		}
		kind, used, prio := kindAt(toks, i)
		if used == 0 {
			tp.ps.add(at, "expected a card (P490, Move 1 P490, M1 490, L70 ...), got %q%s", t.raw, lookalike(t.raw))
			return
		}
		i += used
		if prio == 0 {
			for i < len(toks) && inList(toks[i].text, "#", "(", "-", ":", "=", "[") {
				i++
			}
			if i >= len(toks) || inList(toks[i].text, ",", ";", "/", "|") || kindOnlyNext(toks, i) {
				// A card named by kind alone: a 2023 card (seed 004: its cards have no
				// priorities). Validate refuses it in a postal game.
				tp.addCard(Card{Kind: kind, At: at})
				continue
			}
			p, ok := isPriority(toks[i])
			if !ok {
				tp.ps.add(Pos{n, toks[i].col}, "expected the priority after %q (as in \"M1 P490\"), got %q", t.raw, toks[i].raw)
				return
			}
			prio = p
			i++
		}
		tp.addCard(Card{Priority: prio, Kind: kind, At: at})
	}
}

// kindOnlyNext reports whether toks[i:] starts with another card name with no priority
// glued to it ("Move 1 Again").
func kindOnlyNext(toks []token, i int) bool {
	_, used, prio := kindAt(toks, i)
	return used > 0 && prio == 0
}

// register is the number of the register the next card fills.
func (tp *textParser) register() int { return len(tp.s.Program) + tp.missing + 1 }

func (tp *textParser) addCard(c Card) {
	if len(tp.s.Program)+tp.missing >= 5 {
		// Told once a line, where the first card too many stands: a second program
		// was told "a sixth card" at each of its five cards.
		if c.At.Line == tp.overflowLine {
			return
		}
		tp.overflowLine = c.At.Line
		if c.At.Line != tp.s.At.Program.Line && len(tp.s.Program) > 0 {
			tp.ps.add(c.At, "a second program: registers 1 to 5 are filled above; a sheet holds one program")
			return
		}
		tp.ps.add(c.At, "a sixth card: a program has five registers")
		return
	}
	if tp.s.Program == nil {
		tp.s.Program = make([]Card, 0, 5)
	}
	tp.s.Program = append(tp.s.Program, c)
	tp.s.At.Program = Pos{Line: c.At.Line}
}
