package judge

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestLimitRepliesNameEachLimit: a mail over one of the reading limits is answered with
// the limit it hit — its size, its number of MIME parts, their nesting, the length of its
// text — and never with another one (before issue 14 a 3 KB mail nested 50 deep was
// refused as "larger than 256 KiB").
func TestLimitRepliesNameEachLimit(t *testing.T) {
	head := "From: alice@example.test\r\nTo: judge@example.test\r\nSubject: [RR live] big\r\nMessage-ID: <%s@client.test>\r\nMIME-Version: 1.0\r\n"
	nested := func(depth int) string {
		var b strings.Builder
		for i := 0; i < depth; i++ {
			fmt.Fprintf(&b, "Content-Type: multipart/mixed; boundary=b%d\r\n\r\n--b%d\r\n", i, i)
		}
		b.WriteString("Content-Type: text/plain\r\n\r\nrobot Alice\r\n")
		for i := depth - 1; i >= 0; i-- {
			fmt.Fprintf(&b, "--b%d--\r\n", i)
		}
		return b.String()
	}
	parts := func(n int) string {
		var b strings.Builder
		b.WriteString("Content-Type: multipart/mixed; boundary=p\r\n\r\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "--p\r\nContent-Type: text/plain\r\n\r\npart %d\r\n", i)
		}
		b.WriteString("--p--\r\n")
		return b.String()
	}
	for _, tc := range []struct {
		name, body, want string
		maxBytes         int
	}{
		{"size", "Content-Type: text/plain\r\n\r\n" + strings.Repeat("robot Alice power down\r\n", 14000), "larger than rallyjudge reads (256 KiB)", 0},
		{"parts", parts(150), "more MIME parts than rallyjudge reads (100)", 0},
		{"depth", nested(50), "deeper than rallyjudge reads (8 levels)", 0},
		{"text", "Content-Type: text/plain\r\n\r\n" + strings.Repeat("robot Alice power down\r\n", 14000), "text is longer than rallyjudge reads (256 KiB)", 1 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j, _, _ := livenessGame(t, nil)
			if tc.maxBytes > 0 {
				j.MaxMessageBytes = tc.maxBytes
			}
			raw := []byte(fmt.Sprintf(head, tc.name) + tc.body)
			if err := j.HandleMessage(context.Background(), 1, 9100, raw); err != nil {
				t.Fatal(err)
			}
			_, _, texts := outboxTo(t, j, "alice@example.test")
			found := false
			for _, tx := range texts {
				found = found || strings.Contains(tx, tc.want)
				for _, other := range []string{"larger than", "more MIME parts", "deeper than", "text is longer"} {
					if !strings.Contains(tc.want, other) && strings.Contains(tx, other) {
						t.Errorf("a %d-byte mail over the %s limit is answered with another limit:\n%s", len(raw), tc.name, tx)
					}
				}
			}
			if !found {
				t.Errorf("a %d-byte mail over the %s limit: no reply says %q: %q", len(raw), tc.name, tc.want, texts)
			}
		})
	}
}
