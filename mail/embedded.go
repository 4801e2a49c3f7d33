package mail

import (
	"bytes"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// EmbeddedConfig configures NewEmbedded.
type EmbeddedConfig struct {
	Domain string            // default "example.test"
	Users  map[string]string // local part → password; each gets an INBOX
	// MaxMessageBytes is the SMTP size limit (default 10 MiB).
	MaxMessageBytes int64
	Logger          *slog.Logger
}

// Embedded is an in-process IMAP server (go-imap's imapmemserver) and an SMTP server (go-smtp)
// on 127.0.0.1 with random ports. Mail accepted by SMTP for user@Domain is appended to that
// user's INBOX, so it shows up over IMAP. Logins are "user" or "user@Domain". Nothing is
// relayed: mail for other addresses is refused at RCPT. It is for the demo and for tests.
type Embedded struct {
	IMAPAddr string
	SMTPAddr string
	Domain   string

	log   *slog.Logger
	mem   *imapmemserver.Server
	imap  *imapserver.Server
	smtp  *smtp.Server
	imapL net.Listener
	smtpL net.Listener

	mu     sync.Mutex
	users  map[string]*embUser
	wg     sync.WaitGroup
	closed bool
}

type embUser struct {
	user     *imapmemserver.User
	password string
}

// NewEmbedded starts both servers.
func NewEmbedded(cfg EmbeddedConfig) (*Embedded, error) {
	if cfg.Domain == "" {
		cfg.Domain = "example.test"
	}
	if cfg.MaxMessageBytes <= 0 {
		cfg.MaxMessageBytes = 10 << 20
	}
	lg := cfg.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	e := &Embedded{Domain: strings.ToLower(cfg.Domain), log: lg, mem: imapmemserver.New(), users: map[string]*embUser{}}
	names := make([]string, 0, len(cfg.Users))
	for n := range cfg.Users {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := e.AddUser(n, cfg.Users[n]); err != nil {
			return nil, err
		}
	}

	e.imap = imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return &embSession{e: e}, nil, nil
		},
		Caps: imap.CapSet{
			imap.CapIMAP4rev1: {}, imap.CapIMAP4rev2: {}, imap.CapIdle: {}, imap.CapMove: {},
			imap.CapUIDPlus: {}, imap.CapESearch: {}, imap.CapNamespace: {},
		},
		InsecureAuth: true, // loopback only
		Logger:       slogLogger{lg},
	})
	var err error
	if e.imapL, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		return nil, fmt.Errorf("mail: embedded imap: %w", err)
	}
	if e.smtpL, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		e.imapL.Close()
		return nil, fmt.Errorf("mail: embedded smtp: %w", err)
	}
	e.IMAPAddr, e.SMTPAddr = e.imapL.Addr().String(), e.smtpL.Addr().String()

	e.smtp = smtp.NewServer(smtpBackend{e})
	e.smtp.Domain = "mail." + e.Domain
	e.smtp.MaxMessageBytes = cfg.MaxMessageBytes
	e.smtp.MaxRecipients = 50
	e.smtp.AllowInsecureAuth = true
	e.smtp.ReadTimeout = 2 * time.Minute
	e.smtp.WriteTimeout = 2 * time.Minute
	e.smtp.ErrorLog = slogLogger{lg}

	e.wg.Add(2)
	go func() { defer e.wg.Done(); _ = e.imap.Serve(e.imapL) }()
	go func() { defer e.wg.Done(); _ = e.smtp.Serve(e.smtpL) }()
	lg.Info("embedded mail servers up", "imap", e.IMAPAddr, "smtp", e.SMTPAddr, "domain", e.Domain)
	return e, nil
}

