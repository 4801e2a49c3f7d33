package game

// Legacy is a Kind that takes over the games a judge stored before its game sat behind
// the seam (RoboRally: rows that name no game, a turn's state the engine's bare state,
// the settings the engine's rules, the standing orders nowhere but in the order
// versions of earlier turns). The judge hands it each such game as stored, once, at
// start (judge/legacy.go), and writes what it gives back in the game's transaction;
// store/ and archive/ know nothing of it. Adopt reads hostile bytes: an error names
// the turn (or the version), never a panic; the judge then changes nothing.
type Legacy interface {
	Adopt(old LegacyGame) (Adopted, error)
}

// LegacyGame is a game as the judge stored it before the seam.
type LegacyGame struct {
	Tag    string
	Course string // games.course
	Rules  []byte // games.rules_json
	// Missed is the missed-orders policy in force ("" when none was set).
	Missed string
	Seed   int64
	// Seats are the players' names in seat order.
	Seats []string
	// Turns are the live stored turns, turn 0 first, in order.
	Turns []LegacyTurn
	// Versions are the valid order versions of every turn from 1 to the turn being
	// collected, each turn's in the order the judge folded them (as received).
	Versions []LegacyVersion
}

// LegacyTurn is a stored turn's columns.
type LegacyTurn struct {
	Number                        int
	Before, After, Events, Orders []byte
}

// LegacyVersion is one valid order version: its turn, the seat that sent it and its
// stored reading (store.OrderSheet.Parsed).
type LegacyVersion struct {
	Turn   int
	Seat   int
	Parsed []byte
}

// Adopted is a LegacyGame in the Kind's own encodings: what LoadConfig, Load and Play
// read and write.
type Adopted struct {
	Config []byte
	// Turns are LegacyGame.Turns re-encoded, one for one.
	Turns []AdoptedTurn
	// Versions are LegacyGame.Versions' Parsed as a Move's JSON, one for one.
	Versions [][]byte
}

// AdoptedTurn is a turn re-encoded: Before and After positions (Before nil for turn 0),
// Events as Play returns them, and what each seat played (turn 1 on).
type AdoptedTurn struct {
	Before, After, Events []byte
	Played                []PlayedMove
}

// PlayedMove is one seat's move as a turn played it; Missed: the autopilot's.
type PlayedMove struct {
	Seat   int
	Move   Move
	Missed bool
}

// Unadopter is a Legacy kind whose games the archive writes in the format of the games
// it adopted (docs/archive.md, version 1: RoboRally's), however they were played: an
// archive of a game played behind the seam is then the archive of today, with its
// replay page, its --turn view and its import.
type Unadopter interface {
	// UnadoptConfig is the settings as the older path kept them: the course
	// (games.course) and the rules (games.rules_json).
	UnadoptConfig(config []byte) (course string, rules []byte, err error)
	// UnadoptTurn is a stored turn in the older encodings: After the bare state after
	// it; for a turn played (before non-nil: the position it was played from, moves
	// what each seat played), Before the state the engine was given and Orders the
	// orders it played (from events).
	UnadoptTurn(config, before []byte, moves map[int]Move, after, events []byte) (LegacyTurn, error)
}
