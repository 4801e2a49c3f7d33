package judge

import (
	"encoding/json"
	"fmt"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/store"
)

// The tests read a RoboRally game whichever path plays it: a game stored before the
// seam (the engine's bare state, an orders.Sheet a version) or RoboRally behind it
// (roborally.Kind: a position holding the state, a game.Move holding the sheet).

// testStateOf is the game's current RoboRally state (stateOf on the older path).
func testStateOf(tx *store.Tx, g store.Game) (*adjudicator.State, store.Turn, error) {
	if g.Kind != "roborally" {
		return stateOf(tx, g)
	}
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
