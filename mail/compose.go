package mail

import (
	"bytes"
	"errors"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"strings"
	"time"

	"github.com/emersion/go-message"
	gomail "github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"
)

// Inline is a part shown inside the HTML body and referenced from it as "cid:ContentID"
// (RFC 2392), e.g. a picture of the board.
type Inline struct {
	ContentID   string // without angle brackets
	ContentType string // e.g. "image/png"
	Filename    string
	Data        []byte
}

// Outgoing is a mail for Compose. From and To are addresses; the names are optional.
type Outgoing struct {
	From       string
	FromName   string
	To         []string
	ToNames    []string // parallel to To; may be shorter
	Subject    string
	MessageID  string // without angle brackets; required, so that a resent outbox entry keeps its id
	InReplyTo  string
	References []string
	Date       time.Time // zero: now
	Version    string    // the X-Rallyjudge value; required
	// AutoSubmitted is "auto-replied" for answers to a player's mail (the default) or
	// "auto-generated" for mail nobody asked for, such as turn reports (RFC 3834 section 5).
	AutoSubmitted string

	Text   string   // the plain text body; required
	HTML   string   // optional; if set the mail is multipart/alternative
	Inline []Inline // optional; needs HTML; wraps the HTML in multipart/related
	// Attachments are files that come with a plain text mail (multipart/mixed), e.g. a
	// game's replay page; not with HTML.
	Attachments []Inline
	// ListUnsubscribe is the List-Unsubscribe header's one URI (RFC 2369), e.g.
	// "mailto:judge@example.org?subject=UNOBSERVE%20spring"; "" for none.
	ListUnsubscribe string
}

