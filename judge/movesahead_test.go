package judge

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rallyjudge/rallyjudge/mail"
	"github.com/rallyjudge/rallyjudge/store"
)

// movesAheadJudge is a judge of game "live" (Alice, Bob, Carol on the sprint course)
// on a clock that stands, and the players' secrets; ahead false: its readers check no
// sheet ahead (checkMoveAhead), as before.
func movesAheadJudge(t *testing.T, ahead bool) (*Judge, map[string]string) {
	t.Helper()
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	j := freshJudge(t)
	j.Now = (&fakeClock{t: at}).Now
	j.noCheckAhead = !ahead
	spec := GameSpec{Tag: "live", Settings: map[string]string{"course": "sprint"}, Seed: 3, GMEmail: "gm@example.test",
		Deadline: store.DeadlineRule{Kind: store.DeadlineAfterReport, Hours: 24},
		Players: []PlayerSpec{{Robot: "Alice", Email: "alice@example.test"}, {Robot: "Bob", Email: "bob@example.test"},
			{Robot: "Carol", Email: "carol@example.test"}}}
	secrets, err := j.CreateGame(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	return j, secrets
}

// movesAheadMails are sheets of game "live" as the fetcher hands them over, the n-th
// mail's Message-ID its own whatever the judge: accepted programs and standing orders,
// a fold, sheets with errors, one for another turn, a robot named wrong, one named by
// its sender alone, a wrong secret, one from a stranger.
func movesAheadMails(t *testing.T, j *Judge, secrets map[string]string, first uint32) []mail.Fetched {
	t.Helper()
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	alice, aliceProg := programSheet(t, j, secrets, "Alice", 0, 77)
	_, bobProg := programSheet(t, j, secrets, "Bob", 1, 78)
	a, b, c := secrets["Alice"], secrets["Bob"], secrets["Carol"]
	bodies := []struct{ from, body string }{
		{"alice", alice},
		{"alice", "robot Alice\nsecret " + a + "\nif damage > 4 then power down\n"},
		{"bob", "robot Bob\nsecret " + b + "\nP999 P1 P2\nmove 3 please\n"},
		{"bob", "Hi judge,\n\n#orders\nrobot Bob\nsecret " + b + "\nif damage > 2 then power down\n#end\n\nthanks\n"},
		{"carol", "secret " + c + "\nif damage > 3 then power down\n"},
		{"alice", "robot Alice\nsecret " + a + "\nturn 9\n" + aliceProg + "\n"},
		{"carol", "robot Karol\nsecret " + c + "\nif damage > 1 then power down\n"},
		{"bob", "robot Bob\nsecret wrong\n" + bobProg + "\n"},
		{"mallory", "robot Alice\nsecret " + a + "\n" + aliceProg + "\n"},
		{"bob", "robot Bob\nsecret " + b + "\n" + bobProg + "\nif damage > 4 then power down\n"},
		{"alice", "robot Alice\nsecret " + a + "\nif damage > 1 then power down\n"},
	}
	var msgs []mail.Fetched
	for i, m := range bodies {
		raw := rawMail(m.from+"@example.test", "[RR live] orders", m.body, "Message-Id", fmt.Sprintf("<ahead.%d@client.test>", int(first)+i))
		msgs = append(msgs, mail.Fetched{UID: first + uint32(i), Raw: raw, Received: at})
	}
	return msgs
}

// movesAheadSeen is what j stored of game "live" and mailed: every order version and
// every outbox row, byte for byte.
func movesAheadSeen(t *testing.T, j *Judge) []string {
	t.Helper()
	var out []string
	if err := j.Store.View(context.Background(), func(tx *store.Tx) error {
		g, err := tx.GameByTag("live")
		if err != nil {
			return err
		}
		for turn := 1; turn <= g.CurrentTurn; turn++ {
			for _, robot := range []string{"Alice", "Bob", "Carol"} {
				vs, err := tx.OrderVersions(g.ID, turn, robot)
				if err != nil {
					return err
				}
				for _, v := range vs {
					out = append(out, fmt.Sprintf("version %d of %s, turn %d, inbox %d: valid %v errors %q parsed %s received %v raw %q",
						v.ID, robot, turn, v.InboxID, v.Valid, v.Errors, v.Parsed, v.Received, v.Raw))
				}
			}
		}
		ms, err := tx.OutboxByGame(g.ID, -1)
		if err != nil {
			return err
		}
		slices.SortFunc(ms, func(a, b store.OutboxMail) int { return int(a.ID - b.ID) })
		for _, m := range ms {
			// a multipart mail's boundary is drawn at random
			raw := string(m.Raw)
			for _, b := range boundary.FindAllStringSubmatch(raw, -1) {
				raw = strings.ReplaceAll(raw, b[1], "BOUNDARY")
			}
			out = append(out, fmt.Sprintf("outbox %d %s %s to %v:\n%s", m.ID, m.Kind, m.MessageID, m.To, raw))
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

var boundary = regexp.MustCompile(`boundary="?([0-9a-zA-Z'()+_,./:=?-]+)`)

// sameSeen fails t where got (sheets checked ahead) and want (checked by the writer)
// differ.
func sameSeen(t *testing.T, got, want []string) {
	t.Helper()
	if len(want) == 0 {
		t.Fatal("nothing stored")
	}
	sameLines(t, got, "with sheets checked ahead", want, "checked by the writer")
}

// sameLines fails t at each index where got and want (named gotAs and wantAs in the
// message) differ, one longer than the other included.
func sameLines(t *testing.T, got []string, gotAs string, want []string, wantAs string) {
	t.Helper()
	for i := range max(len(got), len(want)) {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			t.Errorf("#%d %s:\n%s\n%s:\n%s", i, gotAs, g, wantAs, w)
		}
	}
}

// TestSheetsCheckedAheadAreJudgedAsByTheWriter: a batch's readers check its sheets on
// the position the writer judged the game's last sheet with (movesahead.go), and the
// writer takes what they found: the versions stored and the mails, byte for byte, are
// what a judge that checks each sheet on the writer stores and mails. The batch read
// while the writer is still busy (prepareBatch) is checked ahead too, and the next
// turn's, once its position is decoded.
func TestSheetsCheckedAheadAreJudgedAsByTheWriter(t *testing.T) {
	run := func(ahead bool) ([]string, int64, int64) {
		j, secrets := movesAheadJudge(t, ahead)
		ctx := context.Background()
		batch := func(msgs []mail.Fetched, prepare bool) {
			if prepare {
				j.prepareBatch(1, msgs)
			}
			for i, err := range j.HandleBatch(ctx, 1, msgs) {
				if err != nil {
					t.Fatalf("mail %d: %v", i, err)
				}
			}
		}
		// the first sheet decodes the position; the batch after it is checked ahead
		batch(movesAheadMails(t, j, secrets, 1)[:1], false)
		batch(movesAheadMails(t, j, secrets, 100), false)
		batch(movesAheadMails(t, j, secrets, 200), true)
		// Carol's program: the turn is played, then a sheet decodes turn 2's position
		_, carolProg := programSheet(t, j, secrets, "Carol", 2, 79)
		last := rawMail("carol@example.test", "[RR live] orders", "robot Carol\nsecret "+secrets["Carol"]+"\n"+carolProg+"\n",
			"Message-Id", "<ahead.carol@client.test>")
		batch([]mail.Fetched{{UID: 300, Raw: last, Received: j.now()}}, false)
		batch(movesAheadMails(t, j, secrets, 400)[1:2], false)
		batch(movesAheadMails(t, j, secrets, 500), true)
		return movesAheadSeen(t, j), j.positions.used.Load(), j.positions.missed.Load()
	}
	got, used, missed := run(true)
	want, usedOff, _ := run(false)
	t.Logf("the writer took %d sheets checked ahead, checked %d again", used, missed)
	if used < 10 || missed > 0 || usedOff > 0 {
		t.Errorf("the writer took %d sheets checked ahead and checked %d again, want 10 or more and none; without reading ahead it took %d", used, missed, usedOff)
	}
	if !slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, "turn 2, inbox") }) {
		t.Error("no version for turn 2: the turn was not played")
	}
	sameSeen(t, got, want)
}

// TestACheckAheadOnAnotherPositionIsCheckedAgain: a batch read (and checked) while the
// game was at turn 1, judged after the turn was played: the writer checks each sheet
// again on turn 2's position, and stores and mails what a judge that checks on the
// writer does.
func TestACheckAheadOnAnotherPositionIsCheckedAgain(t *testing.T) {
	run := func(ahead bool) ([]string, int64, int64) {
		j, secrets := movesAheadJudge(t, ahead)
		ctx := context.Background()
		warm := movesAheadMails(t, j, secrets, 1)[1:2]
		for _, err := range j.HandleBatch(ctx, 1, warm) {
			if err != nil {
				t.Fatal(err)
			}
		}
		msgs := movesAheadMails(t, j, secrets, 100)
		j.prepareBatch(1, msgs)
		rb, _ := prepared(1, msgs)
		rb.await(len(msgs) - 1) // every sheet read and checked on turn 1's position
		var g store.Game
		_ = j.Store.View(ctx, func(tx *store.Tx) (err error) { g, err = tx.GameByTag("live"); return err })
		if played, err := j.ResolveNow(ctx, g.ID); err != nil || !played {
			t.Fatalf("turn 1 not played: %v %v", played, err)
		}
		for i, err := range j.HandleBatch(ctx, 1, msgs) {
			if err != nil {
				t.Fatalf("mail %d: %v", i, err)
			}
		}
		return movesAheadSeen(t, j), j.positions.used.Load(), j.positions.missed.Load()
	}
	got, used, missed := run(true)
	want, _, _ := run(false)
	t.Logf("the writer took %d sheets checked ahead, checked %d again", used, missed)
	if used > 0 || missed < 4 {
		t.Errorf("the writer took %d sheets checked on turn 1's position and checked %d again, want none and 4 or more", used, missed)
	}
	sameSeen(t, got, want)
}
