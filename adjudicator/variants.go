package adjudicator

import (
	"fmt"
	"slices"
	"strings"
)

// The option variants of seed 001 ("Option Variants"), played as rules settings so that
// a game chooses them when it is made (game create --rules KEY=VALUE, CREATE) and its
// archive keeps them (the rules travel with every archive). Seed 001 plays them "in
// addition to the standard option rules": a double wrench still offers a card, a
// destroyed robot still loses one, and so on. docs/options.md, "Option variants", says
// the same for players and game masters.
//
//   - Standard Option Package (Rules.OptionPackage "standard"): before the game each
//     robot draws one option card at random, in seating order (NewGame).
//
//   - Deluxe Option Package (OptionPackage "deluxe"): before the game each robot draws
//     three cards (Robot.Offered) and keeps one. By mail the choice is an order: the
//     welcome shows the three, and the turn-1 sheet says "keep NAME" (several keep lines
//     are a preference list: the first card offered wins). The choice is made at the
//     start of turn 1, before the first register, so the kept card works through all of
//     turn 1. Ruling: without an order the robot keeps the first card drawn (a random
//     card, since the deck is shuffled). Ruling: the two cards not kept go to the option
//     discard pile (seed 001 does not say; "keeps one" puts the others out of play, as
//     any discarded option).
//
//   - Turbo Wrenches (Rules.TurboWrenches): a robot ending a turn on a one-wrench site may
//     take an option card instead of the repair; on a two-wrench site it may draw two
//     and keep one instead of the repairs. The choice between repair and option is the
//     robot's double-wrench order ("take option card", default repair); which of the two
//     cards goes is its lose-option decision (LossTurboWrench, "lose Brakes"), whose
//     default is, as always, the oldest option held: a robot that held none gives up the
//     first card drawn. Ruling: a decision naming a card held before (the default, for a
//     robot that held options) cannot give that card up here; the second card drawn goes
//     instead. Ruling: a flag is not a wrench site, so a flag's repair stays
//     a repair. Ruling: with nothing left to draw the site repairs, as on a double
//     wrench today (endturn.go).
//
//   - Scavenger Hunt I and II (Rules.ScavengerHunt 1 or 2): before the game a pile of
//     option cards, one card for each robot, is dealt for every flag but the last
//     (State.Piles). The first time a robot reaches each of those flags it receives one
//     card of the pile: under I its own orders choose ("keep NAME"), under II the orders
//     of the player to the left of it ("give NAME", PickScavengerFor). Ruling: the
//     player to the left is the next robot in seating order that is still in the race
//     (seats go clockwise, seed 003's turn order around the table); with nobody else
//     left, the robot's own orders choose. Ruling: without an order the top card of the
//     pile is taken. Ruling: a pile the deck could not fill holds what there was, and an
//     empty pile gives nothing. Ruling: a robot already holding Rules.MaxOptions cards
//     still takes one and then gives one up, as when drawing (LossFourth).
//
//   - Bio-Bots (Rules.BioBots): every robot has a Bio Option as standard equipment, and
//     the Bio Option card is out of the deck (Rules.Dealt). The option riding on it is
//     Robot.Bio, one of the robot's Options, so every rule about held options applies to
//     it (it works, it may be discarded to prevent damage, it may be the option lost on
//     destruction); the Bio Option itself is never held, lost or discarded. Seed 001,
//     Bio Option: a robot receiving it takes another option at once (NewGame); each time
//     it powers down, it discards the option on it and draws another; withdrawing its
//     archive copy (re-entry) does the same. Ruling: the card on the Bio Option does not
//     count against Rules.MaxOptions: the variant gives it as equipment beyond the cards
//     the robot collects (a robot holding the card Bio Option would also hold it and its
//     rider). Ruling: a robot powers down when it announces a power down, is forced
//     down, or stays down for another turn (each is a power down that repairs it,
//     endturn.go). Ruling: if the card on the Bio Option is lost (destroyed, discarded
//     to prevent damage, exchanged by another robot's card), the Bio Option is empty
//     until the robot next powers down or re-enters, and then it draws a new card
//     (seed 001, Bio-Bots: "it may be replaced ... the next time the robot powers
//     down"); a card exchanged onto the robot in its place is an ordinary held card.

