package judge

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/mail"
)

// BenchmarkBatchRead is the reading of one mail beside the writer (batchItem.read):
// the MIME, the sheet read and checked ahead on the game's position, the copy kept
// without its secrets (issue 24 item 7). One op is one mail: the typical order sheet
// with its secret line (as BenchmarkHandleBatch sends), a mail with no secret, and the
// sheet as a client sends it, in plain text with an HTML twin in base64.
func BenchmarkBatchRead(b *testing.B) {
	j := benchJudge(b)
	secrets := benchGame(b, j, "tp")
	sheet := func(robot string) string {
		return fmt.Sprintf("robot %s\nsecret %s\nif damage > 4 then power down\n", robot, secrets[robot])
	}
	// one batch judged, so that the game's position is kept and seated for the readers
	// (movesahead.go)
	for _, err := range j.HandleBatch(context.Background(), 1, []mail.Fetched{{UID: 1, Received: time.Now(),
		Raw: rawMail("alice@example.test", "[RR tp] standing orders", sheet("Alice"))}}) {
		if err != nil {
			b.Fatal(err)
		}
	}
	html := "<html><body><p>robot Alice</p><p>secret " + secrets["Alice"] + "</p><p>if damage &gt; 4 then power down</p></body></html>\r\n"
	for _, c := range []struct {
		name string
		raw  []byte
	}{
		{"sheet", rawMail("alice@example.test", "[RR tp] standing orders 1", sheet("Alice"))},
		{"nosecret", rawMail("alice@example.test", "[RR tp] hello", "Hello, when does the next turn start?\nThanks, Alice\n")},
		{"html", []byte("From: alice@example.test\r\nTo: orders@example.test\r\nSubject: [RR tp] orders\r\nMessage-ID: <h@client.test>\r\n" +
			"MIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=alt\r\n\r\n--alt\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" +
			toCRLF(sheet("Alice")) + "\r\n--alt\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n" +
			b64Lines([]byte(html)) + "--alt--\r\n")},
	} {
		b.Run(c.name, func(b *testing.B) {
			m := mail.Fetched{UID: 2, Received: time.Now(), Raw: c.raw}
			var it batchItem
			it.read(j, 1, m)
			if it.perr != nil || c.name != "nosecret" && (it.kept == nil || it.rd.checked == nil) {
				b.Fatalf("not read as a sheet checked ahead: %v, kept %q", it.perr, it.kept)
			}
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				it = batchItem{}
				it.read(j, 1, m)
			}
			// on a shared machine the CPU time says more than the wall time
			b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
		// the reading's parts but the MIME (package mail's): the sheet read and checked
		// ahead, the copy kept
		msg, err := j.extract(c.raw)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name+"/sheet", func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				_ = clip(redactText(msg.Subject), 200)
				rd := Read(msg, j.sheetReader())
				rd.readAhead()
				rd.checkMoveAhead(&j.positions, msg)
			}
			b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
		b.Run(c.name+"/kept", func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				redactInbound(c.raw, msg.Text)
			}
			b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}

func toCRLF(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

// b64Lines is b in base64, in lines of 76 characters.
func b64Lines(b []byte) string {
	e := base64.StdEncoding.EncodeToString(b)
	var out strings.Builder
	for len(e) > 76 {
		out.WriteString(e[:76] + "\r\n")
		e = e[76:]
	}
	return out.String() + e + "\r\n"
}
