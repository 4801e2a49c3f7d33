package judge

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/rallyjudge/rallyjudge/archive"
	"github.com/rallyjudge/rallyjudge/store"
)

// Press: players write to each other through the judge, as on Diplomacy judges.
//
//	PRESS TO Zoombot,Hulk [SIGNED|ANON]
//	the message, on the lines below,
//	ENDPRESS            (or the end of the mail, or a signature)
//
// "PRESS TO ALL" writes to every player still in the game (and the observers). The game
// setting press (settings.go) allows signed and anonymous press ("any", the default),
// only one of them, or none. The receivers see the sender's robot when the message is
// signed and nothing of the sender when it is anonymous; the sender's address is never
// shown (every mail comes from the judge). Every message is stored (store.Press) with
// its sender, for the game masters (HISTORY, and a copy each with gm-copies on) and the
// game's archive.

func (j *Judge) cmdPress(e *cmdEnv, c Command) (string, error) {
	g, me := *e.game, *e.player
	o, err := j.optionsOf(e.tx, g)
	if err != nil {
		return "", err
	}
	mode := o.press()
	if mode == "none" {
		return "", refuse("game %s has no press: the game master has switched it off.", g.Tag)
	}
	if g.Status == store.GameOver {
		return "", refuse("game %s is over.", g.Tag)
	}
	args := c.Args
	if len(args) > 0 && strings.EqualFold(args[0], "TO") {
		args = args[1:]
	}
	signed := mode != "anonymous"
	var names []string
	for _, a := range args {
		switch strings.ToUpper(a) {
		case "SIGNED":
			if mode == "anonymous" {
				return "", refuse("game %s allows anonymous press only.", g.Tag)
			}
			signed = true
			continue
		case "ANON", "ANONYMOUS", "GREY", "GRAY":
			if mode == "signed" {
				return "", refuse("game %s allows signed press only.", g.Tag)
			}
			signed = false
			continue
		}
		for _, n := range strings.Split(a, ",") {
			if n = strings.TrimSpace(n); n != "" {
				names = append(names, n)
			}
		}
	}
	if len(names) == 0 {
		return "", refuse("write PRESS TO ROBOT[,ROBOT...] or PRESS TO ALL, and the message on the lines below.")
	}
	text := c.Text
	if e.cm != nil && e.cm.secret != "" {
		text = strings.ReplaceAll(text, e.cm.secret, "(secret)")
	}
	if strings.TrimSpace(text) == "" {
		return "", refuse("PRESS needs a message: the lines below it, up to ENDPRESS or the end of the mail.")
	}
	if err := checkRelayed("PRESS", text, 0); err != nil {
		return "", err
	}
	// A player's press a turn is bounded (the game setting press-limit): each message
	// goes to the game's players and observers only, at most once each, so one player
	// makes at most that many mails to each of them a turn.
	if n, err := e.tx.PressCount(g.ID, g.CurrentTurn, me.Robot); err != nil {
		return "", err
	} else if n >= o.pressLimit() {
		return "", refuse("you have sent %d press messages in turn %d of game %s, the most a player may (the game master can SET press-limit); this one was not sent.",
			n, g.CurrentTurn, g.Tag)
	}
	ps, err := e.tx.Players(g.ID)
	if err != nil {
		return "", err
	}
	all := len(names) == 1 && strings.EqualFold(names[0], "ALL")
	var to []store.Player
	var toNames []string
	if all {
		for _, p := range ps {
			if !p.Withdrawn && p.ID != me.ID {
				to = append(to, p)
			}
		}
	} else {
		seen := map[int64]bool{}
		for _, n := range names {
			var hit *store.Player
			for i := range ps {
				if strings.EqualFold(ps[i].Robot, n) {
					hit = &ps[i]
				}
			}
			if hit == nil || hit.Withdrawn {
				var known []string
				for _, p := range ps {
					if !p.Withdrawn && p.ID != me.ID {
						known = append(known, p.Robot)
					}
				}
				return "", refuse("game %s has no robot %q in play (write to %s, or ALL).", g.Tag, n, strings.Join(known, ", "))
			}
			if hit.ID == me.ID {
				return "", refuse("%s is your own robot.", hit.Robot)
			}
			if !seen[hit.ID] {
				seen[hit.ID] = true
				to = append(to, *hit)
				toNames = append(toNames, hit.Robot)
			}
		}
	}
	if len(to) == 0 {
		return "", refuse("nobody else is in game %s to write to.", g.Tag)
	}
	id, err := e.tx.AddPress(store.Press{GameID: g.ID, Turn: g.CurrentTurn, From: me.Robot, To: toNames, Signed: signed, Body: text, Sent: j.now()})
	if err != nil {
		return "", err
	}
	sender := "an anonymous player"
	if signed {
		sender = me.Robot
	}
	whom := "everyone"
	if !all {
		whom = strings.Join(toNames, ", ")
	}
	body := fmt.Sprintf("Press in game %s, turn %d, from %s to %s:\n\n%s\n\n"+
		"(Relayed by the judge; no address is shown. Answer with PRESS TO ROBOT in a mail to %s.)\n",
		g.Tag, g.CurrentTurn, sender, whom, text, j.Address)
	what := "Press from " + sender
	send := func(addr, key string, text string) error {
		return j.enqueue(e.tx, outMail{kind: "press", gameID: g.ID, turn: g.CurrentTurn, to: addr, subject: subject(g.Tag, what),
			messageID: j.noticeID("press", fmt.Sprintf("%s.%d.%s", g.Tag, id, key)),
			inReplyTo: j.gameRoot(g.Tag), refs: []string{j.gameRoot(g.Tag)}, text: text, generated: true})
	}
	for _, p := range to {
		if err := send(p.Email, fmt.Sprintf("s%d", p.Seat), body); err != nil {
			return "", err
		}
	}
	if all { // press to everyone is public: the observers read it too
		obs, err := watching(e.tx, g, o)
		if err != nil {
			return "", err
		}
		for _, w := range obs {
			if err := send(w.Email, fmt.Sprintf("o%d", w.ID), body); err != nil {
				return "", err
			}
		}
	}
	if o.gmCopies() == "on" {
		gms, err := e.tx.GMs(g.ID)
		if err != nil {
			return "", err
		}
		note := fmt.Sprintf("[A copy for the game master: the sender is %s; the message went out %s.]\n\n", me.Robot, map[bool]string{true: "signed", false: "anonymous"}[signed])
		for _, gm := range gms {
			if gm.GameID == 0 {
				continue
			}
			if err := send(gm.Email, fmt.Sprintf("gm%d", gm.ID), note+body); err != nil {
				return "", err
			}
		}
	}
	if err := j.audit(e, "press", fmt.Sprintf("#%d to %s", id, whom)); err != nil {
		return "", err
	}
	how := "signed"
	if !signed {
		how = "anonymous"
	}
	return fmt.Sprintf("Your message (%s) went to %s.\n", how, whom), nil
}

