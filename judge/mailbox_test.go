package judge

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/rallyjudge/rallyjudge/mail"
)

// The real mail stack (scripts/mailstack.sh): Dovecot IMAP and Postfix SMTP on
// 127.0.0.1. Tests that need it skip unless RALLYJUDGE_MAILSTACK=1 (.ci/run sets it).

func needMailstack(t *testing.T) (imapAddr, smtpAddr string) {
	t.Helper()
	if os.Getenv("RALLYJUDGE_MAILSTACK") != "1" {
		t.Skip("needs the real mail stack: RALLYJUDGE_MAILSTACK=1 (scripts/mailstack.sh start)")
	}
	imapAddr, smtpAddr = os.Getenv("RALLYJUDGE_IMAP_ADDR"), os.Getenv("RALLYJUDGE_SMTP_ADDR")
	if imapAddr == "" {
		imapAddr = "127.0.0.1:1143"
	}
	if smtpAddr == "" {
		smtpAddr = "127.0.0.1:2525"
	}
	return imapAddr, smtpAddr
}

// mailbox reads or empties a user's INBOX over plain IMAP.
func mailboxMessages(t *testing.T, addr, user, pass string) [][]byte {
	t.Helper()
	c := imapLogin(t, addr, user, pass)
	defer c.Close()
	sel, err := c.Select("INBOX", nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if sel.NumMessages == 0 {
		return nil
	}
	var seq imap.SeqSet
	seq.AddRange(1, sel.NumMessages)
	msgs, err := c.Fetch(seq, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, m := range msgs {
		for _, b := range m.BodySection {
			out = append(out, b.Bytes)
		}
	}
	return out
}

func clearMailbox(t *testing.T, addr, user, pass string) {
	t.Helper()
	c := imapLogin(t, addr, user, pass)
	defer c.Close()
	sel, err := c.Select("INBOX", nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if sel.NumMessages == 0 {
		return
	}
	var seq imap.SeqSet
	seq.AddRange(1, sel.NumMessages)
	if err := c.Store(seq, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Expunge().Close(); err != nil {
		t.Fatal(err)
	}
}

func imapLogin(t *testing.T, addr, user, pass string) *imapclient.Client {
	t.Helper()
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Login(user, pass).Wait(); err != nil {
		c.Close()
		t.Fatal(err)
	}
	return c
}

// serveOnMailstack runs j.Serve on the real stack's "orders" mailbox until the test ends,
// and returns an SMTP sender for the players' mail.
func serveOnMailstack(t *testing.T, j *Judge, imapAddr, smtpAddr string) *mail.Sender {
	t.Helper()
	fetcher, err := mail.NewFetcher(mail.FetcherConfig{Addr: imapAddr, TLS: "plain", Username: "orders", Password: "orderspw",
		After: "flag", IdleTimeout: 3 * time.Second, PollInterval: time.Second, Logger: testLog(t)})
	if err != nil {
		t.Fatal(err)
	}
	sender, err := mail.NewSender(mail.SenderConfig{Addr: smtpAddr, TLS: "none", Logger: testLog(t)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- j.Serve(ctx, Loops{Fetcher: fetcher, Mailbox: "INBOX", Sender: sender, Tick: 300 * time.Millisecond})
	}()
	t.Cleanup(func() { stop(); <-done })
	return sender
}
