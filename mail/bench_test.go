package mail

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// orderMail is a typical order mail as the throughput test sends it (and as go-message
// writes one): plain text, a few header fields, a short sheet.
var orderMail = []byte("Date: Sun, 01 Mar 2026 12:00:00 +0000\r\nFrom: <alice@example.test>\r\n" +
	"To: <judge@example.test>\r\nSubject: [RR tp] standing orders 17\r\n" +
	"Message-Id: <17.alice.example.test@client.test>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" +
	"robot Alice\r\nsecret kilo-73-tango-fox\r\nif damage > 4 then power down\r\n")

// orderMailQP is the order mail of the judge's throughput test (judge/throughput_test.go,
// rawMail) byte for byte: go-message's single inline writer adds MIME-Version and
// quoted-printable to orderMail's fields.
var orderMailQP = []byte("Mime-Version: 1.0\r\nContent-Transfer-Encoding: quoted-printable\r\n" +
	"Content-Type: text/plain; charset=utf-8\r\nMessage-Id: <1.alice.example.test@client.test>\r\n" +
	"Subject: [RR tp] standing orders 17\r\nTo: <judge@example.test>\r\nFrom: <alice@example.test>\r\n" +
	"Date: Sun, 01 Mar 2026 12:00:00 +0000\r\n\r\n" +
	"robot Alice\r\nsecret kilo-73-tango-fox\r\nif damage > 4 then power down\r\n")

// benchMails are the mails the extraction benchmarks read: the typical order mail and
// client mails of the corpus (multipart/alternative with quoted-printable, format=flowed).
func benchMails(b *testing.B) map[string][]byte {
	m := map[string][]byte{"order": orderMail, "order_qp": orderMailQP}
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
			defer reportCPU(b)()
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

// ackMail is the acknowledgement the judge writes for an order mail (judge/mailout.go
// compose, from the batch's ackQueue): plain text, a reply, no HTML.
var ackMail = Outgoing{
	From: "orders@example.test", FromName: "rallyjudge", To: []string{"carol@example.test"},
	Subject: "Re: [RR tp] standing orders 2", MessageID: "reply.3@example.test",
	InReplyTo: "4.carol.example.test@client.test", Date: time.Date(2026, time.November, 29, 21, 16, 32, 0, time.UTC),
	Version: "rallyjudge/0.1", AutoSubmitted: "auto-replied",
	Text: "Orders accepted: game tp, robot Carol, turn 1.\n\nYOUR PROGRAM\n\n" +
		"STANDING AND CONDITIONAL ORDERS IN FORCE (from this sheet and earlier ones)\n  if damage > 4 then power down\n\n" +
		"WARNINGS (legal, but check them)\n  sheet: warning: no program on this sheet: its orders are merged into your current orders (docs/orders.md)\n\n" +
		"Still waiting for orders from 3 robot(s).\n" +
		"Orders are due Mon 30 Nov 2026 21:16 UTC (in 1 day). A later valid sheet for this turn replaces this one.\n",
}

// BenchmarkComposeAck is the composing of one acknowledgement (issue 24 item 7: the
// judge writes one for every order mail it reads).
func BenchmarkComposeAck(b *testing.B) {
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		if _, err := Compose(ackMail); err != nil {
			b.Fatal(err)
		}
	}
}

// reportCPU reports the CPU time an op took, the garbage collector's included: on a
// shared machine it says more than the time it took (call its result when done).
func reportCPU(b *testing.B) func() {
	cpu := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			return 0
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	start := cpu()
	return func() {
		b.ReportMetric(float64(cpu()-start)/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkAsWritten is the check the judge makes of every order mail before it looks
// for a secret in it (issue 24 item 7).
func BenchmarkAsWritten(b *testing.B) {
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		if !AsWritten(orderMailQP) {
			b.Fatal("not as written")
		}
	}
}
