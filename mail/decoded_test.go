package mail

import (
	"bytes"
	"mime"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// asWrittenCases are messages AsWritten must take as they are, and ones it must leave to
// Decoded's walk.
var asWrittenCases = []struct {
	name string
	raw  string
	want bool
}{
	{"plain", "From: a@b.test\r\nSubject: orders\r\n\r\nrobot Alice\r\nsecret k7dm-3xqp\r\n", true},
	{"utf-8, 8bit, folded subject", "Subject: a long\r\n subject\r\nContent-Type: text/plain; charset=\"UTF-8\"; format=flowed\r\nContent-Transfer-Encoding: 8bit\r\n\r\nbody\r\n", true},
	{"bare newlines", "Subject: x\n\nbody\n", true},
	{"no body separator", "Subject: x\r\n", false},
	{"encoded word", "Subject: =?utf-8?q?secret?=\r\n\r\nbody\r\n", false},
	{"quoted-printable", "Content-Transfer-Encoding: quoted-printable\r\n\r\nk7dm-3xq=\r\np\r\n", false},
	{"quoted-printable without =", "Content-Transfer-Encoding: quoted-printable\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nrobot Alice  \r\nsecret k7dm-3xqp\r\n", true},
	{"quoted-printable, 8-bit", "Content-Transfer-Encoding: quoted-printable\r\n\r\nrobot \xc3\xa9\r\n", false},
	{"base64", "Content-Transfer-Encoding: base64\r\n\r\nazdkbS0zeHFw\r\n", false},
	{"latin-1", "Content-Type: text/plain; charset=iso-8859-1\r\n\r\nbody\r\n", false},
	{"delsp", "Content-Type: text/plain; format=flowed; delsp=yes\r\n\r\nk7dm- \r\n3xqp\r\n", false},
	{"multipart", "Content-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\n\r\nbody\r\n--x--\r\n", false},
	{"html", "Content-Type: text/html\r\n\r\n<p>body</p>\r\n", false},
	{"two content types", "Content-Type: text/plain\r\nContent-Type: text/html\r\n\r\nbody\r\n", false},
	{"folded encoding", "Content-Transfer-Encoding:\r\n base64\r\n\r\nazdk\r\n", false},
	{"continuation first", " x\r\nSubject: y\r\n\r\nbody\r\n", false},
	{"no colon", "Subject x\r\n\r\nbody\r\n", false},
	{"utf-16 body", "Subject: x\r\n\r\n\xff\xfek\x007\x00", false},
}

func TestAsWritten(t *testing.T) {
	for _, c := range asWrittenCases {
		t.Run(c.name, func(t *testing.T) {
			if got := AsWritten([]byte(c.raw)); got != c.want {
				t.Errorf("AsWritten = %v, want %v", got, c.want)
			}
			if c.want {
				checkAsWritten(t, []byte(c.raw))
			}
		})
	}
}

// checkAsWritten holds what AsWritten promises of raw: Decoded walks it to its end, and
// every run of bytes without white space in any piece is in raw's own bytes.
func checkAsWritten(t *testing.T, raw []byte) {
	t.Helper()
	pieces, ok := Decoded(raw, int64(4*len(raw))+1024)
	if !ok {
		t.Fatalf("AsWritten, but Decoded could not walk %q", raw)
	}
	for _, p := range pieces {
		for _, w := range bytes.Fields(p) {
			if !bytes.Contains(raw, w) {
				t.Fatalf("AsWritten, but the piece %q holds %q, which the raw bytes do not:\n%q", p, w, raw)
			}
		}
	}
}

// FuzzAsWritten: whenever AsWritten takes a message as it is, Decoded sees nothing in it
// that its bytes do not hold (a secret check on the bytes is a check on what a reader
// sees).
func FuzzAsWritten(f *testing.F) {
	for _, c := range asWrittenCases {
		f.Add([]byte(c.raw))
	}
	files, _ := filepath.Glob("testdata/clients/*.eml")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if AsWritten(raw) {
			checkAsWritten(t, raw)
		}
	})
}

// asWrittenBefore is AsWritten as it was before issue 24 item 7 made it allocate less:
// FuzzAsWrittenSame holds the two to the same answers.
func asWrittenBefore(raw []byte) bool {
	if len(raw) >= 1<<20 {
		return false
	}
	var contentType, encoding []byte
	var field *[]byte // the field whose continuation lines follow, if one is kept
	seen := map[string]bool{}
	rest := raw
	for {
		nl := bytes.IndexByte(rest, '\n')
		if nl < 0 {
			return false // no end to the header
		}
		line := rest[:nl]
		rest = rest[nl+1:]
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 {
			break
		}
		if bytes.Contains(line, []byte("=?")) || bytes.IndexByte(line, '\r') >= 0 || bytes.IndexByte(line, 0) >= 0 {
			return false
		}
		if line[0] == ' ' || line[0] == '\t' {
			if len(seen) == 0 {
				return false // a continuation with no field before it
			}
			if field != nil {
				*field = append(append(*field, ' '), bytes.TrimSpace(line)...)
			}
			continue
		}
		colon := bytes.IndexByte(line, ':')
		if colon <= 0 {
			return false
		}
		for _, c := range line[:colon] {
			if c <= ' ' || c > '~' {
				return false
			}
		}
		name := strings.ToLower(string(line[:colon]))
		value := bytes.TrimSpace(line[colon+1:])
		field = nil
		switch name {
		case "content-type":
			contentType, field = append([]byte(nil), value...), &contentType
		case "content-transfer-encoding":
			encoding, field = append([]byte(nil), value...), &encoding
		}
		if field != nil && seen[name] {
			return false // said twice: which one a reader takes is its own choice
		}
		seen[name] = true
	}
	switch strings.ToLower(string(bytes.TrimSpace(encoding))) {
	case "", "7bit", "8bit":
	case "quoted-printable":
		// with no "=" and nothing but printable ASCII, decoding it only drops the white
		// space that ends a line (go-message's default for a text part: most sheets)
		for _, c := range rest {
			if c == '=' || (c < ' ' || c > '~') && c != '\t' && c != '\r' && c != '\n' {
				return false
			}
		}
	default:
		return false
	}
	if contentType != nil {
		t, params, err := mime.ParseMediaType(string(contentType))
		if err != nil || t != "text/plain" {
			return false
		}
		for k, v := range params {
			v = strings.ToLower(v)
			switch {
			case k == "charset" && (v == "utf-8" || v == "us-ascii"):
			case k == "format" && (v == "fixed" || v == "flowed"):
			case k == "delsp" && v == "no":
			default:
				return false // delsp=yes joins words; other charsets are decoded
			}
		}
	}
	if len(rest) >= 2 && (rest[0] == 0xFE && rest[1] == 0xFF || rest[0] == 0xFF && rest[1] == 0xFE) {
		return false // read as UTF-16 too
	}
	return true
}

// FuzzAsWrittenSame: AsWritten answers as it did (asWrittenBefore).
func FuzzAsWrittenSame(f *testing.F) {
	for _, c := range asWrittenCases {
		f.Add([]byte(c.raw))
	}
	f.Add(orderMail)
	f.Add(orderMailQP)
	f.Fuzz(func(t *testing.T, raw []byte) {
		if got, want := AsWritten(raw), asWrittenBefore(raw); got != want {
			t.Fatalf("AsWritten(%q) = %v, before %v", raw, got, want)
		}
	})
}
