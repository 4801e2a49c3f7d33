// Package demobots is RoboRally's side of `rallyjudge demo`: the bots that mail
// RoboRally order sheets (a program and standing orders), the demo's RoboRally options
// (course, rules, option deck, variants) as CREATE settings, and what the demo prints
// of a race (a line per turn, the final standings, the option cards used).
//
// The judge's demo (judge.RunDemo) runs the mail servers, the game and the seat kept
// for a person, and never asks which game it plays: it asks a judge.DemoGame, which
// Demo is, through the game seam (game.Position). The engine's state is reached here
// with roborally.Engine. The package depends on the engines (adjudicator, roborally,
// autopilot), never on the judge or the store; cmd/rallyjudge wires it in.
package demobots

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/autopilot"
	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/internal/near"
	"github.com/rallyjudge/rallyjudge/roborally"
)

// Options are the demo's RoboRally options.
type Options struct {
	Course string // a shipped course; default "sprint" ("docking-run" under the 2023 rules)
	// Bot chooses a bot's program and standing orders; nil plays a random legal program
	// (roborally.RandomProgram). Autopilot is the autopilot's choice.
	Bot func(setup *adjudicator.Setup, st *adjudicator.State, robot int) (program [adjudicator.Registers]int, standing []string)
	// OptionDeck is the game's option deck (adjudicator.OptionDeck); "" for the default
	// (crash-burn).
	OptionDeck string
	// Variants are seed 001's option variants by name, joined by commas
	// (adjudicator.VariantSettings: "deluxe-package,bio-bots"), or under the 2023 rules
	// seed 004's variants ("less-deadly,act-fast"); "" for none.
	Variants string
	// Rules is the ruleset: "" or "postal", or "2023" (seed 004; the course then
	// defaults to docking-run, a 2023 course).
	Rules string
}

// Robots are the bots' names, the seats in order.
var Robots = []string{"Twonky", "Zoombot", "Hulk", "Spinbot"}

// Demo is a RoboRally demo (judge.DemoGame). It counts the option cards used as the
// turns are printed (Uses); a Demo plays one demo.
type Demo struct {
	o Options
	// Uses counts the option cards the robots used (EvUse events), by card.
	Uses map[string]int
}

// New is a demo with the options o.
func New(o Options) *Demo { return &Demo{o: o} }

// Autopilot is how `rallyjudge demo`'s bots choose their programs: the autopilot's best
// program for the hand, with its suggested standing orders.
func Autopilot(setup *adjudicator.Setup, st *adjudicator.State, robot int) ([adjudicator.Registers]int, []string) {
	p := autopilot.Choose(setup, st, robot)
	return p.Program, p.Orders
}

// UsesOf is the number of uses of the cards of one expansion ("C&B", "A&D").
func (d *Demo) UsesOf(source string) int {
	n := 0
	for card, k := range d.Uses {
		if c, ok := adjudicator.OptionCardNamed(card); ok && c.Source == source {
			n += k
		}
	}
	return n
}

