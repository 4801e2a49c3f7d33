package mail

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-message"
	"github.com/emersion/go-message/textproto"
)

// reportOutgoing is a turn report to Alice, the base the compose tests vary.
func reportOutgoing() Outgoing {
	return Outgoing{
		From: "orders@example.test", FromName: "Rallyjudge",
		To: []string{"alice@example.test"}, ToNames: []string{"Alice Liddell"},
		Subject:   "[RR spring-open] turn 4 report — Twonky ✓",
		MessageID: "report-4-alice@rallyjudge.example.test",
		InReplyTo: "sheet-4@example.test",
		Date:      time.Date(2026, 3, 9, 12, 0, 0, 0, time.UTC), Version: "0.1.0",
		Text: "Turn 4\nregister 1: Twonky moves 2 → (3,4)\n" + strings.Repeat("a long line ", 20) + "\n=literal equals=\n",
	}
}

func TestComposeRoundTrip(t *testing.T) {
	base := reportOutgoing()
	date := base.Date
	withHTML := base
	withHTML.HTML = "<p>Turn 4</p><p>register 1: Twonky moves 2 &rarr; (3,4)</p><img src=\"cid:board-4@rallyjudge\">"
	withInline := withHTML
	withInline.Inline = []Inline{{ContentID: "board-4@rallyjudge", ContentType: "image/png", Filename: "board.png", Data: []byte("\x89PNG\r\n\x1a\nfake")}}

	tests := []struct {
		name string
		o    Outgoing
		ct   string
	}{
		{"text", base, "text/plain"},
		{"alternative", withHTML, "multipart/alternative"},
		{"related", withInline, "multipart/alternative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, err := Compose(tt.o)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(bytes.ReplaceAll(raw, []byte("\r\n"), nil), []byte("\n")) {
				t.Error("a bare LF in the composed mail")
			}
			for _, line := range bytes.Split(raw, []byte("\r\n")) {
				if len(line) > 998 {
					t.Errorf("line longer than 998: %d", len(line))
				}
			}
			m, err := Extract(raw)
			if err != nil {
				t.Fatal(err)
			}
			if m.From != "orders@example.test" || m.FromName != "Rallyjudge" || m.Subject != tt.o.Subject ||
				m.MessageID != tt.o.MessageID || m.InReplyTo != "sheet-4@example.test" ||
				len(m.References) != 1 || !m.Date.Equal(date) || m.ContentType != tt.ct ||
				len(m.To) != 1 || m.To[0] != "alice@example.test" {
				t.Errorf("headers did not survive: %+v", m)
			}
			if m.Source != SourcePlain || m.Text != tt.o.Text {
				t.Errorf("text did not survive (%s):\n%q\nwant\n%q", m.Source, m.Text, tt.o.Text)
			}
			if auto, reason := IsAutomatic(m); !auto || !strings.Contains(reason, "rallyjudge") {
				t.Errorf("own mail not recognised: %v %q", auto, reason)
			}
			if got := m.Header.Get("Auto-Submitted"); got != "auto-replied" {
				t.Errorf("Auto-Submitted = %q", got)
			}
			if tt.name == "related" {
				if !bytes.Contains(raw, []byte("multipart/related")) || !bytes.Contains(raw, []byte("Content-Id: <board-4@rallyjudge>")) {
					t.Errorf("no related part with the Content-ID:\n%s", raw)
				}
				// the inline part decodes to the same bytes
				e, err := message.Read(bytes.NewReader(raw))
				if err != nil {
					t.Fatal(err)
				}
				var got []byte
				_ = e.Walk(func(path []int, part *message.Entity, err error) error {
					if part.Header.Get("Content-Id") != "" {
						got = readAllForTest(t, part)
					}
					return nil
				})
				if !bytes.Equal(got, withInline.Inline[0].Data) {
					t.Errorf("inline data = %q", got)
				}
			}
		})
	}
}

