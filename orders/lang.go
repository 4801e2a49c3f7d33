package orders

import (
	"fmt"
	"strconv"
	"strings"
)

// The order language (docs/orders.md):
//
//	rule   = ("if" | "when" | "unless") cond [","] ["then"] action [[","] ("else" | "otherwise") action]
//	       | action [("if" | "when" | "unless") cond [[","] "else" action]]
//	cond   = and {("or" | "|") and}
//	and    = leaf {("and" | "&") leaf}
//	leaf   = ["not"] ( "(" cond ")" | number-test | facing | square | next-to-pit | holds | prediction | ... )
//	action = power down | stay down | come back up | repair | take option | face DIR | ...
//
// A line is read as one rule. The parser is forgiving about filler words ("I",
// "my", "am", "the") and strict about everything that changes meaning: an unknown word
// where a condition or an action is expected is an error, with the nearest known word.

// langParser reads one rule from a line's tokens.
type langParser struct {
	toks []token
	i    int
	line int
	err  *Problem
	v    *vocab
}

func newLangParser(toks []token, line int) *langParser {
	return &langParser{toks: toks, line: line, v: theVocab()}
}

func (p *langParser) end() bool { return p.i >= len(p.toks) }

func (p *langParser) peek(k int) token {
	if p.i+k < len(p.toks) {
		return p.toks[p.i+k]
	}
	return token{}
}

// is reports whether the next tokens are words...; "" matches any token.
func (p *langParser) is(words ...string) bool {
	for k, w := range words {
		t := p.peek(k)
		if t.text == "" || (w != "" && t.text != w) {
			return false
		}
	}
	return true
}

// accept consumes words... if they come next.
func (p *langParser) accept(words ...string) bool {
	if p.is(words...) {
		p.i += len(words)
		return true
	}
	return false
}

// acceptAny consumes one token that is one of words and reports which.
func (p *langParser) acceptAny(words ...string) (string, bool) {
	t := p.peek(0)
	for _, w := range words {
		if t.text == w && t.text != "" {
			p.i++
			return w, true
		}
	}
	return "", false
}

func (p *langParser) skip(words ...string) {
	for {
		if _, ok := p.acceptAny(words...); !ok {
			return
		}
	}
}

func (p *langParser) pos() Pos {
	if p.i < len(p.toks) {
		return Pos{p.line, p.toks[p.i].col}
	}
	if len(p.toks) > 0 {
		t := p.toks[len(p.toks)-1]
		return Pos{p.line, t.col + len([]rune(t.raw))}
	}
	return Pos{p.line, 1}
}

// fail records the first error; later ones on the same line are consequences.
func (p *langParser) fail(format string, args ...any) {
	if p.err == nil {
		p.err = &Problem{At: p.pos(), Msg: fmt.Sprintf(format, args...)}
	}
}

func (p *langParser) failed() bool { return p.err != nil }

// got describes the next token for an error message.
func (p *langParser) got() string {
	if p.end() {
		return "the end of the line"
	}
	return fmt.Sprintf("%q%s", p.peek(0).raw, lookalike(p.peek(0).raw))
}

// hint is "; did you mean X?" for a near miss of the next word among candidates.
func (p *langParser) hint(candidates []string) string {
	if p.end() {
		return ""
	}
	if w, ok := nearestWord(p.peek(0).text, candidates); ok && w != p.peek(0).text {
		return fmt.Sprintf("; did you mean %q?", w)
	}
	return ""
}

// parseRule reads a whole line as one rule.
func (p *langParser) parseRule() (Rule, bool) {
	r := Rule{At: p.pos()}
	p.skip("-", "*", "•")
	// "R3 use Crab Legs P490": the register first, as a program line numbers them
	// (phase-programmed options, seed 001).
	reg := 0
	if t := p.peek(0).text; len(t) == 2 && t[0] == 'r' && t[1] >= '1' && t[1] <= '5' && p.is(t, "use") {
		reg = int(t[1] - '0')
		p.i++
	}
	switch {
	case p.is("if") || p.is("when") || p.is("unless"):
		neg := p.peek(0).text == "unless"
		p.i++
		c := p.parseCond()
		if neg {
			c = negate(c)
		}
		r.If = &c
		p.skip(",", ":", "-")
		p.accept("then")
		p.skip(",", ":")
		r.Then = p.parseAction()
		p.parseElse(&r)
	default:
		r.Then = p.parseAction()
		if w, ok := p.acceptAny("if", "when", "unless"); ok {
			c := p.parseCond()
			if w == "unless" {
				c = negate(c)
			}
			r.If = &c
			p.parseElse(&r)
		}
	}
	if reg != 0 && !p.failed() {
		for _, a := range []*Action{&r.Then, r.Else} {
			switch {
			case a == nil:
			case a.Register != 0 && a.Register != reg:
				p.fail("R%d and register %d in one order: write one", reg, a.Register)
			default:
				a.Register = reg
			}
		}
	}
	sentence := false
	for p.is(".") || p.is("!") || p.is(";") || p.is(",") {
		sentence = sentence || p.peek(0).text != ","
		p.i++
	}
	// "power down. reenter facing N" or "...; ...": the caller reads the next rule.
	if !p.end() && !p.failed() && !sentence {
		p.fail("unexpected %s after the order", p.got())
	}
	if !p.failed() && r.If != nil {
		if msg := condTooBig(r.If); msg != "" {
			p.err = &Problem{At: r.At, Msg: msg}
		}
	}
	return r, !p.failed()
}

