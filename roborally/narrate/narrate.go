package narrate

import (
	"fmt"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// Section is the narration of one part of a turn: register 1–5, or 0 before and after
// the registers (power, repairs, re-entry).
type Section struct {
	Register int
	Title    string
	Lines    []string
}

// Narrate writes a turn's event log as sentences for people, grouped by register (rules
// README, "A turn": cards in priority order, then the board elements, lasers, flags).
// A card's whole effect is one line:
//
//	P790 Zoom plays Move 3: moves 2 to 4,5, pushing Twonky into the pit at 4,6; Twonky is destroyed
//
// steps in a row are counted together ("moves 2 to 4,5", not one line a square), pits
// and board edges are named where a robot falls. A board element's effect on one robot
// is one line too ("Hulk rides the express belt from 0,2 to 2,2, turning to face
// south"); lasers, flags and the end of the turn get a line each.
func Narrate(deck *adjudicator.Deck, events []adjudicator.Event) []Section {
	n := narrator{deck: deck}
	for _, e := range events {
		n.event(e)
	}
	n.flush()
	return n.out
}

type narrator struct {
	deck    *adjudicator.Deck
	out     []Section
	cur     *Section
	regSeen bool
	card    *cardLine  // the card being played, while its events come
	elem    *elemLine  // a board element's effect on one robot, while its events come
	flag    *flagState // the last flag line, to fold the archive marker into it
	// dmg is the damage cards a robot drew, told with the hit that dealt them (the
	// 2023 rules: the cards come before the event that sums them up).
	dmg      []string
	dmgRobot string
}

// cardLine gathers the events of one card played.
type cardLine struct {
	head    string
	robot   string
	back    bool // a Back Up card
	clauses []string
	steps   int
	to      adjudicator.Pos
	dir     string // the direction of the last step
	pushes  []*push
	after   []string // said after the moves: destructions of pushed robots
}

type push struct {
	robot string
	n     int
	to    adjudicator.Pos
	dir   string // the direction of the last push, for an edge
	fell  string // "into the pit at 4,6", "off the board (east edge)"
}

type elemLine struct {
	robot, phase string
	parts        []string
	lastTo       *adjudicator.Pos
	lastDir      string
}

type flagState struct {
	line  int // index into cur.Lines
	robot string
	at    adjudicator.Pos
}

func (n *narrator) section(e adjudicator.Event) {
	reg := e.Register
	if n.cur != nil && n.cur.Register == reg {
		return
	}
	n.flush()
	title := fmt.Sprintf("Register %d", reg)
	if reg == 0 {
		title = "Before the registers"
		if n.regSeen {
			title = "End of turn"
		}
	} else {
		n.regSeen = true
	}
	n.out = append(n.out, Section{Register: reg, Title: title})
	n.cur = &n.out[len(n.out)-1]
}

// flush ends the open card or element line.
func (n *narrator) flush() {
	n.flushCard()
	n.flushElem()
	if n.cur != nil {
		n.flushDamage()
	}
}

func (n *narrator) flushCard() {
	c := n.card
	if c == nil {
		return
	}
	n.flushMoves()
	line := c.head
	if len(c.clauses) > 0 {
		line += ": " + strings.Join(c.clauses, "; ")
	}
	n.cur.Lines = append(n.cur.Lines, line)
	n.card = nil
}

// flushMoves turns the steps and pushes counted so far into a clause.
func (n *narrator) flushMoves() {
	c := n.card
	if c == nil || (c.steps == 0 && len(c.pushes) == 0) {
		return
	}
	var s string
	if c.steps > 0 {
		if c.back {
			s = fmt.Sprintf("backs up %s to %v", squares(c.steps), c.to)
		} else {
			s = fmt.Sprintf("moves %d to %v", c.steps, c.to)
		}
	}
	var ps []string
	for _, p := range c.pushes {
		if p.fell != "" {
			ps = append(ps, fmt.Sprintf("%s %s", p.robot, p.fell))
		} else if p.n > 1 {
			ps = append(ps, fmt.Sprintf("%s %s to %v", p.robot, squares(p.n), p.to))
		} else {
			ps = append(ps, fmt.Sprintf("%s to %v", p.robot, p.to))
		}
	}
	if len(ps) > 0 {
		if s == "" {
			s = "pushes " + strings.Join(ps, " and ")
		} else {
			s += ", pushing " + strings.Join(ps, " and ")
		}
	}
	c.clauses = append(c.clauses, s)
	c.clauses = append(c.clauses, c.after...)
	c.steps, c.pushes, c.after = 0, nil, nil
}

func (n *narrator) flushElem() {
	if n.elem == nil {
		return
	}
	n.add(strings.Join(n.elem.parts, ", "))
	n.elem = nil
}

func (n *narrator) add(s string) {
	n.flushDamage()
	n.cur.Lines = append(n.cur.Lines, s)
	n.flag = nil
}

// flushDamage tells damage cards no hit summed up (there always is one; this keeps
// them from being lost if a log lacks it).
func (n *narrator) flushDamage() {
	if len(n.dmg) == 0 {
		return
	}
	line := fmt.Sprintf("%s takes %s", n.dmgRobot, strings.Join(n.dmg, "; "))
	n.dmg, n.dmgRobot = nil, ""
	n.cur.Lines = append(n.cur.Lines, line)
}

func (n *narrator) event(e adjudicator.Event) {
	if e.Phase == "deal" || e.Kind == adjudicator.EvDeal {
		return // hands are private; each report shows its own
	}
	n.section(e)
	if n.card != nil && !n.cardEvent(e) {
		n.flushCard()
	}
	if n.card != nil {
		return
	}
	if n.elem != nil && !n.elemEvent(e) {
		n.flushElem()
	}
	if n.elem != nil {
		return
	}
	switch e.Kind {
	case adjudicator.EvCard:
		k := n.deck.Kind(e.Card)
		head := fmt.Sprintf("P%d %s plays %s", e.Card, e.Robot, k.Title())
		if n.deck.ByKind() { // the 2023 rules: cards have no priority (narrate2023.go)
			head = ownCardHead(e, k)
		}
		n.card = &cardLine{head: head, robot: e.Robot, back: k.Steps() < 0}
		n.flag = nil
	case adjudicator.EvConveyed, adjudicator.EvPushed, adjudicator.EvRotated:
		n.elem = &elemLine{robot: e.Robot, phase: e.Phase}
		n.flag = nil
		n.elemEvent(e)
	default:
		n.single(e)
	}
}

// cardEvent adds e to the open card line and reports whether it belonged there.
func (n *narrator) cardEvent(e adjudicator.Event) bool {
	c := n.card
	if n.deck.ByKind() && n.ownCardEvent(e) { // the 2023 rules: narrate2023.go
		return true
	}
	if e.Phase != "move" || e.Kind == adjudicator.EvCard {
		return false
	}
	switch e.Kind {
	case adjudicator.EvMove:
		if e.Robot != c.robot || e.To == nil {
			return false
		}
		c.steps++
		c.to, c.dir = *e.To, stepDir(e.From, e.To)
		return true
	case adjudicator.EvTurn:
		if e.Robot != c.robot {
			return false
		}
		n.flushMoves()
		c.clauses = append(c.clauses, "turns to face "+dirName(e.Facing))
		return true
	case adjudicator.EvPush:
		if e.To == nil {
			return false
		}
		for _, p := range c.pushes {
			if p.robot == e.Robot && p.fell == "" {
				p.n++
				p.to, p.dir = *e.To, stepDir(e.From, e.To)
				return true
			}
		}
		c.pushes = append(c.pushes, &push{robot: e.Robot, n: 1, to: *e.To, dir: stepDir(e.From, e.To)})
		return true
	case adjudicator.EvBlocked:
		if e.Robot != c.robot {
			return false
		}
		n.flushMoves()
		c.clauses = append(c.clauses, blockedText(e, len(c.clauses) == 0))
		return true
	case adjudicator.EvSlowed:
		if e.Robot != c.robot {
			return false
		}
		where := map[string]string{"water": "in water", "oil": "on oil"}[e.Cause]
		c.clauses = append(c.clauses, fmt.Sprintf("starts %s and loses its first square", nonEmpty(where, "slowed")))
		return true
	case adjudicator.EvTeleport:
		if e.Robot != c.robot || e.Cause != "teleporter" || e.To == nil {
			return false
		}
		n.flushMoves()
		c.clauses = append(c.clauses, fmt.Sprintf("teleports %d squares to %v", e.Amount, *e.To))
		return true
	case adjudicator.EvDestroyed, adjudicator.EvReboot:
		if e.Robot == c.robot {
			n.flushMoves()
			c.clauses = append(c.clauses, fmt.Sprintf("%s %s", e.Robot, fallText(e, c.lastDir())))
			return true
		}
		for _, p := range c.pushes {
			if p.robot == e.Robot && p.fell == "" {
				p.fell = fellWhere(e, p.dir)
				c.after = append(c.after, fmt.Sprintf("%s %s", e.Robot, map[bool]string{false: "is destroyed", true: "reboots"}[e.Kind == adjudicator.EvReboot]))
				return true
			}
		}
		return false
	}
	return false
}

func (c *cardLine) lastDir() string { return c.dir }

// elemEvent adds e to the open board-element line and reports whether it belonged there.
func (n *narrator) elemEvent(e adjudicator.Event) bool {
	l := n.elem
	if e.Robot != l.robot || e.Phase != l.phase {
		return false
	}
	switch e.Kind {
	case adjudicator.EvConveyed:
		if e.From == nil || e.To == nil {
			return false
		}
		l.parts = append(l.parts, fmt.Sprintf("%s rides the %s from %v to %v", e.Robot, beltName(e.Phase), *e.From, *e.To))
		l.lastTo, l.lastDir = e.To, stepDir(e.From, e.To)
	case adjudicator.EvPushed:
		if e.From == nil || e.To == nil {
			return false
		}
		switch e.Cause {
		case "ramp": // adjudicator/levels.go: a robot left on a ramp slides back
			l.parts = append(l.parts, fmt.Sprintf("%s slides back down the ramp to %v", e.Robot, *e.To))
		case "repulsor": // adjudicator/repulsors.go
			l.parts = append(l.parts, fmt.Sprintf("%s is thrown back by the repulsor field from %v to %v", e.Robot, *e.From, *e.To))
		default:
			l.parts = append(l.parts, fmt.Sprintf("%s is pushed by a %s from %v to %v", e.Robot, nonEmpty(e.Cause, "pusher"), *e.From, *e.To))
		}
		l.lastTo, l.lastDir = e.To, stepDir(e.From, e.To)
	case adjudicator.EvRotated:
		what := "turning"
		if len(l.parts) == 0 {
			l.parts = append(l.parts, fmt.Sprintf("%s is turned by the %s to face %s", e.Robot, nonEmpty(e.Cause, "gear"), dirName(e.Facing)))
		} else {
			l.parts = append(l.parts, fmt.Sprintf("%s to face %s", what, dirName(e.Facing)))
		}
	case adjudicator.EvDestroyed, adjudicator.EvReboot:
		if len(l.parts) == 0 {
			return false
		}
		l.parts[len(l.parts)-1] += "; " + e.Robot + " " + fallText(e, l.lastDir)
	default:
		return false
	}
	return true
}

// single narrates an event that is a line of its own.
func (n *narrator) single(e adjudicator.Event) {
	switch e.Kind {
	case adjudicator.EvTurn:
		n.add(fmt.Sprintf("%s turns to face %s", e.Robot, dirName(e.Facing)))
	case adjudicator.EvMove:
		n.add(fmt.Sprintf("%s moves from %v to %v", e.Robot, pos(e.From), pos(e.To)))
	case adjudicator.EvPush:
		n.add(fmt.Sprintf("%s pushes %s to %v", nonEmpty(e.Other, "a robot"), e.Robot, pos(e.To)))
	case adjudicator.EvBlocked:
		n.add(e.Robot + " " + blockedText(e, false))
	case adjudicator.EvDestroyed:
		n.add(fmt.Sprintf("%s %s", e.Robot, fallText(e, "")))
	case adjudicator.EvDamage:
		cards := ""
		if n.dmgRobot == e.Robot && len(n.dmg) > 0 {
			cards = ": " + strings.Join(n.dmg, "; ")
			n.dmg, n.dmgRobot = nil, ""
			if line, ok := ownDamage(e, cards); ok {
				n.add(line)
				return
			}
		}
		n.add(fmt.Sprintf("%s: %s", hitText(e), points(e.Amount, "damage")))
	case adjudicator.EvPrevented:
		n.add(fmt.Sprintf("%s discards %s to prevent a point of damage", e.Robot, e.Option))
	case adjudicator.EvFlag:
		at := ""
		if e.To != nil {
			at = fmt.Sprintf(" at %v", *e.To)
		}
		n.add(fmt.Sprintf("%s touches flag %d%s", e.Robot, e.Amount, at))
		if e.To != nil {
			n.flag = &flagState{line: len(n.cur.Lines) - 1, robot: e.Robot, at: *e.To}
		}
	case adjudicator.EvArchive:
		if f := n.flag; f != nil && f.robot == e.Robot && e.To != nil && f.at == *e.To {
			n.cur.Lines[f.line] += " and moves its archive marker there"
			n.flag = nil
			return
		}
		n.add(fmt.Sprintf("%s's archive marker moves to %v", e.Robot, pos(e.To)))
	case adjudicator.EvWin:
		n.add(fmt.Sprintf("%s has touched the last flag and WINS THE RACE", e.Robot))
	case adjudicator.EvRepair:
		n.add(fmt.Sprintf("%s repairs %s", e.Robot, points(e.Amount, "damage")))
	case adjudicator.EvOptionGain:
		switch e.Cause { // seed 001's option variants (adjudicator/variants.go)
		case "deluxe":
			n.add(fmt.Sprintf("%s keeps %s of its Deluxe Option Package", e.Robot, e.Option))
		case "scavenger-hunt":
			n.add(fmt.Sprintf("%s receives %s from the flag's Scavenger Hunt pile", e.Robot, e.Option))
		case "bio-option":
			n.add(fmt.Sprintf("%s draws %s onto its Bio Option", e.Robot, e.Option))
		default:
			n.add(fmt.Sprintf("%s draws an option card: %s", e.Robot, e.Option))
		}
	case adjudicator.EvOptionLose:
		if e.Cause == "bio-option" {
			n.add(fmt.Sprintf("%s discards %s from its Bio Option", e.Robot, e.Option))
			break
		}
		n.add(fmt.Sprintf("%s loses its option %s", e.Robot, e.Option))
	case adjudicator.EvLifeLost:
		n.add(fmt.Sprintf("%s loses a life: %s left", e.Robot, points(e.Amount, "life")))
	case adjudicator.EvOut:
		n.add(fmt.Sprintf("%s has no lives left and is out of the race", e.Robot))
	case adjudicator.EvReenter:
		s := fmt.Sprintf("%s re-enters at %v facing %s with %s", e.Robot, pos(e.To), dirName(e.Facing), points(e.Amount, "damage"))
		if n.deck.ByKind() {
			s = fmt.Sprintf("%s reboots onto %v facing %s", e.Robot, pos(e.To), dirName(e.Facing))
		}
		n.add(s)
	case adjudicator.EvReal:
		n.add(fmt.Sprintf("%s is alone on its square and becomes real", e.Robot))
	case adjudicator.EvAnnounce:
		n.add(fmt.Sprintf("%s announces a power down: it sits out the next turn and all its damage is repaired", e.Robot))
	case adjudicator.EvPowerDown:
		n.add(fmt.Sprintf("%s is powered down this turn", e.Robot))
	case adjudicator.EvStayDown:
		n.add(fmt.Sprintf("%s stays powered down for another turn", e.Robot))
	case adjudicator.EvPoweredUp:
		n.add(fmt.Sprintf("%s powers up again", e.Robot))
	case adjudicator.EvSlid:
		n.add(fmt.Sprintf("%s slides on the oil from %v to %v", e.Robot, pos(e.From), pos(e.To)))
	case adjudicator.EvSlowed:
		if e.Cause == "water" {
			n.add(fmt.Sprintf("%s starts in water and loses the first square of its move", e.Robot))
			break
		}
		n.add(fmt.Sprintf("%s starts on oil and loses the first square of its move", e.Robot))
	case adjudicator.EvTeleport:
		if e.Cause == "teleporter" {
			n.add(fmt.Sprintf("%s teleports %d squares from %v to %v", e.Robot, e.Amount, pos(e.From), pos(e.To)))
			break
		}
		n.add(fmt.Sprintf("%s enters the portal at %v and comes out at %v", e.Robot, pos(e.From), pos(e.To)))
	case adjudicator.EvRandomized:
		if e.Card == 0 {
			n.add(fmt.Sprintf("%s stands on a randomizer: it will play a random card instead of P%d", e.Robot, e.Amount))
			break
		}
		n.add(fmt.Sprintf("%s stands on a randomizer: P%d is discarded and it plays P%d instead", e.Robot, e.Amount, e.Card))
	case adjudicator.EvExplosion:
		n.add(explosionText(e))
	case adjudicator.EvLaunch:
		if e.Target != nil { // a drone's target counter (seed 001, Drone Launcher)
			n.add(fmt.Sprintf("%s's %s puts a %s at %v, its target counter at %v", e.Robot, e.Option, deviceName(e.Device), pos(e.To), pos(e.Target)))
			break
		}
		n.add(fmt.Sprintf("%s's %s puts a %s at %v", e.Robot, e.Option, deviceName(e.Device), pos(e.To)))
	case adjudicator.EvDeviceMove:
		switch {
		case e.From != nil && e.To != nil && *e.From == *e.To:
			n.add(fmt.Sprintf("%s's %s at %v turns to face %s", e.Robot, deviceName(e.Device), pos(e.To), dirName(e.Facing)))
		case e.Cause == "":
			n.add(fmt.Sprintf("%s's %s flies from %v to %v", e.Robot, deviceName(e.Device), pos(e.From), pos(e.To)))
		default:
			n.add(fmt.Sprintf("%s's %s is moved (%s) from %v to %v", e.Robot, deviceName(e.Device), e.Cause, pos(e.From), pos(e.To)))
		}
	case adjudicator.EvDeviceGone:
		why := map[string]string{"exploded": "explodes", "pit": "falls into the pit", "crusher": "is crushed", "off-board": "leaves the board",
			"real": "goes: its robot is real now", "worn": "is worn through and goes"}[e.Cause]
		if why == "" {
			why = "is gone (" + e.Cause + ")"
		}
		if e.Cause != "exploded" { // an explosion is told by its own line
			n.add(fmt.Sprintf("%s's %s at %v %s", e.Robot, deviceName(e.Device), pos(e.From), why))
		}
	case adjudicator.EvFlew:
		if e.Cause == "landing" {
			n.add(fmt.Sprintf("%s cannot land on the robot there and comes down at %v", e.Robot, pos(e.To)))
			break
		}
		n.add(fmt.Sprintf("%s flies from %v to %v", e.Robot, pos(e.From), pos(e.To)))
	case adjudicator.EvLanded:
		n.add(fmt.Sprintf("%s lands at %v", e.Robot, pos(e.To)))
	case adjudicator.EvRepulsed:
		n.add(fmt.Sprintf("%s runs into the repulsor field at %v and is thrown back %s", e.Robot, pos(e.From), points(e.Amount, "square")))
	case adjudicator.EvRecharged:
		n.add(fmt.Sprintf("%s recharges %s at the chop shop", e.Robot, e.Option))
	case adjudicator.EvArchiveKept:
		n.add(fmt.Sprintf("%s keeps its archive marker at %v", e.Robot, pos(e.To)))
	case adjudicator.EvUse:
		n.add(optionUseText(e))
	case adjudicator.EvAbsorbed:
		n.add(fmt.Sprintf("%s's %s stops %s", e.Robot, e.Option, points(e.Amount, "damage")))
	case adjudicator.EvProgrammed:
		if e.Card != 0 {
			n.add(fmt.Sprintf("%s programs %s in register %d with P%d", e.Robot, e.Option, e.Amount, e.Card))
			break
		}
		n.add(fmt.Sprintf("%s programs %s in register %d", e.Robot, e.Option, e.Amount))
	case adjudicator.EvVoid:
		n.add(fmt.Sprintf("%s's %s program for register %d does not work (%s): %s", e.Robot, e.Option, e.Amount, voidWhy(e.Cause), voidRest(e.Cause)))
	case adjudicator.EvSwapped:
		if e.Option == "Scrambler Bomb" {
			if e.Card == 0 {
				n.add(fmt.Sprintf("a scrambler bomb throws away %s's P%d in register %d: it will play a random card", e.Robot, e.Amount, e.Register))
				break
			}
			n.add(fmt.Sprintf("a scrambler bomb throws away %s's P%d in register %d: it plays P%d instead", e.Robot, e.Amount, e.Register, e.Card))
			break
		}
		n.add(fmt.Sprintf("%s's %s puts P%d in register %d instead of P%d", e.Robot, e.Option, e.Card, e.Register+swapNext(e), e.Amount))
	case adjudicator.EvNoDamage, adjudicator.EvReshuffle:
		// 2023: a point lost or the damage deck reshuffled while a hit's cards are being
		// drawn is told within that hit.
		line, ok := ownSingle(e)
		if !ok {
			line = fmt.Sprintf("%s: %s", e.Robot, e.Kind)
		}
		if len(n.dmg) > 0 && (e.Kind == adjudicator.EvNoDamage && e.Robot == n.dmgRobot || e.Kind == adjudicator.EvReshuffle && e.Robot == "") {
			n.dmg = append(n.dmg, line)
			return
		}
		n.add(line)
	case adjudicator.EvDamageCard:
		// Told with the hit that dealt it (EvDamage follows the cards it sums up).
		if n.dmgRobot != e.Robot {
			n.flushDamage()
		}
		n.dmgRobot = e.Robot
		n.dmg = append(n.dmg, damageCardText(e))
	default:
		if line, ok := ownSingle(e); ok { // the 2023 rules: narrate2023.go
			n.add(line)
			return
		}
		n.add(fmt.Sprintf("%s: %s", e.Robot, e.Kind))
	}
}

func blockedText(e adjudicator.Event, first bool) string {
	var why string
	obstacle := map[string]string{"door": "a closed swing door", "ledge": "a ledge", "repulsor": "a repulsor field"}[e.Cause]
	switch {
	case e.Other == "" && obstacle != "":
		if !first {
			return "is stopped by " + obstacle
		}
		why = obstacle + " is in the way"
	case e.Other == "":
		if !first {
			return "is stopped by a wall"
		}
		why = "a wall is in the way"
	case e.Cause == "robot":
		why = e.Other + " cannot be pushed"
	default:
		why = e.Other + " is against a wall"
	}
	if first {
		return "cannot move: " + why
	}
	return "is stopped: " + why
}

// fallText is how a robot was destroyed: "falls into the pit at 5,2 and is destroyed".
func fallText(e adjudicator.Event, dir string) string {
	if e.Kind == adjudicator.EvReboot { // the 2023 rules: off the board until it re-enters
		return "falls " + fellWhere(e, dir) + " and reboots"
	}
	switch e.Cause {
	case "pit", "off-board":
		return "falls " + fellWhere(e, dir) + " and is destroyed"
	case "crusher":
		return fmt.Sprintf("is crushed%s and destroyed", at(e.From))
	case "stomper":
		return fmt.Sprintf("is stomped%s and destroyed", at(e.From))
	case "damage":
		return "has taken too much damage and is destroyed"
	}
	return fmt.Sprintf("is destroyed (%s)", e.Cause)
}

// fellWhere names the pit or the edge a robot fell into or off: "into the pit at 5,2",
// "off the board (east edge)".
func fellWhere(e adjudicator.Event, dir string) string {
	if e.Cause == "pit" {
		return "into the pit" + at(e.From)
	}
	if e.From != nil {
		switch {
		case e.From.X < 0:
			dir = "west"
		case e.From.Y < 0:
			dir = "north"
		}
	}
	if dir != "" {
		return "off the board (" + dir + " edge)"
	}
	return "off the board"
}

func at(p *adjudicator.Pos) string {
	if p == nil {
		return ""
	}
	return fmt.Sprintf(" at %v", *p)
}

func pos(p *adjudicator.Pos) string {
	if p == nil {
		return "?"
	}
	return p.String()
}

// stepDir is the compass direction of a one-square step.
func stepDir(from, to *adjudicator.Pos) string {
	if from == nil || to == nil {
		return ""
	}
	switch {
	case to.X > from.X:
		return "east"
	case to.X < from.X:
		return "west"
	case to.Y > from.Y:
		return "south"
	case to.Y < from.Y:
		return "north"
	}
	return ""
}

func squares(n int) string {
	if n == 1 {
		return "1 square"
	}
	return fmt.Sprintf("%d squares", n)
}

func nonEmpty(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func dirName(d *adjudicator.Dir) string {
	if d == nil {
		return "?"
	}
	return [...]string{"north", "east", "south", "west"}[*d&3]
}

func beltName(phase string) string {
	switch phase {
	case "express":
		return "express belt"
	case "currents":
		return "current" // seed 001, Currents
	case "blue", "green": // seed 004: blue belts move 2, green 1
		return phase + " belt"
	}
	return "belt"
}

func points(n int, what string) string {
	if what == "life" {
		if n == 1 {
			return "1 life"
		}
		return fmt.Sprintf("%d lives", n)
	}
	return fmt.Sprintf("%d %s", n, what)
}

// swapNext is 1 when a swap is made for the next register (a Randomizer shot in the
// lasers phase changes the target's next card), else 0.
func swapNext(e adjudicator.Event) int {
	if e.Phase == "lasers" {
		return 1
	}
	return 0
}

// optionUseText narrates an option card used (adjudicator.EvUse).
func optionUseText(e adjudicator.Event) string {
	on := ""
	if e.Other != "" {
		on = " on " + e.Other
	}
	switch e.Option {
	case "Brakes":
		return fmt.Sprintf("%s brakes and stays put", e.Robot)
	case "Fourth Gear":
		return fmt.Sprintf("%s shifts into Fourth Gear: its Move 3 moves 4", e.Robot)
	case "Reverse Gear":
		return fmt.Sprintf("%s uses Reverse Gear: its Back Up moves 2", e.Robot)
	case "Ramming Device":
		return fmt.Sprintf("%s rams %s", e.Robot, e.Other)
	case "Flywheel":
		return fmt.Sprintf("%s keeps P%d on its Flywheel for the next hand", e.Robot, e.Card)
	case "Target Control":
		if e.Amount > 0 {
			return fmt.Sprintf("%s's Target Control locks %s's register %d", e.Robot, e.Other, e.Amount)
		}
		return fmt.Sprintf("%s's Target Control hits an option of %s", e.Robot, e.Other)
	case "Turbo Blaster":
		return fmt.Sprintf("%s fires its Turbo Blaster%s (shot %d of 5)", e.Robot, on, e.Amount)
	case "Recompile":
		return fmt.Sprintf("%s recompiles: its hand of %s is dealt again", e.Robot, plural(e.Amount, "card"))
	case "Emergency Switch":
		return fmt.Sprintf("%s throws its Emergency Switch", e.Robot)
	case "De Luxe Safety Copy":
		return fmt.Sprintf("%s uses its De Luxe Safety Copy", e.Robot)
	case "Drone Launcher":
		if e.Cause == "target" && e.To != nil { // a waiting drone saw a robot (seed 001)
			return fmt.Sprintf("%s's drone sees %s: its target counter goes to %v", e.Robot, e.Other, pos(e.To))
		}
	}
	return fmt.Sprintf("%s uses %s%s", e.Robot, e.Option, on)
}

// explosionText narrates an explosion (seed 001, Explosive Damage): what went off, whose,
// where and how strong; the damage it dealt follows as damage events.
func explosionText(e adjudicator.Event) string {
	what := e.Option
	if e.Robot != "" {
		what = e.Robot + "'s " + what
	}
	why := map[string]string{"collision": " as it hits", "crusher": " in a crusher", "lost": " as the card is lost", "timer": " on its timer"}[e.Cause]
	return fmt.Sprintf("%s explodes%s at %v with power %d (full damage on that square, half for each square further away)", what, why, pos(e.To), e.Amount)
}

// voidWhy says in words why a phase program did not work (adjudicator/phases.go).
func voidWhy(cause string) string {
	if w, ok := map[string]string{
		"one-per-register": "one gadget and one movement option a register",
		"locked":           "the register is locked",
		"no-card":          "the register holds no card",
		"empty-with-cards": "an empty register names no card",
		"not-in-register":  "neither card is the register's",
		"no-second-card":   "no second card named",
		"same-card":        "the same card twice",
		"not-in-hand":      "the second card is not an unplayed card of the hand",
		"card-used-twice":  "the card is placed in another register",
		"not-allowed":      "the card takes no such program",
		"illegal":          "it cannot be carried out",
		"destroyed":        "the robot was destroyed",
		"damping-field":    "inside an Option Damping Field",
		"remote-control":   "it plays another robot's program",
		"card-replaced":    "its register's card was replaced",
		"teleporter":       "on a teleporter",
	}[cause]; ok {
		return w
	}
	return cause
}

// voidRest is what follows from a void program.
func voidRest(cause string) string {
	switch cause {
	case "destroyed":
		return "nothing happens"
	case "damping-field", "remote-control", "card-replaced", "teleporter", "illegal":
		return "only the register's primary card is played, and the tokens it spent are kept"
	}
	return "it is not programmed"
}

// deviceName is a device kind as a reader says it (seed 001, Devices).
func deviceName(kind string) string {
	switch kind {
	case "big-one":
		return "Big One"
	case "proximity-mine":
		return "proximity mine"
	case "buzz-bomb":
		return "buzz bomb"
	case "teleporter":
		return "portable teleporter"
	}
	return kind
}

// hitText says what dealt a hit (an EvDamage), by its cause: "Hulk shoots Twonky",
// "the flamer burns Twonky", "Twonky is caught in its own blast". A robot named in
// Other did it; a hit without one and without a cause of its own is a board laser's.
func hitText(e adjudicator.Event) string {
	switch e.Cause {
	case "flamer":
		return "the flamer burns " + e.Robot
	case "ledge":
		return e.Robot + " falls down the ledge"
	case "landed-on":
		return fmt.Sprintf("%s lands on %s", nonEmpty(e.Other, "a robot"), e.Robot)
	case "landing": // seed 001: a flying robot's landing
		return e.Robot + " lands hard"
	case "explosion":
		switch e.Other {
		case "":
			return "a blast hits " + e.Robot
		case e.Robot:
			return e.Robot + " is caught in its own blast"
		}
		return fmt.Sprintf("%s's blast hits %s", e.Other, e.Robot)
	case "ram":
		return fmt.Sprintf("%s rams %s", nonEmpty(e.Other, "a robot"), e.Robot)
	case "reflector":
		return fmt.Sprintf("%s's Reflector sends the shot back at %s", nonEmpty(e.Other, "a robot"), e.Robot)
	case "overload-override":
		return "Overload Override costs " + e.Robot
	case "recompile":
		return "Recompile costs " + e.Robot
	}
	if e.Other != "" {
		return fmt.Sprintf("%s shoots %s", e.Other, e.Robot)
	}
	return "a board laser hits " + e.Robot
}