// Compose builds the raw bytes of an outgoing mail (CRLF line ends, UTF-8, quoted-printable
// text) carrying X-Rallyjudge and Auto-Submitted, so that rallyjudge and well-behaved responders
// never answer it (see IsAutomatic).
func Compose(o Outgoing) ([]byte, error) {
	switch {
	case o.From == "":
		return nil, errors.New("mail: compose: no From address")
	case len(o.To) == 0:
		return nil, errors.New("mail: compose: no To address")
	case o.MessageID == "" || strings.ContainsAny(o.MessageID, "<> \r\n") || !strings.Contains(o.MessageID, "@"):
		return nil, fmt.Errorf("mail: compose: Message-ID %q is not of the form id@domain", o.MessageID)
	case o.Version == "":
		return nil, errors.New("mail: compose: no version for " + HeaderVersion)
	case len(o.Inline) > 0 && o.HTML == "":
		return nil, errors.New("mail: compose: inline parts need an HTML body")
	case len(o.Attachments) > 0 && o.HTML != "":
		return nil, errors.New("mail: compose: attachments go with a plain text mail only")
	}
	for _, s := range []string{o.Subject, o.FromName, o.Version, o.AutoSubmitted} {
		if strings.ContainsAny(s, "\r\n") {
			return nil, errors.New("mail: compose: a header value contains a line break")
		}
	}
	var h gomail.Header
	h.SetAddressList("From", []*gomail.Address{{Name: o.FromName, Address: o.From}})
	to := make([]*gomail.Address, len(o.To))
	for i, a := range o.To {
		to[i] = &gomail.Address{Address: a}
		if i < len(o.ToNames) {
			to[i].Name = o.ToNames[i]
		}
	}
	h.SetAddressList("To", to)
	h.SetSubject(o.Subject)
	date := o.Date
	if date.IsZero() {
		date = time.Now()
	}
	h.SetDate(date)
	h.SetMessageID(o.MessageID)
	if o.InReplyTo != "" {
		h.SetMsgIDList("In-Reply-To", []string{o.InReplyTo})
	}
	refs := o.References
	if len(refs) == 0 && o.InReplyTo != "" {
		refs = []string{o.InReplyTo}
	}
	if len(refs) > 0 {
		h.SetMsgIDList("References", refs)
	}
	auto := o.AutoSubmitted
	if auto == "" {
		auto = "auto-replied"
	}
	// Add, not Set, for the fields only Compose writes: the header has none of them yet
	h.Add("Auto-Submitted", auto)
	if o.ListUnsubscribe != "" {
		if strings.ContainsAny(o.ListUnsubscribe, "\r\n<> ") {
			return nil, errors.New("mail: compose: List-Unsubscribe is not one URI")
		}
		h.Add("List-Unsubscribe", "<"+o.ListUnsubscribe+">")
	}
	h.Add(HeaderVersion, o.Version)
	h.Add("MIME-Version", "1.0")

	var buf bytes.Buffer
	if len(o.Attachments) > 0 {
		h.SetContentType("multipart/mixed", nil)
		w, err := message.CreateWriter(&buf, h.Header)
		if err != nil {
			return nil, fmt.Errorf("mail: compose: %w", err)
		}
		var th message.Header
		setText(&th, "text/plain")
		if err := writePart(w, th, crlf(o.Text)); err != nil {
			return nil, err
		}
		for _, a := range o.Attachments {
			var ah message.Header
			ct := a.ContentType
			if ct == "" {
				ct = "application/octet-stream"
			}
			mt, params, err := mime.ParseMediaType(ct)
			if err != nil {
				return nil, fmt.Errorf("mail: compose: attachment %s: content type %q: %w", a.Filename, ct, err)
			}
			ah.SetContentType(mt, params)
			ah.Set("Content-Transfer-Encoding", "base64")
			ah.SetContentDisposition("attachment", map[string]string{"filename": a.Filename})
			if err := writePart(w, ah, a.Data); err != nil {
				return nil, err
			}
		}
		if err := w.Close(); err != nil {
			return nil, fmt.Errorf("mail: compose: %w", err)
		}
		return buf.Bytes(), nil
	}
	if o.HTML == "" {
		// What message.CreateWriter writes for this header (MIME-Version set, one text
		// part in UTF-8, quoted-printable): the header, then the text through a
		// quoted-printable writer; without the copy of the header it makes and reads
		// back, and into a buffer the size of the mail (issue 24 item 7: the judge
		// writes one of these for every order mail it reads).
		setText(&h.Header, "text/plain")
		buf.Grow(composeHeaderSize + len(o.Text) + len(o.Text)/8)
		if err := writeHeader(&buf, h.Header.Header); err != nil {
			return nil, fmt.Errorf("mail: compose: %w", err)
		}
		qp := quotedprintable.NewWriter(&buf)
		writeCRLF(qp, o.Text)
		if err := qp.Close(); err != nil {
			return nil, fmt.Errorf("mail: compose: %w", err)
		}
		return buf.Bytes(), nil
	}

	h.SetContentType("multipart/alternative", nil)
	w, err := message.CreateWriter(&buf, h.Header)
	if err != nil {
		return nil, fmt.Errorf("mail: compose: %w", err)
	}
	var th message.Header
	setText(&th, "text/plain")
	if err := writePart(w, th, crlf(o.Text)); err != nil {
		return nil, err
	}
	if len(o.Inline) == 0 {
		var hh message.Header
		setText(&hh, "text/html")
		if err := writePart(w, hh, crlf(o.HTML)); err != nil {
			return nil, err
		}
	} else {
		var rh message.Header
		rh.SetContentType("multipart/related", map[string]string{"type": "text/html"})
		rw, err := w.CreatePart(rh)
		if err != nil {
			return nil, fmt.Errorf("mail: compose: %w", err)
		}
		var hh message.Header
		setText(&hh, "text/html")
		if err := writePart(rw, hh, crlf(o.HTML)); err != nil {
			return nil, err
		}
		for _, in := range o.Inline {
			if in.ContentID == "" || strings.ContainsAny(in.ContentID, "<> \r\n") {
				return nil, fmt.Errorf("mail: compose: inline Content-ID %q is not usable", in.ContentID)
			}
			var ih message.Header
			ct := in.ContentType
			if ct == "" {
				ct = "application/octet-stream"
			}
			ih.SetContentType(ct, nil)
			ih.Set("Content-ID", "<"+in.ContentID+">")
			ih.Set("Content-Transfer-Encoding", "base64")
			params := map[string]string{}
			if in.Filename != "" {
				params["filename"] = in.Filename
			}
			ih.SetContentDisposition("inline", params)
			if err := writePart(rw, ih, in.Data); err != nil {
				return nil, err
			}
		}
		if err := rw.Close(); err != nil {
			return nil, fmt.Errorf("mail: compose: %w", err)
		}
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("mail: compose: %w", err)
	}
	return buf.Bytes(), nil
}

