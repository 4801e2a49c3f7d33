package adjudicator

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// The rules settings of a game as players and game masters are told them (LIST, the
// welcome, CREATE's reply, the archive's header): every setting, its value as `game
// create --rules KEY=VALUE` writes it, whether the game changed it from its ruleset,
// and what it means in words. A new Rules field is one entry in ruleTexts
// (TestEverySettingDescribed fails until it has one), so no setting goes unshown.

// RuleSetting is one rules setting of a game.
type RuleSetting struct {
	Key   string // the JSON name: game create --rules KEY=VALUE, CREATE rules.KEY=VALUE
	Value string // as it is written there ("true", "9", "deluxe", "express,belts")
	// Changed: the game's value is not its ruleset's (PostalRules, Rules2023).
	Changed bool
	Text    string // what it means
}

func (s RuleSetting) String() string { return s.Key + "=" + s.Value }

// ruleText describes one setting. which says where it applies: "" both rulesets,
// "postal" or "2023" one of them; a setting that does not apply is shown only when a
// game changed it.
type ruleText struct {
	key, which string
	text       func(r Rules) string
}

func yesNo(b bool, yes, no string) string {
	if b {
		return yes
	}
	return no
}

// ruleTexts lists the settings in the order they are shown, with their meaning.
var ruleTexts = []ruleText{
	{"name", "", func(r Rules) string {
		if r.Own() {
			return "the 2023 rules of the current edition (seed 004)"
		}
		return "the 1997 postal rules on the 1994 game (seed 003)"
	}},
	{"hand_size", "", func(r Rules) string {
		if r.Own() {
			return fmt.Sprintf("each robot draws %d cards from its own deck each round", r.HandSize)
		}
		return fmt.Sprintf("%d cards dealt each turn, one fewer for each point of damage", r.HandSize)
	}},
	{"destroy_at", "postal", func(r Rules) string { return fmt.Sprintf("%d damage destroys a robot", r.DestroyAt) }},
	{"reentry_damage", "", func(r Rules) string {
		if r.Own() {
			return fmt.Sprintf("a rebooting robot takes %d damage cards", r.ReentryDamage)
		}
		return fmt.Sprintf("a destroyed robot re-enters at its archive with %d damage", r.ReentryDamage)
	}},
	{"base_lives", "postal", func(r Rules) string { return fmt.Sprintf("each robot has %d lives", r.BaseLives) }},
	{"life_per_players", "postal", func(r Rules) string {
		return yesNo(r.LifePerPlayers > 0, fmt.Sprintf("one life more with %d or more players", r.LifePerPlayers), "no life more for many players")
	}},
	{"life_per_boards", "postal", func(r Rules) string {
		return yesNo(r.LifePerBoards > 0, fmt.Sprintf("one life more on a course of %d or more boards", r.LifePerBoards), "no life more for a large course")
	}},
	{"max_options", "postal", func(r Rules) string {
		return yesNo(r.MaxOptions > 0, fmt.Sprintf("a robot holds at most %d option cards (a further one drawn makes it give one up)", r.MaxOptions), "no limit on option cards held")
	}},
	{"shared_start", "postal", func(r Rules) string {
		return yesNo(r.SharedStart, "every robot starts on start square 1, virtual until alone (seed 003)", "each robot starts on its own start square")
	}},
	{"option_deck", "postal", func(r Rules) string {
		return fmt.Sprintf("option cards dealt from the %s deck (only cards whose effects are played)", r.OptionDeck)
	}},
	{"option_cards", "postal", func(r Rules) string {
		cards := r.Dealt()
		if len(cards) == 0 {
			return "no option cards are dealt"
		}
		return fmt.Sprintf("the option deck holds %d cards: %s", len(cards), strings.Join(cards, ", "))
	}},
	{"elements", "", func(r Rules) string {
		return "board elements move robots in this order after the cards: " + strings.Join(r.Elements, ", ")
	}},
	{"after_lasers", "postal", func(r Rules) string {
		if len(r.AfterLasers) == 0 {
			return "nothing acts after the lasers"
		}
		return "after the lasers: " + strings.Join(r.AfterLasers, ", ")
	}},
	{"cards", "2023", func(r Rules) string {
		return yesNo(r.Cards == "own", "each robot programs from its own 20-card deck (seed 004)", "one shared program deck, dealt anew each turn")
	}},
	{"order", "2023", func(r Rules) string {
		return yesNo(r.Order == "token", "the priority token's holder acts first, then clockwise (seed 004)", "the higher card priority moves first")
	}},
	{"damage", "2023", func(r Rules) string {
		return yesNo(r.Damage == "cards", "damage is SPAM and Haywire cards (seed 004)", "damage is points")
	}},
	{"fall", "2023", func(r Rules) string {
		return yesNo(r.Fall == "reboot", "a robot falling off or into a pit reboots (seed 004)", "a robot falling off or into a pit is destroyed")
	}},
	{"energy_start", "2023", func(r Rules) string { return fmt.Sprintf("robots start with %d energy", r.EnergyStart) }},
	{"energy_max", "2023", func(r Rules) string {
		return yesNo(r.EnergyMax > 0, fmt.Sprintf("a robot holds at most %d energy", r.EnergyMax), "no energy")
	}},
	{"checkpoint_covers", "2023", func(r Rules) string {
		return yesNo(r.CheckpointCovers, "a board element under a checkpoint does nothing (seed 004)", "board elements under checkpoints act")
	}},
	{"edge_walls", "2023", func(r Rules) string {
		return yesNo(r.EdgeWalls, "the board's edges are walls: nobody falls off (seed 004, A Less Deadly Game)", "robots can fall off the board's edges")
	}},
	{"discard_spam", "2023", func(r Rules) string {
		return yesNo(r.DiscardSpam, "SPAM cards in hand are discarded after programming (seed 004, A Less SPAM-y Game)", "SPAM cards stay in hand")
	}},
	{"lighter", "2023", func(r Rules) string {
		return yesNo(r.Lighter, "no upgrades, energy or batteries (seed 004, A Lighter Game)", "upgrades, energy and batteries are played")
	}},
	{"dynamic_archive", "2023", func(r Rules) string {
		return yesNo(r.DynamicArchive, "ending a register on a checkpoint or battery archives the robot there (seed 004, Dynamic Archiving)", "robots reboot on the reboot token")
	}},
	{"robot_laser", "2023", func(r Rules) string {
		return yesNo(r.RobotLaser == RobotLaserSpam, "a robot's laser deals SPAM cards, the first SPAM from the top of the damage deck (seed 004, Robot Lasers)",
			"a robot's laser deals damage cards drawn from the damage deck as they come, SPAM or Haywire (as games made before the ruling played it)")
	}},
	{"pass_touches", "postal", func(r Rules) string {
		return yesNo(r.PassTouches, "a robot touches its next flag by moving over it as well as by ending a register on it (seed 000)",
			"a flag counts only when a register ends with the robot on it; passing over it does not (seed 003)")
	}},
	{"archive_choice", "postal", func(r Rules) string {
		return yesNo(r.ArchiveChoice, "a robot reaching a flag may keep its archive where it is (\"keep archive\"; seed 000)",
			"a flag reached always becomes the robot's archive (seed 003)")
	}},
	{"tiles", "postal", func(r Rules) string {
		return yesNo(r.Tiles != "", "element tiles laid on the course for this game: "+r.Tiles, "no element tiles laid on the course")
	}},
	{"landing", "postal", func(r Rules) string {
		return yesNo(r.Landing == "next", "a robot falling down a ledge onto another comes down on the next open square and only it is damaged (seed 001)",
			"a robot falling down a ledge onto another pushes it on and both take 2 damage (seed 003, Grand Prix)")
	}},
	{"option_package", "postal", func(r Rules) string {
		switch r.OptionPackage {
		case "standard":
			return "Standard Option Package: each robot draws one option card before the game (seed 001)"
		case "deluxe":
			return "Deluxe Option Package: each robot draws three option cards before the game and keeps one, named by \"keep NAME\" in its turn-1 sheet, else the first drawn (seed 001)"
		}
		return "no option package: robots start without option cards"
	}},
	{"turbo_wrenches", "postal", func(r Rules) string {
		return yesNo(r.TurboWrenches, "Turbo Wrenches: a wrench site may give option cards instead of repairs (\"take option card\"; seed 001)",
			"wrench sites repair (a double wrench may give one option card instead)")
	}},
	{"scavenger_hunt", "postal", func(r Rules) string {
		switch r.ScavengerHunt {
		case 1:
			return "Scavenger Hunt I: a pile of option cards lies at each flag but the last; a robot first reaching the flag takes one, named by \"keep NAME\", else the top card (seed 001)"
		case 2:
			return "Scavenger Hunt II: a pile of option cards lies at each flag but the last; a robot first reaching the flag receives the one the player to its left names by \"give NAME\", else the top card (seed 001)"
		}
		return "no Scavenger Hunt piles at the flags"
	}},
	{"bio_bots", "postal", func(r Rules) string {
		return yesNo(r.BioBots, "Bio-Bots: every robot has a Bio Option carrying one more option card, swapped for a new one at each power down and re-entry (seed 001)",
			"no Bio-Bots")
	}},
}

