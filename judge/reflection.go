package judge

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/rallyjudge/rallyjudge/adjudicator"
	"github.com/rallyjudge/rallyjudge/store"
)

// The judge must not be a tool against third parties (issue 14). Anyone can forge a From
// address, so every reply to a mail that was not authenticated may land on a victim. The
// rules, in one place (enqueue calls mayReply for every reply to a mail):
//
//   - A reply to an address that is no player's or game master's ("a stranger") carries no
//     text of the mail it answers: its subject is fixed, and the reply texts quote nothing
//     (no subject, no body line, no game name the mail gave).
//   - Replies are limited per recipient (ReplyLimits.PerStranger, PerKnown within Window)
//     and overall to strangers (Global): a forged flood makes at most that many mails.
//   - Mail that looks like a loop gets no reply, even without RFC 3834 headers (which
//     mail.IsAutomatic already honours): more than LoopMails mails from one address within
//     Window, or LoopSubjects with the same subject.
//
// Acknowledgements, reports and notices go to registered addresses only and are not
// replies in this sense; spoof notices are capped at one per robot a day (inbound.go).

// ReplyLimits bound the replies the judge sends to mail (see above).
type ReplyLimits struct {
	Window       time.Duration
	PerStranger  int // replies to one unknown address per Window
	PerKnown     int // replies (rejections) to one player's or game master's address per Window
	Global       int // replies to unknown addresses per Window, all together
	LoopMails    int // mails from one address per Window past which none is answered
	LoopSubjects int // mails with the same subject from one address per Window, likewise
}

// DefaultReplyLimits are the limits docs/gamemasters.md states.
func DefaultReplyLimits() ReplyLimits {
	return ReplyLimits{Window: time.Hour, PerStranger: 3, PerKnown: 20, Global: 100, LoopMails: 30, LoopSubjects: 5}
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

// mayReply applies the reply rules to m, a reply. It returns false with the reason when
// the reply must not go out; it fixes m's subject when the recipient is a stranger.
func (j *Judge) mayReply(tx *store.Tx, m *outMail) (bool, string, error) {
	lim := j.Replies
	since := j.now().Add(-lim.Window)
	known, err := tx.KnownAddress(m.to)
	if err != nil {
		return false, "", err
	}
	orig := strings.TrimSpace(m.subject)
	if len(orig) >= 4 && strings.EqualFold(orig[:4], "re: ") {
		orig = strings.TrimSpace(orig[4:])
	}
	mails, same, err := tx.MailFromSince(m.to, [2]string{orig, m.subject}, since)
	if err != nil {
		return false, "", err
	}
	if mails > lim.LoopMails {
		return false, fmt.Sprintf("looks like a loop: %d mails from this address within %v", mails, lim.Window), nil
	}
	if same > lim.LoopSubjects {
		return false, fmt.Sprintf("looks like a loop: %d mails with the same subject within %v", same, lim.Window), nil
	}
	perRecipient := lim.PerKnown
	if !known {
		perRecipient = lim.PerStranger
	}
	if !known || m.unproven {
		m.subject = strangerSubject
		m.text = j.strangerText(m.kind, m.text)
		m.html = "" // an HTML part is made from the same text; none for strangers
	}
	n, err := tx.RepliesSince(replyKinds, m.to, since)
	if err != nil {
		return false, "", err
	}
	if n >= perRecipient {
		return false, fmt.Sprintf("%d replies to this address within %v already", n, lim.Window), nil
	}
	if !known {
		all, err := tx.RepliesSince(replyKinds, "", since)
		if err != nil {
			return false, "", err
		}
		if all >= lim.Global {
			return false, fmt.Sprintf("%d replies within %v already (all addresses)", all, lim.Window), nil
		}
	}
	return true, "", nil
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
// shows itself (adjudicator.NameRuneProblem) — are each written as U+FFFD, and a tab as a
// space (issue 21 item 5: ESC, BEL and U+202E were echoed raw).
func echoLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' {
			return ' '
		}
		if adjudicator.NameRuneProblem(r) != "" {
			return unicode.ReplacementChar
		}
		return r
	}, s)
}