// writePart adds a part with header h and body b to the multipart w.
func writePart(w *message.Writer, h message.Header, b []byte) error {
	pw, err := w.CreatePart(h)
	if err != nil {
		return fmt.Errorf("mail: compose: %w", err)
	}
	return writeAll(pw, b)
}

// composeHeaderSize is about the bytes of a composed mail's header.
const composeHeaderSize = 512

// textTypes are the Content-Type values setText writes, as SetContentType formats
// them (TestTextTypes), written out so that a mail does not format them again.
var textTypes = map[string]string{
	"text/plain": "text/plain; charset=utf-8",
	"text/html":  "text/html; charset=utf-8",
}

// setText gives h, which has neither yet, the Content-Type (mt, in UTF-8) and the
// transfer encoding of a text part.
func setText(h *message.Header, mt string) {
	if v, ok := textTypes[mt]; ok {
		h.Add("Content-Type", v)
	} else {
		h.SetContentType(mt, map[string]string{"charset": "utf-8"})
	}
	h.Add("Content-Transfer-Encoding", "quoted-printable")
}

// writeHeader is textproto.WriteHeader(b, h) for a header Compose made (its fields
// set, none read): a field short enough for one line, "Key: value" in 76 bytes or
// less, is that line, which WriteHeader formats in a string of its own and then copies;
// a longer one WriteHeader folds, and any other header goes to WriteHeader whole.
func writeHeader(b *bytes.Buffer, h textproto.Header) error {
	start := b.Len()
	for f := h.Fields(); f.Next(); {
		k, v := f.Key(), f.Value()
		if len(k)+2+len(v) > 76 || !fieldKey(k) || strings.ContainsAny(v, "\r\n") {
			b.Truncate(start)
			return textproto.WriteHeader(b, h)
		}
		b.WriteString(k)
		b.WriteString(": ")
		b.WriteString(v)
		b.WriteString("\r\n")
	}
	b.WriteString("\r\n")
	return nil
}

// fieldKey reports whether k is a field name textproto writes as it is: printable
// ASCII without a colon.
func fieldKey(k string) bool {
	for i := 0; i < len(k); i++ {
		if k[i] < '!' || k[i] > '~' || k[i] == ':' {
			return false
		}
	}
	return true
}

// crlf gives text CRLF line ends (quoted-printable keeps them as hard line breaks).
func crlf(s string) []byte {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return []byte(strings.ReplaceAll(s, "\n", "\r\n"))
}

// writeCRLF writes crlf(s) to w, a line at a time when s has no CR: the same bytes
// for a quoted-printable writer (it encodes what it is given alike however it is cut),
// without the two copies of s crlf makes.
func writeCRLF(w *quotedprintable.Writer, s string) {
	if strings.IndexByte(s, '\r') >= 0 {
		w.Write(crlf(s))
		return
	}
	b := []byte(s)
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			w.Write(b)
			return
		}
		w.Write(b[:i])
		w.Write(crlfBytes)
		b = b[i+1:]
	}
}

var crlfBytes = []byte("\r\n")

func writeAll(w interface {
	Write([]byte) (int, error)
	Close() error
}, b []byte) error {
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("mail: compose: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("mail: compose: %w", err)
	}
	return nil
}
