package judge

import (
	"fmt"
	"html"
	"strings"
	"time"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
	"github.com/rallyjudge/rallyjudge/templates"
)

// Everything the judge says goes through enqueue: composed once, stored in the outbox
// in the caller's transaction, sent later by the outbox drainer with the same bytes.
//
// Message-IDs are derived from what the mail is about, never random, so enqueuing the
// same mail twice (a message processed again after a crash) stores it once:
//
//	game.TAG@domain               the root every mail of a game threads under
//	welcome.TAG.sN@domain         the welcome to seat N
//	report.TAG.T.sN@domain        seat N's report of turn T (in a mailing-list game: its
//	                              private part, a reply to the public part)
//	report.TAG.T.list@domain      the public part of turn T, to the game's mailing list
//	board.TAG.T@domain            Content-IDs of a report's inline pictures: the floor at
//	turn.TAG.T@domain             the end of turn T, and the turn step by step
//	reply.ID@domain               the answer to inbox message ID
//	notice.KIND.KEY@domain        notices (to a game master, a registered address)

type outMail struct {
	kind      string
	gameID    int64
	turn      int
	to        string
	subject   string
	messageID string
	inReplyTo string
	refs      []string
	text      string
	html      string        // optional: an HTML alternative of text
	inline    []mail.Inline // optional, with html: pictures it shows (cid:)
	attach    []mail.Inline // optional, without html: files that come with the mail
	generated bool          // auto-generated (reports) rather than auto-replied
	// slots are the secrets the mail gives, by owner: text and html hold each one's
	// placeholder (Judge.hold), filled in at send time (secretslots.go).
	slots []store.Owner
	// unproven: a reply to a mail that no secret authenticated. Anyone may have written
	// its From, so the reply carries nothing of it even to a registered address: a fixed
	// subject, no quoted lines (reflection.go; issue 21 item 5).
	unproven bool
	// unsubscribe is the List-Unsubscribe URI of a mail to an observer ("" for none).
	unsubscribe string
	// observer: enqueue added the observer footer to text and html.
	observer bool
	// later, when set, says the mail's pictures are drawn after the commit: it is
	// stored without them and marked to await them (reportpictures.go).
	later *pictureJob
	// render, when set, renders the start of text (a game's acknowledgement, gameAck):
	// beside the writer in a batch (ackQueue), else when the mail is enqueued; text is
	// then only what follows it (an observer's footer).
	render func() (string, error)
}

// noticeKinds are the mails whose text goes through notice.txt.tmpl, so a game master's
// override can reword them; replies, acknowledgements, reports and welcomes have
// templates of their own.
var noticeKinds = map[string]bool{"reminder": true, "missed": true, "notice": true, "gm-notice": true,
	"press": true, "broadcast": true, "final": true, "replay": true}

func (j *Judge) enqueue(tx *store.Tx, m outMail) error { return j.enqueueIn(tx, nil, m) }

// enqueueIn is enqueue; in a batch judged without savepoints (v.acks set) the mail is
// composed beside the writer and stored with the batch's acknowledgements before it
// commits (ackQueue), unless its pictures are drawn after the commit.
func (j *Judge) enqueueIn(tx *store.Tx, v *views, m outMail) error {
	if m.render != nil && (v == nil || v.acks == nil || m.later != nil || !mail.ValidAddress(m.to) || isReply(m.kind) || noticeKinds[m.kind]) {
		// rendered beside the writer only when it is composed there, as it is
		text, err := m.render()
		if err != nil {
			return err
		}
		m.text, m.render = text+m.text, nil
	}
	if !mail.ValidAddress(m.to) {
		// a stored address that is not one (an old row, an import): say so, send nothing
		j.Log.Warn("mail not sent: the recipient is not a plain address", "kind", m.kind, "message_id", m.messageID)
		return nil
	}
	if isReply(m.kind) {
		w, err := j.mayReply(tx, &m) // reflection.go
		if err != nil {
			return err
		}
		if w != nil {
			j.Log.Warn("reply withheld", "kind", m.kind, "message_id", m.messageID, "to", m.to, "rule", w.rule, "why", w.why,
				"next_allowed", w.next.UTC().Format(time.RFC3339))
			_, err := tx.Audit(store.AuditEntry{At: j.now(), GameID: m.gameID, Actor: "judge", Action: "reply-withheld",
				Detail: fmt.Sprintf("%s: %s; next allowed %s", w.rule, w.why, w.next.UTC().Format(time.RFC3339))})
			return err
		}
	}
	if noticeKinds[m.kind] && j.Templates != nil {
		game := ""
		if t := tagInSubject.FindStringSubmatch(m.subject); t != nil {
			game = strings.ToLower(t[1])
		}
		text, err := j.Templates.Text("notice.txt.tmpl", templates.Notice{Kind: m.kind, Game: game, Subject: m.subject, Text: m.text, Judge: j.Address})
		if err != nil {
			return fmt.Errorf("notice %s: %w", m.messageID, err)
		}
		m.text = text
	}
	// Every mail to an observer of the game says how to stop them, in its text and in a
	// List-Unsubscribe header (observers.go; issue 21 item 2).
	if m.gameID != 0 && !isReply(m.kind) {
		obs, err := observes(tx, m.gameID, m.to) // once a transaction (txmemo.go)
		if err != nil {
			return err
		}
		if obs {
			g, err := tx.Game(m.gameID)
			if err != nil {
				return err
			}
			m.text += j.observerFooter(g.Tag)
			if m.html != "" {
				m.html = withObserverHTML(m.html, j.observerFooter(g.Tag))
			}
			m.unsubscribe, m.observer = j.observerUnsubscribe(g.Tag), true
		}
	}
	// No plain secret is ever composed into a stored mail (issue 14 item 8): a secret the
	// judge gives goes in at send time (slots), and anything else shaped like one (a code
	// echoed from the mail answered) is removed here.
	m.html, m.subject = redactText(m.html), redactText(m.subject)
	if m.render == nil { // else once it is rendered (composed.make)
		m.text = redactText(m.text)
	}
	now := j.now()
	if v != nil && v.acks != nil && m.later == nil {
		v.acks.add(&composed{m: m, now: now})
		return nil
	}
	raw, err := j.compose(m, now)
	if err != nil {
		return err
	}
	return j.storeOut(tx, m, raw, now)
}