// condTooBig says how a condition goes past MaxCondDepth or MaxCondTests, or "". Every
// sheet the judge takes must fit an archive (which refuses bigger ones as hostile), or
// a game's archive could not be read back.
func condTooBig(c *Cond) string {
	n := 0
	var walk func(c *Cond, depth int) bool
	walk = func(c *Cond, depth int) bool {
		n++
		if depth > MaxCondDepth || n > MaxCondTests {
			return false
		}
		for i := range c.All {
			if !walk(&c.All[i], depth+1) {
				return false
			}
		}
		for i := range c.Any {
			if !walk(&c.Any[i], depth+1) {
				return false
			}
		}
		return true
	}
	if !walk(c, 1) {
		return fmt.Sprintf("the condition is nested more than %d deep or has more than %d tests: write it simpler", MaxCondDepth, MaxCondTests)
	}
	return ""
}

func (p *langParser) parseElse(r *Rule) {
	if p.failed() {
		return
	}
	save := p.i
	p.skip(",", ";", ".", "-")
	if p.accept("or", "else") || p.accept("else") || p.accept("otherwise") {
		p.skip(",", ":")
		p.accept("then")
		a := p.parseAction()
		r.Else = &a
		return
	}
	p.i = save
}

func negate(c Cond) Cond {
	c.Not = !c.Not
	return c
}

// parseCond reads "a and b or c" (and binds tighter than or).
func (p *langParser) parseCond() Cond {
	first := p.parseAnd()
	var any []Cond
	for !p.failed() {
		save := p.i
		p.skip(",")
		if (p.is("or") && !p.is("or", "else")) || p.is("|") {
			p.i++
			if any == nil {
				any = []Cond{first}
			}
			any = append(any, p.parseAnd())
			continue
		}
		p.i = save
		break
	}
	if any != nil {
		return Cond{Any: any}
	}
	return first
}

func (p *langParser) parseAnd() Cond {
	first := p.parseLeaf()
	var all []Cond
	for !p.failed() {
		save := p.i
		p.skip(",")
		if p.is("and") || p.is("&") || p.is("+") {
			p.i++
			if all == nil {
				all = []Cond{first}
			}
			all = append(all, p.parseLeaf())
			continue
		}
		p.i = save
		break
	}
	if all != nil {
		return Cond{All: all}
	}
	return first
}

var condWords = []string{
	"damage", "lives", "register", "flags", "options", "facing", "on", "next", "hold",
	"have", "not", "target", "would", "destroyed", "powered", "finish", "end",
}

// fillers are words that carry no meaning before a condition.
var fillers = []string{"i", "i'm", "im", "am", "my", "me", "is", "are", "we", "the", "robot", "currently", "still", "robot's", "it's"}

func (p *langParser) parseLeaf() Cond {
	if p.failed() {
		return Cond{}
	}
	neg := false
	for {
		p.skip(fillers...)
		switch {
		case p.accept("not"), p.accept("no"), p.accept("don't"), p.accept("dont"), p.accept("do", "not"),
			p.accept("doesn't"), p.accept("isn't"), p.accept("aren't"), p.accept("am", "not"), p.accept("never"):
			neg = !neg
			continue
		}
		break
	}
	var c Cond
	t := p.peek(0)
	switch {
	case p.accept("("):
		c = p.parseCond()
		if !p.accept(")") {
			p.fail("expected \")\" to close the condition, got %s", p.got())
		}
	case p.is("would") || p.is("will") || p.is("i'd") || p.is("should"):
		p.i++
		c = p.parsePrediction(false)
	case inList(t.text, "target", "targets", "opponent", "enemy", "victim", "it", "they", "other", "he", "she"):
		p.i++
		p.skip("robot")
		if _, ok := p.acceptAny("would", "will", "should", "could"); !ok {
			p.fail("expected \"would\" after %q (as in \"target would be destroyed\"), got %s", t.raw, p.got())
			return Cond{}
		}
		c = p.parsePrediction(true)
	case inList(t.text, "damage", "damaged", "lives", "life", "register", "reg", "phase", "flags", "options", "checkpoints"):
		p.i++
		c = p.parseNumberTest(t.text)
	case inList(t.text, "facing", "face", "faces", "pointing", "heading"):
		p.i++
		d, ok := p.parseCompass()
		if !ok {
			p.fail("expected a direction (N, E, S or W) after %q, got %s", t.raw, p.got())
			return Cond{}
		}
		c = Cond{Test: TestFacing, Arg: d}
	case inList(t.text, "next", "near", "beside", "adjacent", "by"):
		p.i++
		p.skip("to", "a", "an", "the")
		if _, ok := p.acceptAny("pit", "pits", "hole", "edge", "shaft"); !ok {
			p.fail("expected \"pit\" (as in \"next to a pit\"), got %s", p.got())
			return Cond{}
		}
		c = Cond{Test: TestNextPit}
	case inList(t.text, "hold", "holding", "holds", "have", "has", "got", "own", "carry", "carrying", "with"):
		p.i++
		c = p.parseHolds()
	case inList(t.text, "powered", "down", "power"):
		p.i++
		p.accept("down")
		c = Cond{Test: TestDown}
	case inList(t.text, "destroyed", "dead", "killed", "reentering", "re-entering", "was"):
		p.i++
		p.accept("destroyed")
		c = Cond{Test: TestDead}
	case inList(t.text, "finish", "finished", "finishing", "end", "ends", "ending", "ended", "stand", "standing",
		"stop", "stopping", "stopped", "sit", "sitting", "be", "land", "on", "at", "in", "upon"):
		c = p.parseOn()
	default:
		p.fail("expected a condition (damage, lives, register, flags, facing, on SQUARE, next to a pit, hold OPTION, target would ...), got %s%s", p.got(), p.hint(condWords))
		return Cond{}
	}
	if neg {
		c = negate(c)
	}
	return c
}

func inList(w string, list ...string) bool {
	for _, x := range list {
		if w == x {
			return true
		}
	}
	return false
}

