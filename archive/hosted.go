package archive

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/rallyjudge/rallyjudge/archive/jsonl"
	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/store"
)

// Archives of the games the judge hosts behind the game seam (package game). The format
// has the shape every archive has (archive/jsonl, docs/archive.md): a magic line, a JSON header,
// one JSON line per turn. The header names the game (its package's name), its settings
// as the game encoded them, the seed and the seats; turn 0 is the set-up's hash; turn
// n is each due seat's move as the game read it (the autopilot's for a missed one) and
// the hash of the position after it. Replay asks the game to start and play every turn
// with game.TurnSeed and checks every hash. The archive knows the game only through
// the seam.

// HostedMagic opens an archive of a game behind the seam.
const HostedMagic = "rallyjudge-game-archive"

// HostedVersion is the format's version.
const HostedVersion = 1

// Hosted is one game behind the seam.
type Hosted struct {
	Kind   string          `json:"kind"` // the game's name (game.Kind.Name)
	Game   string          `json:"game"` // the game's tag, for the record
	Name   string          `json:"name,omitempty"`
	Config json.RawMessage `json:"config"`
	Seed   int64           `json:"seed"`
	Seats  []string        `json:"seats"` // the players' names, in seat order
	Count  int             `json:"turns"`
	Turns  []HostedTurn    `json:"-"`
}

// HostedTurn is one turn line.
type HostedTurn struct {
	Turn  int          `json:"turn"`
	Moves []HostedMove `json:"moves,omitempty"`
	Hash  string       `json:"hash"`
}

// HostedMove is one seat's move as played.
type HostedMove struct {
	Seat   int       `json:"seat"`
	Move   game.Move `json:"move"`
	Missed bool      `json:"missed,omitempty"` // the autopilot played it
}

// maxSeats bounds the seats an archive may name.
const maxSeats = 64

// Limits on what ReadHosted accepts (jsonl's, shared by every format).
const (
	MaxHeaderBytes = jsonl.MaxHeaderBytes
	MaxTurnBytes   = jsonl.MaxTurnBytes
	MaxTurns       = jsonl.MaxTurns
)

// Anonymous is the sender of an unsigned press message as an archive gives it.
const Anonymous = jsonl.Anonymous

// Error is a problem reading an archive: the line (and column) and what.
type Error = jsonl.Error

// ReplayError is a replay that went wrong at a turn.
type ReplayError = jsonl.ReplayError

// HashPosition is the SHA-256 of a position's encoding.
func HashPosition(p game.Position) (string, error) {
	b, err := p.Encode()
	if err != nil {
		return "", err
	}
	return jsonl.Hash(b), nil
}

// IsHosted says whether an archive's first bytes are a hosted game's archive.
func IsHosted(head []byte) bool { return bytes.HasPrefix(head, []byte(HostedMagic+" ")) }

// WriteHosted writes h: the same archive always gives the same bytes.
func WriteHosted(w io.Writer, h Hosted) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s %d\n", HostedMagic, HostedVersion)
	h.Count = len(h.Turns)
	var cfg bytes.Buffer
	if err := json.Compact(&cfg, h.Config); err != nil {
		return fmt.Errorf("archive: write: config: %w", err)
	}
	h.Config = cfg.Bytes()
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(h); err != nil {
		return fmt.Errorf("archive: write: header: %w", err)
	}
	for n, t := range h.Turns {
		if msg := checkHostedTurn(&h, &t, n); msg != "" {
			return fmt.Errorf("archive: write: turn %d: %s", n, msg)
		}
		var line bytes.Buffer
		le := json.NewEncoder(&line)
		le.SetEscapeHTML(false)
		if err := le.Encode(t); err != nil {
			return fmt.Errorf("archive: write: turn %d: %w", t.Turn, err)
		}
		if line.Len() > MaxTurnBytes {
			return fmt.Errorf("archive: write: turn %d: the line is %d bytes (a reader takes at most %d)", t.Turn, line.Len(), MaxTurnBytes)
		}
		bw.Write(line.Bytes())
	}
	return bw.Flush()
}

// ReadHosted reads a hosted game's archive, checking its structure (Replay checks the
// hashes). Input is hostile: lines and counts are bounded; an error names the line.
func ReadHosted(r io.Reader) (Hosted, error) {
	return jsonl.ReadFile(r, jsonl.Format[Hosted, HostedTurn]{Magic: HostedMagic, Version: HostedVersion, What: "an archive of a hosted game",
		Count: func(h *Hosted) int { return h.Count }, Turns: func(h *Hosted) *[]HostedTurn { return &h.Turns },
		CheckHeader: checkHostedHeader, CheckTurn: checkHostedTurn})
}