// BioOption is the option card every robot has as equipment with Rules.BioBots.
const BioOption = "Bio Option"

// optionPackages are the values of Rules.OptionPackage this engine plays.
var optionPackages = []string{"", "standard", "deluxe"}

// deluxeDraw is how many cards the Deluxe Option Package draws (seed 001: "draws three
// option cards and keeps one").
const deluxeDraw = 3

// checkVariants refuses option variants that cannot be played.
func (r Rules) checkVariants() error {
	if !slices.Contains(optionPackages, r.OptionPackage) {
		return fmt.Errorf("rules: option package %q (want \"\", \"standard\" or \"deluxe\")", r.OptionPackage)
	}
	if r.ScavengerHunt < 0 || r.ScavengerHunt > 2 {
		return fmt.Errorf("rules: scavenger hunt %d (want 0 for none, 1 or 2: seed 001, Scavenger Hunt I and II)", r.ScavengerHunt)
	}
	if r.Own() && (r.OptionPackage != "" || r.TurboWrenches || r.ScavengerHunt != 0 || r.BioBots) {
		return fmt.Errorf("rules: option packages, Turbo Wrenches, Scavenger Hunt and Bio-Bots are seed 001's option variants; the 2023 rules have no option cards")
	}
	return nil
}

// Counted is the number of options the robot holds that count against Rules.MaxOptions:
// all of them but the one on a Bio-Bot's Bio Option.
func (r *Robot) Counted() int {
	if r.Bio != "" && slices.Contains(r.Options, r.Bio) {
		return len(r.Options) - 1
	}
	return len(r.Options)
}

// dealPackages deals the option variants' cards before the first turn: the option
// packages in seating order, then the Bio-Bots' first cards in seating order, then the
// Scavenger Hunt piles, flag by flag.
func (t *turn) dealPackages() {
	rules := t.setup.Rules
	switch rules.OptionPackage {
	case "standard":
		for i := range t.st.Robots {
			t.drawOption(i) // seed 001, Standard Option Package: one random option card
		}
	case "deluxe":
		for i := range t.st.Robots {
			r := &t.st.Robots[i]
			for range deluxeDraw { // seed 001, Deluxe Option Package: three drawn
				card, ok := t.topOption()
				if !ok {
					break
				}
				r.Offered = append(r.Offered, card)
			}
		}
	}
	if rules.BioBots {
		for i := range t.st.Robots {
			t.bioDraw(i, "bio-option") // seed 001, Bio Option: "immediately take another option"
		}
	}
	if rules.ScavengerHunt > 0 {
		// seed 001, Scavenger Hunt I: a pile for each flag but the last, as many cards
		// as there are players.
		n := len(t.setup.Course.Flags) - 1
		t.st.Piles = make([][]string, max(n, 0))
		for k := range t.st.Piles {
			for range t.st.Robots {
				card, ok := t.topOption()
				if !ok {
					break
				}
				t.st.Piles[k] = append(t.st.Piles[k], card)
			}
		}
	}
}

// keepPackages makes each robot holding a Deluxe Option Package keep one of its cards,
// at the start of turn 1 (its orders, PickDeluxe); the others are discarded.
func (t *turn) keepPackages() {
	for i := range t.st.Robots {
		r := &t.st.Robots[i]
		if len(r.Offered) == 0 {
			continue
		}
		offered := r.Offered
		r.Offered = nil
		if r.Out {
			t.st.OptionDiscard = append(t.st.OptionDiscard, offered...)
			continue
		}
		k := t.pick(i, i, PickDeluxe, offered)
		for j, o := range offered {
			if j != k {
				t.st.OptionDiscard = append(t.st.OptionDiscard, o)
			}
		}
		t.gainOption(i, offered[k], "deluxe")
	}
}

