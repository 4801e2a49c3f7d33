package rja

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/orders"
)

// A game played with seed 001's option variants keeps them in its header's rules, and
// replays bit for bit: the Deluxe keep order, the Scavenger Hunt piles and the Bio-Bots'
// swaps all come from (rules, options, seed, orders). Played without the variants, the
// same archive does not replay: the header's rules are what makes it exact.
func TestVariantsRecordedAndReplayed(t *testing.T) {
	rules := adjudicator.PostalRules()
	rules.OptionPackage, rules.ScavengerHunt, rules.BioBots, rules.TurboWrenches = "deluxe", 2, true, true
	deck := adjudicator.DealtOptions(adjudicator.DeckCrashBurn)
	keep, err := orders.ParseRule("keep Brakes", 1)
	if err != nil {
		t.Fatal(err)
	}
	give, err := orders.ParseRule("give Turret", 2)
	if err != nil {
		t.Fatal(err)
	}
	standing := &orders.Sheet{Rules: []orders.Rule{keep, give}}
	a := playGameWith(t, "sprint", 4, 12, 5, rules, deck, standing)
	b := encode(t, a)
	got, err := Read(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range []string{`"option_package":"deluxe"`, `"scavenger_hunt":2`, `"bio_bots":true`, `"turbo_wrenches":true`} {
		if !strings.Contains(string(got.Rules), kv) {
			t.Errorf("the header's rules lack %s: %s", kv, got.Rules)
		}
	}
	if err := Replay(&got, nil, -1, func(Step) error { return nil }); err != nil {
		t.Fatalf("replay: %v", err)
	}
	plain := got
	plain.Rules, _ = json.Marshal(adjudicator.PostalRules())
	plain.Sums = nil
	if err := Replay(&plain, nil, -1, func(Step) error { return nil }); err == nil {
		t.Error("the archive replays under the postal rules without its variants too: the test shows nothing")
	}
}