// parsePrediction reads what follows "would": "be destroyed", "fall into a pit", "end
// on a laser".
func (p *langParser) parsePrediction(target bool) Cond {
	p.skip("be", "get", "then")
	switch {
	case p.accept("destroyed"), p.accept("die"), p.accept("killed"), p.accept("explode"):
		if target {
			return Cond{Test: TestTargetDestroyed}
		}
		return Cond{Test: TestIDestroyed}
	case p.accept("fall"), p.accept("pushed"), p.accept("drop"), p.accept("falls"):
		p.skip("into", "in", "down", "off", "a", "an", "the", "pit", "hole", "shaft", "board", "edge")
		if target {
			return Cond{Test: TestTargetFalls}
		}
		return Cond{Test: TestIFall}
	case !target && (p.is("end") || p.is("finish") || p.is("stop") || p.is("stand") || p.is("be")):
		p.i++
		p.skip("the", "turn", "my", "move", "up")
		p.skip("on", "in", "under", "a", "an", "the")
		if _, ok := p.acceptAny("laser", "lasers", "beam"); !ok {
			p.fail("expected \"laser\" (as in \"I would end on a laser\"), got %s", p.got())
			return Cond{}
		}
		p.accept("beam")
		return Cond{Test: TestIEndOnLaser}
	}
	if target {
		p.fail("expected \"be destroyed\" or \"fall into a pit\" after \"would\", got %s", p.got())
	} else {
		p.fail("expected \"be destroyed\", \"fall into a pit\" or \"end on a laser\" after \"would\", got %s", p.got())
	}
	return Cond{}
}

var numberWords = map[string]int{
	"zero": 0, "none": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
	"seven": 7, "eight": 8, "nine": 9, "ten": 10,
}

func (p *langParser) number() (int, bool) {
	t := p.peek(0)
	if t.kind == 'n' {
		n, err := strconv.Atoi(t.text)
		if err != nil || n > 1000 {
			return 0, false
		}
		p.i++
		return n, true
	}
	if n, ok := numberWords[t.text]; ok {
		p.i++
		return n, true
	}
	return 0, false
}

// parseOp reads a comparison: a sign or words ("more than", "at least", "is not").
// Without one, "=" (as in "register 3").
func (p *langParser) parseOp() string {
	p.skip("is", "are", "has", "of")
	switch {
	case p.is(">"), p.is(">="), p.is("<"), p.is("<="), p.is("="), p.is("!="):
		op := p.peek(0).text
		p.i++
		return op
	case p.accept("not"), p.accept("isn't"):
		return "!="
	case p.accept("more", "than"), p.accept("greater", "than"), p.accept("higher", "than"), p.accept("over"),
		p.accept("above"), p.accept("exceeds"), p.accept("bigger", "than"):
		return ">"
	case p.accept("less", "than"), p.accept("fewer", "than"), p.accept("lower", "than"), p.accept("under"),
		p.accept("below"), p.accept("smaller", "than"):
		return "<"
	case p.accept("at", "least"), p.accept("no", "less", "than"), p.accept("minimum"):
		return ">="
	case p.accept("at", "most"), p.accept("no", "more", "than"), p.accept("maximum"), p.accept("up", "to"):
		return "<="
	case p.accept("equals"), p.accept("equal", "to"), p.accept("exactly"):
		return "="
	}
	return "="
}

func (p *langParser) parseNumberTest(subject string) Cond {
	var test string
	switch subject {
	case "damage", "damaged":
		test = TestDamage
	case "lives", "life":
		test = TestLives
	case "register", "reg", "phase":
		test = TestRegister
	case "flags", "checkpoints":
		test = TestFlags
	case "options":
		test = TestOptions
	}
	p.skip("points", "point", "taken", "touched", "left", "count", "held", "number")
	op := p.parseOp()
	n, ok := p.number()
	if !ok {
		p.fail("expected a number after %q, got %s", subject, p.got())
		return Cond{}
	}
	p.skip("points", "point", "damage", "lives", "flags", "options")
	return Cond{Test: test, Op: p.orMore(op), N: n}
}

// orMore reads "3 or more", "3 or less", "3+" after a number compared with "=".
func (p *langParser) orMore(op string) string {
	if op != "=" {
		return op
	}
	switch {
	case p.accept("or", "more"), p.accept("or", "higher"), p.accept("or", "above"), p.accept("or", "over"), p.accept("+"):
		return ">="
	case p.accept("or", "less"), p.accept("or", "fewer"), p.accept("or", "lower"), p.accept("or", "below"), p.accept("or", "under"):
		return "<="
	}
	return op
}

// parseOn reads "[finish] on [a] SQUARE", "in register 3", "on a laser".
func (p *langParser) parseOn() Cond {
	p.skip("finish", "finished", "finishing", "end", "ends", "ending", "ended", "stand", "standing",
		"stop", "stopping", "stopped", "sit", "sitting", "be", "land")
	p.skip("the", "turn", "my", "move")
	if _, ok := p.acceptAny("on", "at", "in", "upon"); !ok {
		p.fail("expected \"on\" and a square (as in \"I finish on a flag\"), got %s", p.got())
		return Cond{}
	}
	p.skip("a", "an", "the", "my")
	switch {
	case p.is("register") || p.is("reg") || p.is("phase"):
		t := p.peek(0)
		p.i++
		return p.parseNumberTest(t.text)
	case p.accept("laser"), p.accept("lasers"), p.accept("laser", "beam"), p.accept("beam"):
		p.accept("beam")
		return Cond{Test: TestOnLaser}
	}
	kind, n := p.squareKind()
	if n == 0 {
		p.fail("expected a kind of square (flag, repair, double repair, 2 spanner, belt, express belt, gear, pusher, crusher, start), got %s%s", p.got(), p.hint(squareWords))
		return Cond{}
	}
	p.i += n
	return Cond{Test: TestOn, Arg: kind}
}