// pick asks robot chooser's orders which of cards robot i takes (an index, the first
// when the orders say nothing or name a card not offered).
func (t *turn) pick(chooser, i int, why Pick, cards []string) int {
	pd, ok := t.decider(chooser).(PickDecider)
	if !ok {
		return 0
	}
	v := t.view(chooser)
	if i != chooser {
		v.target = i + 1
	}
	k := pd.PickOption(v, why, slices.Clone(cards))
	if k < 0 || k >= len(cards) {
		return 0
	}
	return k
}

// gainOption gives robot i the option card (not from the deck) and applies the limit on
// options held.
func (t *turn) gainOption(i int, card, cause string) {
	r := &t.st.Robots[i]
	r.Options = append(r.Options, card)
	t.fxOK[i] = false
	t.emit(Event{Kind: EvOptionGain, Robot: r.Name, Option: card, Cause: cause})
	t.receivedBio(i, card)
	t.keepMaxOptions(i)
}

// scavenge gives robot i, which has just reached flag n for the first time, a card of
// that flag's Scavenger Hunt pile (seed 001, Scavenger Hunt I and II).
func (t *turn) scavenge(i, n int) {
	k := n - 1
	if t.setup.Rules.ScavengerHunt == 0 || k < 0 || k >= len(t.st.Piles) || len(t.st.Piles[k]) == 0 || t.single >= 0 {
		return
	}
	pile := t.st.Piles[k]
	why, chooser := PickScavenger, i
	if t.setup.Rules.ScavengerHunt == 2 {
		why, chooser = PickScavengerFor, t.leftOf(i)
		if chooser == i {
			why = PickScavenger
		}
	}
	c := t.pick(chooser, i, why, pile)
	card := pile[c]
	t.st.Piles[k] = append(pile[:c:c], pile[c+1:]...)
	t.gainOption(i, card, "scavenger-hunt")
}

// leftOf is the robot whose player sits to the left of robot i's: the next seat still in
// the race, i itself when there is none.
func (t *turn) leftOf(i int) int {
	n := len(t.st.Robots)
	for k := 1; k < n; k++ {
		j := (i + k) % n
		if !t.st.Robots[j].Out {
			return j
		}
	}
	return i
}

// bioSwap is a Bio-Bot's swap when it powers down or re-enters: the option on its Bio
// Option is discarded and another drawn (seed 001, Bio Option).
func (t *turn) bioSwap(i int, cause string) {
	if !t.bioHolder(i) {
		return
	}
	r := &t.st.Robots[i]
	if r.Out {
		return
	}
	if k := slices.Index(r.Options, r.Bio); r.Bio != "" && k >= 0 {
		opt := t.removeOption(i, k)
		t.emit(Event{Kind: EvOptionLose, Robot: r.Name, Option: opt, Cause: cause})
	}
	r.Bio = ""
	t.bioDraw(i, cause)
}

// bioDraw draws a card onto robot i's Bio Option; nothing when the deck is empty.
func (t *turn) bioDraw(i int, cause string) {
	r := &t.st.Robots[i]
	if t.single >= 0 {
		// Ruling R-FORECAST-HIDDEN: a forecast draws no option card (drawOption).
		if len(t.st.OptionDeck)+len(t.st.OptionDiscard) > 0 {
			t.emit(Event{Kind: EvOptionGain, Robot: r.Name, Cause: "unknown"})
		}
		return
	}
	card, ok := t.topOption()
	if !ok {
		return
	}
	r.Options = append(r.Options, card)
	r.Bio = card
	t.fxOK[i] = false
	t.emit(Event{Kind: EvOptionGain, Robot: r.Name, Option: card, Cause: cause})
}

// settleBio forgets a Bio Option's card that left the robot some other way (exchanged
// by an option card): the card given in its place is an ordinary held card, under the
// limit on options held.
func (t *turn) settleBio(i int) {
	r := &t.st.Robots[i]
	if r.Bio != "" && (!slices.Contains(r.Options, r.Bio) || !t.bioHolder(i)) {
		// The card left, or (the Bio Option card, cards_armed.go) the Bio Option itself
		// was exchanged away: what was on it is an ordinary held card now.
		r.Bio = ""
		t.keepMaxOptions(i)
	}
}

