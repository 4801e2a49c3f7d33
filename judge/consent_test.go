package judge

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	gomail "github.com/emersion/go-message/mail"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// observing is whether addr observes the fixture's game spring.
func (f *fixture) observing(addr string) bool {
	f.t.Helper()
	var yes bool
	if err := f.j.Store.View(context.Background(), func(tx *store.Tx) error {
		g, err := tx.GameByTag("spring")
		if err != nil {
			return err
		}
		yes, err = tx.Observes(g.ID, addr)
		return err
	}); err != nil {
		f.t.Fatal(err)
	}
	return yes
}

// TestObserveNeedsConsent: OBSERVE subscribes nobody by itself; the code it mails to the
// address, sent back from there (CONFIRM), does. Every mail to an observer says how to
// stop, in its text and in a List-Unsubscribe header whose mail the judge takes. Before
// issue 21 an OBSERVE with a forged From put a victim on four games, unasked.
func TestObserveNeedsConsent(t *testing.T) {
	f := newFixture(t)
	// forged: the code goes to the victim, who does nothing
	_, text := f.send("victim@example.test", "watch", "OBSERVE spring\n")
	mustContain(t, "a forged OBSERVE's reply", text, "CONFIRM ", "Nothing is sent to this address until then")
	if f.observing("victim@example.test") {
		t.Fatal("an OBSERVE subscribed its From without a CONFIRM")
	}
	// a code from another address counts for nothing
	code := confirmCode.FindStringSubmatch(text)[1]
	if _, text := f.send("mallory@example.test", "confirm", "CONFIRM "+code+"\n"); !strings.Contains(text, "Not done") || f.observing("victim@example.test") || f.observing("mallory@example.test") {
		t.Fatalf("a CONFIRM from another address subscribed someone:\n%s", text)
	}
	// asked and confirmed from the address: subscribed
	text = f.joinConfirmed("kibitzer@example.test", "watch", "OBSERVE spring\n")
	mustContain(t, "the CONFIRM of an OBSERVE", text, "You now observe game spring")
	if !f.observing("kibitzer@example.test") {
		t.Fatal("a confirmed OBSERVE did not subscribe")
	}
	f.send("gm@example.test", "[RR spring] s", "secret "+f.secrets[""]+"\nPROCESS\n")
	reps := f.mailsTo("kibitzer@example.test", "report")
	if len(reps) != 1 {
		t.Fatalf("the observer got %d reports, want 1", len(reps))
	}
	m, err := mail.Extract(reps[0].Raw)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.Text, "To stop, mail UNOBSERVE spring to judge@example.test") {
		t.Errorf("the observer's report does not say how to stop:\n%s", m.Text)
	}
	raw := string(reps[0].Raw)
	want := "List-Unsubscribe: <mailto:judge@example.test?subject=UNOBSERVE%20spring&body=UNOBSERVE%20spring>"
	if !strings.Contains(raw, want) {
		t.Errorf("the observer's report lacks %q", want)
	}
	// a player's report carries neither
	for _, r := range f.mailsTo("twonky@example.test", "report") {
		if strings.Contains(string(r.Raw), "List-Unsubscribe") || strings.Contains(textOf(t, r), "UNOBSERVE") {
			t.Error("a player's report carries the observer's unsubscribe")
		}
	}
	// the mail the header asks for unsubscribes
	f.deliver(rawMail("kibitzer@example.test", "UNOBSERVE spring", "UNOBSERVE spring\n"))
	if f.observing("kibitzer@example.test") {
		t.Error("the List-Unsubscribe mail did not unsubscribe")
	}
}

// TestPressIsLimited: a player sends at most press-limit messages a turn (20 unless the
// game master SETs another); the one past it is refused and the sender told, and nobody
// gets it. Before issue 21, 30 PRESS TO ALL in a row reached every player and observer
// 30 times.
func TestPressIsLimited(t *testing.T) {
	f := newFixture(t)
	f.joinConfirmed("kibitzer@example.test", "watch", "OBSERVE spring\n")
	press := func(i int) string {
		_, text := f.send("twonky@example.test", fmt.Sprintf("[RR spring] press %d", i), "secret "+f.secrets["Twonky"]+"\nPRESS TO ALL\nhello number "+fmt.Sprint(i)+"\n")
		return text
	}
	for i := 0; i < DefaultPressLimit; i++ {
		if text := press(i); !strings.Contains(text, "went to everyone") {
			t.Fatalf("press %d refused:\n%s", i, text)
		}
	}
	text := press(DefaultPressLimit)
	mustContain(t, "the press past the limit", text, "Not done", "20 press messages in turn 1", "press-limit")
	for _, who := range []string{"zoombot@example.test", "hulk@example.test", "kibitzer@example.test"} {
		if n := len(f.mailsTo(who, "press")); n != DefaultPressLimit {
			t.Errorf("%s got %d press mails, want %d", who, n, DefaultPressLimit)
		}
	}
	// the game master lowers it; a new limit binds at once
	_, text = f.send("gm@example.test", "[RR spring] set", "secret "+f.secrets[""]+"\nSET press-limit 3\n")
	if strings.Contains(text, "Not done") {
		t.Fatalf("SET press-limit 3:\n%s", text)
	}
	_, text = f.send("zoombot@example.test", "[RR spring] p", "secret "+f.secrets["Zoombot"]+"\nPRESS TO Hulk\none\nENDPRESS\nPRESS TO Hulk\ntwo\nENDPRESS\nPRESS TO Hulk\nthree\nENDPRESS\nPRESS TO Hulk\nfour\n")
	if strings.Count(text, "went to Hulk") != 3 || !strings.Contains(text, "3 press messages in turn 1") {
		t.Errorf("four press messages under a limit of 3:\n%s", text)
	}
	for _, bad := range []string{"0", "201", "many"} {
		if _, text := f.send("gm@example.test", "[RR spring] set", "secret "+f.secrets[""]+"\nSET press-limit "+bad+"\n"); !strings.Contains(text, "Not done") {
			t.Errorf("SET press-limit %s taken:\n%s", bad, text)
		}
	}
}

