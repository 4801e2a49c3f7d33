package adjudicator

// The option variants of seed 001 ("Option Variants"), played as rules settings so that
// a game chooses them when it is made (game create --rules KEY=VALUE, CREATE) and its
// archive keeps them (the rules travel with every archive):
//
//   - Standard Option Package (Rules.OptionPackage "standard"): before the game each
//     robot draws one option card at random, in seating order (NewGame).
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
//   - Not yet playable, and refused by Rules.Check rather than played as nothing:
//     Deluxe Option Package (three drawn and one kept: the choice wants an order before
//     the first turn), Scavenger Hunt I and II (a pile of options at each flag, chosen by
//     the robot's controller or by the player to its left), Bio-Bots (needs Bio Option).

// optionPackages are the values of Rules.OptionPackage this engine plays.
var optionPackages = []string{"", "standard"}

// dealPackages gives each robot its option package before the first turn.
func (t *turn) dealPackages() {
	if t.setup.Rules.OptionPackage != "standard" {
		return
	}
	for i := range t.st.Robots {
		t.drawOption(i) // seed 001, Standard Option Package: one random option card
	}
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
