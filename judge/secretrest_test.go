package judge

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"mime/quotedprintable"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
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

// shapes is how many MIME shapes secretMail makes.
const shapes = 12

// secretMail builds a mail carrying "secret S" in one of several MIME shapes and
// encodings: shape 0 plain text, 1 HTML only, 2 plain and HTML alternatives, 3 a
// forwarded message (message/rfc822) inside multipart/mixed, 4 plain 7bit with an HTML
// alternative in base64 (whatever enc), 5 multiparts nested three deep, 6
// quoted-printable escaping every letter of the secret, 7 the secret in an encoded-word
// Subject too, 8 an attached sheet in base64, 9 UTF-16 in base64, 10 a base64 forwarded
// message that is itself multipart, 11 latin-1 HTML; encoding 0 7bit, 1
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
	b64 := b64Lines // (readcpu_bench_test.go)
	switch shape % shapes {
	case 5: // nested: mixed > alternative > (plain, related > (html, picture))
		return []byte(head + "Content-Type: multipart/mixed; boundary=m1\r\n\r\n--m1\r\nContent-Type: multipart/alternative; boundary=a1\r\n\r\n" +
			"--a1\r\n" + part("text/plain", text) + "\r\n--a1\r\nContent-Type: multipart/related; boundary=r1\r\n\r\n--r1\r\n" +
			part("text/html", html) + "\r\n--r1\r\nContent-Type: image/png\r\nContent-Transfer-Encoding: base64\r\nContent-ID: <p@c>\r\n\r\niVBORw0KGgo=\r\n--r1--\r\n" +
			"\r\n--a1--\r\n\r\n--m1--\r\n")
	case 6: // quoted-printable that escapes every letter of the secret (=6B=37...), as some clients do
		var esc strings.Builder
		for i := 0; i < len(secret); i++ {
			if i == int(cut)%len(secret) {
				esc.WriteString("=\r\n")
			}
			fmt.Fprintf(&esc, "=%02X", secret[i])
		}
		body := strings.Replace(strings.ReplaceAll(text, "\r\n", "=0D=0A"), secret, esc.String(), 1)
		return []byte(head + "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" + body + "\r\n")
	case 7: // the secret in the Subject too, as an RFC 2047 encoded word
		subj := "=?utf-8?b?" + base64.StdEncoding.EncodeToString([]byte("orders, secret "+secret)) + "?="
		return []byte(strings.Replace(head, "Subject: [RR live] orders", "Subject: [RR live] "+subj, 1) + part("text/plain", text))
	case 8: // the sheet as an attachment, base64
		return []byte(head + "Content-Type: multipart/mixed; boundary=m2\r\n\r\n--m2\r\n" + part("text/plain", "my orders are attached\r\n") +
			"\r\n--m2\r\nContent-Type: text/plain; name=orders.txt\r\nContent-Disposition: attachment; filename=orders.txt\r\n" +
			"Content-Transfer-Encoding: base64\r\n\r\n" + b64([]byte(text)) + "--m2--\r\n")
	case 9: // UTF-16 text, base64
		u := utf16.Encode([]rune(text))
		b := make([]byte, 0, 2*len(u))
		for _, c := range u {
			b = append(b, byte(c), byte(c>>8))
		}
		return []byte(head + "Content-Type: text/plain; charset=utf-16le\r\nContent-Transfer-Encoding: base64\r\n\r\n" + b64(b))
	case 10: // a forwarded message, itself multipart with a base64 HTML part, inside an alternative
		inner := "From: alice@example.test\r\nSubject: fwd\r\nMIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=in\r\n\r\n" +
			"--in\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n" + b64([]byte(html)) + "--in--\r\n"
		return []byte(head + "Content-Type: multipart/mixed; boundary=m3\r\n\r\n--m3\r\n" + part("text/plain", text) +
			"\r\n--m3\r\nContent-Type: message/rfc822\r\nContent-Transfer-Encoding: base64\r\n\r\n" + b64([]byte(inner)) + "--m3--\r\n")
	case 11: // latin-1 HTML in quoted-printable, the secret cut by a soft break (part encodes it)
		return []byte(head + strings.Replace(part("text/html", html), "charset=utf-8", "charset=iso-8859-1", 1))
	}
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
	for shape := uint8(0); shape < shapes; shape++ {
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
		if how := keptSecret(out, secret); how != "" {
			t.Fatalf("shape %d enc %d: the stored bytes hold the secret (%s):\n%s", shape, enc, how, out)
		}
		checkFailedKept(t, raw, text, secret)
	})
}

