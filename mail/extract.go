package mail

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"path"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-message"
	_ "github.com/emersion/go-message/charset" // decodes ISO-8859-*, windows-125x and the rest
	gomail "github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"
)

// Source says where a Message's Text came from.
type Source string

const (
	SourceNone       Source = "none"       // no readable text at all
	SourcePlain      Source = "text/plain" // the message body (or its text/plain alternative)
	SourceHTML       Source = "text/html"  // an HTML body turned into text; there was no text/plain
	SourceAttachment Source = "attachment" // an order sheet attached as .txt, .yaml or .yml
)

// Limits bound what Extract reads from untrusted input. Zero fields take the defaults.
type Limits struct {
	MaxSize  int64 // whole raw message, bytes (default 1 MiB)
	MaxParts int   // MIME parts in all, the top level included (default 100)
	MaxDepth int   // nesting of multiparts and message/rfc822 (default 8)
	MaxText  int64 // decoded bytes kept from one text part or attachment (default 256 KiB)
}

// DefaultLimits are the limits Extract uses.
func DefaultLimits() Limits {
	return Limits{MaxSize: 1 << 20, MaxParts: 100, MaxDepth: 8, MaxText: 256 << 10}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.MaxSize <= 0 {
		l.MaxSize = d.MaxSize
	}
	if l.MaxParts <= 0 {
		l.MaxParts = d.MaxParts
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = d.MaxDepth
	}
	if l.MaxText <= 0 {
		l.MaxText = d.MaxText
	}
	return l
}

// ErrLimit is matched (errors.Is) by every *LimitError.
var ErrLimit = errors.New("mail: message exceeds a limit")

// LimitError says which limit a message broke.
type LimitError struct {
	What  string // "size", "parts", "depth" or "text"
	Limit int64
	Got   int64 // how much was seen, when known (0 otherwise)
}

func (e *LimitError) Error() string {
	if e.Got > 0 {
		return fmt.Sprintf("mail: message %s %d exceeds the limit of %d", e.What, e.Got, e.Limit)
	}
	return fmt.Sprintf("mail: message exceeds the %s limit of %d", e.What, e.Limit)
}

func (e *LimitError) Is(target error) bool { return target == ErrLimit }

// Attachment describes one attachment seen in a message (only sheets are read).
type Attachment struct {
	Filename    string
	ContentType string
	Size        int64 // decoded bytes read (capped by Limits.MaxText for sheets)
	Sheet       bool  // looks like an order sheet (.txt, .yaml, .yml)
}

// Message is what the judge needs from one mail. Text is the order text as found (attachment
// preferred, then text/plain, then HTML made text), with CRLF turned into LF and format=flowed
// decoded; Stripped is Text as StripReply leaves it: the player's own text, line for line
// (quotes, attributions and client signatures blank; the signature and an unprefixed original
// cut), so that line n of Stripped is line n of the mail the player sent.
type Message struct {
	From        string   // the From address (lower-cased domain untouched: exactly as written)
	FromName    string   // its display name, decoded
	To          []string // To and Cc addresses
	Subject     string   // decoded (RFC 2047)
	MessageID   string   // without angle brackets
	InReplyTo   string   // first In-Reply-To id, without angle brackets
	References  []string // without angle brackets
	Date        time.Time
	ContentType string // media type of the top-level entity

	Text       string
	Stripped   string
	Flowed     bool // Text was format=flowed (RFC 3676) and is shown unwrapped
	Source     Source
	SourceName string // the attachment's file name when Source is SourceAttachment

	Attachments []Attachment
	// Encrypted: the mail is, or holds, an encrypted part (PGP/MIME multipart/encrypted,
	// S/MIME enveloped-data), which nothing here can read.
	Encrypted bool
	// Forwards are the mails attached to this one as message/rfc822 ("Forward As
	// Attachment"), each read as a mail of its own, the first maxForwards of them that
	// are readable within the limits left.
	Forwards []*Message
	Warnings []string // things read leniently (unknown charset, bad header), for the log
	Header   gomail.Header
	Size     int
	parts    int // MIME parts walked
}

// maxForwards is how many attached mails (message/rfc822) Extract reads.
const maxForwards = 3

// Extract reads a raw message with the default limits.
func Extract(raw []byte) (*Message, error) {
	return ExtractWithLimits(raw, Limits{})
}

