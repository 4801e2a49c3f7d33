package mail

import (
	"io"
	"mime"

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