// withObserverHTML is html with the observer footer as its last paragraph.
func withObserverHTML(h, footer string) string {
	p := "<p>" + html.EscapeString(strings.TrimSpace(strings.TrimPrefix(footer, "\n-- \n"))) + "</p>\n"
	if i := strings.LastIndex(h, "</body>"); i >= 0 {
		return h[:i] + p + h[i:]
	}
	return h + p
}

// compose builds the raw bytes of m, dated now. It reads nothing of the judge's state
// but its address, name and version: a batch runs it beside the writer (ackQueue).
func (j *Judge) compose(m outMail, now time.Time) ([]byte, error) {
	as := "auto-replied"
	if m.generated {
		as = "auto-generated"
	}
	raw, err := mail.Compose(mail.Outgoing{
		From: j.Address, FromName: j.Name, To: []string{m.to}, Subject: m.subject,
		MessageID: m.messageID, InReplyTo: m.inReplyTo, References: m.refs,
		Date: now, Version: Version, AutoSubmitted: as, Text: m.text, HTML: m.html, Inline: m.inline, Attachments: m.attach,
		ListUnsubscribe: m.unsubscribe,
	})
	if err != nil {
		return nil, fmt.Errorf("compose %s: %w", m.messageID, err)
	}
	return raw, nil
}

// storeOut puts m, composed as raw at now, in the outbox.
func (j *Judge) storeOut(tx *store.Tx, m outMail, raw []byte, now time.Time) error {
	row, dup, err := tx.Enqueue(j.outboxRow(m, raw, now))
	if err != nil || dup || m.later == nil {
		return err
	}
	job, err := m.awaitJob()
	if err != nil {
		return err
	}
	return tx.AwaitPictures(row.ID, job)
}

// outboxRow is the outbox row of m, composed as raw at now.
func (j *Judge) outboxRow(m outMail, raw []byte, now time.Time) store.OutboxMail {
	turn := m.turn
	if m.gameID == 0 {
		turn = -1
	}
	return store.OutboxMail{
		MessageID: m.messageID, To: []string{m.to}, From: j.Address, Subject: m.subject,
		Raw: raw, Kind: m.kind, GameID: m.gameID, Turn: turn, Created: now, Slots: m.slots,
	}
}

func (j *Judge) gameRoot(tag string) string { return fmt.Sprintf("game.%s@%s", tag, j.domainOf()) }

func (j *Judge) reportID(tag string, turn, seat int) string {
	return j.reportIDGen(tag, turn, 0, fmt.Sprintf("s%d", seat))
}

// reportIDGen names a report of turn (for a seat, or "list"); gen counts how often the
// turn was rolled back before, so the reports of a turn resolved again are new mails.
func (j *Judge) reportIDGen(tag string, turn, gen int, who string) string {
	if gen == 0 {
		return fmt.Sprintf("report.%s.%d.%s@%s", tag, turn, who, j.domainOf())
	}
	return fmt.Sprintf("report.%s.%d.g%d.%s@%s", tag, turn, gen, who, j.domainOf())
}

func (j *Judge) pictureID(what, tag string, turn int) string {
	return fmt.Sprintf("%s.%s.%d@%s", what, tag, turn, j.domainOf())
}

func (j *Judge) replyID(inboxID int64) string {
	return fmt.Sprintf("reply.%d@%s", inboxID, j.domainOf())
}

func (j *Judge) noticeID(kind string, key any) string {
	return fmt.Sprintf("notice.%s.%v@%s", kind, key, j.domainOf())
}

// subject writes a game mail's subject: the tag first, so replies keep it.
func subject(tag, what string) string { return fmt.Sprintf("[RR %s] %s", tag, what) }

// replySubject is "Re: ..." of a subject, without stacking Re:s.
func replySubject(s string) string {
	t := strings.TrimSpace(s)
	if len(t) >= 3 && strings.EqualFold(t[:3], "re:") {
		return t
	}
	if t == "" {
		return "Re: your mail to rallyjudge"
	}
	return "Re: " + t
}
