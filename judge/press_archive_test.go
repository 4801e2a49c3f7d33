package judge

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/rallyjudge/rallyjudge/roborally/rja"
	"github.com/rallyjudge/rallyjudge/store"
)

// TestPressByMailInArchive: press sent by mail goes into the game's archive as the
// public saw it: on the line of the turn before the one it was sent in, anonymous
// without its sender, with no address and no secret in the archive's bytes.
func TestPressByMailInArchive(t *testing.T) {
	f := newFixture(t)
	f.send("twonky@example.test", "[RR spring] p", "secret "+f.secrets["Twonky"]+
		"\nPRESS TO Zoombot ANON\nMeet me at the flag.\nsecret "+f.secrets["Twonky"]+"\nENDPRESS\n")
	f.send("hulk@example.test", "[RR spring] p", "secret "+f.secrets["Hulk"]+"\nPRESS TO ALL SIGNED\nGood luck, all.\nENDPRESS\n")
	var buf bytes.Buffer
	err := f.j.Store.View(context.Background(), func(tx *store.Tx) error {
		g, err := tx.GameByTag("spring")
		if err != nil {
			return err
		}
		a, err := f.j.roboRallyArchive(tx, g) // RoboRally's archive on either path
		if err != nil {
			return err
		}
		return rja.Write(&buf, a)
	})
	if err != nil {
		t.Fatal(err)
	}
	a, err := rja.Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	ps := a.Turns[0].Press
	if len(ps) != 2 {
		t.Fatalf("turn 0's line: %d press, want 2 (sent during turn 1)", len(ps))
	}
	if ps[0].From != rja.Anonymous || strings.Join(ps[0].To, ",") != "Zoombot" || !strings.HasPrefix(ps[0].Text, "Meet me at the flag.") {
		t.Errorf("anonymous press: %+v", ps[0])
	}
	if ps[1].From != "Hulk" || ps[1].To != nil || ps[1].Text != "Good luck, all." {
		t.Errorf("signed press to all: %+v", ps[1])
	}
	line := strings.Split(buf.String(), "\n")[2]
	for _, leak := range []string{"Twonky", "@", f.secrets["Twonky"], f.secrets["Hulk"]} {
		if strings.Contains(line, leak) {
			t.Errorf("the press line holds %q: %s", leak, line)
		}
	}
}
