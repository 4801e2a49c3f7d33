// Package judge is the daemon: what happens when a mail arrives, when a deadline passes,
// and how mail leaves. It wires mail (IMAP in, SMTP out), store (SQLite), orders (sheets)
// and the rules engine together, and owns the turn lifecycle.
//
// The one path every message takes is in inbound.go; a turn is resolved in resolve.go;
// the outbox is drained in outbox.go; serve.go runs the three loops. The judge never
// sends mail directly: everything it says is written to the outbox in the same
// transaction as the state change that caused it.
package judge
