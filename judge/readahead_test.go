package judge

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/game"
	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// TestMovesReadAheadAreJudgedAsRead: a batch reads each sheet's move beside the writer
// (readAhead, game.MoveReader), the position checks what was read (game.ReadChecker)
// and the acknowledgement is rendered beside the writer too (gameAck, lateAck); what
// the batch stores and answers is what judging each mail alone, reading its move when
// judged, stores and answers: accepted sheets, a fold, sheets with errors, a greeting
// and markers, an ORDERS command, an attached .yaml and .txt, a player who observes.
func TestMovesReadAheadAreJudgedAsRead(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	judgeFor := func() (*Judge, map[string]string) {
		j := freshJudge(t)
		clock := &fakeClock{t: at}
		j.Now = clock.Now
		spec := GameSpec{Tag: "live", Settings: map[string]string{"course": "sprint"}, Seed: 3, GMEmail: "gm@example.test",
			Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24},
			Players:  []PlayerSpec{{Robot: "Alice", Email: "alice@example.test"}, {Robot: "Bob", Email: "bob@example.test"}}}
		secrets, err := j.CreateGame(context.Background(), spec)
		if err != nil {
			t.Fatal(err)
		}
		// Bob observes the game too: his acknowledgements end in the observer's footer,
		// after the text a batch renders beside the writer (gameAck)
		if err := j.Store.Tx(context.Background(), func(tx *store.Tx) error {
			g, err := tx.GameByTag("live")
			if err != nil {
				return err
			}
			_, err = tx.AddObserver(g.ID, "bob@example.test", at)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return j, secrets
	}
	attached := func(from, name, body string) []byte {
		return []byte("From: " + from + "\r\nTo: judge@example.test\r\nSubject: [RR live] orders\r\nMIME-Version: 1.0\r\n" +
			"Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nattached\r\n" +
			"--b\r\nContent-Type: application/octet-stream; name=\"" + name + "\"\r\nContent-Disposition: attachment; filename=\"" + name + "\"\r\n\r\n" +
			strings.ReplaceAll(body, "\n", "\r\n") + "\r\n--b--\r\n")
	}
	mails := func(j *Judge, secrets map[string]string) [][]byte {
		alice, aliceProg := programSheet(t, j, secrets, "Alice", 0, 77)
		_, bobProg := programSheet(t, j, secrets, "Bob", 1, 78)
		a, b := secrets["Alice"], secrets["Bob"]
		return [][]byte{
			rawMail("alice@example.test", "[RR live] orders", alice),
			rawMail("alice@example.test", "[RR live] orders", "robot Alice\nsecret "+a+"\nif damage > 4 then power down\n"),
			rawMail("bob@example.test", "[RR live] orders", "robot Bob\nsecret "+b+"\nP999 P1 P2\nmove 3 please\n"),
			rawMail("bob@example.test", "[RR live] orders", "Hi judge,\n\n#orders\nrobot Bob\nsecret "+b+"\nif damage > 2 then power down\n#end\n\nthanks\n"),
			rawMail("alice@example.test", "[RR live] orders", "secret "+a+"\nrobot Alice\nORDERS\n"+aliceProg+"\n"),
			attached("alice@example.test", "orders.txt", "robot Alice\nsecret "+a+"\n"+aliceProg+"\nif damage > 1 then power down\n"),
			rawMail("alice@example.test", "[RR live] orders", "robot Alice\nsecret "+a+"\nturn 9\n"+aliceProg+"\n"),
			// the last program in: the turn is played
			attached("bob@example.test", "orders.yaml", "robot: Bob\nsecret: "+b+"\nprogram: ["+strings.ReplaceAll(bobProg, " ", ", ")+"]\norders:\n  - power down if damage > 3\n"),
		}
	}
	// what a judge stored and answered: each version and each reply's text
	seen := func(j *Judge) []string {
		var out []string
		_ = j.Store.View(context.Background(), func(tx *store.Tx) error {
			g, err := tx.GameByTag("live")
			if err != nil {
				t.Fatal(err)
			}
			if g.CurrentTurn != 2 {
				t.Errorf("the game is at turn %d, want 2: the last program in plays turn 1", g.CurrentTurn)
			}
			for _, robot := range []string{"Alice", "Bob"} {
				vs, err := tx.OrderVersions(g.ID, 1, robot)
				if err != nil {
					t.Fatal(err)
				}
				for _, v := range vs {
					out = append(out, fmt.Sprintf("version of %s: valid %v errors %q parsed %s", robot, v.Valid, v.Errors, v.Parsed))
				}
			}
			ms, err := tx.OutboxByGame(g.ID, -1)
			if err != nil {
				t.Fatal(err)
			}
			// a batch stores its acknowledgements last (ackQueue): in the order of the mails
			slices.SortFunc(ms, func(a, b store.OutboxMail) int { return strings.Compare(a.MessageID, b.MessageID) })
			for _, m := range ms {
				if m.Turn == 1 && (m.Kind == "ack" || m.Kind == "reject" || m.Kind == "reply") {
					ex, err := mail.Extract(m.Raw)
					if err != nil {
						t.Fatal(err)
					}
					out = append(out, m.MessageID+": "+m.Kind+" to "+strings.Join(m.To, ",")+":\n"+ex.Text)
				}
			}
			return nil
		})
		return out
	}

	jb, sb := judgeFor()
	var batch []mail.Fetched
	for i, raw := range mails(jb, sb) {
		batch = append(batch, mail.Fetched{UID: uint32(10 + i), Raw: raw, Received: at})
	}
	for i, err := range jb.HandleBatch(context.Background(), 1, batch) {
		if err != nil {
			t.Fatalf("batch mail %d: %v", i, err)
		}
	}
	j1, s1 := judgeFor()
	for i, raw := range mails(j1, s1) {
		if err := j1.HandleMessage(context.Background(), 1, uint32(10+i), raw); err != nil {
			t.Fatalf("mail %d: %v", i, err)
		}
	}
	got, want := seen(jb), seen(j1)
	footer := strings.TrimSpace(jb.observerFooter("live"))
	if !slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, "ack to bob@") && strings.Contains(s, footer) }) {
		t.Errorf("no acknowledgement to Bob in the batch ends in the observer's footer %q", footer)
	}
	if len(want) < 16 {
		t.Fatalf("judged alone, the mails left %d versions and replies, want 8 of each:\n%s", len(want), strings.Join(want, "\n"))
	}
	sameLines(t, got, "in a batch", want, "judged alone")
}