var squareWords = []string{"flag", "checkpoint", "repair", "spanner", "wrench", "belt", "conveyor", "express", "gear", "pusher", "crusher", "start", "chop", "oil"}

// squareKinds maps a normalised square phrase to its kind.
var squareKinds = map[string]string{
	"2spannerrepair": "double-repair", "2spanner": "double-repair", "2repair": "double-repair",
	"1spannerrepair": "single-repair", "1spanner": "single-repair", "1repair": "single-repair",
	"repair": "repair", "spanner": "repair", "spannerrepair": "repair",
	"flag": "flag", "checkpoint": "flag",
	"belt": "belt", "conveyor": "belt", "conveyorbelt": "belt", "conveyer": "belt", "conveyerbelt": "belt",
	"expressbelt": "express-belt", "express": "express-belt", "expressconveyor": "express-belt", "expressconveyorbelt": "express-belt",
	"gear": "gear", "rotator": "gear", "pusher": "pusher", "crusher": "crusher", "start": "start",
	"chopshop": "chop-shop", "chop": "chop-shop", "oil": "oil", "oilslick": "oil", "slick": "oil",
}

// squareKind finds the longest run of the next words naming a square kind.
func (p *langParser) squareKind() (string, int) {
	var words []string
	for k := 0; k < 5; k++ {
		t := p.peek(k)
		if t.kind != 'w' && t.kind != 'n' {
			break
		}
		words = append(words, t.text)
	}
	for n := len(words); n > 0; n-- {
		var b strings.Builder
		for _, w := range words[:n] {
			switch w {
			case "two", "double", "dual":
				w = "2"
			case "one", "single":
				w = "1"
			case "site", "square", "space", "tile", "sites", "squares", "spaces":
				continue
			}
			w = strings.ReplaceAll(w, "-", "")
			w = strings.ReplaceAll(strings.ReplaceAll(w, "wrenches", "spanner"), "wrench", "spanner")
			if w != "express" {
				w = strings.TrimSuffix(w, "s")
			}
			b.WriteString(w)
		}
		if kind, ok := squareKinds[b.String()]; ok {
			return kind, n
		}
	}
	return "", 0
}

// parseCompass reads N, E, S, W or the full names.
func (p *langParser) parseCompass() (string, bool) {
	switch p.peek(0).text {
	case "n", "north", "up", "northward", "northwards":
		p.i++
		return "N", true
	case "e", "east", "eastward", "eastwards":
		p.i++
		return "E", true
	case "s", "south", "down", "southward", "southwards":
		p.i++
		return "S", true
	case "w", "west", "westward", "westwards":
		p.i++
		return "W", true
	}
	return "", false
}

func (p *langParser) parseSide() (string, bool) {
	switch p.peek(0).text {
	case "front", "forward", "forwards", "ahead":
		p.i++
		return "front", true
	case "back", "backward", "backwards", "behind", "rear":
		p.i++
		return "back", true
	case "left":
		p.i++
		return "left", true
	case "right":
		p.i++
		return "right", true
	}
	return "", false
}

func (p *langParser) parseHolds() Cond {
	p.skip("the", "a", "an", "my")
	switch {
	case p.is("option") && !p.isOptionName() || p.is("options") || p.is("any", "option") || p.is("any", "options"):
		p.accept("any")
		p.i++
		p.skip("card", "cards")
		return Cond{Test: TestOptions, Op: ">=", N: 1}
	case p.peek(0).kind == 'n' || numberWords[p.peek(0).text] > 0 || p.is("more") || p.is("less") || p.is("at"):
		op := p.parseOp()
		n, ok := p.number()
		if !ok {
			p.fail("expected a number, got %s", p.got())
			return Cond{}
		}
		if _, ok := p.acceptAny("options", "option", "damage", "lives", "life", "flags", "flag"); !ok {
			p.fail("expected \"damage\", \"lives\", \"flags\" or \"options\" after the number, got %s", p.got())
			return Cond{}
		}
		test := map[string]string{"options": TestOptions, "option": TestOptions, "damage": TestDamage,
			"lives": TestLives, "life": TestLives, "flags": TestFlags, "flag": TestFlags}[p.toks[p.i-1].text]
		p.skip("cards", "card", "points", "left", "touched")
		return Cond{Test: test, Op: p.orMore(op), N: n}
	}
	name, ok := p.parseOptionName()
	if !ok {
		return Cond{}
	}
	return Cond{Test: TestHolds, Arg: name}
}

func (p *langParser) isOptionName() bool {
	save, err := p.i, p.err
	_, ok := p.parseOptionName()
	p.i, p.err = save, err
	return ok
}

// stopWords end a free-text name (option or robot).
var stopWords = []string{"if", "when", "unless", "else", "otherwise", "then", "and", "or", "in", "on",
	"at", "to", "register", "reg", "facing", "toward", "towards", "against", "for", "with", "during"}

// parseOptionName reads an option card's name (any case, with or without spaces and
// hyphens, or a known alias), the longest match first.
func (p *langParser) parseOptionName() (string, bool) {
	if name, ok := p.optionNameHere(); ok {
		return name, true // before skipping "option": "Option Damping Field"
	}
	p.skip("option", "card", "the")
	if p.i > 0 && p.toks[p.i-1].text == "the" {
		p.i-- // "The Big One"
	}
	if name, ok := p.optionNameHere(); ok {
		return name, true
	}
	words := p.wordsAhead()
	if len(words) > 0 && words[0] == "the" {
		p.i++
		words = words[1:]
		if name, n, ok := p.matchOption(words); ok {
			p.i += n
			return name, true
		}
	}
	// Not found: name the words written, up to a keyword, and the nearest card.
	var written []string
	for k := 0; k < len(words) && k < 4; k++ {
		if inList(words[k], stopWords...) {
			break
		}
		written = append(written, p.peek(k).raw)
	}
	if len(written) == 0 {
		p.fail("expected an option card's name, got %s", p.got())
		return "", false
	}
	w := strings.Join(written, " ")
	if near, ok := nearestOption(w, p.v); ok {
		p.fail("%q is not an option card; did you mean %s?", w, near)
	} else {
		p.fail("%q is not an option card (the cards are listed in docs/orders.md)", w)
	}
	return "", false
}

