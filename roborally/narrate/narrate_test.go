package narrate

import (
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
)

func TestNarrate(t *testing.T) {
	p := func(x, y int) *adjudicator.Pos { return &adjudicator.Pos{X: x, Y: y} }
	east, south := adjudicator.East, adjudicator.South
	card := func(robot string, c int) adjudicator.Event {
		return adjudicator.Event{Register: 1, Phase: "move", Kind: adjudicator.EvCard, Robot: robot, Card: c}
	}
	move := func(robot string, from, to *adjudicator.Pos) adjudicator.Event {
		return adjudicator.Event{Register: 1, Phase: "move", Kind: adjudicator.EvMove, Robot: robot, From: from, To: to}
	}
	pushEv := func(robot, by string, from, to *adjudicator.Pos) adjudicator.Event {
		return adjudicator.Event{Register: 1, Phase: "move", Kind: adjudicator.EvPush, Robot: robot, Other: by, From: from, To: to}
	}
	destroyed := func(robot, cause string, at *adjudicator.Pos) adjudicator.Event {
		return adjudicator.Event{Register: 1, Phase: "move", Kind: adjudicator.EvDestroyed, Robot: robot, Cause: cause, From: at}
	}
	for _, c := range []struct {
		name   string
		events []adjudicator.Event
		want   []string
	}{
		{"steps counted together", []adjudicator.Event{card("Zoom", 790), move("Zoom", p(1, 1), p(2, 1)), move("Zoom", p(2, 1), p(3, 1)), move("Zoom", p(3, 1), p(4, 1))},
			[]string{"P790 Zoom plays Move 3: moves 3 to 4,1"}},
		{"push into a pit", []adjudicator.Event{card("Zoom", 790),
			pushEv("Twonky", "Zoom", p(2, 1), p(3, 1)), destroyed("Twonky", "pit", p(3, 1)), move("Zoom", p(1, 1), p(2, 1)),
			move("Zoom", p(2, 1), p(3, 1)), destroyed("Zoom", "pit", p(3, 1))},
			[]string{"P790 Zoom plays Move 3: moves 2 to 3,1, pushing Twonky into the pit at 3,1; Twonky is destroyed; Zoom falls into the pit at 3,1 and is destroyed"}},
		{"push twice", []adjudicator.Event{card("Zoom", 700), pushEv("Twonky", "Zoom", p(2, 1), p(3, 1)), move("Zoom", p(1, 1), p(2, 1)),
			pushEv("Twonky", "Zoom", p(3, 1), p(4, 1)), move("Zoom", p(2, 1), p(3, 1))},
			[]string{"P700 Zoom plays Move 2: moves 2 to 3,1, pushing Twonky 2 squares to 4,1"}},
		{"off the east edge", []adjudicator.Event{card("Zoom", 500), move("Zoom", p(5, 1), p(6, 1)), destroyed("Zoom", "off-board", p(6, 1))},
			[]string{"P500 Zoom plays Move 1: moves 1 to 6,1; Zoom falls off the board (east edge) and is destroyed"}},
		{"pushed off the north edge", []adjudicator.Event{card("Zoom", 500), pushEv("Twonky", "Zoom", p(1, 0), p(1, -1)), destroyed("Twonky", "off-board", p(1, -1)), move("Zoom", p(1, 1), p(1, 0))},
			[]string{"P500 Zoom plays Move 1: moves 1 to 1,0, pushing Twonky off the board (north edge); Twonky is destroyed"}},
		{"wall first", []adjudicator.Event{card("Zoom", 500), {Register: 1, Phase: "move", Kind: adjudicator.EvBlocked, Robot: "Zoom", From: p(1, 1), Cause: "wall"}},
			[]string{"P500 Zoom plays Move 1: cannot move: a wall is in the way"}},
		{"wall after a step", []adjudicator.Event{card("Zoom", 700), move("Zoom", p(1, 1), p(2, 1)), {Register: 1, Phase: "move", Kind: adjudicator.EvBlocked, Robot: "Zoom", Other: "Hulk", From: p(2, 1), Cause: "wall"}},
			[]string{"P700 Zoom plays Move 2: moves 1 to 2,1; is stopped: Hulk is against a wall"}},
		{"back up", []adjudicator.Event{card("Zoom", 430), move("Zoom", p(1, 1), p(1, 2))},
			[]string{"P430 Zoom plays Back Up: backs up 1 square to 1,2"}},
		{"rotation", []adjudicator.Event{card("Zoom", 70), {Register: 1, Phase: "move", Kind: adjudicator.EvTurn, Robot: "Zoom", Facing: &east}},
			[]string{"P70 Zoom plays Rotate Left: turns to face east"}},
		{"belt, curve and pit", []adjudicator.Event{
			{Register: 1, Phase: "express", Kind: adjudicator.EvConveyed, Robot: "Hulk", From: p(0, 2), To: p(1, 2)},
			{Register: 1, Phase: "express", Kind: adjudicator.EvRotated, Robot: "Hulk", Facing: &south, Cause: "curve"},
			{Register: 1, Phase: "belts", Kind: adjudicator.EvConveyed, Robot: "Hulk", From: p(1, 2), To: p(2, 2)},
			{Register: 1, Phase: "belts", Kind: adjudicator.EvDestroyed, Robot: "Hulk", Cause: "pit", From: p(2, 2)}},
			[]string{"Hulk rides the express belt from 0,2 to 1,2, turning to face south",
				"Hulk rides the belt from 1,2 to 2,2; Hulk falls into the pit at 2,2 and is destroyed"}},
		{"flag and archive", []adjudicator.Event{
			{Register: 1, Phase: "flags", Kind: adjudicator.EvFlag, Robot: "Hulk", Amount: 1, To: p(3, 0)},
			{Register: 1, Phase: "flags", Kind: adjudicator.EvArchive, Robot: "Hulk", To: p(3, 0)}},
			[]string{"Hulk touches flag 1 at 3,0 and moves its archive marker there"}},
		{"lasers", []adjudicator.Event{
			{Register: 1, Phase: "lasers", Kind: adjudicator.EvDamage, Robot: "Hulk", Amount: 1, Cause: "laser"},
			{Register: 1, Phase: "lasers", Kind: adjudicator.EvDamage, Robot: "Hulk", Other: "Zoom", Amount: 1, Cause: "robot-laser"}},
			[]string{"a board laser hits Hulk: 1 damage", "Zoom shoots Hulk: 1 damage"}},
		// seed 001's floor.
		{"current", []adjudicator.Event{
			{Register: 1, Phase: "currents", Kind: adjudicator.EvConveyed, Robot: "Hulk", From: p(0, 2), To: p(1, 2)}},
			[]string{"Hulk rides the current from 0,2 to 1,2"}},
		{"water", []adjudicator.Event{card("Zoom", 790),
			{Register: 1, Phase: "move", Kind: adjudicator.EvSlowed, Robot: "Zoom", From: p(1, 1), Amount: 1, Cause: "water"},
			move("Zoom", p(1, 1), p(2, 1)), move("Zoom", p(2, 1), p(3, 1))},
			[]string{"P790 Zoom plays Move 3: starts in water and loses its first square; moves 2 to 3,1"}},
		{"teleporter", []adjudicator.Event{card("Zoom", 500),
			{Register: 1, Phase: "move", Kind: adjudicator.EvTeleport, Robot: "Zoom", From: p(1, 1), To: p(4, 1), Amount: 3, Cause: "teleporter"}},
			[]string{"P500 Zoom plays Move 1: teleports 3 squares to 4,1"}},
		{"randomizer", []adjudicator.Event{
			{Register: 1, Phase: "move", Kind: adjudicator.EvRandomized, Robot: "Zoom", Card: 70, Amount: 500, Cause: "randomizer"},
			card("Zoom", 70), {Register: 1, Phase: "move", Kind: adjudicator.EvTurn, Robot: "Zoom", Facing: &east}},
			[]string{"Zoom stands on a randomizer: P500 is discarded and it plays P70 instead", "P70 Zoom plays Rotate Left: turns to face east"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Narrate(adjudicator.StandardDeck(), c.events)
			if len(got) != 1 {
				t.Fatalf("%d sections, want 1: %+v", len(got), got)
			}
			if strings.Join(got[0].Lines, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("narration\n got %q\nwant %q", got[0].Lines, c.want)
			}
		})
	}
}

