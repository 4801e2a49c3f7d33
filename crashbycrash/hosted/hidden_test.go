package hosted

import (
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/crashbycrash"
	"github.com/rallyjudge/rallyjudge/game"
)

// inPlay is a two-player position past the set-up, played by the autopilot.
func inPlay(t testing.TB, seed int64) *position {
	t.Helper()
	k := Kind{}
	cfg, _ := k.Configure(nil)
	pos, err := k.Start(cfg, []string{"Ada", "Boris"}, seed)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; pos.(*position).State.Phase == crashbycrash.PhaseSetup; i++ {
		seat := pos.Due()[0]
		res, err := pos.Play(map[int]game.Move{seat: pos.Autopilot(seat, int64(i))}, 0)
		if err != nil {
			t.Fatal(err)
		}
		pos = res.Next
	}
	return pos.(*position)
}

// The forecast of a move that takes face-up cards showed the board after the move with
// the slots already refilled from the deck: the deck's next cards, before the player had
// drawn anything (and could then send another move to take them).
func TestForecastHidesTheFaceUpCardsTurnedFromTheDeck(t *testing.T) {
	p := inPlay(t, 3)
	seat := p.State.ToMove
	h := p.State.Hand(seat)
	fu := p.State.FaceUp
	move := "exchange " + h[0].String() + " " + h[1].String() + ": face-up 1, face-up 2\n" +
		"exchange " + fu[0].String() + " " + fu[1].String() + ": face-up 3, deck\n"
	ch := p.Check(seat, move)
	if !ch.OK() {
		t.Fatalf("%q: %v", move, ch.Problems)
	}
	res, err := p.Play(map[int]game.Move{seat: ch.Move}, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, fuText, _ := strings.Cut(ch.Forecast, "face-up:\n")
	lines := strings.Split(fuText, "\n")[:3]
	for i, l := range lines {
		turned := res.Next.(*position).State.FaceUp[i]
		if l != "  "+string(rune('1'+i))+" (turned up from the deck after the move)" {
			t.Errorf("face-up %d in the forecast: %q (the card turned up after the move is %s)", i+1, l, turned)
		}
	}
}

// A move whose second action plays, or gives, a card the first action's exchange draws
// from the deck: accepted or refused with "(you hold ...)", the answer told the player
// the deck's top cards before the draw. Check refuses it by the ruling, whatever the deck.
func TestCheckRefusesACardTheExchangeDrawsFromTheDeck(t *testing.T) {
	p := inPlay(t, 3)
	seat := p.State.ToMove
	h := p.State.Hand(seat)
	known := map[crashbycrash.Card]bool{}
	for _, c := range h[2:] {
		known[c] = true
	}
	for _, c := range p.State.FaceUp {
		known[c] = true
	}
	tried := 0
	for _, c := range []crashbycrash.Card{crashbycrash.BellCharms, crashbycrash.FlyingDutchman, crashbycrash.DeadAccumulator, crashbycrash.Saboteur} {
		if known[c] {
			continue
		}
		args := map[crashbycrash.Card]string{crashbycrash.BellCharms: " A1 A2", crashbycrash.FlyingDutchman: " A1", crashbycrash.Saboteur: " A1"}[c]
		for _, second := range []string{"play " + c.String() + args, "exchange " + c.String() + " " + h[2].String() + ": deck, deck"} {
			move := "exchange " + h[0].String() + " " + h[1].String() + ": deck, deck\n" + second + "\n"
			ch := p.Check(seat, move)
			tried++
			if ch.OK() || len(ch.Problems) != 1 || !strings.Contains(ch.Problems[0].Msg, "Written before the draw") ||
				strings.Contains(ch.Problems[0].Msg, "(you hold") {
				t.Errorf("%q: accepted %v, problems %v; want the ruling \"Written before the draw\" and no hand", move, ch.OK(), ch.Problems)
			}
		}
	}
	if tried == 0 {
		t.Fatal("no card to try")
	}
	// a card held before the move, or taken face-up, may be named
	move := "exchange " + h[0].String() + " " + h[1].String() + ": face-up 1, deck\nexchange " + p.State.FaceUp[0].String() + " " + h[2].String() + ": deck, deck\n"
	if ch := p.Check(seat, move); !ch.OK() {
		t.Errorf("%q: %v", move, ch.Problems)
	}
}