// keptSecret says how out still holds secret, or "": as is, cut by soft breaks, in
// UTF-16, or in any header or part decoded (base64 and quoted-printable undone). Base64
// the sender wrote as text is the sender's business, not an encoding the mail applies.
func keptSecret(out []byte, secret string) string {
	if how := leaks(out, secret, false); how != "" {
		return how
	}
	var le, be []byte
	for _, c := range utf16.Encode([]rune(secret)) {
		le, be = append(le, byte(c), byte(c>>8)), append(be, byte(c>>8), byte(c))
	}
	pieces, _ := mail.Decoded(out, 1<<20)
	for _, p := range append(pieces, out) {
		switch {
		case bytes.Contains(p, []byte(secret)):
			return "a decoded part"
		case bytes.Contains(p, le) || bytes.Contains(p, be):
			return "UTF-16"
		}
	}
	return ""
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
	for shape := uint8(0); shape < shapes; shape++ {
		for enc := uint8(0); enc < 3; enc++ {
			t.Run(fmt.Sprintf("shape%d-enc%d", shape, enc), func(t *testing.T) {
				raw := secretMail(shape, enc, 5, secret, "x")
				if keptSecret(raw, secret) == "" {
					t.Fatalf("the mail carries no secret to remove:\n%s", raw)
				}
				text := ""
				if m, err := mail.Extract(raw); err == nil {
					text = m.Text
				}
				out, _ := redactInbound(raw, text)
				if how := keptSecret(out, secret); how != "" {
					t.Fatalf("the secret is kept (%s):\n%s", how, out)
				}
				checkFailedKept(t, raw, text, secret)
			})
		}
	}
}

// FuzzRedactInboundRaw: for any bytes at all taken as a received mail, what the judge
// keeps of it holds neither anything shaped like a judge-made secret nor the value of a
// "secret ..." line the reader found, in its bytes or in any header or part decoded.
// The seeds are every shape secretMail makes and the client corpus; the fuzzer mutates
// their MIME structure itself (boundaries, encodings, nesting), which FuzzNoSecretAtRest
// does not.
func FuzzRedactInboundRaw(f *testing.F) {
	for shape := uint8(0); shape < shapes; shape++ {
		for enc := uint8(0); enc < 3; enc++ {
			f.Add(secretMail(shape, enc, 7, secretFrom([]byte("k7dm3xqp9wtrhzv4")), "P490 P670"))
		}
	}
	files, _ := filepath.Glob("../mail/testdata/clients/*.eml")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if len(raw) > 64<<10 {
			return
		}
		text := ""
		if m, err := mail.Extract(raw); err == nil {
			text = m.Text
		}
		out, _ := redactInbound(raw, text)
		var values []string
		for _, m := range secretLine.FindAllStringSubmatch(text, -1) {
			if len(m[1]) >= 4 && m[1] != "(secret)" {
				values = append(values, m[1])
			}
		}
		for _, v := range values {
			if how := keptSecret(out, v); how != "" {
				t.Fatalf("the secret %q is kept (%s):\n%q", v, how, out)
			}
		}
		pieces, _ := mail.Decoded(out, 1<<20)
		for _, p := range append(pieces, out) {
			if s := secretToken.Find(p); s != nil {
				t.Fatalf("%q, shaped like a secret, is kept:\n%q", s, out)
			}
		}
		if s := softSecretToken.Find(out); s != nil {
			t.Fatalf("%q, shaped like a secret cut by soft line breaks, is kept:\n%q", s, out)
		}
	})
}

// softSecretToken is a judge-made secret with quoted-printable soft line breaks anywhere
// inside it.
var softSecretToken = func() *regexp.Regexp {
	c, soft := `[a-hjkmnp-z2-9]`, `(?:=\r?\n)?`
	group := c + soft + c + soft + c + soft + c
	return regexp.MustCompile(`\b` + group + soft + `-` + soft + group + soft + `-` + soft + group + soft + `-` + soft + group + `\b`)
}()

// TestWithoutBodyMixedLineEnds: the blank line that ends a header may be "\r\n" after a
// line ended by "\n" alone (found by FuzzRedactInboundRaw): the body after it is dropped,
// not kept as if it were header lines.
func TestWithoutBodyMixedLineEnds(t *testing.T) {
	for _, raw := range []string{
		"Subject: x\nContent-Transfer-Encoding: quoted-printable\n\r\nk7dm-3xq=\np-9wtr-hzv4 body\r\n",
		"Subject: x\r\n\nk7dm-3xq=\np-9wtr-hzv4 body\r\n",
		"Subject: x\r\n\r\nk7dm-3xq=\r\np-9wtr-hzv4 body\r\n",
	} {
		out := string(withoutBody([]byte(raw)))
		if strings.Contains(out, "hzv4") || strings.Contains(out, "3xq") || !strings.Contains(out, "Subject: x") {
			t.Errorf("%q: kept %q", raw, out)
		}
	}
}

// checkFailedKept: what the judge keeps of a mail whose processing broke (failed.go)
// holds the secret nowhere either, and, unless it had to be removed whole, reads again
// with the secret's marker where the secret was, its proof the secret's keyed hash.
func checkFailedKept(t *testing.T, raw []byte, text, secret string) {
	t.Helper()
	key := bytes.Repeat([]byte{1}, 32)
	out, proofs, ok := redactForRetry(key, raw, text, nil)
	if how := keptSecret(out, secret); how != "" {
		t.Fatalf("the failed row holds the secret (%s):\n%s", how, out)
	}
	if !ok || !strings.Contains(text, secret) {
		return
	}
	m, err := mail.Extract(out)
	if err != nil {
		t.Fatalf("the failed row cannot be read again: %v\n%s", err, out)
	}
	found := false
	for marker, p := range proofs {
		if p == store.KeyedHash(key, secret) && strings.Contains(m.Text, "secret "+marker) {
			found = true
		}
	}
	if !found {
		t.Fatalf("read again, the failed row has no marker for the secret (proofs %v):\n%s", proofs, m.Text)
	}
}
