package templates

import (
	"fmt"
	"strings"

	"github.com/rallyjudge/rallyjudge/orders"
)

// RuleText writes a standing or conditional order back in the order language of
// docs/orders.md ("if damage > 3 then power down, else come back up"), so that a report
// can show the orders in force and a player can copy them into a sheet:
// orders.ParseRule reads the text back to the same rule.
func RuleText(r orders.Rule) string {
	then := ActionText(r.Then)
	if r.If == nil {
		return then
	}
	s := fmt.Sprintf("if %s then %s", CondText(*r.If), then)
	if r.Else != nil {
		s += ", else " + ActionText(*r.Else)
	}
	return s
}

// CondText writes a condition in the order language.
func CondText(c orders.Cond) string {
	var s string
	switch {
	case len(c.All) > 0:
		s = joinConds(c.All, " and ", true)
	case len(c.Any) > 0:
		s = joinConds(c.Any, " or ", false)
	default:
		s = testText(c)
	}
	if c.Not {
		if len(c.All) > 0 || len(c.Any) > 0 {
			return "not (" + s + ")"
		}
		return "not " + s
	}
	return s
}

func joinConds(cs []orders.Cond, sep string, inAll bool) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		t := CondText(c)
		// "and" binds tighter than "or": an "or" inside an "and" needs parentheses; so
		// does a nested group of the same kind, to keep the structure as it was.
		if (len(c.Any) > 0 || (len(c.All) > 0 && !inAll)) && !c.Not {
			t = "(" + t + ")"
		}
		parts[i] = t
	}
	return strings.Join(parts, sep)
}

var squareText = map[string]string{
	"flag": "a flag", "repair": "a repair site", "double-repair": "a double repair site",
	"single-repair": "a single repair site", "belt": "a belt", "express-belt": "an express belt",
	"gear": "a gear", "pusher": "a pusher", "crusher": "a crusher", "start": "a start square",
}

func testText(c orders.Cond) string {
	switch c.Test {
	case orders.TestDamage, orders.TestLives, orders.TestRegister, orders.TestFlags, orders.TestOptions:
		op := c.Op
		if op == "" {
			op = "="
		}
		return fmt.Sprintf("%s %s %d", c.Test, op, c.N)
	case orders.TestFacing:
		return "facing " + c.Arg
	case orders.TestOn:
		if s, ok := squareText[c.Arg]; ok {
			return "on " + s
		}
		return "on " + c.Arg
	case orders.TestNextPit:
		return "next to a pit"
	case orders.TestOnLaser:
		return "on a laser"
	case orders.TestHolds:
		return "I hold " + c.Arg
	case orders.TestDown:
		return "powered down"
	case orders.TestDead:
		return "destroyed"
	case orders.TestTargetDestroyed:
		return "target would be destroyed"
	case orders.TestTargetFalls:
		return "target would fall into a pit"
	case orders.TestIDestroyed:
		return "I would be destroyed"
	case orders.TestIFall:
		return "I would fall into a pit"
	case orders.TestIEndOnLaser:
		return "I would end on a laser"
	}
	return c.Test
}

// ActionText writes an action in the order language.
func ActionText(a orders.Action) string {
	switch a.Do {
	case orders.DoPowerDown:
		return "power down"
	case orders.DoStayDown:
		return "stay down"
	case orders.DoPowerUp:
		return "come back up"
	case orders.DoRepair:
		return "repair"
	case orders.DoTakeOption:
		return "take option"
	case orders.DoFace:
		if a.Dir == "next-flag" || a.Dir == "" {
			return "reenter facing toward the next flag"
		}
		return "reenter facing " + a.Dir
	case orders.DoPreventDamage:
		if a.Option == "" {
			return "discard any option to prevent damage"
		}
		return "discard " + a.Option + " to prevent damage"
	case orders.DoKeepOptions:
		return "keep options"
	case orders.DoLoseOption:
		if a.Option == "" {
			return "lose any option"
		}
		return "lose " + a.Option
	case orders.DoUse:
		s := "use " + a.Option
		if a.Dir != "" {
			s += " " + a.Dir
		}
		if a.Register != 0 {
			s += fmt.Sprintf(" in register %d", a.Register)
		}
		if a.Target != "" {
			s += " on " + a.Target
		}
		if a.Card != 0 {
			s += fmt.Sprintf(" P%d", a.Card)
		}
		return s
	case orders.DoDecline:
		return "don't use " + a.Option
	case orders.DoNothing:
		return "do nothing"
	}
	return a.Do
}
