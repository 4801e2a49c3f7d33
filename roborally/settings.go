package roborally

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// SettingsReader reads RoboRally's own CREATE settings — the ruleset (rules=postal|2023),
// any rules setting (rules.KEY=VALUE), the option variants of seed 001 and the 2023
// variants by name (variants=a,b), the option deck (options=none|crash-burn|
// armed-dangerous|both), the 2023 variants as switches (lighter=yes, act-fast=yes, ...)
// — one key at a time, in the order the caller reads its keys (sorted), beside the
// settings the judge reads itself; Finish gives the ruleset. Its errors are written
// for the game master.
type SettingsReader struct {
	rules    adjudicator.Rules
	rulesMap map[string]any
	variants map[string]string
	options  string
}

// NewSettingsReader starts from the postal rules.
func NewSettingsReader() *SettingsReader {
	return &SettingsReader{rules: adjudicator.PostalRules(), rulesMap: map[string]any{}, variants: map[string]string{}}
}

// Takes reports whether key is one of RoboRally's settings (Read reads it).
func (s *SettingsReader) Takes(key string) bool {
	return key == "rules" || strings.HasPrefix(key, "rules.") || key == "variants" || key == "options" ||
		key == ActFastKey || VariantByKey(key) != nil
}

// Read reads one setting Takes took.
func (s *SettingsReader) Read(k, v string) error {
	switch {
	case k == "rules":
		r, err := adjudicator.RulesByName(v)
		if err != nil {
			return err
		}
		s.rules = r
	case strings.HasPrefix(k, "rules."):
		s.rulesMap[strings.TrimPrefix(k, "rules.")] = v
	case k == "variants":
		// seed 001's option variants by name (adjudicator/variants.go), and seed
		// 004's (the 2023 variants, variants.go) switched on by name too.
		var rest []string
		for _, name := range strings.Split(v, ",") {
			if name = strings.ToLower(strings.TrimSpace(name)); name == ActFastKey || VariantByKey(name) != nil {
				s.variants[name] = "yes"
			} else if name != "" {
				rest = append(rest, name)
			}
		}
		v = strings.Join(rest, ",")
		kvs, err := adjudicator.VariantSettings(v)
		if err != nil {
			return err
		}
		for _, kv := range kvs {
			if old, ok := s.rulesMap[kv[0]]; ok && old != kv[1] {
				return fmt.Errorf("variants=%s sets %s=%s, but rules.%s=%v is given too", v, kv[0], kv[1], kv[0], old)
			}
			s.rulesMap[kv[0]] = kv[1]
		}
	case k == ActFastKey || VariantByKey(k) != nil:
		s.variants[k] = v // the 2023 variants, once the ruleset is known (Finish)
	case k == "options":
		// The option deck (adjudicator/optiondeck.go): only cards that work are dealt.
		d, ok := adjudicator.ParseOptionDeck(v)
		if !ok {
			return fmt.Errorf("options %q: want none, crash-burn, armed-dangerous or both", v)
		}
		s.options = v
		s.rulesMap["option_deck"] = string(d)
	default:
		return fmt.Errorf("%s is not a setting of RoboRally", k)
	}
	return nil
}

// Finish is the ruleset the settings read make, and whether act-fast=yes was given. The
// rules settings are set in the order of their names, so that the first error is
// always the same one.
func (s *SettingsReader) Finish() (adjudicator.Rules, bool, error) {
	rules := s.rules
	if rules.Own() && s.options != "" {
		return rules, false, fmt.Errorf("options=%s: the 2023 rules have upgrades (seed 004), not option cards; leave options out", s.options)
	}
	actFast, err := ApplyVariants(&rules, s.variants)
	if err != nil {
		return rules, false, err
	}
	for _, k := range slices.Sorted(maps.Keys(s.rulesMap)) {
		if k == "name" {
			return rules, false, fmt.Errorf("rules.name cannot be set: write rules=postal or rules=2023")
		}
		if err := rules.Set(k, fmt.Sprint(s.rulesMap[k])); err != nil {
			return rules, false, fmt.Errorf("rules: %v", err)
		}
	}
	return rules, actFast, nil
}
