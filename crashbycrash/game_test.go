package crashbycrash

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

func TestNewGame(t *testing.T) {
	a, err := NewGame(Settings{Players: 2}, 7)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewGame(Settings{Players: 2}, 7)
	ja, _ := a.Encode()
	jb, _ := b.Encode()
	if !bytes.Equal(ja, jb) {
		t.Fatal("same seed, different games")
	}
	if err := a.Check(); err != nil {
		t.Fatal(err)
	}
	bells := 0
	for _, c := range a.Bells {
		if c != NoCell {
			bells++
		}
	}
	if bells != 10 || a.Operator == NoCell || designs[a.Tiles[SlotOf(a.Operator)]].Star >= 0 || cellIndex[a.Operator] != 0 {
		t.Fatalf("%d bells, operator on %s", bells, a.Operator)
	}
	if len(a.Hand(0)) != 3 || len(a.Hand(1)) != 3 || a.DeckN != 36-9 {
		t.Fatalf("hands %v %v deck %d", a.Hand(0), a.Hand(1), a.DeckN)
	}
	c, _ := NewGame(Settings{Players: 2}, 8)
	if jc, _ := c.Encode(); bytes.Equal(ja, jc) {
		t.Fatal("seeds 7 and 8 deal the same game")
	}
	d, err := Decode(ja)
	if err != nil {
		t.Fatal(err)
	}
	if jd, _ := d.Encode(); !bytes.Equal(ja, jd) {
		t.Fatal("encode/decode round trip differs")
	}
	if _, err := NewGame(Settings{Players: 3}, 1); err == nil {
		t.Fatal("3 players accepted")
	}
}

// randomMove picks a random legal move for the seat to move: candidates in a random
// order, the first one the rules accept (cheaper than listing every legal action).
func randomMove(s *State, r *rand.Rand) Move {
	if s.Phase == PhaseSetup {
		acts := s.LegalActions()
		return Move{Actions: []Action{acts[r.IntN(len(acts))]}}
	}
	t := turn{seat: s.ToMove, side: s.SideOf(s.ToMove)}
	scratch := make([]Event, 0, 64)
	pick := func(st *State, tc *turn) (Action, bool) {
		cands := st.candidates(tc)
		r.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
		for _, a := range cands {
			if st.tryAction(tc, a, scratch) {
				return a, true
			}
		}
		return Action{Kind: ActPass}, false
	}
	a, _ := pick(s, &t)
	m := Move{Actions: []Action{a, {Kind: ActPass}}}
	n := *s
	t.evs = scratch[:0]
	if a.Kind != ActPass && n.action(&t, a) == nil && n.Phase != PhaseOver {
		t.idx = 1
		m.Actions[1], _ = pick(&n, &t)
	}
	if s.Players == 2 {
		for i := 0; i < 3; i++ {
			m.Draw = append(m.Draw, Source(r.IntN(2)))
		}
	}
	return m
}

// TestRandomGames plays whole games of random legal moves: every move LegalActions
// offers is accepted, every state passes Check, and the game ends.
func TestRandomGames(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		players := 2
		if seed%3 == 0 {
			players = 4
		}
		s, _ := NewGame(Settings{Players: players}, seed)
		r := rand.New(rand.NewPCG(seed, 1))
		for moves := 0; !s.Over(); moves++ {
			if moves > 2000 {
				t.Fatalf("seed %d: no end after 2000 moves", seed)
			}
			m := randomMove(s, r)
			// the random draw may name more sources than cards to draw: trim
			for {
				n, _, err := Apply(s, s.ToMove, m)
				if err != nil && len(m.Draw) > 0 && contains(err.Error(), "sources named") {
					m.Draw = m.Draw[:len(m.Draw)-1]
					continue
				}
				if err != nil && contains(err.Error(), "is empty") {
					m.Draw = nil
					continue
				}
				if err != nil {
					t.Fatalf("seed %d move %d turn %d: %v\n%s", seed, moves, s.Turn, err, Format(m))
				}
				s = n
				break
			}
			if err := s.Check(); err != nil {
				t.Fatalf("seed %d move %d: %v", seed, moves, err)
			}
		}
		t.Logf("seed %d (%d players): turn %d, events %d, scores %v", seed, players, s.Turn, s.Events, s.Score)
	}
}

// TestDeterministic: the same game played twice from the same seed and moves gives the
// same bytes (issue 20: output depends only on state, move and seed).
func TestDeterministic(t *testing.T) {
	play := func() []byte {
		s, _ := NewGame(Settings{Players: 2}, 11)
		r := rand.New(rand.NewPCG(11, 1))
		var log []byte
		for moves := 0; !s.Over() && moves < 150; moves++ {
			m := randomMove(s, r)
			m.Draw = nil
			n, evs, err := Apply(s, s.ToMove, m)
			if err != nil {
				t.Fatal(err)
			}
			s = n
			log = append(log, Narrate(evs)...)
		}
		b, _ := s.Encode()
		return append(log, b...)
	}
	if a, b := play(), play(); !bytes.Equal(a, b) {
		t.Fatal("two plays of the same game differ")
	}
}

// TestDeckDrawSecret: a card drawn from the deck is in its event (for the drawer's own
// report) but not in the event's words, which everyone reads.
func TestDeckDrawSecret(t *testing.T) {
	res, err := runScenario("rule: seed 002, Action \"Playing a card\"\nhand 1: Saboteur Tandem Lambada\nb: E5 O1\na: O13\nmove:\n  play Saboteur E5\n  operator A12 A11\n  draw deck\nexpect:\n  hand-size 1 3\n")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, line := range res.Events {
		if contains(line, "draws from the deck") {
			found = true
			for _, ci := range Cards() {
				if contains(line, ci.Name) {
					t.Fatalf("the public line names the card: %q", line)
				}
			}
		}
	}
	if !found {
		t.Fatalf("no draw event in %q", res.Events)
	}
	st, _ := NewGame(Settings{Players: 2}, 3)
	for !st.Over() && st.Phase == PhaseSetup {
		n, _, err := Apply(st, st.ToMove, BotMove(st))
		if err != nil {
			t.Fatal(err)
		}
		st = n
	}
	ex := Action{Kind: ActExchange, Give: [2]Card{st.Hands[st.ToMove][0], st.Hands[st.ToMove][1]}}
	sec, err := st.LegalSeconds(ex)
	if err != nil {
		t.Fatal(err)
	}
	_, evs, err := Apply(st, st.ToMove, Move{Actions: []Action{ex, sec[0]}})
	if err != nil {
		t.Fatal(err)
	}
	draws := 0
	for _, e := range evs {
		if e.Kind == EvDraw && e.N == 0 {
			draws++
			if e.Card == NoCard {
				t.Fatalf("a deck draw without its card: %+v", e)
			}
		}
	}
	if draws < 2 {
		t.Fatalf("%d deck draws in an exchange", draws)
	}
}
