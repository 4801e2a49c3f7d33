package roborally

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/orders"
)

// The game in words for the game-over mail, HISTORY and the seam's standings: who won,
// the robots best first, each turn in a line. The 2023 rules' words (seed 004) are
// checkpoints and energy where the postal rules' are flags, lives and damage.

// Ranking is the seats best first: the winner, then by flags (checkpoints) touched,
// robots still in the race before those out, then lives, then less damage.
func Ranking(st *adjudicator.State) []int {
	idx := make([]int, len(st.Robots))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return compareRobots(st, st.Robots[a], st.Robots[b]) })
	return idx
}

// compareRobots is Ranking's order: negative when x ranks above y, 0 when they tie.
func compareRobots(st *adjudicator.State, x, y adjudicator.Robot) int {
	switch {
	case (x.Name == st.Winner) != (y.Name == st.Winner):
		if x.Name == st.Winner {
			return -1
		}
		return 1
	case x.Flags != y.Flags:
		return y.Flags - x.Flags
	case x.Out != y.Out:
		if !x.Out {
			return -1
		}
		return 1
	case x.Lives != y.Lives:
		return y.Lives - x.Lives
	}
	return x.Damage - y.Damage
}

// StandingLine is a robot's standing in words: flags, lives and damage (postal), or
// checkpoints, energy and upgrades (2023); the winner and a robot out say so.
func StandingLine(st *adjudicator.State, r adjudicator.Robot) string {
	line := fmt.Sprintf("%-12s %s, %d lives, %d damage", r.Name, count(r.Flags, "flag", "flags"), r.Lives, r.Damage)
	if r.Mat != nil { // the 2023 rules: checkpoints, energy and upgrades; no lives, no damage points
		line = fmt.Sprintf("%-12s %s, energy %d", r.Name, count(r.Flags, "checkpoint", "checkpoints"), r.Mat.Energy)
		if len(r.Options) > 0 {
			line += ", upgrades " + strings.Join(r.Options, ", ")
		}
	}
	switch {
	case r.Name == st.Winner:
		line += " — winner"
	case r.Out:
		line += " — out of the race"
	}
	return line
}

// WinnerLine says who won, or that nobody did, in the ruleset's words.
func WinnerLine(st *adjudicator.State) string {
	own := slices.ContainsFunc(st.Robots, func(r adjudicator.Robot) bool { return r.Mat != nil }) // the 2023 rules' words (seed 004)
	switch {
	case st.Winner != "" && own:
		return fmt.Sprintf("The winner is %s, first to reach the last checkpoint.", st.Winner)
	case st.Winner != "":
		return fmt.Sprintf("The winner is %s, first to touch the last flag.", st.Winner)
	case own:
		return "No robot reached the last checkpoint."
	}
	return "No robot reached the last flag."
}

// TurnLine is one line about a resolved turn from its stored events and record of
// what was played (orders.Played): flags, losses, missed orders.
func TurnLine(eventsJSON, playedJSON []byte) string {
	var events []adjudicator.Event
	_ = json.Unmarshal(eventsJSON, &events)
	var parts []string
	for _, e := range events {
		switch e.Kind {
		case adjudicator.EvFlag:
			parts = append(parts, fmt.Sprintf("%s touched flag %d", e.Robot, e.Amount))
		case adjudicator.EvDestroyed:
			parts = append(parts, fmt.Sprintf("%s was destroyed (%s)", e.Robot, e.Cause))
		case adjudicator.EvOut:
			parts = append(parts, fmt.Sprintf("%s is out of the race", e.Robot))
		case adjudicator.EvWin:
			parts = append(parts, fmt.Sprintf("%s wins", e.Robot))
		}
	}
	var played []orders.Played
	_ = json.Unmarshal(playedJSON, &played)
	for _, p := range played {
		if p.Missed != "" {
			parts = append(parts, fmt.Sprintf("%s sent no orders (%s)", p.Robot, p.Missed))
		}
	}
	if len(parts) == 0 {
		return "the robots raced on; no flags, no losses."
	}
	return strings.Join(parts, "; ") + "."
}

// PolicyText says to a player what happens to their robot without orders under the
// ruleset and policy.
func PolicyText(rules adjudicator.Rules, policy string) string {
	own := rules.Own() // the 2023 rules
	switch {
	case policy == MissedAutopilot:
		return "the autopilot chooses a program for your robot"
	case policy == MissedRandom && own:
		return "Act Fast: your registers are filled at random from your hand"
	case policy == MissedRandom:
		return "a random program from your hand is played"
	case own:
		return "your robot shuts down for the round (ruling R-MISSED-SHUTDOWN)"
	}
	return "your robot is powered down for the turn (and not repaired)"
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
