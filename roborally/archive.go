package roborally

import (
	"fmt"
	"io"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/roborally/rja"
)

// RoboRally's games are archived in its own format, the .rja files of docs/archive.md
// (version 1, package rja), on either path: a game stored before the seam as it always
// was, one played behind it read back into the older encodings (Unadopt), so that
// every archive a player kept replays and imports as before.

var _ game.Archiver = Kind{}

// ArchiveMagic is rja.Magic, the first word of an .rja archive.
func (Kind) ArchiveMagic() string { return rja.Magic }

// ReadArchive reads an .rja archive (rja.Read).
func (Kind) ReadArchive(r io.Reader) (game.Archive, error) {
	a, err := rja.Read(r)
	if err != nil {
		return nil, err
	}
	return &a, nil
}

// ArchiveOf is the .rja archive of a stored game (rja.FromRecord): the course looked
// up with the Kind's Course and inlined, the turns in the older encodings (a game
// played behind the seam read back with Unadopt).
func (k Kind) ArchiveOf(rec game.Record) (game.Archive, error) {
	if rec.Kind != "" {
		var err error
		if rec, err = k.Unadopt(rec); err != nil {
			return nil, err
		}
	}
	a, err := rja.FromRecord(rec, k.course, adjudicator.LoadBoard)
	if err != nil {
		return nil, err
	}
	return &a, nil
}

// Unadopt is a record of a game played behind the seam in the encodings of the games
// it adopted (game.Unadopter): the settings as the course and the engine's rules; each
// turn's state after it bare, the state the engine was given made again from the
// position before the turn and the moves played, and the orders it played.
func (k Kind) Unadopt(rec game.Record) (game.Record, error) {
	what := "archive: game " + rec.Tag
	config := rec.Config
	out := rec
	var err error
	if out.Course, out.Config, err = k.UnadoptConfig(config); err != nil {
		return game.Record{}, fmt.Errorf("%s: settings: %w", what, err)
	}
	out.Kind = ""
	out.Turns = make([]game.RecordTurn, len(rec.Turns))
	var prev []byte
	for i, tn := range rec.Turns {
		var before []byte
		moves := map[int]game.Move{}
		if tn.Number > 0 {
			if before = tn.Before; len(before) == 0 {
				before = prev
			}
			for _, p := range tn.Played {
				moves[p.Seat] = p.Move
			}
		}
		prev = tn.After
		lt, err := k.UnadoptTurn(config, before, moves, tn.After, tn.Events)
		if err != nil {
			return game.Record{}, fmt.Errorf("%s: turn %d: %w", what, tn.Number, err)
		}
		t := tn
		t.Before, t.After, t.Orders, t.Played = lt.Before, lt.After, lt.Orders, nil
		out.Turns[i] = t
	}
	return out, nil
}
