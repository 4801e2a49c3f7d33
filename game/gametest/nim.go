// Package gametest is a small game played in turn, Nim, behind the game seam: the
// judge's tests play it to check that the judge hosts a game it knows only through
// package game. It is not offered to players.
//
// The rules: a pile of Pile counters; seats take 1 to 3 in turn ("take 2"); whoever
// takes the last counter wins.
package gametest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/rallyjudge/rallyjudge/game"
)

// Nim is the Kind.
type Nim struct{}

func (Nim) Name() string  { return "nim" }
func (Nim) Title() string { return "Nim" }
func (Nim) Guide() string { return "Write one line: take N (N from 1 to 3)." }

// Config is Nim's settings: the pile and the number of players.
type Config struct {
	Pile    int `json:"pile"`
	Players int `json:"players"`
}

func (c Config) Seats() (int, int)       { return c.Players, c.Players }
func (c Config) Text() string            { return fmt.Sprintf("Nim, a pile of %d, %d players", c.Pile, c.Players) }
func (c Config) Encode() ([]byte, error) { return json.Marshal(c) }

func (Nim) Configure(kv map[string]string) (game.Config, error) {
	c := Config{Pile: 10, Players: 2}
	for k, v := range kv {
		n, err := strconv.Atoi(v)
		switch {
		case k != "pile" && k != "players":
			return nil, fmt.Errorf("nim has no setting %q (settings: pile, players)", k)
		case err != nil || n < 1 || n > 1000:
			return nil, fmt.Errorf("%s %q: want a number from 1 to 1000", k, v)
		case k == "pile":
			c.Pile = n
		default:
			c.Players = n
		}
	}
	return c, nil
}

func (Nim) LoadConfig(raw []byte) (game.Config, error) {
	var c Config
	if err := json.Unmarshal(raw, &c); err != nil || c.Pile < 1 || c.Players < 1 {
		return nil, fmt.Errorf("nim settings %q unreadable", raw)
	}
	return c, nil
}

// Position is a Nim position.
type Position struct {
	Left    int      `json:"left"`
	ToMove  int      `json:"to_move"`
	Seats   []string `json:"seats"`
	Winner  int      `json:"winner"` // -1 while playing
	Moves   int      `json:"moves"`
	players int
}

func (Nim) Start(c game.Config, seats []string, seed int64) (game.Position, error) {
	cf := c.(Config)
	if len(seats) != cf.Players {
		return nil, fmt.Errorf("nim takes %d players, not %d", cf.Players, len(seats))
	}
	return &Position{Left: cf.Pile, Seats: seats, Winner: -1, ToMove: int(uint64(seed) % uint64(len(seats)))}, nil
}

func (Nim) Load(c game.Config, state []byte) (game.Position, error) {
	var p Position
	if err := json.Unmarshal(state, &p); err != nil {
		return nil, fmt.Errorf("nim state unreadable: %v", err)
	}
	if p.Left < 0 || len(p.Seats) == 0 || p.ToMove < 0 || p.ToMove >= len(p.Seats) || p.Winner >= len(p.Seats) {
		return nil, fmt.Errorf("nim state impossible")
	}
	return &p, nil
}

func (p *Position) Encode() ([]byte, error) { return json.Marshal(p) }
func (p *Position) Over() bool              { return p.Winner >= 0 }

func (p *Position) Due() []int {
	if p.Over() {
		return nil
	}
	return []int{p.ToMove}
}

func (p *Position) Standings() []game.Standing {
	var out []game.Standing
	for i, name := range p.Seats {
		s := game.Standing{Seat: i, Rank: 2, Line: name + ": lost"}
		if i == p.Winner {
			s.Rank, s.Score, s.Line = 1, 1, name+": took the last counter"
		} else if !p.Over() {
			s.Rank, s.Line = 1, name+": playing"
		}
		out = append(out, s)
	}
	if p.Over() && p.Winner != 0 {
		out[0], out[p.Winner] = out[p.Winner], out[0]
	}
	return out
}

