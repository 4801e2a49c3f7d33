package orders

import (
	"fmt"
	"slices"
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
	// Read while parsing one rule, for parseRules: lethal says a "discard ... to survive"
	// holds only for a point that would destroy the robot; alts are the further options
	// of "discard Brakes before Shield" in the order preferred; regs the further
	// registers of "use Brakes in registers 2 and 3".
	lethal bool
	// bareDiscard says an order reads "discard Brakes" with no "to prevent damage": it
	// names the option to lose only with a condition on destruction (parseRule).
	bareDiscard bool
	alts        []string
	elseAlts    []string
	regs        []int
	// fallback is the install after "install the card I draw, else install NAME": a
	// rule of its own (parseRules), the upgrade installed when the drawn one is not.
	fallback *Action
	// words is wordsAhead's buffer, on wbuf while the names are short enough.
	words []string
	wbuf  [8]string
}

func newLangParser(toks []token, line int) *langParser {
	p := new(langParser)
	p.reset(toks, line)
	return p
}

// reset makes p a new parser of toks.
func (p *langParser) reset(toks []token, line int) {
	// Field by field rather than *p = langParser{...}: the struct is mostly pointers
	// (wbuf: eight strings), and a whole copy is a write barrier for each while the
	// collector marks. What wbuf holds past words is never read.
	p.toks, p.i, p.line, p.err, p.v = toks, 0, line, nil, theVocab()
	p.lethal, p.bareDiscard = false, false
	p.alts, p.elseAlts, p.regs, p.fallback = nil, nil, nil, nil
	p.words = p.wbuf[:0]
}

func (p *langParser) end() bool { return p.i >= len(p.toks) }

func (p *langParser) peek(k int) token {
	if p.i+k < len(p.toks) {
		return p.toks[p.i+k]
	}
	return token{}
}

// word is the text of the token k ahead, "" past the end: peek(k).text without a copy
// of the whole token.
func (p *langParser) word(k int) string {
	if j := p.i + k; j < len(p.toks) {
		return p.toks[j].text
	}
	return ""
}

// kindOf is the kind of the token k ahead, 0 past the end: peek(k).kind without a copy.
func (p *langParser) kindOf(k int) byte {
	if j := p.i + k; j < len(p.toks) {
		return p.toks[j].kind
	}
	return 0
}

// is reports whether the next tokens are words...; "" matches any token.
func (p *langParser) is(words ...string) bool {
	if p.i+len(words) > len(p.toks) {
		return false // peek's token past the end matches nothing
	}
	for k, w := range words {
		// a token's text is never "" (lex); the first bytes told apart before the
		// whole texts, as most words asked for are not the one there
		if t := p.toks[p.i+k].text; w != "" && (len(t) != len(w) || t[0] != w[0] || t != w) {
			return false
		}
	}
	return true
}

// is1 is is for one word (not ""), as most asks are: without is's list to walk.
func (p *langParser) is1(w string) bool {
	if p.i >= len(p.toks) {
		return false
	}
	t := p.toks[p.i].text
	return len(t) == len(w) && t[0] == w[0] && t == w
}

// accept1 is accept for one word (not "").
func (p *langParser) accept1(w string) bool {
	if p.is1(w) {
		p.i++
		return true
	}
	return false
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
	if p.i >= len(p.toks) {
		return "", false
	}
	t := p.toks[p.i].text
	if t == "" {
		return "", false
	}
	// the first bytes told apart before the whole texts, as in is
	for _, w := range words {
		if len(w) == len(t) && w[0] == t[0] && w == t {
			p.i++
			return w, true
		}
	}
	return "", false
}

// skipWhile skips the words is reports, one switch for a list of words looked at for
// each word skipped (skip compares the next word with each of its list in turn).
func (p *langParser) skipWhile(is func(string) bool) {
	for p.i < len(p.toks) && is(p.toks[p.i].text) {
		p.i++
	}
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
	if w, ok := nearestWord(p.word(0), candidates); ok && w != p.word(0) {
		return fmt.Sprintf("; did you mean %q?", w)
	}
	return ""
}

