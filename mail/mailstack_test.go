package mail

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// The tests here need the real Dovecot + Postfix of scripts/mailstack.sh; they run when
// RALLYJUDGE_MAILSTACK=1 (as .ci/run does) and are skipped otherwise. They use the mailstack
// user rjmail, never the game mailboxes, and a fresh folder per test.

type mailstackEnv struct {
	imap, imaps, smtp, submission string
	user, pass                    string
	domain                        string
}

func mailstack(t *testing.T) mailstackEnv {
	t.Helper()
	if os.Getenv("RALLYJUDGE_MAILSTACK") != "1" {
		t.Skip("set RALLYJUDGE_MAILSTACK=1 with scripts/mailstack.sh running to test against Dovecot + Postfix")
	}
	get := func(k, def string) string {
		if v := os.Getenv(k); v != "" {
			return v
		}
		return def
	}
	domain := get("MAILSTACK_DOMAIN", "example.test")
	return mailstackEnv{
		imap:       "127.0.0.1:" + get("MAILSTACK_IMAP_PORT", "1143"),
		imaps:      "127.0.0.1:" + get("MAILSTACK_IMAPS_PORT", "1993"),
		smtp:       "127.0.0.1:" + get("MAILSTACK_SMTP_PORT", "2525"),
		submission: "127.0.0.1:" + get("MAILSTACK_SUBMISSION_PORT", "1587"),
		user:       get("RALLYJUDGE_MAILSTACK_USER", "rjmail") + "@" + domain,
		pass:       get("RALLYJUDGE_MAILSTACK_PASSWORD", "rjmailpw"),
		domain:     domain,
	}
}

// freshFolder creates a folder only this test uses and deletes it (and its "-done") afterwards.
func freshFolder(t *testing.T, env mailstackEnv) (*imapclient.Client, string) {
	t.Helper()
	c := imapLook(t, env.imap, "plain", env.user, env.pass)
	name := fmt.Sprintf("rjtest-%d", time.Now().UnixNano())
	if err := c.Create(name, nil).Wait(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cc, err := imapclient.DialInsecure(env.imap, nil)
		if err != nil {
			return
		}
		defer cc.Close()
		if cc.Login(env.user, env.pass).Wait() == nil {
			_ = cc.Delete(name).Wait()
			_ = cc.Delete(name + "-done").Wait()
		}
	})
	return c, name
}

func appendRaw(t *testing.T, c *imapclient.Client, mailbox string, raw []byte) {
	t.Helper()
	cmd := c.Append(mailbox, int64(len(raw)), nil)
	if _, err := cmd.Write(raw); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
}

func TestFetcherMailstack(t *testing.T) {
	env := mailstack(t)
	for _, sc := range fetcherScenarios {
		t.Run(sc.name, func(t *testing.T) {
			c, folder := freshFolder(t, env)
			var mu sync.Mutex
			s := &testStack{imapAddr: env.imap, user: env.user, pass: env.pass, mailbox: folder}
			s.deliver = func(t *testing.T, raws ...[]byte) {
				mu.Lock()
				defer mu.Unlock()
				for _, raw := range raws {
					appendRaw(t, c, folder, raw)
				}
			}
			s.rebuild = func(t *testing.T, keep ...[]byte) {
				mu.Lock()
				defer mu.Unlock()
				if _, err := c.Select("INBOX", nil).Wait(); err != nil { // not the one we delete
					t.Fatal(err)
				}
				if err := c.Delete(folder).Wait(); err != nil {
					t.Fatal(err)
				}
				time.Sleep(1100 * time.Millisecond) // Dovecot's UIDVALIDITY is a timestamp
				if err := c.Create(folder, nil).Wait(); err != nil {
					t.Fatal(err)
				}
				for _, raw := range keep {
					appendRaw(t, c, folder, raw)
				}
			}
			sc.run(t, s)
		})
	}
}

