package mail

import (
	"os"
	"path/filepath"
	"testing"
)

// orderMail is a typical order mail as the throughput test sends it (and as go-message
// writes one): plain text, a few header fields, a short sheet.
var orderMail = []byte("Date: Sun, 01 Mar 2026 12:00:00 +0000\r\nFrom: <alice@example.test>\r\n" +
	"To: <judge@example.test>\r\nSubject: [RR tp] standing orders 17\r\n" +
	"Message-Id: <17.alice.example.test@client.test>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" +
	"robot Alice\r\nsecret kilo-73-tango-fox\r\nif damage > 4 then power down\r\n")

// benchMails are the mails the extraction benchmarks read: the typical order mail and
// client mails of the corpus (multipart/alternative with quoted-printable, format=flowed).
func benchMails(b *testing.B) map[string][]byte {
	m := map[string][]byte{"order": orderMail}
	for _, name := range []string{"gmail_web", "thunderbird_flowed"} {
		raw, err := os.ReadFile(filepath.Join("testdata", "clients", name+".eml"))
		if err != nil {
			b.Fatal(err)
		}
		m[name] = raw
	}
	return m
}

// BenchmarkExtract is the MIME reading of one mail (issue 14 item 10: intake reads every
// mail once on its way in).
func BenchmarkExtract(b *testing.B) {
	for name, raw := range benchMails(b) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Extract(raw); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDecoded is the walk that checks a stored mail for a secret, whatever its
// encoding (issue 14 item 8).
func BenchmarkDecoded(b *testing.B) {
	for name, raw := range benchMails(b) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, ok := Decoded(raw, 1<<20); !ok {
					b.Fatal("not walked")
				}
			}
		})
	}
}