// bioHolder reports whether robot i has a Bio Option: as a Bio-Bot, or holding the card
// (seed 001, Bio Option; cards_armed.go).
func (t *turn) bioHolder(i int) bool {
	return t.setup.Rules.BioBots || slices.Contains(t.st.Robots[i].Options, BioOption)
}

// turboWrench plays Turbo Wrenches for robot i on a site of that many wrenches; it
// reports whether the robot took options (and so is not repaired).
func (t *turn) turboWrench(i, wrenches int) bool {
	if t.decider(i).DoubleWrench(t.view(i)) != TakeOption {
		return false
	}
	if wrenches < 2 {
		return t.drawOption(i)
	}
	r := &t.st.Robots[i]
	t.drawingTwo = true
	first := t.drawOption(i)
	second := first && t.drawOption(i)
	t.drawingTwo = false
	if second {
		// Of the two drawn (the last two held), one goes back.
		n := len(r.Options)
		idx := t.decider(i).LoseOption(t.view(i), LossTurboWrench)
		if idx != n-2 && idx != n-1 {
			idx = n - 1
		}
		opt := t.removeOption(i, idx)
		t.emit(Event{Kind: EvOptionLose, Robot: r.Name, Option: opt, Cause: "turbo-wrenches"})
	}
	if first {
		t.keepMaxOptions(i)
	}
	return first
}

// Variants are the names of seed 001's option variants as a game master writes them
// (CREATE variants=deluxe-package,bio-bots; game create --variants), each with the rules
// settings it stands for.
var Variants = []struct {
	Name     string
	Aliases  []string
	Settings [][2]string
}{
	{"standard-package", []string{"standard", "standard-option-package"}, [][2]string{{"option_package", "standard"}}},
	{"deluxe-package", []string{"deluxe", "deluxe-option-package"}, [][2]string{{"option_package", "deluxe"}}},
	{"turbo-wrenches", []string{"turbo"}, [][2]string{{"turbo_wrenches", "true"}}},
	{"scavenger-hunt-1", []string{"scavenger-hunt", "scavenger-hunt-i", "scavenger-1"}, [][2]string{{"scavenger_hunt", "1"}}},
	{"scavenger-hunt-2", []string{"scavenger-hunt-ii", "scavenger-2"}, [][2]string{{"scavenger_hunt", "2"}}},
	{"bio-bots", []string{"biobots", "bio"}, [][2]string{{"bio_bots", "true"}}},
}

// VariantSettings reads variant names joined by commas ("deluxe-package,bio-bots";
// "none" for none) into the rules settings they stand for. Two option packages or two
// Scavenger Hunts are refused: a game plays one of each.
func VariantSettings(words string) ([][2]string, error) {
	var out [][2]string
	seen := map[string]string{}
	for _, w := range strings.Split(words, ",") {
		w = strings.ToLower(strings.TrimSpace(w))
		w = strings.NewReplacer("_", "-", " ", "-", "&", "-").Replace(w)
		if w == "" || w == "none" {
			continue
		}
		found := false
		for _, v := range Variants {
			if w != v.Name && !slices.Contains(v.Aliases, w) {
				continue
			}
			found = true
			for _, kv := range v.Settings {
				if other, dup := seen[kv[0]]; dup && other != v.Name {
					return nil, fmt.Errorf("variants: %s and %s cannot be played together (one %s)", other, v.Name, kv[0])
				}
				seen[kv[0]] = v.Name
				out = append(out, kv)
			}
		}
		if !found {
			names := make([]string, len(Variants))
			for i, v := range Variants {
				names[i] = v.Name
			}
			return nil, fmt.Errorf("variants: unknown variant %q (want %s, or none)", w, strings.Join(names, ", "))
		}
	}
	return out, nil
}