// Setup is the race's settings as CREATE names them (roborally.Kind.Configure reads
// them), checked: an unknown course, ruleset, deck or variant is an error that says
// what there is.
func (d *Demo) Setup() (game.DemoSetup, error) {
	o := &d.o
	if o.Course == "" {
		o.Course = "sprint"
		if o.Rules == "2023" {
			o.Course = "docking-run"
		}
	}
	var ds game.DemoSetup
	if _, err := adjudicator.LoadCourse(o.Course); err != nil && !strings.ContainsAny(o.Course, "/.") {
		// The near courses, and not the game's own words (issue 22: "game demo: course
		// \"sprnt\": no shipped course ...").
		return ds, fmt.Errorf("demo: there is no shipped course %q; %s", o.Course, near.Hint(o.Course, adjudicator.Courses(), "courses are"))
	}
	settings := map[string]string{"course": o.Course, "missed": "random"}
	var note string
	if o.Rules != "" && o.Rules != "postal" {
		// The 2023 rules (seed 004): Variants are its variants as CREATE names them
		// ("less-deadly,act-fast"), each switched on.
		if o.OptionDeck != "" {
			return ds, fmt.Errorf("demo: the %s rules have no option cards (--options)", o.Rules)
		}
		if _, err := adjudicator.RulesByName(o.Rules); err != nil {
			return ds, fmt.Errorf("demo: %w", err)
		}
		settings["rules"] = o.Rules
		for _, v := range strings.Split(o.Variants, ",") {
			if v = strings.TrimSpace(v); v == "" {
				continue
			}
			if v != roborally.ActFastKey && roborally.VariantByKey(v) == nil {
				return ds, fmt.Errorf("demo: %q is not a variant of the 2023 rules (want lighter, less-deadly, less-spammy, dynamic-archive, act-fast)", v)
			}
			// The demo's game fills a missed program at random (Act Fast) either way.
			settings[v] = "yes"
		}
	} else if o.OptionDeck != "" || o.Variants != "" {
		if o.OptionDeck != "" {
			if _, ok := adjudicator.ParseOptionDeck(o.OptionDeck); !ok {
				return ds, fmt.Errorf("demo: option deck %q: want none, crash-burn, armed-dangerous (armed) or both", o.OptionDeck)
			}
			settings["options"] = o.OptionDeck
		}
		kvs, err := adjudicator.VariantSettings(o.Variants)
		if err != nil {
			return ds, fmt.Errorf("demo: %v", err)
		}
		if o.Variants != "" {
			settings["variants"] = o.Variants
		}
		if o.OptionDeck != "" && o.OptionDeck != "none" && !slices.ContainsFunc(kvs, func(kv [2]string) bool { return kv[0] == "option_package" }) {
			// A robot draws an option card only ending a turn on a double wrench, which
			// the bots' short races seldom do: with --options alone they held no card
			// and used none (issue 22). The demo deals each robot one card before the
			// game (seed 001's Standard Option Package), so the cards are played.
			settings["rules.option_package"] = "standard"
			note = "Each robot starts with one option card (the standard-package variant; --variants deluxe-package offers three to choose from).\n"
		}
	}
	course := o.Course
	return game.DemoSetup{
		Game: roborally.Kind{}.Name(), Title: "Demo race", Settings: settings, Players: Robots, Note: note,
		Headline: func(bots []string) string {
			return fmt.Sprintf("on course %s, robots %s", course, strings.Join(bots, ", "))
		},
	}, nil
}

// Orders is the sheet a bot mails for its robot: the program (postal: P-cards or
// "locked"; 2023: cards by kind) and the standing orders; none for a robot out of the
// race.
func (d *Demo) Orders(pos game.Position, seat, turn int, seed int64) (string, bool) {
	st, setup, ok := roborally.Engine(pos)
	if !ok || seat < 0 || seat >= len(st.Robots) || st.Robots[seat].Out {
		return "", false
	}
	r := st.Robots[seat]
	var prog [adjudicator.Registers]int
	var standing []string
	if d.o.Bot != nil {
		prog, standing = d.o.Bot(setup, st, seat)
	} else {
		prog = roborally.RandomProgram(setup, st, seat, seed+99, turn)
	}
	var body strings.Builder
	switch {
	case r.Mat != nil: // the 2023 rules: cards by kind, "-" for a register holding a face-down Haywire
		if prog != ([adjudicator.Registers]int{}) { // none when the bot shuts down
			body.WriteString(roborally.OwnProgramText(prog) + "\n")
		}
	case r.Power != adjudicator.PowerDown:
		for _, p := range prog {
			if p == 0 {
				fmt.Fprintf(&body, "locked\n")
			} else {
				fmt.Fprintf(&body, "P%d\n", p)
			}
		}
	}
	for _, s := range standing {
		body.WriteString(s + "\n")
	}
	return body.String(), true
}

// TurnLine is the robots after a turn, in a line, and counts the option cards the
// turn's events used.
func (d *Demo) TurnLine(pos game.Position, events []byte) string {
	st, _, ok := roborally.Engine(pos)
	if !ok {
		return "(not a RoboRally game)"
	}
	if err := d.countUses(events); err != nil {
		return err.Error()
	}
	return standingsLine(st)
}

// countUses adds the option cards used in a turn to d.Uses: the cards' uses and the
// devices launched.
func (d *Demo) countUses(raw []byte) error {
	events, err := roborally.TurnEvents(raw)
	if err != nil {
		return fmt.Errorf("demo: a turn's events: %w", err)
	}
	// A device laid or launched (a mine, goo, The Big One ...) and a flight (Big Jet,
	// which logs no use of its own) are uses of their card too, unless the card's use
	// was logged already in that register.
	type use struct {
		robot, option string
		register      int
	}
	used := map[use]bool{}
	for _, e := range events {
		if e.Kind == adjudicator.EvUse && e.Option != "" {
			used[use{e.Robot, e.Option, e.Register}] = true
		}
	}
	for _, e := range events {
		counts := e.Kind == adjudicator.EvUse ||
			((e.Kind == adjudicator.EvLaunch || e.Kind == adjudicator.EvFlew) && !used[use{e.Robot, e.Option, e.Register}])
		if counts && e.Option != "" {
			if d.Uses == nil {
				d.Uses = map[string]int{}
			}
			d.Uses[e.Option]++
		}
	}
	return nil
}