func checkHostedHeader(h *Hosted) string {
	switch {
	case h.Kind == "" || len(h.Kind) > 40:
		return "kind: want the game's name"
	case jsonl.CheckName(h.Game) != "":
		return "game: " + jsonl.CheckName(h.Game)
	case len(h.Config) == 0 || !json.Valid(h.Config):
		return "config: want the game's settings"
	case len(h.Seats) == 0 || len(h.Seats) > maxSeats:
		return fmt.Sprintf("seats: want 1 to %d players", maxSeats)
	case h.Count < 1 || h.Count > MaxTurns:
		return fmt.Sprintf("turns %d: want 1 to %d", h.Count, MaxTurns)
	}
	for i, s := range h.Seats {
		if m := jsonl.CheckName(s); m != "" {
			return fmt.Sprintf("seat %d: %s", i+1, m)
		}
	}
	return ""
}

func checkHostedTurn(h *Hosted, t *HostedTurn, want int) string {
	switch {
	case t.Turn != want:
		return fmt.Sprintf("numbered %d, want %d", t.Turn, want)
	case !jsonl.IsHash(t.Hash):
		return "hash: want 64 hex digits"
	case want == 0 && len(t.Moves) > 0:
		return "the set-up has no moves"
	case want > 0 && len(t.Moves) == 0:
		return "no moves"
	case len(t.Moves) > len(h.Seats):
		return "more moves than seats"
	}
	seen := map[int]bool{}
	for _, m := range t.Moves {
		if m.Seat < 0 || m.Seat >= len(h.Seats) || seen[m.Seat] {
			return fmt.Sprintf("move of seat %d: no such seat, or two moves", m.Seat)
		}
		seen[m.Seat] = true
		if len(m.Move.Data) == 0 || !json.Valid(m.Move.Data) || len(m.Move.Text) > 10000 {
			return fmt.Sprintf("move of seat %d: unreadable", m.Seat)
		}
	}
	return ""
}

// HostedStep is one turn replayed.
type HostedStep struct {
	Turn   int
	Pos    game.Position
	Events []byte // nil for the set-up
	Story  []string
}

// ReplayHosted re-runs h from its set-up, checking each turn's hash; each, if set, sees
// every turn. A turn that does not reproduce is a *ReplayError naming it.
func ReplayHosted(h *Hosted, games game.Catalog, each func(HostedStep) error) error {
	k, err := games.Lookup(h.Kind)
	if err != nil {
		return err
	}
	cfg, err := k.LoadConfig(h.Config)
	if err != nil {
		return fmt.Errorf("header: config: %w", err)
	}
	pos, err := k.Start(cfg, h.Seats, h.Seed)
	if err != nil {
		return fmt.Errorf("header: the set-up: %w", err)
	}
	for _, t := range h.Turns {
		var step HostedStep
		if t.Turn == 0 {
			step = HostedStep{Turn: 0, Pos: pos}
		} else {
			moves := map[int]game.Move{}
			for _, m := range t.Moves {
				moves[m.Seat] = m.Move
			}
			res, err := pos.Play(moves, game.TurnSeed(h.Seed, t.Turn))
			if err != nil {
				return &ReplayError{Turn: t.Turn, Err: err}
			}
			pos = res.Next
			step = HostedStep{Turn: t.Turn, Pos: pos, Events: res.Events, Story: res.Story}
		}
		sum, err := HashPosition(pos)
		if err != nil {
			return &ReplayError{Turn: t.Turn, Err: err}
		}
		if sum != t.Hash {
			return &ReplayError{Turn: t.Turn, Err: errors.New("the position after the turn differs from the game's (hash mismatch)")}
		}
		if each != nil {
			if err := each(step); err != nil {
				return err
			}
		}
	}
	return nil
}

// HostedFromStore builds the archive of a game behind the seam from the store.
func HostedFromStore(tx *store.Tx, gameID int64) (Hosted, error) {
	rec, err := RecordOf(tx, gameID)
	if err != nil {
		return Hosted{}, err
	}
	return HostedOf(rec)
}

// HostedOf is the archive of a game behind the seam as the store keeps it (RecordOf):
// each turn's hash is the SHA-256 of the position stored after it.
func HostedOf(rec game.Record) (Hosted, error) {
	if rec.Kind == "" {
		return Hosted{}, fmt.Errorf("archive: game %s is not a hosted game", rec.Tag)
	}
	h := Hosted{Kind: rec.Kind, Game: rec.Tag, Name: rec.Name, Config: rec.Config, Seed: rec.Seed, Seats: rec.Seats}
	for _, tn := range rec.Turns {
		t := HostedTurn{Turn: tn.Number, Hash: jsonl.Hash(tn.After)}
		for _, p := range tn.Played {
			t.Moves = append(t.Moves, HostedMove{Seat: p.Seat, Move: p.Move, Missed: p.Missed})
		}
		h.Turns = append(h.Turns, t)
	}
	return h, nil
}
