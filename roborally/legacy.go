package roborally

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/orders"
)

// The RoboRally games the judge stored before RoboRally sat behind the seam (a game row
// naming no game) are the judge's older path's: their settings the engine's rules
// (games.rules_json, course and missed-orders policy in columns of their own), each
// turn's state the engine's bare State, its events the engine's, its orders what the
// engine played (orders.Played), each order version's reading an orders.Sheet, and the
// standing orders in force nowhere but in the order versions of earlier turns. Adopt
// reads them into the Kind's encodings, so that the game plays on as the older path
// would have played it: the same setup (course, rules, seed), the same standing orders
// (every turn's sheets folded with orders.Merge in the order received, then what of
// them stands, as the older path's standingOrders), the same missed-orders policy.

var _ game.Legacy = Kind{}

// Adopt is a game stored by the judge's older RoboRally path in the Kind's encodings.
func (k Kind) Adopt(old game.LegacyGame) (out game.Adopted, err error) {
	defer func() { // hostile bytes: an error, never a panic
		if r := recover(); r != nil {
			out, err = game.Adopted{}, fmt.Errorf("roborally: game %s: stored game unreadable: %v", old.Tag, r)
		}
	}()
	return k.adopt(old)
}

func (k Kind) adopt(old game.LegacyGame) (game.Adopted, error) {
	var out game.Adopted
	rules, err := ReadRules(old.Rules)
	if err != nil {
		return out, fmt.Errorf("roborally: game %s: settings: %w", old.Tag, err)
	}
	cfg := Config{CourseName: old.Course, Rules: rules, Missed: old.Missed}
	switch cfg.Missed {
	case "", MissedPowerDown, MissedRandom, MissedAutopilot:
	default:
		return out, fmt.Errorf("roborally: game %s: missed-orders policy %q: want powerdown, random or autopilot", old.Tag, cfg.Missed)
	}
	if cfg.CourseName == "" {
		return out, fmt.Errorf("roborally: game %s: the game names no course", old.Tag)
	}
	if err := cfg.Rules.Check(); err != nil {
		return out, fmt.Errorf("roborally: game %s: settings: %w", old.Tag, err)
	}
	if out.Config, err = cfg.Encode(); err != nil {
		return out, err
	}
	// what LoadConfig reads back must be the settings read here
	if _, err := k.LoadConfig(out.Config); err != nil {
		return out, fmt.Errorf("roborally: game %s: %w", old.Tag, err)
	}
	setup, err := k.setup(cfg, old.Seed)
	if err != nil {
		return out, fmt.Errorf("roborally: game %s: %w", old.Tag, err)
	}

	// each turn's sheets, by seat: the valid versions folded as received (orders.Merge)
	folds := map[int]map[int]*orders.Sheet{}
	sheets := make([]*orders.Sheet, len(old.Versions))
	for i, v := range old.Versions {
		var s orders.Sheet
		if err := json.Unmarshal(v.Parsed, &s); err != nil {
			return out, fmt.Errorf("roborally: game %s turn %d: %s's orders unreadable: %v", old.Tag, v.Turn, seatName(old, v.Seat), err)
		}
		if v.Seat < 0 || v.Seat >= len(old.Seats) || v.Turn < 1 {
			return out, fmt.Errorf("roborally: game %s turn %d: orders of seat %d of %d", old.Tag, v.Turn, v.Seat+1, len(old.Seats))
		}
		sheets[i] = &s
		if folds[v.Turn] == nil {
			folds[v.Turn] = map[int]*orders.Sheet{}
		}
		folds[v.Turn][v.Seat] = orders.Merge(folds[v.Turn][v.Seat], &s)
	}

	if len(old.Turns) == 0 {
		if len(old.Versions) > 0 {
			return out, fmt.Errorf("roborally: game %s: orders for a game not started", old.Tag)
		}
		return out, nil // an open game: its settings only
	}
	// states[n] is the state after turn n, for the sheets of turn n+1
	states := map[int]*adjudicator.State{}
	standing := make([]*orders.Sheet, len(old.Seats))
	standingAfter := func(upto int) {
		// the standing orders after turn upto: every turn's up to it, as the older
		// path's standingOrders folds them
		standing = make([]*orders.Sheet, len(old.Seats))
		for t := 1; t <= upto; t++ {
			for seat := range standing {
				if s := folds[t][seat]; s != nil {
					standing[seat] = orders.Merge(standing[seat], Standing(rules, s))
				}
			}
		}
	}
	for i, tn := range old.Turns {
		if tn.Number != i {
			return out, fmt.Errorf("roborally: game %s: turn %d stored where turn %d belongs", old.Tag, tn.Number, i)
		}
		after, err := legacyState(setup, tn.After, len(old.Seats))
		if err != nil {
			return out, fmt.Errorf("roborally: game %s turn %d: state after: %w", old.Tag, tn.Number, err)
		}
		states[tn.Number] = after
		var at game.AdoptedTurn
		standingAfter(tn.Number - 1)
		if tn.Number > 0 && len(tn.Before) > 0 && string(tn.Before) != "null" {
			before, err := legacyState(setup, tn.Before, len(old.Seats))
			if err != nil {
				return out, fmt.Errorf("roborally: game %s turn %d: state before: %w", old.Tag, tn.Number, err)
			}
			if at.Before, err = json.Marshal(&position{Seed: old.Seed, State: before, Standing: standing, Given: true}); err != nil {
				return out, err
			}
		}
		if tn.Number > 0 {
			if at.Events, at.Played, err = legacyTurn(setup, old, tn, folds[tn.Number], states[tn.Number-1]); err != nil {
				return out, err
			}
		} else {
			at.Events = []byte("null")
		}
		standingAfter(tn.Number)
		if at.After, err = json.Marshal(&position{Seed: old.Seed, State: after, Standing: standing}); err != nil {
			return out, err
		}
		out.Turns = append(out.Turns, at)
	}
	last := old.Turns[len(old.Turns)-1].Number
	for i, v := range old.Versions {
		st := states[v.Turn-1]
		if st == nil { // a turn rolled back: the versions of turns past the last
			st = states[last]
		}
		mv, err := legacyMove(setup, st, v.Seat, sheets[i], "")
		if err != nil {
			return out, fmt.Errorf("roborally: game %s turn %d: %s's orders: %w", old.Tag, v.Turn, seatName(old, v.Seat), err)
		}
		b, err := json.Marshal(mv)
		if err != nil {
			return out, err
		}
		out.Versions = append(out.Versions, b)
	}
	return out, nil
}