// ExtractWithLimits reads a raw RFC 5322 message. It fails on input that is not a message at all
// (no header) and on broken limits (a *LimitError); everything else is read leniently, with
// Warnings. It never panics.
func ExtractWithLimits(raw []byte, lim Limits) (m *Message, err error) {
	lim = lim.withDefaults()
	if int64(len(raw)) > lim.MaxSize {
		return nil, &LimitError{What: "size", Limit: lim.MaxSize, Got: int64(len(raw))}
	}
	defer func() {
		// go-message is robust, but this reads hostile input: a panic must never take the judge down
		if r := recover(); r != nil {
			m, err = nil, fmt.Errorf("mail: unreadable message: %v", r)
		}
	}()
	e, release, rerr := readEntity(raw, 256<<10)
	defer release()
	if rerr != nil && e == nil {
		return nil, fmt.Errorf("mail: reading header: %w", rerr)
	}
	m = &Message{Header: gomail.Header{Header: e.Header}, Size: len(raw)}
	if rerr != nil {
		m.Warnings = append(m.Warnings, rerr.Error())
	}
	ct := m.readHeader()
	w := walker{lim: lim, m: m, top: &ct}
	if err := w.walk(e, 0, false); err != nil {
		return nil, err
	}
	m.parts = w.parts
	switch {
	case w.sheet != nil:
		m.Text, m.Source, m.SourceName, m.Flowed = w.sheet.text, SourceAttachment, w.sheet.name, w.sheet.flowed
	case w.plain != nil:
		m.Text, m.Source, m.Flowed = w.plain.text, SourcePlain, w.plain.flowed
	case w.html != nil:
		m.Text, m.Source = HTMLToText(w.html.text), SourceHTML
	default:
		m.Source = SourceNone
	}
	m.Text = normalizeText(m.Text)
	m.Stripped = StripReply(m.Text)
	return m, nil
}

// readHeader fills in m from its header and returns the top-level Content-Type as read
// (the walk reads the same field).
func (m *Message) readHeader() (ct contentType) {
	h := m.Header
	ct.mt, ct.params, ct.err = mediaType(h.Header)
	m.ContentType = ct.mt
	if from, err := addressList(h, "From"); err == nil && len(from) > 0 {
		m.From, m.FromName = from[0].Address, from[0].Name
	} else if v := h.Get("From"); v != "" {
		m.Warnings = append(m.Warnings, "unreadable From header")
		m.From = bareAddress(v)
	}
	for _, k := range []string{"To", "Cc"} {
		l, err := addressList(h, k)
		if err != nil {
			m.Warnings = append(m.Warnings, "unreadable "+k+" header")
		}
		for _, a := range l {
			m.To = append(m.To, a.Address)
		}
	}
	if s, err := h.Subject(); err == nil {
		m.Subject = s
	} else {
		m.Subject = h.Get("Subject")
		m.Warnings = append(m.Warnings, "undecodable Subject")
	}
	if !singleSpaced(m.Subject) {
		m.Subject = strings.TrimSpace(strings.Join(strings.Fields(m.Subject), " "))
	}
	if id, err := h.MessageID(); err == nil {
		m.MessageID = id
	} else {
		m.MessageID = strings.Trim(strings.TrimSpace(h.Get("Message-Id")), "<>")
	}
	if l, err := h.MsgIDList("In-Reply-To"); err == nil && len(l) > 0 {
		m.InReplyTo = l[0]
	}
	if l, err := h.MsgIDList("References"); err == nil {
		m.References = l
	}
	if d, err := date(h); err == nil {
		m.Date = d
	}
	return ct
}

// singleSpaced reports whether s is ASCII with its words one space apart and no space
// around them: as strings.Fields and Join leave it.
func singleSpaced(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 0x80 || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r':
			return false
		case c == ' ' && (i == 0 || i == len(s)-1 || s[i+1] == ' '):
			return false
		}
	}
	return true
}

// addressList is h.AddressList(k) for a field of one plain address, "<a@b>" or "a@b"
// (as nearly every mail writes From and To): dot-atoms of printable ASCII, which
// net/mail reads to the address as written, with no name; anything else goes to
// AddressList (FuzzAddressList).
func addressList(h gomail.Header, k string) ([]*gomail.Address, error) {
	v := h.Get(k)
	a := v
	if len(a) >= 2 && a[0] == '<' && a[len(a)-1] == '>' {
		a = a[1 : len(a)-1]
	}
	local, domain, ok := strings.Cut(a, "@")
	if !ok || !dotAtom(local) || !dotAtom(domain) {
		return h.AddressList(k)
	}
	return []*gomail.Address{{Address: a}}, nil
}

