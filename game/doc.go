// Package game is the seam between the judge and the games it hosts.
//
// A game (RoboRally, Crash by Crash, ...) is a package that implements Kind: it reads
// its own settings, sets up a new position from them and a seed, reads one player's
// orders, plays a move and reports it. The judge (judge/), the store (store/) and the
// archive (archive/) know games only through this package: they store the bytes a
// Position encodes to, ask it whose orders are due, hand it a player's text and mail
// what it reports. They never ask which game it is.
//
// The model is godip's Variant (a variant is a package: parser, graph, resolver, start)
// and boardgame.io's Game (setup, moves, turn order, end test). Two orders of play are
// one idea here: a simultaneous game (RoboRally) is due from every seat still playing;
// a game played in turn (Crash by Crash) is due from one seat. The judge collects the
// due seats' orders, or gives a seat that missed its deadline the Kind's autopilot
// move, and calls Play.
//
// What a Kind must not do: I/O, clocks, global state. Same (settings, state, moves,
// seed) in, same bytes out.
//
// `rallyjudge demo` plays a game between bots by mail. A game may bring a Demo of its
// own (demo.go: its settings, the orders its bots write, the lines printed); without
// one, the judge's bots mail what Autopilot plays and print the Standings.
package game
