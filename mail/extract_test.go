package mail

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"mime/quotedprintable"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-message"
	gomail "github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"
)

var update = flag.Bool("update", false, "rewrite golden files")

// summary renders what Extract found, for the golden files.
func summary(m *Message) string {
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\nFromName: %s\nTo: %s\nSubject: %s\nMessage-ID: %s\nIn-Reply-To: %s\nReferences: %s\n",
		m.From, m.FromName, strings.Join(m.To, ", "), m.Subject, m.MessageID, m.InReplyTo, strings.Join(m.References, " "))
	fmt.Fprintf(&b, "Date: %s\nContent-Type: %s\nSource: %s %s\n", m.Date.UTC().Format(time.RFC3339), m.ContentType, m.Source, m.SourceName)
	for _, a := range m.Attachments {
		fmt.Fprintf(&b, "Attachment: %s %s sheet=%v size=%d\n", a.Filename, a.ContentType, a.Sheet, a.Size)
	}
	for _, w := range m.Warnings {
		fmt.Fprintf(&b, "Warning: %s\n", w)
	}
	fmt.Fprintf(&b, "--- text\n%s--- stripped\n%s", m.Text, m.Stripped)
	return b.String()
}

func TestExtractGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/extract/*.eml")
	if err != nil || len(files) < 10 {
		t.Fatalf("want at least 10 sample mails, got %d (%v)", len(files), err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".eml")
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			m, err := Extract(raw)
			if err != nil {
				t.Fatalf("Extract: %v", err)
			}
			got := summary(m)
			golden := strings.TrimSuffix(f, ".eml") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if got != string(want) {
				t.Errorf("summary differs from %s:\n--- got\n%s\n--- want\n%s", golden, got, want)
			}
		})
	}
}

// TestExtractFacts states the essential facts of each sample directly, so a careless -update
// cannot bless a regression.
func TestExtractFacts(t *testing.T) {
	tests := []struct {
		file       string
		source     Source
		from       string
		subject    string
		contains   []string
		lacks      []string
		stripLacks []string
	}{
		{"alternative_qp", SourcePlain, "alice@example.test", "[RR spring-open] turn 3 orders",
			[]string{"secret: café-au-lait\n", "soft line break in quoted-printable"}, []string{"HTML SHOULD NOT WIN", "\r"}, nil},
		{"base64_plain", SourcePlain, "bob@example.test", "[RR spring-open] Grüße",
			[]string{"program: M3 M1 L90 M2 R90\n", "Grüße aus Köln ✓"}, nil, nil},
		{"latin1_qp", SourcePlain, "renee@example.test", "[RR spring-open] ordres définitifs",
			[]string{"secret: crème-brûlée\n"}, nil, nil},
		{"cp1252_8bit", SourcePlain, "carol@example.test", "[RR spring-open] orders",
			[]string{"secret: “quoted” €100\n"}, nil, nil},
		{"html_only", SourceHTML, "dave@example.test", "[RR spring-open] orders from my phone",
			[]string{"robot: Trundle Bot\nsecret: a&b<c>\nprogram: M1 R90\nU0 M2 M3\none\ntwo €\n"},
			[]string{"ignored title", "color: red", "alert", "<div", "<br", "&amp;", "&nbsp;"}, nil},
		{"attach_txt", SourceAttachment, "alice@example.test", "[RR spring-open] sheet attached",
			[]string{"robot: Hulk X90\nsecret: green\nprogram: M1 M2 M3 R90 L90\n"}, []string{"Hi, my orders"}, nil},
		{"attach_yaml", SourceAttachment, "bob@example.test", "[RR spring-open] yaml",
			[]string{"program: [M1, M2, U0, R90, B1]\n"}, []string{"See attachment"}, nil},
		{"reply_quoted", SourcePlain, "carol@example.test", "Re: [RR spring-open] turn 5 report",
			[]string{"program: M1 M1 R90 M2 U0\n", "> Your hand"}, nil, []string{"Your hand", "wrote:", "signature", "On Sat"}},
		{"reply_lf", SourcePlain, "alice@example.test", "Re: ack",
			[]string{"program: L90 L90 M1 M1 M1\n"}, nil, []string{"old sheet", "Original Message"}},
		{"gmail_html_reply", SourceHTML, "dave@example.test", "Re: [RR spring-open] turn 2",
			[]string{"program: M1 M2 M3 U0 B1\n", "> Turn 2 report\n"}, nil, []string{"Turn 2 report", "wrote:"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata/extract", tt.file+".eml"))
			if err != nil {
				t.Fatal(err)
			}
			m, err := Extract(raw)
			if err != nil {
				t.Fatal(err)
			}
			if m.Source != tt.source {
				t.Errorf("source = %q, want %q", m.Source, tt.source)
			}
			if m.From != tt.from {
				t.Errorf("from = %q, want %q", m.From, tt.from)
			}
			if m.Subject != tt.subject {
				t.Errorf("subject = %q, want %q", m.Subject, tt.subject)
			}
			for _, s := range tt.contains {
				if !strings.Contains(m.Text, s) {
					t.Errorf("text lacks %q:\n%s", s, m.Text)
				}
			}
			for _, s := range tt.lacks {
				if strings.Contains(m.Text, s) {
					t.Errorf("text has %q:\n%s", s, m.Text)
				}
			}
			for _, s := range tt.stripLacks {
				if strings.Contains(m.Stripped, s) {
					t.Errorf("stripped text has %q:\n%s", s, m.Stripped)
				}
			}
			if !strings.Contains(m.Stripped, "program:") {
				t.Errorf("stripped text lost the program:\n%s", m.Stripped)
			}
		})
	}
}

func TestExtractHeaders(t *testing.T) {
	raw, _ := os.ReadFile("testdata/extract/reply_quoted.eml")
	m, err := Extract(raw)
	if err != nil {
		t.Fatal(err)
	}
	if m.MessageID != "reply-1@example.test" || m.InReplyTo != "report-5-carol@rallyjudge.example.test" {
		t.Errorf("ids: %q %q", m.MessageID, m.InReplyTo)
	}
	if len(m.References) != 2 || m.References[1] != "report-5-carol@rallyjudge.example.test" {
		t.Errorf("references: %q", m.References)
	}
	if want := time.Date(2026, 3, 7, 18, 0, 0, 0, time.UTC); !m.Date.Equal(want) {
		t.Errorf("date = %v, want %v", m.Date, want)
	}
}

func TestExtractLimits(t *testing.T) {
	nested := func(depth int) []byte {
		var b bytes.Buffer
		b.WriteString("From: a@example.test\r\nSubject: deep\r\nMIME-Version: 1.0\r\n")
		for i := 0; i < depth; i++ {
			fmt.Fprintf(&b, "Content-Type: multipart/mixed; boundary=\"b%d\"\r\n\r\n--b%d\r\n", i, i)
		}
		b.WriteString("Content-Type: text/plain\r\n\r\nhi\r\n")
		for i := depth - 1; i >= 0; i-- {
			fmt.Fprintf(&b, "--b%d--\r\n", i)
		}
		return b.Bytes()
	}
	many := func(n int) []byte {
		var b bytes.Buffer
		b.WriteString("From: a@example.test\r\nContent-Type: multipart/mixed; boundary=x\r\n\r\n")
		for i := 0; i < n; i++ {
			b.WriteString("--x\r\nContent-Type: text/plain\r\n\r\npart\r\n")
		}
		b.WriteString("--x--\r\n")
		return b.Bytes()
	}
	big := append([]byte("From: a@example.test\r\n\r\n"), bytes.Repeat([]byte("x"), 2000)...)
	tests := []struct {
		name string
		raw  []byte
		lim  Limits
		what string // "" = no error
	}{
		{"size ok", big, Limits{MaxSize: 4000}, ""},
		{"size over", big, Limits{MaxSize: 1000}, "size"},
		{"text over", big, Limits{MaxText: 100}, "text"},
		{"depth ok", nested(3), Limits{MaxDepth: 3}, ""},
		{"depth over", nested(4), Limits{MaxDepth: 3}, "depth"},
		{"depth default over", nested(50), Limits{}, "depth"},
		{"parts ok", many(9), Limits{MaxParts: 10}, ""},
		{"parts over", many(10), Limits{MaxParts: 10}, "parts"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ExtractWithLimits(tt.raw, tt.lim)
			if tt.what == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				if m.Text == "" {
					t.Error("no text")
				}
				return
			}
			var le *LimitError
			if !errors.As(err, &le) || le.What != tt.what || !errors.Is(err, ErrLimit) {
				t.Fatalf("err = %v, want a %s limit error", err, tt.what)
			}
		})
	}
}

func TestExtractHostile(t *testing.T) {
	tests := map[string]string{
		"empty":            "",
		"no header end":    "From: a@example.test",
		"garbage":          "\x00\x01\x02<<>>",
		"bad boundary":     "Content-Type: multipart/mixed\r\n\r\n--\r\n",
		"unknown charset":  "From: a@example.test\r\nContent-Type: text/plain; charset=klingon\r\n\r\nqapla\r\n",
		"bad base64":       "From: a@example.test\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!!not base64\r\n",
		"unknown encoding": "From: a@example.test\r\nContent-Transfer-Encoding: x-rot13\r\n\r\nhello\r\n",
		"bad from":         "From: <<<@@@\r\n\r\nbody\r\n",
		"unclosed html":    "Content-Type: text/html\r\n\r\n<p>a<b <script>x",
		"rfc822 loop":      "Content-Type: message/rfc822\r\n\r\nContent-Type: message/rfc822\r\n\r\nContent-Type: message/rfc822\r\n\r\n",
	}
	for name, raw := range tests {
		t.Run(name, func(t *testing.T) {
			m, err := Extract([]byte(raw))
			if err == nil && m == nil {
				t.Fatal("nil message without error")
			}
		})
	}
	m, err := Extract([]byte(tests["unknown charset"]))
	if err != nil || !strings.Contains(m.Text, "qapla") || len(m.Warnings) == 0 {
		t.Errorf("unknown charset: want text kept with a warning, got %v %+v", err, m)
	}
}

func FuzzExtract(f *testing.F) {
	files, _ := filepath.Glob("testdata/extract/*.eml")
	more, _ := filepath.Glob("testdata/auto/*.eml")
	clients, _ := filepath.Glob("testdata/clients/*.eml")
	files = append(files, clients...)
	for _, p := range append(files, more...) {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("Content-Type: multipart/alternative; boundary=a\r\n\r\n--a\r\nContent-Type: text/html\r\n\r\n<blockquote><pre>x\r\n--a--"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := ExtractWithLimits(raw, Limits{MaxSize: 64 << 10, MaxParts: 20, MaxDepth: 5, MaxText: 16 << 10})
		if err != nil {
			return
		}
		if m == nil {
			t.Fatal("nil message without error")
		}
		if strings.Contains(m.Text, "\r") {
			t.Fatalf("text keeps a CR: %q", m.Text)
		}
		if len(m.Stripped) > len(m.Text)+1 {
			t.Fatalf("stripped longer than text")
		}
		_, _ = IsAutomatic(m)
	})
}

// dateValues are Date fields as clients write them, and some they should not.
var dateValues = []string{
	"Sun, 01 Mar 2026 12:00:00 +0000", "Mon, 9 Mar 2026 10:00:00 +0100", "Mon, 23 Nov 2026 11:15:42 -0800",
	"Mon, 23 Nov 2026 11:15:42 +0000 (UTC)", "23 Nov 2026 11:15:42 +0000", "Mon, 23 Nov 26 11:15:42 +0000",
	"Mon, 23 Nov 2026 11:15 +0000", "Mon, 23 Nov 2026 11:15:42 GMT", "Mon, 23 Nov 2026 11:15:42 EST",
	"Mon,  23 Nov 2026 11:15:42 +0000", " Mon, 23 Nov 2026 11:15:42 +0000", "Mon, 23 Nov 2026 11:15:42 +0000 ",
	"mon, 23 nov 2026 11:15:42 +0000", "Fri, 23 Nov 2026 11:15:42 +0000", "Mon, 31 Feb 2026 11:15:42 +0000",
	"Mon, 23 Nov 2026 25:15:42 +0000", "Mon, 23 Nov 2026 11:15:42 +9999", "Mon, 123 Nov 2026 11:15:42 +0000",
	"Mon, 23 Nov 2026\r\n 11:15:42 +0000", "", "yesterday", "Mon, 23 Nov 2026 11:15:42 +0000x",
}

// TestDateAsNetMail: the Date field reads as net/mail reads it, whatever its shape (the
// usual shape takes a shorter way; issue 14 item 10).
func TestDateAsNetMail(t *testing.T) {
	for _, v := range dateValues {
		checkDate(t, v)
	}
}

func checkDate(t *testing.T, v string) {
	t.Helper()
	var h gomail.Header
	h.Set("Date", v)
	got, gerr := date(h)
	want, werr := h.Date()
	if (gerr == nil) != (werr == nil) || !got.Equal(want) || got.Format(time.RFC3339) != want.Format(time.RFC3339) {
		t.Errorf("Date %q: read %v (%v), net/mail reads %v (%v)", v, got, gerr, want, werr)
	}
}

func FuzzDate(f *testing.F) {
	for _, v := range dateValues {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if strings.ContainsAny(v, "\r\n") {
			return // not a header value
		}
		checkDate(t, v)
	})
}

// TestExtractClientShapes: shapes of the client corpus (testdata/clients) that Extract
// misread. A sheet Notepad saved as "Unicode" (UTF-16 with a byte-order mark) came out
// as "\ufffdg\x00a\x00m..."; CR CR LF line ends (a Windows file pasted into a web form)
// counted two lines each, so errors named line 19 of a ten-line sheet; a charset nobody
// knows ("unknown-8bit") turned "Grüße" into "Gr\ufffd\ufffde"; an encrypted mail was
// not told from one without text; of a text split around a picture only the first part
// was read.
func TestExtractClientShapes(t *testing.T) {
	tests := []struct {
		file      string
		source    Source
		line      map[int]string // 1-based line of Text: what it must be
		contains  string
		encrypted bool
	}{
		{file: "outlook_utf16_attachment", source: SourceAttachment, line: map[int]string{1: "game spring", 4: "secret tango-42-kilo", 9: "5: P530"}},
		{file: "squirrelmail_crcrlf", source: SourcePlain, line: map[int]string{1: "game spring", 10: "power dwn", 11: "#end", 12: "", 13: "Zoe"}},
		{file: "mutt_unknown_8bit", source: SourcePlain, contains: "Grüße aus Köln\n"},
		{file: "thunderbird_encrypted", source: SourceNone, encrypted: true},
		{file: "outlook_smime_encrypted", source: SourceNone, encrypted: true},
		{file: "outlook_smime_signed", source: SourcePlain, line: map[int]string{1: "secret tango-42-kilo"}},
		{file: "thunderbird_pgpmime_signed", source: SourcePlain, line: map[int]string{1: "game spring"}},
		// Apple Mail's plain text with a picture placed in it: text, image, text; only the
		// text above the picture was read
		{file: "apple_mail_split_by_image", source: SourcePlain, line: map[int]string{1: "Where I am heading, from my own sketch:", 4: "#orders", 9: "1: P490", 15: ""}},
		// its contact card is text: the empty text after it is not the mail's text
		{file: "apple_mail_vcard", source: SourcePlain, line: map[int]string{1: "game spring", 9: "5: P530"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata/clients", tt.file+".eml"))
			if err != nil {
				t.Fatal(err)
			}
			m, err := Extract(raw)
			if err != nil {
				t.Fatal(err)
			}
			if m.Source != tt.source || m.Encrypted != tt.encrypted {
				t.Errorf("source %q, encrypted %v; want %q, %v", m.Source, m.Encrypted, tt.source, tt.encrypted)
			}
			lines := strings.Split(m.Text, "\n")
			for n, want := range tt.line {
				if n > len(lines) || lines[n-1] != want {
					t.Errorf("line %d is not %q:\n%s", n, want, m.Text)
				}
			}
			if !strings.Contains(m.Text, tt.contains) || strings.ContainsAny(m.Text, "\r\x00\ufffd") {
				t.Errorf("text lacks %q or has CR, NUL or U+FFFD:\n%q", tt.contains, m.Text)
			}
		})
	}
}

// TestDecodedSeesUTF16: a secret in a UTF-16 attachment was in no piece Decoded gave, so
// a check that a stored mail no longer carries it passed while it did.
func TestDecodedSeesUTF16(t *testing.T) {
	raw, err := os.ReadFile("testdata/clients/outlook_utf16_attachment.eml")
	if err != nil {
		t.Fatal(err)
	}
	pieces, ok := Decoded(raw, 1<<20)
	found := false
	for _, p := range pieces {
		found = found || strings.Contains(string(p), "secret tango-42-kilo")
	}
	if !ok || !found {
		t.Errorf("ok %v, the secret found %v: want both", ok, found)
	}
}

// FuzzReadEntity: readEntity (a pooled buffer) reads a message as go-message's
// ReadWithOptions does: the same header fields, the same body, the same errors.
func FuzzReadEntity(f *testing.F) {
	f.Add([]byte("From: a@b\r\nSubject: x\r\n\r\nbody\r\n"), int64(256<<10))
	f.Add([]byte("Subject: =?utf-8?q?x?=\r\n folded\r\nContent-Type: text/plain; charset=latin1\r\n\r\n\xe9t\xe9"), int64(20))
	f.Add([]byte(" bad first line\r\n\r\n"), int64(256<<10))
	f.Add([]byte("Content-Transfer-Encoding: base64\r\n\r\naGVsbG8=\r\n"), int64(40))
	f.Fuzz(func(t *testing.T, raw []byte, limit int64) {
		if limit <= 0 || limit > 1<<20 {
			return
		}
		want, werr := message.ReadWithOptions(bytes.NewReader(raw), &message.ReadOptions{MaxHeaderBytes: limit})
		got, release, gerr := readEntity(raw, limit)
		defer release()
		if fmt.Sprint(werr) != fmt.Sprint(gerr) || (want == nil) != (got == nil) {
			t.Fatalf("errors: go-message %v, readEntity %v", werr, gerr)
		}
		if want == nil {
			return
		}
		fields := func(e *message.Entity) (out []string) {
			for f := e.Header.Fields(); f.Next(); {
				out = append(out, f.Key()+": "+f.Value())
			}
			return out
		}
		if w, g := fields(want), fields(got); fmt.Sprint(w) != fmt.Sprint(g) {
			t.Fatalf("header: go-message %q, readEntity %q", w, g)
		}
		wb, werr := io.ReadAll(want.Body)
		gb, gerr := io.ReadAll(got.Body)
		if !bytes.Equal(wb, gb) || fmt.Sprint(werr) != fmt.Sprint(gerr) {
			t.Fatalf("body: go-message %q (%v), readEntity %q (%v)", wb, werr, gb, gerr)
		}
	})
}

// TestExtractAttachedMail: a mail forwarded as an attachment (message/rfc822, Thunderbird's
// "Forward As Attachment") is read as a mail of its own into Forwards, within what is
// left of the limits: mails attached in mails nest no deeper than MaxDepth, and no more
// than maxForwards are read.
func TestExtractAttachedMail(t *testing.T) {
	raw, err := os.ReadFile("testdata/clients/thunderbird_forward_attached.eml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Extract(raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Forwards) != 1 || m.Forwards[0].From != "zoe@example.test" || !strings.Contains(m.Forwards[0].Stripped, "secret tango-42-kilo\n1: P490") ||
		strings.Contains(m.Forwards[0].Stripped, "Zoe\n") || strings.Contains(m.Text, "P490") {
		t.Fatalf("forwards %d, text %q", len(m.Forwards), m.Text)
	}
	// a chain of 20 mails, each attached to the one before
	inner := "From: a@example.test\r\nContent-Type: text/plain\r\n\r\nP490\r\n"
	for i := 0; i < 20; i++ {
		inner = "From: a@example.test\r\nContent-Type: multipart/mixed; boundary=b" + fmt.Sprint(i) + "\r\n\r\n--b" + fmt.Sprint(i) +
			"\r\nContent-Type: message/rfc822\r\nContent-Disposition: attachment\r\n\r\n" + inner + "\r\n--b" + fmt.Sprint(i) + "--\r\n"
	}
	m, err = ExtractWithLimits([]byte(inner), Limits{MaxDepth: 8})
	if err != nil {
		t.Fatal(err)
	}
	depth := 0
	for len(m.Forwards) > 0 {
		m, depth = m.Forwards[0], depth+1
	}
	if depth == 0 || depth > 8 {
		t.Errorf("attached mails read %d deep, want 1 to 8", depth)
	}
	// ten attached side by side: maxForwards are read
	var b strings.Builder
	b.WriteString("From: a@example.test\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n")
	for i := 0; i < 10; i++ {
		b.WriteString("--b\r\nContent-Type: message/rfc822\r\nContent-Disposition: attachment\r\n\r\nFrom: a@example.test\r\n\r\nP490\r\n")
	}
	b.WriteString("--b--\r\n")
	if m, err = Extract([]byte(b.String())); err != nil || len(m.Forwards) != maxForwards || len(m.Attachments) != 10 {
		t.Errorf("%v: %d forwards read, %d attachments; want %d and 10", err, len(m.Forwards), len(m.Attachments), maxForwards)
	}
}

// FuzzAddressList: addressList reads a field as AddressList does.
func FuzzAddressList(f *testing.F) {
	for _, v := range []string{"<alice@example.test>", "alice@example.test", "Alice <a@b>", "<a..b@c>", "<a@[1.2.3.4]>", "<a@b> (c)", "<\"a\"@b>", "<a@b>, <c@d>", "<é@b>", "<a@b"} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		var h gomail.Header
		h.Set("To", v)
		want, werr := h.AddressList("To")
		got, gerr := addressList(h, "To")
		if fmt.Sprint(werr) != fmt.Sprint(gerr) || fmt.Sprintf("%q", want) != fmt.Sprintf("%q", got) {
			t.Fatalf("%q: AddressList %q (%v), addressList %q (%v)", v, want, werr, got, gerr)
		}
	})
}

// FuzzMediaType: mediaType reads a Content-Type as message.Header.ContentType does.
func FuzzMediaType(f *testing.F) {
	for _, v := range []string{"text/plain; charset=utf-8", "text/plain", "TEXT/plain; charset=UTF-8", "text/plain; charset=\"utf-8\"", "text/plain;charset=utf-8",
		"text/plain; Charset=utf-8", "text/plain; charset=utf-8; format=flowed", "text/plain; charset*=utf-8''x", "text/plain; charset=", "", "a/b; c=d=?e?="} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		var h message.Header
		h.Set("Content-Type", v)
		wt, wp, werr := h.ContentType()
		gt, gp, gerr := mediaType(h)
		if wt != gt || fmt.Sprint(wp) != fmt.Sprint(gp) || (wp == nil) != (gp == nil) || fmt.Sprint(werr) != fmt.Sprint(gerr) {
			t.Fatalf("%q: ContentType %q %v (%v), mediaType %q %v (%v)", v, wt, wp, werr, gt, gp, gerr)
		}
	})
}

// FuzzPlainHeader: a header plainHeader reads is the header textproto.ReadHeader reads,
// field for field, the bytes of each included, and the body starts where it starts.
func FuzzPlainHeader(f *testing.F) {
	f.Add(orderMail, int64(256<<10))
	f.Add([]byte("From: a@b\nSubject: x\n folded\r\n\ttwice\n\nbody"), int64(1<<20))
	f.Add([]byte("A: \r\r\nB:x\r\n\r\n"), int64(1<<20))
	f.Fuzz(func(t *testing.T, raw []byte, limit int64) {
		h, body, ok := plainHeader(raw, limit)
		if !ok {
			return
		}
		br := bufio.NewReader(&headerLimit{r: bytes.NewReader(raw), n: limit})
		want, err := textproto.ReadHeader(br)
		if err != nil {
			t.Fatalf("plainHeader read a header ReadHeader does not: %v", err)
		}
		rest, _ := io.ReadAll(br)
		if !bytes.Equal(rest, raw[body:]) {
			t.Fatalf("body %q, ReadHeader leaves %q", raw[body:], rest)
		}
		dump := func(h textproto.Header) string {
			var b strings.Builder
			for f := h.Fields(); f.Next(); {
				r, err := f.Raw()
				fmt.Fprintf(&b, "%q %q %q %v\n", f.Key(), f.Value(), r, err)
				for g := h.FieldsByKey(f.Key()); g.Next(); {
					fmt.Fprintf(&b, " %q", g.Value())
				}
			}
			return b.String()
		}
		if w, g := dump(want), dump(h); w != g {
			t.Fatalf("ReadHeader:\n%s\nplainHeader:\n%s", w, g)
		}
	})
}

// FuzzAsSent: where asSent says so, message.New reads the body as it is, with no
// error, and the entity is no multipart: the entity readEntity makes without it.
func FuzzAsSent(f *testing.F) {
	for _, v := range [][2]string{{"text/plain; charset=utf-8", ""}, {"text/plain; charset=latin1", ""}, {"", "base64"}, {"multipart/mixed; boundary=x", ""},
		{"text/plain; charset=UTF-8", "8BIT"}, {"application/pdf", "binary"}, {"text/plain; format=flowed", "quoted-printable"}} {
		f.Add(v[0], v[1])
	}
	f.Fuzz(func(t *testing.T, ct, cte string) {
		var h message.Header
		if ct != "" {
			h.Set("Content-Type", ct)
		}
		if cte != "" {
			h.Set("Content-Transfer-Encoding", cte)
		}
		body := []byte("body")
		if !asSent(h, body) {
			return
		}
		r := bytes.NewReader(body)
		e, err := message.New(h, r)
		if err != nil || e.MultipartReader() != nil {
			t.Fatalf("%q, %q: message.New: %v, multipart %v", ct, cte, err, e.MultipartReader() != nil)
		}
		if e.Body != io.Reader(r) && !strings.EqualFold(cte, "quoted-printable") {
			t.Fatalf("%q, %q: message.New reads the body through %T", ct, cte, e.Body)
		}
	})
}

// FuzzQPAsIs: a body qpAsIs passes decodes to itself.
func FuzzQPAsIs(f *testing.F) {
	for _, b := range []string{"robot Alice\r\nsecret x\r\n", "a \r\n", "a\r", "a=3D", "a\n b", "a ", "\r\n", "a\tb", "a\r\r\n"} {
		f.Add([]byte(b))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !qpAsIs(b) {
			return
		}
		got, err := io.ReadAll(quotedprintable.NewReader(bytes.NewReader(b)))
		if err != nil || !bytes.Equal(got, b) {
			t.Fatalf("%q decodes to %q (%v)", b, got, err)
		}
	})
}