func seatName(old game.LegacyGame, seat int) string {
	if seat >= 0 && seat < len(old.Seats) {
		return old.Seats[seat]
	}
	return fmt.Sprintf("seat %d", seat+1)
}

// legacyState reads a stored bare State, refusing one the game's setup cannot play.
func legacyState(setup *adjudicator.Setup, raw []byte, seats int) (*adjudicator.State, error) {
	var st adjudicator.State
	if err := json.Unmarshal(raw, &st); err != nil {
		return nil, fmt.Errorf("unreadable: %v", err)
	}
	if len(st.Robots) == 0 {
		return nil, errors.New("no robots")
	}
	if len(st.Robots) != seats {
		return nil, fmt.Errorf("%d robots for %d players", len(st.Robots), seats)
	}
	if err := setup.CheckState(&st); err != nil {
		return nil, err
	}
	return &st, nil
}

// legacyTurn is a played turn's events as Play stores them (the engine's events and
// what was played) and each seat's move as the seam records it: the sheets the seat
// sent, folded, and the missed-orders policy the older path played for it.
func legacyTurn(setup *adjudicator.Setup, old game.LegacyGame, tn game.LegacyTurn, sent map[int]*orders.Sheet, before *adjudicator.State) ([]byte, []game.PlayedMove, error) {
	var events []adjudicator.Event
	if len(tn.Events) > 0 {
		if err := json.Unmarshal(tn.Events, &events); err != nil {
			return nil, nil, fmt.Errorf("roborally: game %s turn %d: events unreadable: %v", old.Tag, tn.Number, err)
		}
	}
	var played []orders.Played
	if len(tn.Orders) > 0 {
		if err := json.Unmarshal(tn.Orders, &played); err != nil {
			return nil, nil, fmt.Errorf("roborally: game %s turn %d: orders played unreadable: %v", old.Tag, tn.Number, err)
		}
	}
	ev, err := json.Marshal(outcome{Events: events, Played: played})
	if err != nil {
		return nil, nil, err
	}
	if before == nil {
		return nil, nil, fmt.Errorf("roborally: game %s turn %d: the turn before it is not stored", old.Tag, tn.Number)
	}
	missed := map[int]string{}
	for _, p := range played {
		if p.Missed == "" {
			continue
		}
		seat := slices.IndexFunc(before.Robots, func(r adjudicator.Robot) bool { return r.Name == p.Robot })
		if seat < 0 {
			return nil, nil, fmt.Errorf("roborally: game %s turn %d: orders played for %q, who is not in the game", old.Tag, tn.Number, p.Robot)
		}
		missed[seat] = p.Missed
	}
	var moves []game.PlayedMove
	for seat := range old.Seats {
		s, pol := sent[seat], missed[seat]
		if s == nil && pol == "" {
			continue
		}
		m, err := legacyMove(setup, before, seat, s, pol)
		if err != nil {
			return nil, nil, fmt.Errorf("roborally: game %s turn %d: %s's orders: %w", old.Tag, tn.Number, seatName(old, seat), err)
		}
		moves = append(moves, game.PlayedMove{Seat: seat, Move: m, Missed: pol != ""})
	}
	return ev, moves, nil
}

