package scenario

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/orders"
)

// The 2023 rules in scenario files (docs/scenarios.md, "The 2023 rules"):
//
//	rules: 2023 [edge-walls] [discard-spam] [lighter] [dynamic-archive]
//	priority: NAME                          the robot holding the priority token
//	damage deck: spam lurch spam ...        the damage deck, top first (not shuffled)
//	damage discard: spam ...
//	robot A at 1,1 facing E energy 5 hand move1 move1 spam deck move2 again
//	        discard uturn haywire 2:lurch start 0,3 rebooting
//	program A: move1 spam again left move1
//	decide A: shutdown facing E
//	expect A: energy 6 deck 3 discard 4 hand 9 holds move1 spam haywire 2:lurch
//	expect priority: NAME
//	expect damage deck: N   /   expect damage discard: N
//
// Cards are named by kind (adjudicator.ParseCardName: move1, Move-2, uturn, back,
// powerup, again, spam, lurch, spinout, stall, surge). A robot's deck and discard pile
// default to empty, its energy to the ruleset's start, its start square to its square.

type rules2023 struct {
	rules         adjudicator.Rules
	priority      string
	priorityLine  int
	damageDeck    []int
	damageDiscard []int
	damageDeckSet bool
	damageDiscSet bool
}

type mat2023 struct {
	m         adjudicator.Mat
	energySet bool
	startSet  bool
	rebooting bool
}

// card reads a card as the ruleset names it: P490 (postal) or a kind name (2023).
func (p *parser) card(s string) (int, bool) {
	if p.r23 == nil || s == "-" {
		return parseCard(s)
	}
	if s == "none" {
		return 0, true // an Again with nothing to repeat: card=none
	}
	k, ok := adjudicator.ParseCardName(s)
	return int(k), ok
}

func (p *parser) cardList(ln int, what string, words []string) ([]int, error) {
	var out []int
	if len(words) == 1 && words[0] == "none" {
		return []int{}, nil
	}
	for _, w := range words {
		k, ok := adjudicator.ParseCardName(w)
		if !ok {
			return nil, p.errf(ln, "%s: %q is not a 2023 card (want move1, move2, move3, back, left, right, uturn, powerup, again, spam, lurch, spinout, stall, surge)", what, w)
		}
		out = append(out, int(k))
	}
	return out, nil
}

