package rja

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rallyjudge/rallyjudge/game"
)

// withPress is a short game with press on turn lines 0 and 2: signed to one robot,
// anonymous to everyone, signed to two.
func withPress(tb testing.TB) Archive {
	tb.Helper()
	a := playGame(tb, "sprint", 3, 3, 1, 0)
	a.Turns[0].Press = []Press{{From: "Twonky", To: []string{"Zoombot"}, Text: "Shall we race\nfor flag 1?"}}
	a.Turns[2].Press = []Press{
		{From: Anonymous, Text: "Hulk is bluffing."},
		{From: "Hulk", To: []string{"Twonky", "Zoombot"}, Text: "I am not.\tReally."},
	}
	return a
}

// TestPressRoundTrip: press is written, read back field for field, and written again
// to the same bytes; the game still replays; an archive without press (the golden one,
// written before press was added) reads with none and is written to the same bytes.
func TestPressRoundTrip(t *testing.T) {
	a := withPress(t)
	b := encode(t, a)
	got, err := Read(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Turns[0].Press) != 1 || len(got.Turns[1].Press) != 0 || len(got.Turns[2].Press) != 2 {
		t.Fatalf("press per turn: %d %d %d", len(got.Turns[0].Press), len(got.Turns[1].Press), len(got.Turns[2].Press))
	}
	p := got.Turns[2].Press[1]
	if p.From != "Hulk" || strings.Join(p.To, ",") != "Twonky,Zoombot" || p.Text != "I am not.\tReally." {
		t.Fatalf("press read back: %+v", p)
	}
	if got.Turns[2].Press[0].From != Anonymous || got.Turns[2].Press[0].To != nil {
		t.Fatalf("anonymous press to everyone read back: %+v", got.Turns[2].Press[0])
	}
	if again := encode(t, got); !bytes.Equal(again, b) {
		t.Fatal("write(read(x)) differs from x for an archive with press")
	}
	if err := Replay(&got, nil, -1, nil); err != nil {
		t.Fatalf("replay of an archive with press: %v", err)
	}

	old, err := os.ReadFile(filepath.Join("testdata", "sprint-3.rja"))
	if err != nil {
		t.Fatal(err)
	}
	oa, err := Read(bytes.NewReader(old))
	if err != nil {
		t.Fatalf("an archive from before press: %v", err)
	}
	for _, tn := range oa.Turns {
		if tn.Press != nil {
			t.Fatalf("turn %d: press read from an archive without any", tn.Turn)
		}
	}
	if !bytes.Equal(encode(t, oa), old) {
		t.Fatal("an archive without press is not written back to the same bytes")
	}
}