// legacyMove is a sheet (and the missed-orders policy played for the seat) as Check,
// Autopilot and Fold make a Move.
func legacyMove(setup *adjudicator.Setup, st *adjudicator.State, seat int, s *orders.Sheet, missed string) (game.Move, error) {
	if seat < 0 || seat >= len(st.Robots) {
		return game.Move{}, fmt.Errorf("no seat %d", seat+1)
	}
	mv := move{Missed: missed}
	var text []string
	if s != nil {
		clean := *s
		clean.Secret, clean.Game, clean.At = "", "", orders.Places{}
		if clean.Turn == 0 {
			clean.Turn = st.Turn
		}
		mv.Sheet = &clean
		text = append(text, sheetText(setup, &st.Robots[seat], &clean))
	}
	if missed != "" {
		text = append(text, "(no orders: the missed-orders policy "+missed+")")
	}
	data, err := json.Marshal(mv)
	if err != nil {
		return game.Move{}, err
	}
	t := text[0]
	if len(text) > 1 {
		t += "\n" + text[1]
	}
	return game.Move{Data: data, Text: t}, nil
}

var _ game.Unadopter = Kind{}

// UnadoptConfig is a game's settings as the older path kept them: the course, and the
// rules as the engine encodes them.
func (k Kind) UnadoptConfig(config []byte) (string, []byte, error) {
	c, err := k.LoadConfig(config)
	if err != nil {
		return "", nil, err
	}
	cf := c.(Config)
	if cf.Rules.Own() { // as NewSetup keeps them: the 2023 rules have no option deck
		cf.Rules.OptionDeck = ""
	}
	rules, err := json.Marshal(cf.Rules)
	return cf.CourseName, rules, err
}

// UnadoptTurn is a turn in the older path's encodings (game.Unadopter): the bare states
// and the orders played, the state the engine was given made again from the position
// before and the moves, as Play made it.
func (k Kind) UnadoptTurn(config, before []byte, moves map[int]game.Move, after, events []byte) (game.LegacyTurn, error) {
	var out game.LegacyTurn
	c, err := k.LoadConfig(config)
	if err != nil {
		return out, err
	}
	pa, err := k.Load(c, after)
	if err != nil {
		return out, err
	}
	if out.After, err = json.Marshal(pa.(*position).State); err != nil {
		return out, err
	}
	if before == nil {
		return out, nil
	}
	pb, err := k.Load(c, before)
	if err != nil {
		return out, fmt.Errorf("position before: %w", err)
	}
	st := pb.(*position).State // a turn adopted from the older path: as it was given
	if !pb.(*position).Given {
		if st, _, _, err = pb.(*position).prepare(moves); err != nil {
			return out, err
		}
	}
	if out.Before, err = json.Marshal(st); err != nil {
		return out, err
	}
	var o outcome
	if err := json.Unmarshal(events, &o); err != nil {
		return out, fmt.Errorf("events unreadable: %v", err)
	}
	out.Orders, err = json.Marshal(o.Played)
	return out, err
}

// Engine is a RoboRally position's engine state and setup (ok false: the position is
// another game's), for what reads the game as the engine does: the demo's bots, tests.
func Engine(p game.Position) (st *adjudicator.State, setup *adjudicator.Setup, ok bool) {
	pos, ok := p.(*position)
	if !ok {
		return nil, nil, false
	}
	return pos.State, pos.setup, true
}

// TurnEvents are the engine's events of a stored turn, as the older path stored them
// (the engine's) or as Play stores them (with what was played).
func TurnEvents(raw []byte) ([]adjudicator.Event, error) {
	var events []adjudicator.Event
	if err := json.Unmarshal(raw, &events); err == nil {
		return events, nil
	}
	var o outcome
	if err := json.Unmarshal(raw, &o); err != nil {
		return nil, fmt.Errorf("events unreadable: %v", err)
	}
	return o.Events, nil
}
