package rja

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
	f.Add(encode(f, withPress(f)))
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

// TestHeaderEdits: an archive whose header was edited after it was written (a pit
// turned into floor, other rules, another seed…) is refused on replay, naming what
// differs; one written before sums were added still reads and replays.
func TestHeaderEdits(t *testing.T) {
	read := func(path string) Archive {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		a, err := Read(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	pitToFloor := func(a *Archive) {
		for i, b := range a.Course.Boards {
			if j := strings.Index(b.Text, "\nX "); j >= 0 {
				a.Course.Boards[i].Text = b.Text[:j+1] + "." + b.Text[j+2:]
				return
			}
		}
		t.Fatal("no pit at the start of a row to turn into floor")
	}
	for _, tc := range []struct {
		name  string
		edit  func(*Archive)
		parts string
		want  string
	}{
		{"pit into floor", pitToFloor, "[course]", "the course differs from the one the turns were played on"},
		{"course file", func(a *Archive) { a.Course.Text = strings.Replace(a.Course.Text, "flag 2 at 0,7", "flag 2 at 1,7", 1) }, "[course]", "the course differs"},
		{"rules", func(a *Archive) { a.Rules = json.RawMessage(`{"BaseLives":9}`) }, "[rules]", "the rules differ"},
		{"seed and robots", func(a *Archive) { a.Seed++; a.Robots[0], a.Robots[1] = a.Robots[1], a.Robots[0] }, "[seed robots]", "the seed differs from the one the turns were played with; the robots differ"},
		{"options", func(a *Archive) { a.Options = a.Options[1:] }, "[options]", "the option deck differs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := read(filepath.Join("testdata", "sprint-3.rja"))
			if err := Replay(&a, nil, -1, nil); err != nil {
				t.Fatalf("unedited: %v", err)
			}
			tc.edit(&a)
			err := Replay(&a, nil, -1, nil)
			var se *SetupError
			if !errors.As(err, &se) {
				t.Fatalf("replay after the edit: %v, want a *SetupError", err)
			}
			if fmt.Sprint(se.Parts) != tc.parts || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q (parts %v), want %s and %q", err, se.Parts, tc.parts, tc.want)
			}
		})
	}
	t.Run("without sums", func(t *testing.T) {
		a := read(filepath.Join("testdata", "sprint-3-nosums.rja"))
		if a.Sums != nil {
			t.Fatal("sums read from an archive that has none")
		}
		if err := Replay(&a, nil, -1, nil); err != nil {
			t.Fatalf("an archive without sums: %v", err)
		}
		// Written again, it gets its sums, and they hold.
		b := encode(t, a)
		a2, err := Read(bytes.NewReader(b))
		if err != nil || a2.Sums == nil {
			t.Fatalf("rewritten: sums %v, %v", a2.Sums, err)
		}
		if err := a2.CheckSums(); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("bad sum", func(t *testing.T) {
		b, _ := os.ReadFile(filepath.Join("testdata", "sprint-3.rja"))
		b = bytes.Replace(b, []byte(`"sums":{"course":"`), []byte(`"sums":{"course":"Z`), 1)
		if _, err := Read(bytes.NewReader(b)); err == nil || !strings.Contains(err.Error(), "line 2: header: sums: course: want 64") {
			t.Fatalf("read: %v", err)
		}
	})
}
