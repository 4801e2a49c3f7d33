package crashbycrash

import (
	"math/rand/v2"
	"testing"
)

// playVsRandom plays one game: the bot on side botSide, a random mover on the other.
func playVsRandom(t testing.TB, seed uint64, botSide int) *State {
	s, _ := NewGame(Settings{Players: 2}, seed)
	r := rand.New(rand.NewPCG(seed, 99))
	for moves := 0; !s.Over(); moves++ {
		if moves > 3000 {
			t.Fatalf("seed %d: no end", seed)
		}
		var m Move
		if s.SideOf(s.ToMove) == botSide {
			m = BotMove(s)
		} else {
			m = randomMove(s, r)
			m.Draw = nil
		}
		n, _, err := Apply(s, s.ToMove, m)
		if err != nil {
			t.Fatalf("seed %d turn %d seat %d: %v\n%s", seed, s.Turn, s.ToMove+1, err, Format(m))
		}
		s = n
	}
	return s
}

// TestBotBeatsRandom: the autopilot wins at least 95 of 100 seeded games against a
// random mover (issue 20 item 5), playing either side.
func TestBotBeatsRandom(t *testing.T) {
	games := 100
	if testing.Short() {
		games = 10
	}
	wins := 0
	for seed := uint64(1); seed <= uint64(games); seed++ {
		side := int(seed % 2)
		s := playVsRandom(t, seed, side)
		if s.Score[side] > s.Score[1-side] {
			wins++
		} else {
			t.Logf("seed %d: bot (side %s) lost or tied %v at turn %d", seed, SideName(side), s.Score, s.Turn)
		}
	}
	t.Logf("the bot won %d of %d", wins, games)
	if wins*100 < games*95 {
		t.Fatalf("the bot won %d of %d games, want at least 95%%", wins, games)
	}
}

// TestBotMoveIsLegal: the bot's moves are accepted in a team game too.
func TestBotMoveIsLegal(t *testing.T) {
	s, _ := NewGame(Settings{Players: 4}, 5)
	for moves := 0; !s.Over() && moves < 60; moves++ {
		m := BotMove(s)
		n, _, err := Apply(s, s.ToMove, m)
		if err != nil {
			t.Fatalf("turn %d: %v\n%s", s.Turn, err, Format(m))
		}
		s = n
	}
}

// TestBotNeverBlind: the autopilot's second action never names a card an exchange of its
// first action draws from the deck (ruling "Written before the draw", blind.go), in any
// move of a few seeded games.
func TestBotNeverBlind(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		s, _ := NewGame(Settings{Players: 2}, seed)
		for moves := 0; !s.Over() && moves < 80; moves++ {
			m := BotMove(s)
			if err := s.BlindCard(s.ToMove, m); err != nil {
				t.Fatalf("seed %d turn %d: %v", seed, s.Turn, err)
			}
			n, _, err := Apply(s, s.ToMove, m)
			if err != nil {
				t.Fatalf("seed %d turn %d: %v", seed, s.Turn, err)
			}
			s = n
		}
	}
}