// AddUser adds a user with an empty INBOX (local part or full address).
func (e *Embedded) AddUser(name, password string) error {
	local := e.local(name)
	if local == "" {
		return fmt.Errorf("mail: embedded user %q is not in domain %s", name, e.Domain)
	}
	u := imapmemserver.NewUser(local, password)
	if err := u.Create("INBOX", nil); err != nil {
		return fmt.Errorf("mail: embedded user %s: %w", local, err)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.users[local] = &embUser{user: u, password: password}
	e.mem.AddUser(u)
	return nil
}

// local maps "bob", "Bob@Example.test" to "bob"; "" when the address is in another domain.
func (e *Embedded) local(addr string) string {
	addr = strings.ToLower(strings.Trim(strings.TrimSpace(addr), "<>"))
	if i := strings.LastIndexByte(addr, '@'); i >= 0 {
		if addr[i+1:] != e.Domain {
			return ""
		}
		addr = addr[:i]
	}
	return addr
}

func (e *Embedded) user(name string) *embUser {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.users[e.local(name)]
}

// Deliver appends raw to a user's mailbox (INBOX when mailbox is ""), as the SMTP server does.
func (e *Embedded) Deliver(user, mailbox string, raw []byte) error {
	u := e.user(user)
	if u == nil {
		return fmt.Errorf("mail: embedded: no user %q", user)
	}
	if mailbox == "" {
		mailbox = "INBOX"
	}
	_, err := u.user.Append(mailbox, literal{bytes.NewReader(raw), int64(len(raw))}, &imap.AppendOptions{Time: time.Now()})
	return err
}

// RebuildMailbox deletes and re-creates a user's mailbox with the same messages, so it gets a new
// UIDVALIDITY and new UIDs, as when a server's index is rebuilt. Tests use it.
func (e *Embedded) RebuildMailbox(user, mailbox string, keep [][]byte) error {
	u := e.user(user)
	if u == nil {
		return fmt.Errorf("mail: embedded: no user %q", user)
	}
	if err := u.user.Delete(mailbox); err != nil {
		return err
	}
	if err := u.user.Create(mailbox, nil); err != nil {
		return err
	}
	for _, raw := range keep {
		if err := e.Deliver(user, mailbox, raw); err != nil {
			return err
		}
	}
	return nil
}

// Close stops both servers and waits for them.
func (e *Embedded) Close() error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil
	}
	e.closed = true
	e.mu.Unlock()
	err := errors.Join(e.imap.Close(), e.smtp.Close())
	// a Close right after start can come before Serve registered its listener: close them too
	e.imapL.Close()
	e.smtpL.Close()
	e.wg.Wait()
	return err
}

// literal is an imap.LiteralReader over bytes.
type literal struct {
	*bytes.Reader
	n int64
}

func (l literal) Size() int64 { return l.n }

// embSession is an IMAP session whose login accepts "user" and "user@domain".
type embSession struct {
	*imapmemserver.UserSession
	e *Embedded
}

func (s *embSession) Login(username, password string) error {
	u := s.e.user(username)
	if u == nil || subtle.ConstantTimeCompare([]byte(password), []byte(u.password)) != 1 {
		return imapserver.ErrAuthFailed
	}
	s.UserSession = imapmemserver.NewUserSession(u.user)
	return nil
}

func (s *embSession) Close() error {
	if s.UserSession == nil {
		return nil
	}
	return s.UserSession.Close()
}

// smtpBackend delivers into the embedded IMAP users.
type smtpBackend struct{ e *Embedded }

func (b smtpBackend) NewSession(*smtp.Conn) (smtp.Session, error) {
	return &smtpSession{e: b.e}, nil
}

type smtpSession struct {
	e    *Embedded
	from string
	to   []string
}

func (s *smtpSession) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *smtpSession) Auth(mech string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, username, password string) error {
		u := s.e.user(username)
		if u == nil || subtle.ConstantTimeCompare([]byte(password), []byte(u.password)) != 1 {
			return &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8}, Message: "authentication failed"}
		}
		return nil
	}), nil
}

func (s *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	s.from = from
	return nil
}

func (s *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if s.e.user(to) == nil {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user here"}
	}
	s.to = append(s.to, to)
	return nil
}

func (s *smtpSession) Data(r io.Reader) error {
	body, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	// as a delivering MTA does (RFC 5321 4.4): Return-Path carries the envelope sender
	raw := append([]byte("Return-Path: <"+s.from+">\r\n"), body...)
	for _, to := range s.to {
		if err := s.e.Deliver(to, "INBOX", raw); err != nil {
			s.e.log.Error("embedded delivery failed", "to", to, "err", err)
			return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "delivery failed"}
		}
	}
	s.e.log.Debug("embedded smtp delivered", "from", s.from, "rcpts", len(s.to), "bytes", len(raw))
	return nil
}

func (s *smtpSession) Reset()        { s.from, s.to = "", nil }
func (s *smtpSession) Logout() error { return nil }

// slogLogger adapts slog to the Printf/Println loggers the servers want.
type slogLogger struct{ l *slog.Logger }

func (l slogLogger) Printf(format string, v ...any) { l.l.Warn(fmt.Sprintf(format, v...)) }
func (l slogLogger) Println(v ...any)               { l.l.Warn(strings.TrimSpace(fmt.Sprintln(v...))) }