// dotAtom reports whether s is an RFC 5322 dot-atom of ASCII: atext, dots only
// between, as net/mail's consumeAtom takes it.
func dotAtom(s string) bool {
	if s == "" || s[0] == '.' || s[len(s)-1] == '.' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c < '!' || c > '~':
			return false
		case c == '.':
			if s[i+1] == '.' {
				return false
			}
		case strings.IndexByte(`()<>[]:;@\,"`, c) >= 0:
			return false
		}
	}
	return true
}

// mediaType is h.ContentType() for the plain value nearly every mail has, "type/subtype"
// and at most one "; name=value", all tokens (names in lower case): read to what
// mime.ParseMediaType reads, without its work for the general value (quotes,
// continuations, comments); anything else goes to ContentType (FuzzMediaType).
func mediaType(h message.Header) (string, map[string]string, error) {
	mt, name, value, ok := plainMediaType(h.Get("Content-Type"))
	if !ok {
		return h.ContentType()
	}
	params := make(map[string]string, 1)
	if name != "" {
		params[name] = value
	}
	return mt, params, nil
}

// qpAsIs reports whether quoted-printable b decodes to b itself: printable ASCII with
// no "=", in lines ended by CR LF or LF, none of them ending in a blank (which the
// decoder drops). Most text a client sends quoted-printable is so: go-message sends
// every text part so (issue 24 item 7: the decoder's buffer was a third of the bytes
// reading an order mail allocated).
func qpAsIs(b []byte) bool {
	for i, c := range b {
		switch {
		case c == '\n':
			if i > 0 && b[i-1] == ' ' {
				return false
			}
		case c == '\r':
			if i+1 == len(b) || b[i+1] != '\n' || i > 0 && b[i-1] == ' ' {
				return false
			}
		case c < ' ' || c > '~' || c == '=':
			return false
		}
	}
	return len(b) == 0 || b[len(b)-1] != ' '
}

// plainMediaType splits a Content-Type value of the plain shape mediaType reads.
func plainMediaType(v string) (mt, name, value string, ok bool) {
	mt, param, hasParam := strings.Cut(v, "; ")
	typ, sub, ok := strings.Cut(mt, "/")
	if !ok || !mediaToken(typ, false) || !mediaToken(sub, false) {
		return "", "", "", false
	}
	if hasParam {
		name, value, ok = strings.Cut(param, "=")
		if !ok || !mediaToken(name, false) || !mediaToken(value, true) {
			return "", "", "", false
		}
	}
	return mt, name, value, true
}

// asSent reports whether message.New(h, body) would read body as it is: a part that
// is not a multipart, with no transfer encoding (or 7bit, 8bit, binary, or
// quoted-printable that decodes to itself: qpAsIs) and, if it is text, in UTF-8 or
// US-ASCII, with a plain Content-Type (or none).
func asSent(h message.Header, body []byte) bool {
	switch strings.ToLower(h.Get("Content-Transfer-Encoding")) {
	case "", "7bit", "8bit", "binary":
	case "quoted-printable":
		if !qpAsIs(body) {
			return false
		}
	default:
		return false
	}
	v := h.Get("Content-Type")
	if v == "" {
		return true // message.New reads "" as no media type: neither multipart nor text
	}
	mt, name, value, ok := plainMediaType(v)
	if !ok || strings.HasPrefix(mt, "multipart/") {
		return false
	}
	if !strings.HasPrefix(mt, "text/") || name != "charset" {
		return true
	}
	switch strings.ToLower(value) {
	case "utf-8", "us-ascii":
		return true
	}
	return false
}

// mediaToken reports whether s is a token of lower-case letters (or, for a value,
// letters), digits and ".+-_".
func mediaToken(s string, value bool) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.' || c == '+' || c == '-' || c == '_' || value && 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

// contentType is a Content-Type field as message.Header.ContentType reads it.
type contentType struct {
	mt     string
	params map[string]string
	err    error
}

