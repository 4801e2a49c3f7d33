package adjudicator

import (
	"slices"
	"testing"
)

func TestDealtOptionsOnlyImplemented(t *testing.T) {
	for _, d := range OptionDecks {
		for _, name := range DealtOptions(d) {
			if !Implemented(name) {
				t.Errorf("deck %s deals %s, which is not implemented and tested", d, name)
			}
		}
	}
	if got := DealtOptions(DeckNone); len(got) != 0 {
		t.Errorf("deck none deals %v", got)
	}
	both := DealtOptions(DeckBoth)
	for _, d := range []OptionDeck{DeckCrashBurn, DeckArmedDangerous} {
		for _, n := range DealtOptions(d) {
			if !slices.Contains(both, n) {
				t.Errorf("deck both lacks %s of %s", n, d)
			}
		}
	}
}

func TestParseOptionDeck(t *testing.T) {
	for in, want := range map[string]OptionDeck{"none": DeckNone, "C&B": DeckCrashBurn, "crash-burn": DeckCrashBurn,
		"armed-dangerous": DeckArmedDangerous, "Both": DeckBoth} {
		if got, ok := ParseOptionDeck(in); !ok || got != want {
			t.Errorf("ParseOptionDeck(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	if _, ok := ParseOptionDeck("everything"); ok {
		t.Error("ParseOptionDeck accepted \"everything\"")
	}
	var d OptionDeck
	if err := d.UnmarshalText([]byte("bogus")); err == nil {
		t.Error("UnmarshalText accepted a bogus deck")
	}
}

// A deck holding a card whose effect is missing, or a card that does not exist, is
// refused: a game never deals a dead card.
func TestSetupRefusesDeadCards(t *testing.T) {
	c := testCourse(t)
	decks := [][]string{{"No Such Card"}}
	for _, n := range OptionNames() {
		if effectFor(n) == nil {
			decks = append(decks, []string{n}) // a card with no effect yet
			break
		}
	}
	for _, deck := range decks {
		if _, err := NewSetup(c, PostalRules(), 1, deck); err == nil {
			t.Errorf("NewSetup accepted the deck %v", deck)
		}
	}
}

// A game saved while every card was dealt still holds dead cards in its deck: they are
// skipped as they come up, and a robot taking an option with nothing dealable repairs.
func TestDeadCardsInSavedDeckAreSkipped(t *testing.T) {
	c := testCourse(t)
	s, err := NewSetup(c, PostalRules(), 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := &State{Turn: 1, Robots: []Robot{{Name: "A", Lives: 3}}, OptionDeck: []string{"Mine Layer", "Bio Option"}}
	tr := &turn{setup: s, st: st, single: -1}
	if tr.drawOption(0) {
		t.Fatal("drew a card the game does not deal")
	}
	if len(st.Robots[0].Options) != 0 || len(st.OptionDeck) != 0 {
		t.Errorf("options %v, deck %v; want none, none", st.Robots[0].Options, st.OptionDeck)
	}
}
