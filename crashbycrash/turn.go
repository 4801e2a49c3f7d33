package crashbycrash

// seed 002, Player's turn (2 actions) and Action "Playing a card" (the bindings of blue
// and yellow cards, drawing at the end of a turn): Apply plays one player's move.

import (
	"errors"
	"fmt"
)

// turn is what one move knows while it is being played.
type turn struct {
	seat, side int
	idx        int    // the action being played: 0 or 1
	placements int    // cars placed so far this turn (the second costs 4 points)
	bound      Card   // a blue or yellow card played as the first action
	yellowDone bool   // the yellow card's scoring event has happened
	rang       int    // bells rung by the current action
	keep       []Card // the team game's keep preference (Move.Keep)
	rings      [NumBells]Cell
	nrings     int
	evs        []Event
}

func (t *turn) ev(e Event) {
	e.Seat = t.seat
	switch e.Kind {
	case EvPush, EvBlocked, EvOperator:
	default:
		e.Dir = NoDir // so that JSON says "none", not N
	}
	switch e.Kind {
	case EvRemoved, EvOpHole, EvOperator:
	default:
		e.Slot = NoSlot
	}
	t.evs = append(t.evs, e)
}

// ErrNotYourMove is returned when a seat moves out of turn.
var ErrNotYourMove = errors.New("it is not your move")

// Apply plays seat's move on s and returns the new state and what happened. s is not
// changed. An illegal move is refused whole, with the reason (and, where it helps, the
// legal choices); the state is then unchanged.
func Apply(s *State, seat int, m Move) (*State, []Event, error) {
	if s.Phase == PhaseOver {
		return s, nil, errors.New("the game is over")
	}
	if seat != s.ToMove {
		return s, nil, fmt.Errorf("%w: seat %d is to move, not seat %d", ErrNotYourMove, s.ToMove+1, seat+1)
	}
	n := *s
	t := &turn{seat: seat, side: n.SideOf(seat)}
	if err := n.play(t, m); err != nil {
		return s, nil, err
	}
	return &n, t.evs, nil
}

func (s *State) play(t *turn, m Move) error {
	if s.Phase == PhaseSetup {
		return s.setupMove(t, m)
	}
	if len(m.Actions) != 2 {
		return fmt.Errorf("a turn is two actions; this move has %d", len(m.Actions))
	}
	t.keep = m.Keep
	for i, a := range m.Actions {
		if s.Phase == PhaseOver {
			t.ev(Event{Kind: EvIgnored})
			return nil
		}
		t.idx = i
		if err := s.action(t, a); err != nil {
			return fmt.Errorf("action %d (%s): %w", i+1, FormatAction(a), err)
		}
	}
	if s.Phase == PhaseOver {
		return nil
	}
	if t.bound != NoCard && cardColour(t.bound) == Yellow && !t.yellowDone {
		return fmt.Errorf("action 2: %s binds the second action to ring a bell", t.bound)
	}
	return s.endTurn(t, m)
}

// action plays one action of a turn, then lets the magnets pull and resolves the bells
// rung, and refuses it if it broke a rule that is only known afterwards.
func (s *State) action(t *turn, a Action) error {
	t.rang = 0
	if t.idx == 1 && t.bound != NoCard {
		switch cardColour(t.bound) {
		case Blue:
			if a.Kind != ActPlace {
				return fmt.Errorf("%s binds the second action to placing a standard car", t.bound)
			}
		}
	}
	var err error
	switch a.Kind {
	case ActPlace:
		err = s.placeCar(t, a)
	case ActMagnet:
		err = s.placeMagnet(t, a)
	case ActCard:
		err = s.playCard(t, a)
	case ActOperator:
		err = s.moveOperator(t, a)
	case ActExchange:
		err = s.exchange(t, a)
	case ActPass:
		err = s.pass(t)
	default:
		err = fmt.Errorf("unknown action kind %d", a.Kind)
	}
	if err != nil {
		return err
	}
	if a.Kind != ActMagnet { // placeMagnet settles itself (it must see its own pulls)
		s.settle(t)
	}
	if t.rang > 0 && s.Turn < s.FirstEventTurn {
		return fmt.Errorf("it would ring a bell in game turn %d; no bell may ring before turn %d (seed 002, Scoring event)", s.Turn, s.FirstEventTurn)
	}
	if t.idx == 1 && t.bound != NoCard && cardColour(t.bound) == Yellow && t.rang == 0 {
		return fmt.Errorf("%s binds this action to ring a bell, and it rings none", t.bound)
	}
	if s.Phase != PhaseOver {
		var n [2]int
		for _, p := range s.Board {
			if p != Empty {
				n[p.Side()]++
			}
		}
		for side := 0; side < 2; side++ {
			if n[side] == 0 {
				s.Phase = PhaseOver
				t.ev(Event{Kind: EvGameOver, Side: side, N: 2})
				break
			}
		}
	}
	return nil
}

