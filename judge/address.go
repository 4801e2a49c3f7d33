package judge

import (
	"net/mail"
	"strings"

	"github.com/rallyjudge/rallyjudge/adjudicator"
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
	if p := adjudicator.NameProblem(a); p != "" {
		return refuse("%s: in the address, %s.", what, p)
	}
	addr, err := mail.ParseAddress(a)
	if err != nil || addr.Name != "" || addr.Address != a {
		return refuse("%s: not one plain mail address; want local@domain, without a name, <> or a list.", what)
	}
	if at := strings.LastIndexByte(a, '@'); at < 0 || !strings.Contains(a[at+1:], ".") && a[at+1:] != "localhost" {
		return refuse("%s: the domain has no dot; want local@domain.", what)
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
