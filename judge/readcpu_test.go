package judge

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// The reading of a mail beside the writer made cheaper (issue 24 item 7) reads every mail
// as it did: these tests hold the new code to the old, kept here as it was.

// secretValuesByRegexp is secretValues as redactInbound found them before: secretLine
// over the whole text, as visible makes it.
func secretValuesByRegexp(text string) []string {
	var values []string
	for _, m := range secretLine.FindAllStringSubmatch(visible(text), -1) {
		if len(m[1]) >= 4 && m[1] != "(secret)" {
			values = append(values, m[1])
		}
	}
	return values
}

// redactInboundBefore is redactInbound as it was.
func redactInboundBefore(raw []byte, text string) ([]byte, bool) {
	values := secretValuesByRegexp(text)
	out, changed := store.RedactSecrets(raw)
	hidden := false
	for _, v := range values {
		if bytes.Contains(out, []byte(v)) {
			out = bytes.ReplaceAll(out, []byte(v), []byte("(secret)"))
			changed = true
		} else if !bytes.Contains(raw, []byte(v)) {
			hidden = true
		}
	}
	if hidden || carriesSecret(out, values) {
		out = withoutBody(out)
		changed = true
		if carriesSecret(out, values) {
			out = []byte("X-Rallyjudge-Removed: the mail carried a secret in its header\r\n\r\n(removed by rallyjudge)\r\n")
		}
	}
	return out, changed
}

// redactTextBefore is redactText as it was.
func redactTextBefore(s string) string {
	b, _ := store.RedactSecrets([]byte(s))
	return string(b)
}

// secretLineCases are lines at the edges of secretLine: keywords in any case and glued
// to words, ":" and "=" with and without a value, every kind of white space, quote marks,
// carriage returns, the placeholder, and letters that fold to ASCII outside it.
var secretLineCases = []string{
	"secret k7dm-3xqp-9wtr-hzv4", "SECRET: k7dm-3xqp-9wtr-hzv4", "Secret=abcd", "secret:=abcd", "secret ::abcd",
	"secret :", "secret :   ", "secret:\tx", "secret =====", "secret", "secret ", "secretx abcd", "secret_ abcd",
	"secret-abcd", "secret.abcd", "secret1 abcd", "  > > secret abcd", ">>secret abcd", "\t>\tsecret\tabcd",
	"x secret abcd", "password hunter2", "passwd: hunter2", "pass hunter2", "pw hunter2", "PW:hunter2",
	"passwords hunter2", "passworda x", "passw hunter2", "pas hunter2", "pwd hunter2", "p w hunter2",
	"secret (secret)", "secret (secret)x", "secret abc", "secret abcd\r", "secret abcd\rsecret efgh",
	"secret \fabcd", "secret\fabcd", "secret \vabcd", "secret abcd\fefgh", "secret a\x00bcd", "secret abcd efgh",
	"ſecret abcd", "SECRET abcd", "paſſword abcd", "paſſ abcd", "paſſx abcd", "secret\u00a0abcd", "\u200bsecret abcd",
	"secret ab\u200bcd", "secret äbcd", "pass\xffword abcd", "secret \xff\xfe\xfd\xfc", "secret:", "secret=",
	"secret : abcd", "secret = = abcd", "secret :=", "secret:\t", "=secret abcd", "#secret abcd", "secret#abcd",
	"", " ", ">", "pass", "pw", "PASSWORD", "Password:   Tr0ub4dor&3",
}

func TestSecretValuesAsTheRegexp(t *testing.T) {
	check := func(text string) {
		t.Helper()
		if got, want := secretValues(text), secretValuesByRegexp(text); !slices.Equal(got, want) {
			t.Errorf("%q: %q, the regexp %q", text, got, want)
		}
	}
	for _, a := range secretLineCases {
		check(a)
		for _, b := range secretLineCases {
			check(a + "\n" + b)
			check(a + "\r\n" + b + "\n")
		}
	}
	for _, f := range corpusMails(t) {
		if m, err := mail.Extract(f); err == nil {
			check(m.Text)
			check(m.Stripped)
		}
	}
}

// FuzzSecretValues: the values secretValues finds are those secretLine finds, for any
// text.
func FuzzSecretValues(f *testing.F) {
	for _, c := range secretLineCases {
		f.Add(c + "\nrobot Zoombot\n" + c)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if got, want := secretValues(text), secretValuesByRegexp(text); !slices.Equal(got, want) {
			t.Fatalf("%q: %q, the regexp %q", text, got, want)
		}
	})
}

// corpusMails are the client corpus (mail/testdata/clients) and the mails of the fuzz
// corpus of FuzzRedactInboundRaw.
func corpusMails(t testing.TB) [][]byte {
	var out [][]byte
	files, _ := filepath.Glob("../mail/testdata/clients/*.eml")
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	if len(out) < 84 {
		t.Fatalf("want the client corpus (84 mails or more), got %d", len(out))
	}
	return out
}

