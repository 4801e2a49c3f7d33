package judge

import (
	"context"
	"testing"

	"github.com/rallyjudge/rallyjudge/store"
)

// TestCreateSeedIsNotTheClock: CREATE without seed= gives a game a random seed, never
// the clock's second (a player who knows roughly when the game was made could try each
// second against the hand dealt and know every deal and draw to come); two games made
// in the same second get seeds of their own; seed=0 is the seed 0, as --seed 0 is on the
// command line.
func TestCreateSeedIsNotTheClock(t *testing.T) {
	f := newJudgeFixture(t)
	f.j.NewSeed = nil // the judge's own choice, as New makes it
	ctx := context.Background()
	for _, args := range [][]string{{"zero", "course=sprint", "seed=0"}, {"one", "course=sprint"}, {"two", "course=sprint"}} {
		if _, err := f.j.RunCommand(ctx, "", Command{Verb: "CREATE", Args: args}); err != nil {
			t.Fatalf("CREATE %v: %v", args, err)
		}
	}
	seeds := map[string]int64{}
	err := f.j.Store.Tx(ctx, func(tx *store.Tx) error {
		for _, tag := range []string{"zero", "one", "two"} {
			g, err := tx.GameByTag(tag)
			if err != nil {
				return err
			}
			seeds[tag] = g.Seed
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seeds["zero"] != 0 {
		t.Errorf("seed=0 made a game of seed %d", seeds["zero"])
	}
	for _, tag := range []string{"one", "two"} {
		if seeds[tag] == f.now.Unix() {
			t.Errorf("game %s: the seed is the clock's second", tag)
		}
	}
	if seeds["one"] == seeds["two"] {
		t.Errorf("two games made in the same second share the seed %d", seeds["one"])
	}
}
