package roborally

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/orders"
)

// NeedsProgram reports whether robot r must send a program this turn.
func NeedsProgram(r adjudicator.Robot) bool { return !r.Out && r.Power != adjudicator.PowerDown }

// HasOrders reports whether a sheet gives its robot orders for the turn: a program, or
// under the 2023 rules a plain shutdown, which needs none (ruling R-SHUTDOWN-WHEN).
func HasOrders(r adjudicator.Robot, s *orders.Sheet) bool {
	if s == nil {
		return false
	}
	return s.HasProgram() || (r.Mat != nil && s.ShutsDown())
}

// EngineOrders are a robot's sheet as the engine takes it: OwnOrders under the 2023
// rules (cards by kind placed around face-down Haywire cards, a plain shutdown), Orders
// under the postal rules.
func EngineOrders(setup *adjudicator.Setup, r *adjudicator.Robot, s *orders.Sheet) adjudicator.Orders {
	if setup.Rules.Own() {
		return s.OwnOrders(r)
	}
	return s.Orders()
}

// ValidProgram reports whether the engine takes o for robot i.
func ValidProgram(s *adjudicator.Setup, st *adjudicator.State, i int, o adjudicator.Orders) bool {
	return len(s.CheckOrders(st, i, o)) == 0
}

// withoutUpgrades is o without its upgrade phase.
func withoutUpgrades(o adjudicator.Orders) adjudicator.Orders {
	o.Upgrade = adjudicator.UpgradeOrders{}
	return o
}

// AutopilotSheet is the autopilot's suggested standing orders as a sheet; nil when
// none parse (they always should: autopilot tests parse every line).
func AutopilotSheet(lines []string) *orders.Sheet {
	s := &orders.Sheet{}
	for i, l := range lines {
		if r, err := orders.ParseRule(l, i+1); err == nil {
			s.Rules = append(s.Rules, r)
		}
	}
	if len(s.Rules) == 0 {
		return nil
	}
	return s
}

// RandomProgram is a legal program drawn from the robot's hand, fixed by (seed, turn,
// robot): the "random" missed-orders policy.
func RandomProgram(s *adjudicator.Setup, st *adjudicator.State, robot int, seed int64, turn int) [adjudicator.Registers]int {
	if s.Rules.Own() {
		return randomOwnProgram(st, robot, seed, turn) // Act Fast
	}
	r := st.Robots[robot]
	rng := rand.New(rand.NewPCG(uint64(seed), uint64(turn)<<8|uint64(robot)))
	hand := append([]int(nil), r.Hand...)
	rng.Shuffle(len(hand), func(a, b int) { hand[a], hand[b] = hand[b], hand[a] })
	var p [adjudicator.Registers]int
	k := 0
	for reg := 1; reg <= adjudicator.Registers; reg++ {
		if r.IsLocked(reg) || k >= len(hand) {
			continue
		}
		p[reg-1] = hand[k]
		k++
	}
	return p
}

// randomOwnProgram is RandomProgram for the 2023 rules (Act Fast, seed 004: "empty
// registers filled randomly from shuffled hand"): the hand shuffled by (seed, turn,
// robot), its cards laid in the registers without a face-down Haywire, in order. Every
// card of a 2023 hand may be programmed (a SPAM is replaced when revealed).
func randomOwnProgram(st *adjudicator.State, robot int, seed int64, turn int) [adjudicator.Registers]int {
	r := st.Robots[robot]
	rng := rand.New(rand.NewPCG(uint64(seed), uint64(turn)<<8|uint64(robot)))
	hand := slices.Clone(r.Hand)
	rng.Shuffle(len(hand), func(a, b int) { hand[a], hand[b] = hand[b], hand[a] })
	var p [adjudicator.Registers]int
	k := 0
	for reg := 0; reg < adjudicator.Registers; reg++ {
		if r.Mat != nil && r.Mat.Haywire[reg] != 0 {
			continue
		}
		for k < len(hand) && adjudicator.CardKind(hand[k]).Haywire() {
			k++
		}
		if k < len(hand) {
			p[reg] = hand[k]
			k++
		}
	}
	return p
}

// ProgramWords is a program in words for the game's ruleset.
func ProgramWords(s *adjudicator.Setup, p [adjudicator.Registers]int) string {
	if s.Rules.Own() {
		return OwnProgramText(p)
	}
	return ProgramText(p)
}

// ProgramText is a postal program in words: "P120 P340 locked ...".
func ProgramText(p [adjudicator.Registers]int) string {
	var parts []string
	for _, c := range p {
		if c == 0 {
			parts = append(parts, "locked")
		} else {
			parts = append(parts, fmt.Sprintf("P%d", c))
		}
	}
	return strings.Join(parts, " ")
}

// OwnProgramText is a 2023 program in words: "Move 1, Again, -, SPAM, U-Turn" ("-" for
// a register left to a face-down Haywire).
func OwnProgramText(p [adjudicator.Registers]int) string {
	parts := make([]string, len(p))
	for i, c := range p {
		if c == 0 {
			parts[i] = "-"
		} else {
			parts[i] = adjudicator.CardKind(c).Title()
		}
	}
	return strings.Join(parts, ", ")
}
