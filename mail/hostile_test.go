package mail

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestNormalizeText: CR LF, a run of CRs before an LF and a lone CR are each one line end.
func TestNormalizeText(t *testing.T) {
	for in, want := range map[string]string{
		"":                   "",
		"a":                  "a\n",
		"a\r\nb":             "a\nb\n",
		"a\r\r\nb":           "a\nb\n",
		"a\r\r\r\r\nb\r\n":   "a\nb\n",
		"a\rb":               "a\nb\n",
		"a\r\rb":             "a\n\nb\n",
		"a\r\r":              "a\n\n",
		"a\n\r\nb":           "a\n\nb\n",
		"\uFEFFa\r\n\r\r\nb": "a\n\nb\n",
		"\r":                 "\n",
	} {
		if got := normalizeText(in); got != want {
			t.Errorf("normalizeText(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestExtractHostileShapes: mails shaped to hurt the reader rather than found by a
// fuzzer's mutations. Each is read in bounded time, to the text it holds or to an error
// that names the limit it broke.
func TestExtractHostileShapes(t *testing.T) {
	hdr := "From: a@b.test\r\nSubject: x\r\n"
	nested := func(n int) string {
		var b strings.Builder
		b.WriteString("From: a@b.test\r\nContent-Type: multipart/mixed; boundary=b0\r\n\r\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "--b%d\r\nContent-Type: multipart/mixed; boundary=b%d\r\n\r\n", i, i+1)
		}
		fmt.Fprintf(&b, "--b%d\r\nContent-Type: text/plain\r\n\r\nP490\r\n", n)
		for i := n; i >= 0; i-- {
			fmt.Fprintf(&b, "--b%d--\r\n", i)
		}
		return b.String()
	}
	tests := []struct {
		name, raw string
		text      string // the text read; "" when an error is wanted
		limit     string // the limit an error names
	}{
		// normalizeText took a pass a CR: a quarter of a million CRs took minutes
		{"200,000 CRs before an LF", hdr + "\r\nP490\r" + strings.Repeat("\r", 200000) + "\nP670\r\n", "P490\nP670\n", ""},
		{"CR, LF and CR LF mixed", hdr + "\r\nrobot Twonky\nP490\r\nP670\rP70\n\rP80\r\r\n", "robot Twonky\nP490\nP670\nP70\n\nP80\n", ""},
		{"multiparts nested 6 deep", nested(6), "P490\n", ""},
		{"multiparts nested 2,000 deep", nested(2000), "", "depth"},
		{"one boundary nested in itself", "From: a@b.test\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n" +
			strings.Repeat("--b\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n", 200) + "--b--\r\n", "", "parts"},
		{"forwarded mails nested 3,000 deep", strings.Repeat("From: a@b.test\r\nContent-Type: message/rfc822\r\n\r\n", 3000) + "From: a@b.test\r\n\r\nP490\r\n", "", "depth"},
		{"a line of 1 MB", hdr + "\r\n" + strings.Repeat("P490 ", 200000) + "\r\n", "", "text"},
		{"a line of 200 KB", hdr + "\r\n" + strings.Repeat("P490 ", 40000) + "\r\n", strings.Repeat("P490 ", 40000) + "\n", ""},
		{"UTF-16 declared, with a byte-order mark", hdr + "Content-Type: text/plain; charset=utf-16\r\n\r\n\xff\xfeP\x004\x009\x000\x00\r\x00\n\x00", "P490\n", ""},
		{"UTF-16LE declared, no byte-order mark", hdr + "Content-Type: text/plain; charset=utf-16le\r\n\r\nP\x004\x009\x000\x00\r\x00\n\x00", "P490\n", ""},
		{"a soft line break a line, 100,000 of them", hdr + "Content-Transfer-Encoding: quoted-printable\r\n\r\n" + strings.Repeat("=\r\n", 100000) + "P490\r\n", "P490\n", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			m, err := Extract([]byte(tc.raw))
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("read in %v", d)
			}
			if tc.limit != "" {
				var le *LimitError
				if !errors.As(err, &le) || le.What != tc.limit {
					t.Fatalf("error %v; want the %s limit", err, tc.limit)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if m.Text != tc.text {
				t.Errorf("text %.80q, want %.80q", m.Text, tc.text)
			}
		})
	}
}