// readers are the buffered readers raw messages are read through, kept from one mail to
// the next: a new 4 KiB buffer a read (two a mail on intake, with Decoded) was a third of
// the bytes reading an order mail allocated (issue 14 item 10).
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 4096) }}

// readEntity is message.ReadWithOptions(bytes.NewReader(raw), maxHeader) reading through
// a pooled buffer (the same size, filled by the same reads, with the same header limit
// and error). release gives the buffer back; nothing may read the entity after it.
func readEntity(raw []byte, maxHeader int64) (e *message.Entity, release func(), err error) {
	if h, body, ok := plainHeader(raw, maxHeader); ok {
		mh, r := message.Header{Header: h}, bytes.NewReader(raw[body:])
		if asSent(mh, raw[body:]) {
			// the entity message.New makes, which reads the Content-Type only to
			// tell a multipart (its MultipartReader) from the rest
			return &message.Entity{Header: mh, Body: r}, func() {}, nil
		}
		e, err = message.New(mh, r)
		return e, func() {}, err
	}
	lr := &headerLimit{r: bytes.NewReader(raw), n: maxHeader}
	br := readers.Get().(*bufio.Reader)
	br.Reset(lr)
	release = func() {
		br.Reset(nil) // keeps no mail alive
		readers.Put(br)
	}
	h, err := textproto.ReadHeader(br)
	if err != nil {
		return nil, release, err
	}
	lr.n = math.MaxInt64
	e, err = message.New(message.Header{Header: h}, br)
	return e, release, err
}

// plainHeader is the header textproto.ReadHeader reads from raw, when raw's header is
// plain: "Name: value" lines (folded or not) with names of letters, digits and dashes,
// ending in a blank line well within maxHeader. Then it gives ReadHeader's fields, the
// same bytes as ReadHeader gives each (the lines without their line ends, each ended
// in CRLF), added by Header.AddRaw as ReadHeader adds them, and where the body starts;
// without a buffered reader, a buffer a line and ReadHeader's list of 32 fields
// (issue 24 item 7: reading the header was a third of reading an order mail). Any
// other header (a name with a blank or a bracket in it, a line with no colon, no blank
// line, a header near the limit) is for ReadHeader, and ok is false.
func plainHeader(raw []byte, maxHeader int64) (h textproto.Header, body int, ok bool) {
	// ReadHeader reads through a 4 KiB buffer from a reader of maxHeader bytes: a
	// header that ends 4 KiB before the limit never reaches it
	const maxFields = 64
	var ends [maxFields]int // where each field's lines end in raw (after their LF)
	n, at := 0, 0
	for {
		if int64(at)+4096 >= maxHeader {
			return h, 0, false
		}
		nl := bytes.IndexByte(raw[at:], '\n')
		if nl < 0 {
			return h, 0, false
		}
		line := raw[at : at+nl]
		if len(line) == 0 || len(line) == 1 && line[0] == '\r' {
			body = at + nl + 1
			break
		}
		if line[0] == ' ' || line[0] == '\t' {
			if n == 0 {
				return h, 0, false // ReadHeader's error for a first line that continues
			}
			ends[n-1] = at + nl + 1 // folded: a line of the field before
		} else {
			colon := bytes.IndexByte(line, ':')
			if colon <= 0 || n == maxFields {
				return h, 0, false
			}
			for _, c := range line[:colon] {
				if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
					return h, 0, false
				}
			}
			ends[n] = at + nl + 1
			n++
		}
		at += nl + 1
	}
	if n == 0 {
		return h, 0, false
	}
	// the fields' bytes as ReadHeader has them: each line without its LF, or its CR
	// LF, then CR LF; in one buffer, each field's share capped at its end
	buf := make([]byte, 0, body+body/8+2)
	kvs := make([][]byte, n)
	start := 0
	for i := 0; i < n; i++ {
		from := len(buf)
		for start < ends[i] {
			nl := start + bytes.IndexByte(raw[start:ends[i]], '\n')
			buf = append(append(buf, bytes.TrimSuffix(raw[start:nl], []byte("\r"))...), '\r', '\n')
			start = nl + 1
		}
		kvs[i] = buf[from:len(buf):len(buf)]
	}
	for i := n - 1; i >= 0; i-- {
		h.AddRaw(kvs[i]) // ReadHeader's order: the last field first
	}
	return h, body, true
}

