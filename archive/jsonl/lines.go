package jsonl

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Limits every archive format reads under (docs/archive.md).
const (
	MaxHeaderBytes = 8 << 20 // the header line (RoboRally's carries its course inline)
	MaxTurnBytes   = 4 << 20 // one turn line
	MaxTurns       = 100000  // turn lines, turn 0 included
)

// Lines reads an archive line by line: every line bounded, the last one ending in a
// newline, each error naming its line.
type Lines struct {
	br *bufio.Reader
	n  int // the line last read, from 1
}

// NewLines reads r.
func NewLines(r io.Reader) *Lines { return &Lines{br: bufio.NewReaderSize(r, 64<<10)} }

// N is the number of the line last read (from 1).
func (l *Lines) N() int { return l.n }

// Next is the next line without its newline; io.EOF at the end of the input; an
// *Error for a line longer than limit or one cut short.
func (l *Lines) Next(limit int) ([]byte, error) {
	l.n++
	var buf []byte
	for {
		chunk, err := l.br.ReadSlice('\n')
		buf = append(buf, chunk...)
		if len(buf) > limit+1 {
			return nil, &Error{Line: l.n, Msg: fmt.Sprintf("line longer than %d bytes", limit)}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF {
			if len(buf) == 0 {
				return nil, io.EOF
			}
			return nil, &Error{Line: l.n, Msg: "last line does not end in a newline (the archive is cut short)"}
		}
		if err != nil {
			return nil, &Error{Line: l.n, Msg: err.Error()}
		}
		return buf[:len(buf)-1], nil
	}
}

// Magic reads the first line, which must be "MAGIC VERSION"; what says what kind of
// archive that is, for the error.
func (l *Lines) Magic(magic string, version int, what string) error {
	b, err := l.Next(64)
	if err == io.EOF {
		return &Error{Line: 1, Msg: fmt.Sprintf("empty file (want the line: %s %d)", magic, version)}
	}
	if err != nil {
		return err
	}
	name, ver, ok := strings.Cut(string(b), " ")
	if !ok || name != magic {
		return &Error{Line: 1, Col: 1, Msg: fmt.Sprintf("not %s (want the line: %s %d)", what, magic, version)}
	}
	if v, err := strconv.Atoi(ver); err != nil || v != version {
		return &Error{Line: 1, Col: len(magic) + 2, Msg: fmt.Sprintf("archive version %q (this rallyjudge reads version %d)", Clip(ver), version)}
	}
	return nil
}