// optionNameHere reads an option card's name starting at the next word, the longest
// match first.
func (p *langParser) optionNameHere() (string, bool) {
	name, n, ok := p.matchOption(p.wordsAhead())
	if !ok {
		return "", false
	}
	p.i += n
	p.skip("option", "card")
	return name, true
}

// wordsAhead are the words (and numbers) from the next token on, as many as the longest
// option name has, and one more.
func (p *langParser) wordsAhead() []string {
	var words []string
	for k := 0; k < p.v.maxWords+1; k++ {
		t := p.peek(k)
		if t.kind != 'w' && t.kind != 'n' {
			break
		}
		words = append(words, t.text)
	}
	return words
}

// matchOption is the option card the longest run of words from the start names, and
// how many words it takes.
func (p *langParser) matchOption(words []string) (string, int, bool) {
	for n := len(words); n > 0; n-- {
		if name, ok := p.v.options[squash(strings.Join(words[:n], ""))]; ok {
			return name, n, true
		}
	}
	return "", 0, false
}

func nearestOption(w string, v *vocab) (string, bool) {
	sw := squash(w)
	best, bd := "", 1<<30
	for key, name := range v.options {
		if d := editDistance(sw, key); d < bd || (d == bd && name < best) {
			best, bd = name, d
		}
	}
	return best, best != "" && bd <= 1+len(sw)/3
}

var actionWords = []string{"power", "stay", "come", "repair", "take", "face", "reenter", "re-enter", "install", "uninstall", "buy",
	"discard", "prevent", "lose", "use", "fire", "activate", "decline", "nothing", "keep", "option", "swap", "recharge", "move", "give"}