// redactVariants are raw made to carry secrets in many ways: a secret line in the
// text, the secret in the subject, in an encoded word, glued to words, cut by a soft
// break, base64, every MIME shape of secretMail; each with its text as Extract reads it,
// and with the secret line written as the cases of secretLine.
func redactVariants(t testing.TB) (raws [][]byte, texts []string) {
	secret := secretFrom([]byte("k7dm3xqp9wtrhzv4"))
	add := func(raw []byte) {
		text := ""
		if m, err := mail.Extract(raw); err == nil {
			text = m.Text
		}
		raws, texts = append(raws, raw), append(texts, text)
	}
	for _, raw := range corpusMails(t) {
		add(raw)
		s := string(raw)
		add([]byte(strings.Replace(s, "\n\n", "\nX-Note: "+secret+"\n\n", 1)))
		add([]byte(strings.Replace(s, "\r\n\r\n", "\r\n\r\nsecret "+secret+"\r\npassword hunter22\r\n", 1)))
		add([]byte(strings.Replace(s, "\r\n\r\n", "\r\n\r\nsecret x"+secret+"\r\n", 1)))
		add([]byte(strings.Replace(s, "\r\n\r\n", "\r\n\r\nSecret: "+secret[:7]+"=\r\n"+secret[7:]+"\r\n", 1)))
		add([]byte(strings.ReplaceAll(s, "YOUR-SECRET", secret)))
	}
	for shape := uint8(0); shape < shapes; shape++ {
		for enc := uint8(0); enc < 3; enc++ {
			for _, extra := range []string{"x", "if damage > 4 then power down", "pw hunter22", "note " + secret} {
				add(secretMail(shape, enc, shape+enc, secret, extra))
			}
		}
	}
	for i, line := range secretLineCases {
		add(rawMail("alice@example.test", "[RR tp] orders", "robot Alice\n"+line+"\nP490\n"))
		add(rawMail("alice@example.test", fmt.Sprintf("[RR tp] %s", line), "robot Alice\nP490\n"))
		b64 := "From: a@example.test\r\nSubject: x\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n" +
			b64Lines([]byte("robot Alice\r\n"+line+"\r\nsecret "+secretFrom([]byte{byte(i)})+"\r\n"))
		add([]byte(b64))
	}
	// mails with no secret at all, and one whose text alone names one
	add(rawMail("alice@example.test", "[RR tp] hello", "Hello, when does the next turn start?\n"))
	raws, texts = append(raws, rawMail("alice@example.test", "hello", "hello\n")), append(texts, "secret "+secret+"\n")
	raws, texts = append(raws, []byte("not a mail")), append(texts, "pw abcdefg")
	return raws, texts
}

func TestRedactInboundAsBefore(t *testing.T) {
	raws, texts := redactVariants(t)
	for i := range raws {
		got, gch := redactInbound(raws[i], texts[i])
		want, wch := redactInboundBefore(raws[i], texts[i])
		if !bytes.Equal(got, want) || gch != wch {
			t.Errorf("mail %d: kept (%v)\n%q\nwas (%v)\n%q", i, gch, got, wch, want)
		}
	}
}

func TestRedactTextAsBefore(t *testing.T) {
	secret := secretFrom([]byte("k7dm3xqp9wtrhzv4"))
	for _, s := range append(secretLineCases, "[RR tp] orders "+secret, secret, "x"+secret, "re: - -- ---", "[RR spring-2] orders") {
		if got, want := redactText(s), redactTextBefore(s); got != want {
			t.Errorf("%q: %q, was %q", s, got, want)
		}
	}
}

// FuzzRedactInboundAsBefore: for any bytes taken as a mail, with its text as Extract
// reads it or any text at all, what the judge keeps is what it kept before.
func FuzzRedactInboundAsBefore(f *testing.F) {
	raws, texts := redactVariants(f)
	for i := 0; i < len(raws); i += 5 { // a fifth: TestRedactInboundAsBefore reads them all
		f.Add(raws[i], texts[i], true)
	}
	f.Add([]byte("Subject: x\r\n\r\nbody k7dm-3xqp-9wtr-hzv4\r\n"), "secret abcd", false)
	f.Fuzz(func(t *testing.T, raw []byte, text string, extract bool) {
		if len(raw) > 64<<10 {
			return
		}
		if extract {
			text = ""
			if m, err := mail.Extract(raw); err == nil {
				text = m.Text
			}
		}
		got, gch := redactInbound(raw, text)
		want, wch := redactInboundBefore(raw, text)
		if !bytes.Equal(got, want) || gch != wch {
			t.Fatalf("kept (%v)\n%q\nwas (%v)\n%q", gch, got, wch, want)
		}
		if s := redactText(text); s != redactTextBefore(text) {
			t.Fatalf("redactText(%q) = %q, was %q", text, s, redactTextBefore(text))
		}
	})
}
