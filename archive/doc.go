// Package archive writes, reads and replays rallyjudge game archives: a
// self-contained record of one game that replays bit for bit (docs/archive.md).
//
// It names no game. Its own format is the one of the games behind the seam
// (hosted.go: HostedMagic, the settings, seed and seats, every turn's moves and the
// hash of the position after it; Replay asks the game, through package game, to play
// it again). A game with a format of its own (game.Archiver: RoboRally's .rja version
// 1, in roborally/rja) is written and read by its Kind: RecordOf reads a stored game's
// rows into a game.Record, Of gives its archive in its game's format, and Read reads a
// file of any format by its first line, over the catalogue it is given. The lines,
// strict JSON, name checks and errors every format shares are in archive/jsonl.
//
// # What it must not do
//
// It imports no game's package (`go list -deps ./archive/` names no engine): games
// come in as a game.Catalog. It never writes an address, a secret or anything else
// about the players but their names. Read treats its input as hostile: every line,
// string, list and count is bounded, and an error says the line (and column) where
// the archive went wrong. It decides no rule and keeps no package-level mutable state;
// the only I/O is the readers and writers it is given and RecordOf's reads.
package archive