// errHeaderTooBig is go-message's error for a header over the limit, word for word.
var errHeaderTooBig = errors.New("message: header exceeds maximum size")

// headerLimit is go-message's limit on the bytes read for a header: past n, reads fail.
type headerLimit struct {
	r io.Reader
	n int64
}

func (l *headerLimit) Read(p []byte) (int, error) {
	if l.n <= 0 {
		return 0, errHeaderTooBig
	}
	if int64(len(p)) > l.n {
		p = p[:l.n]
	}
	n, err := l.r.Read(p)
	l.n -= int64(n)
	return n, err
}

// dateLayout is the Date field as RFC 5322 writes it and nearly every client sends it.
const dateLayout = "Mon, 2 Jan 2006 15:04:05 -0700"

// date reads the Date field as net/mail does, the usual shape first: net/mail tries its
// layouts in turn, and the usual one comes after 24 that fail, each failure an error
// allocated (half of an order mail's allocations; issue 14 item 10). A value the usual
// layout reads whole, net/mail reads with that same layout to the same time (the layouts
// before it start with a digit, the value with a day name), so only the cost differs;
// anything else (a comment, an obsolete zone, a two-digit year) goes to net/mail.
func date(h gomail.Header) (time.Time, error) {
	if t, err := time.Parse(dateLayout, h.Get("Date")); err == nil {
		return t, nil
	}
	return h.Date()
}

// bareAddress pulls "a@b" out of a From header that net/mail could not parse.
func bareAddress(v string) string {
	if i := strings.LastIndexByte(v, '<'); i >= 0 {
		if j := strings.IndexByte(v[i:], '>'); j > 0 {
			return strings.TrimSpace(v[i+1 : i+j])
		}
	}
	return strings.TrimSpace(v)
}

type found struct {
	name, text string
	flowed     bool
}

type walker struct {
	lim                Limits
	m                  *Message
	top                *contentType // the top-level Content-Type, read with the header
	parts              int
	sheet, plain, html *found
	// Where the walk is, for a text/plain split around an inline attachment (Apple Mail's
	// plain text with a picture placed in it: text, image, text in one multipart/mixed):
	// the multipart whose parts are walked (an id, 0 for none), whether it is a
	// multipart/mixed, the one w.plain came from, and whether an inline attachment came
	// after w.plain there.
	multiparts, parent, plainIn int
	mixed, inlineAfter          bool
}

