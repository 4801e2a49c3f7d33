package main

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/judge"
	"github.com/rallyjudge/rallyjudge/roborally/demobots"
)

// `rallyjudge demo --options armed --course high-water --variants deluxe-package,bio-bots --seed 1`
// (README, docs/gamemasters.md): four autopilot bots race with the Armed and Dangerous
// deck on the course with its floor (water, currents, teleporters, randomizers, levels),
// each starting with the card it keeps of its Deluxe Option Package and one on its Bio
// Option (Bio-Bots). The game ends with
// a winner within the turn limit, and the bots fire, launch and set their Armed and
// Dangerous cards along the way.
func TestDemoArmedPlaysToWinner(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole game through the mail servers")
	}
	var out bytes.Buffer
	race := demobots.New(demobots.Options{Course: "high-water", Bot: demobots.Autopilot,
		OptionDeck: "armed", Variants: "deluxe-package,bio-bots"})
	res, err := judge.RunDemo(context.Background(), judge.DemoOptions{
		Game: race, Seed: 1, Out: &out, // the demo's default turns, as the command plays
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if res.Winner == "" {
		t.Fatalf("no winner in %d turns:\n%s", res.Turns, out.String())
	}
	ad := race.UsesOf("A&D")
	t.Logf("%s won in %d turns; Armed and Dangerous cards used %d times: %v", res.Winner, res.Turns, ad, race.Uses)
	if ad == 0 {
		t.Errorf("the bots used no Armed and Dangerous card: %v\n%s", race.Uses, out.String())
	}
	if cb := race.UsesOf("C&B"); cb != 0 {
		t.Errorf("Crash & Burn cards used %d times in a game dealing only Armed and Dangerous cards", cb)
	}
	if !strings.Contains(out.String(), "Option cards used: ") {
		t.Errorf("the demo does not say which cards were used:\n%s", out.String())
	}
	// docs/gamemasters.md tells what this command shows: the winner, the turn, the mails
	// and the cards used (it said "Spinbot in 11 turns and 108 mails ... Converter" long
	// after the game had become another).
	doc, err := os.ReadFile("../../docs/gamemasters.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(doc)), " ")
	cards := slices.Sorted(maps.Keys(race.Uses))
	used := strings.Join(cards[:len(cards)-1], ", ") + " and " + cards[len(cards)-1]
	for _, want := range []string{
		fmt.Sprintf("(%s touches the", res.Winner),
		fmt.Sprintf("flag in turn %d,", res.Turns),
		fmt.Sprintf("after %d mails, the bots using %s, as the cards", res.Sent, used),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("docs/gamemasters.md should say %q of the demo with --options armed --seed 1 (%s won in turn %d, %d mails, cards used: %v)",
				want, res.Winner, res.Turns, res.Sent, cards)
		}
	}
}
