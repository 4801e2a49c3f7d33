package archive

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestReadErrors: hostile and broken archives are refused with the line (and column)
// where they went wrong.
func TestReadErrors(t *testing.T) {
	good := encode(t, playGame(t, "sprint", 2, 3, 1, 0))
	lines := strings.SplitAfter(string(good), "\n")
	lines = lines[:len(lines)-1] // the empty string after the last newline
	join := func(ls ...string) string { return strings.Join(ls, "") }
	hdr := lines[1]
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", "", "line 1: empty file"},
		{"not an archive", "hello\n", "line 1:1: not a rallyjudge archive"},
		{"newer version", "rallyjudge-archive 2\n", "line 1:20: archive version \"2\""},
		{"no header", "rallyjudge-archive 1\n", "line 2: no header line"},
		{"header not JSON", "rallyjudge-archive 1\n{\"game\": x}\n", "line 2:10: header: bad JSON"},
		{"unknown field", "rallyjudge-archive 1\n{\"gme\":1}\n", "line 2: header: json: unknown field \"gme\""},
		{"wrong type", "rallyjudge-archive 1\n{\"seed\":\"x\"}\n", "line 2:11: header: seed: want int64"},
		{"cut short", join(lines[:4]...), "line 5: 2 turn lines but the header announces 4"},
		{"no final newline", strings.TrimSuffix(string(good), "\n"), "line 6: last line does not end in a newline"},
		{"extra turn", join(append(lines, lines[5])...), "line 7: more turn lines than the 4"},
		{"turn out of order", join(lines[0], lines[1], lines[2], lines[4], lines[3], lines[5]), "line 4: turn 1: numbered 2"},
		{"bad hash", join(lines[0], lines[1], strings.Replace(lines[2], `"hash":"`, `"hash":"X`, 1)), "line 3: turn 0: hash: want 64"},
		{"robots missing", join(lines[0], strings.Replace(hdr, `"robots":["Twonky","Zoombot"]`, `"robots":[]`, 1)), "line 2: header: robots: 0"},
		{"robot twice", join(lines[0], strings.Replace(hdr, `"robots":["Twonky","Zoombot"]`, `"robots":["Twonky","Twonky"]`, 1)), "robot \"Twonky\" twice"},
		{"orders for another robot", join(lines[0], hdr, lines[2], strings.Replace(lines[3], `"robot":"Zoombot"`, `"robot":"Hulk"`, 1)), "line 4: turn 1: orders 2 are for \"Hulk\""},
		{"secret in a sheet", join(lines[0], hdr, lines[2], strings.Replace(lines[3], `"sheet":{`, `"sheet":{"secret":"hunter2",`, 1)), "line 4: turn 1: Twonky: orders: carries a secret"},
		{"odd missed policy", join(lines[0], hdr, lines[2], strings.Replace(lines[3], `"robot":"Zoombot"`, `"robot":"Zoombot","missed":"nap"`, 1)), `missed: "nap"`},
		{"header too long", "rallyjudge-archive 1\n{\"name\":\"" + strings.Repeat("x", MaxHeaderBytes) + "\"}\n", "line 2: line longer than"},
		{"trailing data", join(lines[0], strings.TrimSuffix(hdr, "\n")+" {}\n"), "line 2:"},
		{"control character in a name", join(lines[0], strings.Replace(hdr, `"Twonky"`, `"Two\u0007nky"`, 1)), "control character"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.in))
			if err == nil {
				t.Fatalf("read accepted it")
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q, want it to contain %q", err, tc.want)
			}
		})
	}
	e := &Error{File: "game.rja", Line: 3, Col: 7, Msg: "x"}
	if e.Error() != "game.rja:3:7: x" {
		t.Fatalf("error with file: %q", e)
	}
}

func FuzzRead(f *testing.F) {
	good := encode(f, playGame(f, "sprint", 2, 3, 1, 0))
	f.Add(good)
	f.Add([]byte("rallyjudge-archive 1\n"))
	f.Add([]byte("rallyjudge-archive 1\n{}\n"))
	f.Add(bytes.Replace(good, []byte(`"turns":4`), []byte(`"turns":2`), 1))
	f.Add(bytes.Replace(good, []byte(`"sheet":{`), []byte(`"sheet":{"orders":[{"if":{"all":[{"any":[{}]}]},"then":{"do":"repair"}}],`), 1))
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := Read(bytes.NewReader(b))
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Line < 1 {
				t.Fatalf("error without a line: %v", err)
			}
			return
		}
		// What Read accepts, Write writes and Read reads back the same.
		out := encode(t, a)
		b2, err := Read(bytes.NewReader(out))
		if err != nil {
			t.Fatalf("re-reading what was written: %v", err)
		}
		if again := encode(t, b2); !bytes.Equal(again, out) {
			t.Fatalf("write is not stable")
		}
		// Replaying hostile input fails cleanly (no panic); only short ones, to keep it fast.
		if len(a.Turns) <= 8 {
			_ = Replay(&a, nil, -1, nil)
		}
	})
}