// pressHistory is the game's press as one reader may see it: a game master sees
// every message and its sender; a player the messages to everyone, to them, or from
// them, anonymous ones without a sender.
func pressHistory(all []store.Press, reader *store.Player) string {
	var b strings.Builder
	for _, p := range all {
		to := "everyone"
		if p.To != nil {
			to = strings.Join(p.To, ", ")
		}
		if reader != nil && p.To != nil && !strings.EqualFold(p.From, reader.Robot) && !hasName(p.To, reader.Robot) {
			continue
		}
		from := p.From
		switch {
		case !p.Signed && reader == nil && p.From == archive.Anonymous:
			from += " (imported from an archive: the sender is not known)"
		case !p.Signed && reader == nil:
			from += " (anonymous)"
		case !p.Signed && !strings.EqualFold(p.From, reader.Robot):
			from = "anonymous"
		}
		fmt.Fprintf(&b, "  Turn %d, %s, from %s to %s:\n", p.Turn, p.Sent.Format("2 Jan 15:04"), from, to)
		for _, l := range strings.Split(p.Body, "\n") {
			fmt.Fprintf(&b, "    | %s\n", l)
		}
	}
	return b.String()
}

func hasName(names []string, n string) bool {
	for _, x := range names {
		if strings.EqualFold(x, n) {
			return true
		}
	}
	return false
}

// MaxRelayed is the longest message, in characters, the judge relays to other people
// (PRESS, BROADCAST).
const MaxRelayed = 10000

// checkRelayed refuses a message the judge would relay to other people when it is
// longer than MaxRelayed or holds a character that changes what the receiver's screen
// shows: a control character other than tab (a terminal escape sequence reaches a
// player reading mail in a terminal) or a bidirectional override or isolate (U+202A–
// U+202E, U+2066–U+2069, which reverse the text around them). The error says which
// line of the mail (first is the command's line; the message starts below it) and
// which character, never quoting the text.
func checkRelayed(verb, text string, first int) error {
	if n := len([]rune(text)); n > MaxRelayed {
		return refuse("%s: the message has %d characters; at most %d are relayed.", verb, n, MaxRelayed)
	}
	for i, line := range strings.Split(text, "\n") {
		for k, r := range []rune(line) {
			p := ""
			switch {
			case r == '\t':
			case r == 0x202A || r == 0x202B || r == 0x202C || r == 0x202D || r == 0x202E ||
				r == 0x2066 || r == 0x2067 || r == 0x2068 || r == 0x2069:
				p = "a bidirectional override"
			case unicode.IsControl(r):
				p = "a control character"
			}
			if p != "" {
				where := fmt.Sprintf("line %d of the message", i+1)
				if first > 0 {
					where = fmt.Sprintf("line %d", first+1+i)
				}
				return refuse("%s: %s, character %d is %s (U+%04X), which is not relayed.", verb, where, k+1, p, r)
			}
		}
	}
	return nil
}
