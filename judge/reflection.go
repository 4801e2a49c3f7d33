package judge

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/store"
)

// The judge must not be a tool against third parties (issue 14), nor lock out the people
// it serves (issue 21). Anyone can forge a From address, so every reply to a mail that
// was not authenticated may land on a victim. The rules, in one place (enqueue calls
// mayReply for every reply to a mail):
//
//   - A reply to a mail whose secret matched (a player's, a game master's) is always
//     sent: nobody else can have written it, so it is neither a forgery nor a loop (the
//     loop rules are for automatic mail), and a game master's CREATE and START or a
//     player's sixth correction of a sheet must get their answers.
//   - A reply to a mail no secret authenticated carries no text of the mail: its subject
//     is fixed, and the reply texts quote nothing (no subject, no body line, no game name
//     the mail gave), to strangers and registered addresses alike.
//   - Such replies are limited per recipient: PerKnown within Window to a member (a
//     player's, game master's or observer's address, or one with a JOIN or a change of
//     address waiting for its CONFIRM), PerStranger to anyone else ("a stranger"). Replies
//     to strangers are limited per domain too (PerDomain): a forged flood makes at most
//     that many mails to one mail provider, while the replies to members, and the answers
//     to a newcomer's JOIN and CONFIRM, count against nobody else's.
//   - Mail that looks like a loop gets no reply, even without RFC 3834 headers (which
//     mail.IsAutomatic already honours): more than LoopMails mails from one address within
//     Window, or LoopSubjects with the same subject. Both count that address's mails only.
//
// A reply withheld is logged with the rule and when the address may next be answered,
// and counted in the audit log (action "reply-withheld"), which a game master's STATUS
// shows for the day. Acknowledgements, reports and notices go to registered addresses
// only and are not replies in this sense; spoof notices are capped at one per robot a
// day (inbound.go).

// ReplyLimits bound the replies the judge sends to mail (see above).
type ReplyLimits struct {
	Window       time.Duration
	PerStranger  int // replies to one unknown address per Window
	PerKnown     int // replies to one member's address per Window, to mail without a secret
	PerDomain    int // replies to the unknown addresses of one domain per Window, all together
	LoopMails    int // mails without a secret from one address per Window past which none is answered
	LoopSubjects int // such mails with the same subject from one address per Window, likewise
}

// DefaultReplyLimits are the limits docs/gamemasters.md states.
func DefaultReplyLimits() ReplyLimits {
	return ReplyLimits{Window: time.Hour, PerStranger: 3, PerKnown: 20, PerDomain: 100, LoopMails: 30, LoopSubjects: 5}
}

// replyKinds are the outbox kinds that answer a mail (as opposed to reports, notices ...).
var replyKinds = []string{"reject", "command", "claim"}

func isReply(kind string) bool {
	for _, k := range replyKinds {
		if k == kind {
			return true
		}
	}
	return false
}

// strangerSubject is the subject of every reply to an unknown address.
const strangerSubject = "Re: your mail to rallyjudge"

// withheld says why a reply is not sent: the rule, what it counted, and when the
// address may next be answered.
type withheld struct {
	rule string
	why  string
	next time.Time
}

