// Package jsonl is the file shape every rallyjudge archive format shares: a first line
// "MAGIC VERSION", then one JSON object a line, read strictly (unknown fields and
// anything after the object are errors). It reads lines with a bound on each, decodes
// them, checks the names and hashes they carry, and gives the errors of reading and
// replaying an archive (Error, ReplayError) that name the line and column, or the turn,
// where it went wrong.
//
// Package archive (the format of the games behind the seam) and each game's own
// format (roborally/rja: RoboRally's .rja version 1) read and write through it, so
// their errors are one type a caller can place in a file.
//
// # What it must not do
//
// It knows no game and no format's fields: it imports only package game (for
// game.NameProblem). Its input is hostile: every line is bounded and an error is
// returned, never a panic. It keeps no state but the reader it is given.
package jsonl
