package scenario

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// expectLine reads one expect line:
//
//	expect NAME: at 2,0 facing E damage 1 lives 3 flags 1 archive 1,1 virtual|real
//	             destroyed|active out|in power on|down hand 7 registers - - - - P490
//	             options: A, B
//	expect winner: NAME|none
//	expect over: yes|no
//	expect turn: N
//	expect event: KIND ROBOT|* key=value ...   (count=N: exactly N such events)
//	expect no event: KIND ROBOT|* key=value ...
//	expect blast at X,Y power N: NAME D, NAME D ...
func (p *parser) expectLine(ln int, rest string) error {
	text := "expect " + rest
	add := func(check func(r *Result) string) {
		p.sc.expects = append(p.sc.expects, expectation{line: ln, text: text, check: check, turn: p.exTurn})
	}
	head, body, ok := strings.Cut(rest, ":")
	if !ok {
		return p.errf(ln, "expect: want \"expect WHAT: ...\"")
	}
	body = strings.TrimSpace(body)
	switch head {
	case "winner":
		want := body
		if want == "none" {
			want = ""
		}
		add(func(r *Result) string {
			if r.State.Winner != want {
				return fmt.Sprintf("winner %q", r.State.Winner)
			}
			return ""
		})
		return nil
	case "over":
		want := body == "yes"
		if body != "yes" && body != "no" {
			return p.errf(ln, "expect over: want yes or no")
		}
		add(func(r *Result) string {
			if r.State.Over != want {
				return fmt.Sprintf("over %v", r.State.Over)
			}
			return ""
		})
		return nil
	case "turn":
		n, err := strconv.Atoi(body)
		if err != nil {
			return p.errf(ln, "expect turn: want a number")
		}
		add(func(r *Result) string {
			if r.State.Turn != n {
				return fmt.Sprintf("turn %d", r.State.Turn)
			}
			return ""
		})
		return nil
	case "event", "no event":
		m, err := p.eventMatcher(ln, body)
		if err != nil {
			return err
		}
		none := head == "no event"
		add(func(r *Result) string {
			n := 0
			for _, e := range r.Events {
				if m.match(e) {
					n++
				}
			}
			switch {
			case none && n > 0:
				return fmt.Sprintf("%d such events: %s", n, m.describe(r.Events))
			case !none && m.count >= 0 && n != m.count:
				return fmt.Sprintf("%d such events, want %d: %s", n, m.count, m.describe(r.Events))
			case !none && m.count < 0 && n == 0:
				return "no such event; " + m.describe(r.Events)
			}
			return ""
		})
		return nil
	}
	if n, ok := strings.CutPrefix(head, "pile "); ok {
		// expect pile N: A, B | none | K cards — Scavenger Hunt's pile at flag N.
		k, err := strconv.Atoi(n)
		if err != nil || k < 1 {
			return p.errf(ln, "expect pile: want \"expect pile N: A, B\" with N a flag")
		}
		check, err := p.cardsWant(ln, body)
		if err != nil {
			return err
		}
		add(func(r *Result) string {
			var got []string
			if k <= len(r.State.Piles) {
				got = r.State.Piles[k-1]
			}
			if !check(got) {
				return fmt.Sprintf("pile %d: %s", k, listOrNone(got))
			}
			return ""
		})
		return nil
	}
	if name, ok := strings.CutPrefix(head, "offered "); ok {
		// expect offered NAME: A, B, C | none | K cards — a Deluxe Option Package's
		// cards still to keep one of.
		idx := p.robotIndex(name)
		if idx < 0 {
			return p.errf(ln, "expect offered: %q is not a robot of this scenario", name)
		}
		check, err := p.cardsWant(ln, body)
		if err != nil {
			return err
		}
		add(func(r *Result) string {
			if got := r.State.Robots[idx].Offered; !check(got) {
				return fmt.Sprintf("offered %s: %s", name, listOrNone(got))
			}
			return ""
		})
		return nil
	}
	if name, ok := strings.CutPrefix(head, "bio "); ok {
		// expect bio NAME: CARD | none — the option on a Bio-Bot's Bio Option.
		idx := p.robotIndex(name)
		if idx < 0 {
			return p.errf(ln, "expect bio: %q is not a robot of this scenario", name)
		}
		want := body
		if want == "none" {
			want = ""
		}
		add(func(r *Result) string {
			if got := r.State.Robots[idx].Bio; got != want {
				return fmt.Sprintf("bio %s: %q", name, got)
			}
			return ""
		})
		return nil
	}
	if name, ok := strings.CutPrefix(head, "used "); ok {
		return p.usedExpect(ln, name, body, add)
	}
	if head == "devices" {
		return p.devicesExpect(ln, body, add)
	}
	if strings.HasPrefix(head, "blast ") {
		return p.blastLine(ln, head, body, add)
	}
	if ok, err := p.expect2023(ln, head, body, add); ok || err != nil {
		return err
	}
	idx := p.robotIndex(head)
	if idx < 0 {
		return p.errf(ln, "expect: %q is not a robot of this scenario nor winner, over, turn, event, no event", head)
	}
	body, opts, hasOpts := strings.Cut(body, "options:")
	if hasOpts {
		want := splitList(opts)
		// An option name the cards do not know is a typo (or words after the list, which
		// must come last): refused, never compared and quietly failed or passed.
		for _, w := range want {
			if !slices.Contains(adjudicator.OptionNames(), w) && !slices.Contains(adjudicator.UpgradeNames(), w) {
				return p.errf(ln, "expect %s: %q is not an option card or upgrade (options: must come last on the line)", head, w)
			}
		}
		add(func(r *Result) string {
			got := r.State.Robots[idx].Options
			if strings.Join(got, ", ") != strings.Join(want, ", ") {
				return fmt.Sprintf("%s options: %s", head, listOrNone(got))
			}
			return ""
		})
	}
	f := strings.Fields(body)
	robotOf := func(r *Result) *adjudicator.Robot { return &r.State.Robots[idx] }
	var k int
	// numberExpect reads "KEY N" (damage, lives, flags, hand) at f[k].
	numberExpect := func(key string) error {
		if k+1 >= len(f) {
			return p.errf(ln, "expect %s: %s needs a value", head, key)
		}
		k++
		want, err := strconv.Atoi(f[k])
		if err != nil {
			return p.errf(ln, "expect %s: %s wants a number", head, key)
		}
		add(func(r *Result) string {
			rb := robotOf(r)
			got := map[string]int{"damage": rb.Damage, "lives": rb.Lives, "flags": rb.Flags, "hand": len(rb.Hand)}[key]
			if got != want {
				return fmt.Sprintf("%s %s %d", head, key, got)
			}
			return ""
		})
		return nil
	}
	for k = 0; k < len(f); k++ {
		key := f[k]
		val := func() (string, error) {
			if k+1 >= len(f) {
				return "", p.errf(ln, "expect %s: %s needs a value", head, key)
			}
			k++
			return f[k], nil
		}
		robot := func(r *Result) *adjudicator.Robot { return &r.State.Robots[idx] }
		switch key {
		case "at", "archive":
			v, err := val()
			if err != nil {
				return err
			}
			want, ok := parsePos(v)
			if !ok {
				return p.errf(ln, "expect %s: %s wants x,y", head, key)
			}
			add(func(r *Result) string {
				got := robot(r).Pos
				if key == "archive" {
					got = robot(r).Archive
				}
				if got != want {
					return fmt.Sprintf("%s %s %v", head, key, got)
				}
				return ""
			})
		case "facing":
			v, err := val()
			if err != nil {
				return err
			}
			want, ok := adjudicator.ParseDir(v)
			if !ok {
				return p.errf(ln, "expect %s: facing wants N, E, S or W", head)
			}
			add(func(r *Result) string {
				if got := robot(r).Facing; got != want {
					return fmt.Sprintf("%s facing %v", head, got)
				}
				return ""
			})
		case "hand", "bomb-hand":
			if key == "bomb-hand" || k+1 < len(f) && (strings.HasPrefix(f[k+1], "P") || f[k+1] == "none") {
				// hand P490 P500 ... | none: exactly these cards (in any order);
				// bomb-hand the same for the cards dealt for a Buzz Bomb.
				if err := p.handExpect(ln, head, key, idx, f, &k, add); err != nil {
					return err
				}
				continue
			}
			if err := numberExpect(key); err != nil {
				return err
			}
		case "damage", "lives", "flags":
			if err := numberExpect(key); err != nil {
				return err
			}
		case "virtual", "real", "destroyed", "active", "out", "in":
			add(func(r *Result) string {
				rb := robot(r)
				var got bool
				var yes, no string
				switch key {
				case "virtual", "real":
					got, yes, no = rb.Virtual, "virtual", "real"
				case "destroyed", "active":
					got, yes, no = rb.Destroyed, "destroyed", "active"
				default:
					got, yes, no = rb.Out, "out", "in"
				}
				want := key == yes
				if got != want {
					if got {
						return head + " " + yes
					}
					return head + " " + no
				}
				return ""
			})
		case "power":
			v, err := val()
			if err != nil {
				return err
			}
			var want adjudicator.Power
			if err := want.UnmarshalText([]byte(v)); err != nil {
				return p.errf(ln, "expect %s: power wants on or down", head)
			}
			add(func(r *Result) string {
				if got := robot(r).Power; got != want {
					return fmt.Sprintf("%s power %v", head, got)
				}
				return ""
			})
		case "flywheel":
			// seed 000, Flywheel: the card kept for the next hand, or none.
			v, err := val()
			if err != nil {
				return err
			}
			want := 0
			if v != "none" {
				c, ok := p.card(v)
				if !ok || c == 0 || adjudicator.StandardDeck().Kind(c) == adjudicator.NoCard {
					return p.errf(ln, "expect %s: flywheel wants a card of the deck (P490) or none", head)
				}
				want = c
			}
			add(func(r *Result) string {
				if got := robot(r).Flywheel; got != want {
					return fmt.Sprintf("%s flywheel P%d", head, got)
				}
				return ""
			})
		case "registers":
			var want [adjudicator.Registers]int
			for reg := 0; reg < adjudicator.Registers; reg++ {
				v, err := val()
				if err != nil {
					return err
				}
				c, ok := p.card(v)
				if !ok {
					return p.errf(ln, "expect %s: registers wants 5 cards (P490 or -; 2023: card names)", head)
				}
				want[reg] = c
			}
			add(func(r *Result) string {
				if got := robot(r).Registers; got != want {
					return fmt.Sprintf("%s registers %s", head, regString(got))
				}
				return ""
			})
		case "energy", "deck", "discard", "haywire", "holds":
			if p.r23 == nil {
				return p.errf(ln, "expect %s: %s belongs to the 2023 rules", head, key)
			}
			var err error
			if k, err = p.expectWord2023(ln, head, idx, f, k, add); err != nil {
				return err
			}
		default:
			return p.errf(ln, "expect %s: unknown word %q (want at, facing, damage, lives, flags, archive, virtual, real, destroyed, active, out, in, power, hand, registers, flywheel, options:; 2023: energy, deck, discard, haywire, holds)", head, key)
		}
	}
	return nil
}