// parseAction reads one action.
func (p *langParser) parseAction() Action {
	if p.failed() {
		return Action{}
	}
	p.skip("then", ",", "i", "i'll", "will", "please", "to", "should")
	t := p.peek(0)
	switch {
	case p.accept("power", "down"), p.accept("powerdown"), p.accept("power-down"), p.accept("announce"),
		p.accept("shut", "down"), p.accept("shutdown"):
		if t.text == "announce" {
			p.skip("a", "my")
			if !p.accept("power", "down") && !p.accept("powerdown") && !p.accept("power-down") {
				p.fail("expected \"power down\" after \"announce\", got %s", p.got())
			}
		}
		p.skip("next", "for", "the", "turn", "round")
		return Action{Do: DoPowerDown}
	case p.accept("stay", "down"), p.accept("stay", "powered", "down"), p.accept("remain", "down"),
		p.accept("remain", "powered", "down"), p.accept("keep", "powered", "down"), p.accept("stay", "off"),
		p.accept("remain", "off"), p.accept("keep", "down"):
		p.skip("next", "for", "another", "the", "turn", "round")
		return Action{Do: DoStayDown}
	case p.accept("power", "up"), p.accept("power", "back", "up"), p.accept("power", "on"), p.accept("stay", "up"),
		p.accept("come", "back", "up"), p.accept("come", "up"), p.accept("come", "back", "on"), p.accept("stay", "on"),
		p.accept("stay", "powered", "up"), p.accept("come", "back"), p.accept("power-up"), p.accept("powerup"),
		p.accept("don't", "power", "down"), p.accept("dont", "power", "down"), p.accept("do", "not", "power", "down"),
		p.accept("no", "power", "down"), p.accept("wake", "up"), p.accept("restart"):
		p.skip("next", "for", "the", "turn", "round")
		return Action{Do: DoPowerUp}
	case p.accept("repair"), p.accept("take", "repair"), p.accept("take", "the", "repair"), p.accept("heal"),
		p.accept("take", "repairs"), p.accept("fix"):
		p.skip("2", "two", "damage", "both", "points", "twice")
		return Action{Do: DoRepair}
	case p.accept("draw", "upgrade"), p.accept("draw", "an", "upgrade"), p.accept("draw", "a", "new", "upgrade"),
		p.accept("buy", "upgrade"), p.accept("buy", "an", "upgrade"), p.accept("buy", "an", "upgrade", "card"):
		p.skip("card")
		return Action{Do: DoDrawUpgrade} // seed 004, Phase 1: draw an upgrade for 1 energy
	case p.accept("install"), p.accept("uninstall"):
		do := DoInstall
		if t.text == "uninstall" {
			do = DoUninstall
		}
		name, ok := p.parseOptionName()
		if !ok {
			return Action{}
		}
		return Action{Do: do, Option: name}
	case p.is("take") || p.is("draw") || p.is("get") || p.is("choose") || p.is("pick") || p.is("option"):
		p.i++
		p.skip("up", "an", "a", "the", "new")
		if !p.accept("option") && !p.accept("options") && !p.accept("card") && t.text != "option" {
			p.fail("expected \"option\" or \"repair\" after %q, got %s", t.raw, p.got())
			return Action{}
		}
		p.skip("card", "instead")
		return Action{Do: DoTakeOption}
	case p.is("face") || p.is("facing") || p.is("reenter") || p.is("re-enter") || p.is("re-entry") ||
		p.is("reentry") || p.is("enter") || p.is("respawn") || p.is("return") || p.is("point") ||
		p.is("on", "re-entry") || p.is("on", "reentry") || p.is("at", "re-entry") || p.is("at", "reentry") ||
		p.is("when", "re-entering") || p.is("when", "reentering"):
		p.skip("on", "at", "when", "upon")
		p.skip("face", "facing", "reenter", "re-enter", "re-entry", "reentry", "re-entering", "reentering",
			"enter", "respawn", "return", "point", "pointing", "with", ",", ":", "the", "robot", "me")
		return p.parseFacing()
	case p.accept("prevent"), p.accept("block"), p.accept("avoid"), p.accept("absorb"):
		p.skip("damage", "a", "point", "of", "one")
		p.skip("with", "using", "by", "discarding")
		return p.parseDiscardWhich(DoPreventDamage)
	case p.accept("discard"), p.accept("drop"), p.accept("sacrifice"), p.accept("exchange"), p.accept("give", "up"),
		!p.is("trade", "in") && p.accept("trade"), p.accept("spend"): // "trade in X" is the chop shop's swap
		a := p.parseDiscardWhich(DoLoseOption)
		if p.failed() {
			return a
		}
		if p.preventSuffix() {
			a.Do = DoPreventDamage
		}
		return a
	case p.accept("swap"), p.accept("chop"), p.accept("replace"), p.accept("trade", "in"):
		// seed 003, CHOP SHOP: scrap an option and draw a new one in its place.
		name, ok := p.parseOptionName()
		if !ok {
			return Action{}
		}
		p.skip("for", "a", "new", "option", "card", "at", "the", "chop", "shop")
		return Action{Do: DoSwapOption, Option: name}
	case p.accept("recharge"), p.accept("refill"), p.accept("reload"):
		// seed 003, CHOP SHOP: recharge one option.
		name, ok := p.parseOptionName()
		if !ok {
			return Action{}
		}
		p.skip("at", "the", "chop", "shop")
		return Action{Do: DoRecharge, Option: name}
	case p.accept("keep", "archive"), p.accept("keep", "my", "archive"), p.accept("keep", "the", "archive"),
		p.accept("keep", "safety", "copy"), p.accept("keep", "my", "safety", "copy"), p.accept("don't", "move", "archive"),
		p.accept("dont", "move", "archive"), p.accept("do", "not", "move", "archive"), p.accept("don't", "move", "my", "archive"):
		p.skip("marker", "where", "it", "is")
		return Action{Do: DoKeepArchive}
	case p.accept("move", "archive"), p.accept("move", "my", "archive"), p.accept("move", "the", "archive"),
		p.accept("place", "archive"), p.accept("place", "my", "archive"), p.accept("place", "safety", "copy"),
		p.accept("place", "my", "safety", "copy"):
		p.skip("marker", "here", "there", "on", "the", "flag")
		return Action{Do: DoMoveArchive}
	case p.accept("lose"), p.accept("scrap"):
		return p.parseDiscardWhich(DoLoseOption)
	case p.accept("keep", "options"), p.accept("keep", "my", "options"), p.accept("keep", "all", "options"),
		p.accept("never", "discard"), p.accept("don't", "discard"), p.accept("dont", "discard"), p.accept("do", "not", "discard"),
		p.accept("keep", "all"):
		p.skip("options", "my", "option", "cards", "to", "prevent", "damage")
		return Action{Do: DoKeepOptions}
	case p.accept("keep"), p.accept("prefer"):
		// seed 001, Deluxe Option Package and Scavenger Hunt I: the card to keep of
		// those offered (after "keep archive", "keep options" and "keep down" above).
		name, ok := p.parseOptionName()
		if !ok {
			return Action{}
		}
		p.skip("first")
		return Action{Do: DoKeepOption, Option: name}
	case p.accept("give"):
		// seed 001, Scavenger Hunt II: the card the robot on your right receives at a
		// flag ("give Brakes", "give Brakes to Fred").
		name, ok := p.parseOptionName()
		if !ok {
			return Action{}
		}
		a := Action{Do: DoGiveOption, Option: name}
		if p.accept("to") {
			if p.end() {
				p.fail("expected a robot's name after \"to\"")
				return Action{}
			}
			a.Target = p.peek(0).raw
			p.i++
		}
		return a
	case p.accept("don't", "use"), p.accept("dont", "use"), p.accept("do", "not", "use"), p.accept("decline"),
		p.accept("never", "use"), p.accept("skip"):
		name, ok := p.parseOptionName()
		if !ok {
			return Action{}
		}
		return Action{Do: DoDecline, Option: name}
	case p.accept("use"), p.accept("fire"), p.accept("activate"), p.accept("launch"), p.accept("deploy"),
		p.accept("engage"), p.accept("play"), p.accept("apply"), p.accept("trigger"):
		name, ok := p.parseOptionName()
		if !ok {
			return Action{}
		}
		a := Action{Do: DoUse, Option: name}
		if p.preventSuffix() {
			a.Do = DoPreventDamage
			return a
		}
		p.parseUseParams(&a)
		return a
	case p.accept("nothing"), p.accept("none"), p.accept("do", "nothing"), p.accept("pass"), p.accept("no"),
		p.accept("ignore"):
		return Action{Do: DoNothing}
	}
	p.fail("expected an order (power down, stay down, come back up, repair, take option, face N, discard OPTION to prevent damage, lose OPTION, use OPTION), got %s%s", p.got(), p.hint(actionWords))
	return Action{}
}

func (p *langParser) preventSuffix() bool {
	return p.accept("to", "prevent", "damage") || p.accept("to", "block", "damage") || p.accept("to", "avoid", "damage") ||
		p.accept("to", "prevent", "a", "damage") || p.accept("against", "damage") || p.accept("for", "damage") ||
		p.accept("instead", "of", "damage") || p.accept("to", "save", "damage") || p.accept("to", "absorb", "damage") ||
		p.accept("to", "prevent", "a", "point", "of", "damage") || p.accept("to", "prevent", "one", "damage")
}

