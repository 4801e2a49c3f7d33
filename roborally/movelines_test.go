package roborally

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/orders"
)

// MoveLines tells a sheet's envelope lines without copying them (firstWords, issue 24
// item 7): it blanks the same lines as it did, kept here as it was.

// moveLinesBefore is Kind.MoveLines as it was.
func moveLinesBefore(text string) string {
	lines := strings.Split(text, "\n")
	// between markers (#orders ... #end) only the lines inside are the sheet's, as the
	// envelope was read: a greeting above or thanks below is not a move
	first, last := orders.Block(text)
	above := first == 0 // a greeting above a sheet without markers is skipped
	for i, l := range lines {
		if i < first || i >= last {
			lines[i] = ""
			continue
		}
		if above && strings.TrimSpace(l) != "" {
			if orders.IsGreeting(l) {
				lines[i] = ""
				continue
			}
			above = false
		}
		f := strings.Fields(strings.ToLower(l))
		if len(f) == 0 {
			continue
		}
		// a header is a key and its value ("pass" alone is a move of some games, not a
		// password; "pass   # nothing is legal" is a move with a comment: "#" starts no
		// value)
		if w := strings.TrimSuffix(f[0], ":"); orders.IsHeaderKey(w) && len(f) > 1 && !strings.HasPrefix(f[1], "#") || w == "#orders" || w == "#end" {
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}

var moveLineCases = []string{
	"robot Zoombot", "Robot: Zoombot", "ROBOT Zoombot", "robot", "robot:", "robot # the bot", "robot #x", "robot\t#x",
	"secret k7dm-3xqp-9wtr-hzv4", "SECRET: k7dm", "pass", "pass   # nothing is legal", "Pass x", "pw: x", "game spring",
	"turn 3", "Turn: 3", "player Zoe", "#orders", "#ORDERS", "#end", "#End now", "#orders\u00a0x", "robot\u00a0Zoombot",
	"ROBOT\u0085Zoombot", "\u212aROBOT x", "robot\vZoombot", "robot\fx", "  robot  Zoombot  ", "\trobot\tZoe\r",
	"1: P490", "P490 P670", "if damage > 4 then power down", "Hi Zoe,", "Hello", "--- orders ---", "--- end ---",
	"> robot Zoombot", "", " ", "\r", "robots x", "bot x", "round 2", "gamex y", "İ robot x", "robot: #x",
}

func TestMoveLinesAsBefore(t *testing.T) {
	check := func(text string) {
		t.Helper()
		if got, want := (Kind{}).MoveLines(text), moveLinesBefore(text); got != want {
			t.Errorf("MoveLines(%q) = %q, was %q", text, got, want)
		}
	}
	for _, a := range moveLineCases {
		for _, b := range moveLineCases {
			check(a + "\n" + b + "\nP490\n")
			check("Hello\n" + a + "\r\n" + b)
		}
	}
	files, _ := filepath.Glob("../orders/testdata/*/*")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil && len(b) < orders.MaxSize {
			check(string(b))
		}
	}
}

func FuzzMoveLinesAsBefore(f *testing.F) {
	for i, c := range moveLineCases {
		f.Add(c + "\n" + moveLineCases[(i*5)%len(moveLineCases)] + "\nP490")
	}
	f.Fuzz(func(t *testing.T, text string) {
		if got, want := (Kind{}).MoveLines(text), moveLinesBefore(text); got != want {
			t.Fatalf("MoveLines(%q) = %q, was %q", text, got, want)
		}
	})
}
