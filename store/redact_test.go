package store

import (
	"bytes"
	"regexp"
	"testing"
)

// softSecretShape is secretShape with quoted-printable soft line breaks allowed between
// a secret's characters.
var softSecretShape = func() *regexp.Regexp {
	c, soft := `[a-hjkmnp-z2-9]`, `(?:=\r?\n)?`
	group := c + soft + c + soft + c + soft + c
	return regexp.MustCompile(`\b` + group + soft + `-` + soft + group + soft + `-` + soft + group + soft + `-` + soft + group + `\b`)
}()

// redactByRegexp is RedactSecrets as the regular expression softSecretShape says it: the
// reference the hand-written scanner must agree with.
func redactByRegexp(b []byte) ([]byte, bool) {
	if !softSecretShape.Match(b) {
		return b, false
	}
	return softSecretShape.ReplaceAll(b, []byte("(secret)")), true
}

var redactCases = []string{
	"",
	"secret abcd-efgh-jkmn-pqrs\n",
	"abcd-efgh-jkmn-pqrs",
	"xabcd-efgh-jkmn-pqrs",     // no boundary before
	"abcd-efgh-jkmn-pqrsx",     // none after
	"abcd-efgh-jkmn-pqrs-tuvw", // a fifth group: the first four still match
	"abcd-efgh-jkmn-pqrs-tuvw-xyz2-3456-789a", // two in a row
	"_abcd-efgh-jkmn-pqrs",                    // _ is a word character
	"-abcd-efgh-jkmn-pqrs-",                   // - is not
	"abcd-efgh-jkmn-pqr",                      // short
	"abcd-efgh-jkmn-pqrl",                     // l is not in the alphabet
	"ABCD-EFGH-JKMN-PQRS",                     // upper case is not a secret
	"é abcd-efgh-jkmn-pqrs é",                 // UTF-8 around it
	"\xffabcd-efgh-jkmn-pqrs\xff",             // bytes that are not UTF-8
	"aaaa-aaaa-aaaa-aaaa-aaaa-aaaa-aaaa-aaaa-aaaa",
	"secret=abcd-efgh-jkmn-pqrs;secret=2345-6789-abcd-efgh",
	// cut by quoted-printable soft line breaks, declared or not (FuzzRedactInboundRaw)
	"\n2222-222=\n2-2222-2222",
	"secret abcd-=\r\nefgh-jkmn-pq=\nrs\r\n",
	"abcd=\n-efgh-jkmn-pqrs=\n",  // a soft break after the secret is not part of it
	"abcd-efgh-jkmn-pq=\nrsx",    // no boundary after
	"abcd-efgh-jkmn-pq=\r\r\nrs", // not a soft break
	"abcd-efgh-jkmn-pq=\n=\nrs",  // two in a row: not one soft break
	"x=\nabcd-efgh-jkmn-pqrs",    // a soft break before it: a boundary, as the shape says
}

func TestRedactSecretsAgreesWithTheShape(t *testing.T) {
	for _, c := range redactCases {
		got, ok := RedactSecrets([]byte(c))
		want, wantOK := redactByRegexp([]byte(c))
		if ok != wantOK || !bytes.Equal(got, want) {
			t.Errorf("RedactSecrets(%q) = %q, %v; the shape says %q, %v", c, got, ok, want, wantOK)
		}
	}
}

func FuzzRedactSecrets(f *testing.F) {
	for _, c := range redactCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		in := bytes.Clone(b)
		got, ok := RedactSecrets(b)
		want, wantOK := redactByRegexp(in)
		if ok != wantOK || !bytes.Equal(got, want) {
			t.Fatalf("RedactSecrets(%q) = %q, %v; the shape says %q, %v", in, got, ok, want, wantOK)
		}
		if !bytes.Equal(b, in) {
			t.Fatalf("RedactSecrets changed its input")
		}
	})
}

func BenchmarkRedactSecrets(b *testing.B) {
	mail := bytes.Repeat([]byte("Received: from mail.example.test by judge; Mon, 2 Mar 2026\r\n"), 12)
	mail = append(mail, "\r\nrobot Twonky\r\nsecret abcd-efgh-jkmn-pqrs\r\nP100 P200 P300 P400 P500\r\n"...)
	// a report as the outbox keeps it: a text part and 200 KB of pictures in base64
	report := append(bytes.Clone(mail), "\r\n--b\r\nContent-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n\r\n"...)
	line := []byte("iVBORw0KGgoAAAANSUhEUgAAAoAAAAHgCAYAAAA10dzkAAAgAElEQVR4nOzdd3xUVf7/8fdMJr0XQgolEEoI\r\n")
	for len(report) < 200_000 {
		report = append(report, line...)
	}
	for _, c := range []struct {
		name string
		fn   func([]byte) ([]byte, bool)
		in   []byte
	}{
		{"scan", RedactSecrets, mail}, {"regexp", redactByRegexp, mail},
		{"report/scan", RedactSecrets, report}, {"report/regexp", redactByRegexp, report},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.in)))
			for range b.N {
				c.fn(c.in)
			}
		})
	}
}