// End is the final table, the option cards used (or held) and who won.
func (d *Demo) End(pos game.Position, turns int) string {
	st, _, ok := roborally.Engine(pos)
	if !ok {
		return "(not a RoboRally game)\n"
	}
	var b strings.Builder
	b.WriteString(standingsTable(st) + "\n")
	if len(d.Uses) > 0 {
		cards := make([]string, 0, len(d.Uses))
		for c := range d.Uses {
			cards = append(cards, c)
		}
		sort.Strings(cards)
		var parts []string
		for _, c := range cards {
			parts = append(parts, fmt.Sprintf("%s %d", c, d.Uses[c]))
		}
		what := "Option cards" // a 2023 game's bots use upgrades (seed 004), not option cards
		if d.o.Rules == "2023" {
			what = "Upgrades"
		}
		fmt.Fprintf(&b, "%s used: %s.\n", what, strings.Join(parts, ", "))
	} else if d.o.OptionDeck != "none" && d.o.Rules != "2023" {
		// Say so when no card was used (the bug: demo --options crash-burn printed what
		// demo prints, as if the option had done nothing), and what the bots held.
		fmt.Fprintf(&b, "Option cards used: none. %s\n", heldOptions(st))
	}
	if st.Over && st.Winner != "" {
		fmt.Fprintf(&b, "%s wins the race.\n", st.Winner)
	} else {
		fmt.Fprintf(&b, "No winner after %d turns.\n", turns)
	}
	return b.String()
}

func standingsLine(st *adjudicator.State) string {
	var parts []string
	for _, r := range st.Robots {
		if r.Out {
			parts = append(parts, r.Name+" out")
			continue
		}
		if r.Mat != nil { // the 2023 rules: checkpoints, energy, upgrades
			where := r.Pos.String()
			if r.Destroyed {
				where = "rebooting"
			}
			parts = append(parts, fmt.Sprintf("%s %s cp %d energy %d upgrades %d", r.Name, where, r.Flags, r.Mat.Energy, len(r.Options)))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %v flags %d dmg %d", r.Name, r.Pos, r.Flags, r.Damage))
	}
	return strings.Join(parts, " | ")
}

func standingsTable(st *adjudicator.State) string {
	rs := append([]adjudicator.Robot(nil), st.Robots...)
	sort.SliceStable(rs, func(a, b int) bool {
		if rs[a].Name == st.Winner || rs[b].Name == st.Winner {
			return rs[a].Name == st.Winner
		}
		if rs[a].Flags != rs[b].Flags {
			return rs[a].Flags > rs[b].Flags
		}
		return rs[a].Lives > rs[b].Lives
	})
	var b strings.Builder
	b.WriteString("STANDINGS\n")
	for i, r := range rs {
		state := fmt.Sprintf("flags %d, lives %d, damage %d", r.Flags, r.Lives, r.Damage)
		if r.Mat != nil {
			state = fmt.Sprintf("checkpoints %d, energy %d, upgrades: %s", r.Flags, r.Mat.Energy, listOr(r.Options, "none"))
		}
		if r.Out {
			state = fmt.Sprintf("flags %d, out of the race", r.Flags)
		}
		fmt.Fprintf(&b, "  %d. %-8s %s\n", i+1, r.Name, state)
	}
	return b.String()
}

func listOr(xs []string, none string) string {
	if len(xs) == 0 {
		return none
	}
	return strings.Join(xs, ", ")
}

// heldOptions says which option cards the robots hold at the end of a demo.
func heldOptions(st *adjudicator.State) string {
	var held []string
	for _, r := range st.Robots {
		if len(r.Options) > 0 {
			held = append(held, r.Name+" "+strings.Join(r.Options, ", "))
		}
	}
	if len(held) == 0 {
		return "No robot drew one (a postal robot draws one ending a turn on a double wrench)."
	}
	return "Held at the end: " + strings.Join(held, "; ") + "."
}