func readAllForTest(t *testing.T, e *message.Entity) []byte {
	t.Helper()
	var b bytes.Buffer
	if _, err := b.ReadFrom(e.Body); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestComposeRejects(t *testing.T) {
	ok := Outgoing{From: "a@example.test", To: []string{"b@example.test"}, MessageID: "x@y", Version: "1", Text: "t"}
	if _, err := Compose(ok); err != nil {
		t.Fatalf("valid mail rejected: %v", err)
	}
	tests := map[string]func(*Outgoing){
		"no from":          func(o *Outgoing) { o.From = "" },
		"no to":            func(o *Outgoing) { o.To = nil },
		"no id":            func(o *Outgoing) { o.MessageID = "" },
		"id with brackets": func(o *Outgoing) { o.MessageID = "<x@y>" },
		"no version":       func(o *Outgoing) { o.Version = "" },
		"inline w/o html":  func(o *Outgoing) { o.Inline = []Inline{{ContentID: "a@b"}} },
		"header injection": func(o *Outgoing) { o.Subject = "hi\r\nBcc: evil@example.test" },
		"unsubscribe injection": func(o *Outgoing) {
			o.ListUnsubscribe = "mailto:j@example.test>\r\nBcc: evil@example.test"
		},
	}
	for name, mod := range tests {
		o := ok
		mod(&o)
		if _, err := Compose(o); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestComposeListUnsubscribe: a mail to an observer carries List-Unsubscribe (RFC 2369)
// with its one URI in angle brackets; others carry none.
func TestComposeListUnsubscribe(t *testing.T) {
	o := Outgoing{From: "a@example.test", To: []string{"b@example.test"}, MessageID: "x@y", Version: "1", Text: "t"}
	raw, err := Compose(o)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), "List-Unsubscribe") {
		t.Errorf("a mail without an unsubscribe URI carries the header:\n%s", raw)
	}
	o.ListUnsubscribe = "mailto:judge@example.test?subject=UNOBSERVE%20spring&body=UNOBSERVE%20spring"
	if raw, err = Compose(o); err != nil {
		t.Fatal(err)
	}
	if want := "List-Unsubscribe: <mailto:judge@example.test?subject=UNOBSERVE%20spring&body=UNOBSERVE%20spring>\r\n"; !strings.Contains(string(raw), want) {
		t.Errorf("the header is not %q:\n%s", want, raw)
	}
}

// TestTextTypes: the Content-Type values setText writes are those SetContentType
// formats.
func TestTextTypes(t *testing.T) {
	for mt, v := range textTypes {
		var h message.Header
		h.SetContentType(mt, map[string]string{"charset": "utf-8"})
		if got := h.Get("Content-Type"); got != v {
			t.Errorf("%s: SetContentType writes %q, textTypes has %q", mt, got, v)
		}
	}
}

// FuzzWriteHeader: writeHeader writes a header of set fields as textproto.WriteHeader
// does, byte for byte, and fails where it fails.
func FuzzWriteHeader(f *testing.F) {
	f.Add("Subject", "Re: [RR tp] standing orders 2", "To", "<carol@example.test>")
	f.Add("Subject", strings.Repeat("long ", 20), "X-Rallyjudge", "rallyjudge/0.1")
	f.Add("Subject", "a\r\nb", "Bad Key", "x")
	f.Add("", "", "K:", "\n")
	f.Add("Abcdefghij", strings.Repeat("x", 64), "Abcdefghij", strings.Repeat("x", 65))
	f.Fuzz(func(t *testing.T, k1, v1, k2, v2 string) {
		if k1 == "" || k2 == "" {
			return
		}
		var h textproto.Header
		h.Add(k1, v1)
		h.Add(k2, v2)
		h.Add("Mime-Version", "1.0")
		var want, got bytes.Buffer
		werr := textproto.WriteHeader(&want, h)
		got.WriteString("before")
		gerr := writeHeader(&got, h)
		if fmt.Sprint(werr) != fmt.Sprint(gerr) {
			t.Fatalf("errors: WriteHeader %v, writeHeader %v", werr, gerr)
		}
		if werr == nil && got.String() != "before"+want.String() {
			t.Fatalf("WriteHeader %q, writeHeader %q", want.String(), got.String())
		}
	})
}