// line2023 reads the top-level lines of the 2023 rules.
func (p *parser) line2023(ln int, key, rest string) error {
	if key == "rules" {
		f := strings.Fields(rest)
		if len(f) == 0 {
			return p.errf(ln, "rules: want postal or 2023")
		}
		if len(p.robots) > 0 || p.r23 != nil {
			return p.errf(ln, "rules: write it once, before the robots")
		}
		r, err := adjudicator.RulesByName(f[0])
		if err != nil {
			return p.errf(ln, "%v", err)
		}
		if !r.Own() {
			if len(f) > 1 {
				return p.errf(ln, "rules: the postal rules take no variants here, got %q", f[1])
			}
			return nil
		}
		for _, v := range f[1:] {
			switch v {
			case "edge-walls":
				r.EdgeWalls = true // seed 004, A Less Deadly Game
			case "discard-spam":
				r.DiscardSpam = true // seed 004, A Less SPAM-y Game
			case "lighter":
				r.Lighter, r.EnergyStart, r.EnergyMax = true, 0, 0 // seed 004, A Lighter Game
			case "dynamic-archive":
				r.DynamicArchive = true // seed 004, Dynamic Archiving
			default:
				return p.errf(ln, "rules: unknown 2023 variant %q (want edge-walls, discard-spam, lighter, dynamic-archive)", v)
			}
		}
		p.r23 = &rules2023{rules: r}
		return nil
	}
	if p.r23 == nil {
		return p.errf(ln, "%s belongs to the 2023 rules (write \"rules: 2023\" first)", key)
	}
	switch key {
	case "upgrade", "collection":
		// upgrade NAME: draw; install Deflector Shield; uninstall Zoop, Boink
		// collection NAME: Zoop, Boink   (its upgrades not installed)
		name, list, ok := strings.Cut(rest, ":")
		rl := p.robot(strings.TrimSpace(name))
		if key == "upgrade" {
			rl = p.orderRobot(strings.TrimSpace(name))
		}
		if !ok || rl == nil {
			return p.errf(ln, "%s: want \"%s ROBOT: ...\" after the robot's line", key, key)
		}
		if rl.mat == nil {
			rl.mat = &mat2023{}
		}
		if key == "collection" {
			rl.mat.m.Collection = splitList(list)
			return nil
		}
		// seed 004, Phase 1: one draw and one install a phase. A second is an error,
		// never kept in place of the first (issue 23). "install drawn" draws and installs
		// the card drawn; a plain install beside it is the fallback.
		var draws, installs, drawn int
		for _, part := range strings.Split(list, ";") {
			w, arg, _ := strings.Cut(strings.TrimSpace(part), " ")
			arg = strings.TrimSpace(arg)
			switch {
			case w == "draw":
				draws++
				rl.upgrade.Draw = true
			case w == "install" && (arg == "drawn" || strings.EqualFold(arg, "the card I draw")):
				drawn++
				rl.upgrade.Draw, rl.upgrade.InstallDrawn = true, true
			case w == "install":
				installs++
				rl.upgrade.Install = arg
			case w == "uninstall":
				rl.upgrade.Uninstall = append(rl.upgrade.Uninstall, splitList(arg)...)
			case w == "":
			default:
				return p.errf(ln, "upgrade %s: unknown action %q (want draw, install NAME, install drawn, uninstall NAME, NAME)", rl.r.Name, w)
			}
		}
		switch {
		case draws > 1:
			return p.errf(ln, "upgrade %s: draw %d times: seed 004 allows one draw an upgrade phase", rl.r.Name, draws)
		case installs > 1 || drawn > 1:
			return p.errf(ln, "upgrade %s: %d installs: seed 004 allows one install an upgrade phase (\"install drawn; install NAME\" installs NAME only when the card drawn is not)", rl.r.Name, installs+drawn)
		}
		return nil
	case "priority":
		p.r23.priority, p.r23.priorityLine = strings.TrimSpace(rest), ln
		return nil
	case "damage":
		what, list, ok := strings.Cut(rest, ":")
		cards, err := p.cardList(ln, "damage "+what, strings.Fields(list))
		if err != nil {
			return err
		}
		for _, c := range cards {
			if !adjudicator.CardKind(c).Damage() {
				return p.errf(ln, "damage %s: %s is not a damage card", what, adjudicator.CardKind(c).Title())
			}
		}
		switch {
		case ok && what == "deck":
			p.r23.damageDeck, p.r23.damageDeckSet = cards, true
		case ok && what == "discard":
			p.r23.damageDiscard, p.r23.damageDiscSet = cards, true
		default:
			return p.errf(ln, "want \"damage deck: spam lurch ...\" or \"damage discard: ...\"")
		}
		return nil
	}
	return p.errf(ln, "unknown line %q", key)
}

// robotWord2023 reads one word of a robot line under the 2023 rules (f[k] is the word)
// and returns the index of the last field it used.
func (p *parser) robotWord2023(ln int, rl *robotLine, f []string, k int) (int, error) {
	if rl.mat == nil {
		rl.mat = &mat2023{}
	}
	name := f[0]
	switch f[k] {
	case "energy":
		if k+1 >= len(f) {
			return k, p.errf(ln, "robot %s: energy needs a value", name)
		}
		n, err := strconv.Atoi(f[k+1])
		if err != nil || n < 0 || n > p.r23.rules.EnergyMax {
			return k, p.errf(ln, "robot %s: energy wants 0-%d, got %q", name, p.r23.rules.EnergyMax, f[k+1])
		}
		rl.mat.m.Energy, rl.mat.energySet = n, true
		return k + 1, nil
	case "start":
		if k+1 >= len(f) {
			return k, p.errf(ln, "robot %s: start needs x,y", name)
		}
		pos, ok := parsePos(f[k+1])
		if !ok {
			return k, p.errf(ln, "robot %s: start wants x,y, got %q", name, f[k+1])
		}
		rl.mat.m.Start, rl.mat.startSet = pos, true
		return k + 1, nil
	case "rebooting":
		rl.mat.rebooting = true
		return k, nil
	case "locked":
		return k, p.errf(ln, "robot %s: the 2023 rules lock no registers (use haywire R:card)", name)
	case "haywire":
		j := k
		for j+1 < len(f) && strings.Contains(f[j+1], ":") {
			j++
			rs, cs, _ := strings.Cut(f[j], ":")
			reg, err := strconv.Atoi(rs)
			ck, ok := adjudicator.ParseCardName(cs)
			if err != nil || reg < 1 || reg > adjudicator.Registers || !ok || !ck.Haywire() {
				return j, p.errf(ln, "robot %s: haywire wants REGISTER:CARD like 2:lurch, got %q", name, f[j])
			}
			if rl.mat.m.Haywire[reg-1] != 0 {
				return j, p.errf(ln, "robot %s: register %d holds one Haywire at most (seed 004)", name, reg)
			}
			rl.mat.m.Haywire[reg-1] = int(ck)
		}
		if j == k {
			return k, p.errf(ln, "robot %s: haywire wants REGISTER:CARD like 2:lurch", name)
		}
		return j, nil
	}
	// hand, deck, discard: card names up to the next keyword.
	key := f[k]
	j := k
	var words []string
	for j+1 < len(f) {
		if _, ok := adjudicator.ParseCardName(f[j+1]); !ok {
			break
		}
		j++
		words = append(words, f[j])
	}
	cards, err := p.cardList(ln, "robot "+name+" "+key, words)
	if err != nil {
		return j, err
	}
	for _, c := range cards {
		if adjudicator.CardKind(c).Haywire() {
			return j, p.errf(ln, "robot %s: a Haywire is never in a hand or pile; it lies under a register (haywire R:card)", name)
		}
	}
	switch key {
	case "hand":
		rl.hand, rl.hasHand = cards, true
	case "deck":
		rl.mat.m.Deck = cards
	case "discard":
		rl.mat.m.Discard = cards
	}
	return j, nil
}