// parseDiscardWhich reads which option: a name, "any [option]", "options".
func (p *langParser) parseDiscardWhich(do string) Action {
	p.skip("my", "an", "a", "one")
	if p.accept("any") || p.accept("options") || p.accept("option", "cards") ||
		(p.is("option") && !p.isOptionName() && p.accept("option")) {
		p.skip("option", "options", "card", "cards")
		return Action{Do: do}
	}
	if do == DoPreventDamage && (p.end() || p.is("if") || p.is("when") || p.is("unless") || p.is(",") || p.is(".")) {
		return Action{Do: do}
	}
	name, ok := p.parseOptionName()
	if !ok {
		return Action{}
	}
	p.skip("first")
	return Action{Do: do, Option: name}
}

// parseFacing reads a re-entry facing: a direction, or toward the next flag.
func (p *langParser) parseFacing() Action {
	if d, ok := p.parseCompass(); ok {
		p.skip("wards", "ward")
		return Action{Do: DoFace, Dir: d}
	}
	p.skip("toward", "towards", "to", "at", "the", "my")
	p.skip("next", "nearest")
	if p.accept("flag") || p.accept("checkpoint") {
		return Action{Do: DoFace, Dir: "next-flag"}
	}
	p.fail("expected a direction (N, E, S, W) or \"toward the next flag\", got %s", p.got())
	return Action{}
}

// parseUseParams reads the parameters of "use OPTION": a direction or side, a
// register, a target robot (one word, as robot names are), a card, how far ("back 2"),
// one of the target's options ("destroy Brakes"). Each may be given once, except cards:
// an order may name up to five (Buzz Bomb), all kept in order; a second target is an
// error, not silently the last one.
func (p *langParser) parseUseParams(a *Action) {
	once := func(what string, set bool) bool {
		if set {
			p.fail("%s given twice in one order: write one", what)
		}
		return !set
	}
	for !p.end() && !p.failed() {
		save := p.i
		// "back 2", "2 steps", "2 squares": how far (Reverse Gear), never a register.
		if (p.is("back") || p.is("backward") || p.is("backwards")) && p.peek(1).kind == 'n' {
			p.i++
			n, _ := strconv.Atoi(p.peek(0).text)
			if n < 1 || n > 2 || !once("a distance", a.Steps != 0) {
				p.fail("expected back 1 or back 2, got %s", p.got())
				return
			}
			a.Steps = n
			p.i++
			p.skip("squares", "square", "steps", "step", "spaces", "space")
			continue
		}
		// "fuel 2", "2 fuel", "2 counters": fuel counters in one register (Retro-Rockets).
		if (p.is("fuel") && p.peek(1).kind == 'n') || (p.peek(0).kind == 'n' && inList(p.peek(1).text, "fuel", "counters", "counter")) {
			k := 0
			if p.is("fuel") {
				k = 1
			}
			n, _ := strconv.Atoi(p.peek(k).text)
			if n < 1 || n > 3 || !once("fuel counters", a.Steps != 0) {
				p.fail("expected 1 to 3 fuel counters, got %s", p.got())
				return
			}
			a.Steps = n
			p.i += 2
			p.skip("counters", "counter")
			continue
		}
		if p.peek(0).kind == 'n' && inList(p.peek(1).text, "squares", "square", "steps", "step", "spaces", "space") {
			n, _ := strconv.Atoi(p.peek(0).text)
			if n < 1 || n > 4 || !once("a distance", a.Steps != 0) {
				p.fail("expected a distance of 1 to 4 squares, got %s", p.got())
				return
			}
			a.Steps = n
			p.i += 2
			continue
		}
		p.skip("facing", "toward", "towards", "pointing", "to", "the", "my", "side", ",")
		if d, ok := p.parseCompass(); ok {
			if !once("a direction", a.Dir != "") {
				return
			}
			a.Dir = d
			continue
		}
		if d, ok := p.parseSide(); ok {
			if !once("a direction", a.Dir != "") {
				return
			}
			a.Dir = d
			continue
		}
		p.i = save
		switch {
		case p.is("lock"):
			// Target Control: "lock register 3" names the target's register, not when.
			p.i++
			p.skip("its", "their", "the")
			p.acceptAny("register", "reg")
			n, ok := p.number()
			if !ok || n < 1 || n > 5 {
				p.fail("expected a register 1 to 5 to lock, got %s", p.got())
				return
			}
			if !once("a register to lock", a.Lock != 0) {
				return
			}
			a.Lock = n
		case p.is("in") || p.is("during") || p.is("for") || p.is("register") || p.is("reg") || p.is("phase"):
			p.skip("in", "during", "for", "the")
			if _, ok := p.acceptAny("register", "reg", "phase"); !ok {
				p.i = save
				return
			}
			n, ok := p.number()
			if !ok || n < 1 || n > 5 {
				p.fail("expected a register 1 to 5, got %s", p.got())
				return
			}
			if !once("a register", a.Register != 0) {
				return
			}
			a.Register = n
		case p.peek(0).kind == 'n':
			n, _ := strconv.Atoi(p.peek(0).text)
			switch {
			case n >= 1 && n <= 5:
				if !once("a register", a.Register != 0) {
					return
				}
				a.Register = n
			case n >= 10 && n < 1000:
				if !p.addCard(a, n) {
					return
				}
			default:
				p.fail("expected a register 1 to 5 or a card, got %s", p.got())
				return
			}
			p.i++
		case len(p.peek(0).text) > 1 && len(p.peek(0).text) <= 5 && p.peek(0).text[0] == 'p' && allDigits(p.peek(0).text[1:]):
			n, _ := strconv.Atoi(p.peek(0).text[1:])
			if !p.addCard(a, n) {
				return
			}
			p.i++
		case len(p.peek(0).text) == 2 && p.peek(0).text[0] == 'r' && p.peek(0).text[1] >= '1' && p.peek(0).text[1] <= '5':
			// "R3": register 3, as a program line numbers its registers.
			if !once("a register", a.Register != 0) {
				return
			}
			a.Register = int(p.peek(0).text[1] - '0')
			p.i++
		case p.is("primary"):
			// seed 001, Primary Card: "primary P490" says which of two cards it is.
			p.i++
			p.skip("card", "is")
			t := p.peek(0).text
			if len(t) > 1 && t[0] == 'p' {
				t = t[1:]
			}
			n, err := strconv.Atoi(t)
			if err != nil || !allDigits(t) || n < 10 || n >= 1000 {
				p.fail("expected a card after \"primary\" (as in \"primary P490\"), got %s", p.got())
				return
			}
			if !once("a primary card", a.Primary != 0) {
				return
			}
			a.Primary = n
			p.i++
		case p.is("tag") || p.is("home") || p.is("homing"):
			// Homing Device: tag a robot instead of firing, or home in on the tagged one.
			if !once("a way of using it", a.Mode != "") {
				return
			}
			a.Mode = "tag"
			if !p.is("tag") {
				a.Mode = "home"
			}
			p.i++
			p.skip("in")
		case p.is("empty") || p.is("unprogrammed") || p.is("blank"):
			// Overload Override: the register is left unprogrammed.
			if !once("a way of using it", a.Mode != "") {
				return
			}
			a.Mode = "empty"
			p.i++
		case p.is("card") || p.is("with"):
			p.i++
		case p.is("destroy") || p.is("discard") || p.is("option") || p.is("take") || p.is("swap") || p.is("exchange"):
			// Target Control: "destroy Brakes"; Reengineering Unit: "take Brakes".
			p.i++
			p.skip("its", "their", "the", "option", "card")
			name, ok := p.parseOptionName()
			if !ok {
				return
			}
			if !once("a target's option", a.TargetOption != "") {
				return
			}
			a.TargetOption = name
		case p.is("on") || p.is("at") || p.is("against") || p.is("target") || p.is("targeting") || p.is("hitting"):
			p.i++
			p.skip("robot", "the")
			if p.end() || (p.peek(0).kind != 'w' && p.peek(0).kind != 'n') || inList(p.peek(0).text, stopWords...) {
				p.fail("expected a robot's name after %q, got %s", p.toks[p.i-1].raw, p.got())
				return
			}
			if !once("a target", a.Target != "") {
				return
			}
			// Robot names are one word (judge: letters, digits, - and _).
			a.Target = p.peek(0).raw
			p.i++
		default:
			return
		}
	}
}