// parseRule reads a whole line as one rule.
func (p *langParser) parseRule() (Rule, bool) {
	r := Rule{At: p.pos()}
	p.lethal, p.bareDiscard, p.alts, p.elseAlts, p.regs, p.fallback = false, false, nil, nil, nil, nil
	must := false
	p.skip("-", "*", "•")
	// "R3 use Crab Legs P490", "R3: Brakes", "register 3: use Brakes", "in register 3,
	// use Brakes": the register first, as a program line numbers them.
	reg := p.registerPrefix()
	var pre *Cond // a condition written first without "if": "on a double wrench, take option"
	switch {
	case (p.is1("if") || p.is1("when") || p.is1("unless") || p.is("only", "if") || p.is("only", "when")) && !p.is("when", "i", "die"):
		p.accept1("only")
		neg := p.word(0) == "unless"
		p.i++
		if p.mustLoseOption() {
			// "if I have to lose an option, lose Brakes": the decision itself, always true.
			must = true
			p.skip(",", ":", "-")
			p.accept1("then")
			r.Then = p.parseAction()
			break
		}
		c := p.parseCond()
		if neg {
			c = negate(c)
		}
		r.If = &c
		p.skip(",", ":", "-")
		p.accept1("then")
		p.skip(",", ":")
		r.Then = p.parseAction()
		p.parseElse(&r)
	default:
		if c, ok := p.condFirst(); ok {
			pre = &c
			p.skip(",", ":", "-")
			p.accept1("then")
		}
		r.Then = p.parseAction()
		if pre == nil && !p.failed() && r.Then.Do != DoUse && r.Then.Do != DoDecline && r.Then.Do != DoFace {
			// "take option at a double repair": the square after the order.
			if c, ok := p.squareAfter(); ok {
				pre = &c
			}
		}
		p.accept1("only")
		if w, ok := p.acceptAny("if", "when", "unless"); ok {
			c := p.parseCond()
			if w == "unless" {
				c = negate(c)
			}
			r.If = &c
			p.parseElse(&r)
		}
	}
	if pre != nil {
		r.If = andCond(pre, r.If)
	}
	if reg != 0 && !p.failed() {
		if r.Then.Do != DoUse && r.Then.Do != DoDecline {
			// "in register 3, discard Brakes to prevent damage": a condition on the register.
			r.If = andCond(&Cond{Test: TestRegister, Op: "=", N: reg}, r.If)
		} else {
			for _, a := range []*Action{&r.Then, r.Else} {
				switch {
				case a == nil || a.Do != DoUse && a.Do != DoDecline:
				case a.Register != 0 && a.Register != reg:
					p.fail("register %d and register %d in one order: write one", reg, a.Register)
				default:
					a.Register = reg
				}
			}
		}
	}
	if p.bareDiscard && !must && !p.failed() && (r.If == nil || !mentions(r.If, TestDead)) {
		// "discard Brakes" alone says not when: to stop a point of damage as it arrives, or
		// when an option must go? Both are orders; the player says which.
		p.err = &Problem{At: r.At, Msg: "\"discard OPTION\" says not when: write \"discard OPTION to prevent damage\" " +
			"(a point of damage as it arrives) or \"lose OPTION\" (when an option must go: the robot destroyed, a fourth card)"}
	}
	if p.lethal && !p.failed() {
		// "discard Brakes to survive": only a point that would destroy the robot.
		if r.Else != nil {
			p.fail("\"to survive\" and an else in one order: write \"if I would be destroyed then discard ... to prevent damage else ...\"")
		}
		r.If = andCond(&Cond{Test: TestIDestroyed}, r.If)
	}
	sentence := false
	for p.is1(".") || p.is1("!") || p.is1(";") || p.is1(",") {
		sentence = sentence || p.word(0) != ","
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

// parseRules reads one rule and the rules it stands for: one, or one a card of a
// preference ("discard Brakes before Shield to prevent damage": Brakes's order, then
// Shield's) and one a register ("use Brakes in registers 2 and 4").
func (p *langParser) parseRules() ([]Rule, bool) {
	return p.appendRules(nil)
}

// appendRules is parseRules appending the rules to dst.
func (p *langParser) appendRules(dst []Rule) ([]Rule, bool) {
	r, ok := p.parseRule()
	if !ok {
		return nil, false
	}
	start := len(dst)
	if dst == nil {
		dst = make([]Rule, 0, 2) // most sheets with orders have more than one
	}
	out := append(dst, r)
	if p.fallback != nil {
		out = append(out, Rule{At: r.At, Then: *p.fallback})
	}
	for _, alt := range p.alts {
		x := r
		x.Then.Option = alt
		out = append(out, x)
	}
	for _, alt := range p.elseAlts {
		x := r
		e := *r.Else
		e.Option = alt
		x.Else = &e
		out = append(out, x)
	}
	if len(p.regs) > 0 {
		n := len(out)
		for _, reg := range p.regs {
			for _, x := range out[start:n] {
				x.Then.Register = reg
				if x.Else != nil && x.Else.Register != 0 {
					e := *x.Else
					e.Register = reg
					x.Else = &e
				}
				out = append(out, x)
			}
		}
	}
	return out, true
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
	if p.accept("or", "else") || p.accept1("else") || p.accept1("otherwise") {
		p.skip(",", ":")
		p.accept1("then")
		thenAlts := p.alts
		p.alts = nil
		defer func() { p.elseAlts, p.alts = p.alts, thenAlts }()
		if p.is1("don't") || p.is1("dont") || p.is("do", "not") || p.is1("not") {
			// "if damage > 4 power down, else don't": the other answer of the same decision.
			at := p.i
			p.skip("don't", "dont", "do", "not")
			if p.end() || inList(p.word(0), ".", ";", "!") {
				a, ok := opposite(r.Then)
				if !ok {
					p.i = at
					p.fail("\"else don't\" after %q: write what to do instead (\"else nothing\" leaves the decision to later orders)", r.Then.String())
					return
				}
				r.Else = &a
				return
			}
			p.i = at
		}
		a := p.parseAction()
		r.Else = &a
		return
	}
	p.i = save
}

// opposite is the other answer of the decision an action answers, for "else don't":
// power down / come back up, stay down / come back up, use / decline an option, repair /
// take an option, discard an option to prevent damage / keep options.
func opposite(a Action) (Action, bool) {
	switch a.Do {
	case DoPowerDown, DoStayDown:
		return Action{Do: DoPowerUp}, true
	case DoPowerUp:
		return Action{Do: DoPowerDown}, true
	case DoUse:
		return Action{Do: DoDecline, Option: a.Option, Register: a.Register}, true
	case DoDecline:
		return Action{Do: DoUse, Option: a.Option, Register: a.Register}, true
	case DoRepair:
		return Action{Do: DoTakeOption}, true
	case DoTakeOption:
		return Action{Do: DoRepair}, true
	case DoPreventDamage:
		return Action{Do: DoKeepOptions}, true
	}
	return Action{}, false
}

// mentions reports whether a condition tests test anywhere.
func mentions(c *Cond, test string) bool {
	if c.Test == test {
		return true
	}
	for i := range c.All {
		if mentions(&c.All[i], test) {
			return true
		}
	}
	for i := range c.Any {
		if mentions(&c.Any[i], test) {
			return true
		}
	}
	return false
}

// andCond is a and b (b may be nil).
func andCond(a, b *Cond) *Cond {
	if b == nil {
		return a
	}
	if len(b.All) > 0 && !b.Not {
		c := Cond{All: append([]Cond{*a}, b.All...)}
		return &c
	}
	return &Cond{All: []Cond{*a, *b}}
}

// registerPrefix reads a register written before an order ("R3 use ...", "R3:", "register
// 3:", "reg 3", "in register 3,") and returns it, or 0 (nothing read).
func (p *langParser) registerPrefix() int {
	save := p.i
	if t := p.word(0); len(t) == 2 && t[0] == 'r' && t[1] >= '1' && t[1] <= '5' {
		p.i++
		p.skip(":", ",", "-", ")", ".")
		if p.end() {
			p.i = save
			return 0
		}
		return int(t[1] - '0')
	}
	if t := p.peek(0); t.kind == 'n' && len(t.text) == 1 && t.text >= "1" && t.text <= "5" && inList(p.word(1), ":", ")", ".") {
		// "3: Fourth Gear", as a program line labels its registers.
		p.i += 2
		if !p.end() {
			return int(t.text[0] - '0')
		}
		p.i = save
		return 0
	}
	p.skip("in", "during", "for", "at", "on")
	p.skip("the")
	if _, ok := p.acceptAny("register", "reg", "phase"); ok {
		if n, ok := p.registerNumber(); ok && !p.end() && (p.is1(":") || p.is1(",") || p.is1("-") || p.is1(")") || !p.is1("or") && !p.is1("and") && !p.isOp()) {
			p.skip(":", ",", "-", ")", ".")
			if !p.end() {
				return n
			}
		}
	} else if n, ok := p.ordinal(); ok && p.accept1("register") {
		p.skip(":", ",", "-")
		if !p.end() {
			return n
		}
	}
	p.i = save
	return 0
}

// isOp reports whether a comparison comes next (so "register 3 or more" is no prefix).
func (p *langParser) isOp() bool {
	return inList(p.word(0), ">", ">=", "<", "<=", "=", "!=", "+")
}

// registerNumber reads a register: 1 to 5, as a number, a word, "R3" or an ordinal.
func (p *langParser) registerNumber() (int, bool) {
	if n, ok := p.ordinal(); ok {
		return n, true
	}
	save := p.i
	n, ok := p.number()
	if !ok || n < 1 || n > 5 {
		p.i = save
		return 0, false
	}
	return n, true
}

// ordinalAhead reports whether "3rd register", "third register" comes next.
func (p *langParser) ordinalAhead() bool {
	save := p.i
	_, ok := p.ordinal()
	ok = ok && (p.is1("register") || p.is1("reg") || p.is1("phase"))
	p.i = save
	return ok
}

// ordinalValue is the register a word numbers ("2nd", "third", "last"), or 0: a
// switch, asked of the first word of every order.
func ordinalValue(w string) int {
	switch w {
	case "1st", "first":
		return 1
	case "2nd", "second":
		return 2
	case "3rd", "third":
		return 3
	case "4th", "fourth":
		return 4
	case "5th", "fifth", "last", "final":
		return 5
	}
	return 0
}

// ordinal reads "3rd", "third", "last" (5), "first".
func (p *langParser) ordinal() (int, bool) {
	if n := ordinalValue(p.word(0)); n > 0 {
		p.i++
		return n, true
	}
	return 0, false
}

// condFirst reads a condition written first without "if": "on a double wrench, take
// option", "at a 2 spanner repair: repair", "on destruction lose Brakes", "double
// wrench: take option".
func (p *langParser) condFirst() (Cond, bool) {
	save := p.i
	if p.accept("on", "destruction") || p.accept("upon", "destruction") || p.accept("on", "death") ||
		p.accept("when", "i", "die") || p.accept("if", "i", "die") || p.accept("upon", "death") || p.accept("after", "destruction") {
		return Cond{Test: TestDead}, true
	}
	if p.is1("on") || p.is1("at") || p.is1("upon") {
		return p.squareAfter()
	}
	if kind, n := p.squareKind(); n > 0 && inList(p.word(n), ":", ",", "-") && kind != "repair" && kind != "flag" && kind != "start" {
		// "double wrench: take option" (not "repair: ...", which is an order).
		p.i += n
		return Cond{Test: TestOn, Arg: kind}, true
	}
	p.i = save
	return Cond{}, false
}

// squareAfter reads "at a double repair", "on a double wrench", "upon a flag" (after
// an order that takes no target, or first on a line: condFirst): the condition that the
// robot is on that square.
func (p *langParser) squareAfter() (Cond, bool) {
	save := p.i
	if p.is1("on") || p.is1("at") || p.is1("upon") {
		p.i++
		p.skip("a", "an", "the", "my")
		if kind, n := p.squareKind(); n > 0 {
			p.i += n
			return Cond{Test: TestOn, Arg: kind}, true
		}
	}
	p.i = save
	return Cond{}, false
}

// mustLoseOption reads "I have to lose an option", "I must discard an option": the
// question an option's loss asks, always true when it is asked.
func (p *langParser) mustLoseOption() bool {
	save := p.i
	p.skipFillers()
	if p.accept("have", "to") || p.accept1("must") || p.accept("need", "to") || p.accept("am", "forced", "to") {
		if _, ok := p.acceptAny("lose", "discard", "drop", "give"); ok {
			p.skip("up", "an", "a", "one", "my")
			if p.accept1("option") || p.accept1("options") {
				p.skip("card")
				return true
			}
		}
	}
	p.i = save
	return false
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
		if (p.is1("or") && !p.is("or", "else")) || p.is1("|") {
			p.i++
			if any == nil {
				any = make([]Cond, 1, 2) // room for the one read next
				any[0] = first
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
		if p.is1("and") || p.is1("&") || p.is1("+") {
			p.i++
			if all == nil {
				all = make([]Cond, 1, 2) // room for the one read next
				all[0] = first
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

// isFiller reports the words that carry no meaning before a condition.
func isFiller(w string) bool {
	switch w {
	case "i", "i'm", "im", "am", "my", "me", "is", "are", "we", "the", "robot", "currently", "still", "robot's", "it's":
		return true
	}
	return false
}

// skipFillers skips the words that carry no meaning before a condition (isFiller).
func (p *langParser) skipFillers() {
	for p.i < len(p.toks) && isFiller(p.toks[p.i].text) {
		p.i++
	}
}

// acceptNegation consumes a word that negates the test after it ("not", "don't", "do
// not", "never" ...) and reports whether there was one.
func (p *langParser) acceptNegation() bool {
	switch p.word(0) {
	case "not", "no", "don't", "dont", "doesn't", "isn't", "aren't", "never":
		p.i++
		return true
	case "do", "am":
		if p.word(1) == "not" {
			p.i += 2
			return true
		}
	}
	return false
}

func (p *langParser) parseLeaf() Cond {
	if p.failed() {
		return Cond{}
	}
	neg := false
	for {
		p.skipFillers()
		if !p.acceptNegation() {
			break
		}
		neg = !neg
	}
	// The word there tells which kind of test follows: one switch rather than a list
	// of words compared in turn for each kind.
	var c Cond
	t := p.peek(0)
	switch t.text {
	case "(":
		p.i++
		c = p.parseCond()
		if !p.accept1(")") {
			p.fail("expected \")\" to close the condition, got %s", p.got())
		}
	case "would", "will", "i'd", "should":
		p.i++
		c = p.parsePrediction(false)
	case "target", "targets", "opponent", "enemy", "victim", "it", "they", "other", "he", "she":
		p.i++
		p.skip("robot")
		if _, ok := p.acceptAny("would", "will", "should", "could"); !ok {
			p.fail("expected \"would\" after %q (as in \"target would be destroyed\"), got %s", t.raw, p.got())
			return Cond{}
		}
		c = p.parsePrediction(true)
	case "damage", "damaged", "dmg", "lives", "life", "register", "reg", "phase", "flags", "options",
		"checkpoints", "energy", "spam":
		p.i++
		c = p.parseNumberTest(t.text)
	case "facing", "face", "faces", "pointing", "heading":
		p.i++
		d, ok := p.parseCompass()
		if !ok {
			p.fail("expected a direction (N, E, S or W) after %q, got %s", t.raw, p.got())
			return Cond{}
		}
		c = Cond{Test: TestFacing, Arg: d}
	case "next", "near", "beside", "adjacent", "by":
		p.i++
		p.skip("to", "a", "an", "the")
		if _, ok := p.acceptAny("pit", "pits", "hole", "edge", "shaft"); !ok {
			p.fail("expected \"pit\" (as in \"next to a pit\"), got %s", p.got())
			return Cond{}
		}
		c = Cond{Test: TestNextPit}
	case "hold", "holding", "holds", "have", "has", "got", "own", "carry", "carrying", "with":
		p.i++
		c = p.parseHolds()
	case "powered", "down", "power":
		p.i++
		p.accept1("down")
		c = Cond{Test: TestDown}
	case "destroyed", "dead", "killed", "reentering", "re-entering", "was", "die", "dies", "died",
		"rebooting":
		p.i++
		p.accept1("destroyed")
		c = Cond{Test: TestDead}
	case "finish", "finished", "finishing", "end", "ends", "ending", "ended", "stand", "standing",
		"stop", "stopping", "stopped", "sit", "sitting", "be", "land", "on", "at", "in", "upon":
		c = p.parseOn()
	default:
		if t.kind == 'n' || numberWords[t.text] > 0 {
			// "4+ damage", "5 or more damage", "3 energy": the number first (no word
			// above is one).
			c = p.parseCount()
			break
		}
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
	case p.accept1("destroyed"), p.accept1("die"), p.accept1("killed"), p.accept1("explode"):
		if target {
			return Cond{Test: TestTargetDestroyed}
		}
		return Cond{Test: TestIDestroyed}
	case p.accept1("fall"), p.accept1("pushed"), p.accept1("drop"), p.accept1("falls"):
		p.skip("into", "in", "down", "off", "a", "an", "the", "pit", "hole", "shaft", "board", "edge")
		if target {
			return Cond{Test: TestTargetFalls}
		}
		return Cond{Test: TestIFall}
	case !target && (p.is1("end") || p.is1("finish") || p.is1("stop") || p.is1("stand") || p.is1("be")):
		p.i++
		p.skip("the", "turn", "my", "move", "up")
		p.skip("on", "in", "under", "a", "an", "the")
		if _, ok := p.acceptAny("laser", "lasers", "beam"); !ok {
			p.fail("expected \"laser\" (as in \"I would end on a laser\"), got %s", p.got())
			return Cond{}
		}
		p.accept1("beam")
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
	case p.is1(">"), p.is1(">="), p.is1("<"), p.is1("<="), p.is1("="), p.is1("!="):
		op := p.word(0)
		p.i++
		return op
	case p.accept1("not"), p.accept1("isn't"):
		return "!="
	case p.accept("more", "than"), p.accept("greater", "than"), p.accept("higher", "than"), p.accept1("over"),
		p.accept1("above"), p.accept1("exceeds"), p.accept1("exceed"), p.accept("bigger", "than"):
		return ">"
	case p.accept("less", "than"), p.accept("fewer", "than"), p.accept("lower", "than"), p.accept1("under"),
		p.accept1("below"), p.accept("smaller", "than"):
		return "<"
	case p.accept("at", "least"), p.accept("no", "less", "than"), p.accept1("minimum"):
		return ">="
	case p.accept("at", "most"), p.accept("no", "more", "than"), p.accept1("maximum"), p.accept("up", "to"):
		return "<="
	case p.accept1("equals"), p.accept("equal", "to"), p.accept1("exactly"):
		return "="
	case p.accept1("reaches"), p.accept1("reach"), p.accept1("reached"), p.accept1("hits"), p.accept1("hit"),
		p.accept("gets", "to"), p.accept("get", "to"), p.accept("got", "to"), p.accept("goes", "to"), p.accept("go", "to"):
		return ">=" // "damage reaches 8": 8 or more
	}
	return "="
}

func (p *langParser) parseNumberTest(subject string) Cond {
	var test string
	switch subject {
	case "damage", "damaged", "dmg":
		test = TestDamage
		p.accept1("to") // "damaged to 8 or more"
		if subject == "damaged" && p.endOfTest() {
			return Cond{Test: TestDamage, Op: ">", N: 0} // "power down if damaged"
		}
		if p.is1("would") || p.is1("will") {
			// "damage would reach 9": the damage once the hit being dealt lands.
			p.i++
			test = TestDamageWould
			p.skip("be", "become", "get", "go")
			p.skip("to")
		}
	case "energy":
		test = TestEnergy
	case "spam":
		test = TestSpam
	case "lives", "life":
		test = TestLives
	case "register", "reg", "phase":
		test = TestRegister
	case "flags", "checkpoints":
		test = TestFlags
	case "options":
		test = TestOptions
	}
	p.skip("points", "point", "taken", "touched", "left", "count", "held", "number", "cards", "card", "tokens", "cubes")
	op := p.parseOp()
	n, ok := p.number()
	if !ok {
		p.fail("expected a number after %q, got %s", subject, p.got())
		return Cond{}
	}
	p.skip("points", "point", "damage", "lives", "flags", "options", "energy", "cards", "card")
	return Cond{Test: test, Op: p.orMore(op), N: n}
}

// endOfTest reports whether the condition ends here: the end of the line, or a word
// that goes on with the rule ("then", "and", a comma, an action's "power").
func (p *langParser) endOfTest() bool {
	return p.end() || inList(p.word(0), ",", ":", ";", ".", "then", "and", "&", "or", "|", ")", "else", "otherwise") ||
		p.kindOf(0) == 'w' && !p.is1("to") && !p.is1("is") && !p.is1("at") && !p.is1("more") && !p.is1("less") &&
			!p.is1("over") && !p.is1("above") && !p.is1("under") && !p.is1("below") && !p.is1("reaches") && !p.is1("reach") &&
			!p.is1("would") && !p.is1("will") && numberWords[p.word(0)] == 0 && !p.is1("equals") && !p.is1("exactly") &&
			!p.is1("greater") && !p.is1("fewer") && !p.is1("no") && !p.is1("of") && !p.is1("not") && !p.is1("has") &&
			!p.is1("hits") && !p.is1("reached") && !p.is1("gets") && !p.is1("exceeds")
}

// countNouns are what "I have N ..." and "N+ damage" count, and the test each names.
var countNouns = map[string]string{"options": TestOptions, "option": TestOptions, "damage": TestDamage,
	"dmg": TestDamage, "lives": TestLives, "life": TestLives, "flags": TestFlags, "flag": TestFlags,
	"checkpoints": TestFlags, "checkpoint": TestFlags, "energy": TestEnergy, "spam": TestSpam}

// parseCount reads a count with the number first: "4+ damage", "5 or more damage",
// "at least 3 energy", "more than 2 options".
func (p *langParser) parseCount() Cond {
	op := p.parseOp()
	n, ok := p.number()
	if !ok {
		p.fail("expected a number, got %s", p.got())
		return Cond{}
	}
	op = p.orMore(op)
	w, ok := p.acceptAny("options", "option", "damage", "dmg", "lives", "life", "flags", "flag", "checkpoints", "checkpoint", "energy", "spam")
	if !ok {
		p.fail("expected \"damage\", \"lives\", \"flags\", \"options\" or \"energy\" after the number, got %s", p.got())
		return Cond{}
	}
	p.skip("cards", "card", "points", "point", "left", "touched", "tokens", "cubes")
	return Cond{Test: countNouns[w], Op: p.orMore(op), N: n}
}

// orMore reads "3 or more", "3 or less", "3+" after a number compared with "=".
func (p *langParser) orMore(op string) string {
	if op != "=" {
		return op
	}
	switch {
	case p.accept("or", "more"), p.accept("or", "higher"), p.accept("or", "above"), p.accept("or", "over"), p.accept1("+"):
		return ">="
	case p.accept("or", "less"), p.accept("or", "fewer"), p.accept("or", "lower"), p.accept("or", "below"), p.accept("or", "under"):
		return "<="
	}
	return op
}

// isStandWord reports the verbs before the square a robot stands on: "finish on",
// "ending on", "I stand on".
func isStandWord(w string) bool {
	switch w {
	case "finish", "finished", "finishing", "end", "ends", "ending", "ended", "stand", "standing",
		"stop", "stopping", "stopped", "sit", "sitting", "be", "land":
		return true
	}
	return false
}

// parseOn reads "[finish] on [a] SQUARE", "in register 3", "on a laser".
func (p *langParser) parseOn() Cond {
	p.skipWhile(isStandWord)
	p.skip("the", "turn", "my", "move")
	if _, ok := p.acceptAny("on", "at", "in", "upon"); !ok {
		p.fail("expected \"on\" and a square (as in \"I finish on a flag\"), got %s", p.got())
		return Cond{}
	}
	p.skip("a", "an", "the", "my")
	switch {
	case p.is1("register") || p.is1("reg") || p.is1("phase"):
		t := p.peek(0)
		p.i++
		return p.parseNumberTest(t.text)
	case p.accept1("laser"), p.accept1("lasers"), p.accept("laser", "beam"), p.accept1("beam"):
		p.accept1("beam")
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

// squarePrefixes are the beginnings of squareKinds' keys, the keys too, and "" (the
// key of "square" alone: "square repair" is "repair").
var squarePrefixes = func() map[string]bool {
	m := map[string]bool{"": true}
	for k := range squareKinds {
		for i := 1; i <= len(k); i++ {
			m[k[:i]] = true
		}
	}
	return m
}()

// squareKind finds the longest run of the next words naming a square kind.
// It runs for most words of an order, so the words and the key it builds stay on the
// stack (the map lookup with string(key) does not copy).
func (p *langParser) squareKind() (string, int) {
	var arr [5]string
	words := arr[:0]
	for k := p.i; k < len(p.toks) && k-p.i < len(arr); k++ {
		t := &p.toks[k] // not peek's copy of the token
		if t.kind != 'w' && t.kind != 'n' {
			break
		}
		words = append(words, t.text)
	}
	// The key of words[:n] is key[:ends[n-1]]; a run whose key begins no square's
	// names none, and neither does a longer run (squarePrefixes).
	var buf [80]byte
	var ends [len(arr)]int
	key, m := buf[:0], 0
	for _, w := range words {
		switch w {
		case "two", "double", "dual":
			w = "2"
		case "one", "single":
			w = "1"
		case "site", "square", "space", "tile", "sites", "squares", "spaces":
			w = ""
		}
		if strings.IndexByte(w, '-') >= 0 {
			w = strings.ReplaceAll(w, "-", "")
		}
		if len(w) >= len("wrench") && strings.Contains(w, "wrench") {
			w = strings.ReplaceAll(strings.ReplaceAll(w, "wrenches", "spanner"), "wrench", "spanner")
		}
		if w != "express" {
			w = strings.TrimSuffix(w, "s")
		}
		key = append(key, w...)
		if !squarePrefixes[string(key)] {
			break
		}
		ends[m] = len(key)
		m++
	}
	for n := m; n > 0; n-- {
		if kind, ok := squareKinds[string(key[:ends[n-1]])]; ok {
			return kind, n
		}
	}
	return "", 0
}

// parseCompass reads N, E, S, W or the full names.
func (p *langParser) parseCompass() (string, bool) {
	switch p.word(0) {
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
	switch p.word(0) {
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
	case p.is1("option") && !p.isOptionName() || p.is1("options") || p.is("any", "option") || p.is("any", "options"):
		p.accept1("any")
		p.i++
		p.skip("card", "cards")
		return Cond{Test: TestOptions, Op: ">=", N: 1}
	case p.kindOf(0) == 'n' || numberWords[p.word(0)] > 0 || p.is1("more") || p.is1("less") || p.is1("at") ||
		p.is1("fewer") || p.is1("over") || p.is1("under") || p.is1("exactly") || p.is("no", "more") || p.is("no", "less") ||
		p.is1("greater") || p.is1("above") || p.is1("below"):
		return p.parseCount()
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
	words := p.wordsAhead()
	name, n, ok := p.matchOption(words)
	if !ok {
		return "", false
	}
	var buf [128]byte
	if n < len(words) && p.v.short[string(appendSquashed(buf[:0], words[:n]...))] {
		// A short name ("tractor") and a near miss of the card's whole name with the
		// next word ("tractor bean"): a misspelt name, not the short one.
		ext := strings.Join(words[:n+1], "")
		if near, d := p.v.nearestName(ext); d <= 2 && d < editDistance(squash(strings.Join(words[:n], "")), squash(near)) {
			p.fail("%q is not an option card; did you mean %s?", strings.Join(rawWords(p, n+1), " "), near)
			return "", false
		}
	}
	p.i += n
	// "Brakes option card"; but "Target Control option Brakes" names the target's option.
	if (p.is1("option") || p.is1("card")) && !p.optionAhead(1) {
		p.skip("option", "card")
	}
	return name, true
}

// wordsAhead are the words (and numbers) from the next token on, as many as the longest
// option name has, and one more. The slice is the parser's, good until the next call.
func (p *langParser) wordsAhead() []string {
	words := p.words[:0]
	for k := p.i; k < len(p.toks) && k-p.i < p.v.maxWords+1; k++ {
		t := &p.toks[k] // not peek's copy of the token
		if t.kind != 'w' && t.kind != 'n' {
			break
		}
		words = append(words, t.text)
	}
	p.words = words
	return words
}

// matchOption is the option card the longest run of words from the start names, and
// how many words it takes.
func (p *langParser) matchOption(words []string) (string, int, bool) {
	var buf [128]byte
	// Runs longer than the longest whose squash begins a name name nothing.
	m, b := 0, buf[:0]
	for m < len(words) {
		if b = appendSquashed(b, words[m]); !p.v.prefixes[string(b)] {
			break
		}
		m++
	}
	for n := m; n > 0; n-- {
		if name, ok := p.v.options[string(appendSquashed(buf[:0], words[:n]...))]; ok {
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

// The forms of parseAction's switch, a bit each, in the switch's order: each case is
// guarded by its bit, set in actionStarts for every word a form of the case begins with,
// so a word tries only the forms that can start with it (first-word dispatch; issue 24
// item 5). The order of the cases still decides between the forms a word starts.
// TestActionStartsMatchForms checks the table against the words the cases ask for.
const (
	aGadget uint32 = 1 << iota
	aPowerDown
	aStayDown
	aPowerUp
	aRepair
	aPreferRepair
	aPreferOption
	aBuy
	aDrawUpgrade
	aInstall
	aTakeOption
	aFace
	aPrevent
	aDiscard
	aSwap
	aKeepArchive
	aMoveArchive
	aLose
	aKeepOptions
	aKeepOption
	aGive
	aDecline
	aUse
	aRecharge
	aNothing
)

// actionForms are the words each form of parseAction's switch begins with.
var actionForms = map[uint32][]string{
	aGadget:       {"drop", "lay", "place", "leave"},
	aPowerDown:    {"power", "powerdown", "power-down", "announce", "shut", "shutdown", "pd"},
	aStayDown:     {"stay", "remain", "keep"},
	aPowerUp:      {"power", "stay", "come", "power-up", "powerup", "don't", "dont", "do", "no", "wake", "restart", "never"},
	aRepair:       {"repair", "take", "heal", "fix"},
	aPreferRepair: {"prefer"},
	aPreferOption: {"prefer"},
	aBuy:          {"buy"},
	aDrawUpgrade:  {"draw", "buy"},
	aInstall:      {"install", "uninstall"},
	aTakeOption:   {"take", "draw", "get", "choose", "pick", "option"},
	aFace: {"face", "facing", "reenter", "re-enter", "re-entry", "reentry", "enter", "respawn", "return", "point",
		"on", "at", "when", "reboot", "rebooting", "after", "restart"},
	aPrevent:     {"prevent", "block", "avoid", "absorb"},
	aDiscard:     {"discard", "drop", "sacrifice", "exchange", "give", "trade", "spend"},
	aSwap:        {"swap", "chop", "replace", "trade"},
	aKeepArchive: {"keep", "don't", "dont", "do"},
	aMoveArchive: {"move", "place"},
	aLose:        {"lose", "scrap"},
	aKeepOptions: {"keep", "never", "don't", "dont", "do"},
	aKeepOption:  {"keep", "prefer"},
	aGive:        {"give"},
	aDecline:     {"don't", "dont", "do", "decline", "never", "skip"},
	aUse: {"use", "fire", "activate", "launch", "deploy", "engage", "play", "apply", "trigger", "throw", "flip",
		"switch", "turn", "set", "put", "raise", "point", "aim"},
	aRecharge: {"recharge", "refill", "reload"},
	aNothing:  {"nothing", "none", "do", "pass", "no", "ignore"},
}

// actionStarts is actionForms by word: the forms a word can begin.
var actionStarts = func() map[string]uint32 {
	m := map[string]uint32{}
	for bit, words := range actionForms {
		for _, w := range words {
			m[w] |= bit
		}
	}
	return m
}()

// isActionFiller reports the words before an action that say nothing: "then", "I
// will", "please", "always".
func isActionFiller(w string) bool {
	switch w {
	case "then", ",", "i", "i'll", "will", "please", "to", "should", "always":
		return true
	}
	return false
}

// parseAction reads one action.
func (p *langParser) parseAction() Action {
	if p.failed() {
		return Action{}
	}
	p.skipWhile(isActionFiller)
	t := p.peek(0)
	// An option card's name of two words or more first ("Fire Control: lock register 3",
	// "Abort Switch R3"): before the verbs its first word could be read as.
	if name, n, ok := p.matchOption(p.wordsAhead()); ok && n >= 2 {
		p.i += n
		return p.bareUse(name)
	}
	m := actionStarts[t.text] // the forms below that can start with the word there
	switch {
	case m&aGadget != 0 && ((p.is1("drop") || p.is1("lay") || p.is1("place") || p.is1("leave")) && p.gadgetAhead(1)):
		// "drop goo in register 2", "lay a mine in register 3": a gadget's phase program
		// (seed 001), not a discard.
		p.i++
		p.skip("a", "an", "the", "my")
		name, _ := p.parseOptionName()
		return p.bareUse(name)
	case m&aPowerDown != 0 && (p.accept("power", "down") || p.accept1("powerdown") || p.accept1("power-down") || p.accept1("announce") ||
		p.accept("shut", "down") || p.accept1("shutdown") || p.accept1("pd")):
		if t.text == "announce" {
			p.skip("a", "my")
			if !p.accept("power", "down") && !p.accept1("powerdown") && !p.accept1("power-down") {
				p.fail("expected \"power down\" after \"announce\", got %s", p.got())
			}
		}
		p.skip("next", "this", "for", "the", "turn", "round", "now")
		return Action{Do: DoPowerDown}
	case m&aStayDown != 0 && (p.accept("stay", "down") || p.accept("stay", "powered", "down") || p.accept("remain", "down") ||
		p.accept("remain", "powered", "down") || p.accept("keep", "powered", "down") || p.accept("stay", "off") ||
		p.accept("remain", "off") || p.accept("keep", "down")):
		p.skip("next", "for", "another", "the", "turn", "round")
		return Action{Do: DoStayDown}
	case m&aPowerUp != 0 && (p.accept("power", "up") || p.accept("power", "back", "up") || p.accept("power", "on") || p.accept("stay", "up") ||
		p.accept("come", "back", "up") || p.accept("come", "up") || p.accept("come", "back", "on") || p.accept("stay", "on") ||
		p.accept("stay", "powered", "up") || p.accept("come", "back") || p.accept1("power-up") || p.accept1("powerup") ||
		p.accept("don't", "power", "down") || p.accept("dont", "power", "down") || p.accept("do", "not", "power", "down") ||
		p.accept("no", "power", "down") || p.accept("wake", "up") || !p.is("restart", "facing") && !p.is("restart", "face") && p.accept1("restart") ||
		p.accept("never", "power", "down") || p.accept("don't", "stay", "down") || p.accept("dont", "stay", "down") ||
		p.accept("do", "not", "stay", "down") || p.accept("never", "stay", "down") || p.accept("don't", "stay", "powered", "down") ||
		p.accept("do", "not", "stay", "powered", "down")):
		p.skip("online", "next", "for", "the", "turn", "round")
		return Action{Do: DoPowerUp}
	case m&aRepair != 0 && (p.accept1("repair") || p.accept("take", "repair") || p.accept("take", "the", "repair") || p.accept1("heal") ||
		p.accept("take", "repairs") || p.accept1("fix")):
		p.skip("2", "two", "damage", "both", "points", "twice")
		p.skipInsteadOf("option", "options", "card", "an", "a", "the", "take", "taking", "drawing", "draw")
		return Action{Do: DoRepair}
	case m&aPreferRepair != 0 && (p.is("prefer", "repair") || p.is("prefer", "repairs") || p.is("prefer", "to", "repair")):
		p.i++
		p.skip("to")
		p.i++
		p.skipInsteadOf("option", "options", "card", "an", "a", "the", "take", "taking", "drawing", "draw")
		return Action{Do: DoRepair}
	case m&aPreferOption != 0 && (p.is("prefer", "option") || p.is("prefer", "an", "option") || p.is("prefer", "options") || p.is("prefer", "the", "option")):
		p.i++
		p.skip("an", "the")
		p.i++
		p.skip("card")
		p.skipInsteadOf("repair", "repairs", "repairing", "a", "the")
		return Action{Do: DoTakeOption}
	case m&aBuy != 0 && (p.is1("buy") && !p.is("buy", "upgrade") && !p.is("buy", "an") && !p.is("buy", "a")):
		// seed 004, Phase 1: buying an upgrade is installing it, paying its cost.
		p.i++
		name, ok := p.parseOptionName()
		if !ok {
			return Action{}
		}
		return Action{Do: DoInstall, Option: name}
	case m&aDrawUpgrade != 0 && (p.accept("draw", "upgrade") || p.accept("draw", "an", "upgrade") || p.accept("draw", "a", "new", "upgrade") ||
		p.accept("buy", "upgrade") || p.accept("buy", "an", "upgrade") || p.accept("buy", "an", "upgrade", "card")):
		p.skip("card")
		if p.accept("and", "install", "it") {
			return p.installDrawn() // "draw an upgrade and install it"
		}
		return Action{Do: DoDrawUpgrade} // seed 004, Phase 1: draw an upgrade for 1 energy
	case m&aInstall != 0 && (p.accept1("install") || p.accept1("uninstall")):
		do := DoInstall
		if t.text == "uninstall" {
			do = DoUninstall
		}
		if do == DoInstall && p.acceptDrawnCard() {
			return p.installDrawn()
		}
		name, ok := p.parseOptionName()
		if !ok {
			return Action{}
		}
		return Action{Do: do, Option: name}
	case m&aTakeOption != 0 && (p.is1("take") || p.is1("draw") || p.is1("get") || p.is1("choose") || p.is1("pick") || p.is1("option")):
		p.i++
		p.skip("up", "an", "a", "the", "new")
		if !p.accept1("option") && !p.accept1("options") && !p.accept1("card") && t.text != "option" {
			p.fail("expected \"option\" or \"repair\" after %q, got %s", t.raw, p.got())
			return Action{}
		}
		p.skip("card")
		p.skipInsteadOf("repair", "repairs", "repairing", "a", "the")
		p.skip("instead")
		return Action{Do: DoTakeOption}
	case m&aFace != 0 && (p.is1("face") || p.is1("facing") || p.is1("reenter") || p.is1("re-enter") || p.is1("re-entry") ||
		p.is1("reentry") || p.is1("enter") || p.is1("respawn") || p.is1("return") || p.is1("point") && !p.optionAhead(1) ||
		p.is("on", "re-entry") || p.is("on", "reentry") || p.is("at", "re-entry") || p.is("at", "reentry") ||
		p.is("when", "re-entering") || p.is("when", "reentering") || p.is1("reboot") || p.is1("rebooting") ||
		p.is("on", "reboot") || p.is("when", "rebooting") || p.is("after", "reboot") || p.is1("restart")):
		p.skip("on", "at", "when", "upon", "after")
		p.skipWhile(isFacingWord)
		if p.is1("at") || p.is1("on") || p.is1("in") || p.is1("square") || p.is1("to") && p.kindOf(1) == 'n' {
			save := p.i
			p.skip("at", "on", "in", "to", "my", "the", "a")
			if p.accept1("archive") || p.accept("safety", "copy") || p.accept("reboot", "token") {
				p.skip(",", "facing", "face", "pointing")
				return p.parseFacing()
			}
			if p.is1("square") || p.kindOf(0) == 'n' {
				p.i = save
				p.fail("the square a robot re-enters on is not chosen: it re-enters on its archive (rules README, A turn 5; " +
					"virtual if another robot is there) or, under the 2023 rules, on its reboot token (seed 004, Rebooting); " +
					"write the facing only, as in \"reenter facing N\"")
				return Action{}
			}
			p.i = save
		}
		return p.parseFacing()
	case m&aPrevent != 0 && (p.accept1("prevent") || p.accept1("block") || p.accept1("avoid") || p.accept1("absorb")):
		if p.accept1("death") || p.accept1("destruction") || p.accept("being", "destroyed") {
			p.lethal = true // "prevent death with Brakes": only a point that would destroy
		}
		p.skip("damage", "a", "point", "of", "one")
		p.skip("with", "using", "by", "discarding")
		return p.parseDiscardWhich(DoPreventDamage)
	case m&aDiscard != 0 && (p.accept1("discard") || p.accept1("drop") || p.accept1("sacrifice") || p.accept1("exchange") || p.accept("give", "up") ||
		!p.is("trade", "in") && p.accept1("trade") || p.accept1("spend")): // "trade in X" is the chop shop's swap
		a := p.parseDiscardWhich(DoLoseOption)
		if p.failed() {
			return a
		}
		save := p.i
		p.skip(",")
		if p.preventSuffix() {
			a.Do = DoPreventDamage
		} else {
			p.i = save
			p.bareDiscard = inList(t.text, "discard", "drop", "sacrifice", "spend")
		}
		return a
	case m&aSwap != 0 && (p.accept1("swap") || p.accept1("chop") || p.accept1("replace") || p.accept("trade", "in")):
		// seed 003, CHOP SHOP: scrap an option and draw a new one in its place.
		name, ok := p.parseOptionName()
		if !ok {
			return Action{}
		}
		p.skip("for", "a", "new", "option", "card", "at", "the", "chop", "shop")
		return Action{Do: DoSwapOption, Option: name}
	case m&aKeepArchive != 0 && (p.accept("keep", "archive") || p.accept("keep", "my", "archive") || p.accept("keep", "the", "archive") ||
		p.accept("keep", "safety", "copy") || p.accept("keep", "my", "safety", "copy") || p.accept("don't", "move", "archive") ||
		p.accept("dont", "move", "archive") || p.accept("do", "not", "move", "archive") || p.accept("don't", "move", "my", "archive")):
		p.skip("marker", "where", "it", "is")
		return Action{Do: DoKeepArchive}
	case m&aMoveArchive != 0 && (p.accept("move", "archive") || p.accept("move", "my", "archive") || p.accept("move", "the", "archive") ||
		p.accept("place", "archive") || p.accept("place", "my", "archive") || p.accept("place", "safety", "copy") ||
		p.accept("place", "my", "safety", "copy")):
		p.skip("marker", "here", "there", "on", "the", "flag")
		return Action{Do: DoMoveArchive}
	case m&aLose != 0 && (p.accept1("lose") || p.accept1("scrap")):
		return p.parseDiscardWhich(DoLoseOption)
	case m&aKeepOptions != 0 && (p.accept("keep", "options") || p.accept("keep", "my", "options") || p.accept("keep", "all", "options") ||
		p.accept("never", "discard") || p.accept("don't", "discard") || p.accept("dont", "discard") || p.accept("do", "not", "discard") ||
		p.accept("keep", "all")):
		p.skip("options", "my", "option", "cards", "to", "prevent", "damage")
		return Action{Do: DoKeepOptions}
	case m&aKeepOption != 0 && (p.accept1("keep") || p.accept1("prefer")):
		// seed 001, Deluxe Option Package and Scavenger Hunt I: the card to keep of
		// those offered (after "keep archive", "keep options" and "keep down" above).
		name, ok := p.parseOptionName()
		if !ok {
			return Action{}
		}
		p.skip("first")
		return Action{Do: DoKeepOption, Option: name}
	case m&aGive != 0 && (p.accept1("give")):
		// seed 001, Scavenger Hunt II: the card the robot on your right receives at a
		// flag ("give Brakes", "give Brakes to Fred").
		name, ok := p.parseOptionName()
		if !ok {
			return Action{}
		}
		a := Action{Do: DoGiveOption, Option: name}
		if p.accept1("to") {
			if p.end() {
				p.fail("expected a robot's name after \"to\"")
				return Action{}
			}
			a.Target = p.peek(0).raw
			p.i++
		}
		return a
	case m&aDecline != 0 && (p.accept("don't", "use") || p.accept("dont", "use") || p.accept("do", "not", "use") || p.accept1("decline") ||
		p.accept("never", "use") || p.accept1("skip")):
		name, ok := p.parseOptionName()
		if !ok {
			return Action{}
		}
		return Action{Do: DoDecline, Option: name}
	case m&aUse != 0 && (p.accept1("use") || p.accept1("fire") || p.accept1("activate") || p.accept1("launch") || p.accept1("deploy") ||
		p.accept1("engage") || p.accept1("play") || p.accept1("apply") || p.accept1("trigger") || p.accept1("throw") || p.accept1("flip") ||
		p.accept("switch", "on") || p.accept("turn", "on") || p.accept1("set") || p.accept("put", "up") || p.accept1("raise") ||
		(p.is1("turn") || p.is1("point") || p.is1("aim") || p.is1("switch")) && p.optionAhead(1) && p.accept(t.text)):
		p.skip("my", "the")
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
	case m&aRecharge != 0 && (p.accept1("recharge") || p.accept1("refill") || p.accept1("reload")):
		// seed 003, CHOP SHOP: recharge one option; "recharge in register 1" is the 2023
		// upgrade Recharge used (seed 004).
		if !p.isOptionName() && t.text == "recharge" && p.v.options["recharge"] != "" {
			return p.bareUse(p.v.options["recharge"])
		}
		name, ok := p.parseOptionName()
		if !ok {
			return Action{}
		}
		p.skip("at", "the", "chop", "shop")
		return Action{Do: DoRecharge, Option: name}
	case m&aNothing != 0 && (p.accept1("nothing") || p.accept1("none") || p.accept("do", "nothing") || p.accept1("pass") || p.accept1("no") ||
		p.accept1("ignore")):
		return Action{Do: DoNothing}
	case p.optionAhead(0):
		// The card's name alone: "Brakes in register 3", "Turret left", "Recompile".
		name, _ := p.parseOptionName()
		return p.bareUse(name)
	}
	p.fail("expected an order (power down, stay down, come back up, repair, take option, face N, discard OPTION to prevent damage, lose OPTION, use OPTION), got %s%s", p.got(), p.hint(actionWords))
	return Action{}
}

// bareUse reads what follows an option card's name used as the order itself ("Brakes
// in register 3", "Turret: left", "Shield off"), the name read.
func (p *langParser) bareUse(name string) Action {
	if p.failed() {
		return Action{}
	}
	p.skip(":", "-", "=")
	if p.accept1("off") || p.accept1("no") || p.accept1("never") {
		return Action{Do: DoDecline, Option: name}
	}
	a := Action{Do: DoUse, Option: name}
	if p.preventSuffix() {
		a.Do = DoPreventDamage
		return a
	}
	if p.is1("on") && (p.word(1) == "" || inList(p.word(1), "if", "when", "unless", "in", ",", ".", ";", "always")) {
		p.i++ // "gyro on"
	}
	p.skip("always")
	p.parseUseParams(&a)
	return a
}

// rawWords are the next k tokens as written.
func rawWords(p *langParser, k int) []string {
	var out []string
	for j := 0; j < k; j++ {
		out = append(out, p.peek(j).raw)
	}
	return out
}

// optionAhead reports whether an option card's name starts k words ahead.
func (p *langParser) optionAhead(k int) bool {
	save := p.i
	p.i += k
	_, n, ok := p.matchOption(p.wordsAhead())
	p.i = save
	return ok && n > 0
}

// gadgetAhead reports whether a gadget that is laid on the floor (seed 001,
// Phase-Programmed Options) is named k words ahead, after an article: "drop goo", "lay a
// mine", "drop the Big One".
func (p *langParser) gadgetAhead(k int) bool {
	save := p.i
	p.i += k
	p.skip("a", "an", "my")
	name, n, ok := p.matchOption(p.wordsAhead())
	if !ok && p.is1("the") {
		p.i++
		name, n, ok = p.matchOption(p.wordsAhead())
	}
	p.i = save
	return ok && n > 0 && inList(name, "Goo Dropper", "Mine Layer", "Proximity Mine", "The Big One", "Scrambler Bomb",
		"Bridge Layer", "Portable Teleporter")
}

// skipInsteadOf skips "instead of X", "rather than X", "over X", "not X" where X is the
// other choice of a double wrench, written with the words given.
func (p *langParser) skipInsteadOf(words ...string) {
	save := p.i
	if !p.accept("instead", "of") && !p.accept("rather", "than") && !p.accept1("over") && !p.accept1("not") {
		return
	}
	n := p.i
	p.skip(words...)
	if p.i == n {
		p.i = save // nothing of the other choice: not ours
	}
}

func (p *langParser) preventSuffix() bool {
	if p.accept("to", "prevent", "death") || p.accept("to", "survive") || p.accept("to", "avoid", "destruction") ||
		p.accept("to", "avoid", "being", "destroyed") || p.accept("to", "stay", "alive") || p.accept("to", "avoid", "death") ||
		p.accept("to", "prevent", "destruction") || p.accept("to", "not", "die") || p.accept("to", "avoid", "dying") {
		p.lethal = true // only a point that would destroy the robot
		return true
	}
	if p.accept("instead", "of", "taking", "damage") || p.accept("rather", "than", "take", "damage") ||
		p.accept("rather", "than", "taking", "damage") || p.accept("to", "stop", "damage") || p.accept("to", "cancel", "damage") ||
		p.accept("to", "ignore", "damage") || p.accept("to", "negate", "damage") || p.accept("to", "reduce", "damage") {
		return true
	}
	return p.accept("to", "prevent", "damage") || p.accept("to", "block", "damage") || p.accept("to", "avoid", "damage") ||
		p.accept("to", "prevent", "a", "damage") || p.accept("against", "damage") || p.accept("for", "damage") ||
		p.accept("instead", "of", "damage") || p.accept("to", "save", "damage") || p.accept("to", "absorb", "damage") ||
		p.accept("to", "prevent", "a", "point", "of", "damage") || p.accept("to", "prevent", "one", "damage")
}

// parseDiscardWhich reads which option: a name, "any [option]", "options".
func (p *langParser) parseDiscardWhich(do string) Action {
	p.skip("my", "an", "a", "one")
	if p.accept1("any") || p.accept1("options") || p.accept("option", "cards") ||
		(p.is1("option") && !p.isOptionName() && p.accept1("option")) {
		p.skip("option", "options", "card", "cards")
		return Action{Do: do}
	}
	if do == DoPreventDamage && (p.end() || p.is1("if") || p.is1("when") || p.is1("unless") || p.is1(",") || p.is1(".")) {
		return Action{Do: do}
	}
	name, ok := p.parseOptionName()
	if !ok {
		return Action{}
	}
	p.skip("first")
	// "discard Brakes before Shield", "lose Brakes, then Turret", "Brakes or Shield": a
	// preference, one order per card (parseRules).
	for {
		save := p.i
		if p.accept1("before") || p.accept1("then") || p.accept1("or") || p.accept(",", "then") || p.accept1(",") ||
			p.accept("and", "then") || p.accept("followed", "by") {
			p.skip("my", "the", "an", "a")
			if alt, n, ok := p.matchOption(p.wordsAhead()); ok && n > 0 {
				p.i += n
				p.skip("option", "card")
				p.alts = append(p.alts, alt)
				continue
			}
		}
		p.i = save
		break
	}
	return Action{Do: do, Option: name}
}

// reentrySuffix skips "on re-entry", "when rebooting" after a facing: "face north on
// re-entry" says no more than "face north".
func (p *langParser) reentrySuffix() {
	save := p.i
	p.skip(",")
	if _, ok := p.acceptAny("on", "at", "upon", "when", "after", "for"); ok {
		p.skip("my", "the")
		if _, ok := p.acceptAny("re-entry", "reentry", "re-entering", "reentering", "reboot", "rebooting", "respawn",
			"restart", "return", "re-enter", "reenter", "entry"); ok {
			return
		}
	}
	p.i = save
}

// parseFacing reads a re-entry facing: a direction, or toward the next flag.
// isFacingWord reports the words before a re-entry's facing: "reenter facing", "on
// reboot, face", "respawn pointing".
func isFacingWord(w string) bool {
	switch w {
	case "face", "facing", "reenter", "re-enter", "re-entry", "reentry", "re-entering", "reentering",
		"enter", "respawn", "return", "point", "pointing", "with", ",", ":", "the", "robot", "me",
		"reboot", "rebooting", "restart":
		return true
	}
	return false
}

func (p *langParser) parseFacing() Action {
	if d, ok := p.parseCompass(); ok {
		p.skip("wards", "ward")
		p.reentrySuffix()
		return Action{Do: DoFace, Dir: d}
	}
	p.skip("toward", "towards", "to", "at", "the", "my")
	p.skip("next", "nearest")
	if p.accept1("flag") || p.accept1("checkpoint") {
		p.reentrySuffix()
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
		// Words that say nothing more: "instead of my laser", "always", "in every register",
		// "to lock ...", "to back up 2".
		if p.accept("instead", "of") || p.accept("rather", "than") {
			p.skip("my", "the", "its", "main", "normal", "robot", "robot's", "regular")
			if !p.accept1("laser") && !p.accept1("lasers") {
				p.i = save
				return
			}
			continue
		}
		if p.accept1("always") || p.accept("every", "register") || p.accept("each", "register") || p.accept("in", "every", "register") ||
			p.accept("in", "each", "register") || p.accept("in", "all", "registers") || p.accept("all", "registers") ||
			p.accept("every", "turn") || p.accept("each", "turn") || p.accept("every", "time") || p.accept("whenever", "possible") ||
			p.accept("when", "possible") || p.accept("if", "possible") || p.accept("whenever", "i", "can") {
			continue
		}
		if p.is1("to") && inList(p.word(1), "back", "lock", "destroy", "discard", "take", "tag", "home", "face", "cover", "fire", "protect") {
			p.i++
			continue
		}
		// "back 2", "back up 2", "2 steps", "2 squares": how far (Reverse Gear), never a
		// register.
		up := 0
		if p.is("back", "up") {
			up = 1
		}
		if (p.is1("back") || p.is1("backward") || p.is1("backwards")) && p.kindOf(1+up) == 'n' {
			p.i += 1 + up
			n, _ := strconv.Atoi(p.word(0))
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
		if (p.is1("fuel") && p.kindOf(1) == 'n') || (p.kindOf(0) == 'n' && inList(p.word(1), "fuel", "counters", "counter")) {
			k := 0
			if p.is1("fuel") {
				k = 1
			}
			n, _ := strconv.Atoi(p.word(k))
			if n < 1 || n > 3 || !once("fuel counters", a.Steps != 0) {
				p.fail("expected 1 to 3 fuel counters, got %s", p.got())
				return
			}
			a.Steps = n
			p.i += 2
			p.skip("counters", "counter")
			continue
		}
		if p.kindOf(0) == 'n' && inList(p.word(1), "squares", "square", "steps", "step", "spaces", "space") {
			n, _ := strconv.Atoi(p.word(0))
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
		case p.is1("lock"):
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
		case p.is1("in") || p.is1("during") || p.is1("for") || p.is1("register") || p.is1("reg") || p.is1("phase") ||
			p.is1("registers") || p.is1("regs") || p.is1("phases") || p.is("on", "register") || p.is("on", "reg") ||
			p.is("on", "registers") || p.is("at", "register") || p.ordinalAhead():
			p.skip("in", "during", "for", "on", "at", "the", "my")
			n, ok := 0, false
			if o, isOrd := p.ordinal(); isOrd {
				// "in the third register", "3rd register"
				if _, ok := p.acceptAny("register", "reg", "phase"); !ok {
					p.i = save
					return
				}
				n, ok = o, true
			} else {
				if _, ok := p.acceptAny("register", "reg", "phase", "registers", "regs", "phases"); !ok {
					p.i = save
					return
				}
				n, ok = p.registerNumber()
			}
			if !ok {
				p.fail("expected a register 1 to 5, got %s", p.got())
				return
			}
			if !once("a register", a.Register != 0) {
				return
			}
			a.Register = n
			// "in registers 2 and 4", "in register 2, 3 and 5": one order a register
			// (parseRules).
			for {
				at := p.i
				if p.accept1(",") || p.accept1("and") || p.accept1("&") || p.accept1("+") || p.accept1("or") || p.accept1("/") {
					p.accept1("in")
					p.accept1("register")
					if m, ok := p.registerNumber(); ok {
						if m != n && !slices.Contains(p.regs, m) {
							p.regs = append(p.regs, m)
						}
						continue
					}
				}
				p.i = at
				break
			}
		case p.kindOf(0) == 'n':
			n, _ := strconv.Atoi(p.word(0))
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
		case len(p.word(0)) > 1 && len(p.word(0)) <= 5 && p.word(0)[0] == 'p' && allDigits(p.word(0)[1:]):
			n, _ := strconv.Atoi(p.word(0)[1:])
			if !p.addCard(a, n) {
				return
			}
			p.i++
		case len(p.word(0)) == 2 && p.word(0)[0] == 'r' && p.word(0)[1] >= '1' && p.word(0)[1] <= '5':
			// "R3": register 3, as a program line numbers its registers.
			if !once("a register", a.Register != 0) {
				return
			}
			a.Register = int(p.word(0)[1] - '0')
			p.i++
		case p.is1("primary"):
			// seed 001, Primary Card: "primary P490" says which of two cards it is.
			p.i++
			p.skip("card", "is")
			t := p.word(0)
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
		case p.is1("tag") || p.is1("home") || p.is1("homing"):
			// Homing Device: tag a robot instead of firing, or home in on the tagged one.
			if !once("a way of using it", a.Mode != "") {
				return
			}
			a.Mode = "tag"
			if !p.is1("tag") {
				a.Mode = "home"
			}
			p.i++
			p.skip("in")
			if a.Mode == "tag" && p.kindOf(0) == 'w' && !inList(p.word(0), stopWords...) &&
				!inList(p.word(0), "robot", "the", "it", "unless", "always", "instead", "r1", "r2", "r3", "r4", "r5") {
				// "tag Twonky": the robot tagged.
				if !once("a target", a.Target != "") {
					return
				}
				a.Target = p.peek(0).raw
				p.i++
			}
		case p.is1("empty") || p.is1("unprogrammed") || p.is1("blank"):
			// Overload Override: the register is left unprogrammed.
			if !once("a way of using it", a.Mode != "") {
				return
			}
			a.Mode = "empty"
			p.i++
		case p.is1("card") || p.is1("with"):
			p.i++
		case p.is1("destroy") || p.is1("discard") || p.is1("option") || p.is1("take") || p.is1("swap") || p.is1("exchange"):
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
		case (p.is1("on") || p.is1("at") || p.is1("with")) && cardParams[a.Option].card && isCardWord(p.word(1)):
			p.i++ // "use Flywheel on P790": a card, not a robot
		case p.is1("on") || p.is1("at") || p.is1("against") || p.is1("target") || p.is1("targeting") || p.is1("hitting"):
			p.i++
			p.skip("robot", "the")
			if p.end() || (p.kindOf(0) != 'w' && p.kindOf(0) != 'n') || inList(p.word(0), stopWords...) {
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

// isCardWord reports whether a word is a program card's priority: "P790", "790".
func isCardWord(w string) bool {
	if len(w) > 1 && w[0] == 'p' {
		w = w[1:]
	}
	n, err := strconv.Atoi(w)
	return err == nil && allDigits(w) && n >= 10 && n < 1000
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
	if len(p.alts)+len(p.elseAlts)+len(p.regs) > 0 || !p.end() {
		return Rule{}, &SyntaxError{Problems: []Problem{{At: r.At, Msg: "this line holds more than one order: write one (ParseRules reads them all)"}}}
	}
	return r, nil
}

// ParseRules reads every order of one line ("power down if damage > 4; reenter facing
// N", "discard Brakes before Shield to prevent damage": one order a card, "use Brakes in
// registers 2 and 4": one a register) as a line of a sheet would be read.
func ParseRules(text string, line int) ([]Rule, error) {
	runes, cols, _ := cleanLine(text)
	p := newLangParser(lex(runes, cols), line)
	if p.end() {
		return nil, &SyntaxError{Problems: []Problem{{At: Pos{line, 1}, Msg: "expected an order, got an empty line"}}}
	}
	var out []Rule
	for !p.end() {
		rs, ok := p.parseRules()
		if !ok {
			return nil, &SyntaxError{Problems: []Problem{*p.err}}
		}
		out = append(out, rs...)
		if len(out) > MaxRules {
			return nil, &SyntaxError{Problems: []Problem{{At: Pos{line, 1}, Msg: fmt.Sprintf("more than %d orders on one line", MaxRules)}}}
		}
	}
	return out, nil
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

// acceptDrawnCard consumes the words naming the upgrade this phase's draw brings, after
// "install": "the card I draw", "the upgrade I draw", "what I draw", "the drawn card",
// "the card drawn".
func (p *langParser) acceptDrawnCard() bool {
	for _, w := range [][]string{
		{"the", "card", "i", "draw"}, {"the", "upgrade", "i", "draw"}, {"what", "i", "draw"},
		{"the", "drawn", "card"}, {"the", "drawn", "upgrade"}, {"the", "card", "drawn"}, {"the", "upgrade", "drawn"},
	} {
		if p.accept(w...) {
			return true
		}
	}
	return false
}

// installDrawn reads the rest of "install the card I draw [if I can afford it] [, else
// install NAME]" (seed 004, Phase 1: draw and install in one phase; the adjudicator
// installs the card only when it can be paid for and has room, so "if I can afford it"
// says what the order does anyway). The else is the fallback install, a rule of its own.
func (p *langParser) installDrawn() Action {
	for _, w := range [][]string{
		{"if", "i", "can", "afford", "it"}, {"if", "i", "can", "pay", "for", "it"}, {"if", "i", "can", "afford"},
		{"if", "affordable"}, {"if", "i", "can"}, {"when", "i", "can", "afford", "it"},
	} {
		if p.accept(w...) {
			break
		}
	}
	save := p.i
	p.skip(",")
	if _, ok := p.acceptAny("else", "otherwise"); ok {
		p.skip(",")
		if !p.accept1("install") {
			p.fail("after \"install the card I draw, else\" want \"install NAME\" (the upgrade installed when the drawn one is not), got %s", p.got())
			return Action{}
		}
		name, ok := p.parseOptionName()
		if !ok {
			return Action{}
		}
		p.fallback = &Action{Do: DoInstall, Option: name}
	} else {
		p.i = save
	}
	return Action{Do: DoInstallDrawn}
}