// TestPressReadErrors: hostile press is refused with the line and what is wrong.
func TestPressReadErrors(t *testing.T) {
	good := string(encode(t, withPress(t)))
	for _, tc := range []struct {
		name, old, new, want string
	}{
		{"sender not a robot", `"from":"Hulk"`, `"from":"Mallory"`, `line 5: turn 2: press 2: from: "Mallory" is not a robot of the game`},
		{"address as sender", `"from":"Hulk"`, `"from":"hulk@example.org"`, `press 2: from: "hulk@example.org" is not a robot`},
		{"recipient not a robot", `"to":["Zoombot"]`, `"to":["Mallory"]`, `line 3: turn 0: press 1: to: "Mallory" is not a robot`},
		{"recipient twice", `"to":["Twonky","Zoombot"]`, `"to":["Twonky","Twonky"]`, `to: "Twonky" twice`},
		{"to itself", `"to":["Twonky","Zoombot"]`, `"to":["Hulk"]`, `to: "Hulk" writes to itself`},
		{"empty to", `"to":["Zoombot"]`, `"to":[]`, `to: empty`},
		{"empty text", `"text":"Hulk is bluffing."`, `"text":"  "`, `press 1: text: empty`},
		{"escape sequence", `"text":"Hulk is bluffing."`, `"text":"\u001b[2J"`, `text: control character U+001B`},
		{"C1 control", `"text":"Hulk is bluffing."`, `"text":"x\u009by"`, `text: control character U+009B`},
		{"unknown field", `"text":"Hulk is bluffing."`, `"text":"x","sender":"Zoombot"`, `line 5:`},
		{"text not a string", `"text":"Hulk is bluffing."`, `"text":7`, `line 5:`},
		{"text too long", `"text":"Hulk is bluffing."`, `"text":"` + strings.Repeat("a", MaxPressBytes+1) + `"`, `text: 65537 bytes`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(good, tc.old) {
				t.Fatalf("the archive has no %s", tc.old)
			}
			_, err := Read(strings.NewReader(strings.Replace(good, tc.old, tc.new, 1)))
			var e *Error
			if !errors.As(err, &e) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want an *Error containing %q", err, tc.want)
			}
		})
	}
	t.Run("too many", func(t *testing.T) {
		a := withPress(t)
		for len(a.Turns[1].Press) <= MaxPress {
			a.Turns[1].Press = append(a.Turns[1].Press, Press{From: "Zoombot", Text: "spam"})
		}
		if err := Write(&bytes.Buffer{}, a); err == nil || !strings.Contains(err.Error(), "turn 1: 1001 press messages") {
			t.Fatalf("write: %v", err)
		}
		lines := strings.SplitAfter(good, "\n")
		var spam strings.Builder
		for i := 0; i <= MaxPress; i++ {
			if i > 0 {
				spam.WriteByte(',')
			}
			spam.WriteString(`{"from":"Zoombot","text":"spam"}`)
		}
		lines[3] = strings.Replace(lines[3], `"hash"`, `"press":[`+spam.String()+`],"hash"`, 1)
		if _, err := Read(strings.NewReader(strings.Join(lines, ""))); err == nil || !strings.Contains(err.Error(), "line 4: turn 1: 1001 press messages") {
			t.Fatalf("read: %v", err)
		}
	})
	t.Run("write refuses bad press", func(t *testing.T) {
		a := withPress(t)
		a.Turns[2].Press[0].From = "someone@example.org"
		if err := Write(&bytes.Buffer{}, a); err == nil || !strings.Contains(err.Error(), "turn 2: press 1: from:") {
			t.Fatalf("write: %v", err)
		}
	})
}

// TestPublicPress: a stored message as the archive writes it: anonymous without its
// sender, control characters dropped, a message longer than an archive carries cut at a
// character with a note, and the result always passes Read's checks.
func TestPublicPress(t *testing.T) {
	a := withPress(t)
	for _, tc := range []struct {
		name string
		in   game.RecordPress
		from string
		text func(string) bool
	}{
		{"anonymous", game.RecordPress{From: "Hulk", Body: "psst"}, Anonymous, func(s string) bool { return s == "psst" }},
		{"signed, CRLF and escapes", game.RecordPress{From: "Hulk", Signed: true, Body: "a\r\nb\x1b[1m\u0085c\xff"}, "Hulk", func(s string) bool { return s == "a\nb[1mc\uFFFD" }},
		{"too long", game.RecordPress{From: "Zoombot", Signed: true, Body: strings.Repeat("é", MaxPressBytes)}, "Zoombot", func(s string) bool {
			return len(s) <= MaxPressBytes && utf8.ValidString(s) && strings.HasSuffix(s, " bytes longer]") && strings.HasPrefix(s, "éé")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := publicPress(&a, tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if p.From != tc.from || !tc.text(p.Text) {
				t.Fatalf("got from %q text %.80q", p.From, p.Text)
			}
			if m := checkPress(&a, &p); m != "" {
				t.Fatalf("Read would refuse it: %s", m)
			}
		})
	}
	if _, err := publicPress(&a, game.RecordPress{From: "Mallory", Signed: true, Body: "x"}); err == nil {
		t.Fatal("press from a robot not in the game exported")
	}
}
