package narrate

import (
	"fmt"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// The narration of the 2023 rules' events (seed 004; docs/rules-2023.md): cards named by
// kind, SPAM and Again replaced by the top of the deck, Haywire cards revealed, damage
// cards and where they go, energy, reboots, shutdown, the upgrade phase and the priority
// token. Narrate calls these when the deck is named by kind.

// ownCardHead is the start of a card's line: "Twonky plays Move 2", "Twonky's face-down
// Haywire Lurch is revealed", "Twonky reveals SPAM".
func ownCardHead(e adjudicator.Event, k adjudicator.CardKind) string {
	switch {
	case k.Haywire():
		return fmt.Sprintf("%s's face-down %s is revealed and played", e.Robot, k.Title())
	case k == adjudicator.CardSpam:
		return fmt.Sprintf("%s reveals SPAM", e.Robot)
	}
	return fmt.Sprintf("%s plays %s", e.Robot, k.Title())
}

// ownCardEvent adds a 2023 event to the open card line and reports whether it belonged
// there: a replacement card, Again, energy from Power Up or a Haywire, a reshuffle.
func (n *narrator) ownCardEvent(e adjudicator.Event) bool {
	c := n.card
	if e.Robot != c.robot {
		return false
	}
	switch e.Kind {
	case adjudicator.EvCard:
		if e.Cause != "replacement" {
			return false
		}
		k := adjudicator.CardKind(e.Card)
		c.back = k.Steps() < 0
		return true
	case adjudicator.EvReplaced:
		n.flushMoves()
		old := adjudicator.CardKind(e.Card).Title()
		switch e.Cause {
		case "empty-deck":
			c.clauses = append(c.clauses, fmt.Sprintf("%s is discarded; its deck and discard pile are empty, so the register plays nothing", old))
		case "unknown":
			c.clauses = append(c.clauses, fmt.Sprintf("%s is replaced by the top card of its deck (unknown)", old))
		default:
			c.clauses = append(c.clauses, fmt.Sprintf("%s is replaced by the top card of its deck: %s", old, adjudicator.CardKind(e.Amount).Title()))
		}
		return true
	case adjudicator.EvAgain:
		n.flushMoves()
		if e.Card == 0 {
			c.clauses = append(c.clauses, "Again has nothing to repeat")
		} else {
			k := adjudicator.CardKind(e.Card)
			c.back = k.Steps() < 0
			c.clauses = append(c.clauses, "Again repeats "+k.Title())
		}
		return true
	case adjudicator.EvEnergy:
		if e.Phase != "move" {
			return false
		}
		n.flushMoves()
		c.clauses = append(c.clauses, fmt.Sprintf("energy %d", e.Amount))
		return true
	case adjudicator.EvReshuffle:
		n.flushMoves()
		c.clauses = append(c.clauses, fmt.Sprintf("its discard pile is shuffled into a new deck of %s", plural(e.Amount, "card")))
		return true
	}
	return false
}

// ownSingle narrates a 2023 event that is a line of its own; ok is false for an event
// it does not know.
func ownSingle(e adjudicator.Event) (line string, ok bool) {
	switch e.Kind {
	case adjudicator.EvPriority:
		return fmt.Sprintf("%s now holds the priority token", e.Robot), true
	case adjudicator.EvEnergy:
		switch e.Cause {
		case "battery":
			return fmt.Sprintf("%s charges at the battery: energy %d", e.Robot, e.Amount), true
		case "power-up", "haywire":
			return fmt.Sprintf("%s gains energy (%s): energy %d", e.Robot, e.Cause, e.Amount), true
		case "":
			return fmt.Sprintf("%s has energy %d", e.Robot, e.Amount), true
		}
		return fmt.Sprintf("%s pays energy for %s: energy %d", e.Robot, e.Cause, e.Amount), true
	case adjudicator.EvNoDamage:
		if adjudicator.CardKind(e.Card) == adjudicator.CardSpam {
			// Ruling R-ROBOT-LASER-SPAM: a robot's laser deals SPAM only.
			return fmt.Sprintf("no SPAM card is left for %s in the damage deck or its discard pile: the point of damage is lost", e.Robot), true
		}
		return fmt.Sprintf("no damage card is left for %s: the point of damage is lost", e.Robot), true
	case adjudicator.EvReshuffle:
		if e.Robot == "" && e.Cause == "damage-under" {
			return fmt.Sprintf("the damage deck holds no SPAM: the damage discard pile (%s) is shuffled and put under it", plural(e.Amount, "card")), true
		}
		if e.Robot == "" {
			return fmt.Sprintf("the damage discard pile is shuffled into a new damage deck of %s", plural(e.Amount, "card")), true
		}
		return fmt.Sprintf("%s shuffles its discard pile into a new deck of %s", e.Robot, plural(e.Amount, "card")), true
	case adjudicator.EvReboot:
		return fmt.Sprintf("%s %s", e.Robot, fallText(e, "")), true
	case adjudicator.EvRevealed:
		return fmt.Sprintf("%s reveals %s in register %d", e.Robot, adjudicator.CardKind(e.Card).Title(), e.Amount), true
	case adjudicator.EvShutdown:
		return fmt.Sprintf("%s shuts down for the round: it plays no cards and discards %s", e.Robot, plural(e.Amount, "damage card")), true
	case adjudicator.EvUpgrade:
		switch e.Cause {
		case "draw":
			return fmt.Sprintf("%s buys an upgrade for 1 energy: %s", e.Robot, e.Option), true
		case "install":
			return fmt.Sprintf("%s installs %s for %s", e.Robot, e.Option, fmt.Sprintf("%d energy", e.Amount)), true
		case "uninstall":
			return fmt.Sprintf("%s uninstalls %s", e.Robot, e.Option), true
		}
	case adjudicator.EvAgain:
		if e.Card == 0 {
			return fmt.Sprintf("%s's Again has nothing to repeat", e.Robot), true
		}
		return fmt.Sprintf("%s's Again repeats %s", e.Robot, adjudicator.CardKind(e.Card).Title()), true
	case adjudicator.EvReplaced:
		return fmt.Sprintf("%s's %s is replaced by the top card of its deck", e.Robot, adjudicator.CardKind(e.Card).Title()), true
	}
	return "", false
}

// damageCardText is one damage card drawn, where it went: "SPAM (to its discard pile)".
func damageCardText(e adjudicator.Event) string {
	k := adjudicator.CardKind(e.Card).Title()
	switch e.Cause {
	case "register":
		return fmt.Sprintf("%s (face down under register %d, played there next round)", k, e.Amount)
	case "damage-discard":
		return fmt.Sprintf("%s (the register holds a Haywire already: to the damage discard pile)", k)
	}
	return k + " (to its discard pile)"
}

// ownDamage is the line of a hit under the 2023 rules, with the damage cards drawn;
// ok is false for a hit the postal lines tell.
func ownDamage(e adjudicator.Event, cards string) (string, bool) {
	switch {
	case e.Cause == "reboot":
		return fmt.Sprintf("%s draws %s for rebooting%s", e.Robot, plural(e.Amount, "damage card"), cards), true
	case e.Other != "" || e.Cause == "laser" || e.Cause == "" || e.Cause == "ram":
		return hitText(e) + cards, true
	}
	return fmt.Sprintf("%s takes %s (%s)%s", e.Robot, plural(e.Amount, "damage card"), e.Cause, cards), true
}
