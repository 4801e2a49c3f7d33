package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/orders"
)

// TestResolveRefusesImpossibleStates: saved turns come from outside; each state no game
// could reach is refused with a clear error and exit 2, never played (issue 12).
func TestResolveRefusesImpossibleStates(t *testing.T) {
	c, err := adjudicator.LoadCourse("sprint")
	if err != nil {
		t.Fatal(err)
	}
	deck := adjudicator.DealtOptions(adjudicator.DeckBoth)
	setup, err := adjudicator.NewSetup(c, adjudicator.PostalRules(), 9, deck)
	if err != nil {
		t.Fatal(err)
	}
	base, _, err := adjudicator.NewGame(setup, []string{"Ann", "Ben"})
	if err != nil {
		t.Fatal(err)
	}
	var pit adjudicator.Pos
	b := c.Board
	for y := 0; y < b.H; y++ {
		for x := 0; x < b.W; x++ {
			if p := (adjudicator.Pos{X: x, Y: y}); b.Deadly(p) {
				pit = p
			}
		}
	}
	if !b.Deadly(pit) {
		t.Fatal("sprint has no pit to test with")
	}
	names := adjudicator.OptionNames() // every card, dealt in games or not yet
	if len(names) < 5 {
		t.Fatalf("want 5 option cards, got %d", len(names))
	}
	write := func(t *testing.T, sv savedTurn, prefix []byte) string {
		bs, err := json.Marshal(sv)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "turn.json")
		if err := os.WriteFile(path, append(prefix, bs...), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	fresh := func() savedTurn {
		st := base.Clone()
		played := make([]orders.Played, len(st.Robots))
		for i, r := range st.Robots {
			played[i].Robot = r.Name
			copy(played[i].Program[:], r.Hand[:5])
		}
		return savedTurn{Course: "sprint", Seed: 9, State: st, Orders: played}
	}
	tests := []struct {
		name   string
		change func(sv *savedTurn)
		want   string
	}{
		{"robot on a pit", func(sv *savedTurn) { sv.State.Robots[0].Pos = pit }, "stands on the pit"},
		{"robot off the board", func(sv *savedTurn) { sv.State.Robots[0].Pos = adjudicator.Pos{X: -1, Y: 3} }, "off the board"},
		{"two robots on a square", func(sv *savedTurn) {
			sv.State.Robots[0].Virtual, sv.State.Robots[1].Virtual = false, false
			sv.State.Robots[1].Pos = sv.State.Robots[0].Pos
		}, "same square"},
		{"an option that is no option card", func(sv *savedTurn) { sv.State.Robots[0].Options = []string{"Vortex Shield"} }, "is not an option card"},
		{"damage 10 in play", func(sv *savedTurn) { sv.State.Robots[0].Damage = 10 }, "10 destroys it"},
		{"lives 0 without out", func(sv *savedTurn) { sv.State.Robots[0].Lives = 0 }, "no lives left but not out"},
		{"archive off the board", func(sv *savedTurn) { sv.State.Robots[0].Archive = adjudicator.Pos{X: 99, Y: 0} }, "archive"},
		{"archive on a pit", func(sv *savedTurn) { sv.State.Robots[0].Archive = pit }, "archive"},
		{"more options than the rules allow", func(sv *savedTurn) { sv.State.Robots[0].Options = names[:4] }, "the rules allow 3"},
		{"an option held twice", func(sv *savedTurn) { sv.State.Robots[0].Options = []string{names[0], names[0]} }, "every card is in the deck once"},
		{"an option held and in the draw pile", func(sv *savedTurn) {
			sv.State.Robots[0].Options = []string{names[0]}
			sv.State.OptionDeck = slices.DeleteFunc(sv.State.OptionDeck, func(n string) bool { return n == names[0] })
			sv.State.OptionDiscard = nil
			sv.State.OptionDeck = []string{names[0]}
		}, "every card is in the deck once"},
		{"an option outside the options key", func(sv *savedTurn) {
			// the cards games deal, without the one Ann holds
			sv.Options = slices.DeleteFunc(slices.Clone(deck), func(n string) bool { return n == names[0] })
			if len(sv.Options) == 0 {
				sv.Options = nil
			}
			sv.State.Robots[0].Options = []string{names[0]}
			sv.State.OptionDeck = slices.DeleteFunc(sv.State.OptionDeck, func(n string) bool { return n == names[0] })
			sv.State.OptionDiscard = nil
		}, "not in the game's option deck"},
		{"a card held by two robots", func(sv *savedTurn) { sv.State.Robots[1].Hand[0] = sv.State.Robots[0].Hand[0] }, "held or played by both"},
		{"a card that is no card", func(sv *savedTurn) { sv.State.Robots[0].Hand[0] = 495 }, "not a card of the deck"},
		{"a card in an unlocked register", func(sv *savedTurn) { sv.State.Robots[0].Registers[0] = 990 }, "is not locked"},
		{"orders for another seat's robot", func(sv *savedTurn) { sv.Orders[0].Robot, sv.Orders[1].Robot = "Ben", "Ann" }, "seat 1 is Ann"},
		{"duplicate robot names", func(sv *savedTurn) { sv.State.Robots[1].Name = "ann"; sv.Orders[1].Robot = "ann" }, "two robots are named"},
		{"an unknown action", func(sv *savedTurn) {
			sv.Orders[0].Sheet = &orders.Sheet{Rules: []orders.Rule{{Then: orders.Action{Do: "fly"}}}}
		}, "is no order"},
		{"an unknown test", func(sv *savedTurn) {
			sv.Orders[0].Sheet = &orders.Sheet{Rules: []orders.Rule{{If: &orders.Cond{Test: "sunny"}, Then: orders.Action{Do: orders.DoPowerDown}}}}
		}, "is no order"},
		{"an unknown missed policy", func(sv *savedTurn) { sv.Orders[0].Missed = "teleport" }, "missed-orders policy"},
		{"a huge turn", func(sv *savedTurn) { sv.State.Turn = 1 << 40 }, "turn 1099511627776"},
		{"turn 0", func(sv *savedTurn) { sv.State.Turn = 0 }, "turn 0"},
		{"flags beyond the course", func(sv *savedTurn) { sv.State.Robots[0].Flags = 9 }, "flags touched"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sv := fresh()
			tc.change(&sv)
			path := write(t, sv, nil)
			var out, errb bytes.Buffer
			if code := cmdResolve([]string{path}, &out, &errb); code != 2 {
				t.Fatalf("exit %d, want 2\nstderr: %s", code, errb.String())
			}
			if !strings.Contains(errb.String(), tc.want) || !strings.Contains(errb.String(), "turn.json") {
				t.Errorf("error %q lacks %q (and the file's name)", errb.String(), tc.want)
			}
			if out.Len() != 0 {
				t.Errorf("an impossible state was played:\n%s", out.String())
			}
			// check --state refuses it alike
			sheet := writeSheet(t, "s.txt", "robot Ann\nP10\n")
			var o2, e2 bytes.Buffer
			if code := cmdCheck([]string{sheet, "--state", path}, &o2, &e2); code != 2 && !strings.Contains(tc.name, "orders") && !strings.Contains(tc.name, "action") &&
				!strings.Contains(tc.name, "test") && !strings.Contains(tc.name, "policy") {
				t.Errorf("check --state: exit %d, want 2 (%s)", code, e2.String())
			}
		})
	}
	t.Run("a byte-order mark is accepted", func(t *testing.T) {
		path := write(t, fresh(), []byte("\uFEFF"))
		var out, errb bytes.Buffer
		if code := cmdResolve([]string{path}, &out, &errb); code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
	})
	t.Run("a file over the cap", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "big.json")
		if err := os.WriteFile(path, append([]byte(`{"course": "sprint", "x": "`), bytes.Repeat([]byte("a"), maxStateFile)...), 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		if code := cmdResolve([]string{path}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "larger than") {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
	})
}
