package roborally

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// Variant is one of seed 004's variants as a CREATE setting (key=yes|no). Each sets
// rules of the engine (adjudicator.Rules), so a game's archive carries it.
type Variant struct {
	Key, Title string
	set        func(r *adjudicator.Rules, on bool)
	on         func(r adjudicator.Rules) bool
}

// On reports whether the variant is set in r.
func (v Variant) On(r adjudicator.Rules) bool { return v.on(r) }

// Variants2023 are the 2023 variants, in the order they are listed.
var Variants2023 = []Variant{
	{Key: "lighter", Title: "A Lighter Game (no upgrades, energy or batteries)",
		set: func(r *adjudicator.Rules, on bool) {
			r.Lighter = on
			if on { // seed 004, A Lighter Game: no energy tracking
				r.EnergyStart, r.EnergyMax = 0, 0
			} else {
				d := adjudicator.Rules2023()
				r.EnergyStart, r.EnergyMax = d.EnergyStart, d.EnergyMax
			}
		},
		on: func(r adjudicator.Rules) bool { return r.Lighter }},
	{Key: "less-deadly", Title: "A Less Deadly Game (the board's edges are walls)",
		set: func(r *adjudicator.Rules, on bool) { r.EdgeWalls = on },
		on:  func(r adjudicator.Rules) bool { return r.EdgeWalls }},
	{Key: "less-spammy", Title: "A Less SPAM-y Game (SPAM left in hand is discarded after programming)",
		set: func(r *adjudicator.Rules, on bool) { r.DiscardSpam = on },
		on:  func(r adjudicator.Rules) bool { return r.DiscardSpam }},
	{Key: "dynamic-archive", Title: "Dynamic Archiving (reboot where the robot last ended a register on a checkpoint or battery)",
		set: func(r *adjudicator.Rules, on bool) { r.DynamicArchive = on },
		on:  func(r adjudicator.Rules) bool { return r.DynamicArchive }},
}

// ActFastKey is Act Fast (seed 004): not a rule of the engine but of the deadline. By
// mail the registers left empty at the deadline are those of a robot with no valid
// program: they are filled at random from its hand (the missed-orders policy random).
// Ruling R-ACT-FAST: a sheet is a whole program or none (a short program is an error the
// player is told at once and may correct before the deadline), so only a missing
// program reaches the deadline with empty registers.
const ActFastKey = "act-fast"

// VariantByKey is the 2023 variant CREATE names key; nil when there is none.
func VariantByKey(key string) *Variant {
	for i := range Variants2023 {
		if Variants2023[i].Key == key {
			return &Variants2023[i]
		}
	}
	return nil
}

// YesNo reads a switch setting's value.
func YesNo(key, v string) (bool, error) {
	switch strings.ToLower(v) {
	case "yes", "on", "true", "1":
		return true, nil
	case "no", "off", "false", "0":
		return false, nil
	}
	if b, err := strconv.ParseBool(v); err == nil {
		return b, nil
	}
	return false, fmt.Errorf("%s %q: want yes or no", key, v)
}

// ApplyVariants sets the 2023 variants CREATE named (kv: key → value; other keys are
// left alone) on rules, which must be the 2023 rules; actFast reports act-fast=yes.
func ApplyVariants(rules *adjudicator.Rules, kv map[string]string) (actFast bool, err error) {
	for _, k := range slices.Sorted(maps.Keys(kv)) {
		if k != ActFastKey && VariantByKey(k) == nil {
			continue
		}
		on, err := YesNo(k, kv[k])
		if err != nil {
			return false, err
		}
		if !rules.Own() {
			return false, fmt.Errorf("%s is a variant of the 2023 rules (seed 004); this game plays the %s rules: add rules=2023", k, rules.Name)
		}
		if k == ActFastKey {
			actFast = on
			continue
		}
		VariantByKey(k).set(rules, on)
	}
	return actFast, nil
}

// RulesText is the ruleset and its variants in words, for LIST, the settings shown
// back, the welcome and the reports; policy is the game's missed-orders policy (Act
// Fast is the policy random under the 2023 rules).
func RulesText(r adjudicator.Rules, policy string) string {
	if !r.Own() {
		deck := string(r.OptionDeck)
		if deck == "" {
			deck = "none"
		}
		return fmt.Sprintf("postal (seed 003), option cards: %s", deck)
	}
	var vs []string
	for _, v := range Variants2023 {
		if v.on(r) {
			vs = append(vs, v.Title)
		}
	}
	if policy == MissedRandom {
		vs = append(vs, "Act Fast (registers left empty at the deadline are filled at random)")
	}
	if len(vs) == 0 {
		return "2023 (seed 004), no variants"
	}
	return "2023 (seed 004) with " + strings.Join(vs, "; ")
}

// MissedText is the missed-orders policy in words for the ruleset.
func MissedText(r adjudicator.Rules, policy string) string {
	if !r.Own() {
		return policy
	}
	switch policy {
	case MissedPowerDown:
		return "powerdown (under the 2023 rules: the robot shuts down for the round)"
	case MissedRandom:
		return "random (Act Fast: every register filled at random from the hand)"
	}
	return policy
}

// ListText is a game's ruleset in LIST's words: the 2023 rules with their variants
// (RulesText), or the postal rules' option deck and every setting the game changed
// (adjudicator/rulestext.go), the option deck said apart. rawRules is the game's rules
// as stored (unreadable: the postal rules with the Crash & Burn deck, as a game stored
// before rules were kept).
func ListText(rawRules []byte, policy string) string {
	var r adjudicator.Rules
	rules, deck := "postal", "crash-burn"
	var changed []string
	if err := json.Unmarshal(rulesOf(rawRules), &r); err == nil {
		if r.Name != "" {
			rules = r.Name
		}
		if r.OptionDeck != "" {
			deck = string(r.OptionDeck)
		}
		for _, s := range r.Settings() {
			if s.Changed && s.Key != "option_deck" {
				changed = append(changed, s.String())
			}
		}
	}
	if r.Own() { // the 2023 rules: upgrades, not option cards; the variants by name
		return "rules: " + RulesText(r, policy)
	}
	if len(changed) > 0 {
		rules += " with " + strings.Join(changed, " ")
	}
	return fmt.Sprintf("option cards: %s; rules: %s", deck, rules)
}

// WelcomeText is the ruleset's line in a welcome: the 2023 rules with their variants
// (RulesText); "" under the postal rules, whose welcome lists the rules settings.
func WelcomeText(r adjudicator.Rules, policy string) string {
	if !r.Own() {
		return ""
	}
	return RulesText(r, policy)
}
