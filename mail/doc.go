// Package mail moves rallyjudge's mail: it reads messages from an IMAP mailbox (Fetcher), sends
// messages over SMTP (Sender), turns a raw RFC 5322 message into the few fields the judge needs
// (Extract), recognises mail that must never be answered (IsAutomatic), builds outgoing mail
// (Compose), and runs in-process IMAP and SMTP servers for the demo and fast tests (NewEmbedded).
//
// It must not know about games, robots, order sheets or the store: callers give it bytes and get
// bytes and plain fields back. The Fetcher hands each raw message to a callback and flags or moves
// it on the server only after that callback returned nil, so the caller can store the message
// first; it never decides what a message means. Nothing here sends mail on its own: the Sender
// sends exactly what it is given. It never logs a password or a message body.
package mail
