package adjudicator

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Impossible states (issue 12): a state read from outside (a saved turn, a scenario, an
// archive) is checked before it is played, and one that no game could reach is refused
// with every reason, never played. The engine itself never makes one.

// MaxTurn is the highest turn number a state may carry (a game of a turn a day for
// 270 years): beyond it a number is a typo or an attack, not a game.
const MaxTurn = 100000

// StateError lists every reason a state is impossible.
type StateError struct {
	Problems []string
}

func (e *StateError) Error() string {
	return "impossible state: " + strings.Join(e.Problems, "; ")
}

// CheckState reports whether st is a state the game s could reach between turns: a
// *StateError naming every reason when it is not.
func (s *Setup) CheckState(st *State) error {
	if st == nil {
		return errors.New("impossible state: no state")
	}
	var ps []string
	add := func(format string, a ...any) { ps = append(ps, fmt.Sprintf(format, a...)) }
	if st.Turn < 1 || st.Turn > MaxTurn {
		add("turn %d: want 1 to %d", st.Turn, MaxTurn)
	}
	switch {
	case len(st.Robots) == 0:
		add("no robots")
	case len(st.Robots) > MaxRobots:
		add("%d robots, at most %d", len(st.Robots), MaxRobots)
	}
	b := s.Course.Board
	own := s.Rules.Own() // the 2023 rules: hands hold card kinds; no damage points or lives
	names := map[string]string{}
	squares := map[Pos]string{}
	cards := map[int]string{}
	useCard := func(who string, c int) {
		if c == 0 || own {
			return
		}
		if s.Deck.Kind(c) == NoCard {
			add("robot %s: P%d is not a card of the deck", who, c)
			return
		}
		if other, dup := cards[c]; dup {
			if other == who {
				add("robot %s: holds P%d twice", who, c)
			} else {
				add("P%d is held or played by both %s and %s", c, other, who)
			}
			return
		}
		cards[c] = who
	}
	for i := range st.Robots {
		r := &st.Robots[i]
		who := r.Name
		if strings.TrimSpace(who) == "" {
			who = fmt.Sprintf("in seat %d", i+1)
			add("the robot in seat %d has no name", i+1)
		} else if msg := NameProblem(who); msg != "" {
			who = fmt.Sprintf("in seat %d", i+1) // never echoed: it could rewrite the terminal
			add("the name of the robot in seat %d: %s, which is not allowed in names", i+1, msg)
		} else if other, dup := names[strings.ToLower(who)]; dup {
			add("two robots are named %s (%s)", who, other)
		} else {
			names[strings.ToLower(who)] = who
		}
		if r.Damage < 0 || r.Lives < 0 || r.Flags < 0 {
			add("robot %s: damage, lives and flags cannot be negative", who)
		}
		if r.Flags > len(s.Course.Flags) {
			add("robot %s: %d flags touched but the course has %d", who, r.Flags, len(s.Course.Flags))
		}
		if !own && !r.Out {
			// seed 003, Damage: the tenth point of damage destroys a robot; a
			// destroyed robot without lives left is out of the race.
			if r.Damage >= 10 {
				add("robot %s: %d damage on a robot in play (10 destroys it)", who, r.Damage)
			}
			if r.Lives == 0 {
				add("robot %s: no lives left but not out of the race", who)
			}
		}
		if !r.Out && !own { // the 2023 rules have no archive markers: robots reboot
			if !b.In(r.Archive) {
				add("robot %s: archive %v is off the board", who, r.Archive)
			} else if b.Deadly(r.Archive) {
				add("robot %s: archive %v is a pit", who, r.Archive)
			}
		}
		if !r.Out && !r.Destroyed {
			switch {
			case !b.In(r.Pos):
				add("robot %s: square %v is off the board", who, r.Pos)
			case b.Deadly(r.Pos) && !slices.ContainsFunc(st.Devices, func(d Device) bool { return d.Kind == DevBridge && d.Pos == r.Pos }):
				add("robot %s: stands on the pit at %v", who, r.Pos)
			case !r.Virtual:
				if other, dup := squares[r.Pos]; dup {
					add("robots %s and %s stand on the same square %v", other, who, r.Pos)
				} else {
					squares[r.Pos] = who
				}
			}
		}
		// a game that ended mid-turn stops where it was (turn.go: a register after the
		// winning flag is not played, nor the end of the turn), so its last position keeps
		// the programs in their registers: only a game still to play must be between turns
		if !own && !st.Over {
			locked := r.Locked()
			for reg := 1; reg <= Registers; reg++ {
				if c := r.Registers[reg-1]; c != 0 && !r.IsLocked(reg) && !r.Out {
					add("robot %s: register %d holds P%d but is not locked (between turns only locked registers hold cards)", who, reg, c)
				}
			}
			if r.Power == PowerDown && locked > 0 && !r.Out {
				for reg := Registers - locked + 1; reg <= Registers; reg++ {
					if r.Registers[reg-1] != 0 {
						add("robot %s: powered down but register %d holds a locked card (a power down repairs all damage)", who, reg)
						break
					}
				}
			}
			// The deal is the rules' hand size less damage; Extra Memory deals one more
			// (seed 000) and a Flywheel's card joins the hand dealt (seed 000, Flywheel),
			// so a robot holding them may hold 10 or 11 cards (scenarios 300, 363).
			most := s.Rules.HandSize
			if most <= 0 {
				most = 9
			}
			for _, o := range []string{"Extra Memory", "Flywheel"} {
				if slices.Contains(r.Options, o) {
					most++
				}
			}
			if len(r.Hand) > most {
				add("robot %s: %d cards in hand, at most %d are dealt", who, len(r.Hand), most)
			}
		}
		for _, c := range r.Hand {
			useCard(who, c)
		}
		for _, c := range r.BombHand {
			useCard(who, c)
		}
		if len(r.BombHand) > 0 && (len(r.BombHand) != buzzBombCards || !slices.Contains(r.Options, "Buzz Bomb")) {
			add("robot %s: %d cards for a buzz bomb (only a robot holding Buzz Bomb is dealt them, %d)", who, len(r.BombHand), buzzBombCards)
		}
		for _, c := range r.Registers {
			useCard(who, c)
		}
		useCard(who, r.Flywheel)
		if max := s.Rules.MaxOptions; max > 0 && r.Counted() > max {
			add("robot %s: holds %d options, the rules allow %d", who, r.Counted(), max)
		}
		// The option variants (seed 001; variants.go).
		if len(r.Offered) > 0 && (s.Rules.OptionPackage != "deluxe" || st.Turn != 1 || len(r.Offered) > deluxeDraw) {
			add("robot %s: %d option cards offered to keep (only a Deluxe Option Package offers them, at most %d, before turn 1 is played)", who, len(r.Offered), deluxeDraw)
		}
		if r.Bio != "" && ((!s.Rules.BioBots && !slices.Contains(r.Options, BioOption)) || !slices.Contains(r.Options, r.Bio) || r.Bio == BioOption) {
			add("robot %s: %s on its Bio Option, but only a Bio-Bot or a robot holding Bio Option has one, and the card must be another of its options", who, r.Bio)
		}
	}
	if len(st.Piles) > 0 && (s.Rules.ScavengerHunt == 0 || len(st.Piles) > max(len(s.Course.Flags)-1, 0)) {
		add("%d Scavenger Hunt piles (only Scavenger Hunt deals them, one for each flag but the last)", len(st.Piles))
	}
	for k, p := range st.Piles {
		if len(p) > len(st.Robots) {
			add("Scavenger Hunt pile %d holds %d cards, more than the %d robots", k+1, len(p), len(st.Robots))
		}
	}
	s.checkDevices(st, add, useCard) // devices.go
	// Every option card is in the deck once: held, to draw or discarded.
	known := optionNamesLower()
	where := map[string]string{}
	copies := map[string]int{}
	option := func(name, place string) {
		k := strings.ToLower(name)
		if !known[k] && !own { // the 2023 rules hold upgrade cards: their names are checked by their rules
			add("option %s (%s) is not an option card", name, place)
			return
		}
		if u, ok := UpgradeByName(name); own && ok {
			// The 2023 upgrade deck holds each card as many times as it has copies
			// (ruling R-UPGRADE-DECK, upgrades.go): a new game's deck was refused here.
			if copies[k]++; copies[k] > u.Copies {
				add("upgrade %s is in the game %d times (the last %s), the deck has %d", name, copies[k], place, u.Copies)
			}
			return
		}
		if other, dup := where[k]; dup {
			add("option %s is both %s and %s: every card is in the deck once", name, other, place)
			return
		}
		where[k] = place
	}
	eachOptionCard(st, option)
	if len(ps) == 0 {
		return nil
	}
	if len(ps) > 20 {
		ps = append(ps[:20], fmt.Sprintf("and %d more", len(ps)-20))
	}
	return &StateError{Problems: ps}
}

// CheckOptionDeck reports an option card of st (held, to draw or discarded) that is not
// among the game's option cards, s.Options: a saved turn's "options" is the deck every
// one of them comes from.
func (s *Setup) CheckOptionDeck(st *State) error {
	in := map[string]bool{}
	for _, o := range s.Options {
		in[strings.ToLower(o)] = true
	}
	var ps []string
	check := func(name, place string) {
		if !in[strings.ToLower(name)] {
			ps = append(ps, fmt.Sprintf("option %s (%s) is not in the game's option deck", name, place))
		}
	}
	eachOptionCard(st, check)
	if len(ps) == 0 {
		return nil
	}
	return &StateError{Problems: ps}
}

// eachOptionCard calls f with every option card of st and where it lies: held, in the
// draw or discard pile, offered (Deluxe Option Package) or in a Scavenger Hunt pile.
func eachOptionCard(st *State, f func(name, place string)) {
	for _, r := range st.Robots {
		for _, o := range r.Options {
			f(o, "held by "+r.Name)
		}
	}
	for _, o := range st.OptionDeck {
		f(o, "in the draw pile")
	}
	for _, o := range st.OptionDiscard {
		f(o, "in the discard pile")
	}
	for _, r := range st.Robots {
		for _, o := range r.Offered {
			f(o, "offered to "+r.Name)
		}
	}
	for k, p := range st.Piles {
		for _, o := range p {
			f(o, fmt.Sprintf("in the Scavenger Hunt pile of flag %d", k+1))
		}
	}
}

// optionNamesLower is every option card's name in lower case, read once from the
// embedded list: CheckState asks at every position read (the judge reads one several
// times a turn), and reading the list was half of it.
var optionNamesLower = sync.OnceValue(func() map[string]bool {
	known := map[string]bool{}
	for _, o := range OptionNames() {
		known[strings.ToLower(o)] = true
	}
	return known
})
