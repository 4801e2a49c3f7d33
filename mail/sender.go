package mail

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// SenderConfig says how to reach the SMTP server.
type SenderConfig struct {
	Addr string // host:port
	// TLS is "none" (plain SMTP), "starttls" (required; fails if not offered) or "tls"
	// (implicit TLS, port 465 style).
	TLS                string
	InsecureSkipVerify bool   // tests with self-signed certificates only
	ServerName         string // for certificate checks; default: the host of Addr
	Username, Password string // AUTH PLAIN when Username is set
	HeloName           string // default "localhost"
	Timeout            time.Duration
	Logger             *slog.Logger
}

// Sender sends raw messages over SMTP, one connection per message.
type Sender struct {
	cfg SenderConfig
	log *slog.Logger
}

// NewSender checks the configuration.
func NewSender(cfg SenderConfig) (*Sender, error) {
	switch cfg.TLS {
	case "", "none":
		cfg.TLS = "none"
	case "starttls", "tls":
	default:
		return nil, fmt.Errorf("mail: smtp tls mode %q: want none, starttls or tls", cfg.TLS)
	}
	if _, _, err := net.SplitHostPort(cfg.Addr); err != nil {
		return nil, fmt.Errorf("mail: smtp address %q: %w", cfg.Addr, err)
	}
	if cfg.HeloName == "" {
		cfg.HeloName = "localhost"
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 2 * time.Minute
	}
	lg := cfg.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	return &Sender{cfg: cfg, log: lg}, nil
}

// SendError is the error Send returns: Temporary failures (4xx replies, network and TLS trouble)
// are worth retrying later; permanent ones (5xx) are not.
type SendError struct {
	Temporary bool
	Code      int    // the SMTP reply code, 0 when the failure was not a reply
	Stage     string // "dial", "starttls", "hello", "auth", "mail", "rcpt <addr>", "data"
	Err       error
}

func (e *SendError) Error() string {
	kind := "temporary"
	if !e.Temporary {
		kind = "permanent"
	}
	return fmt.Sprintf("mail: smtp %s: %s failure: %v", e.Stage, kind, e.Err)
}

func (e *SendError) Unwrap() error { return e.Err }

// IsPermanent says whether err is a permanent delivery failure (an SMTP 5xx reply): sending the
// same message again will fail again.
func IsPermanent(err error) bool {
	var se *SendError
	return errors.As(err, &se) && !se.Temporary
}

func classify(stage string, err error) error {
	if err == nil {
		return nil
	}
	se := &SendError{Temporary: true, Stage: stage, Err: err}
	var serr *smtp.SMTPError
	if errors.As(err, &serr) {
		se.Code = serr.Code
		se.Temporary = serr.Code < 500 || serr.Code >= 600
	}
	return se
}

// Send delivers raw from the envelope sender from to the recipients to. It never retries; the
// caller (the outbox) decides with IsPermanent. The message is not altered.
func (s *Sender) Send(ctx context.Context, from string, to []string, raw []byte) error {
	return s.SendCommit(ctx, from, to, raw, nil)
}

// SendCommit is Send with a hook called after the whole message is written and before the
// final "." that ends DATA: the one moment after which the server may have taken the mail.
// The outbox records there that the mail may be out (so a crash afterwards is known to be
// uncertain, and one before it is known to have delivered nothing). When beforeEnd fails the
// connection is dropped without the final ".", the server discards the message, and Send
// returns beforeEnd's error unchanged.
func (s *Sender) SendCommit(ctx context.Context, from string, to []string, raw []byte, beforeEnd func() error) error {
	if len(to) == 0 {
		return &SendError{Stage: "rcpt", Err: errors.New("no recipients")}
	}
	// parsed, never passed through: nothing but a plain address reaches the envelope
	if !ValidAddress(from) {
		return &SendError{Stage: "mail", Err: fmt.Errorf("sender %q is not an address", clipText(from))}
	}
	for _, rcpt := range to {
		if !ValidAddress(rcpt) {
			return &SendError{Stage: "rcpt", Err: fmt.Errorf("recipient %q is not an address", clipText(rcpt))}
		}
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	host, _, _ := net.SplitHostPort(s.cfg.Addr)
	tlsConfig := &tls.Config{ServerName: host, InsecureSkipVerify: s.cfg.InsecureSkipVerify} //nolint:gosec // tests only, documented
	if s.cfg.ServerName != "" {
		tlsConfig.ServerName = s.cfg.ServerName
	}
	d := &net.Dialer{Timeout: 30 * time.Second}
	var conn net.Conn
	var err error
	if s.cfg.TLS == "tls" {
		conn, err = (&tls.Dialer{NetDialer: d, Config: tlsConfig}).DialContext(ctx, "tcp", s.cfg.Addr)
	} else {
		conn, err = d.DialContext(ctx, "tcp", s.cfg.Addr)
	}
	if err != nil {
		return classify("dial", err)
	}
	// the context bounds the whole dialogue: closing the connection unblocks every read
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	var c *smtp.Client
	if s.cfg.TLS == "starttls" {
		// smtp.NewClientStartTLS is smtp.DialStartTLS on a connection we dialled with the context
		c, err = smtp.NewClientStartTLS(conn, tlsConfig)
		if err != nil {
			conn.Close()
			return classify("starttls", ctxErr(ctx, err))
		}
	} else {
		c = smtp.NewClient(conn)
	}
	defer c.Close()
	if err := c.Hello(s.cfg.HeloName); err != nil {
		return classify("hello", ctxErr(ctx, err))
	}
	if s.cfg.Username != "" {
		if ok, _ := c.Extension("AUTH"); !ok {
			return &SendError{Stage: "auth", Err: errors.New("server offers no AUTH (is TLS on?)")}
		}
		if err := c.Auth(sasl.NewPlainClient("", s.cfg.Username, s.cfg.Password)); err != nil {
			return classify("auth", ctxErr(ctx, err))
		}
	}
	if err := c.Mail(from, nil); err != nil {
		return classify("mail", ctxErr(ctx, err))
	}
	for _, rcpt := range to {
		if err := c.Rcpt(rcpt, nil); err != nil {
			return classify("rcpt "+rcpt, ctxErr(ctx, err))
		}
	}
	w, err := c.Data()
	if err != nil {
		return classify("data", ctxErr(ctx, err))
	}
	if _, err := w.Write(raw); err != nil {
		return classify("data", ctxErr(ctx, err))
	}
	if beforeEnd != nil {
		if err := beforeEnd(); err != nil {
			conn.Close() // no final ".": the server drops the message
			return err
		}
	}
	if err := w.Close(); err != nil {
		return classify("data", ctxErr(ctx, err))
	}
	if err := c.Quit(); err != nil {
		// the message was accepted at the end of DATA; a failed QUIT changes nothing
		s.log.Debug("smtp quit", "addr", s.cfg.Addr, "err", err)
	}
	s.log.Info("smtp sent", "addr", s.cfg.Addr, "from", from, "rcpts", len(to), "bytes", len(raw))
	return nil
}

// ctxErr prefers the context's error (cancelled, deadline) over the broken-connection error it
// caused.
func ctxErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%w (%v)", ctx.Err(), err)
	}
	return err
}

// clipText is s cut to 80 bytes with control characters shown as '?', for errors.
func clipText(s string) string {
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, s)
}
