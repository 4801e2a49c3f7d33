package narrate

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/orders"
)

// game2023 plays n rounds of a 2023 game on docking-run with each robot's first five
// cards, and returns the setup, the last round's events and the state after it.
func game2023(t *testing.T, n int) (*adjudicator.Setup, []adjudicator.Event, *adjudicator.State) {
	t.Helper()
	c, err := adjudicator.LoadCourse("docking-run")
	if err != nil {
		t.Fatal(err)
	}
	s, err := adjudicator.NewSetup(c, adjudicator.Rules2023(), 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := adjudicator.NewGame(s, []string{"Twonky", "Zoombot", "Hulk"})
	if err != nil {
		t.Fatal(err)
	}
	var events []adjudicator.Event
	for range n {
		ords := make([]adjudicator.Orders, len(st.Robots))
		for i, r := range st.Robots {
			k := 0
			for reg := 0; reg < adjudicator.Registers; reg++ {
				if r.Mat.Haywire[reg] == 0 {
					ords[i].Program[reg] = r.Hand[k]
					k++
				}
			}
		}
		if st, events, err = adjudicator.Resolve(s, st, ords); err != nil {
			t.Fatal(err)
		}
	}
	return s, events, st
}

// A 2023 report names cards by kind, shows the player mat and the robots' energy and
// checkpoints, in text and HTML; its sheet, filled in with cards by kind, is valid.
func TestReport2023(t *testing.T) {
	s, events, st := game2023(t, 3)
	r := st.Robots[1]
	r.Options = []string{"Brakes"}
	r.Mat.Collection = []string{"Zoop"}
	hand, locked := HandOf(s.Deck, r)
	rep := Report{Game: "g23", Course: "docking-run", Turn: 3, NextTurn: 4, Player: r.Name,
		Board: adjudicator.RenderState(s.Course, st), Legend: adjudicator.RenderStateLegend(st),
		Sections: Narrate(s.Deck, events), Robots: StatusOf(s.Deck, st), Hand: hand, Locked: locked,
		Sheet: SheetFor("g23", r, st.Turn, nil), Mat: MatOf(st, r, false), Deadline: "soon"}
	set := loadSet(t)
	text, err := set.Text("report.txt.tmpl", rep)
	if err != nil {
		t.Fatal(err)
	}
	html, err := set.HTML("report.html.tmpl", rep)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"YOUR PLAYER MAT (private)", fmt.Sprintf("energy %d", r.Mat.Energy),
		fmt.Sprintf("draw pile %d cards, discard pile %d cards", len(r.Mat.Deck), len(r.Mat.Discard)),
		"Brakes (permanent, cost 2)", "Zoop (temporary, cost 1)", "checkpoints", "no shutdown"} {
		if !strings.Contains(text, want) {
			t.Errorf("the text report lacks %q:\n%s", want, text)
		}
	}
	for _, want := range []string{"Your player mat (private)", "<br>checkpoints ", ", energy "} {
		if !strings.Contains(html, want) {
			t.Errorf("the HTML report lacks %q", want)
		}
	}
	if m := regexp.MustCompile(`\bP\d+\b`).FindString(text); m != "" {
		t.Errorf("a 2023 report names a card by priority: %s", m)
	}
	if strings.Contains(text, "lives") || strings.Contains(html, "<th>Lives</th>") || strings.Contains(html, "lives ") {
		t.Error("a 2023 report speaks of lives")
	}
	// The sheet in the report, filled in with the hand's cards by kind, is valid.
	filled := SheetFor("g23", r, st.Turn, nil)
	k := 0
	for reg := 1; reg <= adjudicator.Registers; reg++ {
		if r.Mat.Haywire[reg-1] != 0 {
			continue
		}
		filled = strings.Replace(filled, fmt.Sprintf("%d: \n", reg), fmt.Sprintf("%d: %s\n", reg, adjudicator.CardKind(r.Hand[k]).Title()), 1)
		k++
	}
	sh, err := orders.Parse([]byte(filled))
	if err != nil {
		t.Fatalf("%v\n%s", err, filled)
	}
	if v := orders.Validate(s, st, r.Name, sh); !v.OK() {
		t.Fatalf("the filled-in 2023 sheet is not valid: %v\n%s", v, filled)
	}
}

