package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/judge"
	"github.com/rallyjudge/rallyjudge/roborally/demobots"
)

// `rallyjudge demo --options crash-burn` shows option cards being played (issue 22: it
// printed what `demo` prints; the bots, holding no card, used none): each robot starts
// with one card, the bots write their orders for it, and the demo names the cards used.
func TestDemoOptionsUsesCards(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole game through the mail servers")
	}
	var out bytes.Buffer
	race := demobots.New(demobots.Options{Course: "sprint", Bot: demobots.Autopilot, OptionDeck: "crash-burn"})
	_, err := judge.RunDemo(context.Background(), judge.DemoOptions{Game: race, Seed: 1, Out: &out})
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if race.UsesOf("C&B") == 0 {
		t.Errorf("no Crash & Burn card used: %v\n%s", race.Uses, out.String())
	}
	if !strings.Contains(out.String(), "Option cards used: ") || strings.Contains(out.String(), "Option cards used: none") {
		t.Errorf("the demo does not name the cards used:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "Each robot starts with one option card") {
		t.Errorf("the demo does not say where the cards came from:\n%s", out.String())
	}
}