func (p *parser) robotIndex(name string) int {
	for i := range p.robots {
		if p.robots[i].r.Name == name {
			return i
		}
	}
	return -1
}

func listOrNone(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, ", ")
}

// handExpect reads "hand P490 P500 ..." or "hand none" (bomb-hand too) at f[*k]: the
// robot's hand (or Buzz Bomb cards) is exactly these cards, in any order.
func (p *parser) handExpect(ln int, head, key string, idx int, f []string, k *int, add func(func(*Result) string)) error {
	var want []int
	if *k+1 < len(f) && f[*k+1] == "none" {
		*k++
	} else {
		for *k+1 < len(f) && strings.HasPrefix(f[*k+1], "P") {
			*k++
			c, ok := parseCard(f[*k])
			if !ok || c == 0 || p.sc.Setup.Deck.Kind(c) == adjudicator.NoCard {
				return p.errf(ln, "expect %s: %s wants cards of the deck (P490 ...) or none, got %q", head, key, f[*k])
			}
			want = append(want, c)
		}
		if len(want) == 0 {
			return p.errf(ln, "expect %s: %s wants cards (P490 ...) or none", head, key)
		}
	}
	slices.Sort(want)
	add(func(r *Result) string {
		rb := &r.State.Robots[idx]
		got := rb.Hand
		if key == "bomb-hand" {
			got = rb.BombHand
		}
		got = slices.Sorted(slices.Values(got))
		if !slices.Equal(got, want) {
			return fmt.Sprintf("%s %s %s", head, key, cardList(got))
		}
		return ""
	})
	return nil
}

