package orders

import (
	"strconv"
	"strings"
)

// The canonical text of orders: what the reports print as the standing orders in force
// and what a player may copy back into a sheet. For every rule the parser produces,
// ParseRule(r.String()) yields the same rule (TestRuleStringRoundTrip, FuzzRuleString).
//
//	if damage > 3 and not on a flag then power down else come back up
//	discard Brakes to prevent damage
//	use Turret left in register 2

// String is the rule in the order language: "ACTION" for a standing order, "if COND
// then ACTION [else ACTION]" for a conditional one. An Else without an If (which the
// parser never makes) is left out.
func (r Rule) String() string {
	if r.If == nil {
		return r.Then.String()
	}
	var b strings.Builder
	b.WriteString("if ")
	r.If.write(&b, false)
	b.WriteString(" then ")
	b.WriteString(r.Then.String())
	if r.Else != nil {
		b.WriteString(" else ")
		b.WriteString(r.Else.String())
	}
	return b.String()
}

// String is the condition in the order language: "damage > 3", "on a double repair
// site", "not (lives < 2 or on a flag)". "and" binds tighter than "or"; a group inside
// a group of the same kind, or negated, is parenthesised.
func (c Cond) String() string {
	var b strings.Builder
	c.write(&b, false)
	return b.String()
}

// write writes c; inAll says c is an operand of "and", where an "or" group needs
// parentheses.
func (c Cond) write(b *strings.Builder, inAll bool) {
	if c.Not {
		b.WriteString("not ")
	}
	switch {
	case len(c.All) > 0:
		if c.Not {
			b.WriteString("(")
		}
		for i, x := range c.All {
			if i > 0 {
				b.WriteString(" and ")
			}
			x.operand(b, true)
		}
		if c.Not {
			b.WriteString(")")
		}
		return
	case len(c.Any) > 0:
		paren := c.Not || inAll
		if paren {
			b.WriteString("(")
		}
		for i, x := range c.Any {
			if i > 0 {
				b.WriteString(" or ")
			}
			x.operand(b, false)
		}
		if paren {
			b.WriteString(")")
		}
		return
	}
	b.WriteString(c.leaf())
}

// operand writes c as one operand of an "and" (inAll) or an "or" group: a group of the
// same kind is parenthesised so that it stays a group when read back.
func (c Cond) operand(b *strings.Builder, inAll bool) {
	nested := (inAll && len(c.All) > 0 || !inAll && len(c.Any) > 0) && !c.Not
	if nested {
		b.WriteString("(")
		c.write(b, false)
		b.WriteString(")")
		return
	}
	c.write(b, inAll)
}

// squareText is how each square kind is written (parseOn reads it back).
var squareText = map[string]string{
	"flag": "a flag", "repair": "a repair site", "double-repair": "a double repair site",
	"single-repair": "a single repair site", "belt": "a belt", "express-belt": "an express belt",
	"gear": "a gear", "pusher": "a pusher", "crusher": "a crusher", "start": "a start square",
}

func (c Cond) leaf() string {
	op := c.Op
	if op == "" {
		op = "="
	}
	switch c.Test {
	case TestDamage, TestLives, TestRegister, TestFlags, TestOptions, TestEnergy, TestSpam:
		return c.Test + " " + op + " " + strconv.Itoa(c.N)
	case TestDamageWould:
		return "damage would be " + op + " " + strconv.Itoa(c.N)
	case TestFacing:
		return "facing " + c.Arg
	case TestOn:
		if s, ok := squareText[c.Arg]; ok {
			return "on " + s
		}
		return "on a " + c.Arg
	case TestNextPit:
		return "next to a pit"
	case TestOnLaser:
		return "on a laser"
	case TestHolds:
		return "hold " + c.Arg
	case TestDown:
		return "powered down"
	case TestDead:
		return "destroyed"
	case TestTargetDestroyed:
		return "target would be destroyed"
	case TestTargetFalls:
		return "target would fall into a pit"
	case TestIDestroyed:
		return "I would be destroyed"
	case TestIFall:
		return "I would fall into a pit"
	case TestIEndOnLaser:
		return "I would end on a laser"
	}
	return c.Test
}

// String is the action in the order language: "power down", "reenter facing toward the
// next flag", "discard any option to prevent damage", "use Turret left in register 2".
func (a Action) String() string {
	switch a.Do {
	case DoPowerDown:
		return "power down"
	case DoStayDown:
		return "stay down"
	case DoPowerUp:
		return "come back up"
	case DoRepair:
		return "repair"
	case DoTakeOption:
		return "take option"
	case DoFace:
		if a.Dir == "next-flag" {
			return "reenter facing toward the next flag"
		}
		return "reenter facing " + a.Dir
	case DoPreventDamage:
		if a.Option == "" {
			return "discard any option to prevent damage"
		}
		return "discard " + a.Option + " to prevent damage"
	case DoKeepOptions:
		return "keep options"
	case DoLoseOption:
		if a.Option == "" {
			return "lose any option"
		}
		return "lose " + a.Option
	case DoDecline:
		return "don't use " + a.Option
	case DoNothing:
		return "nothing"
	case DoSwapOption:
		return "swap " + a.Option + " for a new option"
	case DoRecharge:
		return "recharge " + a.Option
	case DoDrawUpgrade: // the 2023 upgrade phase
		return "draw upgrade"
	case DoInstall:
		return "install " + a.Option
	case DoInstallDrawn:
		return "install the card I draw"
	case DoUninstall:
		return "uninstall " + a.Option
	case DoKeepArchive:
		return "keep archive"
	case DoMoveArchive:
		return "move archive"
	case DoKeepOption:
		return "keep " + a.Option
	case DoGiveOption:
		if a.Target != "" {
			return "give " + a.Option + " to " + a.Target
		}
		return "give " + a.Option
	case DoUse:
		var b strings.Builder
		b.WriteString("use ")
		b.WriteString(a.Option)
		if a.Dir != "" {
			b.WriteString(" " + a.Dir)
		}
		if a.Register != 0 {
			b.WriteString(" in register " + strconv.Itoa(a.Register))
		}
		if a.Card != 0 {
			b.WriteString(" P" + strconv.Itoa(a.Card))
		}
		for _, c := range a.More {
			if c != 0 {
				b.WriteString(" P" + strconv.Itoa(c))
			}
		}
		if a.Card2 != 0 {
			b.WriteString(" P" + strconv.Itoa(a.Card2))
		}
		if a.Primary != 0 {
			b.WriteString(" primary P" + strconv.Itoa(a.Primary))
		}
		if a.Mode != "" {
			b.WriteString(" " + a.Mode)
		}
		if a.Steps != 0 && cardParams[a.Option].fuel {
			b.WriteString(" fuel " + strconv.Itoa(a.Steps))
		} else if a.Steps != 0 {
			b.WriteString(" " + strconv.Itoa(a.Steps) + " squares")
		}
		if a.Lock != 0 {
			b.WriteString(" lock register " + strconv.Itoa(a.Lock))
		}
		if a.TargetOption != "" {
			b.WriteString(" option " + a.TargetOption)
		}
		if a.Target != "" {
			// Last: a target's name runs to the next keyword.
			b.WriteString(" on " + a.Target)
		}
		return b.String()
	}
	return a.Do
}
