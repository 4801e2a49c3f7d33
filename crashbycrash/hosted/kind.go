// Package hosted puts Crash by Crash (package crashbycrash) behind the game seam
// (package game), so that the judge hosts it by mail without knowing it: the settings a
// game master gives at CREATE, the deal, a player's move read and checked against the
// position, the move played, the reports, the autopilot for a missed move.
//
// It decides no rule (crashbycrash does) and does no I/O.
package hosted

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rallyjudge/rallyjudge/crashbycrash"
	"github.com/rallyjudge/rallyjudge/crashbycrash/render"
	"github.com/rallyjudge/rallyjudge/game"
)

// Kind is Crash by Crash as the judge hosts it.
type Kind struct{}

var _ game.Kind = Kind{}

func (Kind) Name() string  { return "crash-by-crash" }
func (Kind) Title() string { return "Crash by Crash" }

func (Kind) Guide() string {
	// at most 72 columns, as a report (game.Report)
	return "Write your two actions, one a line, then where your cards come from\n" +
		"(docs/crash-by-crash.md):\n" +
		"  place C5 push NE 1 accumulator  a car next to another, pushing it\n" +
		"                                  (0-2 accumulators)\n" +
		"  magnet C5                       the magnetic car, pulling the cars\n" +
		"                                  two cells away\n" +
		"  play Lambada C4 C5              a card and the cells it takes\n" +
		"  operator D2 D3                  the operator, 2 or 4 cells (4 cost\n" +
		"                                  2 points)\n" +
		"  exchange Tandem Saboteur: face-up 2, deck\n" +
		"  draw face-up 1, deck            the end-of-turn draw back to three\n" +
		"During the set-up a move is one line: place C5 (four cars each, one\n" +
		"to a tile)."
}

// Config is a game's settings.
type Config struct {
	crashbycrash.Settings
}

func (c Config) Seats() (int, int) { return c.Players, c.Players }

func (c Config) Text() string {
	if c.Players == 4 {
		return "the team game, two against two (seats 1 and 3 against 2 and 4)"
	}
	return "two players"
}

func (c Config) Encode() ([]byte, error) { return json.Marshal(c.Settings) }

// Configure reads players=2|4 and first-event-turn=N.
func (Kind) Configure(kv map[string]string) (game.Config, error) {
	c := Config{crashbycrash.Settings{Players: 2}}
	// in the keys' order, so that of two bad settings the same one is named every time
	// (the map's order named either)
	for _, k := range slices.Sorted(maps.Keys(kv)) {
		v := kv[k]
		switch k {
		case "players", "max-players":
			n, err := strconv.Atoi(v)
			if err != nil || (n != 2 && n != 4) {
				return nil, fmt.Errorf("players %q: Crash by Crash is played by 2, or 4 in two teams", v)
			}
			c.Players = n
		case "first-event-turn":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 99 {
				return nil, fmt.Errorf("first-event-turn %q: want the game turn (1 to 99) from which a bell may ring", v)
			}
			c.FirstEventTurn = n
		default:
			return nil, fmt.Errorf("there is no setting %q (Crash by Crash takes players=2|4 and first-event-turn=N)", k)
		}
	}
	return c, nil
}

func (Kind) LoadConfig(raw []byte) (game.Config, error) {
	var s crashbycrash.Settings
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("settings unreadable: %v", err)
	}
	if s.Players != 2 && s.Players != 4 {
		return nil, fmt.Errorf("settings: %d players (want 2 or 4)", s.Players)
	}
	return Config{s}, nil
}

// position is a game between two moves: the engine's state and the players' names.
type position struct {
	Names []string            `json:"names"`
	State *crashbycrash.State `json:"state"`
}

func (Kind) Start(c game.Config, seats []string, seed int64) (game.Position, error) {
	cf, ok := c.(Config)
	if !ok {
		return nil, errors.New("crash-by-crash: settings of another game")
	}
	if len(seats) != cf.Players {
		return nil, fmt.Errorf("Crash by Crash with these settings is played by %d, not %d", cf.Players, len(seats))
	}
	st, err := crashbycrash.NewGame(cf.Settings, uint64(seed))
	if err != nil {
		return nil, err
	}
	return &position{Names: slices.Clone(seats), State: st}, nil
}

