package judge

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// realMail is a judge served on the real mail stack (RALLYJUDGE_MAILSTACK=1) with empty
// mailboxes, carol@example.test as the server's game master, and boss her secret as she
// read it in her mail (the stored copy holds a placeholder).
type realMail struct {
	t      *testing.T
	imap   string
	sender *mail.Sender
	pw     map[string]string
	boss   string
}

func newRealMail(t *testing.T, dbName string) *realMail {
	imapAddr, smtpAddr := needMailstack(t)
	pw := map[string]string{"alice": "alicepw", "bob": "bobpw", "carol": "carolpw", "orders": "orderspw"}
	for u, p := range pw {
		clearMailbox(t, imapAddr, u, p)
	}
	st, err := store.OpenWith(filepath.Join(t.TempDir(), dbName), store.Options{Sync: store.SyncNormal})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() }) // after the judge stops (cleanups run last first)
	j, err := New(st, "orders@example.test", testLog(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := j.AddGM(context.Background(), "", "carol@example.test"); err != nil {
		t.Fatal(err)
	}
	rm := &realMail{t: t, imap: imapAddr, sender: serveOnMailstack(t, j, imapAddr, smtpAddr), pw: pw}
	gmText, _ := rm.mailWith("carol", "you are a game master")
	m := secretInText.FindStringSubmatch(gmText)
	if m == nil {
		t.Fatal("carol's game master secret did not arrive")
	}
	rm.boss = m[1]
	return rm
}

// send mails body from user and returns the text of the judge's reply to it.
func (rm *realMail) send(user, subj, body string) string {
	t := rm.t
	t.Helper()
	raw := rawMail(user+"@example.test", subj, body)
	x, _ := mail.Extract(raw)
	if err := rm.sender.Send(context.Background(), user+"@example.test", []string{"orders@example.test"}, raw); err != nil {
		t.Fatal(err)
	}
	if text, _, ok := rm.await(user, func(m *mail.Message) bool { return m.InReplyTo == x.MessageID }); ok {
		return text
	}
	t.Fatalf("%s: no reply to %q", user, subj)
	return ""
}

// mailWith is the text and raw bytes of a mail in user's mailbox whose subject holds
// subjectPart.
func (rm *realMail) mailWith(user, subjectPart string) (string, []byte) {
	rm.t.Helper()
	if text, raw, ok := rm.await(user, func(m *mail.Message) bool { return strings.Contains(m.Subject, subjectPart) }); ok {
		return text, raw
	}
	rm.t.Fatalf("%s: no mail with subject %q", user, subjectPart)
	return "", nil
}

// await polls user's mailbox for up to a minute for a mail that match accepts.
func (rm *realMail) await(user string, match func(*mail.Message) bool) (string, []byte, bool) {
	end := time.Now().Add(60 * time.Second)
	for time.Now().Before(end) {
		for _, r := range mailboxMessages(rm.t, rm.imap, user, rm.pw[user]) {
			if m, err := mail.Extract(r); err == nil && match(m) {
				return m.Text, r, true
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	return "", nil, false
}
