package judge

import (
	"bytes"
	"fmt"
	"net/smtp"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"github.com/rallyjudge/rallyjudge/mail"
)

// TestClientCorpusMailstack sends every mail of the client corpus through the real
// Postfix (SMTP in) and Dovecot (IMAP out), as a player's mail travels, and checks that
// the judge reads the delivered copy exactly as the file (Postfix adds Received and
// Return-Path, may re-fold headers; Dovecot may change line ends), and that a game
// takes each sheet without an identity failure. RALLYJUDGE_MAILSTACK=1 (.ci/run).
func TestClientCorpusMailstack(t *testing.T) {
	imapAddr, smtpAddr := needMailstack(t)
	files, err := filepath.Glob("../mail/testdata/clients/*.eml")
	if err != nil || len(files) == 0 {
		t.Fatal("no corpus")
	}
	stamp := time.Now().UnixNano()
	ids := map[string]string{}
	sent := map[string][]byte{}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".eml")
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		// a Message-ID of its own, so this run finds its copies among other tests' mail
		id := fmt.Sprintf("corpus-%s-%d@mailin.example.test", name, stamp)
		raw = replaceHeader(raw, "Message-ID", "<"+id+">")
		ids[name], sent[name] = id, raw
		if err := sendPlain(smtpAddr, "zoe@example.test", "orders@example.test", raw); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	c := imapLogin(t, imapAddr, "orders", "orderspw")
	defer c.Close()
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	got := map[string][]byte{}
	deadline := time.Now().Add(60 * time.Second)
	for len(got) < len(ids) && time.Now().Before(deadline) {
		for name, id := range ids {
			if got[name] != nil {
				continue
			}
			res, err := c.UIDSearch(&imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "Message-ID", Value: id}}}, nil).Wait()
			if err != nil {
				t.Fatal(err)
			}
			uids := res.AllUIDs()
			if len(uids) == 0 {
				continue
			}
			msgs, err := c.Fetch(imap.UIDSetNum(uids[0]), &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
			if err != nil || len(msgs) == 0 || len(msgs[0].BodySection) == 0 {
				t.Fatalf("fetch %s: %v", name, err)
			}
			got[name] = msgs[0].BodySection[0].Bytes
			// delivered: mark it deleted so the mailbox does not grow run after run
			_ = c.Store(imap.UIDSetNum(uids[0]), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close()
		}
		if len(got) < len(ids) {
			_ = c.Noop().Wait() // Postfix delivers in its own time: ask Dovecot again
			time.Sleep(200 * time.Millisecond)
		}
	}
	_ = c.Expunge().Close()
	if len(got) != len(ids) {
		t.Fatalf("%d of %d corpus mails came through Postfix and Dovecot", len(got), len(ids))
	}
	for name := range ids {
		t.Run(name, func(t *testing.T) {
			if !bytes.Contains(got[name], []byte("Received:")) {
				t.Errorf("the delivered copy has no Received header: it did not travel")
			}
			describe := func(raw []byte) string {
				m, err := mail.Extract(raw)
				if err != nil {
					t.Fatal(err)
				}
				var b bytes.Buffer
				Read(m, testReader).Describe(&b)
				return b.String()
			}
			if a, b := describe(sent[name]), describe(got[name]); a != b {
				t.Errorf("read differently after delivery:\n--- sent\n%s--- delivered\n%s", a, b)
			}
			want := corpusFacts[name]
			if want.program == "" {
				return
			}
			f := newFixture(t)
			if want.rules == "2023" {
				f = newFixture2023(t, "")
			}
			f.deliver(f.asZoombot(got[name]))
			fate := f.zoombotFate()
			if fate.program != want.program || fate.failures != 0 {
				t.Errorf("program %q, identity failures %d (%s)", fate.program, fate.failures, fate.note)
			}
		})
	}
}

// replaceHeader sets the first header field named key (case-insensitive) of raw.
func replaceHeader(raw []byte, key, val string) []byte {
	lines := bytes.SplitAfter(raw, []byte("\n"))
	for i, l := range lines {
		if len(bytes.TrimSpace(l)) == 0 {
			break
		}
		if k, _, ok := bytes.Cut(l, []byte(":")); ok && strings.EqualFold(string(k), key) {
			lines[i] = []byte(key + ": " + val + "\r\n")
			return bytes.Join(lines, nil)
		}
	}
	return append([]byte(key+": "+val+"\r\n"), raw...)
}

// sendPlain hands raw to an SMTP server on loopback without TLS (the mail stack's port 25
// stand-in offers STARTTLS with a self-signed certificate; a player's MTA would use it).
func sendPlain(addr, from, to string, raw []byte) error {
	c, err := smtp.Dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Hello("client.example.test"); err != nil {
		return err
	}
	if err := c.Mail(from); err != nil {
		return err
	}
	if err := c.Rcpt(to); err != nil {
		return err
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(raw); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return c.Quit()
}