// pay takes a cost from the side's score; seed 002, Game Setup: no action may bring a
// score to zero or below.
func (s *State) pay(t *turn, n int, what string) error {
	if s.Score[t.side]-n <= 0 {
		return fmt.Errorf("%s costs %d points and %s has %d: no score may reach zero or below", what, n, SideName(t.side), s.Score[t.side])
	}
	s.Score[t.side] -= n
	t.ev(Event{Kind: EvCost, Side: t.side, N: n})
	return nil
}

// pass is allowed only when the seat has no legal action (ruling "No legal action").
func (s *State) pass(t *turn) error {
	if acts := s.legalActions(t); len(acts) > 0 && acts[0].Kind != ActPass {
		return fmt.Errorf("pass only when no action is legal; e.g. %s", FormatAction(acts[0]))
	}
	t.ev(Event{Kind: EvPass})
	return nil
}

// endTurn draws back to three cards (seed 002, Action "Playing a card": from the face-up
// cards or the deck, face-up cards replenished after), ends Dead Accumulator for the side
// that just moved, and hands the move on.
func (s *State) endTurn(t *turn, m Move) error {
	need := 0
	for _, c := range s.Hands[t.seat] {
		if c == NoCard {
			need++
		}
	}
	if len(m.Draw) > need {
		return fmt.Errorf("draw: %d sources named but %d card(s) to draw", len(m.Draw), need)
	}
	for i := 0; i < need; i++ {
		src := Deck
		if i < len(m.Draw) {
			src = m.Draw[i]
		}
		c, err := s.drawCard(t, src, m.Keep)
		if err != nil {
			return fmt.Errorf("draw %d: %w", i+1, err)
		}
		s.giveCard(t.seat, c)
	}
	if s.Players == 2 {
		for i := range s.FaceUp {
			if s.FaceUp[i] == NoCard {
				s.FaceUp[i] = s.popDeck()
			}
		}
	}
	s.DeadAcc[t.side] = false
	s.Turn++
	s.ToMove = (t.seat + 1) % s.Players
	t.ev(Event{Kind: EvNextMove, Side: s.SideOf(s.ToMove), N: s.Turn, To: NoCell, From: NoCell})
	t.evs[len(t.evs)-1].Seat = s.ToMove
	return nil
}

// drawCard takes one card from a source: a face-up slot, or the deck (in the team game
// two from the deck, one kept by the Keep preference, the other discarded).
func (s *State) drawCard(t *turn, src Source, keep []Card) (Card, error) {
	if src != Deck {
		if s.Players == 4 {
			return NoCard, errors.New("the team game has no face-up cards (seed 002, Variant for 4 players); draw from the deck")
		}
		if src < 1 || src > FaceUpCards {
			return NoCard, fmt.Errorf("face-up %d: the face-up cards are 1-3", src)
		}
		c := s.FaceUp[src-1]
		if c == NoCard {
			return NoCard, fmt.Errorf("face-up %d is empty", src)
		}
		s.FaceUp[src-1] = NoCard
		t.ev(Event{Kind: EvDraw, N: int(src), Card: c, From: NoCell, To: NoCell})
		return c, nil
	}
	c := s.popDeck()
	if s.Players == 4 {
		d := s.popDeck()
		if d != NoCard && prefer(keep, d, c) {
			c, d = d, c
		}
		s.discard(d)
	}
	// Card is the card drawn, for the drawer's own report; Event.String never shows it
	t.ev(Event{Kind: EvDraw, Card: c})
	return c, nil
}

// prefer says whether b comes before a in the keep list.
func prefer(keep []Card, b, a Card) bool {
	for _, k := range keep {
		if k == a {
			return false
		}
		if k == b {
			return true
		}
	}
	return false
}

func (s *State) giveCard(seat int, c Card) {
	for i, h := range s.Hands[seat] {
		if h == NoCard {
			s.Hands[seat][i] = c
			return
		}
	}
}

// takeCard removes one card of kind c from the seat's hand.
func (s *State) takeCard(seat int, c Card) bool {
	for i, h := range s.Hands[seat] {
		if h == c {
			s.Hands[seat][i] = NoCard
			return true
		}
	}
	return false
}
