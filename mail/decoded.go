package mail

import (
	"bytes"
	"io"
	"mime"
	"strings"
	"unicode/utf8"

	"github.com/emersion/go-message"
)

// Decoded returns every piece of text a message carries, as a reader would see it: each
// header field's value with its encoded-words decoded, and each leaf part's body with its
// transfer encoding (base64, quoted-printable) and charset undone, nested parts included
// (a body in UTF-16 with a byte-order mark comes both as it is and decoded).
// It is for checks that a value (a secret) appears nowhere in a message, whatever the
// encoding hides it behind. ok is false when the message could not be walked to its end
// (then a caller must assume the worst). At most limit bytes of bodies are read in all.
func Decoded(raw []byte, limit int64) (pieces [][]byte, ok bool) {
	e, release, err := readEntity(raw, 1<<20) // message.Read's header limit
	defer release()
	if e == nil {
		return nil, false
	}
	ok = err == nil || message.IsUnknownCharset(err) || message.IsUnknownEncoding(err)
	budget := limit
	dec := &mime.WordDecoder{CharsetReader: func(charset string, input io.Reader) (io.Reader, error) { return input, nil }}
	var walk func(e *message.Entity, depth int) bool
	walk = func(e *message.Entity, depth int) bool {
		if depth > 64 {
			return false
		}
		f := e.Header.Fields()
		for f.Next() {
			v := f.Value()
			if d, err := dec.DecodeHeader(v); err == nil {
				v = d
			}
			pieces = append(pieces, []byte(v))
		}
		if mr := e.MultipartReader(); mr != nil {
			for {
				p, err := mr.NextPart()
				if err == io.EOF {
					return true
				}
				if err != nil && p == nil {
					return false
				}
				if !walk(p, depth+1) {
					return false
				}
			}
		}
		b, err := io.ReadAll(io.LimitReader(e.Body, budget+1))
		budget -= int64(len(b))
		pieces = append(pieces, b)
		if s, ok := fromUTF16BOM(b); ok {
			pieces = append(pieces, []byte(s)) // as Extract reads it (a Notepad "Unicode" file)
		}
		if t, _, _ := e.Header.ContentType(); t == "message/rfc822" || t == "message/global" {
			inner, iok := Decoded(b, budget)
			pieces = append(pieces, inner...)
			if !iok {
				return false
			}
		}
		return err == nil && budget >= 0
	}
	if !walk(e, 0) {
		ok = false
	}
	return pieces, ok
}

// AsWritten reports whether raw is a message whose Decoded pieces are its own bytes: one
// text/plain part in UTF-8 or US-ASCII, sent 7bit or 8bit (or quoted-printable with no
// "=" and nothing but printable ASCII in its body), with no encoded-words in its
// header and no byte-order mark in its body. Then a value without white space that is not
// in raw's bytes is in none of its pieces either (unfolding a header only joins lines
// with the white space that began the next), and a check for a secret need not walk the
// message (issue 24 item 7: the walk was a third of the reading of each sheet). It is
// cautious: false means only that the message must be walked.
func AsWritten(raw []byte) bool {
	if len(raw) >= 1<<20 {
		return false
	}
	var contentType, encoding []byte
	var field *[]byte // the field whose continuation lines follow, if one is kept
	var fields, types, encodings int
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
			if fields == 0 {
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
		name := line[:colon]
		value := bytes.TrimSpace(line[colon+1:])
		value = value[:len(value):len(value)] // a continuation appends to a copy, not to raw
		fields++
		field = nil
		switch {
		case bytes.EqualFold(name, []byte("content-type")):
			contentType, field = value, &contentType
			types++
		case bytes.EqualFold(name, []byte("content-transfer-encoding")):
			encoding, field = value, &encoding
			encodings++
		}
		if types > 1 || encodings > 1 {
			return false // said twice: which one a reader takes is its own choice
		}
	}
	switch enc := bytes.TrimSpace(encoding); {
	case len(enc) == 0 || lowerIs(enc, "7bit") || lowerIs(enc, "8bit"):
	case lowerIs(enc, "quoted-printable"):
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
		t, params, err := parseMediaType(string(contentType))
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

// parseMediaType is mime.ParseMediaType(v), without its work for the general value when
// v is plain (plainMediaType).
func parseMediaType(v string) (string, map[string]string, error) {
	mt, name, value, ok := plainMediaType(v)
	if !ok {
		return mime.ParseMediaType(v)
	}
	params := make(map[string]string, 1)
	if name != "" {
		params[name] = value
	}
	return mt, params, nil
}

// lowerIs reports whether strings.ToLower(string(b)) is s, a lower-case ASCII word,
// without the two strings when b is ASCII.
func lowerIs(b []byte, s string) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return strings.ToLower(string(b)) == s
		}
	}
	return bytes.EqualFold(b, []byte(s))
}
