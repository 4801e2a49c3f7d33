package jsonl

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// TestLinesAndMagic: the first line must be "MAGIC VERSION"; every line is bounded and
// ends in a newline; each error is an *Error naming the line (and column).
func TestLinesAndMagic(t *testing.T) {
	for _, c := range []struct {
		name, text string
		limit      int
		want       string // "" reads every line
	}{
		{"good", "m 1\n{}\n{}\n", 10, ""},
		{"empty", "", 10, "line 1: empty file (want the line: m 1)"},
		{"other magic", "x 1\n", 10, "line 1:1: not an m archive (want the line: m 1)"},
		{"no version", "m\n", 10, "line 1:1: not an m archive"},
		{"other version", "m 2\n", 10, `line 1:3: archive version "2" (this rallyjudge reads version 1)`},
		{"magic line too long", "m " + strings.Repeat("1", 100) + "\n", 10, "line 1: line longer than 64 bytes"},
		{"line too long", "m 1\n" + strings.Repeat("x", 11) + "\n", 10, "line 2: line longer than 10 bytes"},
		{"cut short", "m 1\n{}", 10, "line 2: last line does not end in a newline"},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := NewLines(strings.NewReader(c.text))
			err := l.Magic("m", 1, "an m archive")
			for err == nil {
				_, err = l.Next(c.limit)
			}
			if err == io.EOF {
				if c.want != "" {
					t.Fatalf("read to the end, want %q", c.want)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) || err.Error() != c.want && !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("got %v, want an *Error %q", err, c.want)
			}
		})
	}
}

// TestDecode: one JSON object a line, strictly: unknown fields, other types and
// anything after the object are errors with the column.
func TestDecode(t *testing.T) {
	type v struct {
		A int `json:"a"`
	}
	for _, c := range []struct {
		line string
		col  int
		msg  string // "" decodes
	}{
		{`{"a":1}`, 0, ""},
		{`{"a":1,"b":2}`, 0, `unknown field "b"`},
		{`{"a":"x"}`, 8, "a: want int"},
		{`{"a":1} {}`, 9, "more after the JSON object"},
		{`{"a":`, 0, "unexpected EOF"},
		{``, 0, "empty line"},
		{`{"a":1,}`, 8, "bad JSON"},
	} {
		var x v
		err := Decode([]byte(c.line), &x)
		switch {
		case c.msg == "" && err != nil:
			t.Errorf("%q: %v", c.line, err.Msg)
		case c.msg != "" && (err == nil || !strings.Contains(err.Msg, c.msg) || err.Col != c.col):
			t.Errorf("%q: got %+v, want column %d and %q", c.line, err, c.col, c.msg)
		}
	}
}

func TestCheckNameAndHash(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"Twonky", ""},
		{"", "empty"},
		{strings.Repeat("x", 65), "longer than 64 bytes"},
		{"a\xffb", "invalid UTF-8"},
		{"a\u202Eb", "not allowed in names"},
	} {
		if got := CheckName(c.name); c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("CheckName(%q) = %q, want %q", c.name, got, c.want)
		}
	}
	if h := Hash([]byte("x")); !IsHash(h) || IsHash(strings.ToUpper(h)) || IsHash(h[1:]) {
		t.Errorf("Hash and IsHash disagree: %q", h)
	}
}

// FuzzLines: any input is read to its end or to an *Error, never a panic, and no line
// returned is longer than the limit.
func FuzzLines(f *testing.F) {
	f.Add([]byte("m 1\n{\"a\":1}\n"))
	f.Add([]byte("m 1\n{}"))
	f.Fuzz(func(t *testing.T, b []byte) {
		l := NewLines(strings.NewReader(string(b)))
		err := l.Magic("m", 1, "an m archive")
		for err == nil {
			var line []byte
			line, err = l.Next(32)
			if err == nil {
				if len(line) > 32 {
					t.Fatalf("line %d: %d bytes past the limit of 32", l.N(), len(line))
				}
				var x map[string]any
				_ = Decode(line, &x)
			}
		}
		var e *Error
		if err != io.EOF && !errors.As(err, &e) {
			t.Fatalf("error %v is not an *Error", err)
		}
	})
}