// cardList is postal cards as expect lines write them ("P490 P500", "none").
func cardList(cs []int) string {
	if len(cs) == 0 {
		return "none"
	}
	parts := make([]string, len(cs))
	for k, c := range cs {
		parts[k] = fmt.Sprintf("P%d", c)
	}
	return strings.Join(parts, " ")
}

func regString(regs [adjudicator.Registers]int) string {
	var parts []string
	for _, c := range regs {
		if c == 0 {
			parts = append(parts, "-")
		} else {
			parts = append(parts, fmt.Sprintf("P%d", c))
		}
	}
	return strings.Join(parts, " ")
}

// eventMatcher matches events by kind, robot and any of the event's fields.
type eventMatcher struct {
	kind, robot string
	fields      map[string]string
	count       int // -1: at least one
}

func (p *parser) eventMatcher(ln int, body string) (*eventMatcher, error) {
	f, err := quotedFields(body)
	if err != nil {
		return nil, p.errf(ln, "expect event: %v", err)
	}
	if len(f) < 2 {
		return nil, p.errf(ln, "expect event: want \"KIND ROBOT key=value ...\" (ROBOT may be *)")
	}
	m := &eventMatcher{kind: f[0], robot: f[1], fields: map[string]string{}, count: -1}
	if !slices.Contains(adjudicator.EventKinds, m.kind) {
		return nil, p.errf(ln, "expect event: %q is not an event kind (docs/scenarios.md lists them)", m.kind)
	}
	if m.robot != "*" && p.robotIndex(m.robot) < 0 {
		return nil, p.errf(ln, "expect event: %q is not a robot of this scenario", m.robot)
	}
	for _, kv := range f[2:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, p.errf(ln, "expect event: want key=value, got %q", kv)
		}
		switch k {
		case "count":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return nil, p.errf(ln, "expect event: count wants a number")
			}
			m.count = n
		case "register", "phase", "other", "card", "from", "to", "facing", "amount", "cause", "option", "device":
			if k == "card" {
				c, ok := p.card(v)
				if !ok {
					return nil, p.errf(ln, "expect event: card=%s is not a card", v)
				}
				v = strconv.Itoa(c)
			}
			m.fields[k] = v
		default:
			return nil, p.errf(ln, "expect event: unknown field %q (want register, phase, other, card, from, to, facing, amount, cause, option, device, count)", k)
		}
	}
	return m, nil
}