// mayReply applies the reply rules to m, a reply. It returns nil when the reply may go
// out, else why not; it fixes m's subject and text when m answers a mail without a
// secret or goes to a stranger.
func (j *Judge) mayReply(tx *store.Tx, m *outMail) (*withheld, error) {
	lim := j.Replies
	known, err := tx.KnownAddress(m.to)
	if err != nil {
		return nil, err
	}
	replied := m.subject // "Re: " the subject of the mail answered, which the loop rules count
	if !known || m.unproven {
		m.subject = strangerSubject
		m.text = j.strangerText(m.kind, m.text)
		m.html = "" // an HTML part is made from the same text; none for strangers
	}
	if !m.unproven {
		return nil, nil // a secret matched: a person wrote it (see above)
	}
	member := known
	if !member {
		if member, err = j.memberAddress(tx, m.to); err != nil {
			return nil, err
		}
	}
	now := j.now()
	since := now.Add(-lim.Window)
	next := func(t time.Time) time.Time {
		if t.IsZero() {
			return now.Add(lim.Window)
		}
		return t.Add(lim.Window)
	}
	orig := strings.TrimSpace(replied)
	if len(orig) >= 4 && strings.EqualFold(orig[:4], "re: ") {
		orig = strings.TrimSpace(orig[4:])
	}
	subjects := [2]string{orig, replied}
	mails, same, err := tx.MailFromSince(m.to, subjects, since)
	if err != nil {
		return nil, err
	}
	if mails > lim.LoopMails {
		t, err := tx.NthMailFromSince(m.to, nil, since, mails-lim.LoopMails)
		return &withheld{"loop: mails from one address", fmt.Sprintf("%d mails from this address within %v", mails, lim.Window), next(t)}, err
	}
	if same > lim.LoopSubjects {
		t, err := tx.NthMailFromSince(m.to, subjects[:], since, same-lim.LoopSubjects)
		return &withheld{"loop: one subject", fmt.Sprintf("%d mails with the same subject within %v", same, lim.Window), next(t)}, err
	}
	perRecipient, rule := lim.PerKnown, "replies to a member's address"
	if !member {
		perRecipient, rule = lim.PerStranger, "replies to a stranger"
	}
	n, err := tx.RepliesSince(replyKinds, m.to, since)
	if err != nil {
		return nil, err
	}
	if n >= perRecipient {
		t, err := tx.NthReplySince(replyKinds, m.to, "", since, n-perRecipient)
		return &withheld{rule, fmt.Sprintf("%d replies to this address within %v already", n, lim.Window), next(t)}, err
	}
	if !member {
		_, domain, _ := strings.Cut(m.to, "@")
		all, err := tx.RepliesToDomainSince(replyKinds, domain, since)
		if err != nil {
			return nil, err
		}
		if all >= lim.PerDomain {
			t, err := tx.NthReplySince(replyKinds, "", domain, since, all-lim.PerDomain)
			return &withheld{"replies to strangers of one domain", fmt.Sprintf("%d replies to strangers at %s within %v already", all, domain, lim.Window), next(t)}, err
		}
	}
	return nil, nil
}

// memberAddress reports whether addr, no player's or game master's, observes a game or
// has a JOIN or a change of address waiting for its CONFIRM: the replies to it are not
// a stranger's.
func (j *Judge) memberAddress(tx *store.Tx, addr string) (bool, error) {
	if yes, err := tx.IsObserver(addr); err != nil || yes {
		return yes, err
	}
	if pjs, err := tx.PendingJoins(addr, j.now().Add(-joinTTL)); err != nil || len(pjs) > 0 {
		return len(pjs) > 0, err
	}
	cs, err := tx.PendingAddressChanges(addr, j.now().Add(-addressChangeTTL))
	return len(cs) > 0, err
}

// strangerText is the text of a reply to an unknown address, with nothing of the mail it
// answers. Rejections are written so already (reject drops the list of sheet errors, which
// quote lines, and the summaries name nothing the mail gave); a command reply keeps the
// judge's own answers (the help, the list of games, a JOIN's outcome) and its "> COMMAND"
// echoes shrink to the command word, while the lines it did not read are not named.
func (j *Judge) strangerText(kind, text string) string {
	if kind != "command" {
		return text
	}
	var out []string
	for _, l := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(l, "Not commands, so not read:"):
			continue
		case strings.HasPrefix(l, ">"):
			w := strings.Fields(strings.TrimPrefix(l, ">"))
			if len(w) == 0 || len(w[0]) > 12 || strings.IndexFunc(w[0], func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') }) >= 0 {
				continue
			}
			l = "> " + w[0]
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// echoLine is a command line as a reply quotes it ("> LINE"): control characters (an
// escape sequence, a bell), bidirectional overrides and isolates, direction marks and
// other invisible format characters — anything that changes what is shown rather than
// shows itself (game.NameRuneProblem) — are each written as U+FFFD, and a tab as a
// space (issue 21 item 5: ESC, BEL and U+202E were echoed raw).
func echoLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' {
			return ' '
		}
		if game.NameRuneProblem(r) != "" {
			return unicode.ReplacementChar
		}
		return r
	}, s)
}

// withheldToday is the line of a game master's STATUS that says how many replies the
// limits withheld since midnight UTC: to mail about the game, and in all.
func (j *Judge) withheldToday(e *cmdEnv) (string, error) {
	now := j.now().UTC()
	midnight := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	game, all, err := e.tx.AuditCount("reply-withheld", e.game.ID, "", "", midnight)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Replies withheld by the reply limits today (UTC): %d to mail about this game, %d in all\n"+
		"(the log says which rule and when each address may be answered again).\n", game, all), nil
}
