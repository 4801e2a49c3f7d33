package roborally

import (
	"encoding/json"
	"fmt"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// ReadRules is a game's ruleset as stored (the postal rules for a game stored before
// rules were kept: nothing, or "{}").
func ReadRules(raw []byte) (adjudicator.Rules, error) {
	raw = rulesOf(raw)
	rules := adjudicator.PostalRules()
	if len(raw) > 0 && string(raw) != "{}" {
		if err := json.Unmarshal(raw, &rules); err != nil {
			return rules, fmt.Errorf("rules: %w", err)
		}
	}
	return rules, nil
}

// NewSetup is a game's engine setup from its course, ruleset and seed: the option (or
// upgrade) cards are fixed for the game from its creation on.
func NewSetup(c *adjudicator.Course, rules adjudicator.Rules, seed int64) (*adjudicator.Setup, error) {
	if rules.Own() {
		// The 2023 rules have no option deck: a stored "" reads back as "none"
		// (OptionDeck.UnmarshalText), which would show as a setting the game changed.
		rules.OptionDeck = ""
	}
	if rules.OptionCards == nil { // fixed for the game from its creation on
		rules.OptionCards = rules.Dealt()
		if rules.Own() {
			// The 2023 rules deal upgrades (seed 004; ruling R-UPGRADE-DECK: the twelve,
			// as many copies as data/upgrades2023.txt says); the lighter game none.
			rules.OptionCards = []string{}
			if !rules.Lighter {
				for _, u := range adjudicator.Upgrades2023() {
					for range u.Copies {
						rules.OptionCards = append(rules.OptionCards, u.Name)
					}
				}
			}
		}
	}
	return adjudicator.NewSetup(c, rules, uint64(seed), rules.OptionCards)
}

// CheckDeck says whether a game's option deck (options: the cards dealt, as stored or
// archived) holds only cards this engine plays. A 2023 game's deck is its upgrades,
// which NewSetup checks.
func CheckDeck(rules adjudicator.Rules, options []string) error {
	if rules.Own() {
		return nil
	}
	for _, o := range options {
		if !adjudicator.Implemented(o) {
			return fmt.Errorf("option deck holds %s, which this judge does not implement", o)
		}
	}
	return nil
}

// rulesOf is the engine's rules in a game's stored settings: games.rules_json holds them
// bare for a game stored before the seam, inside the Kind's Config (course, rules,
// missed) for one behind it.
func rulesOf(raw []byte) []byte {
	var c struct {
		Course *string         `json:"course"`
		Rules  json.RawMessage `json:"rules"`
	}
	if json.Unmarshal(raw, &c) == nil && c.Course != nil && len(c.Rules) > 0 && c.Rules[0] == '{' {
		return c.Rules
	}
	return raw
}