// quotedFields splits s at spaces, keeping a double-quoted value (option="Extra
// Memory") in one field without its quotes.
func quotedFields(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inQuote, have := false, false
	for _, c := range s {
		switch {
		case c == '"':
			inQuote, have = !inQuote, true
		case (c == ' ' || c == '\t') && !inQuote:
			if have {
				out = append(out, cur.String())
				cur.Reset()
				have = false
			}
		default:
			cur.WriteRune(c)
			have = true
		}
	}
	if inQuote {
		return nil, fmt.Errorf("unclosed double quote")
	}
	if have {
		out = append(out, cur.String())
	}
	return out, nil
}

func eventField(e adjudicator.Event, k string) string {
	switch k {
	case "register":
		return strconv.Itoa(e.Register)
	case "phase":
		return e.Phase
	case "other":
		return e.Other
	case "card":
		return strconv.Itoa(e.Card)
	case "from":
		if e.From != nil {
			return e.From.String()
		}
	case "to":
		if e.To != nil {
			return e.To.String()
		}
	case "facing":
		if e.Facing != nil {
			return e.Facing.String()
		}
	case "amount":
		return strconv.Itoa(e.Amount)
	case "cause":
		return e.Cause
	case "option":
		return e.Option
	case "device":
		return e.Device
	}
	return ""
}

