package judge

import (
	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/roborally"
	"github.com/rallyjudge/rallyjudge/store"
)

// The judge's side of the rulesets (seeds 003 and 004; docs/rules-2023.md): what the
// 2023 variants, the ruleset and the missed-orders policy are in words, and the
// judge's refusals. The rules themselves are RoboRally's (package roborally: the
// variants, how a round's orders are put together for the engine).

// applyVariants sets the 2023 variants CREATE named (kv: key → value) on rules, which
// must be the 2023 rules; actFast reports act-fast=yes (roborally.ApplyVariants).
func applyVariants(rules *adjudicator.Rules, kv map[string]string) (actFast bool, err error) {
	actFast, err = roborally.ApplyVariants(rules, kv)
	if err != nil {
		return false, refuse("%v.", err)
	}
	return actFast, nil
}

// variantsText is the ruleset and its variants in words, for LIST, the settings shown back,
// the welcome and the reports.
func variantsText(r adjudicator.Rules, g store.Game, o Options) string {
	if g.Kind != "" {
		return g.Kind + "'s own (set at CREATE)"
	}
	return roborally.RulesText(r, o.policy(g))
}

// gameRules is the game's ruleset as stored (the postal rules for a game stored before
// rules were kept).
func gameRules(g store.Game) adjudicator.Rules {
	r, _ := roborally.ReadRules(g.Rules)
	return r
}

// missedText is the missed-orders policy in words for the game's ruleset.
func missedText(g store.Game, o Options) string {
	if g.Kind != "" {
		return "the game's autopilot plays the move"
	}
	return roborally.MissedText(gameRules(g), o.policy(g))
}
