// Package archive writes and reads rallyjudge game archives (.rja files) and replays
// them: a self-contained record of one game that replays bit for bit. docs/archive.md
// is the reference for the format.
//
// An archive holds the course inline (its course file and the text of every board it
// places, rebuilt with adjudicator.ParseCourse on reading, never looked up by name), the
// rules, the option deck, the seed, the robots' names, every turn's played orders (the
// judge's record, store.Turn.Orders) and the SHA-256 of the state after every turn.
// Replay re-runs the game from turn 0 with the engine and checks every hash: it either
// reproduces the game exactly or names the first turn that differs. WriteHTML writes a
// replay as one self-contained web page.
//
// # What it must not do
//
// It never writes an address, a secret or anything else about the players but their
// robots' names. Read treats its input as hostile: every line, string, list and count
// is bounded, and an error says the line (and column) where the archive went wrong.
// It decides no rule (the engine does) and keeps no package-level mutable state; the
// only I/O is the readers and writers it is given and FromStore's reads.
package archive