type move struct {
	Take int `json:"take"`
}

func (p *Position) Check(seat int, text string) game.Checked {
	var c game.Checked
	found := false
	for i, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if found || len(f) != 2 || !strings.EqualFold(f[0], "take") {
			c.Problems = append(c.Problems, game.Problem{Line: i + 1, Col: 1, Msg: fmt.Sprintf("expected one line \"take N\", got %q", line)})
			continue
		}
		found = true
		n, err := strconv.Atoi(f[1])
		if err != nil || n < 1 || n > 3 {
			c.Problems = append(c.Problems, game.Problem{Line: i + 1, Col: 6, Msg: fmt.Sprintf("take 1, 2 or 3, not %q", f[1])})
			continue
		}
		if n > p.Left {
			c.Problems = append(c.Problems, game.Problem{Line: i + 1, Col: 6, Msg: fmt.Sprintf("only %d left", p.Left)})
			continue
		}
		data, _ := json.Marshal(move{n})
		c.Move = game.Move{Data: data, Text: fmt.Sprintf("take %d", n)}
		c.Forecast = fmt.Sprintf("%d would be left.", p.Left-n)
	}
	if !found && len(c.Problems) == 0 {
		c.Problems = append(c.Problems, game.Problem{Msg: "no move: write \"take N\""})
	}
	if seat != p.ToMove && !p.Over() {
		c.Problems = append(c.Problems, game.Problem{Msg: fmt.Sprintf("it is %s's move, not yours", p.Seats[p.ToMove])})
	}
	return c
}

type event struct {
	Seat int `json:"seat"`
	Take int `json:"take"`
	Left int `json:"left"`
}

func (p *Position) Play(moves map[int]game.Move, seed int64) (game.Result, error) {
	m, ok := moves[p.ToMove]
	if !ok || p.Over() {
		return game.Result{}, fmt.Errorf("nim: no move for the seat to move")
	}
	var mv move
	if err := json.Unmarshal(m.Data, &mv); err != nil || mv.Take < 1 || mv.Take > 3 || mv.Take > p.Left {
		return game.Result{}, fmt.Errorf("nim: move %q cannot be played", m.Data)
	}
	n := *p
	n.Left -= mv.Take
	n.Moves++
	if n.Left == 0 {
		n.Winner = p.ToMove
	} else {
		n.ToMove = (p.ToMove + 1) % len(p.Seats)
	}
	ev, _ := json.Marshal(event{Seat: p.ToMove, Take: mv.Take, Left: n.Left})
	return game.Result{Next: &n, Events: ev, Story: []string{fmt.Sprintf("%s took %d, %d left", p.Seats[p.ToMove], mv.Take, n.Left)}}, nil
}

func (p *Position) Autopilot(seat int, seed int64) game.Move {
	n := p.Left % 4
	if n == 0 {
		n = 1
	}
	n = min(n, p.Left, 3)
	data, _ := json.Marshal(move{n})
	return game.Move{Data: data, Text: fmt.Sprintf("take %d", n)}
}

func (p *Position) Report(seat int, events []byte) game.Report {
	var b strings.Builder
	var ev event
	if len(events) > 0 && json.Unmarshal(events, &ev) == nil && ev.Seat >= 0 && ev.Seat < len(p.Seats) {
		fmt.Fprintf(&b, "%s took %d.\n", p.Seats[ev.Seat], ev.Take)
	}
	fmt.Fprintf(&b, "%d counters left.\n", p.Left)
	subject := fmt.Sprintf("%d left", p.Left)
	if p.Over() {
		fmt.Fprintf(&b, "%s took the last counter and wins.\n", p.Seats[p.Winner])
		subject = p.Seats[p.Winner] + " wins"
	} else {
		fmt.Fprintf(&b, "%s to move.\n", p.Seats[p.ToMove])
	}
	return game.Report{Subject: subject, Text: b.String()}
}
