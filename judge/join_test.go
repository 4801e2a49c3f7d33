package judge

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/store"
)

// joinConfirmed sends JOIN, then the CONFIRM its reply asks for, and returns the
// CONFIRM's reply.
func (f *fixture) joinConfirmed(from, subject, body string) string {
	f.t.Helper()
	_, text := f.send(from, subject, body)
	m := confirmCode.FindStringSubmatch(text)
	if m == nil {
		f.t.Fatalf("the JOIN reply to %s has no CONFIRM line:\n%s", from, text)
	}
	_, text = f.send(from, "Re: "+subject, "CONFIRM "+m[1]+"\n")
	return text
}

// A JOIN takes no seat until the joining address confirms it (issue 14 item 6): a forged
// JOIN's code goes to an address the forger does not read; a code counts only from the
// address it went to, only once, and only for joinTTL.
func TestJoinNeedsConfirm(t *testing.T) {
	f := newFixture(t)
	boss := f.addServerGM("boss@example.test")
	f.send("boss@example.test", "new", "secret "+boss+"\nCREATE autumn course=sprint players=2\n")

	// Forged: a JOIN "from" victim@; nobody there answers. No seat, no game master notice.
	_, text := f.send("victim@example.test", "join", "JOIN autumn Forged\n")
	mustContain(t, "the forged JOIN's reply", text, "CONFIRM ", "no seat is\ntaken")
	if strings.Contains(text, "Forged") {
		t.Errorf("the reply to a stranger quotes the robot name the mail gave:\n%s", text)
	}
	code := confirmCode.FindStringSubmatch(text)[1]
	if ps := f.playersOf("autumn"); len(ps) != 0 {
		t.Fatalf("a JOIN took a seat before its CONFIRM: %+v", ps)
	}
	joinNotices := func() (n int) {
		for _, m := range f.mailsTo("boss@example.test", "gm-notice") {
			if strings.Contains(textOf(t, m), "joined game") {
				n++
			}
		}
		return n
	}
	if n := joinNotices(); n != 0 {
		t.Errorf("the game master was told of an unconfirmed JOIN (%d notices)", n)
	}
	// The forger guesses, or has the code from elsewhere: from another address it is no use.
	_, text = f.send("forger@example.test", "join", "CONFIRM "+code+"\n")
	mustContain(t, "a CONFIRM from another address", text, "Not done")
	_, text = f.send("victim@example.test", "join", "CONFIRM aaaa-bbbb-cccc-dddd\n")
	mustContain(t, "a wrong code", text, "Not done")
	if ps := f.playersOf("autumn"); len(ps) != 0 {
		t.Fatalf("a forged JOIN took a seat: %+v", ps)
	}
	// The code is stored hashed.
	if err := f.j.Store.View(context.Background(), func(tx *store.Tx) error {
		pjs, err := tx.PendingJoins("victim@example.test", f.now.Add(-time.Hour))
		if err != nil {
			return err
		}
		if len(pjs) != 1 || pjs[0].CodeHash == code || strings.Contains(pjs[0].CodeHash, code) || !f.j.Store.CheckSecret(pjs[0].CodeHash, code) {
			t.Errorf("pending joins %+v: want one, holding the code hashed", pjs)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}

	// Expired: 49 hours later the code counts for nothing.
	f.now = f.now.Add(49 * time.Hour)
	_, text = f.send("victim@example.test", "Re: join", "CONFIRM "+code+"\n")
	mustContain(t, "an expired CONFIRM", text, "Not done", "48 hours")
	if ps := f.playersOf("autumn"); len(ps) != 0 {
		t.Fatalf("an expired JOIN took a seat: %+v", ps)
	}

	// Confirmed: the seat is taken, the secret comes with the CONFIRM's reply.
	text = f.joinConfirmed("dave@example.test", "join", "JOIN autumn Robo1\n")
	mustContain(t, "the CONFIRM's reply", text, "You have joined game autumn", "Your secret is: ")
	ps := f.playersOf("autumn")
	if len(ps) != 1 || ps[0].Robot != "Robo1" || ps[0].Email != "dave@example.test" {
		t.Fatalf("after a confirmed JOIN: %+v", ps)
	}
	if joinNotices() != 1 {
		t.Errorf("the game master was not told of the confirmed JOIN")
	}

	// The game filled between JOIN and CONFIRM: the CONFIRM is refused, no third seat.
	_, text = f.send("erin@example.test", "join", "JOIN autumn Robo2\n")
	late := confirmCode.FindStringSubmatch(text)[1]
	f.joinConfirmed("frank@example.test", "join", "JOIN autumn Robo3\n")
	_, text = f.send("erin@example.test", "Re: join", "CONFIRM "+late+"\n")
	mustContain(t, "a CONFIRM for a full game", text, "Not done: game autumn is full")
	if ps := f.playersOf("autumn"); len(ps) != 2 {
		t.Errorf("players %+v, want Robo1 and Robo3", ps)
	}
}