// TestListUnsubscribeByMail: the List-Unsubscribe header of a mail to an observer is
// followed as a mail program follows it (RFC 2369 and RFC 6068: a mail to the mailto
// address with the subject and body its fields give, percent-decoded), and the judge
// takes that mail as UNOBSERVE: the observer is removed, told so, and gets nothing of
// the next turn. Mail programs dress the mail differently: plain, with a signature and
// an HTML part beside the text, or with the subject only (some ignore the body field).
// There is no List-Unsubscribe-Post: RFC 8058's one-click needs an HTTPS URI, and the
// judge takes only mail.
func TestListUnsubscribeByMail(t *testing.T) {
	for _, tc := range []struct {
		name string
		mail func(from, to, subject, body string) []byte
	}{
		{"plain", func(from, to, subject, body string) []byte {
			return []byte("From: " + from + "\r\nTo: " + to + "\r\nSubject: " + subject + "\r\nMessage-ID: <unsub.1@client.test>\r\n" +
				"Date: Sun, 01 Mar 2026 12:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + body + "\r\n")
		}},
		{"signature and HTML", func(from, to, subject, body string) []byte {
			return []byte("From: Kibitzer <" + from + ">\r\nTo: <" + to + ">\r\nSubject: " + subject + "\r\nMessage-ID: <unsub.2@client.test>\r\n" +
				"Date: Sun, 01 Mar 2026 12:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=alt\r\n\r\n" +
				"--alt\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + body + "\r\n\r\n-- \r\nSent from my phone\r\n" +
				"--alt\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<div>" + body + "</div><div>-- <br>Sent from my phone</div>\r\n--alt--\r\n")
		}},
		{"subject only", func(from, to, subject, _ string) []byte {
			return []byte("From: " + from + "\r\nTo: " + to + "\r\nSubject: " + subject + "\r\nMessage-ID: <unsub.3@client.test>\r\n" +
				"Date: Sun, 01 Mar 2026 12:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.joinConfirmed("kibitzer@example.test", "watch", "OBSERVE spring\n")
			f.send("gm@example.test", "[RR spring] s", "secret "+f.secrets[""]+"\nPROCESS\n")
			reps := f.mailsTo("kibitzer@example.test", "report")
			if len(reps) != 1 {
				t.Fatalf("the observer got %d reports, want 1", len(reps))
			}
			h, err := gomail.CreateReader(bytes.NewReader(reps[0].Raw))
			if err != nil {
				t.Fatal(err)
			}
			lu := h.Header.Get("List-Unsubscribe")
			if h.Header.Get("List-Unsubscribe-Post") != "" {
				t.Error("List-Unsubscribe-Post without an HTTPS URI to post to")
			}
			if !strings.HasPrefix(lu, "<") || !strings.HasSuffix(lu, ">") || strings.Count(lu, "<") != 1 {
				t.Fatalf("List-Unsubscribe %q is not one <URI>", lu)
			}
			u, err := url.Parse(lu[1 : len(lu)-1])
			if err != nil || u.Scheme != "mailto" {
				t.Fatalf("List-Unsubscribe %q is not a mailto URI (%v)", lu, err)
			}
			q, err := url.ParseQuery(u.RawQuery)
			if err != nil {
				t.Fatal(err)
			}
			if u.Opaque != f.j.Address || q.Get("subject") == "" {
				t.Fatalf("List-Unsubscribe %q: mail to %q, subject %q", lu, u.Opaque, q.Get("subject"))
			}
			f.deliver(tc.mail("kibitzer@example.test", u.Opaque, q.Get("subject"), q.Get("body")))
			_, text := f.reply(f.uid)
			if f.observing("kibitzer@example.test") {
				t.Fatalf("the mail List-Unsubscribe asks for did not unsubscribe; the reply:\n%s", text)
			}
			mustContain(t, "the reply to the unsubscribe", text, "spring")
			f.send("gm@example.test", "[RR spring] s", "secret "+f.secrets[""]+"\nPROCESS\n")
			if n := len(f.mailsTo("kibitzer@example.test", "report")); n != 1 {
				t.Errorf("the observer got %d reports after unsubscribing, want still 1", n)
			}
		})
	}
}