// TestMailstackPostfixToDovecot sends through Postfix (port 25 style and submission with
// STARTTLS + AUTH) and reads from Dovecot (IMAPS and STARTTLS), flagging what it read.
func TestMailstackPostfixToDovecot(t *testing.T) {
	env := mailstack(t)
	tag := fmt.Sprintf("pf-%d", time.Now().UnixNano())
	senders := []SenderConfig{
		{Addr: env.smtp, TLS: "none"},
		{Addr: env.submission, TLS: "starttls", InsecureSkipVerify: true, Username: env.user, Password: env.pass},
	}
	want := map[string]bool{}
	for i, sc := range senders {
		s, err := NewSender(sc)
		if err != nil {
			t.Fatal(err)
		}
		id := fmt.Sprintf("%s-%d@example.test", tag, i)
		raw, err := Compose(Outgoing{From: "orders@" + env.domain, To: []string{env.user}, Subject: "[RR test] " + tag,
			MessageID: id, Version: "test", Text: fmt.Sprintf("robot: Twonky\nprogram: M1 M2\nsender %d\n", i)})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Send(context.Background(), "orders@"+env.domain, []string{env.user}, raw); err != nil {
			t.Fatalf("send via %s: %v", sc.Addr, err)
		}
		want[id] = true
	}
	for _, mode := range []struct{ tls, addr string }{{"imaps", env.imaps}, {"starttls", env.imap}} {
		t.Run(mode.tls, func(t *testing.T) {
			rec := newRecorder()
			cfg := FetcherConfig{Addr: mode.addr, TLS: mode.tls, InsecureSkipVerify: true, Username: env.user, Password: env.pass,
				Mailbox: "INBOX", IdleTimeout: time.Second, MinBackoff: 100 * time.Millisecond}
			if mode.tls == "starttls" {
				cfg.Keyword = "$RallyjudgeDone2" // offers the same mail again under a second keyword
			}
			_, stop := startFetcher(t, cfg, rec.handle)
			deadline := time.Now().Add(20 * time.Second)
			for {
				rec.mu.Lock()
				got := 0
				for id := range want {
					if rec.byID[id] > 0 {
						got++
					}
				}
				rec.mu.Unlock()
				if got == len(want) {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("%d of %d messages arrived through Postfix", got, len(want))
				}
				time.Sleep(100 * time.Millisecond)
			}
			stop()
			rec.mu.Lock()
			defer rec.mu.Unlock()
			for _, raw := range rec.raws {
				m, err := Extract(raw)
				if err != nil || !want[m.MessageID] {
					continue
				}
				if !strings.Contains(m.Text, "robot: Twonky") || m.Subject != "[RR test] "+tag {
					t.Errorf("message %s arrived changed: %q %q", m.MessageID, m.Subject, m.Text)
				}
				if auto, _ := IsAutomatic(m); !auto {
					t.Errorf("our own mail, delivered by Postfix, not recognised as automatic")
				}
			}
		})
	}
	// 5xx from Postfix: an unknown local user is refused at RCPT
	s, _ := NewSender(SenderConfig{Addr: env.smtp})
	err := s.Send(context.Background(), "orders@"+env.domain, []string{"nobody-" + tag + "@" + env.domain}, []byte("Subject: x\r\n\r\nx\r\n"))
	if !IsPermanent(err) {
		t.Errorf("unknown user via Postfix: %v, want a permanent failure", err)
	}
	// wrong password on submission: permanent
	s, _ = NewSender(SenderConfig{Addr: env.submission, TLS: "starttls", InsecureSkipVerify: true, Username: env.user, Password: "wrong"})
	if err := s.Send(context.Background(), env.user, []string{env.user}, []byte("Subject: x\r\n\r\nx\r\n")); !IsPermanent(err) {
		t.Errorf("wrong password on submission: %v, want a permanent failure", err)
	}
}

// TestMailstackThroughput (RALLYJUDGE_THROUGHPUT=1) delivers 1,000 order mails through Postfix,
// then reads them from Dovecot twice: a bare IMAP client (one UID FETCH BODY.PEEK[] of all) and
// the Fetcher (fetch, handler, flag). It prints messages per second.
func TestMailstackThroughput(t *testing.T) {
	env := mailstack(t)
	if os.Getenv("RALLYJUDGE_THROUGHPUT") != "1" {
		t.Skip("set RALLYJUDGE_THROUGHPUT=1 to measure")
	}
	const n = 1000
	c, folder := freshFolder(t, env)
	tag := fmt.Sprintf("tp-%d", time.Now().UnixNano())
	s, _ := NewSender(SenderConfig{Addr: env.smtp})
	start := time.Now()
	for i := 0; i < n; i++ {
		raw := playerMail("alice@"+env.domain, env.user, fmt.Sprintf("%s-%d@example.test", tag, i), i)
		raw = bytes.Replace(raw, []byte("[RR test]"), []byte("[RR "+tag+"]"), 1)
		if err := s.Send(context.Background(), "alice@"+env.domain, []string{env.user}, raw); err != nil {
			t.Fatal(err)
		}
	}
	sent := time.Since(start)
	// wait until Dovecot has them all, then move them into the test's folder
	crit := &imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "Subject", Value: tag}}}
	for {
		if _, err := c.Select("INBOX", nil).Wait(); err != nil {
			t.Fatal(err)
		}
		d, err := c.UIDSearch(crit, nil).Wait()
		if err != nil {
			t.Fatal(err)
		}
		if len(d.AllUIDs()) == n {
			if _, err := c.Move(imap.UIDSetNum(d.AllUIDs()...), folder).Wait(); err != nil {
				t.Fatal(err)
			}
			break
		}
		if time.Since(start) > 3*time.Minute {
			t.Fatalf("only %d of %d delivered", len(d.AllUIDs()), n)
		}
		time.Sleep(200 * time.Millisecond)
	}
	delivered := time.Since(start)

	// bare IMAP client
	bare := imapLook(t, env.imap, "plain", env.user, env.pass)
	t0 := time.Now()
	if _, err := bare.Select(folder, nil).Wait(); err != nil {
		t.Fatal(err)
	}
	var all imap.UIDSet
	all.AddRange(1, 0)
	msgs, err := bare.Fetch(all, &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
	if err != nil || len(msgs) != n {
		t.Fatalf("bare fetch: %v, %d messages", err, len(msgs))
	}
	bareDur := time.Since(t0)

	// the Fetcher: fetch, hand over, flag
	rec := newRecorder()
	t1 := time.Now()
	_, stop := startFetcher(t, FetcherConfig{Addr: env.imap, TLS: "plain", Username: env.user, Password: env.pass, Mailbox: folder}, rec.handle)
	rec.wait(t, n, 2*time.Minute)
	waitUIDs(t, c, folder, &imap.SearchCriteria{Flag: []imap.Flag{doneKW}}, n)
	fetcherDur := time.Since(t1)
	stop()

	rate := func(d time.Duration) float64 { return float64(n) / d.Seconds() }
	t.Logf("throughput, %d messages: SMTP to Postfix %.0f msg/s (%v); delivered into Dovecot %.0f msg/s (%v); "+
		"bare IMAP fetch %.0f msg/s (%v); Fetcher fetch+handle+flag %.0f msg/s (%v)",
		n, rate(sent), sent.Round(time.Millisecond), rate(delivered), delivered.Round(time.Millisecond),
		rate(bareDur), bareDur.Round(time.Millisecond), rate(fetcherDur), fetcherDur.Round(time.Millisecond))
}
