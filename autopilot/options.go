package autopilot

import (
	"fmt"
	"slices"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// optionOrders are the orders a bot writes for the option cards it holds (docs/options.md):
// simple, safe uses of each card, in the order language, so that a bot's sheet steers
// its options as a careful player's would. Cards that always work, or that the bot
// leaves at their defaults (Protection Shield, Turret: front), get none.
func optionOrders(r *adjudicator.Robot, prog [adjudicator.Registers]int) []string {
	var out []string
	for _, o := range r.Options {
		switch o {
		case "Brakes":
			out = append(out, "use Brakes if next to a pit")
		case "Fourth Gear":
			out = append(out, "use Fourth Gear unless next to a pit")
		case "Reverse Gear":
			out = append(out, "use Reverse Gear back 2 unless next to a pit")
		case "Gyroscopic Stabilisator":
			out = append(out, "use Gyroscopic Stabilisator")
		case "Tractor Beam":
			out = append(out, "use Tractor Beam if target would fall")
		case "High Pressor Beam":
			out = append(out, "use High Pressor Beam if target would fall")
		case "Turbo Blaster":
			out = append(out, "use Turbo Blaster")
		case "Target Control":
			out = append(out, "use Target Control lock register 5")
		case "Randomizer":
			out = append(out, "use Randomizer")
		case "Flywheel":
			// Keep the best card left over: the highest priority not programmed.
			for k := len(r.Hand) - 1; k >= 0; k-- {
				if c := r.Hand[k]; !slices.Contains(prog[:], c) {
					out = append(out, fmt.Sprintf("use Flywheel P%d", c))
					break
				}
			}
		}
	}
	return out
}
