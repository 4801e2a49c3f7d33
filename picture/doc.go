// Package picture draws courses and turns as images for players: a PNG of the course
// with the robots on it, and an animated GIF of a turn replayed from the engine's event
// log, a captioned frame per step (each card in priority order, each board element
// phase, lasers, flags, the end of turn). docs/pictures.md is the legend.
//
// It reads the adjudicator's types and event log and never decides a rule: where a
// robot goes comes from the events, never from moving pieces itself. It does no I/O
// beyond the io.Writer it is given, keeps no package-level state that changes what it
// draws or writes (only scratch space kept for the next pictures, spares.go: encoders,
// compressors, pixels; a bounded cache of course backgrounds, background.go, used
// only for a course the same in full; and the font's rows as bits, draw.go, worked out
// once from the font), and its output is deterministic: the same
// course, robots and events give the same pixels. It imports
// only the adjudicator and image libraries.
package picture