// build2023 makes the state and orders of a 2023 scenario.
func (p *parser) build2023(setup *adjudicator.Setup) error {
	b := setup.Course.Board
	st := &adjudicator.State{Turn: p.turn, DamageDeck: slices.Clone(p.r23.damageDeck), DamageDiscard: slices.Clone(p.r23.damageDiscard),
		OptionDeck: slices.Clone(p.deck)}
	if !p.r23.damageDeckSet {
		// Unless the scenario says, the damage deck is the ruleset's, in file order
		// (SPAM first): a scenario that cares writes it.
		st.DamageDeck = slices.Clone(adjudicator.Cards2023().Damage)
	}
	if p.r23.priority != "" {
		i := p.robotIndex(p.r23.priority)
		if i < 0 {
			return p.errf(p.r23.priorityLine, "priority: %q is not a robot of this scenario", p.r23.priority)
		}
		st.Priority = i
	}
	for k := range p.robots {
		if err := p.upgradeFromOrders(&p.robots[k]); err != nil {
			return err
		}
	}
	for _, rl := range p.robots {
		r := rl.r
		if rl.mat == nil {
			rl.mat = &mat2023{}
		}
		m := rl.mat.m
		if !rl.mat.energySet {
			m.Energy = p.r23.rules.EnergyStart
		}
		if !rl.mat.startSet {
			m.Start = r.Pos
		}
		if m.Deck == nil {
			m.Deck = []int{}
		}
		if m.Discard == nil {
			m.Discard = []int{}
		}
		r.Mat = &m
		r.Lives = 0
		if r.Power != adjudicator.PowerOn || r.Damage != 0 || r.Virtual || r.Out {
			return p.errf(rl.line, "robot %s: the 2023 rules have no power down, damage points, virtual robots or lives (use decide: shutdown, damage cards)", r.Name)
		}
		if rl.mat.rebooting {
			// Off the board since an earlier round; "at" is the square it fell from.
			r.Destroyed = true
		} else if !b.In(r.Pos) || b.Deadly(r.Pos) {
			return p.errf(rl.line, "robot %s: square %v is off the floor or a pit", r.Name, r.Pos)
		}
		if len(p.board.Flags) > 0 && r.Flags > len(p.board.Flags) {
			return p.errf(rl.line, "robot %s: %d checkpoints claimed but the board has %d", r.Name, r.Flags, len(p.board.Flags))
		}
		var prog [adjudicator.Registers]int
		if rl.prog != nil {
			prog = *rl.prog
		}
		if rl.hasHand {
			r.Hand = slices.Clone(rl.hand)
		} else {
			for _, c := range prog {
				if c != 0 {
					r.Hand = append(r.Hand, c)
				}
			}
		}
		slices.Sort(r.Hand)
		st.Robots = append(st.Robots, r)
		p.sc.Orders = append(p.sc.Orders, adjudicator.Orders{Program: prog, Shutdown: rl.dec.Shutdown, Upgrade: rl.upgrade})
		p.sc.Decisions = append(p.sc.Decisions, rl.dec)
	}
	for i, rl := range p.robots {
		if rl.prog == nil && !rl.dec.Shutdown {
			return p.errf(rl.line, "robot %s: no program line (a robot that shuts down needs none)", rl.r.Name)
		}
		at := rl.progAt
		if at == 0 {
			at = rl.line
		}
		if errs := setup.CheckOrders(st, i, p.sc.Orders[i]); len(errs) > 0 {
			return p.errf(at, "program %s: %v", rl.r.Name, errs[0])
		}
	}
	for i := range st.Robots {
		for j := i + 1; j < len(st.Robots); j++ {
			if !st.Robots[i].Destroyed && !st.Robots[j].Destroyed && st.Robots[i].Pos == st.Robots[j].Pos {
				return p.errf(p.robots[j].line, "robot %s: square %v is taken by %s (the 2023 rules have no virtual robots)", st.Robots[j].Name, st.Robots[j].Pos, st.Robots[i].Name)
			}
		}
	}
	p.sc.State = st
	return nil
}