func (m *eventMatcher) match(e adjudicator.Event) bool {
	if e.Kind != m.kind || (m.robot != "*" && e.Robot != m.robot) {
		return false
	}
	for k, v := range m.fields {
		if eventField(e, k) != v {
			return false
		}
	}
	return true
}

// describe lists the events of the same kind and robot, to show what did happen.
func (m *eventMatcher) describe(events []adjudicator.Event) string {
	var parts []string
	for _, e := range events {
		if e.Kind == m.kind && (m.robot == "*" || e.Robot == m.robot) {
			parts = append(parts, FormatEvent(e))
		}
	}
	if len(parts) == 0 {
		return fmt.Sprintf("no %s events for %s", m.kind, m.robot)
	}
	return "those there: " + strings.Join(parts, "; ")
}

// FormatEvent writes an event in the key=value form expect lines use.
func FormatEvent(e adjudicator.Event) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s register=%d phase=%s", e.Kind, e.Robot, e.Register, e.Phase)
	for _, k := range []string{"other", "card", "from", "to", "facing", "amount", "cause", "option"} {
		if v := eventField(e, k); v != "" && v != "0" {
			fmt.Fprintf(&b, " %s=%s", k, v)
		}
	}
	return b.String()
}

// blastLine reads "expect blast at X,Y power N: NAME D, NAME D": the damage an explosion
// of power N at X,Y would deal to each named robot where it stands after the turn (or at
// the stop), counted by adjudicator.BlastDamage (seed 001, Explosive Damage), with the
// swing doors of the last register played.
func (p *parser) blastLine(ln int, head, body string, add func(func(r *Result) string)) error {
	f := strings.Fields(head)
	if len(f) != 5 || f[1] != "at" || f[3] != "power" {
		return p.errf(ln, "expect blast: want \"expect blast at X,Y power N: NAME DAMAGE, ...\"")
	}
	at, ok := parsePos(f[2])
	if !ok {
		return p.errf(ln, "expect blast: %q is not x,y", f[2])
	}
	power, err := strconv.Atoi(f[4])
	if err != nil || power < 1 || power > 1024 {
		return p.errf(ln, "expect blast: power %q (want 1 to 1024)", f[4])
	}
	items := splitList(body)
	if len(items) == 0 {
		return p.errf(ln, "expect blast: name at least one robot and its damage")
	}
	for _, it := range items {
		w := strings.Fields(it)
		if len(w) != 2 {
			return p.errf(ln, "expect blast: %q: want NAME DAMAGE", it)
		}
		idx := p.robotIndex(w[0])
		if idx < 0 {
			return p.errf(ln, "expect blast: %q is not a robot of this scenario", w[0])
		}
		want, err := strconv.Atoi(w[1])
		if err != nil || want < 0 {
			return p.errf(ln, "expect blast: %q: damage %q is not a number", it, w[1])
		}
		name, sc := w[0], p.sc
		add(func(r *Result) string {
			b := sc.Setup.Course.Board
			if !b.In(at) {
				return fmt.Sprintf("blast at %v is off the board", at)
			}
			rb := &r.State.Robots[idx]
			reg := r.Stop
			if reg == 0 {
				reg = adjudicator.Registers
			}
			if got := adjudicator.BlastDamage(b, at, power, reg, rb.Pos); got != want {
				return fmt.Sprintf("%s at %v takes %d", name, rb.Pos, got)
			}
			return ""
		})
	}
	return nil
}

// cardsWant reads a list of option cards ("A, B", "none") or a count ("3 cards") and
// returns the check of a list found against it. An unknown card name is an error.
func (p *parser) cardsWant(ln int, body string) (func([]string) bool, error) {
	if n, ok := strings.CutSuffix(strings.TrimSpace(body), " cards"); ok {
		k, err := strconv.Atoi(n)
		if err != nil || k < 0 {
			return nil, p.errf(ln, "expect: want \"N cards\" or a list of option cards, got %q", body)
		}
		return func(got []string) bool { return len(got) == k }, nil
	}
	want := splitList(body)
	for _, w := range want {
		if !slices.Contains(adjudicator.OptionNames(), w) {
			return nil, p.errf(ln, "expect: %q is not an option card", w)
		}
	}
	return func(got []string) bool { return strings.Join(got, ", ") == strings.Join(want, ", ") }, nil
}
