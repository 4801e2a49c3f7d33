package judge

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"mime/quotedprintable"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/mail"
)

// secretFrom makes a secret shaped like the judge's (store.NewSecret) from fuzz bytes.
func secretFrom(seed []byte) string {
	const alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
	var b strings.Builder
	for i := 0; i < 16; i++ {
		if i > 0 && i%4 == 0 {
			b.WriteByte('-')
		}
		c := byte(i * 7)
		if i < len(seed) {
			c = seed[i]
		}
		b.WriteByte(alphabet[int(c)%len(alphabet)])
	}
	return b.String()
}

// secretMail builds a mail carrying "secret S" in one of several MIME shapes and
// encodings: shape 0 plain text, 1 HTML only, 2 plain and HTML alternatives, 3 a
// forwarded message (message/rfc822) inside multipart/mixed, 4 plain 7bit with an HTML
// alternative in base64 (whatever enc); encoding 0 7bit, 1
// quoted-printable with a soft line break cut inside the secret at cut, 2 base64.
func secretMail(shape, enc, cut uint8, secret, extra string) []byte {
	text := "robot Alice\r\nsecret " + secret + "\r\n" + extra + "\r\n"
	html := "<html><body><p>robot Alice</p><p>secret " + secret + "</p><p>" + extra + "</p></body></html>\r\n"
	encode := func(body string) (string, string) {
		switch enc % 3 {
		case 1:
			var b bytes.Buffer
			w := quotedprintable.NewWriter(&b)
			_, _ = w.Write([]byte(body))
			_ = w.Close()
			s := b.String()
			if i := strings.Index(s, secret[:4]); i >= 0 {
				at := i + 1 + int(cut)%(len(secret)-1)
				if at < len(s) {
					s = s[:at] + "=\r\n" + s[at:] // a soft break inside the secret
				}
			}
			return "quoted-printable", s
		case 2:
			e := base64.StdEncoding.EncodeToString([]byte(body))
			var b strings.Builder
			for len(e) > 76 {
				b.WriteString(e[:76] + "\r\n")
				e = e[76:]
			}
			b.WriteString(e + "\r\n")
			return "base64", b.String()
		}
		return "7bit", body
	}
	part := func(ctype, body string) string {
		cte, enc := encode(body)
		return "Content-Type: " + ctype + "; charset=utf-8\r\nContent-Transfer-Encoding: " + cte + "\r\n\r\n" + enc
	}
	head := "From: alice@example.test\r\nTo: judge@example.test\r\nSubject: [RR live] orders\r\nMessage-ID: <s@client.test>\r\nMIME-Version: 1.0\r\n"
	switch shape % 5 {
	case 4: // a client's usual shape: readable plain text, its HTML twin in base64
		plain := "Content-Type: text/plain; charset=utf-8\r\n\r\n" + text
		b := base64.StdEncoding.EncodeToString([]byte(html))
		return []byte(head + "Content-Type: multipart/alternative; boundary=alt\r\n\r\n--alt\r\n" + plain +
			"\r\n--alt\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n" + b + "\r\n--alt--\r\n")
	case 1:
		return []byte(head + part("text/html", html))
	case 2:
		return []byte(head + "Content-Type: multipart/alternative; boundary=alt\r\n\r\n--alt\r\n" + part("text/plain", text) +
			"\r\n--alt\r\n" + part("text/html", html) + "\r\n--alt--\r\n")
	case 3:
		inner := "From: alice@example.test\r\nSubject: fwd\r\nMIME-Version: 1.0\r\n" + part("text/plain", text)
		return []byte(head + "Content-Type: multipart/mixed; boundary=mix\r\n\r\n--mix\r\n" + part("text/plain", "see below\r\n") +
			"\r\n--mix\r\nContent-Type: message/rfc822\r\n\r\n" + inner + "\r\n--mix--\r\n")
	}
	return []byte(head + part("text/plain", text))
}

// FuzzNoSecretAtRest: whatever the MIME shape and encoding of the mail that carried a
// secret, what the judge keeps of it (redactInbound) holds the secret nowhere — not in
// its bytes, not in any header or part as a reader would decode it (issue 14: an HTML part
// in base64, or quoted-printable with a soft break inside the secret, kept it).
func FuzzNoSecretAtRest(f *testing.F) {
	for shape := uint8(0); shape < 5; shape++ {
		for enc := uint8(0); enc < 3; enc++ {
			f.Add(shape, enc, uint8(3), []byte("k7dm3xqp9wtrhzv4"), "if damage > 4 then power down")
		}
	}
	f.Add(uint8(2), uint8(1), uint8(9), []byte{1, 2, 3}, "P490 P670 = soft=\r\nbreak")
	f.Fuzz(func(t *testing.T, shape, enc, cut uint8, seed []byte, extra string) {
		secret := secretFrom(seed)
		extra = strings.Map(func(r rune) rune {
			if r == '\r' || r == '\n' {
				return ' '
			}
			return r
		}, extra)
		if len(extra) > 200 {
			extra = extra[:200]
		}
		raw := secretMail(shape, enc, cut, secret, extra)
		text := ""
		if m, err := mail.Extract(raw); err == nil {
			text = m.Text
		}
		out, _ := redactInbound(raw, text)
		if bytes.Contains(out, []byte(secret)) {
			t.Fatalf("shape %d enc %d: the stored bytes hold the secret:\n%s", shape, enc, out)
		}
		pieces, _ := mail.Decoded(out, 1<<20)
		for _, p := range pieces {
			if bytes.Contains(p, []byte(secret)) {
				t.Fatalf("shape %d enc %d: a decoded part holds the secret:\n%s", shape, enc, out)
			}
		}
	})
}

// TestSecretAtRestShapes runs the fuzz target's shapes once each in the default run, and
// checks a plain 7bit mail keeps its body (only the secret goes).
func TestSecretAtRestShapes(t *testing.T) {
	secret := secretFrom([]byte("k7dm3xqp9wtrhzv4"))
	raw := secretMail(0, 0, 0, secret, "if damage > 4 then power down")
	out, _ := redactInbound(raw, "robot Alice\nsecret "+secret+"\n")
	if !bytes.Contains(out, []byte("if damage > 4")) || bytes.Contains(out, []byte(secret)) {
		t.Errorf("plain mail: %q", out)
	}
	for shape := uint8(0); shape < 5; shape++ {
		for enc := uint8(0); enc < 3; enc++ {
			t.Run(fmt.Sprintf("shape%d-enc%d", shape, enc), func(t *testing.T) {
				raw := secretMail(shape, enc, 5, secret, "x")
				text := ""
				if m, err := mail.Extract(raw); err == nil {
					text = m.Text
				}
				out, _ := redactInbound(raw, text)
				pieces, _ := mail.Decoded(out, 1<<20)
				for _, p := range append(pieces, out) {
					if bytes.Contains(p, []byte(secret)) {
						t.Fatalf("the secret is kept:\n%s", out)
					}
				}
			})
		}
	}
}