// upgradeFromOrders takes a robot's upgrade phase from its orders lines ("orders A:
// install the card I draw, else install Zoop"), as the judge takes it from a mailed
// sheet; one draw and one install a phase (seed 004, Phase 1): a second is an error.
func (p *parser) upgradeFromOrders(rl *robotLine) error {
	var draws, installs, drawn int
	for _, r := range rl.dec.rules {
		if r.If != nil {
			continue
		}
		switch r.Then.Do {
		case orders.DoDrawUpgrade:
			draws++
		case orders.DoInstall:
			installs++
		case orders.DoInstallDrawn:
			drawn++
		}
	}
	if draws+installs+drawn == 0 {
		return nil
	}
	switch {
	case !rl.upgrade.Empty():
		return p.errf(rl.line, "robot %s: its upgrade phase is written twice, on an upgrade line and in orders lines: write one", rl.r.Name)
	case draws > 1:
		return p.errf(rl.line, "orders %s: draw upgrade %d times: seed 004 allows one draw an upgrade phase", rl.r.Name, draws)
	case installs > 1 || drawn > 1:
		return p.errf(rl.line, "orders %s: %d installs: seed 004 allows one install an upgrade phase (\"install the card I draw, else install NAME\" installs NAME only when the card drawn is not)", rl.r.Name, installs+drawn)
	}
	rl.upgrade = (&orders.Sheet{Rules: rl.dec.rules}).Orders().Upgrade
	return nil
}

// expect2023 reads the state-level expectations of the 2023 rules; ok is false for a
// head it does not know.
func (p *parser) expect2023(ln int, head, body string, add func(func(*Result) string)) (bool, error) {
	if name, ok := strings.CutPrefix(head, "collection "); ok {
		idx := p.robotIndex(strings.TrimSpace(name))
		if p.r23 == nil || idx < 0 {
			return true, p.errf(ln, "expect collection ROBOT: want a robot of a 2023 scenario")
		}
		want := strings.Join(splitList(body), ", ")
		add(func(r *Result) string {
			m := r.State.Robots[idx].Mat
			got := ""
			if m != nil {
				got = strings.Join(m.Collection, ", ")
			}
			if got != want {
				return fmt.Sprintf("collection %q", got)
			}
			return ""
		})
		return true, nil
	}
	switch head {
	case "priority":
		if p.r23 == nil {
			return true, p.errf(ln, "expect priority: belongs to the 2023 rules")
		}
		i := p.robotIndex(body)
		if i < 0 {
			return true, p.errf(ln, "expect priority: %q is not a robot of this scenario", body)
		}
		add(func(r *Result) string {
			if r.State.Priority != i {
				return fmt.Sprintf("priority %s", r.State.Robots[r.State.Priority].Name)
			}
			return ""
		})
		return true, nil
	case "damage deck", "damage discard":
		if p.r23 == nil {
			return true, p.errf(ln, "expect %s: belongs to the 2023 rules", head)
		}
		pile := func(r *Result) []int {
			if head == "damage discard" {
				return r.State.DamageDiscard
			}
			return r.State.DamageDeck
		}
		n, err := strconv.Atoi(body)
		if err != nil {
			// A list of cards, top first: exactly these, in this order.
			want, lerr := p.cardList(ln, "expect "+head, strings.Fields(body))
			if lerr != nil || len(want) == 0 && body != "none" {
				return true, p.errf(ln, "expect %s: want a number of cards or the cards, top first (spam lurch ..., none)", head)
			}
			add(func(r *Result) string {
				got := pile(r)
				same := len(got) == len(want)
				for k := 0; same && k < len(got); k++ {
					same = adjudicator.CardKind(got[k]) == adjudicator.CardKind(want[k])
				}
				if !same {
					return fmt.Sprintf("%s: %s", head, cardNames(got))
				}
				return ""
			})
			return true, nil
		}
		if n < 0 {
			return true, p.errf(ln, "expect %s: want a number of cards", head)
		}
		add(func(r *Result) string {
			if got := len(pile(r)); got != n {
				return fmt.Sprintf("%s %d", head, got)
			}
			return ""
		})
		return true, nil
	}
	return false, nil
}

