package judge

import (
	"net/mail"
	"strings"

	"github.com/rallyjudge/rallyjudge/game"
	rjmail "github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// CheckAddress refuses a mail address a game master gives (CREATE gm= and list=, SET
// list, `rallyjudge game create --gm --list --address`) unless it is one plain addr-spec
// (local@domain): no display name, no angle brackets, no list of several, no control
// or bidi character (a CR/LF would forge mail headers). The error says what (what is
// the key or flag) and never echoes the address, which may hold such characters.
// It is the one place these addresses are checked.
func CheckAddress(what, a string) error {
	if a == "" {
		return refuse("%s: the address is empty.", what)
	}
	if len(a) > 254 {
		return refuse("%s: the address has %d bytes (at most 254).", what, len(a))
	}
	if p := game.NameProblem(a); p != "" {
		return refuse("%s: in the address, %s.", what, p)
	}
	addr, err := mail.ParseAddress(a)
	if err != nil || addr.Name != "" || addr.Address != a {
		return refuse("%s: not one plain mail address; want local@domain, without a name, <> or a list.", what)
	}
	at := strings.LastIndexByte(a, '@')
	if at < 0 || !strings.Contains(a[at+1:], ".") && a[at+1:] != "localhost" {
		return refuse("%s: the domain has no dot; want local@domain.", what)
	}
	// What net/mail takes but no mail is ever sent to (the outbox drops it: enqueue):
	// a non-ASCII local part or domain, a local part past 64 bytes, dots in a row. Such
	// an address was stored and every mail to it silently dropped (REPLACE said "mailed a
	// new secret"). An international domain is written in its xn-- form.
	sendable := a
	if a[at+1:] == "localhost" {
		sendable = a[:at] + "@localhost.localdomain"
	}
	if !rjmail.ValidAddress(sendable) {
		return refuse("%s: no mail can be sent to that address; want a plain ASCII local@domain (an international domain in its xn-- form).", what)
	}
	return nil
}

// CheckSetting says whether CREATE would take key=value for a game setting (the
// gameSettings table: the same setter CREATE and SET use), so that the command line can
// refuse a bad flag before it opens the database. A key that is no game setting
// (course, seed, rules.*, variants, ...) is checked at CREATE only.
func CheckSetting(key, value string) error {
	gs := settingByKey(key)
	if gs == nil || key == "rules" { // CREATE reads rules= itself (the ruleset)
		return nil
	}
	var s store.GameSettings
	var o Options
	return gs.set(&s, &o, value)
}

// notJudge refuses the judge's own address where a game master or player gives an
// address to mail (REPLACE, ADDRESS, list, gm): the judge would mail itself, and its
// own mail is never read (mail.IsAutomatic), so the robot or list is silently lost.
func (j *Judge) notJudge(what, a string) error {
	if strings.EqualFold(strings.Trim(a, "<>"), j.Address) {
		return refuse("%s: that is the judge's own address; give the address of a person or a list.", what)
	}
	return nil
}
