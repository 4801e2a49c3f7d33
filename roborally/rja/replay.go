package rja

import (
	"encoding/json"
	"fmt"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/archive/jsonl"
)

// Hash is the SHA-256, in lower-case hex, of the state's canonical JSON: encoding/json
// of adjudicator.State, exactly the bytes the judge stores.
func Hash(st *adjudicator.State) string {
	b, err := json.Marshal(st)
	if err != nil {
		// A State is plain data; Marshal cannot fail on it.
		panic(fmt.Sprintf("archive: hash: %v", err))
	}
	return hashBytes(b)
}

func hashBytes(b []byte) string { return jsonl.Hash(b) }

// Rules decodes the archive's rules (an empty object: the postal rules).
func (a *Archive) rules() (adjudicator.Rules, error) {
	rules := adjudicator.PostalRules()
	if len(a.Rules) > 0 && string(a.Rules) != "{}" {
		if err := json.Unmarshal(a.Rules, &rules); err != nil {
			return rules, fmt.Errorf("archive: rules: %w", err)
		}
	}
	return rules, nil
}

// Setup builds the engine setup the game was played with: the inline course, the
// rules, the seed and the option deck.
func (a *Archive) Setup() (*adjudicator.Setup, error) {
	c, err := a.Course.Build()
	if err != nil {
		return nil, fmt.Errorf("archive: course: %w", err)
	}
	rules, err := a.rules()
	if err != nil {
		return nil, err
	}
	s, err := adjudicator.NewSetup(c, rules, uint64(a.Seed), a.Options)
	if err != nil {
		return nil, fmt.Errorf("archive: setup: %w", err)
	}
	return s, nil
}

// Step is one replayed turn. Turn 0 is the set-up: Before is nil, After the starting
// state and Events the first deal. The states are the caller's to keep; Events is lent
// by the engine (adjudicator.LentTurn) and valid only until Replay's each returns: a
// caller that keeps a Step past each keeps s.Kept().
type Step struct {
	Turn   int
	Before *adjudicator.State // the state given to the engine
	After  *adjudicator.State
	Events []adjudicator.Event
	Played []Played
	Hash   string // of After; equal to the archive's
}

// ReplayError is a replay that went wrong at a turn (jsonl.ReplayError).
type ReplayError = jsonl.ReplayError

// Replay re-runs the game from the set-up through turn upto (a negative upto: every
// turn), checking every turn's hash, and calls each with every turn replayed (each may
// be nil; an error from it stops the replay and is returned). The first turn that does
// not replay exactly is returned as a *ReplayError. A header that is not the one the
// turns were played on (Archive.CheckSums) is a *SetupError, before any turn is played. setup may be nil (a.Setup is used).
func Replay(a *Archive, setup *adjudicator.Setup, upto int, each func(Step) error) error {
	if err := a.CheckSums(); err != nil {
		return err
	}
	if setup == nil {
		var err error
		if setup, err = a.Setup(); err != nil {
			return err
		}
	}
	if len(a.Turns) == 0 {
		return &ReplayError{Turn: 0, Err: fmt.Errorf("no turns (not even the set-up)")}
	}
	if upto < 0 || upto >= len(a.Turns) {
		upto = len(a.Turns) - 1
	}
	st, events, err := adjudicator.NewGame(setup, a.Robots)
	if err != nil {
		return &ReplayError{Turn: 0, Err: err}
	}
	h := Hash(st)
	if h != a.Turns[0].Hash {
		return &ReplayError{Turn: 0, Want: a.Turns[0].Hash, Got: h}
	}
	if each != nil {
		if err := each(Step{Turn: 0, After: st, Events: events, Hash: h}); err != nil {
			return err
		}
	}
	ords := make([]adjudicator.Orders, len(a.Robots))
	for n := 1; n <= upto; n++ {
		t := &a.Turns[n]
		before, err := beforeOf(st, t)
		if err != nil {
			return &ReplayError{Turn: n, Err: err}
		}
		for i, p := range t.Orders {
			ords[i] = p.Orders()
		}
		// The log is lent by a pooled Resolver and released once each has seen it
		// (issue 24 item 1): a replay checks hundreds of turns and keeps none of them.
		lent, err := adjudicator.ResolveLent(setup, before, ords)
		if err != nil {
			return &ReplayError{Turn: n, Err: err}
		}
		next := lent.Next
		h := Hash(next)
		if h != t.Hash {
			lent.Release()
			return &ReplayError{Turn: n, Want: t.Hash, Got: h}
		}
		if each != nil {
			err := each(Step{Turn: n, Before: before, After: next, Events: lent.Events, Played: t.Orders, Hash: h})
			lent.Release()
			if err != nil {
				return err
			}
		} else {
			lent.Release()
		}
		st = next
	}
	return nil
}

// Kept is s with a copy of its log (adjudicator.CloneEvents) that outlives Replay's
// each.
func (s Step) Kept() Step {
	s.Events = adjudicator.CloneEvents(s.Events)
	return s
}

// beforeOf is the state the engine was given in turn t: the state after the turn
// before with the missed-orders policy applied (a robot whose player missed the turn
// under "powerdown" is powered down for it, as the judge does), or the state the
// archive gives.
func beforeOf(prev *adjudicator.State, t *Turn) (*adjudicator.State, error) {
	if len(t.Before) > 0 {
		var st adjudicator.State
		if err := json.Unmarshal(t.Before, &st); err != nil {
			return nil, fmt.Errorf("before: %w", err)
		}
		if len(st.Robots) != len(t.Orders) {
			return nil, fmt.Errorf("before: %d robots for %d orders", len(st.Robots), len(t.Orders))
		}
		return &st, nil
	}
	if prev.Over {
		return nil, fmt.Errorf("the game was over after the turn before")
	}
	if len(prev.Robots) != len(t.Orders) {
		return nil, fmt.Errorf("%d orders for %d robots", len(t.Orders), len(prev.Robots))
	}
	st := prev.Clone()
	for i, p := range t.Orders {
		if st.Robots[i].Name != p.Robot {
			return nil, fmt.Errorf("orders %d are for %q but robot %d is %q", i+1, p.Robot, i+1, st.Robots[i].Name)
		}
		if p.Missed == "powerdown" && !st.Robots[i].Out {
			st.Robots[i].Power = adjudicator.PowerDown
		}
	}
	return st, nil
}
