package hosted

import (
	"math/rand/v2"

	"github.com/rallyjudge/rallyjudge/crashbycrash"
)

// autopilot is a legal move picked at random by the seed, drawing from the deck.
func autopilot(st *crashbycrash.State, seed int64) crashbycrash.Move {
	rng := rand.New(rand.NewPCG(uint64(seed), uint64(st.Turn)))
	first := st.LegalActions()
	if len(first) == 0 {
		return crashbycrash.Move{Actions: []crashbycrash.Action{{Kind: crashbycrash.ActPass}}}
	}
	a := first[rng.IntN(len(first))]
	m := crashbycrash.Move{Actions: []crashbycrash.Action{a}}
	if st.Phase == crashbycrash.PhasePlay {
		if second, err := st.LegalSeconds(a); err == nil && len(second) > 0 {
			m.Actions = append(m.Actions, second[rng.IntN(len(second))])
		} else {
			// the first action ends the game: the second is not played (a pass stands for it)
			m.Actions = append(m.Actions, crashbycrash.Action{Kind: crashbycrash.ActPass})
		}
	}
	return m
}