// walk visits one entity; inAlt says whether its parent is a multipart/alternative.
func (w *walker) walk(e *message.Entity, depth int, inAlt bool) error {
	w.parts++
	if w.parts > w.lim.MaxParts {
		return &LimitError{What: "parts", Limit: int64(w.lim.MaxParts)}
	}
	if depth > w.lim.MaxDepth {
		return &LimitError{What: "depth", Limit: int64(w.lim.MaxDepth)}
	}
	var mt string
	var params map[string]string
	var err error
	if depth == 0 && w.top != nil {
		mt, params, err = w.top.mt, w.top.params, w.top.err
	} else {
		mt, params, err = mediaType(e.Header)
	}
	if err != nil || mt == "" {
		mt = "text/plain" // RFC 2045 5.2: the default
		if _, ok := params["charset"]; !ok && err != nil {
			w.m.Warnings = append(w.m.Warnings, "unreadable Content-Type; read as text/plain")
		}
	}
	if encrypted(mt, params) {
		w.m.Encrypted = true
	}
	if mr := e.MultipartReader(); mr != nil {
		alt := mt == "multipart/alternative"
		parent, mixed := w.parent, w.mixed
		w.multiparts++
		w.parent, w.mixed = w.multiparts, mt == "multipart/mixed"
		defer func() { w.parent, w.mixed = parent, mixed }()
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			if p == nil {
				if err != nil {
					w.m.Warnings = append(w.m.Warnings, "broken multipart: "+err.Error())
				}
				break
			}
			if err != nil {
				w.m.Warnings = append(w.m.Warnings, err.Error())
			}
			if err := w.walk(p, depth+1, alt); err != nil {
				return err
			}
		}
		return nil
	}
	var disp string
	var dparams map[string]string
	if e.Header.Has("Content-Disposition") { // none: "" and no parameters, as ContentDisposition reads it, without its error made
		disp, dparams, _ = e.Header.ContentDisposition()
	}
	name := dparams["filename"]
	if name == "" {
		name = params["name"]
	}
	name = decodeFilename(name)
	if mt == "message/rfc822" && disp != "attachment" {
		// a forwarded message: look inside it for text, as mail clients show it inline
		inner, err := message.ReadWithOptions(e.Body, &message.ReadOptions{MaxHeaderBytes: 256 << 10})
		if inner == nil {
			w.m.Warnings = append(w.m.Warnings, "unreadable message/rfc822 part: "+err.Error())
			return nil
		}
		parent, mixed := w.parent, w.mixed
		w.multiparts++
		w.parent, w.mixed = w.multiparts, false
		defer func() { w.parent, w.mixed = parent, mixed }()
		return w.walk(inner, depth+1, false)
	}
	if mt == "message/rfc822" || mt == "message/global" {
		w.m.Attachments = append(w.m.Attachments, Attachment{Filename: name, ContentType: mt})
		if len(w.m.Forwards) >= maxForwards || w.lim.MaxParts-w.parts < 1 || w.lim.MaxDepth-depth-1 < 1 {
			return nil
		}
		b, err := io.ReadAll(io.LimitReader(e.Body, w.lim.MaxText+1))
		if err != nil || int64(len(b)) > w.lim.MaxText {
			w.m.Warnings = append(w.m.Warnings, "attached mail "+name+" not read")
			return nil
		}
		inner, err := ExtractWithLimits(b, Limits{MaxSize: w.lim.MaxText, MaxParts: w.lim.MaxParts - w.parts,
			MaxDepth: w.lim.MaxDepth - depth - 1, MaxText: w.lim.MaxText})
		if err != nil {
			w.m.Warnings = append(w.m.Warnings, "attached mail "+name+": "+err.Error())
			return nil
		}
		w.parts += inner.parts
		w.m.Forwards = append(w.m.Forwards, inner)
		return nil
	}
	attached := disp == "attachment" || (name != "" && disp != "inline")
	if attached || (name != "" && isSheetName(name)) {
		a := Attachment{Filename: name, ContentType: mt, Sheet: isSheetName(name) && sheetType(mt)}
		if a.Sheet && w.sheet == nil {
			text, n, err := w.read(e.Body)
			if err != nil {
				return err
			}
			a.Size = n
			if !strings.ContainsRune(text, 0) {
				w.sheet = &found{name: name, text: unflow(text, params), flowed: flowedPart(params)}
			} else {
				a.Sheet = false
				w.m.Warnings = append(w.m.Warnings, "attachment "+name+" is not text")
			}
		}
		w.m.Attachments = append(w.m.Attachments, a)
		return nil
	}
	if disp == "inline" && w.plain != nil && w.parent == w.plainIn && !strings.HasPrefix(mt, "text/") {
		w.inlineAfter = true // a picture placed in the text: the text goes on after it
	}
	switch mt {
	case "text/plain":
		switch {
		case w.plain == nil:
			text, _, err := w.read(e.Body)
			if err != nil {
				return err
			}
			w.plain = &found{text: unflow(text, params), flowed: flowedPart(params)}
			w.plainIn = w.parent
		case w.mixed && w.parent == w.plainIn && w.inlineAfter:
			// the text after an inline attachment, shown after it: one text, as read
			text, _, err := w.read(e.Body)
			if err != nil {
				return err
			}
			if int64(len(w.plain.text)+len(text)) > w.lim.MaxText {
				return &LimitError{What: "text", Limit: w.lim.MaxText}
			}
			if !strings.HasSuffix(w.plain.text, "\n") {
				w.plain.text += "\n"
			}
			w.plain.text += unflow(text, params)
			w.plain.flowed = w.plain.flowed || flowedPart(params)
			w.inlineAfter = false
		}
	case "text/html":
		if w.html == nil {
			text, _, err := w.read(e.Body)
			if err != nil {
				return err
			}
			w.html = &found{text: text}
		}
	}
	_ = inAlt // text/plain wins over text/html in an alternative and everywhere else alike
	return nil
}