// maxOrderCards is the most cards one order names (Buzz Bomb's five: seed 001).
const maxOrderCards = 5

// addCard adds a card named in a "use" order. Buzz Bomb takes five (seed 001: "take
// five program cards"): the first is Card, the others follow in More, in the order
// written. Otherwise the first is Card, a second Card2 (Overload Override names a
// register's two cards); one more than the card takes is an error, never the last card
// kept silently.
func (p *langParser) addCard(a *Action, n int) bool {
	if cardParams[a.Option].bomb {
		k := len(a.Cards())
		switch {
		case k == 0:
			a.Card = n
		case k >= maxOrderCards:
			p.fail("%s takes %d cards, got another: P%d", a.Option, maxOrderCards, n)
			return false
		default:
			a.More[k-1] = n
		}
		return true
	}
	switch {
	case a.Card == 0:
		a.Card = n
	case a.Card2 == 0:
		if !cardParams[a.Option].twoCards {
			p.fail("a card given twice in one order (P%d and P%d): %s takes one", a.Card, n, a.Option)
			return false
		}
		if n == a.Card {
			p.fail("P%d named twice in one order", n)
			return false
		}
		a.Card2 = n
	default:
		p.fail("three cards in one order: a register holds at most two (P%d and P%d)", a.Card, a.Card2)
		return false
	}
	return true
}

// ParseRule reads one order ("if damage > 3 power down") as a line of a sheet would be
// read. line numbers the problem it reports.
func ParseRule(text string, line int) (Rule, error) {
	runes, cols, _ := cleanLine(text)
	p := newLangParser(lex(runes, cols), line)
	if p.end() {
		return Rule{}, &SyntaxError{Problems: []Problem{{At: Pos{line, 1}, Msg: "expected an order, got an empty line"}}}
	}
	r, ok := p.parseRule()
	if !ok {
		return Rule{}, &SyntaxError{Problems: []Problem{*p.err}}
	}
	return r, nil
}

// ParseCond reads a condition alone ("damage > 3 and on a flag").
func ParseCond(text string) (Cond, error) {
	runes, cols, _ := cleanLine(text)
	p := newLangParser(lex(runes, cols), 1)
	c := p.parseCond()
	if !p.end() && !p.failed() {
		p.fail("unexpected %s after the condition", p.got())
	}
	if p.failed() {
		return Cond{}, &SyntaxError{Problems: []Problem{*p.err}}
	}
	return c, nil
}

// ParseAction reads an action alone ("take option card").
func ParseAction(text string) (Action, error) {
	runes, cols, _ := cleanLine(text)
	p := newLangParser(lex(runes, cols), 1)
	a := p.parseAction()
	p.skip(".")
	if !p.end() && !p.failed() {
		p.fail("unexpected %s after the order", p.got())
	}
	if p.failed() {
		return Action{}, &SyntaxError{Problems: []Problem{*p.err}}
	}
	return a, nil
}