// Settings lists every setting of the rules that applies to them, and any other the game
// changed, in ruleTexts order.
func (r Rules) Settings() []RuleSetting {
	base, err := RulesByName(r.Name)
	if err != nil {
		base = PostalRules()
	}
	mine, theirs := settingValues(r), settingValues(base)
	which := "postal"
	if r.Own() {
		which = "2023"
	}
	var out []RuleSetting
	for _, rt := range ruleTexts {
		v := mine[rt.key] // a setting left out of the JSON (omitempty) is ""
		changed := v != theirs[rt.key]
		if rt.key == "option_cards" {
			// Fixed when the game is made; a change is a deck other than the one its
			// option_deck deals today.
			base := r
			base.OptionCards = nil
			changed = !slices.Equal(r.Dealt(), base.Dealt())
			v = fmt.Sprintf("(%d cards)", len(r.Dealt())) // the text names them
		}
		if rt.key == "name" {
			changed = false
		}
		if !changed && rt.which != "" && rt.which != which {
			continue
		}
		out = append(out, RuleSetting{Key: rt.key, Value: v, Changed: changed, Text: rt.text(r)})
	}
	return out
}

// Changed lists the settings the game changed from its ruleset, as KEY=VALUE words.
func (r Rules) Changed() []string {
	var out []string
	for _, s := range r.Settings() {
		if s.Changed {
			out = append(out, s.String())
		}
	}
	return out
}

// settingValues is each setting's value as Set reads it: true/false, numbers, words,
// lists joined by commas.
func settingValues(r Rules) map[string]string {
	b, _ := json.Marshal(r)
	var m map[string]json.RawMessage
	_ = json.Unmarshal(b, &m)
	out := make(map[string]string, len(m))
	for k, raw := range m {
		var list []string
		var s string
		switch {
		case json.Unmarshal(raw, &s) == nil:
			out[k] = s
		case json.Unmarshal(raw, &list) == nil:
			out[k] = strings.Join(list, ",")
		default:
			out[k] = string(raw)
		}
	}
	return out
}