// encrypted reports whether a part of media type mt is encrypted: PGP/MIME (RFC 3156
// 4: multipart/encrypted, which Thunderbird and K-9 send with the subject "...") or an
// S/MIME envelope (RFC 8551 3.3: application/pkcs7-mime; smime-type=enveloped-data).
func encrypted(mt string, params map[string]string) bool {
	switch mt {
	case "multipart/encrypted":
		return true
	case "application/pkcs7-mime", "application/x-pkcs7-mime":
		t := strings.ToLower(params["smime-type"])
		return t == "enveloped-data" || t == "authenveloped-data"
	}
	return false
}

// unflow decodes a format=flowed text part (RFC 3676); other text is returned as it is.
func unflow(text string, params map[string]string) string {
	if flowed, delSp := isFlowed(params); flowed {
		return DecodeFlowed(strings.ReplaceAll(text, "\r\n", "\n"), delSp)
	}
	return text
}

func flowedPart(params map[string]string) bool {
	f, _ := isFlowed(params)
	return f
}

// read reads a decoded body up to MaxText.
func (w *walker) read(r io.Reader) (string, int64, error) {
	if br, ok := r.(*bytes.Reader); ok && int64(br.Len()) <= w.lim.MaxText {
		// a body as it was sent (plainHeader's, with no transfer encoding): read
		// whole into a buffer its size, not grown to it from 512 bytes
		b := make([]byte, br.Len())
		br.Read(b)
		return bodyText(b), int64(len(b)), nil
	}
	b, err := io.ReadAll(io.LimitReader(r, w.lim.MaxText+1))
	if int64(len(b)) > w.lim.MaxText {
		return "", 0, &LimitError{What: "text", Limit: w.lim.MaxText}
	}
	if err != nil {
		// a broken base64 or QP body: keep what decoded
		w.m.Warnings = append(w.m.Warnings, "body partly undecodable: "+err.Error())
	}
	return bodyText(b), int64(len(b)), nil
}

// bodyText is a decoded body as text: UTF-16 with a byte-order mark decoded (a Notepad
// "Unicode" file), and bytes that are not UTF-8 read as Windows-1252 (fromWindows1252).
func bodyText(b []byte) string {
	if s, ok := fromUTF16BOM(b); ok {
		return s
	}
	if !utf8.Valid(b) {
		return fromWindows1252(b)
	}
	return string(b)
}

func decodeFilename(name string) string {
	if strings.Contains(name, "=?") {
		if d, err := (&mime.WordDecoder{CharsetReader: message.CharsetReader}).DecodeHeader(name); err == nil {
			name = d
		}
	}
	name = strings.TrimSpace(name)
	if name == "" {
		return ""
	}
	name = path.Base(strings.ReplaceAll(name, "\\", "/"))
	if name == "." || name == "/" {
		return ""
	}
	return name
}

func isSheetName(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".txt", ".yaml", ".yml":
		return true
	}
	return false
}

// sheetType accepts the media types mail clients give .txt and .yaml files.
func sheetType(mt string) bool {
	switch mt {
	case "text/plain", "text/yaml", "text/x-yaml", "application/yaml", "application/x-yaml",
		"application/octet-stream", "text/x-log", "text/markdown":
		return true
	}
	return strings.HasPrefix(mt, "text/")
}

// normalizeText turns CRLF and lone CR into LF and drops a byte-order mark. A run of
// CRs before an LF is one line end: text with Windows line ends pasted into a web form
// or written by a script arrives as CR CR LF, which every mail client shows as one
// line break, so the sheet's line numbers must count it as one.
//
// It reads the text once: collapsing "\r\r\n" to "\r\n" until none was left took a
// pass a CR, and a body of 200,000 CRs before one LF (a hostile mail well under the
// size limit) took minutes.
func normalizeText(s string) string {
	s = strings.TrimPrefix(s, "\uFEFF")
	if i := strings.IndexByte(s, '\r'); i >= 0 {
		var b strings.Builder
		b.Grow(len(s))
		for i >= 0 {
			b.WriteString(s[:i])
			j := i
			for j < len(s) && s[j] == '\r' {
				j++
			}
			if j < len(s) && s[j] == '\n' {
				b.WriteByte('\n') // CRs before an LF: one line end
				j++
			} else {
				for k := i; k < j; k++ {
					b.WriteByte('\n') // a lone CR is a line end of its own
				}
			}
			s = s[j:]
			i = strings.IndexByte(s, '\r')
		}
		b.WriteString(s)
		s = b.String()
	}
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s
}
