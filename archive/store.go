package archive

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/store"
)

// RecordOf reads a stored game for its archive: the game's row, its players' names in
// seat order, its live (not void) turns from the set-up to the latest, each turn's
// moves as the judge recorded them (a game behind the seam) and its press. The
// players' addresses and secrets are not read.
func RecordOf(tx *store.Tx, gameID int64) (game.Record, error) {
	g, err := tx.Game(gameID)
	if err != nil {
		return game.Record{}, fmt.Errorf("archive: %w", err)
	}
	what := "archive: game " + g.Tag
	rec := game.Record{Kind: g.Kind, Tag: g.Tag, Name: g.Name, Course: g.Course, Config: g.Rules, Seed: g.Seed}
	players, err := tx.Players(gameID)
	if err != nil {
		return game.Record{}, fmt.Errorf("%s: %w", what, err)
	}
	sort.Slice(players, func(a, b int) bool { return players[a].Seat < players[b].Seat })
	for _, p := range players {
		rec.Seats = append(rec.Seats, p.Robot)
	}
	turns, err := tx.LiveTurns(gameID)
	if err != nil {
		return game.Record{}, fmt.Errorf("%s: %w", what, err)
	}
	for i, tn := range turns {
		if tn.Number != i {
			return game.Record{}, fmt.Errorf("%s: turn %d: not stored (the live turns run to %d)", what, i, turns[len(turns)-1].Number)
		}
		t := game.RecordTurn{LegacyTurn: game.LegacyTurn{Number: tn.Number, Before: tn.Before, After: tn.After, Events: tn.Events, Orders: tn.Orders}}
		if g.Kind != "" && tn.Number > 0 {
			var played []hostedPlayed
			if err := json.Unmarshal(tn.Orders, &played); err != nil {
				return game.Record{}, fmt.Errorf("%s: turn %d: the moves played: %w", what, tn.Number, err)
			}
			for _, p := range played {
				t.Played = append(t.Played, game.PlayedMove{Seat: p.Seat, Move: p.Move, Missed: p.Missed})
			}
		}
		rec.Turns = append(rec.Turns, t)
	}
	if len(rec.Turns) == 0 {
		return game.Record{}, fmt.Errorf("%s: no turns stored (not even the set-up)", what)
	}
	press, err := tx.PressOf(gameID)
	if err != nil {
		return game.Record{}, fmt.Errorf("%s: %w", what, err)
	}
	for _, p := range press {
		rec.Press = append(rec.Press, game.RecordPress{ID: p.ID, Turn: p.Turn, From: p.From, To: p.To, Signed: p.Signed, Body: p.Body})
	}
	return rec, nil
}

// hostedPlayed is the judge's record of one seat's move in a turn of a game behind the
// seam (turns.orders, a list of them).
type hostedPlayed struct {
	Seat   int       `json:"seat"`
	Move   game.Move `json:"move"`
	Missed bool      `json:"missed,omitempty"`
}
