package adjudicator

import (
	"strconv"
	"strings"
)

// Answer is a Decider's answer to an option question (Decider.Option), read. The answer
// is text so that any Decider can give it: "" when the orders say nothing (the card's
// documented default applies), "no" to decline, "yes" to use with no parameter, or
// "key=value" pairs joined by ";":
//
//	dir=N|E|S|W          a compass direction
//	side=front|right|back|left
//	register=1..5
//	card=490             a program card by priority
//	cards=490,500,...    several program cards, in order (Buzz Bomb's five)
//	target=NAME          another robot
//	steps=N              how far (Reverse Gear: back 2)
//	option=NAME          one of the target's options (Target Control)
//	lock=1..5            one of the target's registers (Target Control)
//	card2=490            a second program card (Overload Override names both cards)
//	primary=490          which of a register's two cards is the primary card
//	mode=WORD            a card's way of being used: empty (Overload Override leaves
//	                     the register unprogrammed), tag or home (Homing Device)
//
// Unknown keys and bad values are ignored: the orders package checks sheets before they
// get here; this reader only has to be safe.
type Answer struct {
	Silent   bool // the orders say nothing: the default applies
	No       bool // declined
	Dir      Dir
	HasDir   bool
	Side     int // 0 front, 1 right, 2 back, 3 left
	HasSide  bool
	Register int
	Card     int
	Cards    []int // every card of an order naming several (Buzz Bomb's five), Card first
	Target   string
	Steps    int
	Option   string
	Lock     int    // a register of the target to lock (Target Control)
	Card2    int    // a second program card (phase-programmed card placers)
	Primary  int    // the primary card of a register holding two
	Mode     string // empty, tag, home ... as the card says
}

// Use reports whether the answer says to use the option.
func (a Answer) Use() bool { return !a.Silent && !a.No }

// ParseAnswer reads a Decider's answer.
func ParseAnswer(s string) Answer {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "":
		return Answer{Silent: true}
	case "no", "decline":
		return Answer{No: true}
	case "yes":
		return Answer{}
	}
	var a Answer
	for _, kv := range strings.Split(s, ";") {
		k, v, _ := strings.Cut(kv, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch k {
		case "dir":
			if d, ok := ParseDir(v); ok {
				a.Dir, a.HasDir = d, true
			}
		case "side":
			if n, ok := sideNumber(v); ok {
				a.Side, a.HasSide = n, true
			}
		case "register":
			if n, err := strconv.Atoi(v); err == nil && n >= 1 && n <= Registers {
				a.Register = n
			}
		case "card":
			if n, err := strconv.Atoi(strings.TrimPrefix(strings.ToUpper(v), "P")); err == nil && n > 0 && n < MaxPriority {
				a.Card = n
			}
		case "card2", "primary":
			if n, err := strconv.Atoi(strings.TrimPrefix(strings.ToUpper(v), "P")); err == nil && n > 0 && n < MaxPriority {
				if k == "card2" {
					a.Card2 = n
				} else {
					a.Primary = n
				}
			}
		case "mode":
			a.Mode = strings.ToLower(v)
		case "cards":
			a.Cards = nil
			for _, c := range strings.Split(v, ",") {
				n, err := strconv.Atoi(strings.TrimPrefix(strings.ToUpper(strings.TrimSpace(c)), "P"))
				if err != nil || n <= 0 || n >= MaxPriority || len(a.Cards) >= Registers {
					a.Cards = nil
					break
				}
				a.Cards = append(a.Cards, n)
			}
		case "target":
			a.Target = v
		case "lock":
			if n, err := strconv.Atoi(v); err == nil && n >= 1 && n <= Registers {
				a.Lock = n
			}
		case "steps":
			if n, err := strconv.Atoi(v); err == nil && n >= 0 && n <= 9 {
				a.Steps = n
			}
		case "option":
			a.Option = v
		}
	}
	return a
}

// SideNames are the sides of a robot, clockwise from its front.
var SideNames = [4]string{"front", "right", "back", "left"}

func sideNumber(s string) (int, bool) {
	for i, n := range SideNames {
		if strings.EqualFold(n, s) {
			return i, true
		}
	}
	return 0, false
}

// ask puts option's question to robot i's orders (no target) and reads the answer.
func (t *turn) ask(i int, option, question string) Answer {
	return ParseAnswer(t.decider(i).Option(t.view(i), option, question))
}

// askAbout is ask about another robot j, with what the option would do to it.
func (t *turn) askAbout(i int, option, question string, j int, impact Impact) Answer {
	return ParseAnswer(t.view(i).AskOption(option, question, t.st.Robots[j].Name, impact))
}

// askMode is ask (or askAbout robot j, when j >= 0) for one way of using a card used in
// several (View.Mode).
func (t *turn) askMode(i int, option, question, mode string, isDefault bool, j int, impact Impact) Answer {
	v := t.view(i)
	v.mode, v.modeDefault = mode, isDefault
	if j >= 0 {
		return ParseAnswer(v.AskOption(option, question, t.st.Robots[j].Name, impact))
	}
	return ParseAnswer(t.decider(i).Option(v, option, question))
}
