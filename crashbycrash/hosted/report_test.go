package hosted

import (
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/game"
)

// A report is each player's: their own hand, never another's; the public report
// shows no hand; a card drawn from the deck is named to its drawer alone.
func TestReportsShowOnlyTheReadersHand(t *testing.T) {
	k := Kind{}
	cfg, _ := k.Configure(nil)
	pos, err := k.Start(cfg, []string{"Ada", "Boris"}, 3)
	if err != nil {
		t.Fatal(err)
	}
	var events []byte
	// play into the game proper, and a move that draws from the deck
	for i := 0; i < 12 && !pos.Over(); i++ {
		seat := pos.Due()[0]
		res, err := pos.Play(map[int]game.Move{seat: pos.Autopilot(seat, int64(i))}, 0)
		if err != nil {
			t.Fatal(err)
		}
		pos, events = res.Next, res.Events
	}
	st := pos.(*position).State
	hand := func(seat int) string {
		var h []string
		for _, c := range st.Hand(seat) {
			h = append(h, c.String())
		}
		return strings.Join(h, ", ")
	}
	for seat, name := range []string{"Ada", "Boris"} {
		rep := pos.Report(seat, events)
		if !strings.Contains(rep.Text, "Your cards ("+name) || !strings.Contains(rep.Text, hand(seat)) {
			t.Errorf("%s's report lacks their hand %q:\n%s", name, hand(seat), rep.Text)
		}
		if strings.Contains(rep.Text, "Your cards ("+[]string{"Boris", "Ada"}[seat]) {
			t.Errorf("%s's report shows the other's hand", name)
		}
	}
	if pub := pos.Report(-1, events); strings.Contains(pub.Text, "Your cards") {
		t.Errorf("the public report shows a hand:\n%s", pub.Text)
	}
}

func TestReportsCarryTheBoardsPicture(t *testing.T) {
	k := Kind{}
	cfg, _ := k.Configure(nil)
	pos, err := k.Start(cfg, []string{"Ada", "Boris"}, 3)
	if err != nil {
		t.Fatal(err)
	}
	rep := pos.Report(0, nil)
	if len(rep.Picture) < 1000 || !strings.HasPrefix(string(rep.Picture), "\x89PNG") || rep.PictureName != "board.png" {
		t.Fatalf("the report's picture: %d bytes named %q", len(rep.Picture), rep.PictureName)
	}
}
