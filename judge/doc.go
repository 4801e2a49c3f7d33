// Package judge is the daemon: what happens when a mail arrives, when a deadline passes,
// and how mail leaves. It wires mail (IMAP in, SMTP out), store (SQLite), orders (sheets)
// and the rules engine together, and owns the turn lifecycle.
//
// The one path every message takes is in inbound.go; a turn is resolved in resolve.go;
// the outbox is drained in outbox.go; serve.go runs the three loops. The judge never
// sends mail directly: everything it says is written to the outbox in the same
// transaction as the state change that caused it.
//
// The judge never asks which game it runs: every game plays behind the seam of package
// game, and no file of the judge imports a game's engine. The demo (`rallyjudge demo`,
// demo.go) is the judge's loop — in-process mail servers, bots mailing orders, a seat
// kept for a person, the mail saved — and asks the game's own part of a game.Demo
// handed in by the caller: the settings, the text each bot mails, the line printed
// after a turn and the table at the end. RoboRally's is roborally/demobots, wired by
// cmd/rallyjudge. Why that shape: the bots of a RoboRally demo write sheets (a random
// or autopilot program, standing orders) that the game's Autopilot, a missed-orders
// policy, does not write, so the generic bots of demohosted.go (mail what Autopilot
// plays) cannot play it; and moving the whole demo to package main would take the
// loop from the judge's own tests (the player's guide walked against it, the 2023
// game by mail). One small interface keeps the loop here and the game's words beside
// its engine; the dependency points from the judge to package game only.
package judge
