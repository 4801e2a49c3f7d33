package store

import (
	"bytes"
	"testing"
)

// redactByRegexp is RedactSecrets as the regular expression secretShape says it: the
// reference the hand-written scanner must agree with.
func redactByRegexp(b []byte) ([]byte, bool) {
	if !secretShape.Match(b) {
		return b, false
	}
	return secretShape.ReplaceAll(b, []byte("(secret)")), true
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
	for _, c := range []struct {
		name string
		fn   func([]byte) ([]byte, bool)
	}{{"scan", RedactSecrets}, {"regexp", redactByRegexp}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(mail)))
			for range b.N {
				c.fn(mail)
			}
		})
	}
}
