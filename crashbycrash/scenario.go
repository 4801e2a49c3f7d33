package crashbycrash

// Scenarios: one small text file a rule case, readable like a rulebook example
// (docs/crash-by-crash.md, "Scenario files"): a position, a move, what must follow.
// RunScenario plays one; the package's tests run every file of testdata/scenarios, and
// the CLI's resolve runs a file a game master writes.

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// ScenarioResult is what RunScenario reports: the move's events, the board after, and
// each expectation that failed.
type ScenarioResult struct {
	Name     string   `json:"name"`
	Rule     string   `json:"rule"`
	Error    string   `json:"error,omitempty"` // the move's refusal, if any
	Events   []string `json:"events"`
	Board    string   `json:"board"`
	Failures []string `json:"failures,omitempty"`
}

// RunScenario plays a scenario file and returns its result as JSON; the error says what
// is wrong with the file (with its line) or which expectations failed.
func RunScenario(text string) ([]byte, error) {
	res, err := runScenario(text)
	if res == nil {
		return nil, err
	}
	b, jerr := json.MarshalIndent(res, "", "  ")
	if jerr != nil {
		return nil, jerr
	}
	return b, err
}

type scenLine struct {
	n    int
	text string
}

func runScenario(text string) (*ScenarioResult, error) {
	res := &ScenarioResult{}
	set := Settings{Players: 2}
	seed := uint64(1)
	var pos, moveLines, expect []scenLine
	section := ""
	for i, raw := range strings.Split(text, "\n") {
		line := raw
		if k := strings.Index(line, "#"); k >= 0 {
			line = line[:k]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		n := i + 1
		switch {
		case line == "move:":
			section = "move"
			continue
		case line == "expect:":
			section = "expect"
			continue
		}
		switch section {
		case "move":
			moveLines = append(moveLines, scenLine{n, line})
		case "expect":
			expect = append(expect, scenLine{n, line})
		default:
			key, val, ok := strings.Cut(line, ":")
			if !ok {
				return nil, fmt.Errorf("line %d: want KEY: VALUE, move: or expect:", n)
			}
			val = strings.TrimSpace(val)
			switch key {
			case "name":
				res.Name = val
			case "rule":
				res.Rule = val
			case "seed":
				v, err := strconv.ParseUint(val, 10, 64)
				if err != nil {
					return nil, fmt.Errorf("line %d: seed %q", n, val)
				}
				seed = v
			case "players":
				v, err := strconv.Atoi(val)
				if err != nil {
					return nil, fmt.Errorf("line %d: players %q", n, val)
				}
				set.Players = v
			case "first-event-turn":
				v, err := strconv.Atoi(val)
				if err != nil {
					return nil, fmt.Errorf("line %d: first-event-turn %q", n, val)
				}
				set.FirstEventTurn = v
			default:
				pos = append(pos, scenLine{n, line})
			}
		}
	}
	if !strings.HasPrefix(res.Rule, "seed 002") {
		return nil, fmt.Errorf("line 1: a scenario says which rule it checks: rule: seed 002, SECTION")
	}
	s, err := NewGame(set, seed)
	if err != nil {
		return nil, err
	}
	if err := s.scenarioPosition(pos); err != nil {
		return nil, err
	}
	if err := s.Check(); err != nil {
		return nil, fmt.Errorf("the position: %v", err)
	}
	var mt []string
	first := 0
	for _, l := range moveLines {
		if first == 0 {
			first = l.n
		}
		mt = append(mt, l.text)
	}
	m, perr := ParseMove(strings.Join(mt, "\n"))
	after := s
	if perr != nil {
		res.Error = perr.Error()
	} else {
		n, evs, err := Apply(s, s.ToMove, m)
		if err != nil {
			res.Error = err.Error()
		} else {
			after = n
			if err := n.Check(); err != nil {
				res.Failures = append(res.Failures, "the state after the move: "+err.Error())
			}
			for _, e := range evs {
				res.Events = append(res.Events, e.String())
			}
		}
	}
	res.Board = BoardText(after)
	for _, l := range expect {
		if msg := after.expectation(l.text, res); msg != "" {
			res.Failures = append(res.Failures, fmt.Sprintf("line %d: %s: %s", l.n, l.text, msg))
		}
	}
	if len(expect) == 0 {
		return res, fmt.Errorf("no expect: section")
	}
	if res.Error != "" && !hasErrorExpectation(expect) {
		res.Failures = append(res.Failures, "the move was refused: "+res.Error)
	}
	if len(res.Failures) > 0 {
		return res, fmt.Errorf("%s", strings.Join(res.Failures, "\n"))
	}
	return res, nil
}

func hasErrorExpectation(ls []scenLine) bool {
	for _, l := range ls {
		if strings.HasPrefix(l.text, "error") {
			return true
		}
	}
	return false
}

func sideArg(s string) (int, error) {
	switch s {
	case "A", "a":
		return 0, nil
	case "B", "b":
		return 1, nil
	}
	return 0, fmt.Errorf("%q is not a side (A or B)", s)
}

func cellsArg(fields []string) ([]Cell, error) {
	var out []Cell
	for _, f := range fields {
		c, err := ParseCell(f)
		if err != nil {
			return nil, err
		}
		if !OnBoard(c) {
			return nil, fmt.Errorf("%s is not on the board", c)
		}
		out = append(out, c)
	}
	return out, nil
}

func cardsArg(text string) ([]Card, error) {
	var out []Card
	toks := tokenize(text, 1)
	for i := 0; i < len(toks); {
		if toks[i].s == "," {
			i++
			continue
		}
		c, n := matchCard(toks[i:])
		if c == NoCard {
			return nil, fmt.Errorf("%q is not a card", toks[i].s)
		}
		out = append(out, c)
		i += n
	}
	return out, nil
}

// scenarioPosition sets up the position: by default an empty board with no bells, the
// operator on A13, game turn 10, seat 1 to move.
func (s *State) scenarioPosition(pos []scenLine) error {
	s.Board = BoardCells{}
	s.Bells = [NumBells]Cell{}
	s.Operator = CellAt(0, 12)
	s.Phase, s.Turn, s.ToMove = PhasePlay, 10, 0
	var bells []Cell
	events := 0
	for _, l := range pos {
		key, val, _ := strings.Cut(l.text, ":")
		val = strings.TrimSpace(val)
		f := strings.Fields(val)
		err := func() error {
			switch key {
			case "a", "b", "A", "B":
				side, _ := sideArg(key)
				cs, err := cellsArg(f)
				if err != nil {
					return err
				}
				for _, c := range cs {
					s.Board[c] = carOf(side, key == "A" || key == "B")
				}
			case "operator":
				if len(f) == 2 && f[0] == "hole" {
					cs, err := cellsArg(f[1:])
					if err != nil {
						return err
					}
					s.Operator, s.OpHole = NoCell, SlotOf(cs[0])
					return nil
				}
				cs, err := cellsArg(f)
				if err != nil || len(cs) != 1 {
					return fmt.Errorf("operator CELL or operator hole CELL")
				}
				s.Operator = cs[0]
			case "bells":
				cs, err := cellsArg(f)
				if err != nil {
					return err
				}
				bells = cs
			case "holes":
				cs, err := cellsArg(f)
				if err != nil {
					return err
				}
				for _, c := range cs {
					s.Holes |= 1 << uint(SlotOf(c))
				}
			case "events":
				v, err := strconv.Atoi(val)
				if err != nil || v < 0 || v > 6 {
					return fmt.Errorf("events 0-6")
				}
				events = v
			case "phase":
				switch val {
				case "setup":
					s.Phase, s.Turn = PhaseSetup, 0
				case "play":
				default:
					return fmt.Errorf("phase setup or play")
				}
			case "placed", "turn", "to-move":
				v, err := strconv.Atoi(val)
				if err != nil {
					return fmt.Errorf("%s: a number", key)
				}
				switch key {
				case "placed":
					s.Placed = v
				case "turn":
					s.Turn = v
				case "to-move":
					if v < 1 || v > s.Players {
						return fmt.Errorf("to-move: a seat 1-%d", s.Players)
					}
					s.ToMove = v - 1
				}
			case "score", "acc":
				if len(f) != 2 {
					return fmt.Errorf("%s: two numbers, A's and B's", key)
				}
				for side := 0; side < 2; side++ {
					v, err := strconv.Atoi(f[side])
					if err != nil {
						return fmt.Errorf("%s: %q is not a number", key, f[side])
					}
					if key == "score" {
						s.Score[side] = v
					} else {
						s.Acc[side] = int8(v)
					}
				}
			case "dead-acc":
				side, err := sideArg(val)
				if err != nil {
					return err
				}
				s.DeadAcc[side] = true
			case "face-up":
				cs, err := cardsArg(val)
				if err != nil || len(cs) > FaceUpCards {
					return fmt.Errorf("face-up: up to three cards (%v)", err)
				}
				for i := range s.FaceUp {
					s.returnCard(s.FaceUp[i])
					s.FaceUp[i] = NoCard
				}
				for i, c := range cs {
					s.takeFromPiles(c)
					s.FaceUp[i] = c
				}
			default:
				if seatStr, ok := strings.CutPrefix(key, "hand "); ok {
					seat, err := strconv.Atoi(seatStr)
					if err != nil || seat < 1 || seat > s.Players {
						return fmt.Errorf("hand SEAT: a seat 1-%d", s.Players)
					}
					cs, err := cardsArg(val)
					if err != nil || len(cs) > HandSize {
						return fmt.Errorf("hand: up to three cards (%v)", err)
					}
					for i := range s.Hands[seat-1] {
						s.returnCard(s.Hands[seat-1][i])
						s.Hands[seat-1][i] = NoCard
					}
					for i, c := range cs {
						s.takeFromPiles(c)
						s.Hands[seat-1][i] = c
					}
					return nil
				}
				return fmt.Errorf("unknown key %q", key)
			}
			return nil
		}()
		if err != nil {
			return fmt.Errorf("line %d: %v", l.n, err)
		}
	}
	if events+len(bells) > NumBells {
		return fmt.Errorf("%d events and %d bells: more than 10 bells", events, len(bells))
	}
	s.Events = events
	for i := range s.Chart {
		s.Chart[i] = -1
		if i < events {
			s.Chart[i] = int8(i)
		}
	}
	for i, c := range bells {
		s.Bells[events+i] = c
	}
	for side := 0; side < 2; side++ {
		s.Stock[side], s.Magnet[side] = StandardCars, true
	}
	for c := Cell(1); c <= MaxCell; c++ {
		if p := s.Board[c]; p.IsMagnet() {
			s.Magnet[p.Side()] = false
		} else if p != Empty {
			s.Stock[p.Side()]--
		}
	}
	return nil
}

// takeFromPiles takes a card of kind c out of the deck (or the discard pile, the face-up
// row, another hand) so that a scenario's hands keep the deck's counts.
func (s *State) takeFromPiles(c Card) {
	for i := 0; i < s.DeckN; i++ {
		if s.Deck[i] == c {
			copy(s.Deck[i:], s.Deck[i+1:s.DeckN])
			s.DeckN--
			s.Deck[s.DeckN] = NoCard
			return
		}
	}
	for i := 0; i < s.DiscardN; i++ {
		if s.Discard[i] == c {
			copy(s.Discard[i:], s.Discard[i+1:s.DiscardN])
			s.DiscardN--
			s.Discard[s.DiscardN] = NoCard
			return
		}
	}
	for i := range s.FaceUp {
		if s.FaceUp[i] == c {
			s.FaceUp[i] = s.popDeck()
			return
		}
	}
	for seat := range s.Hands {
		for i := range s.Hands[seat] {
			if s.Hands[seat][i] == c {
				s.Hands[seat][i] = s.popDeck()
				return
			}
		}
	}
}

// returnCard puts a card back at the bottom of the deck.
func (s *State) returnCard(c Card) {
	if c == NoCard {
		return
	}
	copy(s.Deck[1:s.DeckN+1], s.Deck[:s.DeckN])
	s.Deck[0] = c
	s.DeckN++
}

// expectation checks one expect line against the state after the move; "" if it holds.
func (s *State) expectation(line string, res *ScenarioResult) string {
	f := strings.Fields(line)
	arg := func(i int) string {
		if i < len(f) {
			return f[i]
		}
		return ""
	}
	cell := func(i int) Cell {
		c, err := ParseCell(arg(i))
		if err != nil {
			return NoCell
		}
		return c
	}
	rest := strings.TrimSpace(strings.TrimPrefix(line, f[0]))
	switch f[0] {
	case "error":
		if res.Error == "" {
			return "the move was accepted"
		}
		if !strings.Contains(res.Error, rest) {
			return "the error was: " + res.Error
		}
	case "accepted":
		if res.Error != "" {
			return "refused: " + res.Error
		}
	case "a", "b", "A", "B", "empty":
		c := cell(1)
		if c == NoCell {
			return "which cell?"
		}
		want := Empty
		if f[0] != "empty" {
			side, _ := sideArg(f[0])
			want = carOf(side, f[0] == "A" || f[0] == "B")
		}
		if s.Board[c] != want {
			return fmt.Sprintf("%s holds %q", c, pieceChars[s.Board[c]])
		}
	case "operator":
		if arg(1) == "hole" {
			if s.Operator != NoCell || s.OpHole != SlotOf(cell(2)) {
				return fmt.Sprintf("the operator is on %s (hole %v)", s.Operator, s.OpHole)
			}
		} else if s.Operator != cell(1) {
			return fmt.Sprintf("the operator is on %s", cellOrHole(s.Operator))
		}
	case "score", "stock", "acc":
		side, err := sideArg(arg(1))
		if err != nil {
			return err.Error()
		}
		want, err := strconv.Atoi(arg(2))
		if err != nil {
			return "want a number"
		}
		got := map[string]int{"score": s.Score[side], "stock": int(s.Stock[side]), "acc": int(s.Acc[side])}[f[0]]
		if got != want {
			return fmt.Sprintf("it is %d", got)
		}
	case "magnet-in-stock", "dead-acc":
		side, err := sideArg(arg(1))
		if err != nil {
			return err.Error()
		}
		got := s.Magnet[side]
		if f[0] == "dead-acc" {
			got = s.DeadAcc[side]
		}
		if got != (arg(2) != "no") {
			return fmt.Sprintf("it is %v", got)
		}
	case "events", "turn", "to-move":
		want, err := strconv.Atoi(arg(1))
		if err != nil {
			return "want a number"
		}
		got := map[string]int{"events": s.Events, "turn": s.Turn, "to-move": s.ToMove + 1}[f[0]]
		if got != want {
			return fmt.Sprintf("it is %d", got)
		}
	case "bell", "no-bell":
		if (s.BellAt(cell(1)) >= 0) != (f[0] == "bell") {
			return "bells are on " + s.bellList()
		}
	case "hole", "no-hole":
		if (OnBoard(cell(1)) && !s.Present(cell(1))) != (f[0] == "hole") {
			return "it is not so"
		}
	case "over", "not-over":
		if s.Over() != (f[0] == "over") {
			return fmt.Sprintf("over is %v", s.Over())
		}
	case "hand":
		seat, err := strconv.Atoi(arg(1))
		if err != nil || seat < 1 || seat > s.Players {
			return "hand SEAT CARDS"
		}
		want, err := cardsArg(strings.Join(f[2:], " "))
		if err != nil {
			return err.Error()
		}
		got := s.Hand(seat - 1)
		sort.Slice(got, func(i, j int) bool { return got[i] < got[j] })
		sort.Slice(want, func(i, j int) bool { return want[i] < want[j] })
		if fmt.Sprint(got) != fmt.Sprint(want) {
			return "the hand is " + handList(got)
		}
	case "hand-size":
		seat, _ := strconv.Atoi(arg(1))
		n, _ := strconv.Atoi(arg(2))
		if seat < 1 || seat > s.Players || len(s.Hand(seat-1)) != n {
			return fmt.Sprintf("hand size is %d", len(s.Hand(max(seat-1, 0))))
		}
	case "face-up":
		var p []string
		for _, c := range s.FaceUp {
			p = append(p, c.String())
		}
		if strings.Join(p, ", ") != rest {
			return "face-up is " + strings.Join(p, ", ")
		}
	case "event", "no-event":
		found := false
		for _, e := range res.Events {
			found = found || strings.Contains(e, rest)
		}
		if found != (f[0] == "event") {
			return "events:\n    " + strings.Join(res.Events, "\n    ")
		}
	default:
		return "unknown expectation"
	}
	return ""
}
