package templates

// Rejected is the reply to a sheet or command that was not accepted. It must never
// quote a secret or, for authentication failures, anything of the sheet.
type Rejected struct {
	Summary string
	Errors  []string
	Hint    string
}

// Notice is the data of notice.txt.tmpl: a mail the judge writes on its own (a
// reminder, a note to a player or a game master, press, the final summary).
type Notice struct {
	Kind    string // reminder, missed, notice, gm-notice, press, broadcast, final, replay
	Game    string // the game's tag ("" for none)
	Subject string
	Text    string // the judge's own wording, ready to send
	Judge   string // the judge's address
}
