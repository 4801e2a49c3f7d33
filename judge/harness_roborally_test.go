package judge

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/orders"
	"github.com/rallyjudge/rallyjudge/roborally"
	"github.com/rallyjudge/rallyjudge/store"
)

// The tests read a RoboRally game whichever path plays it: a game stored before the
// seam (the engine's bare state, an orders.Sheet a version) or RoboRally behind it
// (roborally.Kind: a position holding the state, a game.Move holding the sheet).

// testStateOf is a RoboRally game's current engine state: its latest position's.
func testStateOf(tx *store.Tx, g store.Game) (*adjudicator.State, store.Turn, error) {
	tn, err := tx.LatestTurn(g.ID)
	if err != nil {
		return nil, tn, fmt.Errorf("game %s: latest turn: %w", g.Tag, err)
	}
	var p struct {
		State *adjudicator.State `json:"state"`
	}
	if err := json.Unmarshal(tn.After, &p); err != nil || p.State == nil {
		return nil, tn, fmt.Errorf("game %s: position of turn %d: %v", g.Tag, tn.Number, err)
	}
	return p.State, tn, nil
}

// testReader reads the tests' mails' sheets, as the judge's catalogue does.
var testReader game.MailReader = roborally.Kind{}

// sheetProblemsError is game.SheetError, for tests whose variables are named game.
type sheetProblemsError = game.SheetError

// orderSheet is a reading's sheet as RoboRally's reader read it (orders.Sheet).
func orderSheet(r *Reading) *orders.Sheet {
	var s orders.Sheet
	if r.Sheet != nil && r.Sheet.Read != nil {
		_ = json.Unmarshal(r.Sheet.Read(), &s)
	}
	return &s
}

// stateOf is testStateOf (the tests' older name).
func stateOf(tx *store.Tx, g store.Game) (*adjudicator.State, store.Turn, error) {
	return testStateOf(tx, g)
}

// setupFor is a RoboRally game's engine setup as roborally.Kind makes it from the
// game's settings and seed, with the course loader of the judge's roborally.Kind.
func (j *Judge) setupFor(g store.Game) (*adjudicator.Setup, error) {
	k, err := j.hostedKind(g)
	if err != nil {
		return nil, err
	}
	rk, ok := k.(roborally.Kind)
	if !ok {
		return nil, fmt.Errorf("game %s plays %s", g.Tag, g.Kind)
	}
	cfg, err := k.LoadConfig(g.Rules)
	if err != nil {
		return nil, err
	}
	c := cfg.(roborally.Config)
	load := rk.Course
	if load == nil {
		load = adjudicator.LoadCourse
	}
	course, err := load(c.CourseName)
	if err != nil {
		return nil, err
	}
	return roborally.NewSetup(course, c.Rules, g.Seed)
}

// gameRules is a RoboRally game's ruleset as its settings keep it (roborally.ReadRules:
// with the option deck dealt).
func gameRules(g store.Game) adjudicator.Rules {
	var c struct {
		Rules json.RawMessage `json:"rules"`
	}
	_ = json.Unmarshal(g.Rules, &c)
	r, _ := roborally.ReadRules(c.Rules)
	return r
}

// gameMissed is a RoboRally game's missed-orders policy as its settings keep it.
func gameMissed(g store.Game) string {
	var c roborally.Config
	_ = json.Unmarshal(g.Rules, &c)
	return c.MissedPolicy()
}

// testSheetJSON is a stored order version's sheet as the orders package encodes it.
func testSheetJSON(parsed []byte) []byte {
	var m struct {
		Data struct {
			Sheet json.RawMessage `json:"sheet"`
		} `json:"data"`
	}
	if json.Unmarshal(parsed, &m) == nil && len(m.Data.Sheet) > 0 {
		return m.Data.Sheet
	}
	return parsed
}

// testPlayedJSON is what the engine played in a stored turn ([]orders.Played): the
// turn's orders on the older path, its events' record behind the seam.
func testPlayedJSON(tn store.Turn) []byte {
	var o struct {
		Played json.RawMessage `json:"played"`
	}
	if json.Unmarshal(tn.Events, &o) == nil && len(o.Played) > 0 {
		return o.Played
	}
	return tn.Orders
}

// testEventsJSON is the engine's events of a stored turn ([]adjudicator.Event).
func testEventsJSON(tn store.Turn) []byte {
	var o struct {
		Events json.RawMessage `json:"events"`
	}
	if json.Unmarshal(tn.Events, &o) == nil && len(o.Events) > 0 {
		return o.Events
	}
	return tn.Events
}

// testBeforeJSON is the state the engine was given in a stored turn: turns.before on
// the older path; behind the seam, made again from the position before and the moves
// (game.Unadopter), as the archive makes it.
func testBeforeJSON(t testing.TB, j *Judge, tn store.Turn) []byte {
	t.Helper()
	var out []byte
	err := j.Store.View(context.Background(), func(tx *store.Tx) error {
		g, err := tx.Game(tn.GameID)
		if err != nil || g.Kind == "" {
			out = tn.Before
			return err
		}
		k, err := j.hostedKind(g)
		if err != nil {
			return err
		}
		u, ok := k.(game.Unadopter)
		if !ok {
			return fmt.Errorf("game %s plays %s", g.Tag, g.Kind)
		}
		lt, err := unadoptTurn(u, g, tn)
		out = lt.Before
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// unadoptTurn is a stored turn of g in the older path's encodings (game.Unadopter), the
// moves as the turn recorded them.
func unadoptTurn(u game.Unadopter, g store.Game, tn store.Turn) (game.LegacyTurn, error) {
	var played []hostedPlayed
	if tn.Number > 0 {
		if err := json.Unmarshal(tn.Orders, &played); err != nil {
			return game.LegacyTurn{}, err
		}
	}
	moves := map[int]game.Move{}
	for _, p := range played {
		moves[p.Seat] = p.Move
	}
	return u.UnadoptTurn(g.Rules, tn.Before, moves, tn.After, tn.Events)
}

// testAfterJSON is the engine's state after a stored turn: turns.after on the older
// path, the position's state behind the seam, as the engine encodes it.
func testAfterJSON(tn store.Turn) []byte {
	var p struct {
		State json.RawMessage `json:"state"`
	}
	if json.Unmarshal(tn.After, &p) != nil || len(p.State) == 0 {
		return tn.After
	}
	var st adjudicator.State
	if json.Unmarshal(p.State, &st) != nil {
		return tn.After
	}
	b, _ := json.Marshal(&st)
	return b
}

// setCourses makes f's judge read RoboRally's courses with load on either path: the
// judge's own loader (Judge.Course) and roborally.Kind's behind the seam, with the
// setups read before forgotten. Tests use it to make a mail's handling fail (a course
// that cannot be read) and then to mend it.
func (f *fixture) setCourses(load func(string) (*adjudicator.Course, error)) {
	for i, k := range f.j.Games {
		if rk, ok := k.(roborally.Kind); ok {
			rk.Course = load
			f.j.Games[i] = rk
		}
	}
}