// ackerFunc is a game.Acknowledger made of a function.
type ackerFunc func(seat int, text string, t game.AckTurn) (string, error)

func (f ackerFunc) Acknowledge(seat int, text string, t game.AckTurn) (string, error) {
	return f(seat, text, t)
}

// TestLateAckOnlyForAWholeTemplate: a batch renders an acknowledgement beside the writer
// only when the game's reply is one template rendered once, nothing added; the render
// it keeps gives what rendering at once gives.
func TestLateAckOnlyForAWholeTemplate(t *testing.T) {
	render := func(name string, data any) (string, error) { return fmt.Sprintf("%s of %v\n", name, data), nil }
	tests := []struct {
		name string
		ack  ackerFunc
		late bool
	}{
		{"the template whole", func(_ int, _ string, t game.AckTurn) (string, error) { return t.Render("ack.txt.tmpl", t.Player) }, true},
		{"text added", func(_ int, _ string, t game.AckTurn) (string, error) {
			s, err := t.Render("ack.txt.tmpl", t.Player)
			return s + "P.S.\n", err
		}, false},
		{"two templates", func(_ int, _ string, t game.AckTurn) (string, error) {
			a, _ := t.Render("a.txt.tmpl", 1)
			_, err := t.Render("b.txt.tmpl", 2)
			return a, err
		}, false},
		{"its own words", func(int, string, game.AckTurn) (string, error) { return "thanks\n", nil }, false},
		{"no reply", func(int, string, game.AckTurn) (string, error) { return "", nil }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			turn := game.AckTurn{Player: "Ada", Render: render}
			r, late := lateAck(tt.ack, 0, "P490", turn, render)
			if late != tt.late {
				t.Fatalf("rendered later: %v, want %v", late, tt.late)
			}
			if !late {
				return
			}
			got, err := r()
			want, werr := tt.ack(0, "P490", turn)
			if got != want || err != werr {
				t.Errorf("rendered later: %q (%v), at once: %q (%v)", got, err, want, werr)
			}
		})
	}
}
