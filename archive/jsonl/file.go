package jsonl

import (
	"fmt"
	"io"
)

// Format is the shape every archive format of the judge shares: a magic line, a header
// line announcing how many turn lines follow, then the turn lines. H is the header (it
// holds the turns read), T a turn.
type Format[H, T any] struct {
	Magic   string
	Version int
	What    string // the file in words, for the magic line's error: "a rallyjudge archive"
	// Count is how many turn lines the header announces.
	Count func(*H) int
	// Turns is where the header keeps the turns read: each is checked with those
	// before it in place.
	Turns func(*H) *[]T
	// CheckHeader and CheckTurn say what is wrong with a line ("" nothing); CheckTurn is
	// given the turn's index.
	CheckHeader func(*H) string
	CheckTurn   func(*H, *T, int) string
}

// ReadFile reads a file of format f, every line decoded strictly and checked; an error
// names the line (and the column) and says what is wrong.
func ReadFile[H, T any](r io.Reader, f Format[H, T]) (H, error) {
	var h, zero H
	l := NewLines(r)
	if err := l.Magic(f.Magic, f.Version, f.What); err != nil {
		return zero, err
	}
	hdr, err := l.Next(MaxHeaderBytes)
	if err == io.EOF {
		return zero, &Error{Line: 2, Msg: "no header line"}
	}
	if err != nil {
		return zero, err
	}
	if err := Decode(hdr, &h); err != nil {
		return zero, &Error{Line: l.N(), Col: err.Col, Msg: "header: " + err.Msg}
	}
	if msg := f.CheckHeader(&h); msg != "" {
		return zero, &Error{Line: l.N(), Msg: "header: " + msg}
	}
	turns, count := f.Turns(&h), f.Count(&h)
	for {
		b, err := l.Next(MaxTurnBytes)
		if err == io.EOF {
			break
		}
		if err != nil {
			return zero, err
		}
		n := len(*turns)
		if n >= count {
			return zero, &Error{Line: l.N(), Msg: fmt.Sprintf("more turn lines than the %d the header announces", count)}
		}
		var t T
		if err := Decode(b, &t); err != nil {
			return zero, &Error{Line: l.N(), Col: err.Col, Msg: fmt.Sprintf("turn %d: %s", n, err.Msg)}
		}
		if msg := f.CheckTurn(&h, &t, n); msg != "" {
			return zero, &Error{Line: l.N(), Msg: fmt.Sprintf("turn %d: %s", n, msg)}
		}
		*turns = append(*turns, t)
	}
	if n := len(*turns); n != count {
		return zero, &Error{Line: l.N(), Msg: fmt.Sprintf("%d turn lines but the header announces %d (the archive is cut short)", n, count)}
	}
	return h, nil
}