// The narration of a 2023 round: cards by kind, damage cards with the hit, the token.
func TestNarrate2023(t *testing.T) {
	s, _, _ := game2023(t, 1)
	events := []adjudicator.Event{
		{Register: 1, Phase: "move", Kind: adjudicator.EvCard, Robot: "Hulk", Card: int(adjudicator.CardSpam)},
		{Register: 1, Phase: "move", Kind: adjudicator.EvReplaced, Robot: "Hulk", Card: int(adjudicator.CardSpam), Amount: int(adjudicator.CardMove1)},
		{Register: 1, Phase: "move", Kind: adjudicator.EvCard, Robot: "Hulk", Card: int(adjudicator.CardMove1), Cause: "replacement"},
		{Register: 1, Phase: "move", Kind: adjudicator.EvMove, Robot: "Hulk", From: &adjudicator.Pos{X: 1, Y: 1}, To: &adjudicator.Pos{X: 1, Y: 0}},
		{Register: 1, Phase: "lasers", Kind: adjudicator.EvDamageCard, Robot: "Twonky", Card: int(adjudicator.CardSpam), Cause: "discard-pile"},
		{Register: 1, Phase: "lasers", Kind: adjudicator.EvDamageCard, Robot: "Twonky", Card: int(adjudicator.CardHaywire1), Cause: "register", Amount: 1},
		{Register: 1, Phase: "lasers", Kind: adjudicator.EvDamage, Robot: "Twonky", Amount: 2, Cause: "laser"},
		// Ruling R-ROBOT-LASER-SPAM: a robot's laser finds no SPAM in the deck, shuffles
		// the discard pile in under it, then finds none at all.
		{Register: 2, Phase: "lasers", Kind: adjudicator.EvReshuffle, Amount: 3, Cause: "damage-under"},
		{Register: 2, Phase: "lasers", Kind: adjudicator.EvDamageCard, Robot: "Twonky", Card: int(adjudicator.CardSpam), Cause: "discard-pile"},
		{Register: 2, Phase: "lasers", Kind: adjudicator.EvNoDamage, Robot: "Twonky", Card: int(adjudicator.CardSpam), Cause: "robot-laser"},
		{Register: 2, Phase: "lasers", Kind: adjudicator.EvDamage, Robot: "Twonky", Other: "Hulk", Amount: 1, Cause: "robot-laser"},
		{Register: 3, Phase: "lasers", Kind: adjudicator.EvNoDamage, Robot: "Hulk", Cause: "laser"},
		{Register: 1, Phase: "batteries", Kind: adjudicator.EvEnergy, Robot: "Twonky", Amount: 4, Cause: "battery"},
		{Register: 0, Phase: "end", Kind: adjudicator.EvPriority, Robot: "Zoombot"},
	}
	var lines []string
	for _, sec := range Narrate(s.Deck, events) {
		lines = append(lines, sec.Lines...)
	}
	got := strings.Join(lines, "\n")
	for _, want := range []string{
		"Hulk reveals SPAM: SPAM is replaced by the top card of its deck: Move 1; moves 1 to 1,0",
		"a board laser hits Twonky: SPAM (to its discard pile); " + adjudicator.CardHaywire1.Title() + " (face down under register 1, played there next round)",
		"the damage deck holds no SPAM: the damage discard pile (3 cards) is shuffled and put under it\n" +
			"Hulk shoots Twonky: SPAM (to its discard pile); no SPAM card is left for Twonky in the damage deck or its discard pile: the point of damage is lost",
		"no damage card is left for Hulk: the point of damage is lost",
		"Twonky charges at the battery: energy 4",
		"Zoombot now holds the priority token",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the narration lacks %q:\n%s", want, got)
		}
	}
}
