// Package rja is RoboRally's archive format: the .rja files (docs/archive.md, first
// line "rallyjudge-archive 1") that the judge wrote before it hosted more than one
// game, and still writes for every RoboRally game, so that every archive a player kept
// replays, renders and imports as before, byte for byte.
//
// An archive holds the course inline (its course file and the text of every board it
// places, rebuilt with adjudicator.ParseCourse on reading, never looked up by name),
// the rules, the option deck, the seed, the robots' names, every turn's played orders
// and the SHA-256 of the state after every turn, and the press as the public saw it.
// Replay re-runs the game from turn 0 with the engine and checks every hash: it either
// reproduces the game exactly or names the first turn that differs. WriteHTML writes a
// replay as one self-contained web page; (*Archive).Show and Picture are `rallyjudge
// replay --turn` and `render --archive`.
//
// Why here: the format is RoboRally's through and through (adjudicator.State hashed,
// orders.Played, the course inline, the picture package's replay page), so it lives
// beside the game it records; package archive names no game and reaches it through
// roborally.Kind, a game.Archiver. Why "rja": the files' extension, the name players
// and game masters know it by.
//
// # What it must not do
//
// It imports neither store/ nor judge/ (dependencies point towards the engine): it is
// handed a stored game as a game.Record's bytes (FromRecord). It never writes an
// address, a secret or anything else about the players but their robots' names. Read
// treats its input as hostile: every line, string, list and count is bounded, and an
// error says the line (and column) where the archive went wrong (archive/jsonl). It
// decides no rule (the engine does) and keeps no package-level mutable state.
package rja
