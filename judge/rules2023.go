package judge

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/store"
)

// The judge's side of the 2023 rules (seed 004; docs/rules-2023.md): the variants as
// game settings, the ruleset in words, and how a round's orders are put together for
// the engine (a sheet's OwnOrders, the missed-orders policies). The engine plays the
// rules; this file only decides what it is given.

// variant2023 is one of seed 004's variants as a CREATE setting (key=yes|no). Each sets
// rules of the engine (adjudicator.Rules), so a game's archive carries it.
type variant2023 struct {
	key, title string
	set        func(r *adjudicator.Rules, on bool)
	on         func(r adjudicator.Rules) bool
}

var variants2023 = []variant2023{
	{key: "lighter", title: "A Lighter Game (no upgrades, energy or batteries)",
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
	{key: "less-deadly", title: "A Less Deadly Game (the board's edges are walls)",
		set: func(r *adjudicator.Rules, on bool) { r.EdgeWalls = on },
		on:  func(r adjudicator.Rules) bool { return r.EdgeWalls }},
	{key: "less-spammy", title: "A Less SPAM-y Game (SPAM left in hand is discarded after programming)",
		set: func(r *adjudicator.Rules, on bool) { r.DiscardSpam = on },
		on:  func(r adjudicator.Rules) bool { return r.DiscardSpam }},
	{key: "dynamic-archive", title: "Dynamic Archiving (reboot where the robot last ended a register on a checkpoint or battery)",
		set: func(r *adjudicator.Rules, on bool) { r.DynamicArchive = on },
		on:  func(r adjudicator.Rules) bool { return r.DynamicArchive }},
}

// actFastKey is Act Fast (seed 004): not a rule of the engine but of the deadline. By
// mail the registers left empty at the deadline are those of a robot with no valid
// program: they are filled at random from its hand (the missed-orders policy random).
// Ruling R-ACT-FAST: a sheet is a whole program or none (a short program is an error the
// player is told at once and may correct before the deadline), so only a missing
// program reaches the deadline with empty registers.
const actFastKey = "act-fast"

func variantByKey(key string) *variant2023 {
	for i := range variants2023 {
		if variants2023[i].key == key {
			return &variants2023[i]
		}
	}
	return nil
}

// yesNo reads a switch setting's value.
func yesNo(key, v string) (bool, error) {
	switch strings.ToLower(v) {
	case "yes", "on", "true", "1":
		return true, nil
	case "no", "off", "false", "0":
		return false, nil
	}
	if b, err := strconv.ParseBool(v); err == nil {
		return b, nil
	}
	return false, refuse("%s %q: want yes or no.", key, v)
}

// applyVariants sets the 2023 variants CREATE named (kv: key → value) on rules, which
// must be the 2023 rules; actFast reports act-fast=yes.
func applyVariants(rules *adjudicator.Rules, kv map[string]string) (actFast bool, err error) {
	keys := make([]string, 0, len(kv))
	for k := range kv {
		if k == actFastKey || variantByKey(k) != nil {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		on, err := yesNo(k, kv[k])
		if err != nil {
			return false, err
		}
		if !rules.Own() {
			return false, refuse("%s is a variant of the 2023 rules (seed 004); this game plays the %s rules: add rules=2023.", k, rules.Name)
		}
		if k == actFastKey {
			actFast = on
			continue
		}
		variantByKey(k).set(rules, on)
	}
	return actFast, nil
}

// variantsText is the ruleset and its variants in words, for LIST, the settings shown back,
// the welcome and the reports.
func variantsText(r adjudicator.Rules, g store.Game, o Options) string {
	if g.Kind != "" {
		return g.Kind + "'s own (set at CREATE)"
	}
	if !r.Own() {
		deck := string(r.OptionDeck)
		if deck == "" {
			deck = "none"
		}
		return fmt.Sprintf("postal (seed 003), option cards: %s", deck)
	}
	var vs []string
	for _, v := range variants2023 {
		if v.on(r) {
			vs = append(vs, v.title)
		}
	}
	if o.policy(g) == string(store.MissedRandom) {
		vs = append(vs, "Act Fast (registers left empty at the deadline are filled at random)")
	}
	if len(vs) == 0 {
		return "2023 (seed 004), no variants"
	}
	return "2023 (seed 004) with " + strings.Join(vs, "; ")
}

// gameRules is the game's ruleset as stored (the postal rules for a game stored before
// rules were kept).
func gameRules(g store.Game) adjudicator.Rules {
	r := adjudicator.PostalRules()
	if len(g.Rules) > 0 && string(g.Rules) != "{}" {
		_ = json.Unmarshal(g.Rules, &r)
	}
	return r
}

// missedText is the missed-orders policy in words for the game's ruleset.
func missedText(g store.Game, o Options) string {
	if g.Kind != "" {
		return "the game's autopilot plays the move"
	}
	p := o.policy(g)
	if r := gameRules(g); !r.Own() {
		return p
	}
	switch p {
	case string(store.MissedPowerDown):
		return "powerdown (under the 2023 rules: the robot shuts down for the round)"
	case string(store.MissedRandom):
		return "random (Act Fast: every register filled at random from the hand)"
	}
	return p
}