// expectWord2023 reads one robot expectation of the 2023 rules (f[k] is the word) and
// returns the index of the last field it used.
func (p *parser) expectWord2023(ln int, head string, idx int, f []string, k int, add func(func(*Result) string)) (int, error) {
	key := f[k]
	mat := func(r *Result) *adjudicator.Mat { return r.State.Robots[idx].Mat }
	switch key {
	case "energy", "deck", "discard":
		if k+1 >= len(f) {
			return k, p.errf(ln, "expect %s: %s needs a number", head, key)
		}
		n, err := strconv.Atoi(f[k+1])
		if err != nil || n < 0 {
			return k, p.errf(ln, "expect %s: %s wants a number", head, key)
		}
		add(func(r *Result) string {
			m := mat(r)
			if m == nil {
				return head + " has no mat"
			}
			got := map[string]int{"energy": m.Energy, "deck": len(m.Deck), "discard": len(m.Discard)}[key]
			if got != n {
				return fmt.Sprintf("%s %s %d", head, key, got)
			}
			return ""
		})
		return k + 1, nil
	case "haywire":
		// haywire none | haywire R:card ... : exactly these face-down Haywire cards.
		var want [adjudicator.Registers]int
		j := k
		if j+1 < len(f) && f[j+1] == "none" {
			j++
		} else {
			for j+1 < len(f) && strings.Contains(f[j+1], ":") {
				j++
				rs, cs, _ := strings.Cut(f[j], ":")
				reg, err := strconv.Atoi(rs)
				ck, ok := adjudicator.ParseCardName(cs)
				if err != nil || reg < 1 || reg > adjudicator.Registers || !ok || !ck.Haywire() {
					return j, p.errf(ln, "expect %s: haywire wants none or REGISTER:CARD like 2:lurch, got %q", head, f[j])
				}
				want[reg-1] = int(ck)
			}
			if j == k {
				return k, p.errf(ln, "expect %s: haywire wants none or REGISTER:CARD like 2:lurch", head)
			}
		}
		add(func(r *Result) string {
			m := mat(r)
			if m == nil || m.Haywire != want {
				if m == nil {
					return head + " has no mat"
				}
				return fmt.Sprintf("%s haywire %v", head, m.Haywire)
			}
			return ""
		})
		return j, nil
	case "holds":
		// holds CARD ...: the hand is exactly these cards (any order).
		j := k
		var words []string
		for j+1 < len(f) {
			if _, ok := adjudicator.ParseCardName(f[j+1]); !ok {
				break
			}
			j++
			words = append(words, f[j])
		}
		if j+1 < len(f) && f[j+1] == "nothing" {
			j++
		} else if len(words) == 0 {
			return j, p.errf(ln, "expect %s: holds wants card names or nothing", head)
		}
		want, err := p.cardList(ln, "expect "+head+" holds", words)
		if err != nil {
			return j, err
		}
		slices.Sort(want)
		add(func(r *Result) string {
			got := slices.Sorted(slices.Values(r.State.Robots[idx].Hand))
			if !slices.Equal(got, want) {
				var names []string
				for _, c := range got {
					names = append(names, adjudicator.CardKind(c).String())
				}
				return fmt.Sprintf("%s holds %s", head, strings.Join(names, " "))
			}
			return ""
		})
		return j, nil
	}
	return k, p.errf(ln, "expect %s: unknown word %q", head, key)
}

// cardNames is cards by their scenario names, top first ("none" for no card).
func cardNames(cs []int) string {
	if len(cs) == 0 {
		return "none"
	}
	words := make([]string, len(cs))
	for k, c := range cs {
		words[k] = adjudicator.CardKind(c).String()
	}
	return strings.Join(words, " ")
}
