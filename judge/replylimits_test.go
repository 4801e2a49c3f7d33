package judge

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/store"
)

// syncBuffer is a log sink the judge may write from any goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestReplyLimitsNeverLockOutRealUsers: the reply limits count by who and what (issue 21
// item 1). Before, one count of replies to all unknown addresses (100 an hour) withheld a
// newcomer's JOIN code on a busy hour, the loop rule (30 mails an hour) withheld a game
// master's own replies, and the same-subject rule dropped the 6th to 8th answers to a
// player correcting a sheet.
func TestReplyLimitsNeverLockOutRealUsers(t *testing.T) {
	uid := uint32(20000)
	send := func(t *testing.T, j *Judge, from, subject, body string) {
		t.Helper()
		uid++
		if err := j.HandleMessage(context.Background(), 1, uid, rawMail(from, subject, body)); err != nil {
			t.Fatal(err)
		}
	}
	count := func(t *testing.T, j *Judge, to string) int {
		n, _, _ := outboxTo(t, j, to)
		return n
	}
	t.Run("a newcomer's JOIN and CONFIRM after a flood to strangers", func(t *testing.T) {
		f := newFixture(t)
		boss := f.addServerGM("boss@example.test")
		f.send("boss@example.test", "new", "secret "+boss+"\nCREATE autumn course=sprint players=2\n")
		j := f.j
		// 150 forged HELPs to 150 addresses of one provider, and 150 to another's
		for i := 0; i < 150; i++ {
			send(t, j, fmt.Sprintf("v%d@flood.test", i), "help", "HELP\n")
			send(t, j, fmt.Sprintf("w%d@other.test", i), "help", "HELP\n")
		}
		flood := 0
		for i := 0; i < 150; i++ {
			flood += count(t, j, fmt.Sprintf("v%d@flood.test", i))
		}
		if flood != j.Replies.PerDomain {
			t.Errorf("150 forged HELPs to one domain: %d replies, want %d", flood, j.Replies.PerDomain)
		}
		// f.send fails the test when a mail gets no reply
		for i, who := range []string{"new@flood.test", "new@third.test"} {
			text := f.joinConfirmed(who, "join", fmt.Sprintf("JOIN autumn Newbot%d\n", i))
			if !strings.Contains(text, "You have joined game autumn") {
				t.Errorf("%s's CONFIRM after the flood:\n%s", who, text)
			}
		}
		if ps := f.playersOf("autumn"); len(ps) != 2 {
			t.Errorf("after the flood, two newcomers' JOINs took %d seats, want 2", len(ps))
		}
	})
	t.Run("an observer after a flood to its domain", func(t *testing.T) {
		j, _, _ := livenessGame(t, nil)
		if err := j.Store.Tx(context.Background(), func(tx *store.Tx) error {
			g, err := tx.GameByTag("live")
			if err != nil {
				return err
			}
			_, err = tx.AddObserver(g.ID, "watcher@flood.test", j.now())
			return err
		}); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 120; i++ {
			send(t, j, fmt.Sprintf("v%d@flood.test", i), "help", "HELP\n")
		}
		send(t, j, "watcher@flood.test", "[RR live] who", "WHOGAME\n")
		if n := count(t, j, "watcher@flood.test"); n != 1 {
			t.Errorf("an observer's WHOGAME after a flood to its domain: %d replies, want 1", n)
		}
	})
	t.Run("a game master's own commands", func(t *testing.T) {
		j, _, secrets := livenessGame(t, nil)
		for i := 0; i < 45; i++ {
			send(t, j, "gm@example.test", fmt.Sprintf("[RR live] status %d", i), "secret "+secrets[""]+"\nSTATUS\n")
		}
		if n := count(t, j, "gm@example.test"); n < 45 {
			t.Errorf("45 STATUS from the game master within the hour: %d replies, want 45", n)
		}
	})
	t.Run("a player correcting a sheet", func(t *testing.T) {
		j, _, secrets := livenessGame(t, nil)
		before := count(t, j, "alice@example.test")
		for i := 0; i < 8; i++ {
			send(t, j, "alice@example.test", "[RR live] orders", "robot Alice\nsecret "+secrets["Alice"]+"\n1: P999\n")
		}
		if n := count(t, j, "alice@example.test") - before; n != 8 {
			t.Errorf("8 corrections with one subject: %d replies, want 8", n)
		}
	})
	t.Run("a withheld reply is logged and counted in the game master's STATUS", func(t *testing.T) {
		j, _, secrets := livenessGame(t, nil)
		var buf syncBuffer
		j.Log = slog.New(slog.NewTextHandler(&buf, nil))
		// an auto-responder at Alice's address: no secret, one subject
		for i := 0; i < 9; i++ {
			send(t, j, "alice@example.test", "[RR live] Out of office", "I am away.\n")
		}
		withheld := 9 - j.Replies.LoopSubjects
		log := buf.String()
		if got := strings.Count(log, `msg="reply withheld"`); got != withheld {
			t.Errorf("%d withheld replies logged, want %d:\n%s", got, withheld, log)
		}
		next := regexp.MustCompile(`rule="loop: one subject" .*next_allowed=(\S+)`).FindStringSubmatch(log)
		if next == nil {
			t.Fatalf("the log does not say which rule and when next:\n%s", log)
		}
		if at, err := time.Parse(time.RFC3339, next[1]); err != nil || !at.After(j.now()) || at.After(j.now().Add(j.Replies.Window)) {
			t.Errorf("next allowed %q: %v; want within the window ahead", next[1], err)
		}
		send(t, j, "gm@example.test", "[RR live] status", "secret "+secrets[""]+"\nSTATUS\n")
		_, _, texts := outboxTo(t, j, "gm@example.test")
		want := fmt.Sprintf("Replies withheld by the reply limits today (UTC): %d to mail about this game, %d in all", withheld, withheld)
		if last := texts[len(texts)-1]; !strings.Contains(last, want) {
			t.Errorf("the game master's STATUS lacks %q:\n%s", want, last)
		}
	})
}
