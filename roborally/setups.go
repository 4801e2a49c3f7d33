package roborally

import (
	"fmt"
	"slices"
	"sync"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// The judge reads a game's settings and position (LoadConfig, Load) for every sheet
// and every turn: six times between a turn's last order and its reports (issue 24 item
// 3), each time parsing the course and making the engine's setup anew (the option deck
// dealt, the effects, the floor's tables), two thirds of a Load. Both are the same every
// time, so they are kept:
//
//   - a shipped course (Kind.Course nil: adjudicator.LoadCourse) is parsed once: it is
//     data built into the program and never changes. A Kind with its own Course reads
//     its course every time, as the course may change between calls;
//   - a setup is kept for its course (the same *Course: a shipped one, or whatever the
//     Kind's Course gives again), its ruleset and its seed, the least recently used
//     dropped beyond setupsKept.
//
// A Setup is read-only once made (the engine and the pictures only read it), so one may
// serve several positions and games at once, as the judge's own path kept one a game.
// The caches only save time: what is read is the same with them and without
// (TestSetupsKept).

// setupsKept is how many setups are kept: one a game being played, for the games whose
// turns come close together; a setup of the largest course is a few hundred kB.
const setupsKept = 64

// shipped is the shipped courses parsed so far, by name.
var shipped struct {
	mu sync.Mutex
	m  map[string]*adjudicator.Course
}

// shippedCourse is the shipped course with this name, parsed once.
func shippedCourse(name string) (*adjudicator.Course, error) {
	shipped.mu.Lock()
	c := shipped.m[name]
	shipped.mu.Unlock()
	if c != nil {
		return c, nil
	}
	c, err := adjudicator.LoadCourse(name)
	if err != nil {
		return nil, err
	}
	shipped.mu.Lock()
	defer shipped.mu.Unlock()
	if got := shipped.m[name]; got != nil {
		return got, nil // parsed beside this call: one course for every caller
	}
	if shipped.m == nil {
		shipped.m = map[string]*adjudicator.Course{}
	}
	shipped.m[name] = c
	return c, nil
}

// setupKey is what a setup is made from.
type setupKey struct {
	course *adjudicator.Course
	rules  string // the ruleset, every field (%#v)
	seed   int64
}

type keptSetup struct {
	key   setupKey
	setup *adjudicator.Setup
}

// setups is the setups kept, the most recently used first.
var setups struct {
	mu   sync.Mutex
	kept []keptSetup
}

// setupOf is NewSetup(course, rules, seed), made once while it is used.
func setupOf(course *adjudicator.Course, rules adjudicator.Rules, seed int64) (*adjudicator.Setup, error) {
	key := setupKey{course: course, rules: fmt.Sprintf("%#v", rules), seed: seed}
	setups.mu.Lock()
	for i, k := range setups.kept {
		if k.key == key {
			copy(setups.kept[1:i+1], setups.kept[:i]) // to the front
			setups.kept[0] = k
			setups.mu.Unlock()
			return k.setup, nil
		}
	}
	setups.mu.Unlock()
	s, err := NewSetup(course, rules, seed)
	if err != nil {
		return nil, err
	}
	setups.mu.Lock()
	defer setups.mu.Unlock()
	setups.kept = slices.Insert(setups.kept, 0, keptSetup{key, s})
	if len(setups.kept) > setupsKept {
		setups.kept[setupsKept] = keptSetup{}
		setups.kept = setups.kept[:setupsKept]
	}
	return s, nil
}
