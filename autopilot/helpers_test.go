package autopilot_test

import (
	"fmt"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

// newGame sets up a game of n robots on a shipped course.
func newGame(tb testing.TB, course string, seed uint64, n int) (*adjudicator.Setup, *adjudicator.State) {
	tb.Helper()
	c, err := adjudicator.LoadCourse(course)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := adjudicator.NewSetup(c, adjudicator.PostalRules(), seed, adjudicator.DealtOptions(adjudicator.DeckBoth))
	if err != nil {
		tb.Fatal(err)
	}
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("R%d", i+1)
	}
	st, _, err := adjudicator.NewGame(s, names)
	if err != nil {
		tb.Fatal(err)
	}
	return s, st
}

// newGame2023 sets up a game of n robots on a shipped course with the 2023 rules.
func newGame2023(tb testing.TB, course string, seed uint64, n int) (*adjudicator.Setup, *adjudicator.State) {
	tb.Helper()
	return newGameRules(tb, course, adjudicator.Rules2023(), seed, n)
}

// newGameRules sets up a game of n robots on a shipped course with the rules given.
func newGameRules(tb testing.TB, course string, rules adjudicator.Rules, seed uint64, n int) (*adjudicator.Setup, *adjudicator.State) {
	tb.Helper()
	c, err := adjudicator.LoadCourse(course)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := adjudicator.NewSetup(c, rules, seed, nil)
	if err != nil {
		tb.Fatal(err)
	}
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("R%d", i+1)
	}
	st, _, err := adjudicator.NewGame(s, names)
	if err != nil {
		tb.Fatal(err)
	}
	return s, st
}