func (Kind) Load(c game.Config, b []byte) (game.Position, error) {
	cf, ok := c.(Config)
	if !ok {
		return nil, errors.New("crash-by-crash: settings of another game")
	}
	var raw struct {
		Names []string        `json:"names"`
		State json.RawMessage `json:"state"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("crash-by-crash: position unreadable: %v", err)
	}
	st, err := crashbycrash.Decode(raw.State)
	if err != nil {
		return nil, fmt.Errorf("crash-by-crash: %w", err)
	}
	if st.Players != cf.Players || len(raw.Names) != st.Players {
		return nil, fmt.Errorf("crash-by-crash: position of %d players with %d names, settings of %d", st.Players, len(raw.Names), cf.Players)
	}
	return &position{Names: raw.Names, State: st}, nil
}

func (p *position) Encode() ([]byte, error) { return json.Marshal(p) }

func (p *position) Over() bool { return p.State.Over() }

func (p *position) Due() []int {
	if p.State.Over() {
		return nil
	}
	return []int{p.State.ToMove}
}

func (p *position) Standings() []game.Standing {
	scores := p.State.Standings()
	var out []game.Standing
	for seat, sc := range scores {
		side := p.State.SideOf(seat)
		out = append(out, game.Standing{Seat: seat, Score: sc,
			Line: fmt.Sprintf("side %s, %d points, %d cars on the board", crashbycrash.SideName(side), sc, p.State.OnBoardCars(side))})
	}
	slices.SortStableFunc(out, func(a, b game.Standing) int { return b.Score - a.Score })
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && out[i].Score == out[i-1].Score {
			out[i].Rank = out[i-1].Rank
		}
	}
	return out
}

// Check reads a seat's move and tries it on a copy of the position.
func (p *position) Check(seat int, text string) game.Checked {
	var c game.Checked
	if p.State.Over() {
		c.Problems = []game.Problem{{Msg: "the game is over"}}
		return c
	}
	if seat != p.State.ToMove {
		c.Problems = []game.Problem{{Msg: fmt.Sprintf("it is %s's move, not yours", p.Names[p.State.ToMove])}}
		return c
	}
	m, err := crashbycrash.ParseMove(text)
	if err != nil {
		var pe *crashbycrash.ParseError
		if errors.As(err, &pe) && strings.HasPrefix(pe.Msg, "no action;") {
			// about the whole mail: its line 1 is the envelope's (game ...), not the move's
			c.Problems = []game.Problem{{Msg: "no move in the mail: " + strings.TrimPrefix(pe.Msg, "no action; ")}}
		} else if errors.As(err, &pe) {
			c.Problems = []game.Problem{{Line: pe.Line, Col: pe.Col, Msg: pe.Msg}}
		} else {
			c.Problems = []game.Problem{{Msg: err.Error()}}
		}
		return c
	}
	// by mail the second action cannot use a card drawn from the deck in the first: the
	// answer would tell the deck's order before the draw (ruling "Written before the draw")
	if err := p.State.BlindCard(seat, m); err != nil {
		c.Problems = []game.Problem{{Msg: err.Error()}}
		return c
	}
	next, evs, err := crashbycrash.Apply(p.State, seat, m)
	if err != nil {
		c.Problems = []game.Problem{{Msg: err.Error()}}
		return c
	}
	data, err := json.Marshal(m)
	if err != nil {
		c.Problems = []game.Problem{{Msg: err.Error()}}
		return c
	}
	c.Move = game.Move{Data: data, Text: crashbycrash.Format(m)}
	// the forecast: the board after the move and what happened, as the other players
	// will read it (a card drawn from the deck is not named: the deck's order is not
	// the player's to know before the draw is made)
	// nor is a face-up card turned up from the deck to fill a slot the move takes from
	var b strings.Builder
	shown := *next
	var hidden []int
	for _, e := range evs {
		if e.Kind == crashbycrash.EvDraw && e.N >= 1 && e.N <= len(shown.FaceUp) {
			if shown.FaceUp[e.N-1] != crashbycrash.NoCard && !slices.Contains(hidden, e.N) {
				shown.FaceUp[e.N-1] = crashbycrash.NoCard
				hidden = append(hidden, e.N)
			}
		}
		if e.Kind == crashbycrash.EvDraw || e.Kind == crashbycrash.EvNextMove {
			continue
		}
		b.WriteString("  " + p.eventLine(e) + "\n")
	}
	b.WriteString("\n")
	board := crashbycrash.BoardText(&shown)
	for _, n := range hidden {
		board = strings.Replace(board, fmt.Sprintf("\n  %d %s\n", n, crashbycrash.NoCard),
			fmt.Sprintf("\n  %d (turned up from the deck after the move)\n", n), 1)
	}
	b.WriteString(board)
	c.Forecast = b.String()
	return c
}

func (p *position) Play(moves map[int]game.Move, seed int64) (game.Result, error) {
	if p.State.Over() {
		return game.Result{}, errors.New("crash-by-crash: the game is over")
	}
	seat := p.State.ToMove
	mv, ok := moves[seat]
	if !ok || len(moves) != 1 {
		return game.Result{}, fmt.Errorf("crash-by-crash: want the move of seat %d alone", seat+1)
	}
	var m crashbycrash.Move
	if err := json.Unmarshal(mv.Data, &m); err != nil {
		return game.Result{}, fmt.Errorf("crash-by-crash: move unreadable: %v", err)
	}
	next, evs, err := crashbycrash.Apply(p.State, seat, m)
	if err != nil {
		return game.Result{}, fmt.Errorf("crash-by-crash: %s's move %q: %w", p.Names[seat], mv.Text, err)
	}
	ev, err := json.Marshal(evs)
	if err != nil {
		return game.Result{}, err
	}
	np := &position{Names: p.Names, State: next}
	var story []string
	for _, e := range evs {
		if e.Kind == crashbycrash.EvNextMove {
			continue
		}
		story = append(story, np.eventLine(e))
	}
	return game.Result{Next: np, Events: ev, Story: story}, nil
}

// Autopilot picks the seat's move for a missed deadline: the engine's bot (the best
// score difference after the move).
func (p *position) Autopilot(seat int, seed int64) game.Move {
	m := crashbycrash.BotMove(p.State)
	data, _ := json.Marshal(m)
	return game.Move{Data: data, Text: crashbycrash.Format(m)}
}

// eventLine is an event in words, with the players' names for seats.
func (p *position) eventLine(e crashbycrash.Event) string {
	s := e.String()
	for i := len(p.Names) - 1; i >= 0; i-- {
		s = strings.ReplaceAll(s, fmt.Sprintf("seat %d", i+1), p.Names[i])
	}
	return s
}

func (p *position) Report(seat int, events []byte) game.Report {
	st := p.State
	var evs []crashbycrash.Event
	if len(events) > 0 && string(events) != "null" {
		_ = json.Unmarshal(events, &evs)
	}
	var b strings.Builder
	if len(evs) > 0 {
		b.WriteString("What happened:\n")
		for _, e := range evs {
			if e.Kind == crashbycrash.EvNextMove {
				continue
			}
			line := p.eventLine(e)
			if e.Kind == crashbycrash.EvDraw && e.N == 0 && e.Seat == seat && e.Card != 0 {
				line += fmt.Sprintf(" (%s)", e.Card) // the drawer is told what it drew
			}
			b.WriteString(game.Wrap("  "+line, "  ") + "\n")
		}
		b.WriteString("\n")
	}
	b.WriteString(p.sidesText())
	b.WriteString("\n")
	b.WriteString(crashbycrash.BoardText(st))
	b.WriteString(crashbycrash.BoardLegend + "\n")
	if seat >= 0 && seat < len(p.Names) {
		var hand []string
		for _, c := range st.Hand(seat) {
			hand = append(hand, c.String())
		}
		line := fmt.Sprintf("Your cards (%s, side %s): %s", p.Names[seat], crashbycrash.SideName(st.SideOf(seat)), strings.Join(hand, ", "))
		if utf8.RuneCountInString(line) > game.ReportWidth {
			line = fmt.Sprintf("Your cards (%s, side %s):\n  %s", p.Names[seat], crashbycrash.SideName(st.SideOf(seat)), strings.Join(hand, ", "))
		}
		b.WriteString("\n" + line + "\n")
	}
	subject := ""
	switch {
	case st.Over():
		var names []string
		for _, w := range st.Winners() {
			names = append(names, p.Names[w])
		}
		subject = "game over: " + strings.Join(names, " and ") + " won"
		b.WriteString("\n" + game.Wrap(fmt.Sprintf("The game is over. %s won.", strings.Join(names, " and ")), "") + "\n")
	case st.Phase == crashbycrash.PhaseSetup:
		subject = p.Names[st.ToMove] + " places a car"
		b.WriteString("\n" + game.Wrap(fmt.Sprintf("Set-up: %s places a starting car next (four each, one to a tile).", p.Names[st.ToMove]), "") + "\n")
	default:
		subject = fmt.Sprintf("game turn %d, %s to move", st.Turn, p.Names[st.ToMove])
		fmt.Fprintf(&b, "\nGame turn %d: %s to move.\n", st.Turn, p.Names[st.ToMove])
	}
	rep := game.Report{Subject: subject, Text: b.String()}
	// the board's picture, the last move's trails drawn on it; a report without it is
	// still whole (the text board), so a picture that cannot be drawn is left out
	var touched []crashbycrash.Cell
	for _, e := range evs {
		for _, c := range []crashbycrash.Cell{e.From, e.To} {
			if c != crashbycrash.NoCell && !slices.Contains(touched, c) {
				touched = append(touched, c)
			}
		}
	}
	if png, err := render.Board(st, render.Options{Trails: evs, Highlight: touched}); err == nil {
		rep.Picture, rep.PictureName = png, "board.png"
	}
	return rep
}

// sidesText names the players of each side (the board and its status name sides and
// seats).
func (p *position) sidesText() string {
	var b strings.Builder
	for side := 0; side < 2; side++ {
		var who []string
		for seat := range p.Names {
			if p.State.SideOf(seat) == side {
				who = append(who, fmt.Sprintf("%s (seat %d)", p.Names[seat], seat+1))
			}
		}
		fmt.Fprintf(&b, "Side %s: %s\n", crashbycrash.SideName(side), strings.Join(who, " and "))
	}
	return b.String()
}

var _ game.Scenarios = Kind{}

// RunScenario plays a Crash by Crash scenario file (docs/crash-by-crash.md).
func (Kind) RunScenario(text string) ([]byte, error) { return crashbycrash.RunScenario(text) }
