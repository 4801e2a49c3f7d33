package mail

import (
	"context"
	"errors"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// faultSMTP is a go-smtp server that answers DATA with 451 the first failFirst times, and RCPT to
// reject@ with 550.
type faultSMTP struct {
	mu        sync.Mutex
	failFirst int
	dataCalls int
	accepted  [][]byte
}

func (b *faultSMTP) NewSession(*smtp.Conn) (smtp.Session, error) { return &faultSession{b: b}, nil }

type faultSession struct{ b *faultSMTP }

func (s *faultSession) Mail(string, *smtp.MailOptions) error { return nil }
func (s *faultSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if to == "reject@example.test" {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user"}
	}
	return nil
}
func (s *faultSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	s.b.dataCalls++
	if s.b.dataCalls <= s.b.failFirst {
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
	}
	s.b.accepted = append(s.b.accepted, b)
	return nil
}
func (s *faultSession) Reset()        {}
func (s *faultSession) Logout() error { return nil }

func startFaultSMTP(t *testing.T, b *faultSMTP) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := smtp.NewServer(b)
	srv.Domain = "fault.example.test"
	done := make(chan struct{})
	go func() { defer close(done); _ = srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close(); ln.Close(); <-done })
	return ln.Addr().String()
}

func TestSenderTemporaryThenAccepted(t *testing.T) {
	b := &faultSMTP{failFirst: 1}
	s, err := NewSender(SenderConfig{Addr: startFaultSMTP(t, b), TLS: "none"})
	if err != nil {
		t.Fatal(err)
	}
	raw := playerMail("orders@example.test", "alice@example.test", "x@example.test", 1)
	err = s.Send(context.Background(), "orders@example.test", []string{"alice@example.test"}, raw)
	var se *SendError
	if !errors.As(err, &se) || IsPermanent(err) || se.Code != 451 || se.Stage != "data" {
		t.Fatalf("first send: %v, want a temporary 451 at data", err)
	}
	if err := s.Send(context.Background(), "orders@example.test", []string{"alice@example.test"}, raw); err != nil {
		t.Fatalf("second send: %v", err)
	}
	if len(b.accepted) != 1 || string(b.accepted[0]) != string(raw) {
		t.Errorf("server accepted %d messages; want the one, unchanged", len(b.accepted))
	}
}

func TestSenderErrors(t *testing.T) {
	b := &faultSMTP{}
	addr := startFaultSMTP(t, b)
	closed := func() string { // a port nobody listens on
		ln, _ := net.Listen("tcp", "127.0.0.1:0")
		a := ln.Addr().String()
		ln.Close()
		return a
	}()
	e, err := NewEmbedded(EmbeddedConfig{Users: map[string]string{"orders": "orderspw", "alice": "alicepw"}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	tests := []struct {
		name      string
		cfg       SenderConfig
		to        string
		permanent bool // when failing
		fails     bool
		stage     string
	}{
		{"rcpt 550", SenderConfig{Addr: addr}, "reject@example.test", true, true, "rcpt reject@example.test"},
		{"connection refused", SenderConfig{Addr: closed}, "alice@example.test", false, true, "dial"},
		{"starttls not offered", SenderConfig{Addr: addr, TLS: "starttls"}, "alice@example.test", false, true, "starttls"},
		{"auth ok", SenderConfig{Addr: e.SMTPAddr, Username: "orders@example.test", Password: "orderspw"}, "alice@example.test", false, false, ""},
		{"auth wrong password", SenderConfig{Addr: e.SMTPAddr, Username: "orders@example.test", Password: "nope"}, "alice@example.test", true, true, "auth"},
		{"embedded unknown user", SenderConfig{Addr: e.SMTPAddr}, "nobody@example.test", true, true, "rcpt nobody@example.test"},
		{"embedded other domain", SenderConfig{Addr: e.SMTPAddr}, "alice@elsewhere.test", true, true, "rcpt alice@elsewhere.test"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := NewSender(tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			err = s.Send(ctx, "orders@example.test", []string{tt.to}, playerMail("orders@example.test", tt.to, "y@example.test", 2))
			if !tt.fails {
				if err != nil {
					t.Fatalf("send: %v", err)
				}
				return
			}
			var se *SendError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v, want a *SendError", err)
			}
			if IsPermanent(err) != tt.permanent || se.Stage != tt.stage {
				t.Errorf("err = %v (stage %q, permanent %v), want stage %q permanent %v", err, se.Stage, IsPermanent(err), tt.stage, tt.permanent)
			}
		})
	}
	if IsPermanent(errors.New("plain")) || IsPermanent(nil) {
		t.Error("IsPermanent true for a non-SendError")
	}
}

func TestSenderContextCancel(t *testing.T) {
	// a server that accepts the connection and never says anything
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	s, _ := NewSender(SenderConfig{Addr: ln.Addr().String()})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	err = s.Send(ctx, "a@example.test", []string{"b@example.test"}, []byte("x"))
	if err == nil || IsPermanent(err) || time.Since(start) > 3*time.Second {
		t.Errorf("err = %v after %v, want a temporary failure soon after the deadline", err, time.Since(start))
	}
}

func TestEmbeddedDeliversBySMTP(t *testing.T) {
	e, err := NewEmbedded(EmbeddedConfig{Users: map[string]string{"orders": "orderspw", "bob": "bobpw"}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	s, _ := NewSender(SenderConfig{Addr: e.SMTPAddr})
	raw, err := Compose(Outgoing{From: "orders@example.test", To: []string{"bob@example.test"}, Subject: "report",
		MessageID: "r1@rallyjudge.example.test", Version: "test", Text: "hello bob\n"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send(context.Background(), "orders@example.test", []string{"Bob@Example.test"}, raw); err != nil {
		t.Fatal(err)
	}
	c := imapLook(t, e.IMAPAddr, "plain", "bob", "bobpw")
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	msgs, err := c.Fetch(imapSeq1(), fetchBody()).Collect()
	if err != nil || len(msgs) != 1 {
		t.Fatalf("fetch: %v, %d messages", err, len(msgs))
	}
	m, err := Extract(msgs[0].BodySection[0].Bytes)
	if err != nil {
		t.Fatal(err)
	}
	if m.MessageID != "r1@rallyjudge.example.test" || m.Text != "hello bob\n" || m.Header.Get("Return-Path") != "<orders@example.test>" {
		t.Errorf("delivered message: id %q text %q return-path %q", m.MessageID, m.Text, m.Header.Get("Return-Path"))
	}
	// the embedded IMAP refuses a wrong password
	if err := imapLoginErr(e.IMAPAddr, "bob", "wrong"); err == nil {
		t.Error("wrong password accepted")
	}
}