func TestNarrateSections(t *testing.T) {
	ev := []adjudicator.Event{
		{Register: 0, Phase: "start", Kind: adjudicator.EvPowerDown, Robot: "Hulk"},
		{Register: 1, Phase: "move", Kind: adjudicator.EvCard, Robot: "Zoom", Card: 70},
		{Register: 0, Phase: "deal", Kind: adjudicator.EvDeal, Robot: "Zoom", Amount: 9},
		{Register: 0, Phase: "end", Kind: adjudicator.EvRepair, Robot: "Zoom", Amount: 1},
	}
	got := Narrate(adjudicator.StandardDeck(), ev)
	var titles []string
	for _, s := range got {
		titles = append(titles, s.Title)
	}
	if strings.Join(titles, "|") != "Before the registers|Register 1|End of turn" {
		t.Fatalf("sections %q", titles)
	}
}

// A hit is told by what dealt it: a mine's or bomb's blast, a ram, a card's own cost and a
// flying robot's landing are no laser (they read "Bobbot shoots Bobbot" and "a board laser
// hits" before).
func TestNarrateHitCauses(t *testing.T) {
	hit := func(robot, other, cause string) adjudicator.Event {
		return adjudicator.Event{Register: 2, Phase: "lasers", Kind: adjudicator.EvDamage, Robot: robot, Other: other, Cause: cause, Amount: 2}
	}
	for _, c := range []struct {
		e    adjudicator.Event
		want string
	}{
		{hit("Bobbot", "Bobbot", "explosion"), "Bobbot is caught in its own blast: 2 damage"},
		{hit("Carol", "Bobbot", "explosion"), "Bobbot's blast hits Carol: 2 damage"},
		{hit("Carol", "", "explosion"), "a blast hits Carol: 2 damage"},
		{hit("Carol", "Bobbot", "ram"), "Bobbot rams Carol: 2 damage"},
		{hit("Carol", "Bobbot", "reflector"), "Bobbot's Reflector sends the shot back at Carol: 2 damage"},
		{hit("Carol", "", "overload-override"), "Overload Override costs Carol: 2 damage"},
		{hit("Carol", "", "recompile"), "Recompile costs Carol: 2 damage"},
		{hit("Carol", "", "landing"), "Carol lands hard: 2 damage"},
		{hit("Carol", "Bobbot", "robot-laser"), "Bobbot shoots Carol: 2 damage"},
		{hit("Carol", "", "laser"), "a board laser hits Carol: 2 damage"},
		{hit("Carol", "", "flamer"), "the flamer burns Carol: 2 damage"},
	} {
		var lines []string
		for _, s := range Narrate(adjudicator.StandardDeck(), []adjudicator.Event{c.e}) {
			lines = append(lines, s.Lines...)
		}
		if len(lines) != 1 || lines[0] != c.want {
			t.Errorf("%s by %q (%s): %q, want %q", c.e.Robot, c.e.Other, c.e.Cause, lines, c.want)
		}
	}
}
