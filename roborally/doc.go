// Package roborally is RoboRally as a game the judge hosts: the rules of a turn by
// mail that are RoboRally's and not the judge's — what a robot's sheet gives the
// engine, what is played for a robot without orders (the missed-orders policies, the
// autopilot, Act Fast), which orders stand from turn to turn, the 2023 variants as
// settings — and the game seam (package game) put over the engine (package
// adjudicator) and the orders language (package orders): Kind, its Config and its
// Position.
//
// The postal rules (seed 003) with either option deck (Crash & Burn, Armed and
// Dangerous) and the 2023 rules (seed 004) are one ruleset value,
// adjudicator.Rules; where they differ by mail (a missed program, what stands), the
// difference is decided here, once, for the judge's own RoboRally path and for the
// seam alike (docs/games.md).
//
// It does no I/O and keeps no global state: same (settings, state, orders, seed) in,
// same bytes out.
package roborally
